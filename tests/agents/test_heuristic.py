"""The heuristic bot's policy: modes, cubics, re-raise doubling, profiles, state values."""

from __future__ import annotations

import itertools
import json
from copy import deepcopy
from pathlib import Path

import numpy as np
import pytest

from checkraise.agents import make_agent
from checkraise.agents.base import AgentSpecError
from checkraise.agents.baselines import MinRaiseAgent
from checkraise.agents.heuristic import HeuristicAgent, decide, preflop_value, state_value
from checkraise.agents.profiles import (
    PARAMETER_NAMES,
    Mode,
    Profile,
    ProfileError,
    default_profile,
    load_profile,
)
from checkraise.arena.table import play_hand
from checkraise.cards import parse_cards
from checkraise.engine import ActionKind, LegalActions, State, TableConfig
from checkraise.equity import equity
from checkraise.equity.preflop import preflop_table
from checkraise.equity.strength import win_minus_lose

BB = 100


def flat_profile(
    x: float = -0.5, y: float = 0.0, z: float = 0.5,
    p: tuple[float, ...] = (10, 0, 0, 0), q: tuple[float, ...] = (4, 0, 0, 0),
) -> Profile:
    """Every street alike: cut points x, y, z; p and q as given (big blinds)."""
    return Profile.from_vector([x, y, z, *p, *q] * 4, "flat")


def facing(call: int, my_bet: int, min_to: int | None, max_to: int | None = 20000) -> LegalActions:
    """Legal actions of a seat that has ``my_bet`` in and must add ``call`` to call."""
    return LegalActions(call > 0, call == 0, call, min_to, None if min_to is None else max_to)


# ---------------------------------------------------------------------- the four modes


def test_each_mode_is_chosen_by_the_cut_points() -> None:
    prof = flat_profile(x=-0.5, y=0.0, z=0.5)
    for street in range(4):
        assert prof.mode(street, -0.51) is Mode.GIVE_UP
        assert prof.mode(street, -0.5) is Mode.WAIT
        assert prof.mode(street, -0.01) is Mode.WAIT
        assert prof.mode(street, 0.0) is Mode.RAISE
        assert prof.mode(street, 0.49) is Mode.RAISE
        assert prof.mode(street, 0.5) is Mode.BET_TO_END
        assert prof.mode(street, 1.0) is Mode.BET_TO_END


def test_give_up_checks_when_free_and_folds_to_a_bet() -> None:
    prof = flat_profile(p=(1000, 0, 0, 0))  # paying is never the reason to fold here
    assert str(decide(prof, 1, -0.9, facing(0, 300, 400), 300, BB)) == "c"
    assert str(decide(prof, 1, -0.9, facing(100, 300, 500), 300, BB)) == "f"


def test_wait_and_see_calls_up_to_p_and_never_raises() -> None:
    prof = flat_profile(p=(10, 0, 0, 0))  # pays up to 10 big blinds in all
    v = -0.2
    assert str(decide(prof, 2, v, facing(0, 300, 400), 300, BB)) == "c"
    # Calling 700 more with 300 in commits 1,000 = 10 bb: allowed; one chip more is not.
    assert str(decide(prof, 2, v, facing(700, 300, 1700), 300, BB)) == "c"
    assert str(decide(prof, 2, v, facing(701, 300, 1702), 300, BB)) == "f"


def test_raise_mode_raises_to_q_else_calls_within_p() -> None:
    prof = flat_profile(p=(10, 0, 0, 0), q=(6, 0, 0, 0))
    v = 0.2
    assert str(decide(prof, 1, v, facing(0, 200, 300), 200, BB)) == "r600"
    # The minimum raise (700) is above q (600): call, since 400 in all is within p.
    assert str(decide(prof, 1, v, facing(200, 200, 700), 200, BB)) == "c"
    # Re-raised to 1,200: the minimum raise is above q and 1,200 > p = 1,000: fold.
    assert str(decide(prof, 1, v, facing(1000, 200, 2200), 200, BB)) == "f"
    # A q beyond the stack is an all-in.
    big = flat_profile(q=(500, 0, 0, 0))
    assert str(decide(big, 1, v, facing(0, 200, 300, 5000), 200, BB)) == "r5000"


def test_bet_to_the_end_raises_to_q_then_doubles_and_never_folds() -> None:
    prof = flat_profile(p=(1, 0, 0, 0), q=(5, 0, 0, 0))
    v = 0.8
    assert str(decide(prof, 3, v, facing(0, 300, 400), 300, BB)) == "r500"
    # Re-raised to 1,500 (past q): raise to twice the bet to match.
    assert str(decide(prof, 3, v, facing(1000, 500, 2500), 500, BB)) == "r3000"
    # Doubling stops at the stack.
    assert str(decide(prof, 3, v, facing(6000, 4000, 16000, 12000), 4000, BB)) == "r12000"
    # Facing an all-in (no raise possible), it calls even far beyond p.
    assert str(decide(prof, 3, v, facing(9000, 3000, None), 3000, BB)) == "c"


def test_re_raise_doubling_in_a_real_hand() -> None:
    """Against a min-raiser, each of the bot's raises doubles the bet it faces, to all-in."""
    prof = flat_profile(z=0.5, q=(3, 0, 0, 0))

    class Sure(HeuristicAgent):
        def value(self, observation: object) -> float:
            return 0.9

    bot = Sure(seed=0, profile=prof)
    state = State(TableConfig.nolimit(2, stacks=20000), seed=1)
    agents = [bot, MinRaiseAgent()]
    raises: list[tuple[int, int]] = []  # (bet faced, raise-to) of the bot
    while not state.is_terminal and state.round == 0:
        seat = state.current_player
        assert seat is not None
        faced = max(state.contributions)
        action = agents[seat].act(state.observation(seat))
        if seat == 0 and action.kind is ActionKind.RAISE:
            raises.append((faced, action.amount))
        state.step(action)
    assert raises[0] == (100, 300)  # q(v) = 3 big blinds
    for faced, to in raises[1:]:
        assert to == min(2 * faced, 20000)
    assert raises[-1][1] == 20000 and len(raises) >= 4


# ---------------------------------------------------------------------- the cubics


@pytest.mark.parametrize("v", [-0.9, -0.3, 0.0, 0.25, 0.5, 0.95])
def test_p_and_q_are_cubics_in_v(v: float) -> None:
    p = (1.5, -2.0, 3.0, 4.0)
    q = (8.0, 7.0, -1.0, 0.5)  # positive on [-1, 1], so the raise is never below 1 chip
    prof = flat_profile(x=-1.0, y=-0.99, z=1.0, p=p, q=q)
    want_p = p[0] + p[1] * v + p[2] * v**2 + p[3] * v**3
    want_q = q[0] + q[1] * v + q[2] * v**2 + q[3] * v**3
    assert prof.pay_limit(1, v) == pytest.approx(want_p)
    assert prof.bet_target(1, v) == pytest.approx(want_q)
    # The kernel's cubic: raise target rounds q(v) to chips.
    action = decide(prof, 1, v, facing(0, 0, 1), 0, BB)
    assert action.amount == int(np.floor(want_q * BB + 0.5))


def test_kernel_pay_limit_matches_the_cubic_at_the_chip() -> None:
    prof = flat_profile(x=-1.0, y=0.99, z=1.0, p=(1.0, 2.0, 3.0, 4.0))
    limit = 3.25 * BB  # p(0.5) = 1 + 1 + 0.75 + 0.5
    assert str(decide(prof, 0, 0.5, facing(int(limit) - 100, 100, None), 100, BB)) == "c"
    assert str(decide(prof, 0, 0.5, facing(int(limit) - 99, 100, None), 100, BB)) == "f"


# ---------------------------------------------------------------------- profiles


def test_default_profile_round_trips_through_json_and_toml(tmp_path: Path) -> None:
    prof = default_profile()
    assert len(prof.values) == 44 == len(PARAMETER_NAMES)
    path = prof.save(tmp_path / "p.json")
    assert load_profile(path) == prof
    lines = []
    for street, table in prof.to_dict().items():
        if street == "name":
            continue
        lines.append(f"[{street}]")
        lines += [f"{k} = {table[k]!r}" for k in ("x", "y", "z")]
        lines += [f"{k} = [{', '.join(repr(c) for c in table[k])}]" for k in ("p", "q")]
    (tmp_path / "p.toml").write_text("\n".join(lines) + "\n")
    assert load_profile(tmp_path / "p.toml").values == prof.values


def test_a_profile_with_a_missing_parameter_is_refused(tmp_path: Path) -> None:
    d = default_profile().to_dict()
    del d["river"]["z"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(d))
    with pytest.raises(ProfileError, match=r"missing parameter 'river\.z'"):
        load_profile(path)
    d = default_profile().to_dict()
    d["flop"]["p"] = d["flop"]["p"][:3]
    with pytest.raises(ProfileError, match=r"'flop\.p'.*4 cubic coefficients"):
        Profile.from_dict(d)
    d = default_profile().to_dict()
    del d["turn"]
    with pytest.raises(ProfileError, match="missing street 'turn'"):
        Profile.from_dict(d)
    (tmp_path / "bad2.json").write_text(json.dumps({"name": "x"}))
    with pytest.raises(ValueError, match="missing street 'preflop'"):
        make_agent(f"heuristic:profile={tmp_path / 'bad2.json'}")


@pytest.mark.parametrize(
    ("street", "key", "value", "message"),
    [
        ("flop", "x", 1.5, r"'flop\.x' = 1\.5 is out of range"),
        ("turn", "y", -0.9, r"x=.*y=-0\.9.*expected x < y < z"),
        ("river", "p", [1, 2, 3, 2000], r"'river\.p3' = 2000\.0 is out of range"),
        ("preflop", "q", [1, 2, "3", 4], r"'preflop\.q2' = '3': expected a number"),
        ("flop", "w", 1, r"unknown parameter 'flop\.w'"),
    ],
)
def test_out_of_range_or_unknown_values_are_refused(
    street: str, key: str, value: object, message: str
) -> None:
    d = default_profile().to_dict()
    d[street][key] = value
    with pytest.raises(ProfileError, match=message):
        Profile.from_dict(d, "test.json")


def test_nan_and_wrong_length_vectors_are_refused() -> None:
    vals = list(default_profile().values)
    vals[5] = float("nan")
    with pytest.raises(ProfileError, match="finite"):
        Profile.from_vector(vals)
    with pytest.raises(ProfileError, match="expected 44"):
        Profile.from_vector(vals[:43])


# ---------------------------------------------------------------------- the state value


@pytest.mark.parametrize(
    ("hand", "board"),
    [("AsKs", "Ad7c2h"), ("8s7s", "6s5d2c"), ("QhQd", "Ks9c4d2h"), ("Tc9c", "AcKd7c3s2h")],
)
def test_state_value_heads_up_agrees_with_the_exact_value(hand: str, board: str) -> None:
    v = state_value(hand, board, samples=40_000, seed=3)
    exact = win_minus_lose(hand, board)
    assert abs(v - exact) < 4 / np.sqrt(40_000)


def test_state_value_against_three_hands_agrees_with_the_equity_engine() -> None:
    """Win = beat all three; the equity module's Monte Carlo is an independent oracle."""
    hand, board = "JhTh", "9h8c2h"
    ours = state_value(hand, board, opponents=3, samples=60_000, seed=5)
    res = equity([hand, None, None, None], board=board, method="mc", samples=200_000, seed=6)
    theirs = 2 * float(res.win[0]) + float(res.tie[0]) - 1  # W - L with L = 1 - W - T
    assert abs(ours - theirs) < 0.015


def test_preflop_values_shrink_with_more_opponents_and_match_monte_carlo() -> None:
    assert preflop_value("AsAh") == pytest.approx(0.7041, abs=1e-3)  # published exact: AA
    vals = [preflop_value("KsKh", n) for n in range(1, 10)]
    assert all(a > b for a, b in itertools.pairwise(vals))
    res = equity(["KsKh", None, None], method="mc", samples=100_000, seed=8)
    assert vals[1] == pytest.approx(2 * float(res.win[0]) + float(res.tie[0]) - 1, abs=0.015)


def test_preflop_table_heads_up_column_is_the_equity_modules_exact_table() -> None:
    # The equity module and its table ship with the package: no skip if missing.
    table = preflop_table()
    for name in ("AA", "72o", "AKs", "T9s", "22"):
        entry = table[name]
        combo = parse_cards({"AA": "AsAh", "72o": "7s2h", "AKs": "AsKs", "T9s": "Th9h",
                             "22": "2s2h"}[name])
        assert preflop_value(combo) == pytest.approx(entry.win - entry.lose, abs=1e-6)


# ---------------------------------------------------------------------- the agent


def test_agent_uses_the_value_against_the_opponents_still_in() -> None:
    state = State(TableConfig.nolimit(6), seed=2)
    bot = HeuristicAgent(seed=0)
    obs = state.observation(2)  # first to act preflop, five opponents
    assert state.current_player == 2
    assert bot.value(obs) == preflop_value(obs.hole_cards, 5)
    state.check_call()  # seat 2 calls; seats 3, 4, 5 fold
    for _ in range(3):
        state.fold()
    assert state.current_player == 0  # small blind: two opponents left (seats 1 and 2)
    obs = state.observation(0)
    assert bot.value(obs) == preflop_value(obs.hole_cards, 2)


def test_agent_value_is_fixed_within_a_street_and_reproducible() -> None:
    state = State(TableConfig.nolimit(2), seed=9)
    state.check_call()
    state.check_call()  # the flop is dealt
    seat = state.current_player
    assert seat is not None and state.round == 1
    a = HeuristicAgent(seed=5, samples=20_000)
    obs = state.observation(seat)
    v = a.value(obs)
    # The value is a Monte Carlo estimate of the exact W - L (full enumeration).
    assert abs(v - win_minus_lose(obs.hole_cards, obs.board)) < 4 / np.sqrt(20_000)
    # Later on the same street (check, bet, back to this seat) it is not sampled again...
    state.check_call()
    state.raise_to(state.legal_actions().min_raise_to)
    later = state.observation(seat)
    assert state.current_player == seat and later.board == obs.board and later != obs
    assert a.value(later) == v
    # ...but it is on the next hand, and the same seed gives the same estimate.
    a.begin_hand(seat, state.config, tuple(obs.hole_cards), 1)
    assert a.value(obs) != v
    assert HeuristicAgent(seed=5, samples=20_000).value(obs) == v


def test_hand_draws_make_a_value_depend_on_its_hand_alone() -> None:
    """``draws=hand``: the Monte Carlo deals of a hand come from the seed and the hand
    number, so the hands played before change nothing; with ``stream`` they do."""
    state = State(TableConfig.nolimit(2), seed=9)
    state.check_call()
    state.check_call()  # the flop is dealt
    seat = state.current_player
    assert seat is not None
    obs = state.observation(seat)
    exact = win_minus_lose(obs.hole_cards, obs.board)
    values = {}
    for draws in ("hand", "stream"):
        fresh = make_agent(f"heuristic:draws={draws},samples=2000", seed=5)
        played = make_agent(f"heuristic:draws={draws},samples=2000", seed=5)
        for h in range(3):  # three earlier hands, each sampling a value
            played.begin_hand(seat, state.config, tuple(obs.hole_cards), h)
            played.value(obs)
        for bot in (fresh, played):
            bot.begin_hand(seat, state.config, tuple(obs.hole_cards), 3)
        values[draws] = (fresh.value(obs), played.value(obs))
    assert values["hand"][0] == values["hand"][1]
    assert values["stream"][0] != values["stream"][1]
    # the seed still matters, and a second begin_hand of the same hand (a copy asked
    # for another hand's action) rewinds nothing
    other = make_agent("heuristic:draws=hand,samples=2000", seed=6)
    other.begin_hand(seat, state.config, tuple(obs.hole_cards), 3)
    assert other.value(obs) != values["hand"][0]
    again = make_agent("heuristic:draws=hand,samples=2000", seed=5)
    again.begin_hand(seat, state.config, tuple(obs.hole_cards), 3)
    again.value(obs)
    again.begin_hand(seat, state.config, tuple(obs.hole_cards), 3)
    assert again.value(obs) == values["hand"][0]
    copy = deepcopy(again)  # begun anew after the flop's value, as a hand-by-hand query does
    copy.begin_hand(seat, state.config, tuple(obs.hole_cards), 3)
    state.check_call()
    state.check_call()  # the turn
    assert state.round == 2 and state.current_player == seat
    turn = state.observation(seat)
    assert copy.value(turn) == again.value(turn)
    # each hand's generator is its own: over 200 hands the values estimate the exact
    # W - L with 200 x 2,000 deals
    bot = make_agent("heuristic:draws=hand,samples=2000", seed=5)
    estimates = []
    for h in range(200):
        bot.begin_hand(seat, state.config, tuple(obs.hole_cards), h)
        estimates.append(bot.value(obs))
    assert len(set(estimates)) > 50  # not one generator reused (values step by 0.0005)
    assert abs(np.mean(estimates) - exact) < 4 / np.sqrt(200 * 2000)
    with pytest.raises(AgentSpecError, match="draws 'deal'; expected one of stream or hand"):
        make_agent("heuristic:draws=deal")


def test_registry_options_reach_the_agent(tmp_path: Path) -> None:
    path = flat_profile().save(tmp_path / "flat.json")
    bot = make_agent(f"heuristic:profile={path},samples=200", seed=1)
    assert isinstance(bot, HeuristicAgent)
    assert bot.samples == 200 and bot.profile == flat_profile()
    with pytest.raises(AgentSpecError, match="samples"):
        make_agent("heuristic:samples=0")


def test_full_ring_hands_play_to_the_end_with_legal_actions() -> None:
    config = TableConfig.nolimit(6, stacks=10000)
    rng = np.random.default_rng(4)
    for h in range(12):
        agents = [HeuristicAgent(seed=h * 10 + i, samples=100) for i in range(3)]
        agents += [make_agent(s, seed=h) for s in ("call", "random", "allin")]
        hand = play_hand(agents, config, [int(c) for c in rng.permutation(52)], h)
        assert hand.state.is_terminal and sum(hand.payoffs) == 0
