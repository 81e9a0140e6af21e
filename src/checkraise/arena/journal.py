"""A match's results hand by hand on disk, so that a killed match keeps the deals it finished.

A match with a log folder writes ``match.json`` there (what is played: the
:class:`~checkraise.arena.ring.RingConfig` and the seed) before the first hand, and
each rotation appends one JSON line per hand to ``rotation-<r>.jsonl`` as the hand
ends (flushed at once): the players' chips, all-in and luck adjusted, and their
decisions. A match that is killed (a session ending, ``kill -9``) leaves them behind,
a torn last line at most.

Each rotation plays its deals in order, the cards of deal ``h`` depend only on the
seed and ``h``, and every rotation starts with fresh agents: so the deals that every
rotation finished (the first ``k``) are exactly what a match of ``k`` deals with the
same seed would have played. :func:`recover` rebuilds that match's
:class:`~checkraise.arena.ring.RingResult` from the journals
(``checkraise match --out DIR --recover``).
"""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from checkraise.arena.stats import ActionCounts
from checkraise.engine.config import RuleSet
from checkraise.errors import CheckraiseError

if TYPE_CHECKING:
    from checkraise.arena.ring import RingConfig, RingResult, RotationResult

__all__ = ["MATCH_FILE", "Journal", "JournalError", "recover", "write_match_file"]

#: What a match with a log folder writes there first.
MATCH_FILE = "match.json"


class JournalError(CheckraiseError):
    """A folder whose match cannot be recovered (none there, or nothing finished)."""


def _chips(value: int | Fraction) -> int | str:
    return value if isinstance(value, int) else f"{value.numerator}/{value.denominator}"


def _read_chips(value: int | str) -> int | Fraction:
    if isinstance(value, int):
        return value
    chips = Fraction(value)
    return int(chips) if chips.denominator == 1 else chips


def write_match_file(folder: Path, config: RingConfig, seed: int) -> None:
    """``folder/match.json``: what the match in ``folder`` plays."""
    folder.mkdir(parents=True, exist_ok=True)
    data = {"config": config.to_json(), "seed": seed}
    (folder / MATCH_FILE).write_text(json.dumps(data) + "\n", encoding="utf-8")


class Journal:
    """Append-only ``<folder>/rotation-<r>.jsonl``: one line per finished hand.

    ``folder`` ``None`` writes nothing. The file is opened with the first hand.
    """

    def __init__(self, folder: Path | None, rotation: int) -> None:
        self._path = None if folder is None else folder / f"rotation-{rotation}.jsonl"
        self._file: IO[str] | None = None

    def write(self, hand: int, payoffs: list[int | Fraction],
              adjusted: list[int | Fraction] | None, luck: list[float] | None,
              decisions: list[list[tuple[int, str, int]]]) -> None:
        """Append hand ``hand``: per player (not per seat) his chips, the same all-in
        and luck adjusted (``None``: nothing to adjust) and his decisions."""
        if self._path is None:
            return
        if self._file is None:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            self._file = open(self._path, "w", encoding="utf-8")  # noqa: SIM115
        row = {
            "hand": hand,
            "payoffs": [_chips(v) for v in payoffs],
            "adjusted": None if adjusted is None else [_chips(v) for v in adjusted],
            "luck": luck,
            "decisions": [[list(d) for d in player] for player in decisions],
        }
        self._file.write(json.dumps(row) + "\n")
        self._file.flush()

    def close(self) -> None:
        """Close the file."""
        if self._file is not None:
            self._file.close()
        self._file = None
        self._path = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_Hand = tuple[list[Any], list[Any] | None, list[float] | None, list[ActionCounts]]


def _read_hands(path: Path, players: int) -> list[_Hand]:
    """The hands of ``path`` in order (chips, adjusted and luck adjusted chips or None,
    decisions), up to the first line that is torn or out of place."""
    hands: list[_Hand] = []
    if not path.exists():
        return hands
    for h, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        try:
            row: dict[str, Any] = json.loads(line)
            if row["hand"] != h or len(row["payoffs"]) != players:
                break
            payoffs = [_read_chips(v) for v in row["payoffs"]]
            adjusted = (None if row["adjusted"] is None
                        else [_read_chips(v) for v in row["adjusted"]])
            luck = None if row["luck"] is None else [float(v) for v in row["luck"]]
            counts = [ActionCounts() for _ in range(players)]
            for i, player in enumerate(row["decisions"]):
                counts[i].record_hand((int(r), str(k), int(c)) for r, k, c in player)
        except (ValueError, KeyError, TypeError, IndexError):
            break  # the hand being written when the match was killed
        hands.append((payoffs, adjusted, luck, counts))
    return hands


def _rotation(hands: list[_Hand], rotation: int, players: int) -> RotationResult:
    """A rotation's result from its hands (as :func:`_read_hands` gives them)."""
    from checkraise.arena.ring import RotationResult

    result = RotationResult(rotation, [], [ActionCounts() for _ in range(players)])
    for payoffs, adjusted, luck, counts in hands:
        result.payoffs.append(payoffs)
        result.adjusted.append(payoffs if adjusted is None else adjusted)
        result.adjusted_hands += adjusted is not None
        result.luck.append([float(v) for v in payoffs] if luck is None else luck)
        result.luck_hands += luck is not None
        for i in range(players):
            result.actions[i].add(counts[i])
    return result


def recover(folder: Path) -> tuple[RingResult, int]:
    """The result of the deals every rotation of the match logged in ``folder``
    finished, and how many deals the match was to play.

    Raises :class:`JournalError` when ``folder`` holds no match or no finished deal.
    """
    from checkraise.arena.ring import RingConfig, combine_rotations

    try:
        data = json.loads((folder / MATCH_FILE).read_text(encoding="utf-8"))
        cfg = data["config"]
        config = RingConfig(tuple(cfg["agents"]), int(cfg["hands"]), int(cfg["stack"]),
                            int(cfg["small_blind"]), int(cfg["big_blind"]),
                            RuleSet(cfg["rules"]), bool(cfg["duplicate"]))
        seed = int(data["seed"])
    except FileNotFoundError:
        raise JournalError(f"no {MATCH_FILE} in {folder}: expected the log folder of a "
                           "match played with --out") from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise JournalError(f"{folder / MATCH_FILE}: {exc!r}; expected what checkraise "
                           "match writes there") from None
    n = len(config.agents)
    hands = {r: _read_hands(folder / f"rotation-{r}.jsonl", n)
             for r in range(config.num_rotations)}
    deals = min(len(h) for h in hands.values())
    if deals == 0:
        raise JournalError(f"{folder}: no deal was finished in every seating; nothing to "
                           "recover")
    rotations = {r: _rotation(h[:deals], r, n) for r, h in hands.items()}
    return combine_rotations(replace(config, hands=deals), seed, rotations), config.hands
