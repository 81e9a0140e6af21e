"""Per-position statistics, checked against the hand-history module's own counts."""

from __future__ import annotations

import pytest

from checkraise.histories import parse_file, replay, seat_stats
from checkraise.opponents.actions import understand
from checkraise.opponents.stats import Counts, Position, StatsBook, position_group
from tests.shared_data import shared_data


def test_position_groups_for_every_table_size() -> None:
    assert [position_group(s, 3).value for s in range(3)] == ["blinds", "blinds", "rear"]
    assert [position_group(s, 9).value for s in range(9)] == [
        "blinds", "blinds", "front", "front", "middle", "middle", "rear", "rear", "rear"]
    with pytest.raises(ValueError, match="seat 6"):
        position_group(6, 6)


def test_counts_agree_with_histories_stats_on_pluribus_hands() -> None:
    hands = parse_file(shared_data("pluribus", "pluribus_30.txt"))[:150]
    book = StatsBook()
    expected: dict[str, list[int]] = {}
    for hand in hands:
        state = replay(hand, check_payout=False)
        names = {s: p.name for s, p in enumerate(hand.seats)}
        book.update(state.config, state.observation(0).history, names)
        for s, st in zip(names, seat_stats(hand), strict=True):
            row = expected.setdefault(names[s], [0, 0, 0, 0, 0])
            row[0] += 1
            row[1] += st.vpip
            row[2] += st.pfr
            row[3] += st.postflop_bets + st.postflop_raises
            row[4] += st.postflop_calls
    for name, (n, vpip, pfr, aggr, calls) in expected.items():
        total = book[name].total()
        assert (total.hands, total.vpip_hands, total.pfr_hands, total.post_aggr,
                total.post_calls) == (n, vpip, pfr, aggr, calls)
        assert sum(c.hands for c in book[name].by_position.values()) == n
        assert book[name].by_position[Position.BLINDS].hands > 0


def test_fold_to_bet_and_decision_counts() -> None:
    from checkraise.engine import Action, TableConfig

    cfg = TableConfig.nolimit(2, stacks=10_000)
    hist = [(0, 0, Action.raise_to(300)), (1, 0, Action.call()),
            (1, 1, Action.call()), (0, 1, Action.raise_to(500)), (1, 1, Action.fold())]
    c = Counts()
    c.record(a for a in understand(cfg, hist) if a.seat == 1)
    assert (c.pre_facing, c.pre_call, c.post_open, c.post_check) == (1, 1, 1, 1)
    assert (c.post_facing, c.post_fold_facing, c.fold_to_bet, c.vpip) == (1, 1, 1.0, 1.0)
    assert Counts().vpip is None and Counts().aggression is None
