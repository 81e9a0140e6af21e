"""Cards dealt exactly as the ACPC reference dealer deals them from a seed.

The reference dealer (``dealer.c`` / ``game.c`` of ``project_acpc_server``,
University of Alberta CPRG, 2011) seeds a Mersenne Twister (MT19937, Matsumoto
and Nishimura 1998) with ``init_genrand(seed)`` once per match and, for every hand,
draws ``genrand_int32() % n`` from the remaining ``n`` cards of the deck (the drawn
card's slot is refilled by the last card). Every hand deals all hole cards, seat by
seat, then the whole board, whether or not the hand reaches it. Doing the same
gives the same cards as the reference dealer for the same seed and game, which
makes its logs a test oracle for our dealer.

Python's :class:`random.Random` is the same generator; only its seeding differs
(``init_by_array``), so the state is built with ``init_genrand`` here and handed
to it.

Examples
--------
>>> from checkraise.cards import format_cards
>>> deck = ReferenceDeck(7)
>>> holes, board = deck.deal(num_players=2, num_hole_cards=2, num_board_cards=(0, 3, 1, 1))
>>> format_cards(holes[0] + holes[1]), format_cards(board)
('8d Jd Td 4d', 'As 9d 6s 3d 6c')
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from checkraise.errors import ConfigError

__all__ = ["ReferenceDeck", "init_genrand_state"]

_N = 624


def init_genrand_state(seed: int) -> tuple[int, ...]:
    """MT19937 state words after ``init_genrand(seed)`` (seed taken modulo 2**32)."""
    mt = [seed & 0xFFFFFFFF]
    for i in range(1, _N):
        prev = mt[-1]
        mt.append((1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFFFFFF)
    return tuple(mt)


class ReferenceDeck:
    """The reference dealer's card source for one match: ``deal`` once per hand, in order."""

    def __init__(self, seed: int) -> None:
        if not 0 <= seed < 2**32:
            raise ConfigError(f"seed must be 0..2**32-1 (the reference reads %u), got {seed!r}")
        self._rng = random.Random()
        # Position 624 makes the first draw regenerate the whole block, as genrand does.
        self._rng.setstate((3, (*init_genrand_state(seed), _N), None))

    def next_uint32(self) -> int:
        """The next ``genrand_int32()`` output."""
        return self._rng.getrandbits(32)

    def deal(
        self,
        num_players: int,
        num_hole_cards: int,
        num_board_cards: Sequence[int],
        deck: Sequence[int] | None = None,
    ) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
        """Deal one hand: (hole cards per seat, the whole board in order).

        ``deck`` is the game's deck in the reference order (default: the 52 cards
        ordered by suit then rank, see :meth:`GameDef.deck`).
        """
        cards = list(deck) if deck is not None else [4 * r + s for s in range(4) for r in range(13)]
        n = len(cards)
        needed = num_players * num_hole_cards + sum(num_board_cards)
        if needed > n:
            raise ConfigError(f"cannot deal {needed} cards from a deck of {n}")

        def draw() -> int:
            nonlocal n
            i = self.next_uint32() % n
            card = cards[i]
            cards[i] = cards[n - 1]
            n -= 1
            return card

        holes = tuple(tuple(draw() for _ in range(num_hole_cards)) for _ in range(num_players))
        board = tuple(draw() for _ in range(sum(num_board_cards)))
        return holes, board
