"""``checkraise spot solve|show|example``: the postflop solver on real cards.

``solve`` reads a spot from a TOML/JSON file, from flags, or from both (flags win),
solves it to a target exploitability and saves the solution; ``show`` prints the
strategy at a node of a saved solution as 13×13 grids, with EV and equity per hand
class, and draws it as a coloured PNG; ``example`` writes a spot file to start from.
The library is imported inside the commands, so ``checkraise --help`` stays light.
"""

from __future__ import annotations

import json
import re
import resource
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from checkraise.cli._options import command_line, given_options
from checkraise.cli.app import app
from checkraise.errors import ConfigError

if TYPE_CHECKING:
    from checkraise.solvers.spot.config import Spot
    from checkraise.solvers.spot.solver import SpotSolver

__all__ = ["EXAMPLE_SPOT", "spot_app"]

spot_app = typer.Typer(
    name="spot",
    help="Postflop solver on real cards: solve a spot, show its strategy, write an example.",
    no_args_is_help=True,
)
app.add_typer(spot_app, name="spot")

# checkraise.solvers.spot.solver.SOLVER_ALGORITHMS and PRECISIONS, written out so that
# `--help` does not import the solver (tests/cli/test_spot_cmd.py checks that they agree).
ALGORITHM_NAMES = ("dcfr", "cfr+")
PRECISION_NAMES = ("float32", "float64")
SPOT_FILE = "spot.toml"
NO_LOGS = re.compile(r"(?!)")  # the spot commands write no hand logs

EXAMPLE_SPOT = """\
# A turn spot for `checkraise spot solve` (every field: `checkraise spot solve --help`).
# Single-raised pot, the button (IP) against the big blind (OOP), 100 big blinds deep.
board = "Qs Jh 2h 4d"
pot = 50                # chips in the pot when the spot starts (big blind = 10)
stack = 200             # effective stack behind, in chips
big_blind = 10          # the smallest bet; raises follow the ACPC minimum-raise rule
allin_threshold = 0.67  # a bet leaving less than 67% of the pot behind goes all-in
raise_cap = 3           # raises per street after the first bet

[ranges]                # range notation, weights allowed ("A5s:0.5")
oop = "JJ-22,AQs-A2s,KTs+,Q9s+,J9s+,T9s,98s,87s,AQo-ATo,KJo+"
ip = "QQ-22,AQs-A2s,KTs+,QTs+,JTs,T9s,98s,AJo-ATo,KQo"

[sizes]                 # % of the pot, for every street and both players ...
bet = [50, 100]
raise = [100]
allin = true

[sizes.river.ip]        # ... unless a street and player has its own table
bet = [33, 75]

[sizes.river.oop]
donk = [50]             # OOP's lead into the last bettor of the turn
"""


def _peak_memory_mb() -> float:
    kilobytes = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # Linux reports kilobytes, macOS bytes.
    return kilobytes / (2**20 if sys.platform == "darwin" else 1024.0)


# What a resumed run takes from its folder, so the user may not give it again.
RESUME_FIXED = ("spot_file", "board", "pot", "stack", "oop_range", "ip_range", "bet_sizes",
                "raise_sizes", "donk_sizes", "allin", "allin_threshold", "raise_cap",
                "big_blind", "algorithm", "precision")


def build_spot(
    file: Path | None,
    *,
    board: str | None = None,
    pot: int | None = None,
    stack: int | None = None,
    oop_range: str | None = None,
    ip_range: str | None = None,
    bet_sizes: str | None = None,
    raise_sizes: str | None = None,
    donk_sizes: str | None = None,
    allin: bool | None = None,
    allin_threshold: float | None = None,
    raise_cap: int | None = None,
    big_blind: int | None = None,
) -> Spot:
    """The spot of ``file`` (if any) with every given flag written over its field.

    A size flag sets that size for every street and both players (``donk``: OOP
    only), replacing the file's per-street tables for that kind of size.
    """
    from checkraise.solvers.spot.config import PLAYERS, STREETS, Spot, load_spot

    if file is not None:
        table: dict[str, Any] = load_spot(file).to_dict()
    else:
        missing = [flag for flag, value in (("--board", board), ("--pot", pot),
                                            ("--stack", stack), ("--oop-range", oop_range),
                                            ("--ip-range", ip_range)) if value is None]
        if missing:
            raise ConfigError(
                f"no SPOT file and no {', '.join(missing)}; expected a SPOT.toml (write one "
                "with `checkraise spot example`) or --board, --pot, --stack, --oop-range "
                "and --ip-range"
            )
        table = {"ranges": {}, "sizes": {s: {p: {} for p in PLAYERS} for s in STREETS}}
    for key, value in (("board", board), ("pot", pot), ("stack", stack),
                       ("allin_threshold", allin_threshold), ("raise_cap", raise_cap),
                       ("big_blind", big_blind)):
        if value is not None:
            table[key] = value
    if oop_range is not None:
        table["ranges"]["oop"] = oop_range
    if ip_range is not None:
        table["ranges"]["ip"] = ip_range
    for street in STREETS:
        for player in PLAYERS:
            sizes = table["sizes"][street][player]
            for key, value in (("bet", bet_sizes), ("raise", raise_sizes), ("allin", allin)):
                if value is not None:
                    sizes[key] = value
            if donk_sizes is not None and player == "oop":
                sizes["donk"] = donk_sizes
    return Spot.from_dict(table)


@spot_app.command("solve")
def solve_command(
    ctx: typer.Context,
    spot_file: Path | None = typer.Argument(
        None, metavar="SPOT", help="Spot file (.toml or .json); flags override its fields."
    ),
    board: str | None = typer.Option(None, "--board", help="Board cards, e.g. Qs,Jh,2h,4d."),
    pot: int | None = typer.Option(None, "--pot", help="Chips in the pot at the start."),
    stack: int | None = typer.Option(None, "--stack", help="Effective stack behind, in chips."),
    oop_range: str | None = typer.Option(None, "--oop-range", help="OOP's range, e.g. 22+,AJs+."),
    ip_range: str | None = typer.Option(None, "--ip-range", help="IP's range."),
    bet_sizes: str | None = typer.Option(
        None, "--bet-sizes", help="Bet sizes in % of the pot, every street and player: 50,100."
    ),
    raise_sizes: str | None = typer.Option(
        None, "--raise-sizes", help="Raise sizes in % of the pot after calling: 100."
    ),
    donk_sizes: str | None = typer.Option(
        None, "--donk-sizes", help="OOP's leads into the last bettor, % of the pot: 33."
    ),
    allin: bool | None = typer.Option(
        None, "--allin/--no-allin", help="Whether all-in is always an action."
    ),
    allin_threshold: float | None = typer.Option(
        None, "--allin-threshold",
        help="A bet leaving less than this fraction of the pot behind goes all-in: 0.67.",
    ),
    raise_cap: int | None = typer.Option(None, "--raise-cap", help="Raises per street."),
    big_blind: int | None = typer.Option(None, "--big-blind", help="The smallest bet in chips."),
    accuracy: float = typer.Option(
        0.5, "--accuracy", help="Stop at this exploitability, in % of the pot."
    ),
    max_iterations: int = typer.Option(
        1000, "--max-iterations", help="Stop after N iterations (a resumed run's count too)."
    ),
    max_seconds: float | None = typer.Option(
        None, "--max-seconds", help="Stop after this many seconds."
    ),
    threads: int = typer.Option(1, "--threads", help="Cores to use."),
    algorithm: str = typer.Option(
        "dcfr", "--algorithm", help=f"Algorithm: {', '.join(ALGORITHM_NAMES)}."
    ),
    precision: str = typer.Option(
        "float64", "--precision",
        help="Storage of the solver's buffers: float64, or float32 for half the memory.",
    ),
    check_every: int = typer.Option(
        10, "--check-every", help="Measure the exploitability every N iterations."
    ),
    out: Path | None = typer.Option(
        None, "--out", help="Folder for the solution (solution.npz, solution.json, spot.toml)."
    ),
    small: bool = typer.Option(
        False, "--save-float32", help="Save the solution in float32: half the file size."
    ),
    force: bool = typer.Option(False, "--force", help="Replace a solution already in --out."),
    resume: Path | None = typer.Option(
        None, "--resume",
        help="Iterate on the solution in this folder and save it back (or into --out).",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print machine-readable JSON."),
) -> None:
    """Solve a postflop spot to a target exploitability (% of the pot) and save it.

    The spot comes from a TOML/JSON file (`checkraise spot example` writes one), from the
    flags, or both: a flag overrides the file's field, and a size flag sets that size on
    every street for both players. Exploitability is the mean of the two players'
    best-response gains, in % of the starting pot. --resume DIR iterates on a saved
    solution exactly where it stopped.
    """
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from checkraise.arena.outfolder import claim_out_folder
    from checkraise.cli._progress import progress_bar
    from checkraise.solvers.spot.io import SOLUTION_FILES, load_solution, save_solution
    from checkraise.solvers.spot.solver import SpotSolver

    if max_iterations < 1 or check_every < 1:
        raise ConfigError(
            f"--max-iterations {max_iterations}, --check-every {check_every}; expected >= 1"
        )
    if max_seconds is not None and not max_seconds > 0:
        raise ConfigError(f"--max-seconds {max_seconds}; expected a time > 0")
    if resume is not None:
        given = given_options(ctx, RESUME_FIXED)
        if given:
            raise ConfigError(
                f"--resume continues the saved spot with its own settings; drop {', '.join(given)}"
            )
        solver, info = load_solution(resume, threads=threads)
        earlier = info.command
        spot = solver.spot
        if out is None:
            out = resume  # the run goes on where it is kept
        elif out.resolve() != resume.resolve():
            claim_out_folder(out, [*SOLUTION_FILES, SPOT_FILE], NO_LOGS, force=force,
                             command="spot solve")
    else:
        earlier = None
        spot = build_spot(
            spot_file, board=board, pot=pot, stack=stack, oop_range=oop_range,
            ip_range=ip_range, bet_sizes=bet_sizes, raise_sizes=raise_sizes,
            donk_sizes=donk_sizes, allin=allin, allin_threshold=allin_threshold,
            raise_cap=raise_cap, big_blind=big_blind,
        )
        if out is not None:
            claim_out_folder(out, [*SOLUTION_FILES, SPOT_FILE], NO_LOGS, force=force,
                             command="spot solve")
        solver = SpotSolver(spot, algorithm=algorithm, precision=precision, threads=threads)
    console = Console(stderr=True)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())
    with progress_bar(*columns, label="solving", unit="iterations", console=console,
                      transient=as_json) as bar:
        task = bar.add_task("solving", total=max_iterations, completed=solver.iteration)

        def progress(iteration: int, exploitability: float) -> None:
            bar.update(task, completed=iteration,
                       description=f"exploitability {exploitability:.3f}% of the pot")

        exploit = solver.solve(accuracy=accuracy, max_iterations=max_iterations,
                               max_seconds=max_seconds, check_every=check_every,
                               progress=progress)
        if exploit <= accuracy:  # the target is met: the bar ends full, not at 90/1000
            bar.update(task, total=solver.iteration, completed=solver.iteration)
    if out is not None:
        command = command_line(ctx) if earlier is None else f"{earlier} && {command_line(ctx)}"
        save_solution(solver, out, exploitability_pct=exploit, command=command,
                      dtype="float32" if small else "float64")
        (out / SPOT_FILE).write_text(spot.to_toml(), encoding="utf-8")
    result: dict[str, Any] = {
        "exploitability_pct": exploit,
        "iterations": solver.iteration,
        "seconds": round(solver.seconds, 3),
        "peak_memory_mb": round(_peak_memory_mb(), 1),
        "out": None if out is None else str(out),
        "target_pct": accuracy,
        "tree_nodes": solver.tree.num_nodes,
        "hands": list(solver.hands),
        "memory_mb": solver.describe()["memory_mb"],
        "threads": threads,
        "algorithm": solver.algorithm,
        "precision": solver.precision,
    }
    if as_json:
        print(json.dumps(result))
        return
    board_text = " ".join(spot.to_dict()["board"].split())
    print(f"{board_text}, pot {spot.pot}, stack {spot.stack}: exploitability {exploit:.3f}% "
          f"of the pot (target {accuracy:g}) after {solver.iteration} iterations, "
          f"{solver.seconds:.2f} s; {solver.tree.num_nodes} tree nodes, "
          f"{solver.hands[0]} x {solver.hands[1]} hands, "
          f"peak memory {result['peak_memory_mb']:.0f} MB")
    report = solver.report("")
    freqs = ", ".join(f"{a} {100 * f:.1f}%" for a, f in zip(report.labels, report.frequencies,
                                                            strict=True))
    print(f"OOP at the root: {freqs}")
    if out is not None:
        print(f"wrote {out}; look at a node with: checkraise spot show {shlex.quote(str(out))} "
              "--line \"x\"")


def _png_name(line: str) -> str:
    slug = "-".join(line.split()) or "root"
    return f"strategy-{slug}.png"


def _check_decision(solver: SpotSolver, line: str) -> None:
    """Say which card to add when ``line`` stops where the turn or river is dealt."""
    from checkraise.cards import format_card
    from checkraise.solvers.spot.tree import CHANCE

    at = solver.locate(line)
    if solver.tree.kind[at.node] == CHANCE:
        card = next(c for c in range(51, -1, -1) if not (at.dealt >> c) & 1)
        street = "turn" if len(at.board) == 3 else "river"
        raise ConfigError(
            f"line {line!r} stops where the {street} is dealt; expected a card next, e.g. "
            f"--line \"{line.strip()} {format_card(card)}\""
        )


@spot_app.command("show")
def show_command(
    folder: Path = typer.Argument(..., help="A solution folder (`spot solve --out`)."),
    line: str = typer.Option(
        "", "--line", help='The node: actions and dealt cards, e.g. "b50 c Kd x" (root: "").'
    ),
    png: Path | None = typer.Option(
        None, "--png", help="PNG to write (default: strategy-<line>.png in the folder)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print machine-readable JSON."),
) -> None:
    """Print the strategy at a node as 13x13 grids, with EV and equity per hand class.

    A class's numbers are the means of its combos weighted by the actor's reach at the
    node. The PNG splits each cell into coloured bars by action frequency.
    """
    from checkraise.solvers.spot.grid import (
        action_name,
        board_text,
        class_table,
        grid_text,
        save_strategy_png,
    )
    from checkraise.solvers.spot.io import load_solution

    solver, info = load_solution(folder)
    _check_decision(solver, line)
    report = solver.report(line)
    table = class_table(report)
    actor = ("OOP", "IP")[report.actor]
    where = f"after {line!r}" if line.strip() else "at the root"
    title = f"{actor} {where}, board {board_text(report.board)}"
    target = png if png is not None else folder / _png_name(line)
    save_strategy_png(table, report.frequencies, target, title)
    if as_json:
        print(json.dumps({
            "line": line,
            "board": board_text(report.board),
            "actor": actor,
            "labels": list(report.labels),
            "frequencies": {a: float(f) for a, f in zip(report.labels, report.frequencies,
                                                        strict=True)},
            "classes": table.rows(),
            "exploitability_pct": info.exploitability_pct,
            "png": str(target),
        }))
        return
    exploit = "" if info.exploitability_pct is None else (
        f" (solution exploitability {info.exploitability_pct:.3f}% of the pot)")
    print(f"{title}{exploit}")
    print("range: " + ", ".join(f"{a} ({action_name(a)}) {100 * f:.1f}%"
                                for a, f in zip(report.labels, report.frequencies, strict=True)))
    print()
    print(grid_text(table))
    print()
    print("per class (weights: the actor's reach here); EV in chips from here on, winning the "
          "pot counting the starting pot and the other's chips put in since the start")
    head = "".join(f"{a:>7}" for a in report.labels)
    print(f"class  combos{head}      EV  equity")
    for row in table.rows():
        strat = "".join(f"{100 * v:6.1f}%" for v in row["strategy"].values())
        ev = "       -" if row["ev"] is None else f"{row['ev']:8.2f}"
        equity = "      -" if row["equity"] is None else f"{100 * row['equity']:6.1f}%"
        print(f"{row['class']:5s} {row['combos']:7.2f}{strat} {ev}  {equity}")
    print(f"wrote {target}")


@spot_app.command("example")
def example_command(
    path: Path = typer.Argument(Path(SPOT_FILE), help="Where to write the spot file."),
    force: bool = typer.Option(False, "--force", help="Replace the file if it exists."),
) -> None:
    """Write an example spot file (a turn spot, 100 big blinds deep) to edit and solve."""
    from checkraise.arena.outfolder import OutFolderError

    if path.exists() and not force:
        raise OutFolderError(f"{path} exists: pass --force to replace it, or choose another path")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(EXAMPLE_SPOT, encoding="utf-8")
    print(f"wrote {path}; solve it with: checkraise spot solve {shlex.quote(str(path))} "
          "--accuracy 0.5 --out spot-out")
