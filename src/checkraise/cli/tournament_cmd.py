"""``checkraise tournament``: repeated seeded tournaments with a report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from checkraise.cli._options import ADDRESS_HELP, BACKEND_HELP, check_seed, open_backend
from checkraise.cli.app import app

if TYPE_CHECKING:
    from checkraise.arena.series import SeriesResult
from checkraise.cli._options import seat_agents
from checkraise.cli._progress import hands_progress

__all__ = ["print_standings", "tournament_command"]


def print_standings(series: SeriesResult) -> None:
    """Print one line per agent, best mean rank first."""
    players = series.summary["players"]
    print(
        f"{len(players)} players, {series.summary['repetitions']} repetitions"
        + (f" ({series.resumed} resumed)" if series.resumed else "")
    )
    print(f"  {'agent':<24} {'mean rank':>9} {'wins':>6} {'hands':>7} {'chips':>7} {'mbb/hand':>9}")
    for p in sorted(players, key=lambda p: p["mean_rank"]["mean"]):
        print(
            f"  {p['name']:<24} {p['mean_rank']['mean']:>9.2f} {100 * p['win_rate']:>5.1f}% "
            f"{p['hands_survived']['mean']:>7.1f} {p['chips_remaining']['mean']:>7.0f} "
            f"{p['mbb_per_hand']['mean']:>9.1f}"
        )


@app.command("tournament")
def tournament_command(
    agents: list[str] = typer.Option(
        ..., "--agents", "-a",
        help="2-10 agent specs, comma-separated or repeated, e.g. random,call,equity",
    ),
    repeat: int = typer.Option(10, "--repeat", "-r", help="Number of tournaments (at least 1)."),
    seed: int = typer.Option(
        0, "--seed", callback=check_seed,
        help="Master seed: same seed, same results."
    ),
    hands: int = typer.Option(600, "--hands", help="Hand limit per tournament."),
    blinds: str = typer.Option("20/40", "--blinds", help="Small/big blind (fixed)."),
    chips: int = typer.Option(2000, "--chips", help="Starting chips."),
    rebuys: int = typer.Option(1, "--rebuys", help="Rebuys per player."),
    rebuy_chips: int = typer.Option(2000, "--rebuy-chips", help="Chips of one rebuy."),
    workers: int = typer.Option(
        0, "--workers", help="Processes, or Ray tasks at once (0 = one per core / cluster CPU)."
    ),
    backend: str = typer.Option("local", "--backend", help=BACKEND_HELP),
    address: str | None = typer.Option(None, "--address", help=ADDRESS_HELP),
    out: Path | None = typer.Option(
        None, "--out",
        help="Folder for results.json(l), report.md, charts and hand logs.",
    ),
    resume: bool = typer.Option(
        False, "--resume", help="Keep finished repetitions in --out and play the rest."
    ),
    force: bool = typer.Option(
        False, "--force",
        help="Replace an earlier run's files in --out (its results, report, charts and "
        "logs/rep-*; other files stay). Without it a non-empty --out is refused.",
    ),
    logs: bool = typer.Option(True, "--logs/--no-logs", help="Write every hand to --out/logs."),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
) -> None:
    """Play seeded tournaments (2,000 chips, blinds 20/40, one rebuy, 600 hands at most).

    Players are ranked by hands survived, then chips; the report gives mean rank,
    win rate, hands survived, chips left, chip volatility, mbb/hand and action
    frequencies, with charts. Results do not depend on --workers or --backend.
    """
    # Everything is checked before the progress bar or any file appears.
    from checkraise.arena.series import (
        OutFolderError,
        SeriesError,
        check_out_folder,
        run_tournaments,
    )
    from checkraise.arena.tournament import TournamentConfig
    if resume and out is None:
        raise OutFolderError("--resume needs --out: the folder of the run to continue")
    if resume and force:
        raise OutFolderError("--resume keeps the run in --out, --force replaces it: choose one")
    if repeat < 1:
        raise SeriesError(f"invalid --repeat {repeat}: expected at least 1 tournament")
    specs, small, big = seat_agents(agents, blinds, workers, "tournament")
    config = TournamentConfig(specs, hands, small, big, chips, rebuys, rebuy_chips)
    runner = open_backend(backend, workers, address)
    if out is not None:
        check_out_folder(out, config, seed, repeat, resume=resume, force=force)
    total = repeat * config.max_hands
    with runner, hands_progress(total, "tournaments", enabled=not as_json) as adv:
        series = run_tournaments(
            config, seed, repeat, out=out, backend=runner, resume=resume,
            force=force, logs=logs, progress=adv,
        )
    if as_json:
        print(json.dumps(dict(series.summary, seed=seed)))
        return
    print_standings(series)
    if out is not None:
        print(f"report: {out / 'report.md'}")
