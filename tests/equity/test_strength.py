from __future__ import annotations

import numpy as np
import pytest

from checkraise.cards import format_card, parse_cards
from checkraise.equity import (
    equity,
    equity_histogram,
    final_equities,
    hand_strength,
    outs,
    pot_odds,
    preflop_table,
    probability_to_hit,
    win_minus_lose,
)
from checkraise.evaluator import evaluate


def test_billings_published_example() -> None:
    # Billings, Papp, Schaeffer, Szafron, "Opponent modeling in poker" (AAAI 1998):
    # AdQc on 3h 4c Jh has HS 0.585, PPot 0.208, NPot 0.274 (two cards to come).
    s = hand_strength("AdQc", "3h4cJh")
    assert round(s.hs, 3) == 0.585
    assert round(s.ppot, 3) == 0.208
    assert round(s.npot, 3) == 0.274


def _naive_turn(hand: str, board: str) -> tuple[np.ndarray, np.ndarray]:
    # Python loops with the public evaluator: per river the equity against every opponent,
    # and Billings' table hp[now][final] over (opponent, river) pairs.
    h = parse_cards(hand)
    b = parse_cards(board)
    rest = [c for c in range(52) if c not in h + b]
    hp = np.zeros((3, 3))
    eqs = []

    def state(x: int, y: int) -> int:
        return 0 if x > y else (1 if x == y else 2)

    hero_now = evaluate(h + b)
    for river in rest:
        full = [*b, river]
        hero = evaluate(h + full)
        score = 0.0
        n = 0
        for i, o1 in enumerate(rest):
            for o2 in rest[:i]:
                if river in (o1, o2):
                    continue
                now = state(hero_now, evaluate([o1, o2, *b]))
                fin = state(hero, evaluate([o1, o2, *full]))
                hp[now, fin] += 1
                score += 1.0 if fin == 0 else 0.5 if fin == 1 else 0.0
                n += 1
        eqs.append(score / n)
    return np.array(eqs), hp


def test_turn_features_equal_naive_twin() -> None:
    hand, board = "9h8h", "7h6c2hKs"
    eqs, hp = _naive_turn(hand, board)
    s = hand_strength(hand, board)
    assert np.allclose(np.sort(final_equities(hand, board)), np.sort(eqs), atol=1e-12)
    assert s.ehs == pytest.approx(eqs.mean(), abs=1e-12)
    assert s.ehs2 == pytest.approx((eqs**2).mean(), abs=1e-12)
    now = hp.sum(axis=1)
    ppot = (hp[2, 0] + hp[2, 1] / 2 + hp[1, 0] / 2) / (now[2] + now[1] / 2)
    npot = (hp[0, 2] + hp[1, 2] / 2 + hp[0, 1] / 2) / (now[0] + now[1] / 2)
    assert s.ppot == pytest.approx(ppot, abs=1e-12)
    assert s.npot == pytest.approx(npot, abs=1e-12)
    assert s.hs == pytest.approx((now[0] + now[1] / 2) / now.sum(), abs=1e-12)
    # E[HS] over the runouts is the equity against a random hand (the engine's exact path).
    assert s.ehs == pytest.approx(float(equity([hand, "random"], board=board).equity[0]))
    hist = equity_histogram(hand, board, bins=20)
    assert hist.sum() == pytest.approx(1.0)
    assert np.allclose(hist, np.histogram(eqs, bins=20, range=(0, 1))[0] / len(eqs))


def test_outs_match_definition_via_engine() -> None:
    hand, board = "8s7s", "6s5d2cKh"
    p0 = float(equity([hand, "random"], board=board).equity[0])
    want = []
    for c in range(52):
        if c in parse_cards(hand + board):
            continue
        p1 = float(equity([hand, "random"], board=[*parse_cards(board), c]).equity[0])
        if p1 - p0 >= 0.6 * (1 - p0):
            want.append(c)
    got = outs(hand, board)
    assert got == want
    assert {format_card(c)[0] for c in got} >= {"4", "9"}  # the straight cards
    assert outs(hand, "6s5d2cKh3d") == []
    with pytest.raises(ValueError, match="flop or a turn"):
        outs(hand, "")


def test_preflop_value_and_river_strength() -> None:
    # v = W - L = 2 * equity - 1 heads-up; AA's equity 0.8520371 (jazbo.com, exhaustive).
    assert win_minus_lose("AsAh") == pytest.approx(2 * 0.8520371 - 1, abs=2e-7)
    assert win_minus_lose("KdKc") == pytest.approx(preflop_table()["KK"].value)
    s = hand_strength("AsKs", "QsJsTs2d3c")
    assert (s.win, s.hs, s.ehs, s.ppot, s.npot) == (1.0, 1.0, 1.0, 0.0, 0.0)
    pre = hand_strength("AsAh", samples=300, seed=1)
    assert abs(pre.equity - 0.852) < 0.03


def test_odds_helpers() -> None:
    assert pot_odds(50, 150) == 0.25
    # Flush draw on the flop: 9 outs among 47 unseen cards, two to come = 1 - C(38,2)/C(47,2).
    assert probability_to_hit(9, 47, 2) == pytest.approx(1 - 703 / 1081)
    assert probability_to_hit(0, 47, 2) == 0.0
    with pytest.raises(ValueError):
        pot_odds(-1, 10)
    with pytest.raises(ValueError):
        probability_to_hit(50, 47, 2)
    with pytest.raises(ValueError, match="two cards"):
        hand_strength("As", "2c3c4c")
    with pytest.raises(ValueError, match="0, 3, 4 or 5"):
        hand_strength("AsKs", "2c")


def test_bad_strength_input_raises_equity_error() -> None:
    from checkraise.equity import EquityError, preflop_equity

    for bad, named in (
        (lambda: hand_strength("AsKsQs", "2c3c4c"), "exactly two cards"),
        (lambda: hand_strength("AsKs", "As2c3c"), "As is both in the hand"),
        (lambda: hand_strength("AsKs", "2c3c"), "0, 3, 4 or 5"),
        (lambda: equity_histogram("AsKs", "2c3c4c", bins=0), "bins must be at least 1"),
        (lambda: outs("AsKs", None), "flop or a turn"),
        (lambda: pot_odds(-1, 10), "to_call >= 0"),
        (lambda: preflop_equity("AA", 10), "1..9"),
    ):
        with pytest.raises(EquityError, match=named):
            bad()
