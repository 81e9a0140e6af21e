"""Players' win rates in a hand database, as won and with the luck of the cards out.

Each hand is replayed through the engine (:func:`checkraise.histories.replay.replay`)
and scored three ways, per player, in milli-big-blinds per hand with a 95% interval
over hands: as won, all-in adjusted (:mod:`checkraise.arena.allin`: a hand whose
betting ended before the river at its expected result over the rest of the board)
and luck adjusted (:mod:`checkraise.arena.luck`: every board card dealt to two or more
players charged the pot times what it changed of each one's equity). Both keep the
expectation of the real result for any players, so on a long record they estimate
the same win rate with a narrower interval; for that they need every player's hole
cards, folded hands included, which the Pluribus logs, ACPC dealer logs and
checkraise's own match logs have and a player's own tracker database does not.

Chips are counted as the engine pays them, before any rake. Hands are independent
samples: each one is a unit, whatever table or stakes it came from (chips are
divided by its big blind).

On the 4,930 Pluribus hands of ``../shared/data/pluribus`` Pluribus makes −115 ± 249
mbb/hand as won, −6 ± 226 all-in adjusted and −14 ± 183 luck adjusted; the
experiment's own figure, over 10,000 hands with AIVAT (a control variate that also
uses Pluribus's strategy), was +48 with a standard error of 25 (Brown & Sandholm,
Science 2019). ``checkraise hands import ../shared/data/pluribus/*.txt --db p.sqlite``
then ``checkraise hands luck --db p.sqlite``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from checkraise.arena.allin import allin_payoffs
from checkraise.arena.luck import luck_payoffs
from checkraise.arena.stats import Estimate, mbb_per_hand
from checkraise.histories.record import HandHistoryError, HandRecord
from checkraise.histories.replay import replay

__all__ = ["LuckLine", "luck_rates"]

#: The three figures of each player, in order.
KINDS = ("won", "allin", "luck")


@dataclass(frozen=True)
class LuckLine:
    """One player's win rates (mbb/hand, 95% interval over his hands)."""

    player: str
    hands: int
    won: Estimate
    allin: Estimate
    luck: Estimate

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON."""
        return {"player": self.player, "hands": self.hands,
                **{f"mbb_per_hand_{kind}": getattr(self, kind).to_json() for kind in KINDS}}


def luck_rates(
    hands: Iterable[HandRecord], player: str | None = None,
    advance: Callable[[int], None] | None = None,
) -> list[LuckLine]:
    """Each player's win rates over ``hands`` (only ``player``'s, if given), most hands first.

    Raises :class:`~checkraise.histories.record.HandHistoryError` naming the first hand
    in which some player's hole cards are unknown. ``advance(1)`` is called per hand.
    """
    per_player: dict[str, dict[str, list[float]]] = {}
    for hand in hands:
        missing = [s.name for s in hand.seats if len(s.hole_cards) != 2]
        if missing:
            raise HandHistoryError(
                f"hand #{hand.hand_id}: the hole cards of {', '.join(missing)} are not "
                "known; the luck adjustment needs every player's cards, folded hands "
                "included (as in the Pluribus logs and ACPC dealer logs)",
                hand.source, hand.line)
        state = replay(hand, check_payout=False)
        real = state.payoffs()
        allin = allin_payoffs(state)
        luck = luck_payoffs(state)
        for i, seat in enumerate(hand.seats):
            if player is not None and seat.name != player:
                continue
            rows = per_player.setdefault(seat.name, {kind: [] for kind in KINDS})
            bb = hand.big_blind
            rows["won"].append(float(real[i]) / bb)
            rows["allin"].append(float(real[i] if allin is None else allin[i]) / bb)
            rows["luck"].append((float(real[i]) if luck is None else luck[i]) / bb)
        if advance is not None:
            advance(1)
    lines = [
        LuckLine(name, len(rows["won"]),
                 *(mbb_per_hand(rows[kind], big_blind=1) for kind in KINDS))
        for name, rows in per_player.items()
    ]
    return sorted(lines, key=lambda line: (-line.hands, line.player))
