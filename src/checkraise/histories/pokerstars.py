"""PokerStars text hand histories: reader and writer (hold'em, cash games).

The format is the one the PokerStars client writes and that tracking software
(PokerTracker, Hold'em Manager) imports; there is no published specification, so
the grammar here follows the histories themselves. A hand is a block of lines::

    PokerStars Hand #30000: Hold'em No Limit (50/100) - 2019/07/11 08:20:00 ET
    Table 'Pluribus Session 30' 6-max (Play Money) Seat #6 is the button
    Seat 1: MrWhite (10000 in chips)
    ...
    MrWhite: posts small blind 50
    *** HOLE CARDS ***
    Dealt to MrWhite [3c 9s]
    Bill: raises 125 to 225          <- raise BY 125, TO 225 on this street
    Uncalled bet (125) returned to Bill
    Bill collected 250.0 from pot
    *** SUMMARY ***
    Total pot 250 | Rake 0

Quirks accepted (``../shared/data/README.md``): collected amounts printed as floats,
possibly with half chips (odd chips split evenly); ``and is all-in`` suffixes;
``Uncalled bet (N) returned to P``; a ``Seat #N is the button`` line that is not
trusted (the small blind poster fixes the positions, the button is the seat before
him); cards shown only in the summary (``showed [..] and lost``); ``*** SHOWDOWN ***`` as well
as PokerStars' own ``*** SHOW DOWN ***``. Anything else that
is not understood raises :class:`HandHistoryError` naming the file and line.

Examples
--------
>>> hands = parse_text(EXAMPLE)
>>> hands[0].seats[0].name, hands[0].actions[-1].move.value, hands[0].seats[2].collected
('A', 'fold', Fraction(5, 1))
>>> parse_text(format_hand(hands[0]))[0] == hands[0]
True
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from fractions import Fraction
from itertools import chain, compress, repeat
from pathlib import Path
from typing import Final

from checkraise.cards import format_card
from checkraise.histories._pokerstars_lex import (
    CARD_OF,
    GAMES,
    HOLE_OF,
    SEAT_LINES,
    TABLES,
    Amounts,
    action_words,
    fraction,
    new_tuple,
    quick_lines,
    read_cards,
    seat_order,
)
from checkraise.histories.pokerstars_writer import format_hand, format_hands
from checkraise.histories.record import (
    ZERO,
    HandAction,
    HandHistoryError,
    HandRecord,
    Move,
    PlayerSeat,
)

__all__ = ["EXAMPLE", "format_hand", "format_hands", "iter_hands", "parse_file", "parse_text"]

EXAMPLE: Final = """\
PokerStars Hand #1: Hold'em No Limit (1/2) - 2024/01/01 12:00:00 ET
Table 'Doc' 3-max Seat #3 is the button
Seat 1: A (200 in chips)
Seat 2: B (200 in chips)
Seat 3: C (200 in chips)
A: posts small blind 1
B: posts big blind 2
*** HOLE CARDS ***
C: raises 4 to 6
A: folds
B: folds
Uncalled bet (4) returned to C
C collected 5 from pot
*** SUMMARY ***
Total pot 5 | Rake 0
"""

_HEADER = re.compile(
    r"PokerStars (?:Hand|Game) #(\d+): +(.*?) ?\(([^/()]+)/([^/() ]+)(?: [A-Z]{3})?\) - (.*)$"
)
_TABLE = re.compile(r"Table '(.*)' (\d+)-max(?: \([^)]*\))? Seat #(\d+) is the button$")
_SEAT = re.compile(r"Seat (\d+): (.+) \(([^ ()]+) in chips(?:, [^)]*)?\)( is sitting out)?$")
_COLLECTED = re.compile(r"(.+) collected (\S+) from (?:main |side )?pot(?:-\d+)?$")
_UNCALLED = re.compile(r"Uncalled bet \((\S+)\) returned to (.+)$")
_TOTAL = re.compile(
    r"Total pot (\S+)(?: Main pot \S+\.(?: Side pot(?:-\d+)? \S+\.)*)? \| Rake (\S+)$"
)
_CARDS = re.compile(r"\[([^\]]*)\]")
_RAISE = re.compile(r"raises (\S+) to (\S+)( and is all-in)?$")
_NOISE = re.compile(
    r"(.+?)(?: said, \".*\"| is disconnected| is connected| has timed out.*| has returned"
    r"| leaves the table| joins the table at seat #\d+| will be allowed to play after the button"
    r"|: is sitting out| is sitting out|: sits out)$"
)
_STREET_MARKS: Final = {"*** FLOP ***": 1, "*** TURN ***": 2, "*** RIVER ***": 3}
_BOARD_SIZE: Final = (0, 3, 4, 5)
_FOLD, _CHECK, _CALL, _BET, _RAISE_MOVE = Move.FOLD, Move.CHECK, Move.CALL, Move.BET, Move.RAISE
def parse_file(path: str | Path) -> list[HandRecord]:
    """Read every hand of a PokerStars history file.

    Raises :class:`HandHistoryError` (with file and line) at the first bad hand.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = os.path.join(d, "h.txt")
    ...     _ = open(p, "w").write(EXAMPLE)
    ...     len(parse_file(p))
    1
    """
    path = Path(path)
    text = path.read_text(encoding="utf-8-sig")
    return parse_text(text, source=path.name)


def parse_text(text: str, source: str = "<text>") -> list[HandRecord]:
    """Read every hand of PokerStars history text.

    Examples
    --------
    >>> [h.hand_id for h in parse_text(EXAMPLE + "\\n\\n" + EXAMPLE.replace("#1:", "#2:"))]
    ['1', '2']
    """
    return list(iter_hands(text, source))


def iter_hands(text: str, source: str = "<text>") -> Iterator[HandRecord]:
    """Yield the hands of PokerStars history text one by one.

    Examples
    --------
    >>> next(iter_hands(EXAMPLE)).big_blind
    2
    """
    lines = text.lstrip("\ufeff").splitlines()
    # The header lines, found by C-level iteration (a comprehension costs twice as much).
    starts = list(compress(range(len(lines)), map(str.startswith, lines, repeat("PokerStars "))))
    first = starts[0] if starts else len(lines)
    for i in range(first):
        if lines[i].strip():
            raise HandHistoryError(f"unexpected line {lines[i]!r} before the first hand header",
                                   source, i + 1)
    starts.append(len(lines))
    for k in range(len(starts) - 1):
        yield _parse_hand(lines, starts[k], starts[k + 1], source)


def _parse_hand(lines: list[str], start: int, stop: int, source: str) -> HandRecord:
    def fail(message: str, at: int) -> HandHistoryError:
        return HandHistoryError(message, source, at + 1)

    while stop > start and not lines[stop - 1].strip():
        stop -= 1
    head = _HEADER.match(lines[start])
    if head is None:
        raise fail(f"unreadable hand header {lines[start]!r}", start)
    hand_id, game, sb_text, bb_text, started = head.groups()
    # Game and stakes repeat from hand to hand: each distinct one is checked once.
    game_key = (game, sb_text, bb_text)
    known_game = GAMES.get(game_key)
    if known_game is None:
        if "Tournament" in game or "Hold'em" not in game:
            raise fail(f"unsupported game {game!r}: expected a Hold'em cash game", start)
        betting = "limit" if "Hold'em Limit" in game else "nolimit"
        if betting == "nolimit" and "No Limit" not in game:
            raise fail(f"unsupported game {game!r}: expected No Limit or Limit Hold'em", start)
        stakes = sb_text + bb_text
        money = "." in stakes or "$" in stakes or "€" in stakes or "£" in stakes
        currency = next((ch for ch in sb_text if ch in "$€£"), "") if money else ""
        amounts = Amounts(100 if money else 1, source)
        amounts.line = start + 1
        stake_low, stake_high = amounts.chips(sb_text), amounts.chips(bb_text)
        if len(GAMES) > 4096:
            GAMES.clear()
        GAMES[game_key] = (betting, currency, amounts.unit, stake_low, stake_high)
    else:
        betting, currency, unit, stake_low, stake_high = known_game
        amounts = Amounts(unit, source)
    if start + 1 >= stop:
        raise fail("truncated hand: no table line", start)
    table_line = TABLES.get(lines[start + 1])
    if table_line is None:
        table_m = _TABLE.match(lines[start + 1])
        if table_m is None:
            raise fail(f"unreadable table line {lines[start + 1]!r}", start + 1)
        if len(TABLES) > 4096:
            TABLES.clear()
        table_line = TABLES[lines[start + 1]] = (table_m.group(1), table_m.group(2))
    table, max_seats_text = table_line

    names: list[str] = []
    seat_numbers: list[int] = []
    stacks: list[int] = []
    index: dict[str, int] = {}
    blinds: list[int] = []
    antes: list[int] = []
    holes: list[tuple[int, ...]] = []
    showed: list[bool] = []
    uncalled: list[int] = []
    actions: list[HandAction] = []
    lines_of: list[int] = []
    board: list[int] = []
    street = -1
    street_in: list[int] = []
    high = 0
    small_poster = -1
    big_poster = -1
    total_pot: Fraction | None = None
    rake = ZERO

    i = start + 2
    # Seat lines repeat from hand to hand: each distinct one is read once (per unit).
    known_seats = SEAT_LINES.get(amounts.unit)
    if known_seats is None or len(known_seats) > 65536:
        known_seats = SEAT_LINES[amounts.unit] = {}
    while i < stop and lines[i].startswith("Seat "):
        text = lines[i]
        seat_line = known_seats.get(text)
        if seat_line is None:
            amounts.line = i + 1
            colon = text.find(": ")
            paren = text.rfind(" (")
            if (text.endswith(" in chips)") and colon > 5 and text[5:colon].isdigit()
                    and paren > colon):
                # The common form, read without the regular expression.
                number, name, stack = text[5:colon], text[colon + 2 : paren], text[paren + 2 : -10]
            else:
                m = _SEAT.match(text)
                if m is None:
                    raise fail(f"unreadable seat line {text!r}", i)
                if m.group(4) is not None:
                    i += 1
                    continue  # sitting out: not dealt in
                number, name, stack = m.group(1), m.group(2), m.group(3)
            if name in index:
                raise fail(f"player {name!r} seated twice", i)
            seat_line = known_seats[text] = (int(number), name, amounts.chips(stack))
        name = seat_line[1]
        if name in index:
            raise fail(f"player {name!r} seated twice", i)
        index[name] = len(names)
        names.append(name)
        seat_numbers.append(seat_line[0])
        stacks.append(seat_line[2])
        i += 1
    n = len(names)
    if not 2 <= n <= 10:
        raise fail(f"{n} players dealt in: expected 2 to 10", i)
    blinds = [0] * n
    antes = [0] * n
    holes = [()] * n
    showed = [False] * n
    collected: list[int | Fraction] = [0] * n
    uncalled = [0] * n
    street_in = [0] * n

    def player(name: str, at: int) -> int:
        seat = index.get(name)
        if seat is None:
            raise fail(f"unknown player {name!r} (not seated in this hand)", at)
        return seat

    summary_at = stop
    fractional = False
    order: tuple[int, ...] = ()
    engine_of: tuple[int, ...] = ()
    fold_, check_, call_, bet_, raise_ = _FOLD, _CHECK, _CALL, _BET, _RAISE_MOVE
    quick = quick_lines(tuple(names))
    words = action_words(amounts.unit)
    new_action = new_tuple
    body = i
    for i in range(body, stop):
        text = lines[i]
        hit = quick.get(text)
        if hit is not None and street >= 0:
            # The commonest lines, "X: folds" and "X: checks", in one dictionary lookup.
            seat = hit[0]
            actions.append(new_action(HandAction, (engine_of[seat], street, hit[1], 0,
                                                   street_in[seat], False)))
            lines_of.append(i + 1)
            continue
        if text.startswith("Dealt to "):
            pair = HOLE_OF.get(text[-8:])
            if pair is not None:
                seat = index.get(text[9:-8], -1)
                if seat < 0:
                    seat = player(text[9:-8], i)
                holes[seat] = pair
                continue
            first_card = CARD_OF.get(text[-6:-4])
            second_card = CARD_OF.get(text[-3:-1])
            if text[-8:-6] == " [" and first_card is not None and second_card is not None:
                seat = player(text[9:-8], i)
                holes[seat] = (first_card, second_card)
            else:
                bracket = text.rfind(" [")
                seat = player(text[9:bracket], i)
                holes[seat] = tuple(read_cards(text[bracket + 2 : -1], source, i + 1))
                if len(holes[seat]) != 2:
                    raise fail(f"expected two hole cards in {text!r}", i)
            continue
        amounts.line = i + 1
        if text.startswith("*** "):
            if text == "*** HOLE CARDS ***":
                street = 0
                street_in = blinds.copy()
                high = max(blinds)
                # The small-blind poster is engine seat 0; without one, the seat before the BB.
                if big_poster < 0:
                    raise fail("no big blind posted before the hole cards", i)
                first = small_poster if small_poster >= 0 else (big_poster - 1) % n
                order, engine_of = seat_order(first, n)
            elif text == "*** SUMMARY ***":
                summary_at = i
                break
            elif text == "*** SHOW DOWN ***" or text == "*** SHOWDOWN ***":
                pass  # PokerStars writes the former, the Pluribus converter the latter
            else:
                mark = _STREET_MARKS.get(text.partition(" [")[0])
                if mark is None or street < 0:
                    raise fail(f"unknown section {text!r}", i)
                dealt = read_cards(" ".join(_CARDS.findall(text)), source, i + 1)
                if len(dealt) != _BOARD_SIZE[mark] or dealt[: len(board)] != board:
                    raise fail(f"bad board in {text!r}: expected the earlier cards plus "
                               f"{_BOARD_SIZE[mark] - len(board)} new", i)
                board = dealt
                street = mark
                street_in = [0] * n
                high = 0
            continue
        colon = text.find(": ")
        seat = -1
        while colon >= 0:
            seat = index.get(text[:colon], -1)
            if seat >= 0:
                break
            colon = text.find(": ", colon + 1)
        if colon < 0:
            m = _COLLECTED.match(text) if " collected " in text else None
            if m is not None:
                seat = player(m.group(1), i)
                value = amounts.number(m.group(2))
                if type(value) is not int:
                    fractional = True  # odd chips split in halves: the ACPC rule of splitting
                collected[seat] += value
            elif (m := _UNCALLED.match(text)) is not None:
                seat = player(m.group(2), i)
                uncalled[seat] += amounts.chips(m.group(1))
            elif _NOISE.match(text) is None:
                raise fail(f"unknown line {text!r}", i)
            continue
        rest = text[colon + 2 :]
        verb, _, tail = rest.partition(" ")
        if verb == "posts":
            if street >= 0:
                raise fail(f"post {rest!r} after the hole cards were dealt", i)
            known = words.get(rest)
            if known is None:
                post = tail[:-14] if tail.endswith(" and is all-in") else tail
                if post.startswith("small blind "):
                    known = (0, amounts.chips(post[12:]), False)
                elif post.startswith("big blind "):
                    known = (1, amounts.chips(post[10:]), False)
                elif post.startswith("the ante "):
                    known = (2, amounts.chips(post[9:]), False)
                else:
                    raise fail(f"unknown post {rest!r}", i)
                words[rest] = known
            kind, value, _ = known
            if kind == 0:
                blinds[seat] += value
                small_poster = seat if small_poster < 0 else small_poster
            elif kind == 1:
                blinds[seat] += value
                big_poster = seat if big_poster < 0 else big_poster
            else:
                antes[seat] += value
        elif street < 0:
            if _NOISE.match(text) is None:
                raise fail(f"{verb!r} before the hole cards: expected posts", i)
        elif verb == "folds":
            if tail and not tail.startswith("["):
                raise fail(f"unknown action {rest!r}", i)
            actions.append(new_action(HandAction, (engine_of[seat], street, fold_, 0,
                                                   street_in[seat], False)))
            lines_of.append(i + 1)
        elif verb == "checks":
            if tail:
                raise fail(f"unknown action {rest!r}", i)
            actions.append(new_action(HandAction, (engine_of[seat], street, check_, 0,
                                                   street_in[seat], False)))
            lines_of.append(i + 1)
        elif verb == "calls" or verb == "bets":
            known = words.get(rest)
            if known is None:
                all_in = tail.endswith(" and is all-in")
                known = words[rest] = (amounts.chips(tail[:-14] if all_in else tail), 0, all_in)
            amount, _, all_in = known
            if amount <= 0 or street < 0:
                raise fail(f"impossible {verb[:-1]} in {text!r}", i)
            street_in[seat] += amount
            if verb == "bets":
                high = street_in[seat]
                move = bet_
            else:
                move = call_
            actions.append(new_action(HandAction, (engine_of[seat], street, move, amount,
                                                   street_in[seat], all_in)))
            lines_of.append(i + 1)
        elif verb == "raises":
            known = words.get(rest)
            if known is None:
                m = _RAISE.match(rest)
                if m is None or street < 0:
                    raise fail(f"unreadable raise {rest!r}: expected 'raises X to Y'", i)
                known = words[rest] = (amounts.chips(m.group(1)), amounts.chips(m.group(2)),
                                       m.group(3) is not None)
            by, to, all_in = known
            if to - by != high or by <= 0:
                raise fail(f"impossible amount in {text!r}: a raise by {by} to {to} over a bet "
                           f"of {high}", i)
            added = to - street_in[seat]
            street_in[seat] = high = to
            actions.append(new_action(HandAction, (engine_of[seat], street, raise_, added, to,
                                                   all_in)))
            lines_of.append(i + 1)
        elif verb == "shows":
            shown = _CARDS.findall(rest)
            cards = read_cards(shown[0], source, i + 1) if shown else []
            if len(cards) == 2:
                if holes[seat] and holes[seat] != tuple(cards):
                    raise fail(f"{names[seat]} shows {shown[0]} but was dealt others", i)
                holes[seat] = tuple(cards)
                showed[seat] = True
        elif verb in ("mucks", "doesn't"):
            pass
        elif _NOISE.match(text) is None:
            raise fail(f"unknown action word {verb!r} in {text!r}", i)
    else:
        raise fail("truncated hand: no *** SUMMARY ***", stop - 1)

    for i in range(summary_at + 1, stop):
        text = lines[i]
        amounts.line = i + 1
        if text.startswith("Seat "):
            cut = text.find(" showed [")
            if cut < 0:
                cut = text.find(" mucked [")
            if cut >= 0:
                colon = text.find(": ")
                seat = player(text[colon + 2 : cut].split(" (")[0], i)
                cards = read_cards(_CARDS.findall(text[cut:])[0], source, i + 1)
                if holes[seat] and holes[seat] != tuple(cards):
                    raise fail(f"{names[seat]} shows {cards} but was dealt others", i)
                holes[seat] = tuple(cards)
                showed[seat] = showed[seat] or text[cut + 1] == "s"
        elif text.startswith("Total pot "):
            m = _TOTAL.match(text)
            if m is None:
                raise fail(f"unreadable pot line {text!r}", i)
            total_pot, rake = amounts.exact(m.group(1)), amounts.exact(m.group(2))
        elif text.startswith("Board ["):
            if read_cards(text[7:-1], source, i + 1) != board:
                raise fail(f"summary board {text[6:]} differs from the board dealt", i)
        elif text.strip():
            raise fail(f"unexpected summary line {text!r}", i)

    if street < 0:
        raise fail("truncated hand: no *** HOLE CARDS ***", stop - 1)
    if big_poster < 0:
        raise fail("no big blind posted", start)
    if total_pot is None:
        raise fail("no 'Total pot' line in the summary", stop - 1)
    dealt_cards = list(chain.from_iterable(holes))
    dealt_cards.extend(board)
    if len(set(dealt_cards)) != len(dealt_cards):
        seen: set[int] = set()
        for card in dealt_cards:
            if card in seen:
                raise fail(f"card {format_card(card)} dealt twice", start)
            seen.add(card)

    if engine_of[big_poster] != 1:
        raise fail(f"big blind posted by {names[big_poster]} out of position", start)
    if betting == "limit":
        # Limit stakes name the small and big bets; the blinds are what was posted.
        small = blinds[small_poster] if small_poster >= 0 else stake_low // 2
        big = blinds[big_poster]
        raise_sizes: tuple[int, ...] = (stake_low, stake_low, stake_high, stake_high)
    else:
        small, big, raise_sizes = stake_low, stake_high, ()
    button = seat_numbers[order[0] if n == 2 else order[-1]]
    ante = max(antes)  # the largest ante posted, or 0 when none was
    if ante == 0 and min(antes) < 0:
        ante = max(a for a in antes if a)
    seats = tuple([
        new_tuple(PlayerSeat, (names[t], seat_numbers[t], stacks[t], blinds[t], antes[t],
                                holes[t], showed[t],
                                ZERO if collected[t] == 0 else fraction(collected[t]),
                                uncalled[t]))
        for t in order
    ])
    return HandRecord(
        site="pokerstars",
        hand_id=hand_id,
        table=table,
        started=started,
        small_blind=small,
        big_blind=big,
        ante=ante,
        max_seats=int(max_seats_text),
        button=button,
        seats=seats,
        actions=tuple(actions),
        board=tuple(board),
        total_pot=total_pot,
        rake=rake,
        betting=betting,
        first_player=(0, 1, 1, 1) if n == 2 else (2 % n, 0, 0, 0),
        raise_sizes=raise_sizes,
        max_raises=(3, 4, 4, 4) if betting == "limit" else (),
        rules="acpc" if fractional else "casino",
        unit=amounts.unit,
        currency=currency,
        source=source,
        line=start + 1,
        action_lines=tuple(lines_of),
    )

