"""Many tournament repetitions in parallel, written as they finish, resumable.

Layout of the output folder:

- ``run.json`` — the configuration and master seed (checked on ``resume``);
- ``results.jsonl`` — one line per finished repetition, appended as soon as it
  finishes, so an interrupted run keeps every finished repetition;
- ``logs/rep-NNNN.log`` and ``logs/rep-NNNN.txt`` — every hand (ACPC / PokerStars);
- ``results.json``, ``report.md``, ``chip_trend.png``, ``ranks.png``, ``mbb.png``
  — written at the end from all repetitions (:mod:`checkraise.arena.report`).

Each repetition depends only on the master seed and its number, so the results
are identical for any number of workers, and a resumed run equals an
uninterrupted one.

A folder is never mixed: a run goes into a new or empty folder, continues the
run of the same configuration and seed there (``resume``), or, with ``force``,
replaces an earlier run's files (only the files listed above; anything else in
the folder stays). A non-empty folder that holds no run (no readable
``run.json``) is refused even with ``force``: it is not clearly ours.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from checkraise.agents.base import canonical_spec
from checkraise.arena import outfolder
from checkraise.arena.match import refuse_interactive
from checkraise.arena.report import write_json, write_tournament_report
from checkraise.arena.tournament import (
    TournamentConfig,
    TournamentResult,
    play_tournament,
    summarize,
)
from checkraise.backend import Backend, Progress, resolve_backend
from checkraise.errors import CheckraiseError

__all__ = [
    "RUN_FILES",
    "OutFolderError",
    "ResumeError",
    "SeriesError",
    "SeriesResult",
    "check_out_folder",
    "run_tournaments",
]

RUN_FILES = (
    "run.json", "results.jsonl", "results.json", "report.md", "chip_trend.png", "ranks.png",
    "mbb.png",
)
"""The files a run writes at the top of its folder (hand logs go to ``logs/``)."""

_LOG_NAME = re.compile(r"rep-\d{4,}\.(?:log|txt)")


class SeriesError(CheckraiseError):
    """Bad input to a series of tournaments (number of repetitions, output folder)."""


class OutFolderError(SeriesError, outfolder.OutFolderError):
    """The output folder holds something that this run must not overwrite or mix with."""


class ResumeError(OutFolderError):
    """``--resume`` was asked for a folder that holds a different run."""


def _read_run(run_file: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(run_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and "config" in data and "seed" in data else None


def _canonical(config: Any) -> Any:
    # Agents renamed since a run was written (fold -> handreader) are still the same agents.
    if not isinstance(config, dict) or not isinstance(config.get("agents"), list):
        return config
    return {**config, "agents": [canonical_spec(str(a)) for a in config["agents"]]}


def check_out_folder(
    out: Path,
    config: TournamentConfig,
    seed: int,
    repeat: int,
    *,
    resume: bool = False,
    force: bool = False,
) -> None:
    """Raise :class:`OutFolderError` unless this run may write into ``out`` (no side effects).

    Allowed: a missing or empty folder; the folder of the same configuration and
    seed with ``resume`` (unless it holds finished repetitions beyond ``repeat``,
    which the run would drop); an earlier run's folder with ``force``.
    """
    if not out.exists():
        return
    if not out.is_dir():
        raise OutFolderError(f"invalid --out {out}: it is a file, expected a folder")
    if not any(out.iterdir()):
        return
    previous = _read_run(out / "run.json")
    if previous is None:
        raise OutFolderError(
            f"--out {out} is not empty and holds no tournament run (no readable run.json): "
            "choose a new or empty folder"
        )
    header = {"config": _canonical(config.to_json()), "seed": seed}
    same = _canonical(previous["config"]) == header["config"] and previous["seed"] == seed
    if resume:
        if not same:
            raise ResumeError(
                f"cannot resume {out}: it holds a run with config {previous['config']} "
                f"and seed {previous['seed']}, expected {header['config']} and seed {seed}"
            )
        beyond = sorted(r for r in _load_done(out / "results.jsonl", None) if r >= repeat)
        if beyond:
            raise ResumeError(
                f"cannot resume {out} with --repeat {repeat}: it holds finished repetition(s) "
                f"up to {beyond[-1]}, which would be dropped; pass --repeat {beyond[-1] + 1} "
                "or more"
            )
        return
    if not force:
        what = "this configuration and seed" if same else "another configuration or seed"
        raise OutFolderError(
            f"--out {out} holds an earlier tournament run ({what}): pass --resume to continue "
            "the same run, --force to replace its files, or choose another folder"
        )


def _clear_run(out: Path) -> None:
    # Only what a run writes: a user's own files in the folder stay.
    outfolder.remove_outputs(out, RUN_FILES, _LOG_NAME)


@dataclass
class SeriesResult:
    """All repetitions, their summary and the files written."""

    config: TournamentConfig
    seed: int
    results: list[TournamentResult]
    summary: dict[str, Any]
    files: list[Path]
    resumed: int


@dataclass(frozen=True)
class _Task:
    config: TournamentConfig
    seed: int
    repetition: int
    log_dir: str | None


def _run(task: _Task, progress: Progress) -> TournamentResult:
    result = play_tournament(
        task.config, task.seed, task.repetition,
        log_dir=Path(task.log_dir) if task.log_dir else None, progress=progress,
    )
    # Keep the progress total at max_hands per repetition when a tournament ends early.
    progress(task.config.max_hands - result.hands_played)
    return result


def _load_done(path: Path, repeat: int | None) -> dict[int, TournamentResult]:
    done: dict[int, TournamentResult] = {}
    if not path.exists():
        return done
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            result = TournamentResult.from_json(json.loads(line))
        except (ValueError, KeyError, TypeError):
            # A line cut short by an interruption: that repetition is played again.
            continue
        if repeat is None or result.repetition < repeat:
            done[result.repetition] = result
    return done


def run_tournaments(
    config: TournamentConfig,
    seed: int,
    repeat: int,
    *,
    out: Path | None = None,
    workers: int | None = None,
    backend: Backend | None = None,
    resume: bool = False,
    force: bool = False,
    logs: bool = True,
    progress: Progress | None = None,
) -> SeriesResult:
    """Play ``repeat`` tournaments (repetitions ``0..repeat-1``) and write the report.

    Parameters
    ----------
    config, seed, repeat
        What to play.
    out
        Output folder (nothing is written when ``None``).
    workers, backend
        Where the repetitions run (one work item each): ``backend``, by default local
        processes, ``workers`` of them (default: one per core). Results depend on neither.
    resume
        Keep the repetitions already in ``out/results.jsonl`` and play the rest;
        the folder's ``run.json`` must hold the same configuration and seed.
    force
        Replace the files of an earlier run in ``out`` (see :func:`check_out_folder`).
    logs
        Write every hand to ``out/logs``.
    progress
        Called with numbers of hands played (``repeat * max_hands`` in all).

    Examples
    --------
    >>> cfg = TournamentConfig(("allin", "checkfold"), max_hands=20)
    >>> run_tournaments(cfg, seed=1, repeat=2, workers=1).summary["repetitions"]
    2
    """
    if isinstance(repeat, bool) or repeat < 1:
        raise SeriesError(f"invalid repeat {repeat!r}: expected at least 1")
    refuse_interactive(config.agents, "tournament")
    done: dict[int, TournamentResult] = {}
    sink: IO[str] | None = None
    log_dir: Path | None = None
    if out is not None:
        check_out_folder(out, config, seed, repeat, resume=resume, force=force)
        run_file, lines_file = out / "run.json", out / "results.jsonl"
        header = {"config": config.to_json(), "seed": seed}
        if resume and run_file.exists():
            done = _load_done(lines_file, repeat)
        elif force and run_file.exists():
            _clear_run(out)
        out.mkdir(parents=True, exist_ok=True)
        write_json(run_file, header)
        # Rewrite the kept lines so that a torn last line does not stay in the file.
        with open(lines_file, "w", encoding="utf-8") as f:
            for r in sorted(done):
                f.write(json.dumps(done[r].to_json()) + "\n")
        sink = open(lines_file, "a", encoding="utf-8")  # noqa: SIM115
        log_dir = out / "logs" if logs else None
    resumed = len(done)
    if progress is not None and resumed:
        progress(resumed * config.max_hands)
    tasks = [
        _Task(config, seed, r, str(log_dir) if log_dir else None)
        for r in range(repeat)
        if r not in done
    ]

    def finished(_: int, result: TournamentResult) -> None:
        done[result.repetition] = result
        if sink is not None:
            sink.write(json.dumps(result.to_json()) + "\n")
            sink.flush()

    try:
        resolve_backend(backend, workers).run(
            _run, tasks, on_result=finished, on_progress=progress
        )
    finally:
        if sink is not None:
            sink.close()
    results = [done[r] for r in sorted(done)]
    summary = summarize(config, results)
    files: list[Path] = []
    if out is not None:
        files = write_tournament_report(summary, seed, out)
    return SeriesResult(config, seed, results, summary, files, resumed)
