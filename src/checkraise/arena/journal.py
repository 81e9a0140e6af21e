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
(``checkraise match --out DIR --recover``), and :func:`pool` joins the matches of one
pairing on several seeds into one result over all their deals (``checkraise match
--pool DIR --pool DIR2``): a match cut short and continued on another seed for the
deals it missed is then measured as one.

Only the deals that *every* rotation finished count, so a rotation that ran ahead
of the others when the match was killed played its lead for nothing. When all the
rotations of a match run at once, :class:`Pace` keeps them level: before each hand a
rotation waits until every other rotation's journal holds all but ``slack`` of the
hands before it. It changes when hands are played, never what is played, and a
killed match then loses at most ``slack`` hands of any rotation. A rotation that
fails leaves ``rotation-<r>.failed`` beside its journal, so that the others stop
instead of waiting for it.
"""

from __future__ import annotations

import codecs
import errno
import json
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from checkraise.arena.stats import ActionCounts
from checkraise.engine.config import RuleSet
from checkraise.errors import CheckraiseError

if TYPE_CHECKING:
    from checkraise.arena.ring import RingConfig, RingResult, RotationResult

__all__ = [
    "MATCH_FILE",
    "POOLED_SAME",
    "RECOVERED_SAME",
    "Journal",
    "JournalError",
    "Pace",
    "RotationFailedError",
    "config_differences",
    "mark_failed",
    "pool",
    "read_log",
    "read_match_file",
    "recover",
    "write_match_file",
]

#: What a match with a log folder writes there first.
MATCH_FILE = "match.json"


class JournalError(CheckraiseError):
    """A folder whose match cannot be recovered (none there, or nothing finished)."""


class RotationFailedError(CheckraiseError):
    """Another rotation of the match failed, so this one stops (see :class:`Pace`)."""


def _journal_path(folder: Path, rotation: int) -> Path:
    return folder / f"rotation-{rotation}.jsonl"


def _failed_marker(folder: Path, rotation: int) -> Path:
    return folder / f"rotation-{rotation}.failed"


def mark_failed(folder: Path | None, rotation: int, error: BaseException) -> None:
    """Leave ``rotation-<rotation>.failed`` (the error) in ``folder`` for the other
    rotations' :class:`Pace`; ``folder`` ``None`` writes nothing."""
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
        _failed_marker(folder, rotation).write_text(f"{error!r}\n", encoding="utf-8")


class Pace:
    """Holds rotation ``rotation`` of the match logged in ``folder`` level with the others.

    :meth:`wait` returns once every other rotation's journal holds at least
    ``hand - slack`` finished hands. ``poll`` is the seconds between looks, ``sleep``
    what waits them (a test passes its own). Each journal is read from where the
    last look stopped, so a look costs only the lines written since.

    Raises :class:`RotationFailedError` from :meth:`wait` when another rotation has
    left a ``.failed`` marker (:func:`mark_failed`): it will write no more hands.
    """

    def __init__(self, folder: Path, rotation: int, rotations: int, slack: int, *,
                 poll: float = 0.5, sleep: Callable[[float], None] = time.sleep) -> None:
        if slack < 0:
            raise JournalError(f"invalid slack {slack!r}: expected 0 or more hands")
        self._folder = folder
        self._others = [r for r in range(rotations) if r != rotation]
        self._slack = slack
        self._poll = poll
        self._sleep = sleep
        self._read = {r: 0 for r in self._others}  # bytes of each journal counted
        self._lines = {r: 0 for r in self._others}

    def finished(self, rotation: int) -> int:
        """The hands rotation ``rotation``'s journal holds whole (read incrementally)."""
        path = _journal_path(self._folder, rotation)
        try:
            with open(path, "rb") as f:
                f.seek(self._read[rotation])
                new = f.read()
        except FileNotFoundError:
            return self._lines[rotation]
        self._read[rotation] += len(new)
        self._lines[rotation] += new.count(b"\n")
        return self._lines[rotation]

    def wait(self, hand: int) -> None:
        """Return when every other rotation has finished ``hand - slack`` hands."""
        need = hand - self._slack
        while True:
            for r in self._others:
                marker = _failed_marker(self._folder, r)
                if marker.exists():
                    raise RotationFailedError(
                        f"rotation {r} of the match in {self._folder} failed "
                        f"({marker.read_text(encoding='utf-8').strip()}); rotation stopped "
                        f"before hand {hand}")
            if all(self.finished(r) >= need for r in self._others):
                return
            self._sleep(self._poll)


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
        self._path = None if folder is None else _journal_path(folder, rotation)
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


def read_log(path: Path) -> str:
    """The text of the log file ``path`` or, when it is not there, of ``path`` gzipped
    beside it with ``.gz`` added (an archived match, ``docs/results/README.md``).

    An archive cut short (a copy stopped part-way) gives its text up to the cut, as a
    log torn by a kill does; the readers drop the torn last line either way.

    Raises :class:`FileNotFoundError` (for ``path``) when neither is there, and
    :class:`JournalError` for an archive that is not gzip data.
    """
    if path.exists():
        return path.read_text(encoding="utf-8")
    archived = path.with_name(path.name + ".gz")
    if archived.exists():
        return _gunzip_text(archived)
    raise FileNotFoundError(errno.ENOENT, f"no such file, nor its archive {archived.name}",
                            str(path))


def _gunzip_text(path: Path) -> str:
    """The text gzipped in ``path``, up to where the file ends (see :func:`read_log`)."""
    data = path.read_bytes()
    decoder = codecs.getincrementaldecoder("utf-8")(errors="strict")
    pieces: list[str] = []
    whole = True
    while data:  # one gzip member after another, as gzip reads them
        member = zlib.decompressobj(wbits=31)
        try:
            raw = member.decompress(data)
            if not member.eof:  # cut short: keep what it held
                raw += member.flush()
        except zlib.error as exc:
            raise JournalError(f"{path}: {exc}; expected a gzipped log (gzip -c of the "
                               "match's log)") from exc
        whole = member.eof
        pieces.append(decoder.decode(raw, final=False))
        if not whole:
            break
        data = member.unused_data.lstrip(b"\0")  # zeros after a member: padding, as gzip reads
    try:
        pieces.append(decoder.decode(b"", final=True))
    except UnicodeDecodeError:
        if whole:
            raise
    # as reading in text mode does: universal newlines
    return "".join(pieces).replace("\r\n", "\n").replace("\r", "\n")


def _read_hands(path: Path, players: int) -> list[_Hand]:
    """The hands of ``path`` (or of its archive, :func:`read_log`) in order (chips,
    adjusted and luck adjusted chips or None, decisions), up to the first line that is
    torn or out of place."""
    hands: list[_Hand] = []
    try:
        text = read_log(path)
    except FileNotFoundError:
        return hands
    for h, line in enumerate(text.splitlines()):
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


def read_match_file(folder: Path) -> tuple[RingConfig, int]:
    """What the match logged in ``folder`` plays (as it planned it) and its seed, from
    ``folder/match.json``.

    Raises :class:`JournalError` when there is none or it is not what a match writes.
    """
    from checkraise.arena.ring import RingConfig

    try:
        data = json.loads((folder / MATCH_FILE).read_text(encoding="utf-8"))
        cfg = data["config"]
        config = RingConfig(tuple(cfg["agents"]), int(cfg["hands"]), int(cfg["stack"]),
                            int(cfg["small_blind"]), int(cfg["big_blind"]),
                            RuleSet(cfg["rules"]), bool(cfg["duplicate"]))
        return config, int(data["seed"])
    except FileNotFoundError:
        raise JournalError(f"no {MATCH_FILE} in {folder}: expected the log folder of a "
                           "match played with --out") from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise JournalError(f"{folder / MATCH_FILE}: {exc!r}; expected what checkraise "
                           "match writes there") from None


def recover(folder: Path) -> tuple[RingResult, int]:
    """The result of the deals every rotation of the match logged in ``folder``
    finished, and how many deals the match was to play.

    Raises :class:`JournalError` when ``folder`` holds no match or no finished deal.
    """
    from checkraise.arena.ring import combine_rotations

    config, seed = read_match_file(folder)
    n = len(config.agents)
    hands = {r: _read_hands(_journal_path(folder, r), n)
             for r in range(config.num_rotations)}
    deals = min(len(h) for h in hands.values())
    if deals == 0:
        raise JournalError(f"{folder}: no deal was finished in every seating; nothing to "
                           "recover")
    rotations = {r: _rotation(h[:deals], r, n) for r, h in hands.items()}
    return combine_rotations(replace(config, hands=deals), seed, rotations), config.hands


#: What must be the same in the matches :func:`pool` joins (all of the config but the deals).
POOLED_SAME = ("agents", "stack", "small_blind", "big_blind", "rules", "duplicate")

#: The figures of a match's ``results.json`` that :func:`recover` on its journals must
#: give again (a match kept in ``docs/results`` is checked on them when it is archived
#: and in CI).
RECOVERED_SAME = ("config", "seed", "hands_played", "allin_adjusted_hands",
                  "luck_adjusted_hands", "players")


def config_differences(have: dict[str, Any], want: dict[str, Any], where: object) -> str:
    """What of :data:`POOLED_SAME` differs between two match configs (as JSON), ``""``
    for nothing: ``"small_blind 5 where <where> has 50; ..."`` (``want`` is from
    ``where``)."""
    return "; ".join(f"{k} {have[k]!r} where {where} has {want[k]!r}"
                     for k in POOLED_SAME if have[k] != want[k])


def pool(folders: Sequence[Path]) -> RingResult:
    """The matches logged in ``folders`` as one match over all their deals.

    Each folder gives the deals every seating finished (:func:`recover`; all of them
    for a match that ran to its end), in the order of ``folders``. The matches must
    seat the same agents in the same order on the same table, each on its own seed:
    deals are independent draws whatever the seed, so the pooled win rates and
    intervals are those of one match of that many deals; the same seed twice would
    count its deals twice. :attr:`~checkraise.arena.ring.RingResult.parts` says which
    match gave which deals.

    Raises :class:`JournalError` (nothing read is kept) when a folder holds no match or
    no finished deal, when the matches differ in anything but seed and deals, or when
    a seed repeats.
    """
    from checkraise.arena.ring import MatchPart, RingResult

    if not folders:
        raise JournalError("no match folders to pool; expected one or more")
    given: dict[Path, Path] = {}
    for folder in folders:
        if folder.resolve() in given:
            raise JournalError(f"{folder} given twice (as {given[folder.resolve()]} too); "
                               "expected each match once")
        given[folder.resolve()] = folder
    results = []
    for folder in folders:
        result, planned = recover(folder)
        results.append((folder, result, planned))
    first_folder, first, _ = results[0]
    want = first.config.to_json()
    seen: dict[int, Path] = {}
    for folder, result, _ in results:
        have = result.config.to_json()
        shown = config_differences(have, want, first_folder)
        if shown:
            raise JournalError(f"{folder}: {shown}; expected matches that differ only in "
                               "seed and deals")
        if result.seed in seen:
            raise JournalError(f"{folder} and {seen[result.seed]} both played seed "
                               f"{result.seed}: its deals would count twice; expected each "
                               "match on its own seed")
        seen[result.seed] = folder
    out = RingResult(
        replace(first.config, hands=sum(r.config.hands for _, r, _ in results)),
        first.seed,
        first.labels,
        [row for _, r, _ in results for row in r.deal_chips],
        [ActionCounts() for _ in first.labels],
        [row for _, r, _ in results for row in r.deal_adjusted],
        sum(r.adjusted_hands for _, r, _ in results),
        [row for _, r, _ in results for row in r.deal_luck],
        sum(r.luck_hands for _, r, _ in results),
        tuple(MatchPart(r.seed, r.config.hands, planned) for _, r, planned in results),
    )
    for _, r, _ in results:
        for mine, theirs in zip(out.actions, r.actions, strict=True):
            mine.add(theirs)
    return out
