"""``checkraise match``: duplicate match between two (or more) agents, in mbb/hand."""

from __future__ import annotations

import contextlib
import json
import re
import sys
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from checkraise.cli._options import (
    ADDRESS_HELP,
    BACKEND_HELP,
    OptionError,
    check_seed,
    given_options,
    open_backend,
    seat_agents,
)
from checkraise.cli._progress import hands_progress
from checkraise.cli.app import app
from checkraise.engine.config import RuleSet  # light; typer reads the annotation

if TYPE_CHECKING:
    from checkraise.arena.ring import RingResult

MATCH_FILES = ("results.json", "report.md", "mbb.png")
"""What a match writes at the top of ``--out`` (hand logs go to ``logs/``)."""
MATCH_LOGS = re.compile(r"rotation-\d+\.(?:log|txt|jsonl|failed)|match\.json")


__all__ = ["match_command", "parse_stop_at"]


# The options that only a match being played reads (--pool and --recover refuse them).
PLAY_SETTINGS = ("hands", "seed", "stack", "blinds", "rules", "duplicate", "workers",
                 "backend", "address", "stop_at")


def _now() -> datetime:
    """The local time (a function of its own, so that tests can move the clock)."""
    return datetime.now()


def parse_stop_at(text: str, now: datetime) -> datetime:
    """The time ``--stop-at`` names: ``HH:MM`` is its next occurrence after ``now`` (today
    or tomorrow), ``YYYY-MM-DDTHH:MM`` a date and time, which must be after ``now``.

    >>> parse_stop_at("12:25", datetime(2026, 11, 29, 10, 0))
    datetime.datetime(2026, 11, 29, 12, 25)
    >>> parse_stop_at("02:00", datetime(2026, 11, 29, 23, 0))
    datetime.datetime(2026, 11, 30, 2, 0)
    """
    clock = re.fullmatch(r"([01]?\d|2[0-3]):([0-5]\d)", text.strip())
    if clock:
        at = now.replace(hour=int(clock[1]), minute=int(clock[2]), second=0, microsecond=0)
        return at if at > now else at + timedelta(days=1)
    parsed = None
    if re.fullmatch(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d", text.strip()):
        with contextlib.suppress(ValueError):  # a month 13, a 30 February, an hour 24
            parsed = datetime.fromisoformat(text.strip())
    if parsed is None:
        raise OptionError(f"invalid --stop-at {text!r}: expected HH:MM or YYYY-MM-DDTHH:MM "
                          "(local time, to the minute, no time zone), e.g. 12:25")
    if parsed <= now:
        raise OptionError(f"--stop-at {text!r} is past (it is {now:%Y-%m-%d %H:%M} now); "
                          "expected a time to come")
    return parsed


class MatchStopped(BaseException):
    """Raised out of a match's progress when its ``--stop-at`` time has come. A
    BaseException, like KeyboardInterrupt, so that it passes through the backend's
    handling of a failed work item and stops the workers the same way."""


def _stopping(advance: Callable[[int], None], deadline: datetime | None,
              ) -> Callable[[int], None]:
    """``advance``, raising :class:`MatchStopped` once ``deadline`` has passed."""
    if deadline is None:
        return advance

    def step(n: int) -> None:
        advance(n)
        if _now() >= deadline:
            raise MatchStopped

    return step


@app.command("match")
def match_command(
    ctx: typer.Context,
    agents: list[str] = typer.Argument(
        None, help="Two agent specs (or up to 10 for a ring game), e.g. equity call",
        show_default=False,
    ),
    hands: int = typer.Option(1000, "--hands", "-n", help="Deals (each played in every seating)."),
    seed: int = typer.Option(
        0, "--seed", callback=check_seed,
        help="Master seed: same seed, same cards, same result."
    ),
    stack: int = typer.Option(20000, "--stack", help="Chips per seat at the start of each hand."),
    blinds: str = typer.Option("50/100", "--blinds", help="Small/big blind."),
    rules: RuleSet = typer.Option(RuleSet.CASINO, "--rules", help="Engine rule set."),
    duplicate: bool = typer.Option(
        True, "--duplicate/--no-duplicate", help="Replay each deal with the seats swapped."
    ),
    workers: int = typer.Option(
        0, "--workers", help="Processes, or Ray tasks at once (0 = one per core / cluster CPU)."
    ),
    backend: str = typer.Option("local", "--backend", help=BACKEND_HELP),
    address: str | None = typer.Option(None, "--address", help=ADDRESS_HELP),
    out: Path | None = typer.Option(
        None, "--out", help="Folder for results.json, report.md, mbb.png and hand logs."
    ),
    force: bool = typer.Option(
        False, "--force", help="Replace the results and logs of an earlier match in --out."
    ),
    recover: bool = typer.Option(
        False, "--recover",
        help="Write the results of the deals a killed match in --out finished (its own "
        "agents and settings, read from --out; give no agents).",
    ),
    stop_at: str | None = typer.Option(
        None, "--stop-at", metavar="TIME",
        help="Stop the match at TIME (HH:MM, its next occurrence, or YYYY-MM-DDTHH:MM; local "
        "time) if it has not finished, and write the results of the deals finished in "
        "every seating, as --recover would (needs --out and a worker per seating). The "
        "time is checked as the seatings report their hands (every 0.2 s while hands "
        "end), so the match runs past it by at most about a hand; the deals finished by "
        "the stop all count.",
    ),
    pool: list[Path] = typer.Option(
        None, "--pool", show_default=False, metavar="DIR",
        help="The --out folder of a match to pool with the others given (repeat: --pool "
        "DIR --pool DIR2): one result over all their deals, for one pairing played on "
        "several seeds (give no agents; --out, if given, gets the pooled report).",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print machine-readable JSON."),
) -> None:
    """Play a (duplicate) match and report each agent's win rate in mbb/hand with a 95% CI.

    Each deal is played once per seating (twice heads-up, with the seats swapped;
    n times for n agents), which removes most of the luck of the cards. Each rate is
    also given all-in adjusted (hands all-in before the river at their expected
    result) and luck adjusted (the luck of every board card dealt to two or more
    players taken out): the same expectation, narrower intervals.

    With --out, each hand's result is written as it ends, so a match that is killed
    keeps the deals it finished: --recover writes their results (those of the same
    match with that many deals). When every seating has a worker of its own, the
    seatings are kept within 20 hands of each other, so a killed match loses at most
    that many hands of any seating. --pool joins such a match and its continuation on
    another seed (or any matches of the same agents and table on different seeds) into
    one result.
    """
    # Everything is checked before the progress bar appears.
    from checkraise.arena.match import summary_line
    from checkraise.arena.report import write_match_report
    settings = given_options(ctx, PLAY_SETTINGS)
    if pool:
        data, result = _pool(pool, out, agents, recover, force, settings)
    elif recover:
        data, result = _recover(out, agents, force, settings)
    else:
        data, result = _play(agents, hands, seed, stack, blinds, rules, duplicate, workers,
                             backend, address, out, force, as_json, stop_at)
    if out is not None:
        write_match_report(data, out)
    if as_json:
        print(json.dumps(data))
        return
    if "stopped_at" in data.get("partial", {}):
        print(f"stopped at {data['partial']['stopped_at'].replace('T', ' ')} (--stop-at)")
    if "partial" in data:
        print(f"recovered: {data['partial']['deals']:,} of the {data['partial']['planned']:,} "
              "deals planned, finished in every seating")
    for part in data.get("pooled", ()):
        print(f"pooled: {part['deals']:,} deals of seed {part['seed']} "
              f"({part['planned']:,} planned)")
    print(summary_line(result))
    for i, label in enumerate(result.labels):
        e = result.mbb(i)
        print(f"  {label:<24} {e.mean:>10.1f} mbb/hand   95% CI [{e.low:.1f}, {e.high:.1f}]")
    for count, luck, what in (
        (result.adjusted_hands, False, "all-in adjusted ({} hands all-in before the river, "
         "their board luck averaged out):"),
        (result.luck_hands, True, "luck adjusted ({} hands saw board cards with two or more "
         "players in, the luck of each card taken out):"),
    ):
        if not count:
            continue
        print(what.format(count))
        for i, label in enumerate(result.labels):
            e = result.mbb(i, adjusted=not luck, luck=luck)
            print(f"  {label:<24} {e.mean:>10.1f} mbb/hand   95% CI [{e.low:.1f}, {e.high:.1f}]")
    if out is not None:
        print(f"report: {out / 'report.md'}")


def _play(agents: list[str] | None, hands: int, seed: int, stack: int, blinds: str,
          rules: RuleSet, duplicate: bool, workers: int, backend: str, address: str | None,
          out: Path | None, force: bool, as_json: bool, stop_at: str | None = None,
          ) -> tuple[dict[str, Any], RingResult]:
    """Play the match; its results as JSON and as the result (with ``stop_at``, those of
    the deals finished by then if it has not finished)."""
    from checkraise.arena.journal import MATCH_FILE, JournalError
    from checkraise.arena.outfolder import claim_out_folder
    from checkraise.arena.ring import RingConfig, play_ring

    if not agents:
        raise OptionError("no agents: expected two agent specs (or up to 10), e.g. equity "
                          "call (or --recover with --out)")
    specs, small, big = seat_agents(agents, blinds, workers, "match")
    config = RingConfig(specs, hands, stack, small, big, rules, duplicate)
    deadline = None
    if stop_at is not None:
        deadline = parse_stop_at(stop_at, _now())
        if out is None:
            raise OptionError("--stop-at needs --out: the hands are journaled there, and "
                              "the deals finished by then are read back from it")
        if backend != "local":
            raise OptionError(f"--stop-at with --backend {backend}; expected --backend "
                              "local (stopping Ray tasks part-way is not supported)")
    runner = open_backend(backend, workers, address)
    if deadline is not None and getattr(runner, "workers", 0) < config.num_rotations:
        raise OptionError(
            f"--stop-at with --workers {workers} ({getattr(runner, 'workers', 0)} "
            f"process(es)): the {config.num_rotations} seatings would be played one after "
            "another, so a stop keeps few deals or none finished in all of them; expected "
            "--workers "
            f"{config.num_rotations} or more")
    if out is not None:
        if (out / "logs" / MATCH_FILE).is_file() and not (out / "results.json").exists() \
                and not force:
            raise OptionError(f"--out {out} holds a match that did not finish: --recover "
                              "writes the results of the deals it finished (--force "
                              "replaces it)")
        claim_out_folder(out, MATCH_FILES, MATCH_LOGS, force=force, command="match")
    total = config.hands * config.num_rotations
    if deadline is not None:
        print(f"stopping at {deadline:%Y-%m-%d %H:%M} if not finished (--stop-at {stop_at})",
              file=sys.stderr)
    try:
        with runner, hands_progress(total, "match", enabled=not as_json) as advance:
            result = play_ring(
                config, seed, backend=runner,
                log_dir=out / "logs" if out is not None else None,
                progress=_stopping(advance, deadline),
            )
    except MatchStopped:
        assert out is not None and deadline is not None
        try:
            data, result = _recovered(out)
        except JournalError as exc:
            raise OptionError(
                f"--stop-at {stop_at} ({deadline:%Y-%m-%d %H:%M}) came before any deal was "
                f"finished in every seating; nothing to recover ({exc}). The journals stay "
                f"in {out}; --force replaces them") from exc
        if data["partial"]["deals"] < data["partial"]["planned"]:
            data["partial"]["stopped_at"] = deadline.isoformat(timespec="minutes")
        else:  # it finished as the time came
            del data["partial"]
        return data, result
    return result.to_json(), result


def _recover(out: Path | None, agents: list[str] | None, force: bool, settings: list[str],
             ) -> tuple[dict[str, Any], RingResult]:
    """The results of the deals the killed match in ``out`` finished (``settings``: the
    options of a match to play that were given, refused)."""

    if out is None:
        raise OptionError("--recover needs --out: the folder of the match that was killed")
    if agents:
        raise OptionError(f"--recover takes no agents (got {' '.join(agents)}): the "
                          f"match's own are read from {out}")
    if settings or force:
        given = [*settings, "--force"] if force else settings
        raise OptionError(f"{', '.join(given)} with --recover; expected none of them: the "
                          f"match's own settings are read from {out}, and only a match "
                          "that did not finish is recovered")
    if (out / "results.json").exists():
        raise OptionError(f"--out {out} holds results.json: that match finished, or was "
                          "recovered already; nothing to recover")
    return _recovered(out)


def _recovered(out: Path) -> tuple[dict[str, Any], RingResult]:
    """The results of the deals every seating of the match in ``out`` finished, with
    ``partial``: how many, of how many planned (``--recover`` and ``--stop-at``)."""
    from checkraise.arena.journal import recover

    result, planned = recover(out / "logs")
    data = result.to_json()
    data["partial"] = {"deals": result.config.hands, "planned": planned}
    return data, result


def _pool(folders: list[Path], out: Path | None, agents: list[str] | None, recover: bool,
          force: bool, settings: list[str]) -> tuple[dict[str, Any], RingResult]:
    """The matches in ``folders`` pooled into one result; ``out`` is checked and claimed
    before anything is written (``settings``: the options of a match to play that were
    given, refused)."""
    from checkraise.arena.journal import pool
    from checkraise.arena.outfolder import claim_out_folder

    if agents:
        raise OptionError(f"--pool takes no agents (got {' '.join(agents)}): the matches' "
                          "own are read from their folders")
    if recover:
        raise OptionError("--pool and --recover together; expected one (--pool recovers "
                          "the deals of a killed match by itself)")
    if settings:
        raise OptionError(f"{', '.join(settings)} with --pool; expected none of them: the "
                          "matches' own settings are read from their folders")
    if out is not None and any(out.resolve() == f.resolve() for f in folders):
        raise OptionError(f"--out {out} is one of the --pool folders; expected a folder of "
                          "its own for the pooled report")
    result = pool([f / "logs" for f in folders])
    if out is not None:
        claim_out_folder(out, MATCH_FILES, MATCH_LOGS, force=force, command="match")
    return result.to_json(), result
