"""Per-table setup and the deal: what every hand at a table starts from, and its cards.

:func:`table_setup` posts antes and blinds once per :class:`TableConfig` (the
result is cached on the config object); :func:`deal_cards` lays out the cards of
one hand in dealing order, from a given deck, given cards, or a seeded shuffle.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from checkraise.cards import CardError
from checkraise.engine.config import Betting, RuleSet, TableConfig

__all__ = ["DECK", "check_cards", "deal_cards", "table_setup"]

DECK = list(range(52))


def table_setup(cfg: TableConfig) -> tuple[Any, ...]:
    """What every hand at ``cfg`` starts from, computed once per config and kept on it."""
    n = cfg.num_players
    stack = list(cfg.stacks)
    ante = [0] * n
    contrib = [0] * n
    for i in range(n):
        a = min(cfg.ante, stack[i])
        ante[i] = a
        stack[i] -= a
        b = min(cfg.blinds[i], stack[i])
        contrib[i] = b
        stack[i] -= b
    mx = max(contrib)
    active = sum(1 << i for i in range(n) if stack[i] > 0)
    pending = active
    if cfg.rules is RuleSet.CASINO:
        # A seat whose blind already covers every other live seat's whole stack
        # has nothing left to decide (PokerKit's "effective stack" rule).
        second = sorted(contrib[i] + stack[i] for i in range(n))[-2]
        for i in range(n):
            if pending >> i & 1 and min(stack[i], second - contrib[i]) <= 0:
                pending &= ~(1 << i)
        if pending.bit_count() == 1 and contrib[pending.bit_length() - 1] >= mx:
            pending = 0
    setup = (n, cfg.betting is Betting.NOLIMIT, cfg.rules is RuleSet.ACPC, cfg.big_blind,
             stack, contrib, ante, mx, active, list(cfg.first_player), pending,
             n * cfg.hole_cards + sum(cfg.board_cards))
    # TableConfig is frozen; the cache lives outside its fields (no effect on ==, repr, JSON).
    cfg.__dict__["_engine_setup"] = setup
    return setup


def deal_cards(
    cfg: TableConfig,
    seed: int | None,
    deck: Sequence[int] | None,
    hole_cards: Sequence[Sequence[int] | None] | None,
    board: Sequence[int] | None,
    rng: random.Random | None,
) -> list[int]:
    n, h = cfg.num_players, cfg.hole_cards
    need = n * h + sum(cfg.board_cards)
    if deck is not None:
        if hole_cards is not None or board is not None:
            raise CardError("give either deck or hole_cards/board, not both")
        cards = [int(c) for c in deck[:need]]
        if len(cards) < need:
            raise CardError(f"deck has {len(deck)} cards, the hand needs {need}")
        check_cards(cards)
        return cards
    if rng is None:
        rng = random.Random(seed)
    if hole_cards is None and board is None:
        return rng.sample(range(52), need)
    slots: list[int] = [-1] * need
    if hole_cards is not None:
        if len(hole_cards) != n:
            raise CardError(f"hole_cards must list {n} seats, got {len(hole_cards)}")
        for i, hc in enumerate(hole_cards):
            if hc is None or len(hc) == 0:
                continue
            if len(hc) != h:
                raise CardError(f"seat {i} must have {h} hole cards, got {list(hc)!r}")
            slots[i * h:(i + 1) * h] = [int(c) for c in hc]
    if board is not None:
        nb = sum(cfg.board_cards)
        if len(board) > nb:
            raise CardError(f"board has {len(board)} cards, at most {nb} expected")
        slots[n * h:n * h + len(board)] = [int(c) for c in board]
    known = [c for c in slots if c >= 0]
    check_cards(known)
    used = set(known)
    missing = [i for i, c in enumerate(slots) if c < 0]
    fill = rng.sample([c for c in range(52) if c not in used], len(missing))
    for i, c in zip(missing, fill, strict=True):
        slots[i] = c
    return slots


def check_cards(cards: Sequence[int]) -> None:
    if cards and not (min(cards) >= 0 and max(cards) < 52):
        for c in cards:  # name the first bad card, in order
            if not 0 <= c < 52:
                raise CardError(f"invalid card {c!r}: expected an int 0..51")
    if len(set(cards)) != len(cards):
        raise CardError(f"a card is given twice in {list(cards)!r}")
