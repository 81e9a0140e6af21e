"""Tables, caches and amount reading shared by the PokerStars reader (:mod:`.pokerstars`).

Hand histories repeat themselves: the same seat lines, seatings, stakes and table
lines come back hand after hand, so what is read from them once is kept here
(bounded dictionaries, cleared when they grow past a few thousand entries). Every
cached value is a pure function of its key; errors are never cached.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import cache
from typing import Final

from checkraise.cards import parse_card
from checkraise.histories.record import ZERO, HandHistoryError, Move

__all__ = [
    "CARD_OF",
    "GAMES",
    "HOLE_OF",
    "SEAT_LINES",
    "TABLES",
    "Amounts",
    "action_words",
    "fraction",
    "new_tuple",
    "quick_lines",
    "read_card",
    "read_cards",
    "seat_order",
]

_FOLD, _CHECK = Move.FOLD, Move.CHECK
CARD_OF: Final = {r + s: parse_card(r + s) for r in "23456789TJQKA" for s in "cdhs"}
# The end of a "Dealt to NAME [Ah Kd]" line, for every two distinct cards.
HOLE_OF: Final = {f" [{a} {b}]": (ca, cb) for a, ca in CARD_OF.items()
                  for b, cb in CARD_OF.items() if ca != cb}
# Building a named tuple through tuple.__new__ skips its Python-level __new__ (and its defaults).
new_tuple: Final = tuple.__new__
_QUICK: dict[tuple[str, ...], dict[str, tuple[int, Move]]] = {}
SEAT_LINES: dict[int, dict[str, tuple[int, str, int]]] = {}
_FRACTIONS: dict[int, Fraction] = {0: ZERO}
_EXACT_CHIPS: dict[str, Fraction] = {}
GAMES: dict[tuple[str, str, str], tuple[str, str, int, int, int]] = {}
TABLES: dict[str, tuple[str, str]] = {}
_WORDS: dict[int, dict[str, tuple[int, int, bool]]] = {}


def action_words(unit: int) -> dict[str, tuple[int, int, bool]]:
    """What an action's words (``"calls 100"``, ``"raises 100 to 200"``, ``"posts big blind
    100"``) were read as, for amounts in ``unit``: the reader fills it, bounded here."""
    words = _WORDS.get(unit)
    if words is None or len(words) > 65536:
        words = _WORDS[unit] = {}
    return words


@cache
def seat_order(first: int, n: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Table indices in engine order from ``first``, and each table index's engine seat."""
    order = tuple((first + k) % n for k in range(n))
    engine_of = [0] * n
    for k, table_index in enumerate(order):
        engine_of[table_index] = k
    return order, tuple(engine_of)


def fraction(value: int | Fraction) -> Fraction:
    """``Fraction(value)``, shared for whole amounts (they repeat; a Fraction is immutable)."""
    if type(value) is not int:
        return Fraction(value)
    found = _FRACTIONS.get(value)
    if found is None:
        if len(_FRACTIONS) > 4096:
            _FRACTIONS.clear()
        found = _FRACTIONS[value] = Fraction(value)
    return found


def quick_lines(names: tuple[str, ...]) -> dict[str, tuple[int, Move]]:
    """``"X: folds"`` and ``"X: checks"`` for each seated player, to (table index, move).

    The seatings repeat from hand to hand, so the dictionaries are kept. A name that the
    line-by-line reader could split differently (one holding ``": "`` or starting like a
    section or a deal) is left out, and its lines take the general path.
    """
    quick = _QUICK.get(names)
    if quick is None:
        quick = {}
        for k, name in enumerate(names):
            if ": " in name or name.startswith(("*** ", "Dealt to ")):
                continue
            quick[f"{name}: folds"] = (k, _FOLD)
            quick[f"{name}: checks"] = (k, _CHECK)
        if len(_QUICK) > 4096:
            _QUICK.clear()
        _QUICK[names] = quick
    return quick


def read_card(text: str, source: str, line: int) -> int:
    """One card, read as :func:`checkraise.cards.parse_card` does; errors name file and line."""
    card = CARD_OF.get(text)
    if card is None:
        try:
            card = parse_card(text)
        except ValueError as exc:
            raise HandHistoryError(str(exc), source, line) from None
    return card


def read_cards(text: str, source: str, line: int) -> list[int]:
    """The cards of a space-separated group such as ``"Ah Kd 2c"``."""
    cards = [CARD_OF.get(t, -1) for t in text.split()]
    if -1 in cards:  # not all in the canonical form: read (or reject) one by one
        return [read_card(t, source, line) for t in text.split()]
    return cards


_PLAIN_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]+)?\Z")


class Amounts:
    """Turns printed amounts into integer chips (cents in real-money games)."""

    __slots__ = ("line", "source", "unit")

    def __init__(self, unit: int, source: str) -> None:
        self.unit = unit
        self.source = source
        self.line = 0

    def chips(self, text: str) -> int:
        if self.unit == 1 and text.isascii() and text.isdigit():
            # int() alone would also take "-5", "+5" and " 5"; only plain digits are whole chips.
            return int(text)
        value = self.exact(text)
        if value.denominator != 1 or value < 0:
            raise HandHistoryError(f"impossible amount {text!r}: expected whole chips", self.source,
                                   self.line)
        return int(value)

    def exact(self, text: str) -> Fraction:
        if self.unit == 1:
            # Pot and rake amounts repeat; the same text always reads the same.
            found = _EXACT_CHIPS.get(text)
            if found is None:
                found = fraction(self.number(text))
                if len(_EXACT_CHIPS) < 4096:
                    _EXACT_CHIPS[text] = found
            return found
        return fraction(self.number(text))

    def number(self, text: str) -> int | Fraction:
        """The amount in chips: an int when whole (cheap), else an exact fraction."""
        clean = text.lstrip("$€£").replace(",", "")
        if _PLAIN_NUMBER.match(clean) is None:
            # Fraction() and int() would also take signs, spaces, exponents and underscores.
            raise HandHistoryError(f"impossible amount {text!r}: expected a number", self.source,
                                   self.line)
        if self.unit == 1:
            if clean.endswith(".0"):
                clean = clean[:-2]
            if clean.isdigit():
                return int(clean)
        try:
            value = Fraction(clean) * self.unit
        except (ValueError, ZeroDivisionError):
            raise HandHistoryError(f"impossible amount {text!r}: expected a number", self.source,
                                   self.line) from None
        return value.numerator if value.denominator == 1 else value
