"""Monte Carlo that cannot find deals gives up in bounded time; long enumerations report
progress without changing their result."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from checkraise.cards import NUM_COMBOS
from checkraise.equity import LowAcceptanceError, core, equity, exact_cost
from checkraise.equity.core import ATTEMPTS_PER_SAMPLE, MIN_ATTEMPTS
from checkraise.ranges import Range


def _mostly(hand: str, rest: float) -> Range:
    """Weight 1 on ``hand`` and ``rest`` on every other combo."""
    w = np.full(NUM_COMBOS, rest)
    w[Range(hand).combos()] = 1.0
    return Range.from_array(w)


# Against AsKs, AsAh always collides and 1,225 of the other 1,325 combos do not, so a deal
# drawn from the two players' weights fits together with probability 1225 r / (1 + 1326 r).
def _acceptance(rest: float) -> float:
    return 1225 * rest / (1 + 1326 * rest)


def test_hopeless_rejection_falls_back_to_exact_enumeration() -> None:
    # Acceptance 1.2e-4: sampling 5,000 deals would take 4e7 attempts; the flop spot is
    # small, so the answer is the exact one. Every deal that fits gives the opponent one of
    # the 1,225 live combos at equal weight, which is AsKs against a random hand.
    players = ["AsKs", _mostly("AsAh", 1e-7)]
    r = equity(players, board="2c7d9h", method="mc", samples=5_000, seed=1)
    assert r.method == "exact" and r.samples == math.comb(52 - 3 - 2, 2)
    assert np.array_equal(r.equity, equity(players, board="2c7d9h", method="exact").equity)
    vs_random = equity(["AsKs", "random"], board="2c7d9h", method="exact")
    assert r.equity == pytest.approx(vs_random.equity, rel=1e-12)


def test_hopeless_rejection_raises_when_enumeration_is_too_big() -> None:
    samples = 2_000
    with pytest.raises(LowAcceptanceError, match="collide") as info:
        equity(["AsKs", _mostly("AsAh", 1e-7)], method="mc", samples=samples, seed=2)
    err = info.value
    assert err.attempts <= max(MIN_ATTEMPTS, ATTEMPTS_PER_SAMPLE * (samples + 1))
    assert not err.cost.affordable and err.cost.runouts == math.comb(50, 5)
    # The acceptance it reports is the one the weights imply (binomial, 5 sd).
    mean = _acceptance(1e-7) * err.attempts
    assert abs(err.accepted - mean) < 5 * math.sqrt(mean)
    assert f"only {err.accepted:,} of {err.attempts:,} drawn deals" in str(err)


def test_poor_but_workable_acceptance_still_samples() -> None:
    # Acceptance 3.5 %: past the minimum attempts, still far above 1 in 100.
    players = ["AsKs", _mostly("AsAh", 3e-5)]
    assert _acceptance(3e-5) > 0.03
    r = equity(players, board="2c7d9h", method="mc", samples=40_000, seed=3)
    assert r.method == "mc" and r.samples == 40_000
    exact = equity(players, board="2c7d9h", method="exact")
    assert np.all(np.abs(r.equity - exact.equity) < 4 * r.stderr)


@pytest.mark.parametrize(
    ("players", "board"),
    [
        (["AsKs", "QhQd"], None),  # five cards to come: resumes at every depth
        (["QQ+,AKs", "JJ-88,AQs:0.5"], "Td9d6h"),  # the heads-up sweep
        (["AsKs", "QQ+", "random"], "Td9d6h2c"),  # three players, depth first
        (["AsKs", "QhQd"], "Td9d6h2c3s"),  # nothing to come: one board
    ],
)
def test_exact_progress_reports_every_board_and_changes_nothing(
    players: list[str], board: str | None, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    plain = equity(players, board=board, method="exact")
    monkeypatch.setattr(core, "PROGRESS_WORK", 2_000)
    seen: list[tuple[int, int]] = []
    r = equity(players, board=board, method="exact", progress=lambda d, t: seen.append((d, t)))
    total = exact_cost(players, board).runouts
    assert r.samples == plain.samples == total
    assert seen[0] == (0, total) and seen[-1] == (total, total)
    assert all(t == total for _, t in seen)
    assert all(a[0] < b[0] for a, b in itertools.pairwise(seen))
    assert len(seen) >= min(total, 5)
    for a, b in ((r.win, plain.win), (r.tie, plain.tie), (r.equity, plain.equity)):
        assert np.array_equal(a, b)  # the same sums in the same order
    assert capsys.readouterr() == ("", "")  # the library itself prints nothing


def test_exact_cost_counts_boards_and_work() -> None:
    c = exact_cost(["AsKs", "random", "random"])
    # 50 live cards, five to come; each board pairs 1,225 hands of one random player with
    # the C(48, 2) = 1,128 hands left to the other: the work is at least that many showdowns.
    assert c.runouts == math.comb(50, 5)
    assert c.runouts * 1225 * 1128 <= c.work <= 2 * c.runouts * 1225 * 1128
    assert not c.affordable and c.seconds > 3600
    small = exact_cost(["AsKs", "QhQd"], board="2c7d9h")
    assert small.runouts == math.comb(45, 2) and small.affordable
