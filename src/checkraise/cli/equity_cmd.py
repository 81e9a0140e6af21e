"""``checkraise equity``: all-in equity of hands and ranges, exact or Monte Carlo."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

import typer

from checkraise.cli._options import check_seed
from checkraise.cli.app import app

if TYPE_CHECKING:
    from checkraise.equity import EquityResult


@app.command("equity")
def equity_command(
    players: list[str] = typer.Argument(
        ..., help="Hands or ranges, one per player: AsKs 'QQ+,AKs' random"
    ),
    board: str = typer.Option("", "--board", "-b", help="Board cards, e.g. Td9d6h."),
    dead: str = typer.Option("", "--dead", help="Dead cards, e.g. 2c3d."),
    num_players: int = typer.Option(
        0, "--players", "-n", help="Total players; those not given hold random hands."
    ),
    exact: bool = typer.Option(False, "--exact", help="Enumerate every deal."),
    samples: int = typer.Option(0, "--samples", "-s", help="Monte Carlo deals (forces MC)."),
    seed: int = typer.Option(0, "--seed", callback=check_seed, help="Seed for Monte Carlo."),
    as_json: bool = typer.Option(False, "--json", help="Print machine-readable JSON."),
) -> None:
    """Equity (win + tie share), win and tie of each player; exact when small, else MC."""
    from rich.console import Console
    from rich.table import Table

    from checkraise.equity import EquityError, Method, equity
    specs: list[str | None] = list(players)
    if num_players:
        if num_players < len(specs):
            raise EquityError(f"--players {num_players} is fewer than the {len(specs)} given")
        specs += [None] * (num_players - len(specs))
    if exact and samples:
        raise EquityError("--exact and --samples exclude each other")
    method = Method.EXACT if exact else (Method.MC if samples else Method.AUTO)
    if method is Method.EXACT and not as_json:
        result = _exact_with_progress(specs, board or None, dead or None)
    else:
        result = equity(
            specs, board or None, dead or None, method=method, samples=samples or None,
            seed=seed,
        )
    if method is Method.MC and result.method is Method.EXACT and not as_json:
        print(
            "checkraise: note: the ranges collide in almost every deal, so Monte Carlo "
            "would take too long; enumerated exactly instead",
            file=sys.stderr,
        )
    names = [s if s is not None else "random" for s in specs]
    if as_json:
        rows = [
            {
                "player": name,
                "equity": float(result.equity[i]),
                "win": float(result.win[i]),
                "tie": float(result.tie[i]),
                "stderr": float(result.stderr[i]),
            }
            for i, name in enumerate(names)
        ]
        out = {"board": board, "dead": dead, "method": str(result.method),
               "samples": result.samples, "players": rows}
        print(json.dumps(out))
        return
    detail = "boards enumerated" if result.method is Method.EXACT else "Monte Carlo deals"
    table = Table(title=f"{result.method} equity, {result.samples:,} {detail}")
    for col in ("player", "equity %", "win %", "tie %"):
        table.add_column(col, justify="left" if col == "player" else "right")
    if result.method is Method.MC:
        table.add_column("± s.e. %", justify="right")
    for i, name in enumerate(names):
        probs = (result.equity, result.win, result.tie)
        cells = [name] + [f"{100 * float(a[i]):.3f}" for a in probs]
        if result.method is Method.MC:
            cells.append(f"{100 * float(result.stderr[i]):.3f}")
        table.add_row(*cells)
    Console().print(table)


BAR_SECONDS = 1.0
"""Exact enumerations estimated to take longer than this show the estimate and a bar."""


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{max(seconds, 1):.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.0f} days"


def _exact_with_progress(
    specs: Sequence[str | None], board: str | None, dead: str | None
) -> EquityResult:
    """Exact equity; when it looks long, the estimate first and a progress bar on stderr."""
    from rich.console import Console

    from checkraise.equity import Method, equity, exact_cost
    from checkraise.equity.core import sci

    cost = exact_cost(specs, board, dead)
    if cost.seconds <= BAR_SECONDS:
        return equity(specs, board, dead, method=Method.EXACT)
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = Console(stderr=True)
    steps = sci(cost.work) if cost.work >= 1e6 else f"{cost.work:,.0f}"
    console.print(
        f"exact enumeration: {cost.runouts:,} boards, about {steps} steps, "
        f"roughly {_duration(cost.seconds)} on one core\n"
        "(Ctrl-C stops it; --samples N estimates by Monte Carlo in seconds)",
        highlight=False, soft_wrap=True,
    )
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("boards"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console) as bar:
        task = bar.add_task("exact", total=cost.runouts)
        return equity(
            specs, board, dead, method=Method.EXACT,
            progress=lambda done, _total: bar.update(task, completed=done),
        )
