"""Subgame re-solving on Leduc (the Libratus experiment) against brute force and theorems.

Oracles: the rules walked history by history (subgame roots, Bayes ranges, best
responses by enumerating pure strategies), the safety theorem of the re-solving
gadget (Burch, Johanson & Bowling 2014; Brown & Sandholm 2017), and OpenSpiel's
exploitability.
"""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np
import numpy.typing as npt
import pytest
from open_spiel.python.algorithms import exploitability as openspiel_exploitability

from checkraise.errors import ConfigError
from checkraise.games import LeducPoker, build_tree
from checkraise.games.leduc import LeducState
from checkraise.solvers import Policy, VectorisedCFRSolver, exploitability, public_exploitability
from checkraise.solvers.subgame import (
    Subgame,
    blueprint_policy,
    combine,
    counterfactual_best_response,
    libratus_experiment,
    resolve_all,
    resolve_safe,
    subgame_reach,
    subgames,
)
from checkraise.solvers.vectorised import ResolvingGadget
from tests.solvers.openspiel_policy import to_openspiel

CARDS = range(6)


@cache
def _blueprint(abstraction: str) -> Policy:
    return blueprint_policy(abstraction, 1000)


def _random_policy(seed: int) -> Policy:
    return Policy.random(build_tree(LeducPoker()), np.random.default_rng(seed))


def _deals(board: int) -> list[tuple[int, int]]:
    return [(a, b) for a in CARDS for b in CARDS if len({a, b, board}) == 3]


def _replay(cards: tuple[int, int], subgame: Subgame) -> LeducState:
    state = LeducPoker().initial_state().child(cards[0]).child(cards[1])
    for action in subgame.first_round:
        state = state.child(action)
    return state.child(subgame.board)


def test_subgames_are_every_second_round_public_state() -> None:
    tree = build_tree(LeducPoker())
    roots = set()
    for node in range(tree.num_nodes):
        if tree.kind[node] == 1 and tree.parent[node] > 0:  # the board's chance node
            history = []
            up = node
            while tree.parent[up] >= 0 and tree.kind[tree.parent[up]] != 1:
                history.append(int(tree.action[up]))
                up = int(tree.parent[up])
            for child in tree.children(node):
                roots.add((tuple(reversed(history)), int(tree.action[child])))
    assert {(s.first_round, s.board) for s in subgames()} == roots
    assert len(subgames()) == 30


@pytest.mark.parametrize("seed", [1, 2])
def test_ranges_equal_brute_force_bayes(seed: int) -> None:
    policy = _random_policy(seed)
    for subgame in (Subgame((1, 1), 0), Subgame((1, 2, 2, 1), 4), Subgame((2, 1), 3)):
        reach = subgame_reach(policy, subgame)
        # Brute force: the probability of each deal and the line, history by history.
        joint = np.zeros((6, 6))
        for c0, c1 in _deals(subgame.board):
            state = LeducPoker().initial_state().child(c0).child(c1)
            probability = 1.0 / 30.0
            for action in subgame.first_round:
                probability *= float(policy.row(state.information_set_key())[action])
                state = state.child(action)
            joint[c0, c1] = probability / 4.0  # the board card among the four left
        ours = np.zeros((6, 6))
        for c0, c1 in _deals(subgame.board):
            ours[c0, c1] = reach[0, c0] * reach[1, c1] / 120.0
        assert np.allclose(ours, joint, rtol=1e-12, atol=0.0)
        # So the Bayes ranges (posterior of each private card) agree too.
        for player in range(2):
            posterior = joint.sum(axis=1 - player) / joint.sum()
            assert np.allclose(ours.sum(axis=1 - player) / ours.sum(), posterior)


def _counterfactual_value(
    state: LeducState, player: int, policy: Policy, pure: dict[str, int]
) -> float:
    if state.is_terminal():
        return state.returns()[player]
    if state.current_player() == player:
        return _counterfactual_value(
            state.child(pure[state.information_set_key()]), player, policy, pure
        )
    row = policy.row(state.information_set_key())
    return sum(
        float(row[a]) * _counterfactual_value(state.child(a), player, policy, pure)
        for a in state.legal_actions()
        if row[a] > 0.0
    )


def _brute_force_cbv(
    policy: Policy,
    subgame: Subgame,
    player: int,
    card: int,
    reach: npt.NDArray[np.float64] | None = None,
) -> float:
    """Max over every pure strategy of ``player`` holding ``card`` in the subgame, the
    other player reaching it as ``reach`` says (default: as ``policy`` plays)."""
    if reach is None:
        reach = subgame_reach(policy, subgame)
    others = [c for c in CARDS if c not in (card, subgame.board)]
    roots = {o: _replay((card, o) if player == 0 else (o, card), subgame) for o in others}
    infosets: dict[str, list[int]] = {}
    pending = list(roots.values())
    while pending:
        state = pending.pop()
        if state.is_terminal():
            continue
        if state.current_player() == player:
            infosets[state.information_set_key()] = state.legal_actions()
        pending.extend(state.child(a) for a in state.legal_actions())
    keys = sorted(infosets)
    best = -np.inf
    for choice in itertools.product(*(infosets[k] for k in keys)):
        pure = dict(zip(keys, choice, strict=True))
        value = sum(
            reach[1 - player, o] / 120.0 * _counterfactual_value(roots[o], player, policy, pure)
            for o in others
        )
        best = max(best, value)
    return float(best)


@pytest.mark.parametrize("player", [0, 1])
@pytest.mark.parametrize("subgame", [Subgame((1, 2, 1), 5), Subgame((2, 2, 1), 2)])
def test_counterfactual_best_response_equals_brute_force(player: int, subgame: Subgame) -> None:
    for policy in (_random_policy(3), _blueprint("jq")):
        values = counterfactual_best_response(policy, subgame, player)
        assert values[subgame.board] == 0.0
        for card in CARDS:
            if card != subgame.board:
                expected = _brute_force_cbv(policy, subgame, player, card)
                assert values[card] == pytest.approx(expected, rel=1e-12, abs=1e-15)


def test_subgame_exploitability_weighs_each_card_by_its_reach() -> None:
    """NashConv of a subgame from its ranges: each player's best-response value is his
    reach-weighted counterfactual best-response values (brute force), the two summed."""
    policy = _random_policy(4)
    subgame = Subgame((2, 2, 1), 5)
    reach = subgame_reach(policy, subgame)
    gains = [
        sum(reach[p, c] * _brute_force_cbv(policy, subgame, p, c) for c in CARDS if c != 5)
        for p in range(2)
    ]
    ours = public_exploitability(subgame.public_tree(), policy, reach)
    assert ours == pytest.approx(sum(gains) / 2.0, rel=1e-12)
    # And a solve from those ranges converges to an equilibrium of the subgame.
    solver = VectorisedCFRSolver(subgame.public_tree(), "cfr+", root_reach=reach)
    solver.iterate(500)
    assert 0.0 <= solver.exploitability() < 1e-4 < ours


@pytest.mark.parametrize(
    ("abstraction", "algorithm", "seed"),
    [("jq", "cfr+", 0), ("jq-paired", "cfr+", 0), ("jq", "es-mccfr", 1), ("jq", "es-mccfr", 2)],
)
def test_safe_resolving_is_never_worse_than_the_blueprint(
    abstraction: str, algorithm: str, seed: int
) -> None:
    iterations = 1000 if algorithm == "cfr+" else 20_000
    result = libratus_experiment(iterations, 500, abstraction, seed, algorithm)
    # The abstraction leaves a clearly exploitable blueprint in real Leduc ...
    assert result.blueprint > 0.05
    # ... and safe re-solving never increases it (float rounding aside), nor does
    # Maxmargin (the blueprint has margin 0, so the best smallest margin is >= 0).
    assert result.safe <= result.blueprint + 1e-12
    assert result.maxmargin <= result.blueprint + 1e-12
    assert result.milli == pytest.approx(
        (1000 * result.blueprint, 1000 * result.unsafe, 1000 * result.safe,
         1000 * result.maxmargin)
    )


@pytest.mark.parametrize("maxmargin", [False, True])
def test_safe_resolving_bounds_every_opponent_card_by_its_blueprint_value(
    maxmargin: bool,
) -> None:
    """The gadget's promise, subgame by subgame and card by card."""
    blueprint = _blueprint("jq")
    for subgame in (Subgame((1, 1), 5), Subgame((2, 2, 1), 0)):
        resolved = blueprint.probs.copy()
        for key, row in resolve_safe(blueprint, subgame, 1000, maxmargin).items():
            resolved[blueprint.index[key]] = row
        policy = Policy(blueprint.keys, resolved, blueprint.legal, "leduc", {})
        for opponent in range(2):
            before = counterfactual_best_response(blueprint, subgame, opponent)
            after = counterfactual_best_response(policy, subgame, opponent)
            assert np.all(after <= before + 1e-5)


@pytest.mark.parametrize("subgame", [Subgame((2, 2, 1), 5), Subgame((1, 2, 1), 0)])
def test_maxmargin_attains_the_best_smallest_margin(subgame: Subgame) -> None:
    """The Maxmargin solve is an equilibrium of one zero-sum game, certified by
    brute-force best responses, with a blueprint whose reach is very uneven.

    Weak duality: whatever hand choice q and play s of the gadget player, no strategy
    of the re-solved player P has a smallest margin min_h T_h - CBV_h above
    sum_h q_h T_h + P's best-response value against the gadget player entering with
    q and playing s. The solve's average strategy must reach that bound set by the
    gadget player's average (q, s). If the reach P's solve meets differed from the
    choice the gadget player learns (his blueprint reach times q), the two sides
    would solve different games and the bound would stay open.
    """
    blueprint = _random_policy(5)
    reach = subgame_reach(blueprint, subgame)
    cards = [c for c in CARDS if c != subgame.board]
    for player in range(2):
        opponent = 1 - player
        alternative = counterfactual_best_response(blueprint, subgame, opponent)
        solver = VectorisedCFRSolver(
            subgame.public_tree(), "cfr+", root_reach=reach,
            gadget=ResolvingGadget(opponent, alternative, maxmargin=True),
        )
        solver.iterate(1000)
        average = solver.average_policy()
        both = combine(blueprint, {key: average.row(key) for key in average.keys}, {})
        margin = min(alternative[h] - _brute_force_cbv(both, subgame, opponent, h) for h in cards)
        choice = solver.gadget_average
        entering = reach.copy()
        entering[opponent] = choice
        bound = float(choice @ alternative) + sum(
            reach[player, c] * _brute_force_cbv(both, subgame, player, c, entering)
            for c in cards
        )
        assert margin <= bound + 1e-12
        # The blueprint's margin is 0; these subgames allow well above 1e-2.
        assert bound - 1e-4 <= margin
        assert margin > 1e-2


def test_safe_resolving_of_an_equilibrium_stays_near_equilibrium() -> None:
    # Dropping the suits loses nothing: this blueprint is an equilibrium of Leduc.
    equilibrium = _blueprint("none")
    before = exploitability(build_tree(LeducPoker()), equilibrium)
    assert before < 1e-3
    after = exploitability(build_tree(LeducPoker()), resolve_all(equilibrium, "safe", 1000))
    # Leduc's chips are 1 ante: 1e-3 is a thousandth of the ante per hand.
    assert after <= before + 1e-3


def test_openspiel_agrees_on_the_resolved_exploitability() -> None:
    policy = resolve_all(_blueprint("jq"), "safe", 300)
    ours = exploitability(build_tree(LeducPoker()), policy)
    game, tabular = to_openspiel("leduc", policy)
    assert ours == pytest.approx(openspiel_exploitability.exploitability(game, tabular), abs=1e-9)


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ConfigError, match="'jk'"):
        libratus_experiment(10, 10, "jk")
    with pytest.raises(ConfigError, match="iterations_subgame=0"):
        libratus_experiment(10, 0, "jq")
    with pytest.raises(ConfigError, match=r"'cfr\+\+'"):
        blueprint_policy("jq", 10, "cfr++")
    with pytest.raises(ConfigError, match="'reach-maxmargin'"):
        resolve_all(_blueprint("jq"), "reach-maxmargin", 10)
