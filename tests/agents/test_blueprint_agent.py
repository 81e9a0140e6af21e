"""The ``blueprint`` bot: action translation, legality, its action probabilities, ACPC play.

A small blueprint is trained once per session (the fcpa abstraction, ACPC stacks, a
short run): strength is not the point here, the mapping between the real game and the
abstract tree is.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from tests.protocol.harness import run_local_match
from tests.shared_data import NL2_GAME

from checkraise.agents import make_agent
from checkraise.agents.blueprint import BlueprintAgent, load_blueprint
from checkraise.agents.translation import pseudo_harmonic, translate
from checkraise.arena.match import play_match
from checkraise.cards import COMBO_CARDS, parse_cards
from checkraise.engine import Action, State, TableConfig
from checkraise.errors import CheckraiseError, ConfigError
from checkraise.games.holdem import CALL, PRESETS, RAISE, build_betting_tree
from checkraise.protocol import load_gamedef

# -- the pseudo-harmonic mapping against hand-computed values


@pytest.mark.parametrize(
    ("a", "b", "x", "expected"),
    [
        (0.5, 1.0, 0.75, (0.25 * 1.5) / (0.5 * 1.75)),  # 0.428571...
        (0.25, 1.0, 0.5, (0.5 * 1.25) / (0.75 * 1.5)),  # 0.555...
        (1.0, 3.0, 2.0, (1.0 * 2.0) / (2.0 * 3.0)),  # 1/3
        (0.0, 1.0, 0.5, (0.5 * 1.0) / (1.0 * 1.5)),  # 1/3
        (0.5, 1.0, 0.5, 1.0),
        (0.5, 1.0, 1.0, 0.0),
    ],
)
def test_pseudo_harmonic_matches_the_formula_by_hand(
    a: float, b: float, x: float, expected: float
) -> None:
    assert pseudo_harmonic(a, b, x) == pytest.approx(expected, abs=1e-12)


def test_pseudo_harmonic_is_below_the_linear_mapping_above_the_midpoint() -> None:
    # Ganzfried & Sandholm: f_A(x) falls faster than the arithmetic interpolation near A
    # for A, B > 0; at the geometric-harmonic point it is 1/2: x* = (A + B + 2AB) / (A + B + 2)
    a, b = 0.5, 2.0
    x_half = (a + b + 2 * a * b) / (a + b + 2)
    assert pseudo_harmonic(a, b, x_half) == pytest.approx(0.5)


@pytest.mark.parametrize(("a", "b", "x"), [(1.0, 0.5, 0.7), (0.5, 1.0, 1.5), (-0.1, 1.0, 0.5)])
def test_pseudo_harmonic_refuses_sizes_out_of_order(a: float, b: float, x: float) -> None:
    with pytest.raises(ConfigError, match="pseudo-harmonic mapping needs"):
        pseudo_harmonic(a, b, x)


def test_translate_randomizes_with_the_formula_and_the_deterministic_variant_rounds() -> None:
    sizes = [0.5, 1.0, 30.0]
    p_low = pseudo_harmonic(0.5, 1.0, 0.75)
    draws = np.random.default_rng(0).random(20_000)
    share = np.mean([translate(sizes, 0.75, float(u)) == 0 for u in draws])
    assert share == pytest.approx(p_low, abs=0.015)
    assert translate(sizes, 0.75, 0.0, "deterministic") == 1  # p_low < 1/2
    assert translate(sizes, 0.6, 0.99, "deterministic") == 0
    assert translate(sizes, 0.1, 0.99) == 0 and translate(sizes, 50.0, 0.0) == 2
    with pytest.raises(ConfigError, match="unknown translation 'nearest'"):
        translate(sizes, 0.7, 0.5, "nearest")


# -- the bot in the real game


def test_an_opponent_bet_at_an_abstract_size_lands_on_that_node(blueprint_file: Path) -> None:
    bot = BlueprintAgent(file=str(blueprint_file), seed=1)
    state = State(TableConfig.nolimit(2, stacks=20000, small_blind=50, big_blind=100), seed=4)
    bot.begin_hand(1, state.config, state.hole_cards[1], 0)
    state.step(Action.raise_to(300))  # the fcpa open: a pot raise to 3 big blinds
    assert bot._locate(state.observation(1)) == bot.tree.find("r300")


def test_an_off_tree_bet_is_read_as_a_neighbour_with_pseudo_harmonic_odds(
    blueprint_file: Path,
) -> None:
    # fcpa's only opens are the pot raise to 300 and all-in: an open to 3,000 is read as
    # r300 with the pseudo-harmonic probability, as all-in otherwise
    seen: dict[str, int] = {}
    for seed in range(300):
        bot = BlueprintAgent(file=str(blueprint_file), seed=seed)
        state = State(TableConfig.nolimit(2, stacks=20000, small_blind=50, big_blind=100), seed=4)
        bot.begin_hand(1, state.config, state.hole_cards[1], 0)
        state.step(Action.raise_to(3000))
        node = bot._locate(state.observation(1))
        line = bot.tree.lines[bot.tree.parent[node]] + bot.tree.action_token(node)
        seen[line] = seen.get(line, 0) + 1
    # sizes as pot fractions after calling: r300 -> (300-100)/(150+50) = 1, all-in -> 99.5,
    # x = (3000-100)/200 = 14.5
    p_low = pseudo_harmonic(1.0, (20000 - 100) / 200, (3000 - 100) / 200)
    assert set(seen) == {"r300", "r20000"}
    assert seen["r300"] / 300 == pytest.approx(p_low, abs=0.09)


def test_the_bot_never_makes_an_illegal_move_over_10000_random_opponent_hands(
    blueprint_file: Path,
) -> None:
    # the arena raises on any illegal action; 5,000 deals x 2 seatings
    result = play_match(f"blueprint:file={blueprint_file}", "random", hands=5000, seed=17,
                        workers=1)
    assert result.total_chips(0) == -result.total_chips(1)
    assert result.config.hands * result.config.num_rotations == 10_000


def test_other_stacks_and_blinds_are_played_legally(blueprint_file: Path) -> None:
    result = play_match(f"blueprint:file={blueprint_file}", "raise", hands=300, seed=3,
                        stack=3000, small_blind=10, big_blind=20, workers=1)
    assert result.total_chips(0) == -result.total_chips(1)


def test_action_probabilities_agree_with_the_actions_the_bot_takes(blueprint_file: Path) -> None:
    state = State(TableConfig.nolimit(2, stacks=20000, small_blind=50, big_blind=100), seed=9,
                  hole_cards=[tuple(parse_cards("Ah 7c")), tuple(parse_cards("Kd Qd"))])
    state.step(Action.raise_to(300))
    state.step(Action.call())  # to the flop; the big blind acts first
    obs = state.observation(1)
    bot = BlueprintAgent(file=str(blueprint_file), seed=0)
    bot.begin_hand(1, state.config, state.hole_cards[1], 0)
    hap = bot.action_probabilities(obs)
    dead = {int(c) for c in obs.board} | set(state.hole_cards[1])
    live = np.array([not ({int(a), int(b)} & set(obs.board)) for a, b in COMBO_CARDS])
    assert np.allclose(hap.probs[live].sum(axis=1), 1.0)
    assert np.all(hap.probs[~live] == 0.0)
    mine = int(np.flatnonzero([set(map(int, c)) == set(state.hole_cards[1])
                               for c in COMBO_CARDS])[0])
    counts = dict.fromkeys(hap.actions, 0)
    n = 3000
    for seed in range(n):
        b = BlueprintAgent(file=str(blueprint_file), seed=seed)
        b.begin_hand(1, state.config, state.hole_cards[1], 0)
        counts[b.act(obs)] += 1
    for k, action in enumerate(hap.actions):
        p = hap.probs[mine, k]
        assert counts[action] / n == pytest.approx(p, abs=4 * np.sqrt(p * (1 - p) / n) + 1e-9)
    assert dead  # the observation had a board


def test_bad_options_and_tables_are_refused(blueprint_file: Path, tmp_path: Path) -> None:
    with pytest.raises(CheckraiseError, match="no such file"):
        make_agent(f"blueprint:file={tmp_path / 'nope.npz'}")
    with pytest.raises(CheckraiseError, match="translation='nearest'"):
        make_agent(f"blueprint:file={blueprint_file},translation=nearest")
    bot = BlueprintAgent(file=str(blueprint_file), seed=1)
    cfg = TableConfig.nolimit(3, stacks=20000)
    with pytest.raises(ConfigError, match="heads-up"):
        bot.begin_hand(0, cfg, (0, 1), 0)


def test_the_bot_plays_over_the_acpc_protocol(blueprint_file: Path) -> None:
    game = load_gamedef(NL2_GAME)
    agents = [make_agent(f"blueprint:file={blueprint_file}", seed=1), make_agent("random", seed=2)]
    _log, result, clients = run_local_match(game, agents, num_hands=60, seed=5, names=["B", "R"])
    assert [c.error for c in clients] == [None, None]
    assert result.hands == 60 and sum(result.totals) == 0


def test_antes_count_in_the_pot_but_not_in_raise_to_amounts(blueprint_file: Path) -> None:
    # blinds 50/100 and antes 100: the pot is 350, the button's pot raise is to
    # 100 + (350 + 50) = 500 (raise-to amounts leave antes out), the fcpa open r300
    cfg = TableConfig.nolimit(2, stacks=20000, small_blind=50, big_blind=100, ante=100)
    state = State(cfg, seed=4)
    button = BlueprintAgent(file=str(blueprint_file), seed=1)
    button.begin_hand(0, cfg, state.hole_cards[0], 0)
    raises = [a.amount for a in button.action_probabilities(state.observation(0)).actions
              if a.amount]
    assert raises == [500, 19900]  # and all-in: the stack less the ante
    state.step(Action.raise_to(500))
    bot = BlueprintAgent(file=str(blueprint_file), seed=1)
    bot.begin_hand(1, cfg, state.hole_cards[1], 0)
    assert bot._locate(state.observation(1)) == bot.tree.find("r300")


@pytest.mark.parametrize(
    ("sizes", "x", "named"),
    [
        ([1.0, 0.5], 0.75, "sizes=[1.0, 0.5]"),
        ([0.5, 0.5, 1.0], 0.75, "sizes=[0.5, 0.5, 1.0]"),
        ([0.5, 1.0], float("nan"), "x=nan"),
    ],
)
def test_translate_refuses_unsorted_sizes_and_a_bet_that_is_not_a_number(
    sizes: list[float], x: float, named: str
) -> None:
    # unsorted sizes would map a bet onto the wrong neighbour; nan read as the largest
    with pytest.raises(ConfigError) as err:
        translate(sizes, x, u=0.5)
    assert named in str(err.value)


def test_a_real_all_in_is_read_as_the_abstract_all_in_at_any_stack(blueprint_file: Path) -> None:
    # 100 big blinds deep (the blueprint plays 200): a shove of 10,000 is a raise of about
    # 50 pots, which the mapping between the abstract sizes alone would not always read as
    # all-in (it reads it as the pot raise r300 with probability 0.02); being all-in, it must be
    for seed in range(300):
        bot = BlueprintAgent(file=str(blueprint_file), seed=seed)
        state = State(TableConfig.nolimit(2, stacks=10000, small_blind=50, big_blind=100), seed=4)
        bot.begin_hand(1, state.config, state.hole_cards[1], 0)
        state.step(Action.raise_to(10000))
        node = bot._locate(state.observation(1))
        assert bot.tree.action_token(node) == "r20000", seed


@pytest.mark.parametrize(
    ("name", "actions", "steps"), [("minraise2", "minraise2", 255), ("small", "small", None)]
)
def test_the_shipped_blueprints_load_with_their_abstraction_and_command(
    name: str, actions: str, steps: int | None
) -> None:
    bp = load_blueprint(name)
    assert bp.game.actions.name == actions and bp.game.rules.stack == 20000
    assert bp.header["command"].startswith("checkraise blueprint train")
    assert bp.header.get("steps") == steps  # minraise2 ships packed in 1/255 steps
    for node in bp.game.tree.decision_nodes[:50]:
        row = bp.row(int(node), 0)
        assert float(row.sum()) == pytest.approx(1.0, abs=1e-6) and (row >= 0).all()


def test_the_default_bot_plays_the_shipped_minraise2_legally() -> None:
    bot = make_agent("blueprint", seed=1)
    assert isinstance(bot, BlueprintAgent) and bot.game.actions.name == "minraise2"
    result = play_match("blueprint", "random", hands=300, seed=5, workers=1)
    assert result.config.hands == 300 and result.actions[0].to_json()["decisions"] > 0


def test_biases_by_street_and_by_several_kinds_at_once() -> None:
    from checkraise.agents.blueprint import bias_rows, street_biases

    rows = np.array([[0.5, 0.25, 0.25]])  # fold, call, raise
    kinds = np.array([0, 1, 2])
    # fold x2 and raise x4: 1, 0.25, 1 renormalised
    assert np.allclose(bias_rows(rows, kinds, "fold2raise4"), [[4 / 9, 1 / 9, 4 / 9]])
    assert np.allclose(bias_rows(rows, kinds, "call"), [[0.25, 0.625, 0.125]])
    assert np.allclose(bias_rows(rows, kinds, "raise1"), rows)
    assert street_biases("raise25/fold") == ("raise25", "fold", "fold", "fold")
    assert street_biases("none/call/call/fold") == ("none", "call", "call", "fold")
    assert street_biases("call") == ("call",) * 4
    for bad in ["sideways", "raise/sideways", "none3", "raise0", "foldfold", "a/b/c", "fold2x",
                "", "raise/"]:
        with pytest.raises(ConfigError, match=f"bias='{bad}'"):
            street_biases(bad)


def test_a_bounded_bias_applies_only_facing_a_bet_no_larger_than_its_bound() -> None:
    from checkraise.agents.blueprint import bias_rows, street_biases

    rows = np.array([[0.5, 0.25, 0.25]])  # fold, call, raise
    kinds = np.array([0, 1, 2])
    # call x4 facing half the pot: 0.5, 1, 0.25 renormalised
    assert np.allclose(bias_rows(rows, kinds, "call4@0.5", 0.5), [[2 / 7, 4 / 7, 1 / 7]])
    assert np.allclose(bias_rows(rows, kinds, "call4@0.5", 0.75), rows)
    assert np.allclose(bias_rows(rows, kinds, "call4@0.5", None), rows)  # nothing to call
    # the unbounded fold x2 still applies where the bounded call does not
    assert np.allclose(bias_rows(rows, kinds, "fold2call4@0.5", 1.0), [[2 / 3, 1 / 6, 1 / 6]])
    assert street_biases("none/call25@0.5") == ("none",) + ("call25@0.5",) * 3
    for bad in ["call@", "call@x", "@0.5", "call25@0.5@1", "call@-1", "call@0.5call"]:
        with pytest.raises(ConfigError, match="largest bet faced"):
            street_biases(bad)


def test_facing_sizes_agree_with_each_raise_sized_one_at_a_time() -> None:
    from checkraise.agents.blueprint import _size, facing_sizes

    tree = build_betting_tree(PRESETS["fcpa"])
    sizes = facing_sizes(tree)
    for node in range(1, tree.num_nodes):
        if tree.act_kind[node] == RAISE:
            want = _size(tree, int(tree.parent[node]), float(tree.act_to[node]))
            assert sizes[node] == pytest.approx(want)
        else:
            assert np.isnan(sizes[node])
    # the flop: a pot bet of 600 into 600, then a pot raise to 2,700 (1,800 into 1,800)
    assert sizes[tree.find("r300c/r900")] == pytest.approx(1.0)
    assert sizes[tree.find("r300c/r900r2700")] == pytest.approx(1.0)
    assert np.isnan(sizes[tree.find("r300c/")])  # a new street: nothing to call


def test_the_bot_biases_by_the_size_of_the_bet_it_faces(blueprint_file: Path) -> None:
    node = load_blueprint(blueprint_file).game.tree.find("r300c/r900")  # facing a pot bet
    plain = BlueprintAgent(file=str(blueprint_file), seed=1)
    small_only = BlueprintAgent(file=str(blueprint_file), bias="none/call1000@0.5", seed=1)
    pot_too = BlueprintAgent(file=str(blueprint_file), bias="none/call1000@1", seed=1)
    tree = plain.tree
    pure = plain._pure(plain.blueprint.rows(node, np.arange(3)))
    kinds = tree.act_kind[tree.children(node)]
    call = int(np.flatnonzero(kinds == CALL)[0])
    assert np.allclose(small_only._biased(node, pure, small_only._street_bias), pure)
    more = pot_too._biased(node, pure, pot_too._street_bias)
    want = pure.copy()
    want[:, call] *= 1000.0
    assert np.allclose(more, want / want.sum(axis=1, keepdims=True))
    assert np.all(more[:, call] > pure[:, call])


def test_the_nearest_decision_agrees_with_a_node_by_node_search() -> None:
    import math

    bot = BlueprintAgent(seed=1)  # the shipped minraise2: 16,308 river decisions a seat
    tree = bot.tree

    def naive(street: int, pos: int, pot: float, to_call: float) -> int:
        best, best_d = -1, math.inf
        for n in tree.decision_nodes:
            if int(tree.street[n]) != street or int(tree.player[n]) != pos:
                continue
            c = tree.committed[n]
            a_pot = float(c[0] + c[1])
            d = abs(math.log(a_pot / pot)) + abs(float(max(c) - c[pos]) / a_pot - to_call / pot)
            if d < best_d:
                best, best_d = int(n), d
        return best

    rng = np.random.default_rng(7)
    for _ in range(60):
        street, pos = int(rng.integers(4)), int(rng.integers(2))
        pot = float(rng.uniform(150, 40000))
        to_call = float(rng.choice([0.0, rng.uniform(0, pot)]))
        assert bot._nearest(street, pos, pot, to_call) == naive(street, pos, pot, to_call)
    # an abstract node's own pot and call find a node with exactly that pot and call
    node = int(tree.find("r300c/r600"))  # the flop, facing a bet of 600 into 600
    c = tree.committed[node]
    pos = int(tree.player[node])
    found = bot._nearest(1, pos, float(c.sum()), float(c.max() - c[pos]))
    assert list(tree.committed[found]) == list(c) and int(tree.player[found]) == pos
