"""MATCHSTATE, STATE and SCORE lines of the ACPC protocol 2.0.0: pure parse and format.

The grammar follows the reference dealer (``readMatchState`` / ``printMatchState``
in ``project_acpc_server/game.c``, University of Alberta CPRG, 2011)::

    MATCHSTATE:<position>:<hand>:<betting>:<hole0>|<hole1>|...[/<board of round 1>/...]
    STATE:<hand>:<betting>:<all holes and board>:<net per seat>:<name per seat>
    SCORE:<total per player>:<names>

``betting`` is one group of actions per round reached, joined by ``/``; an action
is ``f``, ``c`` or ``r<to>`` (no-limit: the raiser's total for the hand) or a bare
``r`` (limit). Nothing here knows the rules: a parsed state is checked against the
game's shape only (:func:`check_shape`); whether the actions are legal is the
engine's business. ``format(parse(s)) == s`` for every canonical line.

Examples
--------
>>> ms = parse_matchstate("MATCHSTATE:0:30:cc/:9s8h|/8c8d5c")
>>> ms.round, ms.hole_cards, len(ms.actions)
(1, ((31, 26), ()), 2)
>>> format_matchstate(ms)
'MATCHSTATE:0:30:cc/:9s8h|/8c8d5c'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Final

from checkraise.cards import format_card, parse_card
from checkraise.protocol.errors import ProtocolError

if TYPE_CHECKING:
    from checkraise.protocol.gamedef import GameDef

__all__ = [
    "BetAction",
    "MatchState",
    "ScoreLine",
    "StateLine",
    "check_shape",
    "format_action",
    "format_betting",
    "format_matchstate",
    "format_response",
    "format_score_line",
    "format_state_line",
    "format_value",
    "parse_action",
    "parse_betting",
    "parse_matchstate",
    "parse_response",
    "parse_score_line",
    "parse_state_line",
    "parse_value",
]

_ACTION_RE: Final = re.compile(r"f|c|r(?:0|[1-9]\d{0,9})?")
_UINT_RE: Final = re.compile(r"0|[1-9]\d{0,9}")
# The reference dealer reads these letters in responses: k = check, b = bet (2.0.0 readAction).
_RESPONSE_ALIASES: Final = {"k": "c", "b": "r"}


@dataclass(frozen=True)
class BetAction:
    """One betting action: ``kind`` is ``"f"``, ``"c"`` or ``"r"``.

    ``size`` is the raise-to total of a no-limit raise and ``None`` otherwise
    (a limit raise is a bare ``r``).
    """

    kind: str
    size: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("f", "c", "r"):
            raise ProtocolError(f"invalid action kind {self.kind!r}: expected f, c or r")
        if self.size is not None and (self.kind != "r" or self.size < 0):
            raise ProtocolError(f"invalid action {self.kind}{self.size}: only r takes a size >= 0")

    def __str__(self) -> str:
        return self.kind if self.size is None else f"r{self.size}"


@dataclass(frozen=True)
class MatchState:
    """One seat's view of a hand: what the dealer sends in a MATCHSTATE line.

    ``betting[r]`` and ``board[r]`` hold round ``r``'s actions and newly dealt
    board cards, for every round reached (so both have ``round + 1`` entries).
    ``hole_cards[s]`` is empty where seat ``s``'s cards are hidden.
    """

    position: int
    hand_number: int
    betting: tuple[tuple[BetAction, ...], ...]
    hole_cards: tuple[tuple[int, ...], ...]
    board: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        if not self.betting or len(self.betting) != len(self.board):
            raise ProtocolError(
                f"a state needs one betting group and one board group per round reached, got "
                f"{len(self.betting)} betting and {len(self.board)} board groups"
            )
        if not 0 <= self.position < len(self.hole_cards):
            raise ProtocolError(
                f"position {self.position} is not a seat of a {len(self.hole_cards)}-seat hand"
            )

    @property
    def round(self) -> int:
        """Index of the last round reached (0 = first)."""
        return len(self.betting) - 1

    @property
    def actions(self) -> tuple[BetAction, ...]:
        """All actions of the hand in order, rounds flattened."""
        return tuple(a for group in self.betting for a in group)

    @property
    def num_players(self) -> int:
        """Seats in the hand (from the number of hole-card groups)."""
        return len(self.hole_cards)

    @property
    def own_cards(self) -> tuple[int, ...]:
        """The viewing seat's hole cards."""
        return self.hole_cards[self.position]

    @property
    def board_cards(self) -> tuple[int, ...]:
        """All board cards dealt so far, in order."""
        return tuple(c for group in self.board for c in group)


@dataclass(frozen=True)
class StateLine:
    """A ``STATE`` line of a dealer log: a finished hand with every card and each seat's net."""

    hand_number: int
    betting: tuple[tuple[BetAction, ...], ...]
    hole_cards: tuple[tuple[int, ...], ...]
    board: tuple[tuple[int, ...], ...]
    nets: tuple[Fraction, ...]
    names: tuple[str, ...]

    @property
    def actions(self) -> tuple[BetAction, ...]:
        """All actions of the hand in order, rounds flattened."""
        return tuple(a for group in self.betting for a in group)

    def view(self, position: int) -> MatchState:
        """The hand's final state with all cards, as seen from ``position``."""
        return MatchState(position, self.hand_number, self.betting, self.hole_cards, self.board)


@dataclass(frozen=True)
class ScoreLine:
    """The final ``SCORE`` line: total per player, in match-seat order."""

    totals: tuple[Fraction, ...]
    names: tuple[str, ...]


def format_action(action: BetAction) -> str:
    """Text of one action (``f``, ``c``, ``r`` or ``r<to>``)."""
    return str(action)


def parse_action(text: str, *, limit: bool | None = None, lenient: bool = False) -> BetAction:
    """Parse one action; ``limit`` (if given) says whether a raise must be bare.

    ``lenient`` also accepts what the reference dealer accepts in a response:
    upper case, ``k`` for check and ``b`` for a bet.

    Examples
    --------
    >>> parse_action("r250", limit=False)
    BetAction(kind='r', size=250)
    >>> parse_action("K", lenient=True)
    BetAction(kind='c', size=None)
    """
    raw = text
    if lenient and text:
        head = text[0].lower()
        text = _RESPONSE_ALIASES.get(head, head) + text[1:]
    if not _ACTION_RE.fullmatch(text):
        raise ProtocolError(f"invalid action {raw!r}: expected f, c, r (limit) or r<total>")
    size = int(text[1:]) if len(text) > 1 else None
    if limit is True and size is not None:
        raise ProtocolError(f"invalid action {raw!r}: a limit raise is a bare 'r'")
    if limit is False and text[0] == "r" and size is None:
        raise ProtocolError(f"invalid action {raw!r}: a no-limit raise needs its total, r<N>")
    return BetAction(text[0], size)


def parse_betting(text: str) -> tuple[tuple[BetAction, ...], ...]:
    """Split a betting string into per-round action groups.

    Examples
    --------
    >>> [[str(a) for a in g] for g in parse_betting("r300c/cr600f")]
    [['r300', 'c'], ['c', 'r600', 'f']]
    """
    groups: list[tuple[BetAction, ...]] = []
    for part in text.split("/"):
        actions: list[BetAction] = []
        pos = 0
        while pos < len(part):
            m = _ACTION_RE.match(part, pos)
            if m is None:
                raise ProtocolError(
                    f"invalid betting {text!r}: unexpected {part[pos:]!r} (expected f, c, r<N>)"
                )
            token = m.group(0)
            actions.append(BetAction(token[0], int(token[1:]) if len(token) > 1 else None))
            pos = m.end()
        groups.append(tuple(actions))
    return tuple(groups)


def format_betting(betting: tuple[tuple[BetAction, ...], ...]) -> str:
    """Inverse of :func:`parse_betting`."""
    return "/".join("".join(str(a) for a in group) for group in betting)


def _parse_cards(text: str, what: str) -> tuple[int, ...]:
    if len(text) % 2:
        raise ProtocolError(f"invalid {what} {text!r}: expected cards like 'As8d'")
    try:
        cards = tuple(parse_card(text[i : i + 2]) for i in range(0, len(text), 2))
    except ValueError as exc:
        raise ProtocolError(f"invalid {what} {text!r}: {exc}") from None
    return cards


def _parse_cards_field(
    text: str, num_hole_cards: int | None
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    # "h0|h1|...|hN[board0]/board1/board2..." -- the first board group follows the last
    # seat's holes without a separator, so it is split off by the game's hole-card count.
    seats = text.split("|")
    last, *rest = seats[-1].split("/")
    board_groups = [_parse_cards(b, "board cards") for b in rest]
    holes = [_parse_cards(h, "hole cards") for h in seats[:-1]]
    last_cards = _parse_cards(last, "hole cards")
    if num_hole_cards is not None and len(last_cards) > num_hole_cards:
        holes.append(last_cards[:num_hole_cards])
        board_groups.insert(0, last_cards[num_hole_cards:])
    else:
        holes.append(last_cards)
        board_groups.insert(0, ())
    return tuple(holes), tuple(board_groups)


def _format_cards_field(
    hole_cards: tuple[tuple[int, ...], ...], board: tuple[tuple[int, ...], ...]
) -> str:
    holes = "|".join("".join(format_card(c) for c in h) for h in hole_cards)
    return holes + "/".join("".join(format_card(c) for c in group) for group in board)


def _uint(text: str, what: str, line: str) -> int:
    if not _UINT_RE.fullmatch(text):
        raise ProtocolError(f"invalid {what} {text!r} in {line!r}: expected an unsigned integer")
    return int(text)


def parse_matchstate(text: str, *, game: GameDef | None = None) -> MatchState:
    """Parse a MATCHSTATE line (without the line ending).

    With ``game`` the state is also checked against the game's shape
    (:func:`check_shape`) and a first-round board is told apart from the last hole
    cards; without it the first round is assumed to deal no board cards, as in
    every ACPC hold'em game.

    Examples
    --------
    >>> parse_matchstate("MATCHSTATE:1:0:r:|Kd").hole_cards
    ((), (45,))
    >>> parse_matchstate("MATCHSTATE:0:x:c:Ks|")
    Traceback (most recent call last):
    ...
    checkraise.protocol.errors.ProtocolError: invalid hand number 'x' in 'MATCHSTATE:0:x:c:Ks|'...
    """
    fields = text.split(":")
    if len(fields) != 5 or fields[0] != "MATCHSTATE":
        raise ProtocolError(
            f"invalid MATCHSTATE line {text!r}: expected "
            "MATCHSTATE:<position>:<hand>:<betting>:<cards>"
        )
    position = _uint(fields[1], "position", text)
    hand = _uint(fields[2], "hand number", text)
    betting = parse_betting(fields[3])
    holes, board = _parse_cards_field(fields[4], game.num_hole_cards if game else None)
    try:
        state = MatchState(position, hand, betting, holes, board)
    except ProtocolError as exc:
        raise ProtocolError(f"invalid MATCHSTATE line {text!r}: {exc}") from None
    if game is not None:
        check_shape(state, game, text=text)
    return state


def format_matchstate(state: MatchState) -> str:
    """The MATCHSTATE line of ``state`` (no line ending)."""
    return (
        f"MATCHSTATE:{state.position}:{state.hand_number}:{format_betting(state.betting)}:"
        f"{_format_cards_field(state.hole_cards, state.board)}"
    )


def check_shape(state: MatchState, game: GameDef, *, text: str | None = None) -> None:
    """Check seat count, round count, card counts and duplicate cards against ``game``.

    Raises :class:`ProtocolError` naming ``text`` (or the formatted state).
    """
    where = text if text is not None else format_matchstate(state)

    def bad(msg: str) -> ProtocolError:
        return ProtocolError(f"impossible state {where!r}: {msg}")

    if state.num_players != game.num_players:
        raise bad(f"{state.num_players} seats, the game has {game.num_players}")
    if state.round >= game.num_rounds:
        raise bad(f"{state.round + 1} rounds, the game has {game.num_rounds}")
    for seat, cards in enumerate(state.hole_cards):
        if len(cards) not in (0, game.num_hole_cards):
            raise bad(f"seat {seat} has {len(cards)} hole cards, expected {game.num_hole_cards}")
    if not state.own_cards:
        raise bad(f"the viewing seat {state.position} has no hole cards")
    for r, cards in enumerate(state.board):
        if len(cards) != game.num_board_cards[r]:
            raise bad(f"round {r} shows {len(cards)} board cards, expected "
                      f"{game.num_board_cards[r]}")
    seen = [c for h in state.hole_cards for c in h] + list(state.board_cards)
    if len(set(seen)) != len(seen):
        raise bad("a card appears twice")
    deck = set(game.deck())
    if not set(seen) <= deck:
        raise bad("a card that is not in this game's deck")
    limit = game.is_limit
    for a in state.actions:
        if a.kind == "r" and (a.size is None) != limit:
            raise bad(f"action {a} does not fit {game.betting} betting")


def parse_response(text: str, *, limit: bool | None = None) -> tuple[MatchState, BetAction]:
    """Split a client's answer ``<MATCHSTATE>:<action>`` into the state and the action.

    Examples
    --------
    >>> ms, act = parse_response("MATCHSTATE:0:30:cc/:9s8h|/8c8d5c:r250")
    >>> act.size
    250
    """
    head, sep, action = text.rpartition(":")
    if not sep or not head.startswith("MATCHSTATE:"):
        raise ProtocolError(f"invalid response {text!r}: expected <MATCHSTATE line>:<action>")
    return parse_matchstate(head), parse_action(action, limit=limit, lenient=True)


def format_response(state: MatchState | str, action: BetAction) -> str:
    """The answer to ``state``: the state exactly as received, ``:``, the action."""
    head = state if isinstance(state, str) else format_matchstate(state)
    return f"{head}:{action}"


def format_value(value: Fraction | int | float) -> str:
    """A chip value as the reference dealer prints it: ``%.6f`` without trailing zeros.

    Examples
    --------
    >>> format_value(Fraction(13691, 2)), format_value(-50), format_value(Fraction(1, 3))
    ('6845.5', '-50', '0.333333')
    """
    text = f"{float(value):.6f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def parse_value(text: str) -> Fraction:
    """Exact value of a printed chip amount (``"-13691"``, ``"6845.5"``)."""
    if not re.fullmatch(r"-?\d+(?:\.\d+)?", text):
        raise ProtocolError(f"invalid chip value {text!r}: expected a decimal number")
    return Fraction(text)


def parse_state_line(text: str, *, game: GameDef | None = None) -> StateLine:
    """Parse a ``STATE`` line of a dealer log.

    Examples
    --------
    >>> s = parse_state_line("STATE:3:f:3hQh|4h3c:50|-50:Bob|Alice")
    >>> s.nets, s.names
    ((Fraction(50, 1), Fraction(-50, 1)), ('Bob', 'Alice'))
    """
    fields = text.split(":")
    if len(fields) != 6 or fields[0] != "STATE":
        raise ProtocolError(
            f"invalid STATE line {text!r}: expected STATE:<hand>:<betting>:<cards>:<nets>:<names>"
        )
    hand = _uint(fields[1], "hand number", text)
    betting = parse_betting(fields[2])
    holes, board = _parse_cards_field(fields[3], game.num_hole_cards if game else None)
    nets = tuple(parse_value(v) for v in fields[4].split("|"))
    names = tuple(fields[5].split("|"))
    if not (len(nets) == len(names) == len(holes)):
        raise ProtocolError(
            f"invalid STATE line {text!r}: {len(holes)} seats, {len(nets)} nets, "
            f"{len(names)} names"
        )
    if len(betting) != len(board):
        raise ProtocolError(f"invalid STATE line {text!r}: betting and board rounds differ")
    line = StateLine(hand, betting, holes, board, nets, names)
    if game is not None:
        check_shape(line.view(0), game, text=text)
    return line


def format_state_line(line: StateLine) -> str:
    """Inverse of :func:`parse_state_line`."""
    return (
        f"STATE:{line.hand_number}:{format_betting(line.betting)}:"
        f"{_format_cards_field(line.hole_cards, line.board)}:"
        f"{'|'.join(format_value(v) for v in line.nets)}:{'|'.join(line.names)}"
    )


def parse_score_line(text: str) -> ScoreLine:
    """Parse the ``SCORE`` line that ends a dealer log."""
    fields = text.split(":")
    if len(fields) != 3 or fields[0] != "SCORE":
        raise ProtocolError(f"invalid SCORE line {text!r}: expected SCORE:<totals>:<names>")
    totals = tuple(parse_value(v) for v in fields[1].split("|"))
    names = tuple(fields[2].split("|"))
    if len(totals) != len(names):
        counts = f"{len(totals)} totals, {len(names)} names"
        raise ProtocolError(f"invalid SCORE line {text!r}: {counts}")
    return ScoreLine(totals, names)


def format_score_line(line: ScoreLine) -> str:
    """Inverse of :func:`parse_score_line`."""
    return f"SCORE:{'|'.join(format_value(v) for v in line.totals)}:{'|'.join(line.names)}"
