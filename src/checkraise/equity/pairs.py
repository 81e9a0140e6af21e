"""Exact preflop equity of every hand against every other hand, as a shipped table.

Each of the 812,175 match-ups of two hands is enumerated over all 1,712,304 boards
once up to a relabelling of the suits, which changes nothing: 47,008 classes of
match-ups are counted, and the table holds the win and tie counts of each class
both ways round (93,769 entries, keyed by :func:`pair_key`). The table (``data/preflop_pairs.npz``,
``.npz`` + JSON header) makes the exact equity of two known hands before the flop a
lookup instead of 20 ms of enumeration; the luck adjustment of matches
(:mod:`checkraise.arena.luck`) needs it for every hand that sees a flop.

Regenerate it with ``python -m checkraise.equity.pairs --workers 2`` (47,008 x 1.7M
boards, about 5 ms a class: four minutes of CPU).

Examples
--------
>>> from checkraise.cards import parse_cards
>>> round(pair_equity(parse_cards("AhAd"), parse_cards("KsKc")), 4)
0.8126
"""

from __future__ import annotations

import argparse
import itertools
import time
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from checkraise._npzfile import read_npz, write_npz
from checkraise._numba import njit
from checkraise.errors import CheckraiseError, ConfigError
from checkraise.evaluator._kernels import CARD_FLUSH_BIT, CARD_KEY, rank_from_key

__all__ = ["BOARDS", "pair_equity", "pair_key", "pair_keys"]

#: Boards of five cards from the 48 that two hands leave: C(48, 5).
BOARDS = 1_712_304
FORMAT = "checkraise-preflop-pairs"
FORMAT_VERSION = 1
DATA_FILE = "preflop_pairs.npz"
_SUIT_ORDERS = np.array(list(itertools.permutations(range(4))), dtype=np.int64)


class PairTableError(CheckraiseError):
    """The shipped table of preflop match-ups is missing or damaged."""


def pair_key(hole_a: tuple[int, ...], hole_b: tuple[int, ...]) -> int:
    """The match-up's class: the smallest code, over the 24 relabellings of the suits, of
    the four cards (each hand sorted, ``a``'s cards first), packed 6 bits a card.

    >>> from checkraise.cards import parse_cards
    >>> pair_key(parse_cards("AhKh"), parse_cards("7c7d")) == pair_key(
    ...     parse_cards("AsKs"), parse_cards("7h7c"))
    True
    """
    cards = np.array([*hole_a, *hole_b], dtype=np.int64)
    if cards.shape != (4,) or len(set(cards.tolist())) != 4 or cards.min() < 0 or cards.max() > 51:
        raise ConfigError(f"hands {hole_a} and {hole_b}; expected two hands of two distinct cards")
    return int(pair_keys(cards[None, :])[0])


@njit
def _keys(cards: npt.NDArray[np.int64], orders: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    out = np.empty(cards.shape[0], dtype=np.int64)
    c = np.empty(4, dtype=np.int64)  # one scratch row, not one per relabelling
    for i in range(cards.shape[0]):
        best = -1
        for o in range(orders.shape[0]):
            for j in range(4):
                c[j] = 4 * (cards[i, j] // 4) + orders[o, cards[i, j] % 4]
            a0, a1 = min(c[0], c[1]), max(c[0], c[1])
            b0, b1 = min(c[2], c[3]), max(c[2], c[3])
            code = (a0 << 18) | (a1 << 12) | (b0 << 6) | b1
            if best < 0 or code < best:
                best = code
        out[i] = best
    return out


def pair_keys(cards: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """:func:`pair_key` of many match-ups at once (rows of four cards, ``a``'s first)."""
    return _keys(np.ascontiguousarray(cards, dtype=np.int64), _SUIT_ORDERS)


@njit
def _count(cards: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Wins of the first hand and ties over every board, for each row ``a0 a1 b0 b1``."""
    n = cards.shape[0]
    wins = np.zeros(n, dtype=np.int64)
    ties = np.zeros(n, dtype=np.int64)
    deck = np.empty(48, dtype=np.int64)
    for i in range(n):
        a0, a1, b0, b1 = cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3]
        k = 0
        for c in range(52):
            if c != a0 and c != a1 and c != b0 and c != b1:
                deck[k] = c
                k += 1
        ka = CARD_KEY[a0] + CARD_KEY[a1]
        fa = CARD_FLUSH_BIT[a0] | CARD_FLUSH_BIT[a1]
        kb = CARD_KEY[b0] + CARD_KEY[b1]
        fb = CARD_FLUSH_BIT[b0] | CARD_FLUSH_BIT[b1]
        w = 0
        t = 0
        for i0 in range(44):
            k0, f0 = CARD_KEY[deck[i0]], CARD_FLUSH_BIT[deck[i0]]
            for i1 in range(i0 + 1, 45):
                k1, f1 = k0 + CARD_KEY[deck[i1]], f0 | CARD_FLUSH_BIT[deck[i1]]
                for i2 in range(i1 + 1, 46):
                    k2, f2 = k1 + CARD_KEY[deck[i2]], f1 | CARD_FLUSH_BIT[deck[i2]]
                    for i3 in range(i2 + 1, 47):
                        k3, f3 = k2 + CARD_KEY[deck[i3]], f2 | CARD_FLUSH_BIT[deck[i3]]
                        for i4 in range(i3 + 1, 48):
                            k4, f4 = k3 + CARD_KEY[deck[i4]], f3 | CARD_FLUSH_BIT[deck[i4]]
                            ra = rank_from_key(k4 + ka, f4 | fa)
                            rb = rank_from_key(k4 + kb, f4 | fb)
                            if ra > rb:
                                w += 1
                            elif ra == rb:
                                t += 1
        wins[i] = w
        ties[i] = t
    return wins, ties


def count_boards(
    cards: npt.NDArray[np.int64],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """``(wins of a, ties)`` over all :data:`BOARDS` boards for each row ``a0 a1 b0 b1``."""
    return _count(np.ascontiguousarray(cards, dtype=np.int64))


def classes() -> npt.NDArray[np.int64]:
    """One row ``a0 a1 b0 b1`` for each class of match-up, in increasing key order."""
    hands = list(itertools.combinations(range(52), 2))
    rows = np.array(
        [(*a, *b) for a, b in itertools.product(hands, repeat=2) if not set(a) & set(b)],
        dtype=np.int64,
    )
    _, first = np.unique(pair_keys(rows), return_index=True)
    return rows[first]  # np.unique sorts: increasing keys


def build(workers: int = 1) -> dict[str, npt.NDArray[np.int32]]:
    """The table's arrays: ``keys``, ``wins`` and ``ties`` of every class (slow).

    A class and its mirror (the hands swapped) share their boards: only the one with the
    smaller key is enumerated, and the mirror's wins are the other's losses.
    """
    rows = classes()
    keys = pair_keys(rows)
    mirror = pair_keys(rows[:, [2, 3, 0, 1]])
    own = keys <= mirror
    todo = rows[own]
    if workers <= 1:
        w, t = count_boards(todo)
    else:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(workers) as pool:
            done = list(pool.map(count_boards, np.array_split(todo, workers * 16)))
        w = np.concatenate([d[0] for d in done])
        t = np.concatenate([d[1] for d in done])
    wins = np.zeros(keys.shape[0], dtype=np.int64)
    ties = np.zeros(keys.shape[0], dtype=np.int64)
    wins[own], ties[own] = w, t
    at = np.searchsorted(keys, mirror[~own])  # every mirror is a class of its own
    wins[~own] = BOARDS - wins[at] - ties[at]
    ties[~own] = ties[at]
    return {"keys": keys.astype(np.int32), "wins": wins.astype(np.int32),
            "ties": ties.astype(np.int32)}


def _path() -> Path:
    return Path(__file__).resolve().parents[1] / "data" / DATA_FILE


@cache
def _table() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    path = _path()
    try:
        header, arrays = read_npz(path, FORMAT, FORMAT_VERSION, PairTableError)
    except FileNotFoundError as exc:
        raise PairTableError(
            f"{path}: missing; rebuild it with `python -m checkraise.equity.pairs`"
        ) from exc
    if header.get("boards") != BOARDS or set(arrays) != {"keys", "wins", "ties"}:
        raise PairTableError(f"{path}: not a table of {BOARDS} boards per match-up")
    equity = (arrays["wins"] + arrays["ties"] / 2) / BOARDS
    return arrays["keys"], equity


def pair_equity(hole_a: tuple[int, ...], hole_b: tuple[int, ...]) -> float:
    """Hand ``a``'s exact equity (wins plus half the ties) against ``b`` before the flop."""
    keys, equity = _table()
    key = pair_key(hole_a, hole_b)
    i = int(np.searchsorted(keys, key))
    if i >= keys.shape[0] or keys[i] != key:
        raise PairTableError(f"{_path()}: no entry for the hands {hole_a} and {hole_b}")
    return float(equity[i])


def main(argv: list[str] | None = None) -> None:
    """Regenerate the shipped table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--workers", type=int, default=1, help="processes")
    parser.add_argument("--out", type=Path, default=_path())
    args = parser.parse_args(argv)
    if args.workers < 1:
        raise SystemExit(f"--workers {args.workers}: expected at least 1")
    start = time.perf_counter()
    arrays = build(args.workers)
    header = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "boards": BOARDS,
        "classes": int(arrays["keys"].shape[0]),
        "command": "python -m checkraise.equity.pairs",
    }
    write_npz(args.out, header, arrays)
    print(f"wrote {args.out}: {header['classes']} classes in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
