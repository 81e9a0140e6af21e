"""``checkraise equity``: all-in equity of hands and ranges, exact or Monte Carlo."""

from __future__ import annotations

import json

import typer

from checkraise.cli.main import app

# The equity kernels (numba) and rich are imported inside the command: `--help` stays light.


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
    seed: int = typer.Option(0, "--seed", help="Seed for Monte Carlo."),
    as_json: bool = typer.Option(False, "--json", help="Print machine-readable JSON."),
) -> None:
    """Equity (win + tie share), win and tie of each player; exact when small, else MC."""
    from rich.console import Console
    from rich.table import Table

    from checkraise.equity import Method, equity

    specs: list[str | None] = list(players)
    if num_players:
        if num_players < len(specs):
            raise ValueError(f"--players {num_players} is fewer than the {len(specs)} given")
        specs += [None] * (num_players - len(specs))
    if exact and samples:
        raise ValueError("--exact and --samples exclude each other")
    method = Method.EXACT if exact else (Method.MC if samples else Method.AUTO)
    result = equity(
        specs, board or None, dead or None, method=method, samples=samples or None, seed=seed
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
