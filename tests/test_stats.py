"""One definition per tracker statistic: hand-computed values, and the three users agree."""

from __future__ import annotations

import random

import pytest

from checkraise.agents.baselines import RandomAgent
from checkraise.arena.stats import ActionCounts
from checkraise.arena.table import play_hand
from checkraise.engine import TableConfig
from checkraise.histories.acpc_log import record_from_state
from checkraise.histories.stats import seat_stats
from checkraise.opponents.stats import Counts, StatsBook
from checkraise.protocol.matchstate import parse_state_line
from checkraise.stats import Act, StatCounts, tally_hand

F, X, C, B, R = Act.FOLD, Act.CHECK, Act.CALL, Act.BET, Act.RAISE

# Three seats: 0 small blind, 1 big blind, 2 button (first to act preflop).
HANDS: list[tuple[list[tuple[int, int, Act]], list[bool]]] = [
    # 1. BTN opens, SB folds, BB calls; flop BB checks, BTN bets, BB calls; turn checked
    #    through; river BB bets, BTN folds.
    ([(2, 0, R), (0, 0, F), (1, 0, C), (1, 1, X), (2, 1, B), (1, 1, C), (1, 2, X), (2, 2, X),
      (1, 3, B), (2, 3, F)], [False, True, False]),
    # 2. A walk: BTN and SB fold, the big blind wins without acting.
    ([(2, 0, F), (0, 0, F)], [False, True, False]),
    # 3. BTN limps, SB completes, BB checks; flop SB bets, BB raises, BTN folds, SB calls;
    #    turn and river checked; BB wins the showdown against SB.
    ([(2, 0, C), (0, 0, C), (1, 0, X), (0, 1, B), (1, 1, R), (2, 1, F), (0, 1, C),
      (0, 2, X), (1, 2, X), (0, 3, X), (1, 3, X)], [False, True, False]),
    # 4. BTN opens, SB 3-bets, BB folds (two raises: no 3-bet chance), BTN 4-bets, SB calls;
    #    flop SB checks, BTN bets, SB folds.
    ([(2, 0, R), (0, 0, R), (1, 0, F), (2, 0, R), (0, 0, C), (0, 1, X), (2, 1, B),
      (0, 1, F)], [False, False, True]),
]

# Worked by hand from the comments above, per seat over the four hands:
# SB: VPIP #3 #4 = 2/4; PFR #4 = 1/4; 3-bet chances #1 (folded) #4 (3-bet) = 1/2;
#     saw flop #3 #4 = 2, showdown #3 = 1 -> WTSD 1/2, W$SD 0/1; AF (bet #3) / (call #3) = 1.
# BB: VPIP #1 = 1/4 (checking the option in #3 and the walk in #2 do not count); PFR 0;
#     3-bet chance #1 (called) = 0/1; saw flop #1 #3, showdown #3 won -> WTSD 1/2, W$SD 1/1;
#     AF (bet #1 + raise #3) / (call #1) = 2.
# BTN: VPIP #1 #3 #4 = 3/4; PFR #1 #4 = 2/4; no 3-bet chance; saw flop #1 #3 #4, no
#     showdown -> WTSD 0/3, W$SD undefined; AF (bets #1 #4) / no calls: undefined.
EXPECTED = {
    #     VPIP  PFR   3-bet AF    WTSD      W$SD
    0: (0.5, 0.25, 0.5, 1.0, 0.5, 0.0),
    1: (0.25, 0.0, 0.0, 2.0, 0.5, 1.0),
    2: (0.75, 0.5, None, None, 0.0, None),
}


def _counts() -> list[StatCounts]:
    out = [StatCounts() for _ in range(3)]
    for actions, won in HANDS:
        for seat, t in enumerate(tally_hand(actions, 3, won)):
            out[seat].add_hand(t)
    return out


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_statistics_equal_the_hand_computed_values(seat: int) -> None:
    c = _counts()[seat]
    got = (c.vpip, c.pfr, c.three_bet, c.aggression_factor, c.wtsd, c.wsd)
    for g, e in zip(got, EXPECTED[seat], strict=True):
        assert g == (None if e is None else pytest.approx(e))
    assert c.hands == 4


def test_arena_aggression_factor_is_postflop_only() -> None:
    # A preflop raise, then a flop call: AF counts only the flop, (0 bets) / (1 call).
    a = ActionCounts()
    a.record_hand([(0, "raise", 100), (1, "call", 300)])
    assert a.aggression_factor == 0.0
    assert a.to_json()["aggression_factor"] == 0.0
    # Only preflop aggression: no postflop call, AF undefined.
    b = ActionCounts()
    b.record_hand([(0, "raise", 100), (0, "call", 200)])
    assert b.aggression_factor is None


def _engine_hands(seats: int, count: int, seed: int):  # type: ignore[no-untyped-def]
    config = TableConfig.nolimit(seats, 2000, 10, 20)
    rng = random.Random(seed)
    for h in range(count):
        agents = [RandomAgent(seed=rng.randrange(1 << 30)) for _ in range(seats)]
        deck = list(range(52))
        rng.shuffle(deck)
        yield config, play_hand(agents, config, deck, h)


@pytest.mark.parametrize("seats", [2, 3, 6])
def test_arena_histories_and_opponent_model_agree_on_the_same_hands(seats: int) -> None:
    arena = [ActionCounts() for _ in range(seats)]
    book = StatsBook()
    hist = [StatCounts() for _ in range(seats)]
    names = [f"p{i}" for i in range(seats)]
    postflop = 0
    for h, (config, hand) in enumerate(_engine_hands(seats, 150, 17 * seats)):
        for s in range(seats):
            arena[s].record_hand(hand.decisions[s])
        state = hand.state
        book.update(config, state.observation(0).history, dict(enumerate(names)))
        line = parse_state_line(state.acpc_state_line(h, names))
        record = record_from_state(line, config)
        for s, st in enumerate(seat_stats(record)):
            hist[s].hands += 1
            hist[s].vpip_hands += st.vpip
            hist[s].pfr_hands += st.pfr
            hist[s].postflop_aggressive += st.postflop_bets + st.postflop_raises
            hist[s].postflop_calls += st.postflop_calls
        postflop += state.round > 0
    assert postflop >= 30  # enough hands reached the flop to test AF
    for s in range(seats):
        model: Counts = book[names[s]].total()
        a = arena[s]
        figures = (a.hands, a.vpip_hands, a.pfr_hands, a.aggression_factor)
        assert figures == (model.hands, model.vpip_hands, model.pfr_hands, model.aggression)
        assert figures == (hist[s].hands, hist[s].vpip_hands, hist[s].pfr_hands,
                           hist[s].aggression_factor)
        c = a.stat_counts()
        assert (c.postflop_aggressive, c.postflop_calls) == (model.post_aggr, model.post_calls)
        assert (c.postflop_aggressive, c.postflop_calls) == (hist[s].postflop_aggressive,
                                                             hist[s].postflop_calls)
        assert c.postflop_calls > 0 or seats == 2


def test_module_examples() -> None:
    import doctest

    import checkraise.stats

    result = doctest.testmod(checkraise.stats)
    assert result.failed == 0 and result.attempted > 0


def test_tally_hand_reads_the_first_three_fields_of_longer_records() -> None:
    # The hand database passes its action records (seat, street, move, amount, to, all-in)
    # as they are; the tallies must be those of the (seat, street, act) triples.
    from checkraise.histories.record import HandAction, Move

    for actions, won in HANDS:
        records = [HandAction(seat, street, Move(act.value), 7, 9, False)
                   for seat, street, act in actions]
        assert tally_hand(records, 3, won) == tally_hand(actions, 3, won)
        assert [t.vpip for t in tally_hand(records, 3, won)] == [
            t.vpip for t in tally_hand(actions, 3, won)]
