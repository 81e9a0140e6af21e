"""``checkraise tune``: improve a heuristic-bot profile by self-play (see checkraise.tuning)."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from checkraise.cli._options import (
    ADDRESS_HELP,
    BACKEND_HELP,
    check_seed,
    check_workers,
    open_backend,
    parse_blinds,
)
from checkraise.cli.app import app

__all__ = ["tune_command"]


@app.command("tune")
def tune_command(
    out: Path = typer.Option(
        ..., "--out", help="Folder for tune_log.jsonl (accepted changes) and profile.json."
    ),
    start: str = typer.Option(
        "default", "--start", help="Profile to improve: a JSON/TOML file or 'default'."
    ),
    opponent: str | None = typer.Option(
        None, "--opponent", help="First opponent profile (default: the start profile)."
    ),
    sweeps: int = typer.Option(
        3, "--sweeps", help="Passes over the parameters; the opponent becomes the new profile "
        "after each (iterated best response)."
    ),
    steps: int = typer.Option(6, "--steps", help="Annealing steps per parameter per sweep."),
    batches: int = typer.Option(10, "--batches", help="Batches per comparison."),
    batch_size: int = typer.Option(5000, "--batch-size", help="Duplicate deals per batch."),
    trim: float = typer.Option(
        0.1, "--trim", help="Share of batches cut at each end of the trimmed mean."
    ),
    temperature: float = typer.Option(
        1.0, "--temperature", help="Starting annealing temperature, mbb/hand (0: greedy)."
    ),
    pool: int = typer.Option(100_000, "--pool", help="Deals valued up front and drawn from."),
    samples: int = typer.Option(
        1000, "--samples", help="Monte Carlo deals per value (as the bot's 'samples')."
    ),
    params: list[str] = typer.Option(
        [], "--params", help="Only these parameters (names or patterns like 'river.*'); "
        "repeat the option for several."
    ),
    stack: int = typer.Option(20000, "--stack", help="Chips per seat at the start of each hand."),
    blinds: str = typer.Option("50/100", "--blinds", help="Small/big blind."),
    check_deals: int = typer.Option(
        20_000, "--check-deals", help="Held-out deals to measure tuned vs start (0: skip)."
    ),
    seats: int = typer.Option(
        2, "--seats", help="Table size: 2 heads-up, 3..10 ring games against copies of the "
        "opponent."
    ),
    seed: int = typer.Option(
        0, "--seed", callback=check_seed,
        help="Master seed: same seed, same run."
    ),
    resume: bool = typer.Option(
        False, "--resume", help="Continue the run logged in --out (same settings and seed)."
    ),
    workers: int = typer.Option(
        0, "--workers", help="Processes valuing the deal pools, or Ray tasks at once "
        "(0 = one per core / cluster CPU)."
    ),
    backend: str = typer.Option("local", "--backend", help=BACKEND_HELP),
    address: str | None = typer.Option(None, "--address", help=ADDRESS_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print machine-readable JSON."),
) -> None:
    """Tune a heuristic profile: coordinate-wise annealing over duplicate self-play.

    One parameter at a time is annealed with the others fixed; candidate and incumbent
    play the opponent on the same deals (both seatings) and the trimmed mean over
    batches decides. After each sweep the opponent is replaced by the new profile.
    """
    # Imported here, not at the top: `checkraise --help` need not load numba and rich.
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from checkraise.agents.profiles import load_profile
    from checkraise.cli._progress import progress_bar
    from checkraise.tuning import TuneConfig, tune

    check_workers(workers)
    small, big = parse_blinds(blinds)
    config = TuneConfig(
        sweeps=sweeps, steps=steps, batches=batches, batch_size=batch_size, trim=trim,
        temperature=temperature, pool=pool, samples=samples, stack=stack,
        small_blind=small, big_blind=big, params=tuple(params), seats=seats,
    )
    start_profile = load_profile(start)
    opp_profile = load_profile(opponent) if opponent is not None else None
    runner = open_backend(backend, workers, address)
    console = Console(stderr=True)
    columns = (
        TextColumn("[bold]tune"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("steps"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with runner, progress_bar(*columns, label="tune", unit="steps", console=console,
                              disable=as_json) as bar:
        task = bar.add_task("tune", total=config.total_steps)
        if not as_json:
            console.print(f"valuing {pool} deals ({samples} samples per value) ...")
        result = tune(
            start_profile, config, seed, opponent=opp_profile, out=out, resume=resume,
            check_deals=check_deals, backend=runner, progress=lambda n: bar.advance(task, n),
        )
    if as_json:
        print(json.dumps(result.to_json()))
        return
    print(f"accepted {len(result.accepted)} changes in {result.steps_run} steps"
          + (f" ({result.resumed_steps} steps resumed from the log)" if result.resumed_steps
             else ""))
    if result.after is not None:
        e = result.after
        print(f"tuned vs start on {check_deals} held-out duplicate deals: {e.mean:.1f} mbb/hand "
              f"(95% CI [{e.low:.1f}, {e.high:.1f}])")
    for f in result.files:
        print(f"wrote {f}")
