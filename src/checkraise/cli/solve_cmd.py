"""``checkraise solve``: run equilibrium solvers on Kuhn or Leduc poker."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from checkraise.cli._options import check_seed
from checkraise.cli.app import app
from checkraise.errors import CheckraiseError, one_of

if TYPE_CHECKING:
    from checkraise.solvers.trace import SolveTrace

__all__ = ["solve_command"]

# checkraise.games.GAME_NAMES and checkraise.solvers.ALGORITHMS, written out so that
# `--help` does not import the games and the numba solvers to print them
# (tests/cli/test_startup.py checks that they agree).
GAME_NAMES = ("kuhn", "kuhn3", "leduc")
ALGORITHM_NAMES = (
    "cfr", "cfr-sim", "cfr+", "lcfr", "dcfr", "cs-cfr", "es-mccfr", "os-mccfr", "xfp",
)


def _file_name(algorithm: str) -> str:
    return algorithm.replace("+", "plus")


@app.command("solve")
def solve_command(
    game_name: str = typer.Argument(..., help=f"Game: {', '.join(GAME_NAMES)}."),
    algo: str = typer.Option("cfr+", "--algo", help=f"Algorithm: {', '.join(ALGORITHM_NAMES)}."),
    compare: str = typer.Option(
        "", "--compare", help="Comma-separated algorithms to run one after another and chart."
    ),
    iterations: int = typer.Option(1000, "--iterations", "-n", help="Iterations per algorithm."),
    seconds: float = typer.Option(
        0.0, "--seconds", help="Run each algorithm for this many solver seconds instead."
    ),
    points: int = typer.Option(30, "--points", help="Exploitability checkpoints per run."),
    seed: int = typer.Option(
        0, "--seed", callback=check_seed,
        help="Seed of the sampling algorithms."
    ),
    tabular: bool = typer.Option(
        False, "--tabular", help="Use the tabular CFR even where a vectorised one exists."
    ),
    out: Path | None = typer.Option(
        None, "--out", help="Folder for policies (.npz) and the exploitability chart (PNG)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print machine-readable JSON."),
) -> None:
    """Solve a game; report exploitability (chips per hand) and solver seconds.

    Seconds count solver iterations only, not start-up or the best responses that
    measure exploitability.
    """
    # Imported here, not at the top: `checkraise --help` need not load numba and rich.
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    from checkraise.cli._progress import progress_bar
    from checkraise.games import build_tree, load_game
    from checkraise.solvers import ALGORITHMS, expected_values, make_solver
    from checkraise.solvers.trace import plot_traces, run_solver

    game = load_game(game_name)
    names = [a.strip() for a in (compare or algo).split(",") if a.strip()]
    for name in names:
        if name.lower() not in ALGORITHMS:
            raise CheckraiseError(
                f"unknown algorithm {name!r}; expected one of {one_of(ALGORITHMS)}"
            )
    if iterations < 1 or points < 1 or seconds < 0:
        raise CheckraiseError(
            f"iterations={iterations}, points={points}, seconds={seconds}; "
            "expected iterations and points >= 1 and seconds >= 0"
        )
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    tree = build_tree(game)
    runs: list[dict[str, Any]] = []
    traces: list[SolveTrace] = []
    console = Console(stderr=True)
    for name in names:
        solver = make_solver(
            name, game, seed=seed, vectorised=False if tabular else None, tree=tree
        )
        columns = (
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn() if not seconds else TextColumn("{task.completed:.1f}s"),
            TimeElapsedColumn(),
        )
        with progress_bar(*columns, label=name, unit="s" if seconds else "iterations",
                          console=console, transient=as_json) as bar:
            task = bar.add_task(f"{name:9s}", total=seconds or iterations)

            def report(
                done: int, elapsed: float, value: float, task: Any = task, label: str = name
            ) -> None:
                bar.update(
                    task,
                    completed=elapsed if seconds else done,
                    description=f"{label:9s} exploitability {value:.3g}",
                )

            trace = run_solver(
                solver,
                None if seconds else iterations,
                seconds=seconds or None,
                points=points,
                on_checkpoint=report,
            )
        trace.algorithm = name
        traces.append(trace)
        policy = solver.average_policy()
        run: dict[str, Any] = {
            "algorithm": name,
            "solver": type(solver).__name__,
            "iterations": solver.iteration,
            "seconds": trace.total_seconds,
            "exploitability": trace.final_exploitability,
            "values": expected_values(tree, policy).tolist(),
            "trace": trace.to_json(),
        }
        if out is not None:
            run["policy"] = str(policy.save(out / f"policy-{_file_name(name)}.npz"))
        runs.append(run)
    result: dict[str, Any] = {
        "game": game.name,
        "players": game.num_players,
        "exploitability": runs[0]["exploitability"],
        "seconds": runs[0]["seconds"],
        "runs": runs,
    }
    if out is not None:
        title = f"{game.name}: exploitability"
        chart = plot_traces(traces, out / "exploitability.png", title=title)
        result["chart"] = str(chart)
        (out / "solve.json").write_text(json.dumps(result, indent=2))
    if as_json:
        print(json.dumps(result))
        return
    for run in runs:
        values = " ".join(f"{v:+.4f}" for v in run["values"])
        print(
            f"{game.name} {run['algorithm']:9s} iterations {run['iterations']:>9d}  "
            f"exploitability {run['exploitability']:.3e}  seconds {run['seconds']:.3f}  "
            f"values {values}"
        )
    if out is not None:
        print(f"wrote {out}")
