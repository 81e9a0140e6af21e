"""Pots, side pots, showdown and payout of a finished hand.

A separate pot exists for every distinct total a seat put in; a seat takes part
in each pot up to its own total, folded or not, but only seats still in can win
(the rule of the reference ACPC dealer, ``valueOfState`` in its ``game.c``). The
part of the largest total that nobody else matched is the uncalled bet and is
returned.

``casino`` splits a tied pot into equal ints; the odd chips go to the first
winner left of the button, and consecutive pots contested by the same seats are
merged first (as PokerKit does), so they share one odd-chip decision.
``acpc`` splits every layer in exact fractions, as the dealer reports them.

Hands are ranked only when a showdown happens, and only for the seats still in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, NamedTuple

from checkraise.errors import ConfigError

if TYPE_CHECKING:
    from checkraise.engine.state import State

__all__ = ["Pot", "Result", "pots", "settle"]


def _load_rank_fn() -> Callable[[Sequence[int]], int]:
    # Plain Python, not the evaluator: a showdown ranks a few hands, and the evaluator
    # loads numba and builds its tables (half a second) before the first one, longer
    # than replaying thousands of hands takes ('checkraise hands import').
    from checkraise.engine._rank import rank_key

    return rank_key


_rank_fn: list[Callable[[Sequence[int]], int]] = []


class Pot(NamedTuple):
    """A main or side pot: its chips and the seats still in that may win it."""

    amount: int
    eligible: tuple[int, ...]


class Result(NamedTuple):
    """Payout of a finished hand."""

    payoffs: tuple[int | Fraction, ...]
    winnings: tuple[int | Fraction, ...]
    uncalled: tuple[int, int] | None


def _uncalled(tot: Sequence[int]) -> tuple[int, int] | None:
    # The largest total and the runner-up (equal to it when two seats share the top).
    second, top = sorted(tot)[-2:]
    return (tot.index(top), top - second) if top > second else None


def pots(tot: Sequence[int], live: Sequence[bool], order: Sequence[int]) -> list[Pot]:
    """Main and side pots from totals put in, without the uncalled bet.

    ``order`` lists the seats from the first left of the button; eligible seats are
    listed in that order. Consecutive pots with the same eligible seats are merged.

    Examples
    --------
    >>> pots([100, 300, 300], [True, True, True], [0, 1, 2])
    [Pot(amount=300, eligible=(0, 1, 2)), Pot(amount=400, eligible=(1, 2))]
    >>> pots([100, 500, 50], [True, True, False], [0, 1, 2])
    [Pot(amount=250, eligible=(0, 1))]
    """
    unc = _uncalled(tot)
    capped = list(tot)
    if unc is not None:
        capped[unc[0]] -= unc[1]
    out: list[Pot] = []
    prev = 0
    for level in sorted(set(capped)):
        if level == 0:
            continue
        amount = sum(min(t, level) - min(t, prev) for t in capped)
        eligible = tuple(i for i in order if live[i] and capped[i] >= level)
        if out and out[-1].eligible == eligible:
            amount += out.pop().amount
        out.append(Pot(amount, eligible))
        prev = level
    return out


def settle(state: State, ranks: Sequence[int] | None = None) -> Result:
    """Payout of the finished hand in ``state`` (see the module docstring).

    ``ranks`` (one per seat; higher wins, only live seats' count) replaces the ranking
    of the cards: the payout the same betting would get with other hands or another
    board, which all-in adjustment (:mod:`checkraise.arena.allin`) averages over.
    """
    n = state._n
    tot = [a + c for a, c in zip(state._ante, state._contrib, strict=True)]
    live = [not f for f in state._folded]
    if ranks is not None and len(ranks) != n:
        raise ConfigError(f"ranks has {len(ranks)} entries; expected one rank per seat ({n})")
    if state._nlive == n and n == 2 and tot[0] == tot[1]:
        return _heads_up_showdown(state, tot, ranks)
    unc = _uncalled(tot)
    win: list[int | Fraction] = [0] * n
    if state._nlive == 1:
        w = live.index(True)
        win[w] = sum(tot) - (unc[1] if unc is not None and unc[0] == w else 0)
    else:
        cfg = state._cfg
        rank = [-1] * n
        if ranks is not None:
            rank = [int(r) if live[i] else -1 for i, r in enumerate(ranks)]
        else:
            h = cfg.hole_cards
            cards = state._cards
            board = cards[n * h:n * h + state._nboard]
            if not _rank_fn:
                _rank_fn.append(_load_rank_fn())
            rank_cards = _rank_fn[0]
            for i in range(n):
                if live[i]:
                    rank[i] = rank_cards(cards[i * h:(i + 1) * h] + board)
        first = (cfg.button + 1) % n
        order = [(first + j) % n for j in range(n)]
        if state._acpc:
            _split_layers(tot, rank, unc, win)
        else:
            for pot in pots(tot, live, order):
                best = max(rank[i] for i in pot.eligible)
                winners = [i for i in pot.eligible if rank[i] == best]
                share, odd = divmod(pot.amount, len(winners))
                for i in winners:
                    win[i] += share
                win[winners[0]] += odd
    pay: list[int | Fraction] = [w - t for w, t in zip(win, tot, strict=True)]
    if unc is not None:
        pay[unc[0]] += unc[1]
    return Result(tuple(pay), tuple(win), unc)


def _heads_up_showdown(state: State, tot: list[int], ranks: Sequence[int] | None) -> Result:
    # The common case of a two-seat showdown with equal stakes: one pot, no side pots.
    if ranks is not None:
        r0, r1 = int(ranks[0]), int(ranks[1])
    else:
        if not _rank_fn:
            _rank_fn.append(_load_rank_fn())
        rank_cards = _rank_fn[0]
        h = state._cfg.hole_cards
        cards = state._cards
        board = cards[2 * h:2 * h + state._nboard]
        r0 = rank_cards(cards[:h] + board)
        r1 = rank_cards(cards[h:2 * h] + board)
    t = tot[0]
    if r0 != r1:
        return Result((t, -t), (2 * t, 0), None) if r0 > r1 else Result((-t, t), (0, 2 * t), None)
    return Result((0, 0), (t, t), None)


def _split_layers(
    tot: list[int], rank: list[int], unc: tuple[int, int] | None, win: list[int | Fraction]
) -> None:
    capped = list(tot)
    if unc is not None:
        capped[unc[0]] -= unc[1]
    prev = 0
    for level in sorted(set(capped)):
        if level == 0:
            continue
        amount = sum(min(t, level) - min(t, prev) for t in capped)
        contenders = [i for i, t in enumerate(capped) if t >= level and rank[i] >= 0]
        best = max(rank[i] for i in contenders)
        winners = [i for i in contenders if rank[i] == best]
        share = Fraction(amount, len(winners))
        value: int | Fraction = share.numerator if share.denominator == 1 else share
        for i in winners:
            win[i] += value
        prev = level
    for i, w in enumerate(win):
        if isinstance(w, Fraction) and w.denominator == 1:
            win[i] = w.numerator
