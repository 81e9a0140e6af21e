"""Weighted ranges over the 1,326 two-card combos, in PokerStove / Equilab / PioSOLVER notation.

A :class:`Range` is a flat ``float64`` array of 1,326 weights in ``[0, 1]``, indexed like
:data:`checkraise.cards.COMBO_CARDS` (the flat-array layout of postflop-solver's ranges).
The text form is a comma-separated list of tokens, each optionally followed by
``:weight``:

========================  =============================================================
``AA``, ``AKs``, ``AKo``  one preflop class (6, 4 or 12 combos)
``AK``                    suited and offsuit (16 combos)
``QQ+``                   a pair and every higher pair
``A2s+``, ``KTo+``, ``AT+``  fixed top card, kicker from the given one up to one below it
``QQ-99``                 the pairs from QQ down to 99
``A5s-A2s``               fixed top card, kickers 5 down to 2
``T9s-65s``               equal-gap hands stepping down together (connectors, gappers)
``AhKh``                  one specific combo
``random``, ``any``       all 1,326 combos
``AKs:0.5``               any of the above with a weight in ``[0, 1]``
========================  =============================================================

Later tokens overwrite the weights that earlier ones gave to the same combos. Printing
gives a short canonical string built from maximal runs (``+`` where a run reaches the top,
dashes otherwise, ``AK`` where suited and offsuit agree), so ``Range(str(r)) == r``.

Examples
--------
>>> r = Range("QQ+, AKs, T9s-98s:0.5")
>>> len(r), r.weighted_combos
(30, 26.0)
>>> str(r)
'QQ+,AKs,T9s-98s:0.5'
>>> round(Range("random").percent, 1), Range("AK").remove_cards("As").num_combos
(100.0, 12)
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator
from typing import Final

import numpy as np
import numpy.typing as npt

from checkraise.cards import (
    CLASS_NAMES,
    COMBO_CARDS,
    COMBO_CLASS,
    COMBO_MASKS,
    NUM_COMBOS,
    RANKS,
    combo_index,
    format_card,
    parse_cards,
)
from checkraise.errors import CheckraiseError

__all__ = ["Range", "RangeError", "RangeParseError", "as_range", "cards_mask"]

FloatArray = npt.NDArray[np.float64]

_RANK: Final = {ch: i for i, ch in enumerate(RANKS)}
_R = "[2-9TJQKA]"
_CLASS_RE: Final = re.compile(rf"^({_R})({_R})([SO]?)(\+?)$")
_DASH_RE: Final = re.compile(rf"^({_R})({_R})([SO]?)-({_R})({_R})([SO]?)$")
_COMBO_RE: Final = re.compile(r"^[2-9TJQKA][CDHS][2-9TJQKA][CDHS]$")
_FULL_WORDS: Final = frozenset({"RANDOM", "ANY"})

# Combo indices of each of the 169 classes.
_CLASS_COMBOS: Final = [np.flatnonzero(np.equal(COMBO_CLASS, k)) for k in range(len(CLASS_NAMES))]
_CLASS_OF_NAME: Final = {name: k for k, name in enumerate(CLASS_NAMES)}


def _class_id(hi: int, lo: int, kind: str) -> int:
    if hi == lo:
        return _CLASS_OF_NAME[RANKS[hi] * 2]
    if hi < lo:
        hi, lo = lo, hi
    return _CLASS_OF_NAME[RANKS[hi] + RANKS[lo] + kind]


class RangeError(CheckraiseError):
    """A range, range array or card mask that is not valid."""


class RangeParseError(RangeError):
    """A range string could not be parsed; names the token and its character offset."""

    def __init__(self, text: str, token: str, position: int, reason: str) -> None:
        self.text = text
        self.token = token
        self.position = position
        super().__init__(
            f"invalid range token {token!r} at position {position} in {text!r}: {reason}"
        )


def cards_mask(cards: int | str | Iterable[int | str] | None) -> int:
    """Card mask of ``cards``: a mask int, a card string like ``"Td9d6h"``, or card ints/strings.

    Examples
    --------
    >>> cards_mask("2c2d") == 0b11
    True
    """
    if cards is None:
        return 0
    if isinstance(cards, (int, np.integer)) and not isinstance(cards, bool):
        mask = int(cards)
        if not 0 <= mask < 1 << 52:
            raise RangeError(f"invalid card mask {mask!r}: expected 0 <= mask < 2**52")
        return mask
    mask = 0
    for c in parse_cards(cards):  # type: ignore[arg-type]
        mask |= 1 << c
    return mask


class Range:
    """A weighted range: a weight in ``[0, 1]`` for each of the 1,326 combos.

    Parameters
    ----------
    text
        Range notation (see the module docstring); ``""`` is the empty range.

    Examples
    --------
    >>> Range("JJ+,AKs:0.5").weights[Range("AsKs").combos()].tolist()
    [0.5]
    >>> Range("KK+") == Range("AA,KK")
    True
    """

    __slots__ = ("_w",)

    def __init__(self, text: str = "") -> None:
        self._w = _parse(text)
        self._w.setflags(write=False)

    @classmethod
    def from_array(cls, weights: npt.ArrayLike) -> Range:
        """Range from a length-1,326 array of weights in ``[0, 1]`` (copied)."""
        w = np.array(weights, dtype=np.float64)
        if w.shape != (NUM_COMBOS,):
            raise RangeError(f"range weights must have shape (1326,), got {w.shape}")
        if not np.all(np.isfinite(w)) or w.min() < 0.0 or w.max() > 1.0:
            bad = w[~(np.isfinite(w) & (w >= 0.0) & (w <= 1.0))][0]
            raise RangeError(f"range weight {bad!r} is outside [0, 1]")
        out = cls.__new__(cls)
        w += 0.0  # folds -0.0 into 0.0 so equal ranges print and hash alike
        w.setflags(write=False)
        out._w = w
        return out

    @classmethod
    def full(cls) -> Range:
        """Every combo with weight 1 (a random hand)."""
        return cls.from_array(np.ones(NUM_COMBOS))

    @classmethod
    def from_combos(cls, combos: Iterable[int], weight: float = 1.0) -> Range:
        """Range holding the given combo indices at ``weight``."""
        w = np.zeros(NUM_COMBOS)
        w[np.fromiter(combos, dtype=np.int64)] = weight
        return cls.from_array(w)

    @property
    def weights(self) -> FloatArray:
        """The read-only ``(1326,)`` weight array."""
        return self._w

    def combos(self) -> npt.NDArray[np.int64]:
        """Indices of the combos with positive weight, ascending."""
        return np.flatnonzero(self._w > 0.0)

    def __len__(self) -> int:
        return int(np.count_nonzero(self._w))

    @property
    def num_combos(self) -> int:
        """Number of combos with positive weight (same as ``len``)."""
        return len(self)

    @property
    def weighted_combos(self) -> float:
        """Sum of the weights: the number of combos, counting ``AKs:0.5`` as two."""
        return float(self._w.sum())

    @property
    def fraction(self) -> float:
        """Weighted share of all 1,326 combos, in ``[0, 1]``."""
        return self.weighted_combos / NUM_COMBOS

    @property
    def percent(self) -> float:
        """Weighted share of all hands in percent (PokerStove's "% of hands")."""
        return 100.0 * self.fraction

    def is_empty(self) -> bool:
        """True when no combo has positive weight."""
        return not bool(np.any(self._w > 0.0))

    def is_uniform(self) -> bool:
        """True when all 1,326 combos carry the same positive weight (a random hand)."""
        return bool(self._w[0] > 0.0 and np.all(self._w == self._w[0]))

    def remove_cards(self, cards: int | str | Iterable[int | str] | None) -> Range:
        """Copy with every combo that uses one of ``cards`` (mask, string or cards) set to 0.

        Examples
        --------
        >>> Range("AA").remove_cards("AsKd").num_combos
        3
        """
        mask = cards_mask(cards)
        w = self._w.copy()
        w[(COMBO_MASKS & np.uint64(mask)) != 0] = 0.0
        return Range.from_array(w)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Range):
            return NotImplemented
        return bool(np.array_equal(self._w, other._w))

    def __hash__(self) -> int:
        return hash(self._w.tobytes())

    def __iter__(self) -> Iterator[tuple[int, float]]:
        """``(combo index, weight)`` for each combo with positive weight."""
        for i in self.combos():
            yield int(i), float(self._w[i])

    def __str__(self) -> str:
        return _format(self._w)

    def __repr__(self) -> str:
        return f"Range({str(self)!r})"


def as_range(spec: Range | str | Iterable[int] | None) -> Range:
    """A :class:`Range` from a range, range text, ``"unknown"``/``None`` or two card ints."""
    if spec is None:
        return Range.full()
    if isinstance(spec, Range):
        return spec
    if isinstance(spec, str):
        if spec.strip().lower() in ("unknown", "?", "random", "any"):
            return Range.full()
        return Range(spec)
    cards = parse_cards(list(spec))
    if len(cards) != 2:
        raise RangeError(f"a hand needs exactly two cards, got {len(cards)}")
    return Range.from_combos([combo_index(*cards)])


# ---------------------------------------------------------------------------------------
# parsing


def _tokens(text: str) -> Iterator[tuple[str, int]]:
    start = 0
    for part in text.split(","):
        stripped = part.strip()
        if stripped:
            yield stripped, start + (len(part) - len(part.lstrip()))
        start += len(part) + 1


def _parse(text: str) -> FloatArray:
    if not isinstance(text, str):
        raise TypeError(f"range text must be a str, got {type(text).__name__}")
    w = np.zeros(NUM_COMBOS)
    for token, pos in _tokens(text):
        body, weight = token, 1.0
        if ":" in token:
            body, _, wtext = token.rpartition(":")
            try:
                weight = float(wtext)
            except ValueError:
                raise RangeParseError(
                    text, token, pos, f"weight {wtext.strip()!r} is not a number"
                ) from None
            if not (math.isfinite(weight) and 0.0 <= weight <= 1.0):
                raise RangeParseError(text, token, pos, f"weight {weight!r} is outside [0, 1]")
        key = "".join(body.split())
        try:
            combos = _token_combos(key)
        except ValueError as exc:
            raise RangeParseError(text, token, pos, str(exc)) from None
        w[combos] = weight
    return w + 0.0


def _expected() -> str:
    return "expected e.g. 'QQ+', 'AKs', 'A2s+', 'KTo+', 'T9s-65s', 'AhKh', 'random'"


def _token_combos(key: str) -> npt.NDArray[np.int64]:
    upper = key.upper()
    if upper in _FULL_WORDS:
        return np.arange(NUM_COMBOS)
    if _COMBO_RE.match(upper):
        a, b = parse_cards(key, unique=False)
        if a == b:
            raise RangeError(f"card {format_card(a)} given twice")
        return np.array([combo_index(a, b)])
    m = _CLASS_RE.match(upper)
    if m:
        return _classes_combos(_plus_or_single(m[1], m[2], m[3], bool(m[4])))
    m = _DASH_RE.match(upper)
    if m:
        return _classes_combos(_dash(m[1], m[2], m[3], m[4], m[5], m[6]))
    raise RangeError(_expected())


def _kinds(suffix: str) -> tuple[str, ...]:
    return (suffix.lower(),) if suffix else ("s", "o")


def _plus_or_single(c1: str, c2: str, suffix: str, plus: bool) -> list[int]:
    hi, lo = _RANK[c1], _RANK[c2]
    if hi == lo:
        if suffix:
            raise RangeError("a pair cannot be suited or offsuit")
        return [_class_id(r, r, "") for r in range(hi, 13 if plus else hi + 1)]
    hi, lo = max(hi, lo), min(hi, lo)
    top = hi - 1 if plus else lo
    return [_class_id(hi, k, kind) for k in range(lo, top + 1) for kind in _kinds(suffix)]


def _dash(a1: str, a2: str, sa: str, b1: str, b2: str, sb: str) -> list[int]:
    ah, al, bh, bl = _RANK[a1], _RANK[a2], _RANK[b1], _RANK[b2]
    if sa != sb:
        raise RangeError("both ends of a dash range need the same suffix (s, o or none)")
    if (ah == al) != (bh == bl):
        raise RangeError("a dash range joins two pairs or two non-pairs")
    if ah == al:
        if sa:
            raise RangeError("a pair cannot be suited or offsuit")
        return [_class_id(r, r, "") for r in range(min(ah, bh), max(ah, bh) + 1)]
    ah, al = max(ah, al), min(ah, al)
    bh, bl = max(bh, bl), min(bh, bl)
    kinds = _kinds(sa)
    if ah == bh:
        los = range(min(al, bl), max(al, bl) + 1)
        return [_class_id(ah, k, kind) for k in los for kind in kinds]
    if ah - al == bh - bl:
        his = range(min(ah, bh), max(ah, bh) + 1)
        return [_class_id(h, h - (ah - al), kind) for h in his for kind in kinds]
    raise RangeError("a dash range keeps the top card fixed (A5s-A2s) or the gap fixed (T9s-65s)")


def _classes_combos(classes: list[int]) -> npt.NDArray[np.int64]:
    return np.concatenate([_CLASS_COMBOS[k] for k in classes])


# ---------------------------------------------------------------------------------------
# printing

Cell = tuple[int, int]  # (high rank, low rank) of a non-pair class


def _fmt_weight(w: float) -> str:
    return "" if w == 1.0 else ":" + repr(float(w))


def _pair_tokens(ranks: set[int]) -> list[str]:
    out: list[str] = []
    r = 12
    while r >= 0:
        if r not in ranks:
            r -= 1
            continue
        top = r
        while r - 1 in ranks:
            r -= 1
        if top == r:
            out.append(RANKS[r] * 2)
        elif top == 12:
            out.append(RANKS[r] * 2 + "+")
        else:
            out.append(f"{RANKS[top] * 2}-{RANKS[r] * 2}")
        r -= 1
    return out


def _name(cell: Cell, suffix: str) -> str:
    return RANKS[cell[0]] + RANKS[cell[1]] + suffix


def _cover(target: set[Cell], allowed: set[Cell], suffix: str) -> list[str]:
    # Rows (fixed top card) first, then diagonals (fixed gap) for the leftovers; a token may
    # run over cells of ``allowed`` outside ``target`` because those carry the same weight.
    out: list[str] = []
    covered: set[Cell] = set()
    for hi in range(12, 0, -1):
        lo = hi - 1
        while lo >= 0:
            if (hi, lo) not in allowed:
                lo -= 1
                continue
            run_top = lo
            while lo - 1 >= 0 and (hi, lo - 1) in allowed:
                lo -= 1
            hits = [k for k in range(lo, run_top + 1) if (hi, k) in target]
            if len(hits) >= 2:
                first, last = min(hits), max(hits)
                if run_top == hi - 1:
                    out.append(_name((hi, first), suffix) + "+")
                    covered.update((hi, k) for k in range(first, hi))
                else:
                    out.append(f"{_name((hi, last), suffix)}-{_name((hi, first), suffix)}")
                    covered.update((hi, k) for k in range(first, last + 1))
            lo -= 1
    left = target - covered
    for gap in range(1, 13):
        diag = [(h, h - gap) for h in range(12, gap - 1, -1)]
        i = 0
        while i < len(diag):
            if diag[i] not in allowed:
                i += 1
                continue
            j = i
            while j + 1 < len(diag) and diag[j + 1] in allowed:
                j += 1
            hits = [k for k in range(i, j + 1) if diag[k] in left]
            if hits:
                a, b = diag[hits[0]], diag[hits[-1]]
                out.append(_name(a, suffix) if a == b else f"{_name(a, suffix)}-{_name(b, suffix)}")
            i = j + 1
    return out


def _nonpair_tokens(suited: set[Cell], offsuit: set[Cell]) -> list[str]:
    apart = _cover(suited, suited, "s") + _cover(offsuit, offsuit, "o")
    both = suited & offsuit
    if not both:
        return apart
    merged = (
        _cover(both, both, "")
        + _cover(suited - both, suited, "s")
        + _cover(offsuit - both, offsuit, "o")
    )
    return merged if len(",".join(merged)) <= len(",".join(apart)) else apart


def _combo_text(i: int) -> str:
    lo, hi = (int(c) for c in COMBO_CARDS[i])
    return format_card(hi) + format_card(lo)


def _format(w: FloatArray) -> str:
    if w[0] > 0.0 and np.all(w == w[0]):
        return "random" + _fmt_weight(float(w[0]))
    by_weight: dict[float, list[int]] = {}
    loose: list[int] = []
    for k, idx in enumerate(_CLASS_COMBOS):
        vals = w[idx]
        if np.all(vals == vals[0]):
            if vals[0] > 0.0:
                by_weight.setdefault(float(vals[0]), []).append(k)
        else:
            loose.extend(int(i) for i in idx if w[i] > 0.0)
    tokens: list[str] = []
    for weight in sorted(by_weight, reverse=True):
        pairs: set[int] = set()
        suited: set[Cell] = set()
        offsuit: set[Cell] = set()
        for k in by_weight[weight]:
            name = CLASS_NAMES[k]
            cell = (_RANK[name[0]], _RANK[name[1]])
            if len(name) == 2:
                pairs.add(cell[0])
            else:
                (suited if name[2] == "s" else offsuit).add(cell)
        suffix = _fmt_weight(weight)
        tokens += [t + suffix for t in _pair_tokens(pairs) + _nonpair_tokens(suited, offsuit)]
    tokens += [_combo_text(i) + _fmt_weight(float(w[i])) for i in sorted(loose, reverse=True)]
    return ",".join(tokens)

