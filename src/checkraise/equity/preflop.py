"""The 169-class preflop table: exact W/T/L against one random hand, equity against 2-9.

The heads-up column is exact: every one of the 2,598,960 boards is enumerated (up to suit
symmetry) against every opponent hand, see
:func:`checkraise.equity._kernels.preflop_vs_random_exact`. It reproduces the published
exhaustive table of jazbo.com/poker/huholdem.html (e.g. AA 0.8520371). The columns against
2-9 random hands are Monte Carlo (seeded; the sample count and the largest standard
error are written in the file's header).

The table ships as ``checkraise/data/preflop_equity.csv``; regenerate it with
``python -m checkraise.equity.preflop`` (about a minute of CPU).

Examples
--------
>>> e = preflop_table()["AA"]
>>> round(e.equity(1), 4), round(e.value, 4)
(0.852, 0.7041)
"""

from __future__ import annotations

import argparse
import csv
import itertools
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from checkraise.cards import (
    CLASS_NAMES,
    COMBO_CARDS,
    COMBO_CLASS,
    class_combos,
    combo_index,
    parse_cards,
)
from checkraise.equity import _strength_kernels as SK
from checkraise.equity.core import EquityError, Method, equity

__all__ = [
    "MAX_OPPONENTS",
    "PreflopEntry",
    "build_preflop_table",
    "preflop_entry",
    "preflop_equity",
    "preflop_table",
]

MAX_OPPONENTS = 9
_DATA_FILE = "preflop_equity.csv"


@dataclass(frozen=True)
class PreflopEntry:
    """One preflop class: exact heads-up W/T/L against a random hand, equity vs 1-9 random."""

    hand: str
    win: float
    tie: float
    lose: float
    equity_vs: tuple[float, ...]  # index n - 1: equity against n random hands

    @property
    def value(self) -> float:
        """``v = W - L`` against one random hand."""
        return self.win - self.lose

    def equity(self, opponents: int = 1) -> float:
        """Equity (ties shared) against ``opponents`` (1-9) random hands."""
        if not 1 <= opponents <= MAX_OPPONENTS:
            raise EquityError(f"opponents must be 1..{MAX_OPPONENTS}, got {opponents}")
        return self.equity_vs[opponents - 1]


def _suit_permutations() -> np.ndarray:
    return np.array(list(itertools.permutations(range(4))), dtype=np.int64)


def exact_heads_up() -> dict[str, tuple[float, float, float]]:
    """Exact (win, tie, lose) probabilities of each class against one random hand."""
    win, tie, lose = SK.preflop_vs_random_exact(COMBO_CLASS.astype(np.int64), _suit_permutations())
    total = win + tie + lose
    return {
        name: (float(win[k] / total[k]), float(tie[k] / total[k]), float(lose[k] / total[k]))
        for k, name in enumerate(CLASS_NAMES)
    }


def build_preflop_table(
    samples: int = 200_000, seed: int = 2024
) -> tuple[list[PreflopEntry], float]:
    """Compute the table; return its rows and the largest Monte Carlo standard error."""
    exact = exact_heads_up()
    seeds = np.random.SeedSequence(seed).spawn(len(CLASS_NAMES) * (MAX_OPPONENTS - 1))
    rows: list[PreflopEntry] = []
    worst_se = 0.0
    for k, name in enumerate(CLASS_NAMES):
        combo = int(np.flatnonzero(k == COMBO_CLASS)[0])
        hand = [int(c) for c in COMBO_CARDS[combo]]
        w, t, lo = exact[name]
        eqs = [w + 0.5 * t]
        for n in range(2, MAX_OPPONENTS + 1):
            gen = np.random.default_rng(seeds[k * (MAX_OPPONENTS - 1) + n - 2])
            res = equity([hand] + [None] * n, method=Method.MC, samples=samples, seed=gen)
            eqs.append(float(res.equity[0]))
            worst_se = max(worst_se, float(res.stderr[0]))
        rows.append(PreflopEntry(name, w, t, lo, tuple(eqs)))
    return rows, worst_se


def write_table(path: Path, rows: list[PreflopEntry], samples: int, seed: int, se: float) -> None:
    """Write ``rows`` as the shipped CSV with a header that says how it was made."""
    with path.open("w", newline="") as fh:
        fh.write(
            "# checkraise preflop table, written by `python -m checkraise.equity.preflop`.\n"
            "# win/tie/lose/eq1: exact, all boards against one random hand (ties shared).\n"
            f"# eq2..eq{MAX_OPPONENTS}: Monte Carlo against n random hands, {samples} deals"
            f" per cell, seed {seed}, largest standard error {se:.5f}.\n"
        )
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(
            ["hand", "win", "tie", "lose", *(f"eq{n}" for n in range(1, MAX_OPPONENTS + 1))]
        )
        for e in rows:
            writer.writerow(
                [e.hand, f"{e.win:.10f}", f"{e.tie:.10f}", f"{e.lose:.10f}"]
                + [f"{x:.6f}" for x in e.equity_vs]
            )


@lru_cache(maxsize=1)
def preflop_table() -> dict[str, PreflopEntry]:
    """The shipped table, keyed by class name (``"AA"``, ``"AKs"``, ``"72o"``)."""
    text = resources.files("checkraise").joinpath("data", _DATA_FILE).read_text()
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    table: dict[str, PreflopEntry] = {}
    for row in csv.DictReader(lines):
        eqs = tuple(float(row[f"eq{n}"]) for n in range(1, MAX_OPPONENTS + 1))
        table[row["hand"]] = PreflopEntry(
            row["hand"], float(row["win"]), float(row["tie"]), float(row["lose"]), eqs
        )
    if set(table) != set(CLASS_NAMES):
        raise RuntimeError(f"{_DATA_FILE} does not list the 169 preflop classes")
    return table


def preflop_entry(c0: int, c1: int) -> PreflopEntry:
    """Table row of the hand ``{c0, c1}``."""
    return preflop_table()[CLASS_NAMES[COMBO_CLASS[combo_index(c0, c1)]]]


def preflop_equity(hand: str, opponents: int = 1) -> float:
    """Equity of a class (``"AKs"``) or hand (``"AsKs"``) against random hands, from the table.

    Examples
    --------
    >>> round(preflop_equity("AsKs"), 3), preflop_equity("AKs") == preflop_equity("AhKh")
    (0.67, True)
    """
    if len(hand.strip()) == 4:
        c0, c1 = parse_cards(hand)
        return preflop_entry(c0, c1).equity(opponents)
    combo = class_combos(hand.strip())[0]
    return preflop_table()[CLASS_NAMES[COMBO_CLASS[combo]]].equity(opponents)


def main(argv: list[str] | None = None) -> None:
    """Regenerate the shipped table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--samples", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--out", type=Path, default=Path(__file__).resolve().parents[1] / "data" / _DATA_FILE
    )
    args = parser.parse_args(argv)
    rows, se = build_preflop_table(args.samples, args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_table(args.out, rows, args.samples, args.seed, se)
    print(f"wrote {args.out} ({len(rows)} classes, largest MC standard error {se:.5f})")


if __name__ == "__main__":
    main()
