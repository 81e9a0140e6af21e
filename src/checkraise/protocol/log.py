"""Dealer logs in the ACPC reference format: comment header, STATE lines, SCORE line.

Format of ``dealer.c`` (``printInitialMessage``, ``addToLogFile``,
``printFinalMessage``; University of Alberta CPRG, 2011)::

    # name/game/hands/seed <match> <game file> <hands> <seed>
    #--t_response <ms>
    #--t_hand <ms>
    #--t_per_hand <ms>
    STATE:<hand>:<betting>:<cards>:<net per position>:<name per position>
    ...
    SCORE:<total per match seat>:<name per match seat>

Examples
--------
>>> log = parse_dealer_log("# hi\\nSTATE:0:f:3hQh|4h3c:50|-50:B|A\\nSCORE:50|-50:B|A\\n")
>>> len(log.states), log.score.totals[0]
(1, Fraction(50, 1))
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from checkraise.protocol.errors import LogExistsError, ProtocolError
from checkraise.protocol.matchstate import (
    ScoreLine,
    StateLine,
    parse_score_line,
    parse_state_line,
)

if TYPE_CHECKING:
    from checkraise.protocol.gamedef import GameDef

__all__ = ["DealerLog", "check_new_log", "format_log_header", "open_new_log", "parse_dealer_log"]


@dataclass(frozen=True)
class DealerLog:
    """A parsed dealer log; ``score`` is ``None`` for a match that did not finish."""

    comments: tuple[str, ...]
    states: tuple[StateLine, ...]
    score: ScoreLine | None


def parse_dealer_log(
    text: str, *, game: GameDef | None = None, source: str = "<log>"
) -> DealerLog:
    """Parse a whole log; errors name ``source`` and the line number."""
    comments: list[str] = []
    states: list[StateLine] = []
    score: ScoreLine | None = None
    for lineno, line in enumerate(text.splitlines(), start=1):
        try:
            if not line or line.startswith(("#", ";")):
                comments.append(line)
            elif score is not None:
                raise ProtocolError(f"line after the SCORE line: {line!r}")
            elif line.startswith("STATE:"):
                states.append(parse_state_line(line, game=game))
            elif line.startswith("SCORE:"):
                score = parse_score_line(line)
            else:
                raise ProtocolError(f"expected a STATE or SCORE line, got {line!r}")
        except ProtocolError as exc:
            raise ProtocolError(f"{source}:{lineno}: {exc}") from None
    return DealerLog(tuple(comments), tuple(states), score)


def format_log_header(
    match_name: str,
    game_name: str,
    num_hands: int,
    seed: int,
    t_response_ms: int,
    t_hand_ms: int,
    t_per_hand_ms: int,
) -> str:
    """The four comment lines that open a reference log (each ending in a newline).

    Examples
    --------
    >>> print(format_log_header("m1", "x.game", 200, 7, 600000, 600000, 7000), end="")
    # name/game/hands/seed m1 x.game 200 7
    #--t_response 600000
    #--t_hand 600000
    #--t_per_hand 7000
    """
    return (
        f"# name/game/hands/seed {match_name} {game_name} {num_hands} {seed}\n"
        f"#--t_response {t_response_ms}\n#--t_hand {t_hand_ms}\n#--t_per_hand {t_per_hand_ms}\n"
    )


def check_new_log(path: Path, *, force: bool = False) -> None:
    """Raise :class:`LogExistsError` if ``path`` exists and ``force`` is false.

    Call it for every log of a match before anything is played or written, so that
    a refusal leaves every earlier log as it was.
    """
    if path.exists() and not force:
        raise LogExistsError(
            f"log file {path} already exists (an earlier match?): pass --force to overwrite "
            "it, or choose another --name or --out"
        )
    if path.is_dir():
        raise LogExistsError(f"log file {path} is a folder: expected a file name")


def open_new_log(path: Path, *, force: bool = False) -> TextIO:
    """Open ``path`` for a new dealer log, creating its folder; never overwrite unless ``force``.

    Without ``force`` the file is created exclusively, so a log that appeared since
    :func:`check_new_log` is refused too rather than truncated.
    """
    check_new_log(path, force=force)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        return path.open("w" if force else "x", encoding="ascii", newline="\n")
    except FileExistsError:
        raise LogExistsError(
            f"log file {path} already exists: pass --force to overwrite it"
        ) from None
