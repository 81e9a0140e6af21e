"""PokerStars text out: the writer paired with :mod:`checkraise.histories.pokerstars`.

Writes the format the PokerStars client writes (hold'em cash games), so that reading
the text back gives the same :class:`~checkraise.histories.record.HandRecord`:
every known hole card as ``Dealt to``, cards shown at showdown also as ``shows`` and
in the summary, amounts in chips (or currency with two decimals for money games),
odd-chip halves as decimals (as the Pluribus converter prints them).

Examples
--------
>>> from checkraise.histories.pokerstars import EXAMPLE, parse_text
>>> print(format_hand(parse_text(EXAMPLE)[0]).splitlines()[8])
C: raises 4 to 6
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final

from checkraise.cards import format_card
from checkraise.histories.record import HandRecord, Move

__all__ = ["format_hand", "format_hands"]

_BOARD_SIZE: Final = (0, 3, 4, 5)
def _money(hand: HandRecord, chips: int | Fraction) -> str:
    value = Fraction(chips) / hand.unit
    if hand.unit != 1:
        return f"{hand.currency}{float(value):.2f}"
    if value.denominator == 1:
        return str(value.numerator)
    return repr(float(value))


def format_hand(hand: HandRecord) -> str:
    """PokerStars text of one hand (without the blank lines that separate hands).

    Every known hole card is written as ``Dealt to``; cards shown at showdown also
    as ``shows`` and in the summary, so that reading the text back gives the same
    record.

    Examples
    --------
    >>> from checkraise.histories.pokerstars import EXAMPLE, parse_text
    >>> format_hand(parse_text(EXAMPLE)[0]).splitlines()[-1]
    'Total pot 5 | Rake 0'
    """
    m = _money
    if hand.betting == "limit":
        game, low, high_stake = "Hold'em Limit", hand.raise_sizes[0], hand.raise_sizes[2]
    else:
        game, low, high_stake = "Hold'em No Limit", hand.small_blind, hand.big_blind
    out = [
        f"PokerStars Hand #{hand.hand_id}: {game} ({m(hand, low)}/{m(hand, high_stake)}) - "
        f"{hand.started}",
        f"Table '{hand.table}' {hand.max_seats}-max Seat #{hand.button} is the button",
    ]
    seats = hand.seats
    out.extend(
        f"Seat {s.table_seat}: {s.name} ({m(hand, s.stack)} in chips)"
        for s in sorted(seats, key=lambda s: s.table_seat)
    )
    out.extend(f"{s.name}: posts the ante {m(hand, s.ante)}" for s in seats if s.ante)
    reverse = len(seats) == 2 and hand.first_player[:1] == (1,)
    small = 1 if reverse else 0
    if seats[small].blind:
        out.append(f"{seats[small].name}: posts small blind {m(hand, seats[small].blind)}")
    out.extend(
        f"{s.name}: posts big blind {m(hand, s.blind)}"
        for k, s in enumerate(seats)
        if s.blind and k != small
    )
    out.append("*** HOLE CARDS ***")
    out.extend(
        f"Dealt to {s.name} [{' '.join(format_card(c) for c in s.hole_cards)}]"
        for s in seats
        if s.hole_cards
    )
    board = [format_card(c) for c in hand.board]
    street_marks = (
        "",
        f"*** FLOP *** [{' '.join(board[:3])}]",
        f"*** TURN *** [{' '.join(board[:3])}] [{' '.join(board[3:4])}]",
        f"*** RIVER *** [{' '.join(board[:4])}] [{' '.join(board[4:5])}]",
    )
    street = 0
    high = max(s.blind for s in seats)
    returned = [f"Uncalled bet ({m(hand, s.uncalled)}) returned to {s.name}"
                for s in seats if s.uncalled]
    for action in hand.actions:
        while street < action.street:
            street += 1
            out.append(street_marks[street])
            high = 0
        name = seats[action.seat].name
        suffix = " and is all-in" if action.all_in else ""
        if action.move is Move.FOLD:
            out.append(f"{name}: folds")
        elif action.move is Move.CHECK:
            out.append(f"{name}: checks")
        elif action.move is Move.RAISE:
            by = m(hand, action.to - high)
            out.append(f"{name}: raises {by} to {m(hand, action.to)}{suffix}")
            high = action.to
        else:
            out.append(f"{name}: {action.move.value}s {m(hand, action.amount)}{suffix}")
            if action.move is Move.BET:
                high = action.to
    out.extend(returned)
    while street < 3 and len(hand.board) >= _BOARD_SIZE[street + 1]:
        street += 1
        out.append(street_marks[street])
    shown = [s for s in seats if s.showed and s.hole_cards]
    if shown:
        out.append("*** SHOW DOWN ***")
        out.extend(f"{s.name}: shows [{' '.join(format_card(c) for c in s.hole_cards)}]"
                   for s in shown)
    out.extend(f"{s.name} collected {m(hand, s.collected)} from pot" for s in seats if s.collected)
    out.append("*** SUMMARY ***")
    out.append(f"Total pot {m(hand, hand.total_pot)} | Rake {m(hand, hand.rake)}")
    if board:
        out.append(f"Board [{' '.join(board)}]")
    for s in shown:
        cards = " ".join(format_card(c) for c in s.hole_cards)
        result = f"won ({m(hand, s.collected)})" if s.collected else "lost"
        out.append(f"Seat {s.table_seat}: {s.name} showed [{cards}] and {result}")
    return "\n".join(out) + "\n"


def format_hands(hands: list[HandRecord] | tuple[HandRecord, ...]) -> str:
    """PokerStars text of several hands, separated by blank lines as the client writes them.

    Examples
    --------
    >>> from checkraise.histories.pokerstars import EXAMPLE, parse_text
    >>> text = format_hands(parse_text(EXAMPLE) * 2)
    >>> len(parse_text(text))
    2
    """
    return "\n\n".join(format_hand(h) for h in hands) + "\n"
