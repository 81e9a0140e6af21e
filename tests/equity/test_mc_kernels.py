"""The Monte Carlo dealing and its kernels: exact uniformity, and the fast paths against
independent paths (exact enumeration, the rejection sampler) on the same spots."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

from checkraise.cards import parse_cards
from checkraise.equity import _kernels as K
from checkraise.equity import _mc_kernels as MC
from checkraise.equity import equity
from checkraise.equity.core import _prepare_players, rng_state
from checkraise.evaluator._kernels import CARD_FLUSH_BIT, CARD_KEY


def _deal_counts(
    deck: list[int], need: int, first: int, samples: int, force: bool
) -> tuple[dict[tuple[int, ...], int], int]:
    dk = np.array(deck + [99] * max(0, 7 - len(deck)), dtype=np.uint8)
    mult, thr = MC.deal_plan(len(deck), need, first)
    if force:
        # Any threshold (2**56 mod N) + k N leaves every outcome the same number of
        # accepted words (Lemire's argument), so the deal must stay exactly uniform even
        # when about half the words are redrawn.
        n = int(np.prod(mult[:7].astype(object)))
        thr = np.array([int(thr[0]) + ((1 << 55) // n) * n], dtype=np.uint64)
    s = rng_state(5)
    s0, s1, s2, s3 = s[0], s[1], s[2], s[3]
    counts: dict[tuple[int, ...], int] = {}
    redrawn = 0
    for _ in range(samples):
        out = MC._deal_batch(dk, np.uint64(0), MC._batch_mults(mult, 0), thr[0], s0, s1, s2, s3)
        # The kernel hands words back as Python ints; keep them typed as uint64.
        s0, s1, s2, s3 = (np.uint64(w) for w in out[:4])
        redrawn += out[4]
        cards = tuple(int(c) for c in out[5:12])
        assert cards == tuple(int(c) for c in dk[:7])
        assert sorted(dk[: len(deck)].tolist()) == sorted(deck)
        key = cards[first:need]
        counts[key] = counts.get(key, 0) + 1
    return counts, redrawn


def _chi_square(counts: dict[tuple[int, ...], int], cells: int, samples: int) -> float:
    expected = samples / cells
    seen = sum((c - expected) ** 2 / expected for c in counts.values())
    return seen + (cells - len(counts)) * expected


def test_batched_deal_is_uniform_over_ordered_selections() -> None:
    # 3 of 9 cards: 504 ordered outcomes; the chi-square statistic has 503 degrees of
    # freedom (mean 503, sd 31.7), so 503 + 6 sd flags any real bias but never noise.
    for force in (False, True):
        counts, redrawn = _deal_counts(list(range(10, 19)), 3, 0, 60_000, force)
        assert len(counts) == 504
        assert _chi_square(counts, 504, 60_000) < 503 + 6 * 31.7
        assert (redrawn > 20_000) if force else (redrawn == 0)


def test_batched_deal_keeps_the_positions_before_first() -> None:
    # Blanks at positions 0-1 stay put; positions 2-4 are an ordered selection of 3 of 8.
    counts, _ = _deal_counts([52, 52, *range(8)], 5, 2, 40_000, False)
    assert len(counts) == 8 * 7 * 6
    assert _chi_square(counts, 336, 40_000) < 335 + 6 * 25.9


def test_deal_plan_multipliers_and_thresholds() -> None:
    mult, thr = MC.deal_plan(50, 9, 0)
    assert mult.tolist() == [50, 49, 48, 47, 46, 45, 44, 43, 42, 1, 1, 1, 1, 1]
    n0 = 50 * 49 * 48 * 47 * 46 * 45 * 44
    assert thr.tolist() == [(1 << 56) % n0, (1 << 56) % (43 * 42)]
    mult, _ = MC.deal_plan(47, 7, 3)
    assert mult.tolist() == [1, 1, 1, 44, 43, 42, 41]


def _fixed_inputs(hand: str) -> tuple[np.ndarray, np.ndarray]:
    a, b = parse_cards(hand)
    return (
        np.array([CARD_KEY[a] + CARD_KEY[b]], dtype=np.int64),
        np.array([CARD_FLUSH_BIT[a] | CARD_FLUSH_BIT[b]], dtype=np.int64),
    )


def test_heads_up_kernel_and_general_kernel_match_exact_on_a_flop() -> None:
    board = "Kc7d2s"
    exact = float(equity(["AhAd", "random"], board=board, method="exact").equity[0])
    fast = equity(["AhAd", "random"], board=board, method="mc", samples=200_000, seed=4)
    assert abs(float(fast.equity[0]) - exact) < 4 * float(fast.stderr[0])
    # The same spot through the multiway kernel, called directly.
    fk, ff = _fixed_inputs("AhAd")
    known = np.array(parse_cards(board), dtype=np.int64)
    taken = set(parse_cards(board)) | set(parse_cards("AhAd"))
    deck = np.array([c for c in range(52) if c not in taken], dtype=np.int64)
    mult, thr = MC.deal_plan(len(deck), 4, 0)
    _, _, ssum, ssq, done, _ = MC.monte_carlo_fixed(
        fk, ff, 1, known, deck, 200_000, 0.0, 4096, rng_state(4), mult, thr
    )
    mean = ssum[0] / done
    se = np.sqrt((ssq[0] / done - mean * mean) / done)
    assert abs(mean - exact) < 4 * se


def test_heads_up_kernel_hand_against_hand() -> None:
    # Both hands fixed: the kernel deals two cards it ignores; compare with enumeration.
    for board in ("", "Ts9s3h", "Ts9s3h4d"):
        exact = equity(["AsKs", "QhQd"], board=board or None, method="exact")
        mc = equity(["AsKs", "QhQd"], board=board or None, method="mc", samples=100_000, seed=8)
        for p in range(2):
            assert abs(float(mc.equity[p] - exact.equity[p])) < 4 * float(mc.stderr[p]) + 1e-12
            assert abs(float(mc.tie[p] - exact.tie[p])) < 0.004


def test_multiway_fixed_kernel_agrees_with_rejection_sampler() -> None:
    # AsKs against two random hands: the fixed-hand kernel (via equity) against the
    # general rejection/alias kernel fed the same players.
    players = ["AsKs", "random", "random"]
    fast = equity(players, method="mc", samples=150_000, seed=12)
    pl = _prepare_players(players, 0)
    prob, alias = K.build_alias(pl.pw, pl.offs)
    deck = np.array([c for c in range(52) if not pl.always_held >> c & 1], dtype=np.int64)
    _, _, ssum, ssq, done, _ = MC.monte_carlo(
        pl.pc0, pl.pc1, pl.pm, prob, alias, pl.offs, pl.uniform, np.zeros(0, np.int64),
        deck, 150_000, 0.0, 4096, rng_state(13), 1_000_000, 100,
    )
    mean = ssum / done
    se = np.sqrt((ssq / done - mean * mean) / done)
    for p in range(3):
        gap = abs(float(fast.equity[p]) - mean[p])
        assert gap < 4 * np.hypot(float(fast.stderr[p]), se[p])


def test_heads_up_monte_carlo_is_seeded() -> None:
    a = equity(["AhAd", "random"], method="mc", samples=50_000, seed=21)
    b = equity(["AhAd", "random"], method="mc", samples=50_000, seed=21)
    c = equity(["AhAd", "random"], method="mc", samples=50_000, seed=22)
    assert np.array_equal(a.win, b.win) and np.array_equal(a.tie, b.tie)
    assert not np.array_equal(a.win, c.win)
    # A stopping rule on the standard error still stops early.
    r = equity(["AhAd", "random"], target_se=0.002, seed=1)
    assert r.samples < 200_000 and float(r.stderr[0]) <= 0.002


def test_equity_is_a_subpackage_attribute() -> None:
    import checkraise.equity as m

    assert callable(m.equity)
    code = (
        "import types, checkraise; m = checkraise.equity;"
        "print(isinstance(m, types.ModuleType), callable(m.equity))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["True", "True"]
