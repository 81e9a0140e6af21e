from __future__ import annotations

import pytest

from checkraise.cards import CLASS_NAMES, COMBO_CARDS, class_combos
from checkraise.equity import equity, preflop_equity, preflop_table

# Exhaustive heads-up equities against one random hand, ties counted 1/2, published at
# jazbo.com/poker/huholdem.html (offsuit hands are written there without the "o").
JAZBO = {
    "AA": 0.8520371, "KK": 0.8239568, "QQ": 0.7992516, "JJ": 0.7746947, "TT": 0.7501178,
    "99": 0.7205725, "88": 0.6916304, "AKs": 0.6704463, "77": 0.6623602, "A4s": 0.5903364,
    "A7o": 0.5884120, "K8s": 0.5831235, "A3s": 0.5822032, "QJo": 0.5813469, "K9o": 0.5781192,
    "A5o": 0.5769653, "A6o": 0.5768245, "Q9s": 0.5766432, "K5o": 0.5331397, "J9o": 0.5325120,
    "K2s": 0.5321173, "Q5s": 0.5276941, "T8s": 0.5233437, "K4o": 0.5232747, "J7s": 0.5232478,
    "Q4s": 0.5185530, "96s": 0.4742829, "J2s": 0.4737815, "Q2o": 0.4729544, "T5s": 0.4721626,
    "J5o": 0.4718089, "T4s": 0.4653049, "97o": 0.4629781, "86s": 0.4624327, "85o": 0.4142753,
    "64s": 0.4133332, "83s": 0.4087350, "94o": 0.4067105, "75o": 0.4051197, "82s": 0.4027163,
    "73s": 0.4003594, "93o": 0.4001951,
}


def test_table_has_all_classes_and_sane_rows() -> None:
    table = preflop_table()
    assert set(table) == set(CLASS_NAMES)
    for e in table.values():
        assert e.win + e.tie + e.lose == pytest.approx(1.0, abs=1e-9)
        assert e.equity(1) == pytest.approx(e.win + e.tie / 2, abs=1e-6)
        assert all(a > b for a, b in zip(e.equity_vs, e.equity_vs[1:], strict=False))


@pytest.mark.parametrize(("hand", "published"), sorted(JAZBO.items()))
def test_heads_up_column_matches_published_exhaustive_table(hand: str, published: float) -> None:
    e = preflop_table()[hand]
    assert e.win + e.tie / 2 == pytest.approx(published, abs=6e-8)


@pytest.mark.parametrize(("hand", "opponents"), [("AKs", 3), ("72o", 2), ("TT", 9), ("65s", 5)])
def test_multiway_columns_match_a_fresh_computation(hand: str, opponents: int) -> None:
    combo = COMBO_CARDS[class_combos(hand)[-1]]
    fresh = equity([[int(c) for c in combo]] + [None] * opponents, samples=100_000, seed=99)
    se_table = 0.00112  # largest standard error written in the table's header
    tol = 4 * (se_table**2 + float(fresh.stderr[0]) ** 2) ** 0.5
    assert abs(preflop_equity(hand, opponents) - float(fresh.equity[0])) < tol


def test_lookup_forms() -> None:
    assert preflop_equity("AsKs") == preflop_equity("AKs") == preflop_equity("KAs")
    with pytest.raises(ValueError):
        preflop_equity("AKx")
    with pytest.raises(ValueError, match=r"1\.\.9"):
        preflop_table()["AA"].equity(10)
