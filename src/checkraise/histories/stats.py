"""Player statistics from hand histories, as tracking software reports them.

VPIP, PFR, 3-bet %, AF (postflop), WTSD and W$SD are the tracker statistics of
PokerTracker / Hold'em Manager, defined once in :mod:`checkraise.stats` (each hand is
reduced by :func:`checkraise.stats.tally_hand`); percentages are ``100 *`` its shares.
Besides them:

bb/100
    Net chips won, in big blinds of each hand, per 100 hands.

Positions: ``SB``, ``BB``, then ``UTG``, ``UTG+1``, ... and ``LJ``, ``HJ``,
``CO``, ``BTN`` counting back from the button; heads-up the button posts the small
blind and is labelled ``SB``.

Examples
--------
>>> from checkraise.histories.pokerstars import EXAMPLE, parse_text
>>> [(f.vpip, f.pfr, f.net) for f in seat_stats(parse_text(EXAMPLE)[0])]
[(False, False, -1.0), (False, False, -2.0), (True, True, 3.0)]
>>> position_names(6)
('SB', 'BB', 'UTG', 'HJ', 'CO', 'BTN')
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from checkraise.histories.record import ZERO, HandRecord
from checkraise.stats import StatCounts, tally_hand

__all__ = [
    "SeatStats",
    "StatLine",
    "player_stats",
    "position_names",
    "seat_columns",
    "seat_stats",
    "stat_line",
]

_LATE = ("CO", "HJ", "LJ")


@cache
def position_names(num_players: int) -> tuple[str, ...]:
    """Position label of each engine seat for a ring of ``num_players`` (standard layout).

    Examples
    --------
    >>> position_names(2), position_names(9)[2:5]
    (('SB', 'BB'), ('UTG', 'UTG+1', 'UTG+2'))
    """
    if num_players == 2:
        return ("SB", "BB")
    middle = num_players - 3
    late = min(middle - 1, len(_LATE)) if middle > 1 else 0
    early = middle - late
    names = ["SB", "BB"]
    names += ["UTG" if k == 0 else f"UTG+{k}" for k in range(early)]
    names += list(reversed(_LATE[:late]))
    names.append("BTN")
    return tuple(names)


def _positions(hand: HandRecord) -> tuple[str, ...]:
    n = hand.num_players
    if n == 2 and hand.seats[1].blind < hand.seats[0].blind:
        return ("BB", "SB")
    return position_names(n)


class SeatStats(NamedTuple):
    """What one seat did in one hand, reduced to the counts the statistics need."""

    position: str
    vpip: bool
    pfr: bool
    three_bet_chance: bool
    three_bet: bool
    saw_flop: bool
    showdown: bool
    won_at_showdown: bool
    postflop_bets: int
    postflop_raises: int
    postflop_calls: int
    invested: int
    net: float


# net, position, seven 0/1 flags, three postflop counts, net_bb
_Columns = tuple[float, str, int, int, int, int, int, int, int, int, int, int, float]


def seat_stats(hand: HandRecord) -> list[SeatStats]:
    """Per-seat statistic counts of one hand, in engine seat order.

    Examples
    --------
    >>> from checkraise.histories.pokerstars import EXAMPLE, parse_text
    >>> seat_stats(parse_text(EXAMPLE)[0])[2].position
    'BTN'
    """
    columns, invested = _seat_counts(hand)
    return [
        SeatStats(position, vpip == 1, pfr == 1, chance == 1, three == 1, flop == 1, sd == 1,
                  won == 1, bets, raises, calls, chips, net)
        for (net, position, vpip, pfr, chance, three, flop, sd, won, bets, raises, calls, _),
        chips in zip(columns, invested, strict=True)
    ]


def seat_columns(hand: HandRecord) -> list[_Columns]:
    """Each seat's counts as the hand database stores them, flags as ``0``/``1``.

    Per seat: ``(net, position, vpip, pfr, three_bet_chance, three_bet, saw_flop, showdown,
    won_at_showdown, postflop_bets, postflop_raises, postflop_calls, net_bb)``, the
    ``seats`` columns from ``net`` on, in order. Plain ints rather than bools, because
    ``sqlite3`` binds an exact ``int`` several times faster.

    Examples
    --------
    >>> from checkraise.histories.pokerstars import EXAMPLE, parse_text
    >>> seat_columns(parse_text(EXAMPLE)[0])[2]
    (3.0, 'BTN', 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1.5)
    """
    return _seat_counts(hand)[0]


def _seat_counts(hand: HandRecord) -> tuple[list[_Columns], list[int]]:
    """:func:`seat_columns` and the chips each seat put in."""
    seats = hand.seats
    n = len(seats)
    invested = [s.blind + s.ante for s in seats]
    for seat, _, _, amount, _, _ in hand.actions:
        invested[seat] += amount
    # Most seats collect nothing and hold the reader's shared ZERO: an identity test spares
    # Fraction's numerator and denominator properties (Python-level) for them.
    won = [s.collected is not ZERO and s.collected.numerator > 0 for s in seats]
    tallies = tally_hand(hand.actions, n, won)  # reads (seat, street, move) of each
    positions = _positions(hand)
    big = hand.big_blind or 1
    out: list[_Columns] = []
    for seat, s in enumerate(seats):
        collected = s.collected
        net = ((0.0 if collected is ZERO else collected.numerator / collected.denominator)
               + s.uncalled - invested[seat])
        # A SeatTally's fields are the columns from vpip to postflop_calls, in order.
        out.append((net, positions[seat], *tallies[seat], net / big))
    return out, invested


@dataclass(frozen=True, slots=True)
class StatLine:
    """Statistics of one player (optionally in one position); percentages 0..100.

    A figure is ``None`` when its denominator is zero.
    """

    player: str
    position: str
    hands: int
    vpip: float | None
    pfr: float | None
    three_bet: float | None
    aggression: float | None
    wtsd: float | None
    wsd: float | None
    bb_per_100: float | None
    net: float

    def as_dict(self) -> dict[str, object]:
        """Plain dict for JSON output."""
        return {k: getattr(self, k) for k in self.__slots__}


def _pct(share: float | None) -> float | None:
    return None if share is None else 100.0 * share


def stat_line(
    player: str,
    position: str,
    hands: int,
    vpip: int,
    pfr: int,
    three_bet_chances: int,
    three_bets: int,
    aggressive: int,
    calls: int,
    saw_flop: int,
    showdowns: int,
    won_showdowns: int,
    net_bb: float,
    net: float,
) -> StatLine:
    """Turn the counts of :class:`SeatStats` summed over hands into a :class:`StatLine`.

    Examples
    --------
    >>> stat_line("A", "all", 4, 2, 1, 2, 1, 3, 2, 2, 1, 1, 10.0, 1000.0).three_bet
    50.0
    """
    c = StatCounts(
        hands=hands, vpip_hands=vpip, pfr_hands=pfr, three_bet_chances=three_bet_chances,
        three_bets=three_bets, saw_flop=saw_flop, showdowns=showdowns,
        won_showdowns=won_showdowns, postflop_aggressive=aggressive, postflop_calls=calls,
    )
    return StatLine(
        player=player,
        position=position,
        hands=hands,
        vpip=_pct(c.vpip),
        pfr=_pct(c.pfr),
        three_bet=_pct(c.three_bet),
        aggression=c.aggression_factor,
        wtsd=_pct(c.wtsd),
        wsd=_pct(c.wsd),
        bb_per_100=100.0 * net_bb / hands if hands else None,
        net=net,
    )


_QUERY = """
SELECT p.name, {position}, COUNT(*), SUM(t.vpip), SUM(t.pfr), SUM(t.three_bet_chance),
       SUM(t.three_bet), SUM(t.postflop_bets + t.postflop_raises), SUM(t.postflop_calls),
       SUM(t.saw_flop), SUM(t.showdown), SUM(t.won_at_showdown), SUM(t.net_bb), SUM(t.net)
FROM seats t
JOIN players p ON p.id = t.player_id
{where}
GROUP BY p.name{group}
ORDER BY COUNT(*) DESC, p.name{order}
"""


def player_stats(
    db: sqlite3.Connection,
    *,
    player: str | None = None,
    positions: tuple[str, ...] = (),
    by_position: bool = False,
) -> list[StatLine]:
    """Statistics per player from a hand database (see the module docstring).

    Parameters
    ----------
    db
        An open hand database (:func:`checkraise.histories.database.open_database`).
    player
        Only this player.
    positions
        Only hands played from these positions (``"BTN"``, ``"SB"`` ...).
    by_position
        One line per player and position instead of one per player.

    Examples
    --------
    >>> from checkraise.histories.database import insert_hands, open_database
    >>> from checkraise.histories.pokerstars import EXAMPLE, parse_text
    >>> db = open_database(":memory:")
    >>> _ = insert_hands(db, parse_text(EXAMPLE))
    >>> line = player_stats(db, player="C")[0]
    >>> line.hands, line.vpip, line.bb_per_100
    (1, 100.0, 150.0)
    """
    clauses = []
    params: list[object] = []
    if player is not None:
        clauses.append("p.name = ?")
        params.append(player)
    if positions:
        clauses.append(f"t.position IN ({','.join('?' * len(positions))})")
        params.extend(positions)
    sql = _QUERY.format(
        position="t.position" if by_position else "'all'",
        where=("WHERE " + " AND ".join(clauses)) if clauses else "",
        group=", t.position" if by_position else "",
        order=", t.position" if by_position else "",
    )
    return [stat_line(*row) for row in db.execute(sql, params)]
