"""ACPC game definition files (``*.game``): parse, validate, format, convert.

The format is the one read by the reference dealer of the Annual Computer Poker
Competition (``readGame`` in ``project_acpc_server/game.c``, University of Alberta
CPRG, 2011), also read by OpenSpiel's ``universal_poker``::

    GAMEDEF
    nolimit
    numPlayers = 2
    numRounds = 4
    stack = 20000 20000
    blind = 100 50
    firstPlayer = 2 1 1 1
    numSuits = 4
    numRanks = 13
    numHoleCards = 2
    numBoardCards = 0 3 1 1
    END GAMEDEF

Keys are case-insensitive, ``#`` starts a comment, ``=`` is optional. This parser
is stricter than the reference one: an unknown key, a repeated key, a value that is
not an integer or a wrong number of values is an error that names the line, where
the reference dealer silently ignores or defaults.

Examples
--------
>>> g = parse_gamedef(LEDUC_2P_TEXT)  # Leduc hold'em
>>> g.num_players, g.first_player, g.deck_size
(2, (0, 0), 6)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final, Literal

from checkraise.protocol.errors import GameDefError

if TYPE_CHECKING:
    from checkraise.engine import TableConfig

__all__ = [
    "MAX_BOARD_CARDS",
    "MAX_HOLE_CARDS",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "GameDef",
    "load_gamedef",
    "parse_gamedef",
]

# Limits of the reference implementation (game.h); a file beyond them is not an ACPC game.
MAX_PLAYERS: Final = 10
MAX_ROUNDS: Final = 4
MAX_HOLE_CARDS: Final = 3
MAX_BOARD_CARDS: Final = 7
MAX_RANKS: Final = 13
MAX_SUITS: Final = 4

BettingType = Literal["limit", "nolimit"]

# key (lower case) -> (field, how many values: "players", "rounds" or 1)
_KEYS: Final[dict[str, tuple[str, str | int]]] = {
    "numplayers": ("num_players", 1),
    "numrounds": ("num_rounds", 1),
    "stack": ("stacks", "players"),
    "blind": ("blinds", "players"),
    "raisesize": ("raise_sizes", "rounds"),
    "firstplayer": ("first_player", "rounds"),
    "maxraises": ("max_raises", "rounds"),
    "numsuits": ("num_suits", 1),
    "numranks": ("num_ranks", 1),
    "numholecards": ("num_hole_cards", 1),
    "numboardcards": ("num_board_cards", "rounds"),
}
_KEY_RE: Final = re.compile(r"^([A-Za-z]+)\s*(.*)$")


@dataclass(frozen=True)
class GameDef:
    """One ACPC game: betting type, seats, blinds, stacks, rounds and the deck.

    Seats are 0-based here (``first_player`` included, although files write it
    1-based); seat ``i`` is position ``i`` of a hand, as in MATCHSTATE lines.
    ``stacks`` is ``None`` when the file gives none (the reference dealer then uses
    an unlimited stack, 2**31 - 1). ``max_raises`` is ``None`` when uncapped.
    """

    betting: BettingType
    num_players: int
    num_rounds: int
    blinds: tuple[int, ...]
    first_player: tuple[int, ...]
    num_suits: int
    num_ranks: int
    num_hole_cards: int
    num_board_cards: tuple[int, ...]
    stacks: tuple[int, ...] | None = None
    raise_sizes: tuple[int, ...] = ()
    max_raises: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        _validate(self)

    @property
    def is_limit(self) -> bool:
        """True for fixed-limit betting (bare ``r`` actions)."""
        return self.betting == "limit"

    @property
    def big_blind(self) -> int:
        """The largest blind (the minimum raise-by in no-limit)."""
        return max(self.blinds)

    @property
    def deck_size(self) -> int:
        """Number of cards in the deck."""
        return self.num_suits * self.num_ranks

    def stack(self, seat: int) -> int:
        """Stack of ``seat``; 2**31 - 1 when the game has no stacks, as in the reference."""
        return self.stacks[seat] if self.stacks is not None else 2**31 - 1

    def deck(self) -> tuple[int, ...]:
        """The deck in the reference dealer's order: by suit, then rank, top ranks only.

        Examples
        --------
        >>> from checkraise.cards import format_cards
        >>> format_cards(_example().deck())
        'Qh Kh Ah Qs Ks As'
        """
        return tuple(
            4 * rank + suit
            for suit in range(MAX_SUITS - self.num_suits, MAX_SUITS)
            for rank in range(MAX_RANKS - self.num_ranks, MAX_RANKS)
        )

    def format(self) -> str:
        """The game as file text; ``parse_gamedef(g.format()) == g``."""
        lines = ["GAMEDEF", self.betting, f"numPlayers = {self.num_players}"]
        lines.append(f"numRounds = {self.num_rounds}")
        if self.stacks is not None:
            lines.append("stack = " + _ints(self.stacks))
        lines.append("blind = " + _ints(self.blinds))
        if self.raise_sizes:
            lines.append("raiseSize = " + _ints(self.raise_sizes))
        lines.append("firstPlayer = " + _ints(p + 1 for p in self.first_player))
        if self.max_raises is not None:
            lines.append("maxRaises = " + _ints(self.max_raises))
        lines.append(f"numSuits = {self.num_suits}")
        lines.append(f"numRanks = {self.num_ranks}")
        lines.append(f"numHoleCards = {self.num_hole_cards}")
        lines.append("numBoardCards = " + _ints(self.num_board_cards))
        lines.append("END GAMEDEF")
        return "\n".join(lines) + "\n"

    def to_table_config(self) -> TableConfig:
        """The engine's table for this game, with ACPC rules (fractional odd-chip splits).

        Raises :class:`GameDefError` for games the hold'em engine cannot play
        (a deck other than 52 cards, other than two hole cards, ...).
        """
        from checkraise.engine import Betting, RuleSet, TableConfig

        if self.num_suits != MAX_SUITS or self.num_ranks != MAX_RANKS:
            raise GameDefError(
                f"the engine plays only the 52-card deck; this game has {self.num_suits} "
                f"suits x {self.num_ranks} ranks"
            )
        if self.num_hole_cards != 2 or sum(self.num_board_cards) > 5:
            raise GameDefError(
                f"the engine plays hold'em (2 hole cards, at most 5 board cards); this game has "
                f"{self.num_hole_cards} hole cards and board {list(self.num_board_cards)}"
            )
        stacks = tuple(self.stack(s) for s in range(self.num_players))
        try:
            return TableConfig(
                num_players=self.num_players,
                stacks=stacks,
                blinds=self.blinds,
                first_player=self.first_player,
                betting=Betting.LIMIT if self.is_limit else Betting.NOLIMIT,
                rules=RuleSet.ACPC,
                raise_sizes=self.raise_sizes if self.is_limit else (),
                max_raises=self.max_raises or (),
                num_rounds=self.num_rounds,
                board_cards=self.num_board_cards,
                hole_cards=self.num_hole_cards,
            )
        except GameDefError:
            raise
        except ValueError as exc:
            raise GameDefError(f"the engine cannot play this game: {exc}") from exc


def _ints(values: object) -> str:
    return " ".join(str(v) for v in values)  # type: ignore[attr-defined]


class _InvalidFieldError(GameDefError):
    """A value that breaks a rule; ``key`` is the file key, to find its line."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"invalid game definition: {message}")
        self.key = key


def _validate(g: GameDef) -> None:
    def bad(key: str, msg: str) -> _InvalidFieldError:
        return _InvalidFieldError(key, msg)

    if g.betting not in ("limit", "nolimit"):
        raise bad("", f"betting must be 'limit' or 'nolimit', got {g.betting!r}")
    if not 2 <= g.num_players <= MAX_PLAYERS:
        raise bad("numPlayers", f"numPlayers must be 2..{MAX_PLAYERS}, got {g.num_players}")
    if not 1 <= g.num_rounds <= MAX_ROUNDS:
        raise bad("numRounds", f"numRounds must be 1..{MAX_ROUNDS}, got {g.num_rounds}")
    per_seat = {"blind": g.blinds, "stack": g.stacks}
    for name, values in per_seat.items():
        if values is not None and len(values) != g.num_players:
            n = g.num_players
            raise bad(name, f"{name} needs {n} values (numPlayers), got {len(values)}")
    per_round = {
        "firstPlayer": g.first_player,
        "numBoardCards": g.num_board_cards,
        "maxRaises": g.max_raises,
        "raiseSize": g.raise_sizes if g.is_limit or g.raise_sizes else None,
    }
    for name, values in per_round.items():
        if values is not None and len(values) != g.num_rounds:
            n = g.num_rounds
            raise bad(name, f"{name} needs {n} values (numRounds), got {len(values)}")
    if any(b < 0 for b in g.blinds):
        raise bad("blind", f"blind values must be >= 0, got {list(g.blinds)}")
    if g.stacks is not None:
        for seat, (stack, blind) in enumerate(zip(g.stacks, g.blinds, strict=True)):
            if stack < 1 or blind > stack:
                msg = f"stack of seat {seat} is {stack}, must be >= 1 and >= its blind {blind}"
                raise bad("stack", msg)
    if any(r < 1 for r in g.raise_sizes):
        raise bad("raiseSize", f"raiseSize values must be >= 1, got {list(g.raise_sizes)}")
    if g.max_raises is not None and any(not 0 <= m <= 255 for m in g.max_raises):
        raise bad("maxRaises", f"maxRaises values must be 0..255, got {list(g.max_raises)}")
    if any(not 0 <= p < g.num_players for p in g.first_player):
        shown = [p + 1 for p in g.first_player]
        raise bad("firstPlayer", f"firstPlayer values must be 1..{g.num_players}, got {shown}")
    if not 1 <= g.num_suits <= MAX_SUITS:
        raise bad("numSuits", f"numSuits must be 1..{MAX_SUITS}, got {g.num_suits}")
    if not 1 <= g.num_ranks <= MAX_RANKS:
        raise bad("numRanks", f"numRanks must be 1..{MAX_RANKS}, got {g.num_ranks}")
    if not 1 <= g.num_hole_cards <= MAX_HOLE_CARDS:
        msg = f"numHoleCards must be 1..{MAX_HOLE_CARDS}, got {g.num_hole_cards}"
        raise bad("numHoleCards", msg)
    if any(b < 0 for b in g.num_board_cards) or sum(g.num_board_cards) > MAX_BOARD_CARDS:
        msg = f"numBoardCards must be >= 0 and sum to at most {MAX_BOARD_CARDS}"
        raise bad("numBoardCards", f"{msg}, got {list(g.num_board_cards)}")
    needed = g.num_hole_cards * g.num_players + sum(g.num_board_cards)
    if needed > g.deck_size:
        raise bad("numBoardCards", f"{needed} cards are dealt but the deck has {g.deck_size}")


def parse_gamedef(text: str, *, source: str = "<gamedef>") -> GameDef:
    """Parse the text of a game definition; errors name ``source`` and the line.

    Examples
    --------
    >>> _example().max_raises
    (2, 2)
    >>> parse_gamedef("GAMEDEF\\nnumPlayer = 2\\nEND GAMEDEF")
    Traceback (most recent call last):
    ...
    checkraise.protocol.errors.GameDefError: <gamedef>:2: unknown key 'numPlayer' ...
    """
    values: dict[str, tuple[int, ...]] = {}
    seen_line: dict[str, int] = {}
    betting: BettingType | None = None
    started = ended = False
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        where = f"{source}:{lineno}"
        words = line.lower().split()
        if ended:
            raise GameDefError(f"{where}: text after END GAMEDEF: {raw.strip()!r}")
        if words == ["gamedef"]:
            if started:
                raise GameDefError(f"{where}: second GAMEDEF line")
            started = True
            continue
        if not started:
            raise GameDefError(f"{where}: expected GAMEDEF first, got {raw.strip()!r}")
        if words == ["end", "gamedef"]:
            ended = True
            continue
        if words in (["limit"], ["nolimit"]):
            if betting is not None:
                raise GameDefError(f"{where}: betting type given twice ({betting}, {words[0]})")
            betting = "limit" if words[0] == "limit" else "nolimit"
            continue
        match = _KEY_RE.match(line)
        key = match.group(1) if match else line.split()[0]
        spec = _KEYS.get(key.lower())
        if match is None or spec is None:
            raise GameDefError(
                f"{where}: unknown key {key!r} (expected limit, nolimit, END GAMEDEF or one "
                "of numPlayers, numRounds, stack, blind, raiseSize, firstPlayer, maxRaises, "
                "numSuits, numRanks, numHoleCards, numBoardCards)"
            )
        field, count = spec
        if field in values:
            raise GameDefError(f"{where}: {key} given twice (first on line {seen_line[field]})")
        rest = match.group(2).strip()
        rest = rest[1:].strip() if rest.startswith("=") else rest
        items = rest.split()
        if not items or not all(re.fullmatch(r"-?\d+", it) for it in items):
            raise GameDefError(f"{where}: {key} needs integer values, got {rest!r}")
        if count == 1 and len(items) != 1:
            raise GameDefError(f"{where}: {key} takes one value, got {rest!r}")
        values[field] = tuple(int(it) for it in items)
        seen_line[field] = lineno
    if not started or not ended:
        missing = "GAMEDEF" if not started else "END GAMEDEF"
        raise GameDefError(f"{source}: no {missing} line")
    for field in _FILE_KEYS:
        if field not in values:
            raise GameDefError(f"{source}: missing key {_FILE_KEYS[field]}")
    # The reference dealer defaults to limit betting when the file says neither.
    kind: BettingType = betting or "limit"
    if kind == "limit" and "raise_sizes" not in values:
        raise GameDefError(f"{source}: limit game without raiseSize")
    num_rounds = values["num_rounds"][0]
    try:
        return GameDef(
            betting=kind,
            num_players=values["num_players"][0],
            num_rounds=num_rounds,
            blinds=values["blinds"],
            first_player=tuple(p - 1 for p in values.get("first_player", (1,) * num_rounds)),
            num_suits=values["num_suits"][0],
            num_ranks=values["num_ranks"][0],
            num_hole_cards=values["num_hole_cards"][0],
            num_board_cards=values["num_board_cards"],
            stacks=values.get("stacks"),
            raise_sizes=values.get("raise_sizes", ()),
            max_raises=values.get("max_raises"),
        )
    except _InvalidFieldError as exc:
        field = _KEYS[exc.key.lower()][0] if exc.key.lower() in _KEYS else ""
        line = f":{seen_line[field]}" if field in seen_line else ""
        raise GameDefError(f"{source}{line}: {exc}") from None


def load_gamedef(path: str | Path) -> GameDef:
    """Read and parse a ``.game`` file; errors name the file and line."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise GameDefError(f"cannot read game file {str(p)!r}: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise GameDefError(f"game file {str(p)!r} is not text: {exc}") from exc
    return parse_gamedef(text, source=str(p))


_FILE_KEYS: Final = {
    field: name
    for name, field in (
        ("numPlayers", "num_players"),
        ("numRounds", "num_rounds"),
        ("blind", "blinds"),
        ("numSuits", "num_suits"),
        ("numRanks", "num_ranks"),
        ("numHoleCards", "num_hole_cards"),
        ("numBoardCards", "num_board_cards"),
    )
}


LEDUC_2P_TEXT: Final = """GAMEDEF
limit
numPlayers = 2
numRounds = 2
blind = 1 1
raiseSize = 2 4
firstPlayer = 1 1
maxRaises = 2 2
numSuits = 2
numRanks = 3
numHoleCards = 1
numBoardCards = 0 1
END GAMEDEF
"""


def _example() -> GameDef:
    return parse_gamedef(LEDUC_2P_TEXT, source="leduc.game")
