"""Tracker statistics, each defined once: VPIP, PFR, 3-bet %, AF, WTSD, W$SD.

The definitions are those of the tracking programs players know (PokerTracker 4 and
Hold'em Manager 2). Every module that reports them — the arena's decision counts
(:mod:`checkraise.arena.stats`), the hand-history database
(:mod:`checkraise.histories.stats`) and the opponent model's counts
(:mod:`checkraise.opponents.stats`) — reduces a hand to :func:`tally_hand` and turns
summed counts into figures with the functions here, so the same hands give the same
figures everywhere.

VPIP (voluntarily put money in pot)
    Hands in which the player called or raised (or bet) before the flop, over hands
    dealt. Posting a blind is not voluntary, nor is checking in the big blind, nor a
    walk (the big blind when everyone folds to him).
PFR (preflop raise)
    Hands in which the player bet or raised before the flop, over hands dealt.
3-bet %
    The player re-raised when facing exactly one raise before the flop (the blinds are
    not raises), over the hands in which he had that chance: it was his turn preflop
    while exactly one raise had been made (counted once per hand).
AF (aggression factor)
    ``(bets + raises) / calls`` over all actions **after the flop**; undefined
    (``None``) without postflop calls. Checks and folds do not count.
WTSD (went to showdown)
    Hands in which he reached the showdown (two or more players still in when the
    betting ended, he among them), over the hands in which he saw the flop (he was
    still in, all-in included, when at least two players were left after the
    preflop betting).
W$SD (won money at showdown)
    Showdowns at which he collected chips from some pot, over the showdowns he went to.

Examples
--------
>>> hand = [(2, 0, Act.RAISE), (0, 0, Act.FOLD), (1, 0, Act.CALL),
...         (1, 1, Act.CHECK), (2, 1, Act.BET), (1, 1, Act.CALL),
...         (1, 2, Act.CHECK), (2, 2, Act.CHECK), (1, 3, Act.BET), (2, 3, Act.FOLD)]
>>> sb, bb, btn = tally_hand(hand, 3)
>>> (btn.vpip, btn.pfr, btn.postflop_bets, btn.saw_flop, btn.showdown)
(1, 1, 1, 1, 0)
>>> c = StatCounts()
>>> c.add_hand(bb)
>>> c.vpip, c.pfr, c.aggression_factor, c.wtsd
(1.0, 0.0, 1.0, 0.0)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, Final, NamedTuple

__all__ = [
    "Act",
    "SeatTally",
    "StatCounts",
    "aggression_factor",
    "rate",
    "tally_hand",
]


class Act(StrEnum):
    """A voluntary action as a tracker counts it (a bet opens a street, a raise follows one).

    The values are the words of hand histories, so a history's own move enum with the
    same words compares equal.
    """

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"


class SeatTally(NamedTuple):
    """One seat's counts in one hand, each 0 or 1 except the postflop action counts."""

    vpip: int
    pfr: int
    three_bet_chance: int
    three_bet: int
    saw_flop: int
    showdown: int
    won_at_showdown: int
    postflop_bets: int
    postflop_raises: int
    postflop_calls: int


# Building a named tuple through tuple.__new__ skips its Python-level __new__: the hand
# import tallies every seat of every hand.
_new_tally: Final = tuple.__new__


def tally_hand(
    actions: Iterable[tuple[int, int, str]] | Iterable[tuple[Any, ...]],
    num_seats: int,
    won: Sequence[bool] | None = None,
) -> list[SeatTally]:
    """Each seat's :class:`SeatTally` for one hand from its voluntary actions in order.

    Parameters
    ----------
    actions
        ``(seat, street, act)`` for every voluntary action of the hand (blind and ante
        posts excluded), street 0 preflop .. 3 river, ``act`` an :class:`Act` (or a
        string equal to one). Longer tuples are read by their first three fields, so
        a hand history's action records can be passed as they are.
    num_seats
        Seats dealt in (seats ``0 .. num_seats - 1``).
    won
        Whether each seat collected chips from some pot (needed only for W$SD; without
        it ``won_at_showdown`` is 0).

    Examples
    --------
    >>> [t.vpip for t in tally_hand([(0, 0, "call"), (1, 0, "check")], 2)]   # a limp
    [1, 0]
    >>> tally_hand([(0, 0, "fold")], 2)[1].vpip    # a walk
    0
    """
    n = num_seats
    vpip = [0] * n
    pfr = [0] * n
    chance = [0] * n
    three = [0] * n
    folded_at = [4] * n
    bets = [0] * n
    raises = [0] * n
    calls = [0] * n
    preflop_raises = 0
    for action in actions:
        act = action[2]
        if act == "check":
            continue
        seat = action[0]
        street = action[1]
        aggressive = act == "raise" or act == "bet"
        if act == "fold":
            folded_at[seat] = street
        if street == 0:
            if preflop_raises == 1 and not chance[seat]:
                chance[seat] = 1
                three[seat] = 1 if aggressive else 0
            if aggressive:
                vpip[seat] = pfr[seat] = 1
                preflop_raises += 1
            elif act == "call":
                vpip[seat] = 1
        elif act == "bet":
            bets[seat] += 1
        elif act == "raise":
            raises[seat] += 1
        elif act == "call":
            calls[seat] += 1
    flop_seen = n - folded_at.count(0) >= 2
    showdown_hand = folded_at.count(4) >= 2
    out = []
    for s in range(n):
        showdown = 1 if showdown_hand and folded_at[s] == 4 else 0
        out.append(_new_tally(SeatTally, (
            vpip[s], pfr[s], chance[s], three[s],
            1 if flop_seen and folded_at[s] > 0 else 0, showdown,
            1 if showdown and won is not None and won[s] else 0,
            bets[s], raises[s], calls[s],
        )))
    return out


def rate(num: float, den: float) -> float | None:
    """``num / den``, or ``None`` when the denominator is zero (the figure is undefined).

    Examples
    --------
    >>> rate(1, 4), rate(0, 0)
    (0.25, None)
    """
    return num / den if den else None


def aggression_factor(bets_and_raises: float, calls: float) -> float | None:
    """AF ``= (bets + raises) / calls`` after the flop; ``None`` without calls.

    Examples
    --------
    >>> aggression_factor(3, 2), aggression_factor(5, 0)
    (1.5, None)
    """
    return rate(bets_and_raises, calls)


@dataclass
class StatCounts:
    """Counts summed over hands, and the figures (shares 0..1, AF a ratio) they give.

    Each figure is ``None`` when its denominator is zero.
    """

    hands: int = 0
    vpip_hands: int = 0
    pfr_hands: int = 0
    three_bet_chances: int = 0
    three_bets: int = 0
    saw_flop: int = 0
    showdowns: int = 0
    won_showdowns: int = 0
    postflop_aggressive: int = 0
    postflop_calls: int = 0

    def add_hand(self, t: SeatTally) -> None:
        """Count one hand of one seat."""
        self.hands += 1
        self.vpip_hands += t.vpip
        self.pfr_hands += t.pfr
        self.three_bet_chances += t.three_bet_chance
        self.three_bets += t.three_bet
        self.saw_flop += t.saw_flop
        self.showdowns += t.showdown
        self.won_showdowns += t.won_at_showdown
        self.postflop_aggressive += t.postflop_bets + t.postflop_raises
        self.postflop_calls += t.postflop_calls

    def add(self, other: StatCounts) -> None:
        """Add ``other``'s counts to these."""
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    @property
    def vpip(self) -> float | None:
        """Share of hands with money put in voluntarily before the flop."""
        return rate(self.vpip_hands, self.hands)

    @property
    def pfr(self) -> float | None:
        """Share of hands with a preflop bet or raise."""
        return rate(self.pfr_hands, self.hands)

    @property
    def three_bet(self) -> float | None:
        """Share of 3-bet chances taken."""
        return rate(self.three_bets, self.three_bet_chances)

    @property
    def aggression_factor(self) -> float | None:
        """Postflop ``(bets + raises) / calls``."""
        return aggression_factor(self.postflop_aggressive, self.postflop_calls)

    @property
    def wtsd(self) -> float | None:
        """Share of flops seen that went to showdown."""
        return rate(self.showdowns, self.saw_flop)

    @property
    def wsd(self) -> float | None:
        """Share of showdowns at which chips were won."""
        return rate(self.won_showdowns, self.showdowns)
