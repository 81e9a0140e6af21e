"""Small readers for ACPC game files and dealer-log STATE lines, for the engine's replay tests.

Format: ACPC protocol 2.0.0 (``shared/ACPC.md``). The protocol package has the
full, strict readers; these stay here so that the engine's tests depend on the
engine alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from checkraise.cards import parse_cards
from checkraise.engine import Betting, RuleSet, TableConfig

_INT32_MAX = 2**31 - 1


def read_game(path: Path) -> TableConfig:
    """TableConfig (acpc rules) of a hold'em game file."""
    values: dict[str, list[int]] = {}
    betting = Betting.NOLIMIT
    for raw in path.read_text().splitlines():
        line = raw.split("#")[0].strip()
        if not line or line.upper() in ("GAMEDEF", "END GAMEDEF"):
            continue
        if line.lower() in ("limit", "nolimit"):
            betting = Betting(line.lower())
            continue
        key, _, rest = line.partition("=")
        values[key.strip().lower()] = [int(v) for v in rest.split()]
    n = values["numplayers"][0]
    rounds = values["numrounds"][0]
    stacks = tuple(values.get("stack", [_INT32_MAX] * n))
    return TableConfig(
        num_players=n,
        stacks=stacks,
        blinds=tuple(values["blind"]),
        first_player=tuple(p - 1 for p in values["firstplayer"]),
        betting=betting,
        rules=RuleSet.ACPC,
        raise_sizes=tuple(values.get("raisesize", ())),
        max_raises=tuple(values.get("maxraises", ())),
        num_rounds=rounds,
        board_cards=tuple(values["numboardcards"]),
        hole_cards=values["numholecards"][0],
    )


@dataclass(frozen=True)
class StateLine:
    """One ``STATE`` line of a dealer log."""

    text: str
    hand: int
    rounds: tuple[tuple[str, ...], ...]
    holes: tuple[tuple[int, ...], ...]
    board: tuple[int, ...]
    nets: tuple[Fraction, ...]
    names: tuple[str, ...]


def _actions(betting_round: str) -> tuple[str, ...]:
    out: list[str] = []
    i = 0
    while i < len(betting_round):
        ch = betting_round[i]
        j = i + 1
        if ch == "r":
            while j < len(betting_round) and betting_round[j].isdigit():
                j += 1
        elif ch not in "cf":
            raise ValueError(f"bad action {ch!r} in betting {betting_round!r}")
        out.append(betting_round[i:j])
        i = j
    return tuple(out)


def parse_state_line(text: str) -> StateLine:
    """Parse ``STATE:<hand>:<betting>:<cards>:<nets>:<names>``."""
    tag, hand, betting, cards, nets, names = text.split(":")
    if tag != "STATE":
        raise ValueError(f"not a STATE line: {text!r}")
    holes_text, *board_parts = cards.split("/")
    return StateLine(
        text=text,
        hand=int(hand),
        rounds=tuple(_actions(r) for r in betting.split("/")),
        holes=tuple(tuple(parse_cards(h)) for h in holes_text.split("|")),
        board=tuple(parse_cards("".join(board_parts))),
        nets=tuple(Fraction(v) for v in nets.split("|")),
        names=tuple(names.split("|")),
    )


def read_log(path: Path) -> tuple[list[StateLine], dict[str, Fraction]]:
    """STATE lines and the SCORE totals by player name."""
    states: list[StateLine] = []
    score: dict[str, Fraction] = {}
    for line in path.read_text().splitlines():
        if line.startswith("STATE:"):
            states.append(parse_state_line(line))
        elif line.startswith("SCORE:"):
            _, totals, names = line.split(":")
            score = {n: Fraction(v) for v, n in zip(totals.split("|"), names.split("|"),
                                                      strict=True)}
    return states, score
