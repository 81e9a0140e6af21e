"""Cards as small integers, card sets as 64-bit masks, and the 1,326 two-card combos.

A card is ``4 * rank + suit`` with rank 0..12 for ``2..A`` and suit 0..3 for
``c d h s``. Its text form is rank then suit (``As``, ``Td``, ``2c``); input is
case-insensitive, output canonical.

Examples
--------
>>> parse_card("As")
51
>>> format_cards(parse_cards("kd 2C"))
'Kd 2c'
>>> combo_index(parse_card("2d"), parse_card("2c"))
0
>>> from checkraise.cards import COMBO_CARDS  # built on first use
>>> COMBO_CARDS[1325].tolist()
[50, 51]
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Final

from checkraise.errors import CheckraiseError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    # Built on first use by the module's ``__getattr__`` (see ``_TABLES`` below).
    COMBO_CARDS: npt.NDArray[np.uint8]
    COMBO_MASKS: npt.NDArray[np.uint64]
    CLASS_NAMES: tuple[str, ...]
    COMBO_CLASS: npt.NDArray[np.int16]

__all__ = [
    "CLASS_NAMES",
    "COMBO_CARDS",
    "COMBO_CLASS",
    "COMBO_MASKS",
    "NUM_CARDS",
    "NUM_COMBOS",
    "RANKS",
    "SUITS",
    "CardError",
    "card_mask",
    "card_rank",
    "card_suit",
    "cards_array",
    "class_combos",
    "combo_index",
    "format_card",
    "format_cards",
    "make_card",
    "mask_cards",
    "parse_card",
    "parse_cards",
]

RANKS: Final = "23456789TJQKA"
SUITS: Final = "cdhs"
NUM_CARDS: Final = 52
NUM_COMBOS: Final = 1326


class CardError(CheckraiseError):
    """A card, card list or combo that is not valid (names the value and what was expected)."""


_RANK_OF_CHAR: Final = {ch: i for i, ch in enumerate(RANKS)}
_SUIT_OF_CHAR: Final = {ch: i for i, ch in enumerate(SUITS)}


def make_card(rank: int, suit: int) -> int:
    """Return the card with ``rank`` (0..12) and ``suit`` (0..3)."""
    if not 0 <= rank < 13 or not 0 <= suit < 4:
        raise CardError(f"rank must be 0..12 and suit 0..3, got rank={rank!r} suit={suit!r}")
    return 4 * rank + suit


def card_rank(card: int) -> int:
    """Rank 0..12 (``2..A``) of ``card``."""
    return card >> 2


def card_suit(card: int) -> int:
    """Suit 0..3 (``c d h s``) of ``card``."""
    return card & 3


def parse_card(text: str) -> int:
    """Parse one card such as ``"As"`` or ``"td"``; raise :class:`CardError` naming it otherwise."""
    if not isinstance(text, str) or len(text) != 2:
        raise CardError(f"invalid card {text!r}: expected rank 23456789TJQKA and suit cdhs")
    rank = _RANK_OF_CHAR.get(text[0].upper())
    suit = _SUIT_OF_CHAR.get(text[1].lower())
    if rank is None or suit is None:
        raise CardError(f"invalid card {text!r}: expected rank 23456789TJQKA and suit cdhs")
    return 4 * rank + suit


def parse_cards(cards: str | Iterable[str | int], *, unique: bool = True) -> list[int]:
    """Parse ``"AsKd"``, ``"As Kd"``, ``"As,Kd"``, ``["As", "Kd"]`` or ints into card ints.

    Raises :class:`CardError` for an unknown card or, when ``unique``, a card given twice.
    """
    items: list[str | int]
    if isinstance(cards, str):
        compact = "".join(ch for ch in cards if not ch.isspace() and ch != ",")
        if len(compact) % 2:
            raise CardError(f"invalid cards {cards!r}: expected pairs like 'AsKd'")
        items = [compact[i : i + 2] for i in range(0, len(compact), 2)]
    else:
        items = list(cards)
    out: list[int] = []
    for item in items:
        if (isinstance(item, int) and not isinstance(item, bool)) or _is_numpy_int(item):
            if not 0 <= int(item) < NUM_CARDS:
                raise CardError(f"invalid card {item!r}: expected an int 0..51")
            card = int(item)
        else:
            card = parse_card(str(item))
        if unique and card in out:
            shown = cards if isinstance(cards, str) else format_cards([*out, card])
            raise CardError(f"card {format_card(card)} given twice in {shown!r}")
        out.append(card)
    return out


def _is_numpy_int(item: object) -> bool:
    # A numpy integer can only exist once numpy is imported: asking sys.modules spares
    # importing numpy (a tenth of a second) in programs that never use it.
    numpy = sys.modules.get("numpy")
    return numpy is not None and isinstance(item, numpy.integer)


def format_card(card: int) -> str:
    """Canonical text of one card, e.g. ``"Td"``."""
    if not 0 <= card < NUM_CARDS:
        raise CardError(f"invalid card {card!r}: expected an int 0..51")
    return RANKS[card >> 2] + SUITS[card & 3]


def format_cards(cards: Iterable[int], sep: str = " ") -> str:
    """Canonical text of several cards joined by ``sep``."""
    return sep.join(format_card(int(c)) for c in cards)


def card_mask(cards: Iterable[int]) -> int:
    """64-bit mask with bit ``c`` set for each card ``c``."""
    mask = 0
    for c in cards:
        mask |= 1 << int(c)
    return mask


def mask_cards(mask: int) -> list[int]:
    """Cards whose bits are set in ``mask``, ascending."""
    return [c for c in range(NUM_CARDS) if mask >> c & 1]


def _build_combos() -> npt.NDArray[np.uint8]:
    import numpy as np

    # Stable order: by the higher card, then the lower card (index = hi*(hi-1)/2 + lo).
    combos = np.zeros((NUM_COMBOS, 2), dtype=np.uint8)
    i = 0
    for hi in range(NUM_CARDS):
        for lo in range(hi):
            combos[i] = (lo, hi)
            i += 1
    combos.setflags(write=False)
    return combos


def _build_masks(combos: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint64]:
    import numpy as np

    masks = np.array([(1 << int(a)) | (1 << int(b)) for a, b in combos], dtype=np.uint64)
    masks.setflags(write=False)
    return masks


def combo_index(a: int, b: int) -> int:
    """Index 0..1325 of the two-card combo ``{a, b}`` (order-free)."""
    if a == b or not (0 <= a < NUM_CARDS and 0 <= b < NUM_CARDS):
        raise CardError(f"invalid combo ({a!r}, {b!r}): expected two different cards 0..51")
    hi, lo = (a, b) if a > b else (b, a)
    return hi * (hi - 1) // 2 + lo


def _class_name(a: int, b: int) -> str:
    ra, rb = a >> 2, b >> 2
    if ra < rb:
        ra, rb = rb, ra
    if ra == rb:
        return RANKS[ra] * 2
    return RANKS[ra] + RANKS[rb] + ("s" if (a & 3) == (b & 3) else "o")


def _build_classes(
    combos: npt.NDArray[np.uint8],
) -> tuple[tuple[str, ...], npt.NDArray[np.int16]]:
    import numpy as np

    # 169 classes ordered pairs AA..22, then suited, then offsuit, each by high then low rank.
    pairs = [RANKS[r] * 2 for r in range(12, -1, -1)]
    suited = [RANKS[h] + RANKS[lo] + "s" for h in range(12, -1, -1) for lo in range(h - 1, -1, -1)]
    offsuit = [RANKS[h] + RANKS[lo] + "o" for h in range(12, -1, -1) for lo in range(h - 1, -1, -1)]
    names = tuple(pairs + suited + offsuit)
    index = {name: i for i, name in enumerate(names)}
    cls = np.array([index[_class_name(int(a), int(b))] for a, b in combos], dtype=np.int16)
    cls.setflags(write=False)
    return names, cls


# The combo tables, built (with numpy) on first use (PEP 562 ``__getattr__``): parsing and
# printing cards, the engine and the hand-history import never pay for numpy.
#   COMBO_CARDS  (1326, 2) uint8: the two cards of each combo, lower card first.
#   COMBO_MASKS  (1326,) uint64: the card mask of each combo.
#   CLASS_NAMES  the 169 preflop classes (AA, AKs, AKo ...), pairs, suited, offsuit.
#   COMBO_CLASS  (1326,) int16: each combo's class index.
_TABLES: Final = ("COMBO_CARDS", "COMBO_MASKS", "CLASS_NAMES", "COMBO_CLASS")


def _build_tables() -> None:
    combos = _build_combos()
    names, classes = _build_classes(combos)
    # Bound as module globals: later look-ups no longer reach __getattr__.
    globals().update(COMBO_CARDS=combos, COMBO_MASKS=_build_masks(combos),
                     CLASS_NAMES=names, COMBO_CLASS=classes)


def __getattr__(name: str) -> object:
    if name in _TABLES:
        _build_tables()
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _table(name: str) -> Any:
    # Inside this module a table is a global name, which __getattr__ does not serve.
    return globals()[name] if name in globals() else __getattr__(name)


def __dir__() -> list[str]:
    return sorted({*globals(), *_TABLES})


def class_combos(name: str) -> list[int]:
    """Combo indices of the preflop class ``name`` (``"AA"``, ``"AKs"``, ``"T9o"``)."""
    key = name[:2].upper() + name[2:].lower()
    ordered = len(key) >= 2 and key[0] in RANKS and key[1] in RANKS
    if ordered and _RANK_OF_CHAR[key[0]] < _RANK_OF_CHAR[key[1]]:
        key = key[1] + key[0] + key[2:]
    names, classes = _table("CLASS_NAMES"), _table("COMBO_CLASS")
    try:
        cls = names.index(key)
    except ValueError:
        raise CardError(
            f"invalid preflop class {name!r}: expected e.g. 'AA', 'AKs', 'AKo'"
        ) from None
    import numpy as np

    return [int(i) for i in np.flatnonzero(cls == classes)]


def cards_array(cards: Sequence[int]) -> npt.NDArray[np.uint8]:
    """Cards as a ``uint8`` array."""
    import numpy as np

    return np.asarray(cards, dtype=np.uint8)
