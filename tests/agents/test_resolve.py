"""Range tracking, river subgames and the ``resolve`` bot.

Oracles: a brute-force Bayes posterior over the 1,326 hands from a strategy written in
closed form here; the spot solver's best response with our strategy locked, in a tree
with no gadget, for the safety bound; the engine's legality checks for every action.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pytest

from checkraise.agents.base import BaseAgent
from checkraise.agents.blueprint import BlueprintAgent
from checkraise.agents.range_tracking import board_live, track_ranges
from checkraise.agents.resolve import ResolveAgent
from checkraise.agents.subgame import (
    Subgame,
    _labels_and_sizes,
    blueprint_street,
    locked_solver,
    street_start,
)
from checkraise.arena.match import play_match
from checkraise.cards import COMBO_CARDS, NUM_COMBOS
from checkraise.engine import Action, ActionKind, Observation, State, TableConfig
from checkraise.errors import ConfigError
from checkraise.solvers.spot import _kernels as K

CONFIG = TableConfig.nolimit(2, stacks=20000)


def _raise_probability(combo: int) -> float:
    """A closed-form strategy: raise more often with higher cards."""
    a, b = COMBO_CARDS[combo]
    return float((a // 4 + b // 4 + 1) / 26.0)


class _ClosedForm(BaseAgent):
    """Raises to 3x the amount to call (or 300) with the probability above, else calls."""

    def act(self, observation: Observation) -> Action:
        legal = observation.legal
        assert legal is not None
        if legal.min_raise_to is not None and self.rng.random() < 0.5:
            return Action.raise_to(legal.min_raise_to)
        return Action.call()


def _likelihood(obs: Observation, index: int, action: Action) -> np.ndarray:
    q = np.array([_raise_probability(c) for c in range(NUM_COMBOS)])
    return q if action.kind == ActionKind.RAISE else 1.0 - q


def _brute_force(history: tuple[tuple[int, int, Action], ...], boards: list[tuple[int, ...]],
                 seat: int) -> np.ndarray:
    """Posterior weight of each hand of ``seat``: the product, hand by hand, of the
    closed-form probability of each of his actions, zero when a board card is held."""
    out = np.zeros(NUM_COMBOS)
    final = boards[-1]
    for combo in range(NUM_COMBOS):
        a, b = (int(x) for x in COMBO_CARDS[combo])
        if a in final or b in final:
            continue
        w = 1.0
        for s, _rnd, action in history:
            if s != seat:
                continue
            q = _raise_probability(combo)
            w *= q if action.kind == ActionKind.RAISE else 1.0 - q
        out[combo] = w
    return out


@pytest.mark.parametrize("seed", [3, 11])
def test_range_tracking_matches_brute_force_bayes(seed: int) -> None:
    state = State(CONFIG, seed=seed)
    agents = [_ClosedForm(seed=seed), _ClosedForm(seed=seed + 1)]
    while not state.is_terminal and state.round < 3:
        p = state.current_player
        assert p is not None
        state.step(agents[p].act(state.observation(p)))
    obs = state.observation(0)
    w0, w1 = track_ranges(obs, _likelihood)
    for seat, got in ((0, w0), (1, w1)):
        want = _brute_force(obs.history, [obs.board], seat)
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=0)
    # the cut: before the first action (no board yet) nothing is known
    first0, first1 = track_ranges(obs, _likelihood, upto=0)
    np.testing.assert_array_equal(first0, np.ones(NUM_COMBOS))
    np.testing.assert_array_equal(first1, np.ones(NUM_COMBOS))


def test_an_action_no_hand_takes_leaves_the_range_as_it_was() -> None:
    state = State(CONFIG, seed=1)
    state.step(Action.call())
    obs = state.observation(1)
    w0, _ = track_ranges(obs, lambda o, i, a: np.zeros(NUM_COMBOS))
    assert w0.sum() == pytest.approx(board_live(obs.board).sum())


def _river_observation(seed: int) -> tuple[Observation, tuple[int, ...]] | None:
    """Blueprint against blueprint up to the first river decision, or None."""
    found = blueprint_street(seed, CONFIG)
    if found is None:
        return None
    obs, holes = found
    return obs, holes[obs.seat]


def test_blueprint_reading_agrees_with_its_action_probabilities() -> None:
    """Reading an on-tree action gives the column of that action (two code paths)."""
    bot = BlueprintAgent(file="small", seed=4)
    state = State(CONFIG, seed=4)
    bot.begin_hand(0, CONFIG, state.hole_cards[0], 0)
    obs = state.observation(0)
    hap = bot.action_probabilities(obs)
    for k, action in enumerate(hap.actions):
        np.testing.assert_allclose(bot.read_probabilities(obs, action), hap.probs[:, k],
                                   atol=1e-12)


def _opponent_br_values(sub: Subgame, ranges: tuple[np.ndarray, np.ndarray],
                        me: int) -> tuple[np.ndarray, np.ndarray]:
    """The opponent's best-response chips with each hand against ``sub``'s strategy
    for ``me`` (computed in a fresh solver of the same spot with no gadget), and how
    much each hand weighs (its reach times the compatible reach of mine)."""
    start = sub.start
    mine = 0 if me == start.oop_seat else 1

    def ours(tree: Any, node: int, line: list[str], actor: int, state: Any) -> Any:
        if actor != mine:
            return None
        _names, rows = sub.strategy(line)
        rows[rows.sum(axis=1) == 0, 0] = 1.0
        return rows

    plain = locked_solver(sub.solver.spot, (ranges[start.oop_seat], ranges[1 - start.oop_seat]),
                          start, ours)
    values = plain.root_values(K.MODE_BEST_RESPONSE)[1 - mine]
    mass = plain.root_mass(1 - mine)
    out = np.zeros(NUM_COMBOS)
    weight = np.zeros(NUM_COMBOS)
    live = mass > 0
    out[plain.combos[1 - mine][live]] = values[live] / mass[live]
    weight[plain.combos[1 - mine]] = plain.initial_reach[1 - mine] * mass
    return out, weight


@pytest.mark.parametrize("warm", [0, 200])
@pytest.mark.parametrize("seed", [1, 9])
def test_safe_resolving_never_gives_the_opponent_more_than_the_blueprint(seed: int,
                                                                          warm: int) -> None:
    found = _river_observation(seed)
    assert found is not None, "the seed should reach a river decision"
    obs, hole = found
    me = obs.seat
    bot = ResolveAgent(mode="safe", seed=seed)
    bot.begin_hand(me, CONFIG, hole, seed)
    ranges = bot.ranges(obs)
    unsafe, safe = (Subgame.solve(obs, ranges, me, mode, bot.readers, accuracy=0.2,
                                       warm=warm, max_seconds=float("inf"))
                    for mode in ("unsafe", "safe"))
    bound = safe.gadget_values
    assert bound is not None
    pot = safe.start.pot
    # The gadget bounds each opponent hand by its best-response value against the
    # blueprint, up to how far the re-solve is from solved: by at most 0.5% of the pot
    # over his range, and 5% for any one hand he holds
    got, weight = _opponent_br_values(safe, ranges, me)
    held = weight > 1e-3 * weight.max()
    share = weight / weight.sum()
    assert float(np.dot(np.maximum(got - bound, 0.0), share)) <= 0.005 * pot
    assert np.max((got - bound)[held]) <= 0.05 * pot
    if seed == 9:
        # unsafe re-solving of the same ranges promises nothing of the kind: here one
        # opponent hand gets more than the pot above its blueprint value
        loose, _ = _opponent_br_values(unsafe, ranges, me)
        assert np.max((loose - bound)[held]) > 0.5 * pot


def test_iterations_count_the_warm_start() -> None:
    """``iterations`` caps a re-solve's iterations counted from its first: the safe
    mode's ``2 * warm`` warm iterations always run, and count (the README's matches at
    ``iterations=300``, ``warm=200`` re-solve with exactly 400)."""
    found = _river_observation(1)
    assert found is not None
    obs, hole = found
    me = obs.seat
    bot = ResolveAgent(mode="safe", seed=1)
    bot.begin_hand(me, CONFIG, hole, 1)
    ranges = bot.ranges(obs)
    for mode, cap, expected in (("safe", 30, 40), ("safe", 60, 60), ("unsafe", 30, 30)):
        # an accuracy no re-solve reaches: only the cap stops it
        sub = Subgame.solve(obs, ranges, me, mode, bot.readers, warm=20, accuracy=1e-12,
                            max_iterations=cap, max_seconds=float("inf"))
        assert sub.solver.iteration == expected, (mode, cap)


def test_compiling_the_kernels_does_not_count_against_a_re_solve_budget(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The first re-solve of its kind in a process compiles numba kernels (or loads
    them from the disk cache; up to a minute when the cache is cold). A fake clock makes
    the first solver step of the process take 1,000 s: the bot still runs its
    ``iterations`` under a 60-second budget, because an untimed one-iteration twin paid
    for that step, and later re-solves of the kind have no twin."""
    import types

    import checkraise.agents.resolve as resolve_module
    from checkraise.solvers.spot import SpotSolver
    from checkraise.solvers.spot import solver as solver_module

    found = _river_observation(1)
    assert found is not None
    obs, hole = found
    offset = [0.0]
    clock = types.SimpleNamespace(perf_counter=lambda: time.perf_counter() + offset[0])
    monkeypatch.setattr(solver_module, "time", clock)
    steps: list[int] = []
    iterate = SpotSolver.iterate

    def slow_first(self: SpotSolver, iterations: int = 1) -> None:
        if not steps:
            offset[0] += 1000.0  # the first step of the process "compiles"
        steps.append(iterations)
        iterate(self, iterations)

    monkeypatch.setattr(SpotSolver, "iterate", slow_first)
    monkeypatch.setattr(resolve_module, "_COMPILED", set())
    for seed in (1, 2):
        bot = ResolveAgent(mode="unsafe", iterations=40, seconds=60, accuracy=1e-12,
                           seed=seed)
        bot.begin_hand(obs.seat, CONFIG, hole, seed)
        bot.act(obs)
        assert bot.decisions[-1]["iterations"] == 40
    assert steps == [1] + [10] * 8  # the twin's one iteration, then 4 steps per bot


def test_maxmargin_raises_the_smallest_margin_above_the_cfr_d_gadget() -> None:
    """Both gadgets keep every margin (bound minus the opponent's best-response value)
    >= 0 up to convergence; Maxmargin makes the smallest one larger than Resolve."""
    found = _river_observation(9)
    assert found is not None
    obs, hole = found
    me = obs.seat
    bot = ResolveAgent(seed=9)
    bot.begin_hand(me, CONFIG, hole, 9)
    ranges = bot.ranges(obs)
    smallest = {}
    for gadget in ("resolve", "maxmargin"):
        sub = Subgame.solve(obs, ranges, me, "safe", bot.readers, gadget=gadget,
                                 accuracy=0.2, max_iterations=400, max_seconds=float("inf"))
        margins = sub.solver.margins()
        # margins of hands the opponent holds with some weight
        g = 1 - (0 if me == sub.start.oop_seat else 1)
        held = sub.solver.initial_reach[g] > 1e-3 * sub.solver.initial_reach[g].max()
        smallest[gadget] = float(np.nanmin(margins[held]))
        assert smallest[gadget] >= -0.05 * sub.start.pot
    assert smallest["maxmargin"] > smallest["resolve"] + 0.05 * sub.start.pot


def test_an_off_tree_river_bet_is_added_to_the_subgame() -> None:
    found = _river_observation(1)
    assert found is not None
    obs, _ = found
    assert obs.seat == 1, "OOP (the big blind) acts first on the river"
    state = State(CONFIG, seed=1)  # the same cards: the bot is the button, seat 0
    for _s, _r, a in obs.history:
        state.step(a)
    odd = street_start(obs).base[1] + round(0.37 * state.pot)  # OOP bets 37% of the pot
    state.step(Action.raise_to(odd))
    now = state.observation(0)
    labels, bets, _raises, _n = _labels_and_sizes(street_start(now))
    assert labels == [f"b{odd - street_start(now).base[1]}"]
    assert bets[0] == [pytest.approx(37.0, abs=0.2)]
    bot = ResolveAgent(mode="unsafe", seed=2, seconds=2, accuracy=2)
    bot.begin_hand(0, CONFIG, state.hole_cards[0], 1)
    answer = bot.act(now)
    assert bot._subgame is not None and bot._subgame.fits(labels)
    state.step(answer)  # the engine refuses an illegal action


def test_resolve_never_acts_illegally_against_random_sizes() -> None:
    """A short match against uniformly random bet sizes (the 10,000-hand run is in the
    closing note); the engine raises on any illegal action."""
    result = play_match("resolve:mode=unsafe,seconds=0.5,accuracy=5",
                        "random:pfold=0.02,praise=0.3", hands=12, seed=7, workers=1)
    assert len(result.deal_chips) == 12


def test_river_action_probabilities_are_the_subgame_strategy() -> None:
    from checkraise.agents.probabilities import action_probabilities

    found = _river_observation(9)
    assert found is not None
    obs, hole = found
    bot = ResolveAgent(mode="unsafe", seed=3, accuracy=2)
    bot.begin_hand(obs.seat, CONFIG, hole, 9)
    hap = action_probabilities(bot, obs)  # validates: legal actions, rows sum to 1
    sub = bot._subgame
    assert sub is not None
    names, rows = sub.strategy([], None)
    held = np.flatnonzero(rows.sum(axis=1) > 0)
    for k, name in enumerate(names):
        action = Action.call() if name in ("x", "c") else (
            Action.fold() if name == "f" else Action.raise_to(sub.start.base[obs.seat]
                                                              + int(name[1:])))
        np.testing.assert_allclose(hap.column(action)[held], rows[held, k], atol=1e-6)


def test_bad_options_name_the_value() -> None:
    with pytest.raises(ConfigError, match="mode='maxmargin'"):
        ResolveAgent(mode="maxmargin")
    with pytest.raises(ConfigError, match="seconds=0"):
        ResolveAgent(seconds=0)
    with pytest.raises(ConfigError, match="iterations=5"):
        ResolveAgent(iterations=5)
    with pytest.raises(ConfigError, match="gadget='reach'"):
        ResolveAgent(gadget="reach")
    with pytest.raises(ConfigError, match="bound='exact'"):
        ResolveAgent(bound="exact")
    with pytest.raises(ConfigError, match="warm=-1"):
        ResolveAgent(warm=-1)


def test_street_start_of_an_earlier_street_has_its_actions_only() -> None:
    found = _river_observation(1)
    assert found is not None
    obs, _ = found
    turn = street_start(obs, 2)
    assert turn.board == obs.board[:4]
    assert turn.actions == tuple((s, a) for s, rnd, a in obs.history if rnd == 2)
    assert street_start(obs).actions == tuple((s, a) for s, rnd, a in obs.history if rnd == 3)
    with pytest.raises(ConfigError, match="street 4"):
        street_start(obs, 4)


@pytest.fixture(scope="module")
def river_network(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A tiny river value network (a few situations, a few epochs): enough to play by."""
    from checkraise.nn.river_data import RiverDataSettings, generate, load_situations
    from checkraise.nn.river_values import train_river
    from checkraise.nn.values import TrainSettings

    folder = tmp_path_factory.mktemp("river")
    generate(folder / "data", RiverDataSettings(4, seed=2, accuracy=20.0, max_iterations=5,
                                                chunk_size=2))
    situations, _ = load_situations(folder / "data")
    train_river(situations, TrainSettings(hidden=(16,), epochs=2, batch_size=2,
                                               validation=0.25), folder / "river.npz")
    return str(folder / "river.npz")


def _first_decision(street: int, seed: int) -> State:
    """Blueprint against blueprint up to the first decision on ``street``."""
    bots = [BlueprintAgent(file="small", seed=seed), BlueprintAgent(file="small", seed=seed + 1)]
    for s in range(100):
        state = State(CONFIG, seed=seed + s)
        for p in range(2):
            bots[p].begin_hand(p, CONFIG, state.hole_cards[p], seed + s)
        while not state.is_terminal and state.round < street:
            p = state.current_player
            assert p is not None
            state.step(bots[p].act(state.observation(p)))
        if not state.is_terminal and state.current_player is not None:
            return state
    raise AssertionError(f"no decision on street {street} reached")


def _turn_observation(seed: int) -> tuple[Observation, tuple[int, ...]]:
    """Blueprint against blueprint up to the first turn decision."""
    state = _first_decision(2, seed)
    p = state.current_player
    assert p is not None
    return state.observation(p), state.hole_cards[p]


def test_depth_limited_turn_subgame_ranges_follow_its_strategies(river_network: str) -> None:
    obs, hole = _turn_observation(21)
    bot = ResolveAgent(mode="depth", values=river_network, seed=4, seconds=1, accuracy=5)
    bot.begin_hand(obs.seat, CONFIG, hole, 21)
    answer = bot.act(obs)
    sub = bot._subgame
    assert sub is not None and sub.solver.leaf_values is not None
    assert sub.solver.tree.kind.tolist().count(4) > 0  # leaves where the turn ends
    # ranges after our answer: those before it times our strategy's column, by hand
    line, *_ = _labels_and_sizes(street_start(obs))
    names, rows = sub.strategy(line, None)
    label = next(n for n in names if _label_action_of(n, sub, obs) == answer)
    start = sub.ranges_after(line)
    after = sub.ranges_after([*line, label])
    me = obs.seat
    k = names.index(label)
    np.testing.assert_allclose(after[me], start[me] * rows[:, k], rtol=1e-12, atol=0)
    np.testing.assert_array_equal(after[1 - me], start[1 - me])


def _label_action_of(name: str, sub: Subgame, obs: Observation) -> Action:
    from checkraise.agents.subgame import _label_action

    return _label_action(name, sub.start.base[obs.seat], obs)


def test_depth_mode_plays_legally_on_the_turn_and_river(river_network: str) -> None:
    result = play_match(f"resolve:mode=depth,values={river_network},seconds=0.5,accuracy=5",
                        "random:pfold=0.02,praise=0.3", hands=10, seed=5, workers=1)
    assert len(result.deal_chips) == 10


def test_a_turn_subgame_needs_leaf_values_and_the_unsafe_mode() -> None:
    obs, _ = _turn_observation(21)
    ranges = (np.ones(NUM_COMBOS), np.ones(NUM_COMBOS))
    with pytest.raises(ConfigError, match="needs leaf values"):
        Subgame.solve(obs, ranges, obs.seat, "unsafe")
    with pytest.raises(ConfigError, match="depth-limited subgames are unsafe"):
        Subgame.solve(obs, ranges, obs.seat, "safe", leaf_values=lambda *a: None)


@pytest.fixture(scope="module")
def turn_network(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A tiny turn value network (a few turn situations solved exactly, a few epochs)."""
    from checkraise.nn.river_data import RiverDataSettings, generate, load_situations
    from checkraise.nn.river_values import train_river
    from checkraise.nn.values import TrainSettings

    folder = tmp_path_factory.mktemp("turn")
    generate(folder / "data", RiverDataSettings(4, seed=2, accuracy=50.0, max_iterations=3,
                                                chunk_size=2, street="turn"))
    situations, _ = load_situations(folder / "data")
    train_river(situations, TrainSettings(hidden=(16,), epochs=2, batch_size=2,
                                          validation=0.25), folder / "turn.npz")
    return str(folder / "turn.npz")


def test_flop_subgame_is_depth_limited_and_the_turn_starts_from_its_ranges(
        river_network: str, turn_network: str) -> None:
    state = _first_decision(1, 31)
    me = state.current_player
    assert me is not None
    obs, hole = state.observation(me), state.hole_cards[me]
    bot = ResolveAgent(mode="depth", values=river_network, flop="network",
                       turn_values=turn_network, seed=4, seconds=2, accuracy=5, iterations=20)
    bot.begin_hand(me, CONFIG, hole, 31)
    sub = bot._street(obs)[0]
    assert sub.start.board == obs.board and len(obs.board) == 3
    assert sub.solver.leaf_values is not None
    assert sub.solver.tree.kind.tolist().count(4) > 0  # leaves where the flop ends
    # We check, he checks behind: the turn's ranges are the flop subgame's after that
    # line (both players' strategies along it), not the blueprint's reading.
    state.step(Action.call())
    state.step(Action.call())
    assert state.round == 2 and state.current_player == me  # out of position: first again
    expected = sub.ranges_after(["x", "x"])
    got = bot.ranges(state.observation(me))
    for seat in range(2):
        np.testing.assert_allclose(got[seat], expected[seat], rtol=1e-12, atol=1e-300)
    assert not np.allclose(expected[1 - me], sub.ranges_after([])[1 - me])


def test_flop_network_option_checks_its_network(river_network: str) -> None:
    with pytest.raises(ConfigError, match="flop='turn'"):
        ResolveAgent(mode="depth", flop="turn")
    with pytest.raises(ConfigError, match="needs mode=depth"):
        ResolveAgent(mode="safe", flop="network", turn_values=river_network)
    with pytest.raises(ConfigError, match="river network; expected a turn value network"):
        ResolveAgent(mode="depth", flop="network", turn_values=river_network)


def test_depth_mode_from_the_flop_plays_legally(river_network: str, turn_network: str) -> None:
    result = play_match(f"resolve:mode=depth,values={river_network},flop=network,"
                        f"turn_values={turn_network},seconds=0.5,accuracy=5,iterations=20",
                        "random:pfold=0.02,praise=0.3", hands=6, seed=5, workers=1)
    assert len(result.deal_chips) == 6


def test_a_locked_turn_spot_reads_the_blueprint_on_every_river_card() -> None:
    """``locked_solver`` walks a spot that runs past its street through each card that
    can come: a river node is locked to what the blueprint plays there, read from an
    engine hand built here by hand with that card and the bets in chips."""
    from dataclasses import replace

    from checkraise.agents.subgame import TURN_SIZES, _spot, blueprint_rows_for
    from checkraise.cards import format_cards, parse_card
    from checkraise.solvers.spot.config import BetSizes

    obs, _ = _turn_observation(4)
    start = street_start(obs)
    assert not start.actions and start.base[0] == start.base[1]
    spot = _spot(start, [[], []], [[], []], 2, TURN_SIZES, 2)
    river = BetSizes(bet=(50.0, 100.0, 250.0), raise_=(100.0,), allin=True)
    spot = replace(spot, sizes=(spot.sizes[0], spot.sizes[1], (river, river)))
    readers = (BlueprintAgent(file="small", seed=1), BlueprintAgent(file="small", seed=1))
    for s, reader in enumerate(readers):
        reader.begin_hand(s, CONFIG, (0, 1), 4)
    bet = round(0.5 * start.pot)  # half the pot on the turn, called
    river_bet = round(1.0 * (start.pot + 2 * bet))  # then the pot on the river
    cards = [c for c in (parse_card("2c"), parse_card("Ah"), parse_card("Td"))
             if c not in start.board]
    wanted = {f"b{bet} c {format_cards((c,))} b{river_bet}" for c in cards}
    wanted |= {f"b{bet} c {format_cards((c,))}" for c in cards}
    reads = blueprint_rows_for(start, readers, (0, 1))
    seen: list[str] = []

    def rows_for(tree: Any, node: int, line: list[str], actor: int, state: Any) -> Any:
        if " ".join(line) not in wanted:
            return None
        seen.append(" ".join(line))
        return reads(tree, node, line, actor, state)

    reach = (np.ones(NUM_COMBOS), np.ones(NUM_COMBOS))
    solver = locked_solver(spot, reach, start, rows_for)
    assert sorted(seen) == sorted(wanted)
    oop = start.oop_seat
    history = [a for _, _, a in obs.history]
    for card in cards:
        # the hand by hand: the turn bet and call, the card, the river bet, in chips
        state = State(CONFIG, hole_cards=[None, None], board=(*start.board, card), seed=0)
        for action in history:
            state.step(action)
        before = state.contributions[oop]
        state.step(Action.raise_to(before + bet))
        state.step(Action.call())
        assert state.round == 3 and state.board[4] == card
        for line, seat in ((f"b{bet} c {format_cards((card,))}", oop),
                           (f"b{bet} c {format_cards((card,))} b{river_bet}", 1 - oop)):
            if seat != oop:
                state.step(Action.raise_to(before + bet + river_bet))
            hap = readers[seat].action_probabilities(state.observation(seat))
            names, rows = solver.strategy_at(line)
            combos = solver.combos[0 if seat == oop else 1]
            live = ~np.isin(COMBO_CARDS[combos], card).any(axis=1)  # the card not in hand
            combos, rows = combos[live], rows[live]
            kinds = [a.kind for a in hap.actions]
            passive = names.index("c") if "c" in names else names.index("x")
            np.testing.assert_allclose(rows[:, passive],
                                       hap.probs[combos, kinds.index(ActionKind.CHECK_CALL)],
                                       atol=1e-9)
            if "f" in names:
                np.testing.assert_allclose(rows[:, names.index("f")],
                                           hap.probs[combos, kinds.index(ActionKind.FOLD)],
                                           atol=1e-9)
            else:  # the blueprint's pot-sized river bet, in chips, is the tree's
                pot_bet = hap.actions.index(Action.raise_to(before + bet + river_bet))
                np.testing.assert_allclose(rows[:, names.index(f"b{river_bet}")],
                                           hap.probs[combos, pot_bet], atol=1e-9)


def test_a_street_the_blueprint_plays_has_no_subgame() -> None:
    obs, hole = _turn_observation(4)
    bot = ResolveAgent(mode="safe", seed=1)
    bot.begin_hand(obs.seat, CONFIG, hole, 4)
    with pytest.raises(ConfigError, match="mode='safe' plays the turn by its blueprint"):
        bot.subgame(obs)
