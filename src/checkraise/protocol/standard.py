"""The ACPC's standard hold'em games, and which of them a first MATCHSTATE line shows.

The four game files are those of the reference distribution
(``project_acpc_server``, University of Alberta CPRG, 2011) and of the ACPC
events: heads-up with reverse blinds and 3-player, each limit and no-limit.

A client started without a game file sees only MATCHSTATE lines. The first one
tells the number of seats (the ``|``-separated hole-card groups) and the number
of hole cards; the first raise anyone makes tells limit (a bare ``r``) from
no-limit (``r<total>``). Until a raise shows, no-limit is assumed (the common
case). Stacks and blinds never show, so they are assumed to be the standard
game's; :func:`infer_gamedef` refuses a table that no standard game fits, naming
``--game FILE`` as the way out.

Examples
--------
>>> print(infer_gamedef("MATCHSTATE:2:0:r300:||AhKd").describe())
3-player no-limit hold'em (stacks 20000, blinds 50/100)
>>> print(infer_gamedef("MATCHSTATE:1:0:rc/r:|AhKd/2c3d4h").describe())
2-player limit hold'em (blinds 5/10)
>>> print(infer_gamedef("MATCHSTATE:0:0::AhKd||").describe())
3-player no-limit hold'em (stacks 20000, blinds 50/100; no raise seen yet, no-limit assumed)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from checkraise.protocol.errors import ProtocolError
from checkraise.protocol.gamedef import GameDef, parse_gamedef
from checkraise.protocol.matchstate import MatchState, parse_matchstate

__all__ = ["STANDARD_GAMES", "GameInferenceError", "InferredGame", "betting_shown",
           "infer_gamedef"]

_COMMON: Final = """numRounds = 4
numSuits = 4
numRanks = 13
numHoleCards = 2
numBoardCards = 0 3 1 1
END GAMEDEF
"""

STANDARD_GAMES: Final[dict[tuple[int, str], str]] = {
    (2, "nolimit"): "GAMEDEF\nnolimit\nnumPlayers = 2\nstack = 20000 20000\nblind = 100 50\n"
    "firstPlayer = 2 1 1 1\n" + _COMMON,
    (2, "limit"): "GAMEDEF\nlimit\nnumPlayers = 2\nblind = 10 5\nraiseSize = 10 10 20 20\n"
    "firstPlayer = 2 1 1 1\nmaxRaises = 3 4 4 4\n" + _COMMON,
    (3, "nolimit"): "GAMEDEF\nnolimit\nnumPlayers = 3\nstack = 20000 20000 20000\n"
    "blind = 50 100 0\nfirstPlayer = 3 1 1 1\n" + _COMMON,
    (3, "limit"): "GAMEDEF\nlimit\nnumPlayers = 3\nblind = 5 10 0\nraiseSize = 10 10 20 20\n"
    "firstPlayer = 3 1 1 1\nmaxRaises = 3 4 4 4\n" + _COMMON,
}
"""Game file text of the standard ACPC hold'em games by (players, betting)."""


_HINT: Final = "pass --game FILE (the dealer's .game file)"


class GameInferenceError(ProtocolError):
    """The first MATCHSTATE line does not tell which game is played; pass the game file."""


@dataclass(frozen=True)
class InferredGame:
    """A standard game picked from a line; ``certain`` once a raise has shown the betting."""

    game: GameDef
    num_players: int
    betting: str
    certain: bool

    def describe(self) -> str:
        """What was assumed, in words."""
        kind = "no-limit" if self.betting == "nolimit" else "limit"
        stakes = f"blinds {self.game.big_blind // 2}/{self.game.big_blind}"
        if not self.game.is_limit:
            stakes = f"stacks {self.game.stack(0)}, {stakes}"
        if not self.certain:
            stakes += "; no raise seen yet, no-limit assumed"
        return f"{self.num_players}-player {kind} hold'em ({stakes})"


def betting_shown(ms: MatchState, line: str) -> str | None:
    """``"limit"`` or ``"nolimit"`` if a raise in ``ms`` shows which, else ``None``."""
    sized = {a.size is not None for a in ms.actions if a.kind == "r"}
    if len(sized) > 1:
        raise GameInferenceError(
            f"cannot tell the game from {line!r}: it mixes limit and no-limit raises; {_HINT}"
        )
    if not sized:
        return None
    return "nolimit" if sized == {True} else "limit"


def infer_gamedef(line: str) -> InferredGame:
    """The standard game that a MATCHSTATE ``line`` (the first of a match) shows.

    The seats and hole cards must fit a standard game; the betting is the one a
    raise in ``line`` shows, else no-limit with ``certain`` false. Raises
    :class:`GameInferenceError` saying what does not fit.
    """
    ms = parse_matchstate(line)
    n = ms.num_players
    if (n, "nolimit") not in STANDARD_GAMES:
        raise GameInferenceError(
            f"cannot tell the game from {line!r}: {n} seats, and the standard ACPC games "
            f"seat 2 or 3; {_HINT}"
        )
    if len(ms.own_cards) != 2:
        raise GameInferenceError(
            f"cannot tell the game from {line!r}: {len(ms.own_cards)} hole cards, and the "
            f"standard ACPC games are hold'em (2); {_HINT}"
        )
    shown = betting_shown(ms, line)
    betting = shown if shown is not None else "nolimit"
    game = parse_gamedef(
        STANDARD_GAMES[(n, betting)], source=f"<standard {n}-player {betting} game>"
    )
    return InferredGame(game, n, betting, certain=shown is not None)
