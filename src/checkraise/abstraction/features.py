"""Exact hand-strength features of every suit-isomorphism class, and of single hands.

Per class (no sampling anywhere):

- river: EHS, wins + ties/2 against a uniformly random opponent hand among the 990 that
  do not collide with hole cards and board;
- turn: E[HS] and E[HS^2] over the 46 river cards, and the histogram of river EHS;
- flop: E[HS] and E[HS^2] over the 47 x 46 runouts, and the histogram of turn E[HS]
  over the 47 turn cards (the flop -> turn equity distribution);
- preflop: the same over all flops, and the histogram of flop E[HS].

Tables hold exact integers (see :mod:`checkraise.abstraction._ehs_kernels` for the
scales). :func:`compute_tables` builds them street by street from the river up, saving
each street in a work folder so that an interrupted build resumes where it stopped.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise.abstraction._ehs_kernels import (
    FLOP_DEN,
    RIVER_DEN,
    TURN_DEN,
    canonical_boards,
    flop_hand_sums,
    river_hand_value,
    turn_hand_sums,
)
from checkraise.errors import CheckraiseError

__all__ = [
    "DEFAULT_BINS",
    "FeatureTables",
    "compute_tables",
    "hand_features",
    "river_ehs",
]

DEFAULT_BINS = 32
INDEX_SIZES = (169, 1_286_792, 13_960_050, 123_156_254)
STREET_OF_BOARD = {0: 0, 3: 1, 4: 2, 5: 3}
STREETS = ("preflop", "flop", "turn", "river")
# E[HS^2] denominators: squares of the river scale times the number of runouts.
TURN_DEN2 = 46 * RIVER_DEN * RIVER_DEN
FLOP_DEN2 = 47 * TURN_DEN2
PREFLOP_DEN = 19_600 * FLOP_DEN
PREFLOP_DEN2 = 19_600 * FLOP_DEN2

PhaseProgress = Callable[[str, int, int], None]


def _hand_arrays(
    hole: Sequence[int], board: Sequence[int]
) -> tuple[int, int, npt.NDArray[np.uint8]]:
    cards = [*hole, *board]
    if len(hole) != 2 or len(board) not in STREET_OF_BOARD:
        raise CheckraiseError(
            f"got {len(hole)} hole cards and {len(board)} board cards; "
            "expected 2 hole cards and 0, 3, 4 or 5 board cards"
        )
    if any(not 0 <= c < 52 for c in cards) or len(set(cards)) != len(cards):
        raise CheckraiseError(f"cards {cards} must be distinct ints 0..51")
    return int(hole[0]), int(hole[1]), np.asarray(board, dtype=np.uint8)


def river_ehs(hole: Sequence[int], board: Sequence[int]) -> float:
    """Exact EHS of ``hole`` on a 5-card river ``board``: P(win) + P(tie) / 2.

    Examples
    --------
    >>> from checkraise.cards import parse_cards
    >>> river_ehs(parse_cards("As Ah"), parse_cards("Ad Ac 2c 7d 9h"))
    1.0
    """
    h0, h1, b = _hand_arrays(hole, board)
    if b.size != 5:
        raise CheckraiseError(f"river EHS needs 5 board cards, got {b.size}")
    return river_hand_value(h0, h1, b) / RIVER_DEN


def hand_features(
    hole: Sequence[int], board: Sequence[int], bins: int = DEFAULT_BINS
) -> dict[str, float | list[int]]:
    """The features of one flop, turn or river hand, computed exactly on the fly.

    River: ``ehs``. Turn: ``ehs`` (= E[HS]), ``ehs2`` (E[HS^2]) and ``hist`` (river EHS
    counts in ``bins`` bins). Flop: the same over turn E[HS]. Preflop features come from
    the 169-class table of an abstraction instead (see :class:`Abstraction`).

    Examples
    --------
    >>> from checkraise.cards import parse_cards
    >>> f = hand_features(parse_cards("As Ks"), parse_cards("Qs Js Ts 2c"))  # a royal flush
    >>> f["ehs"], f["ehs2"], sum(f["hist"])
    (1.0, 1.0, 46)
    """
    h0, h1, b = _hand_arrays(hole, board)
    if b.size == 5:
        return {"ehs": river_hand_value(h0, h1, b) / RIVER_DEN}
    if b.size == 0:
        raise CheckraiseError("preflop features come from an abstraction's preflop table")
    hist = np.zeros(bins, dtype=np.int64)
    if b.size == 4:
        s, s2 = turn_hand_sums(h0, h1, b, bins, hist)
        return {"ehs": s / TURN_DEN, "ehs2": s2 / TURN_DEN2, "hist": hist.tolist()}
    s, s2 = flop_hand_sums(h0, h1, b, bins, hist)
    return {"ehs": s / FLOP_DEN, "ehs2": s2 / FLOP_DEN2, "hist": hist.tolist()}


@dataclass(frozen=True)
class FeatureTables:
    """Exact per-class feature sums of every street (see the module docstring)."""

    bins: int
    river_v: npt.NDArray[np.uint16]
    turn_s: npt.NDArray[np.uint32]
    turn_s2: npt.NDArray[np.uint32]
    turn_hist: npt.NDArray[np.uint8]
    flop_s: npt.NDArray[np.uint32]
    flop_s2: npt.NDArray[np.uint64]
    flop_hist: npt.NDArray[np.uint8]
    preflop_s: npt.NDArray[np.int64]
    preflop_s2: npt.NDArray[np.float64]
    preflop_hist: npt.NDArray[np.int64]

    def ehs(self, street: int) -> tuple[npt.NDArray[np.int64], int]:
        """EHS numerators of every class of ``street`` and their denominator."""
        if street == 3:
            return self.river_v.astype(np.int64), RIVER_DEN
        if street == 2:
            return self.turn_s.astype(np.int64), TURN_DEN
        if street == 1:
            return self.flop_s.astype(np.int64), FLOP_DEN
        return self.preflop_s, PREFLOP_DEN


def _run_chunks(
    name: str,
    total: int,
    chunk: int,
    work: Callable[[int, int], None],
    progress: PhaseProgress | None,
) -> None:
    for start in range(0, total, chunk):
        stop = min(total, start + chunk)
        work(start, stop)
        if progress is not None:
            progress(name, stop, total)


def _cached(folder: Path, names: Sequence[str]) -> list[npt.NDArray[Any]] | None:
    paths = [folder / f"{n}.npy" for n in names]
    if all(p.exists() for p in paths):
        return [np.load(p, allow_pickle=False) for p in paths]
    return None


def _store(folder: Path, arrays: dict[str, npt.NDArray[Any]]) -> None:
    # Write to a temporary name first so that a kill mid-write leaves no half table.
    for name, arr in arrays.items():
        tmp = folder / f"{name}.tmp.npy"
        np.save(tmp, arr)
        tmp.replace(folder / f"{name}.npy")


def compute_tables(
    folder: Path, bins: int = DEFAULT_BINS, progress: PhaseProgress | None = None
) -> FeatureTables:
    """Compute (or resume from ``folder``) the exact feature tables of every class.

    Phases ``river``, ``turn``, ``flop``, ``preflop``; each is saved in ``folder`` when
    done and skipped on a later run with the same ``bins``.
    """
    from checkraise.abstraction._table_kernels import (
        fill_flop,
        fill_preflop,
        fill_river,
        fill_turn,
    )

    if not 2 <= bins <= 255:
        raise CheckraiseError(f"histogram bins {bins} out of range; expected 2..255")
    folder.mkdir(parents=True, exist_ok=True)
    meta = folder / "features.json"
    if meta.exists():
        try:
            found = json.loads(meta.read_text()).get("bins")
        except (ValueError, AttributeError):
            raise CheckraiseError(
                f"{meta} is not the feature index a build writes; remove it or use another "
                "--work folder"
            ) from None
        if found != bins:
            raise CheckraiseError(
                f"work folder {folder} holds features with {found} bins; expected {bins} "
                "(use another folder)"
            )
    else:
        meta.write_text(json.dumps({"bins": bins}))

    got = _cached(folder, ["river_v"])
    if got is None:
        boards = canonical_boards(5)
        river_v = np.zeros(INDEX_SIZES[3], dtype=np.uint16)
        _run_chunks(
            "river EHS",
            len(boards),
            2048,
            lambda a, b: fill_river(boards, a, b, river_v),
            progress,
        )
        _store(folder, {"river_v": river_v})
    else:
        river_v = got[0]

    got = _cached(folder, ["turn_s", "turn_s2", "turn_hist"])
    if got is None:
        n = INDEX_SIZES[2]
        turn_s = np.zeros(n, dtype=np.uint32)
        turn_s2 = np.zeros(n, dtype=np.uint32)
        turn_hist = np.zeros((n, bins), dtype=np.uint8)
        _run_chunks(
            "turn features",
            n,
            1 << 18,
            lambda a, b: fill_turn(river_v, a, b, turn_s, turn_s2, turn_hist),
            progress,
        )
        _store(folder, {"turn_s": turn_s, "turn_s2": turn_s2, "turn_hist": turn_hist})
    else:
        turn_s, turn_s2, turn_hist = got

    got = _cached(folder, ["flop_s", "flop_s2", "flop_hist"])
    if got is None:
        n = INDEX_SIZES[1]
        flop_s = np.zeros(n, dtype=np.uint32)
        flop_s2 = np.zeros(n, dtype=np.uint64)
        flop_hist = np.zeros((n, bins), dtype=np.uint8)
        _run_chunks(
            "flop features",
            n,
            1 << 16,
            lambda a, b: fill_flop(turn_s, turn_s2, a, b, flop_s, flop_s2, flop_hist),
            progress,
        )
        _store(folder, {"flop_s": flop_s, "flop_s2": flop_s2, "flop_hist": flop_hist})
    else:
        flop_s, flop_s2, flop_hist = got

    got = _cached(folder, ["preflop_s", "preflop_s2", "preflop_hist"])
    if got is None:
        preflop_s = np.zeros(169, dtype=np.int64)
        preflop_s2 = np.zeros(169, dtype=np.float64)
        preflop_hist = np.zeros((169, bins), dtype=np.int64)
        fill_preflop(flop_s, flop_s2, FLOP_DEN, preflop_s, preflop_s2, preflop_hist)
        if progress is not None:
            progress("preflop features", 169, 169)
        _store(
            folder,
            {"preflop_s": preflop_s, "preflop_s2": preflop_s2, "preflop_hist": preflop_hist},
        )
    else:
        preflop_s, preflop_s2, preflop_hist = got

    return FeatureTables(
        bins, river_v, turn_s, turn_s2, turn_hist, flop_s, flop_s2, flop_hist,
        preflop_s, preflop_s2, preflop_hist,
    )  # fmt: skip
