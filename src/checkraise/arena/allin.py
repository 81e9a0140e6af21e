"""All-in adjustment: a hand's result without the luck of the board cards still to come.

When the betting of a hand ends before the river with two or more seats still in (all
of them but one, or all, all-in), nobody has a decision left and the rest of the board alone
decides the pot. The *all-in adjusted* result replaces what the board did by what it
does on average: each seat's payoff expected over every way the board can be
completed from the cards nobody was dealt (hands of folded seats are out of the
deck too). Given everything the players saw and did, those completions are equally
likely, because no decision depended on cards not yet dealt; so the adjusted result
has the same expectation as the real one, for any agents, while the variance of the
runouts is gone. That variance dominates matches with many big all-ins before the
river (poker trackers report the same "all-in EV" win rate).

The payout of each outcome (an order of the hands, who beats whom and who ties) is
the engine's own settlement of the same betting (:func:`checkraise.engine.showdown.settle`
with the ranks given), so side pots, dead money, uncalled bets, odd chips and ACPC's
exact splits are those of the real game; the counts of the outcomes come from exact
enumeration of the completions (``showdown_orders`` in :mod:`checkraise.equity._kernels`,
40 to 50 ms before the flop), and the expectation is an exact fraction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType

import numpy as np

from checkraise.engine import State
from checkraise.engine.actions import ActionEvent, DealEvent
from checkraise.engine.showdown import settle
from checkraise.errors import ConfigError

__all__ = ["allin_payoffs", "board_at_last_action", "folded_cards", "order_counts", "order_ranks"]

_DENSE_SEATS = 7
"""Up to this many hands in, the orders are counted in an array of k**k (6.6 MB at 7)."""


def board_at_last_action(state: State) -> int:
    """How many board cards were out when the last seat acted (all blinds all-in: 0)."""
    seen = 0
    board = 0
    for event in state.history:
        if isinstance(event, DealEvent):
            board += len(event.cards)
        elif isinstance(event, ActionEvent):
            seen = board
    return seen


def allin_payoffs(state: State) -> tuple[int | Fraction, ...] | None:
    """Each seat's payoff expected over the board cards dealt after the last decision.

    ``None`` when there is nothing to average: a fold ended the hand or the board was
    complete at the last decision (then the real payoffs stand). Exact: ``int`` or
    :class:`~fractions.Fraction`, summing to zero.

    Examples
    --------
    Aces against kings all-in before the flop for 1,000 chips each (the aces win
    1,388,072 of the 1,712,304 boards and tie 6,538):

    >>> from checkraise.cards import parse_cards
    >>> from checkraise.engine import TableConfig
    >>> s = State(TableConfig.nolimit(2, 1000, 50, 100), hole_cards=[parse_cards("AhAd"),
    ...           parse_cards("KsKc")], board=parse_cards("2c7dTs3h5s"))
    >>> _ = s.go_all_in(), s.check_call()
    >>> s.payoffs(), [round(float(v), 2) for v in allin_payoffs(s)]
    ((1000, -1000), [625.11, -625.11])
    """
    if not state.is_terminal:
        raise ConfigError("all-in adjustment needs a finished hand; this one is still in play")
    live = [i for i, folded in enumerate(state.folded) if not folded]
    cfg = state.config
    known = board_at_last_action(state)
    if len(live) < 2 or known >= len(state.board) or cfg.hole_cards != 2:
        return None
    holes = state.hole_cards
    orders = order_counts(
        tuple(tuple(holes[i]) for i in live), tuple(state.board[:known]),
        folded_cards(holes, live),
    )
    n = sum(orders.values())
    outcomes = []
    for code, count in orders.items():
        ranks = [-1] * cfg.num_players
        for seat, beaten in zip(live, order_ranks(code, len(live)), strict=True):
            ranks[seat] = beaten
        outcomes.append((count, settle(state, ranks).payoffs))
    out: list[int | Fraction] = []
    for seat in range(cfg.num_players):
        value = Fraction(sum(count * Fraction(pay[seat]) for count, pay in outcomes), n)
        out.append(value.numerator if value.denominator == 1 else value)
    return tuple(out)


def folded_cards(holes: Sequence[Sequence[int]], live: Sequence[int]) -> tuple[int, ...]:
    """The hole cards of every seat not in ``live``, sorted: out of the deck, in no hand."""
    return tuple(sorted(c for i, hole in enumerate(holes) if i not in live for c in hole))


def order_ranks(code: int, k: int) -> tuple[int, ...]:
    """How many of the ``k`` hands each one beats, read from an :func:`order_counts` key."""
    return tuple(code // k**i % k for i in range(k))


@lru_cache(maxsize=4096)
def order_counts(
    holes: tuple[tuple[int, ...], ...], board: tuple[int, ...], dead: tuple[int, ...] = ()
) -> Mapping[int, int]:
    """How many completions of ``board`` give each order of the hands ``holes``.

    Keys are the codes of :func:`checkraise.equity._kernels.showdown_orders` (hand
    ``i`` beats ``code // k**i % k`` of the ``k`` hands); the cards of ``dead`` and of
    every hand are out of the deck. Cached (read-only): the luck adjustment of a hand
    all-in before the flop asks for the same enumeration.
    """
    from checkraise.equity import _kernels

    used = {*board, *dead, *(c for hole in holes for c in hole)}
    deck = np.array([c for c in range(52) if c not in used], dtype=np.int64)
    hands = np.array(holes, dtype=np.int64).reshape(-1, 2)
    known = np.array(board, dtype=np.int64)
    if len(holes) <= _DENSE_SEATS:  # a count per possible code: at most 7**7 of them
        counts = _kernels.showdown_orders(hands, known, deck, True)
        found = np.flatnonzero(counts)
        return MappingProxyType({int(c): int(counts[c]) for c in found})
    codes = _kernels.showdown_orders(hands, known, deck, False)
    found, counts = np.unique(codes, return_counts=True)
    return MappingProxyType({int(c): int(m) for c, m in zip(found, counts, strict=True)})
