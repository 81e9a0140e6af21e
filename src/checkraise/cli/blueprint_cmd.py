"""``checkraise blueprint train|pack|show``: the heads-up no-limit blueprint.

``train`` runs Pluribus-style external-sampling MCCFR on abstract HUNL into a folder
(checkpoints, resume, progress log and chart); ``pack`` rewrites a blueprint in coarser
steps for shipping; ``show`` prints and draws the
blueprint's strategy at a betting line as 13×13 grids. The library is imported inside
the commands, so ``checkraise --help`` stays light.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import typer

from checkraise.cli._options import ADDRESS_HELP, check_seed, command_line
from checkraise.cli.app import app
from checkraise.errors import ConfigError

__all__ = ["blueprint_app"]

blueprint_app = typer.Typer(
    name="blueprint",
    help="Heads-up no-limit blueprint: train it by MCCFR, show its strategy.",
    no_args_is_help=True,
)
app.add_typer(blueprint_app, name="blueprint")

# checkraise.games.holdem.PRESETS, written out so that --help does not import numpy.
PRESET_NAMES = ("tiny", "fcpa", "small", "large")
NO_LOGS = re.compile(r"(?!)")
#: The argument of ``pack`` and ``show`` (the shipped names: ``agents.blueprint.SHIPPED``,
#: not imported here to keep ``checkraise --help`` fast).
BLUEPRINT_HELP = "A training folder, a blueprint .npz, or a shipped one: minraise2, small."


@blueprint_app.command("train")
def train(
    ctx: typer.Context,
    out: Path = typer.Option(..., "--out", help="Folder for the checkpoint, blueprint and log."),
    preset: str = typer.Option(
        "small", "--preset", help=f"Action abstraction: {', '.join(PRESET_NAMES)} or a .json file."
    ),
    hours: float | None = typer.Option(None, "--hours", help="Total training time (all runs)."),
    iterations: int | None = typer.Option(
        None, "--iterations", help="Total iterations (one traversal per position)."
    ),
    abstraction: str = typer.Option("default", "--abstraction", help="Card abstraction file."),
    stack: int = typer.Option(20000, "--stack", help="Stacks in chips (ACPC: 20,000)."),
    seed: int = typer.Option(1, "--seed", callback=check_seed, help="Seed of the sampling."),
    threads: int = typer.Option(
        1, "--threads", help="Worker threads on this machine (--resume: the run's own)."
    ),
    river_table: bool = typer.Option(
        True,
        "--river-table/--no-river-table",
        help="Build the river bucket of every class first (123 MB, ~30 s): 40% faster.",
    ),
    checkpoint_minutes: float = typer.Option(
        10.0, "--checkpoint-minutes", help="Minutes between checkpoints."
    ),
    resume: bool = typer.Option(False, "--resume", help="Continue the run in --out."),
    force: bool = typer.Option(False, "--force", help="Replace an earlier run in --out."),
    backend: str = typer.Option(
        "local", "--backend", help="local (threads here) or ray (shards on Ray workers)."
    ),
    workers: int = typer.Option(2, "--workers", help="Ray workers (with --backend ray)."),
    round_iterations: int = typer.Option(
        100_000,
        "--round",
        help="With --backend ray: iterations per round (each round ships the regrets out).",
    ),
    address: str | None = typer.Option(None, "--address", help=ADDRESS_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print the final figures as JSON."),
) -> None:
    """Train a blueprint by external-sampling MCCFR with linear CFR and pruning.

    Checkpoints are written atomically every --checkpoint-minutes (and on Ctrl-C);
    --resume continues the run in --out to the same total --hours / --iterations,
    losing at most the minutes since the last checkpoint.
    """
    from rich.console import Console
    from rich.progress import BarColumn, TextColumn, TimeElapsedColumn

    from checkraise.arena.outfolder import claim_out_folder
    from checkraise.cli._progress import progress_bar
    from checkraise.games.holdem import HoldemRules, load_actions
    from checkraise.games.holdem_game import HoldemCards, HoldemGame
    from checkraise.solvers.blueprint import BlueprintTrainer
    from checkraise.solvers.blueprint_run import CHECKPOINT, RUN_FILES, RunBudget, train_in_folder

    budget = RunBudget(
        seconds=hours * 3600 if hours is not None else None,
        iterations=iterations,
        checkpoint_seconds=checkpoint_minutes * 60,
        step=round_iterations if backend == "ray" else 100_000,
    )
    if backend not in ("local", "ray"):
        raise ConfigError(f"invalid --backend {backend!r}: expected 'local' or 'ray'")
    command = command_line(ctx)
    step_fn = None
    if backend == "ray":  # checked here: a bad --workers or --address must not cost a run
        from checkraise.cli._options import open_backend
        from checkraise.solvers.blueprint_shards import ShardedStep

        step_fn = ShardedStep(open_backend("ray", workers, address), workers, round_iterations)
    if resume:
        if not (out / CHECKPOINT).exists():
            raise ConfigError(
                f"--resume: {out / CHECKPOINT} does not exist; expected an earlier run"
            )
        # the run's own worker count unless --threads is given: a run is the same
        # for a given seed and number of workers, so resuming keeps it by default
        given = ctx.get_parameter_source("threads")
        keep = given is None or given.name == "DEFAULT"
        trainer = BlueprintTrainer.load(out / CHECKPOINT, threads=None if keep else threads)
    else:
        # every option is checked before --force may remove an earlier run's files
        game = HoldemGame(load_actions(preset), HoldemRules(stack=stack), HoldemCards(abstraction))
        trainer = BlueprintTrainer(game, seed=seed or 0, threads=threads)
        claim_out_folder(out, RUN_FILES, NO_LOGS, force=force, command="blueprint train")
    if river_table and backend == "local":
        trainer.use_river_table()
    console = Console(stderr=True)
    figures: dict[str, Any] = {}
    # the bar counts seconds of a --hours budget, else iterations
    unit, scale = (("s of training", budget.seconds) if budget.seconds is not None
                   else ("iterations", float(budget.iterations or 1)))
    with progress_bar(
        TextColumn("[bold]training"),
        BarColumn(),
        TextColumn("{task.description}"),
        TimeElapsedColumn(),
        label="training",
        unit=unit,
        console=console,
        disable=as_json,
    ) as bar:
        def share(t: BlueprintTrainer) -> float:
            done = 0.0
            if budget.seconds is not None:
                done = t.seconds / budget.seconds
            if budget.iterations is not None:
                done = max(done, t.iteration / budget.iterations)
            return min(done, 1.0)

        task = bar.add_task("", total=round(scale), completed=round(share(trainer) * scale))
        last = [trainer.iteration, trainer.seconds]

        def on_step(t: BlueprintTrainer) -> None:
            done = share(t)
            spent = t.seconds - last[1]
            rate = (t.iteration - last[0]) / spent if spent > 0 else 0.0
            last[:] = [t.iteration, t.seconds]
            touched = f"  {figures['touched']:,} info sets touched" if "touched" in figures else ""
            bar.update(
                task,
                completed=round(done * scale),
                description=(
                    f"{t.iteration:,} it  {rate:,.0f} it/s  {t.memory_bytes / 2**20:,.0f} MiB"
                    + touched
                ),
            )

        def on_checkpoint(row: dict[str, Any]) -> None:
            figures.update(row)
            if not as_json:
                bar.console.print(
                    f"checkpoint: {row['iteration']:,} iterations, "
                    f"{row['touched']:,}/{row['infosets']:,} information sets touched, "
                    f"regret proxy {row['regret_proxy']:.3g}"
                )

        _stop_on_signals()
        train_in_folder(
            out,
            trainer,
            budget,
            command=command,
            on_step=on_step,
            on_checkpoint=on_checkpoint,
            step_fn=step_fn,
        )
    figures["folder"] = str(out)
    if as_json:
        print(json.dumps(figures))
    else:
        print(
            f"blueprint: {out / 'blueprint.npz'} ({figures['iteration']:,} iterations, "
            f"{figures['seconds']:,.0f} s)"
        )


def _stop_on_signals() -> None:
    """SIGTERM, and SIGINT even in a background job (where the shell ignores it), stop
    the run as Ctrl-C does: the work done so far is checkpointed before the exit."""
    import signal

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)


@blueprint_app.command("pack")
def pack(
    ctx: typer.Context,
    blueprint: str = typer.Argument(..., help=BLUEPRINT_HELP),
    out: Path = typer.Option(..., "--out", help="The packed blueprint .npz to write."),
    steps: int = typer.Option(
        255, "--steps", help="Each probability in steps of 1/STEPS: 255 (uint8) or 65535."
    ),
    force: bool = typer.Option(False, "--force", help="Replace an existing --out file."),
    as_json: bool = typer.Option(False, "--json", help="Print the sizes and error as JSON."),
) -> None:
    """Rewrite a blueprint with coarser probabilities, for shipping or copying.

    With --steps 255 each probability is kept to within 1/255 (plus the source's own
    1/65535) and each row's last action is left out (the steps the others leave): a
    large blueprint's file shrinks to about a third. The header keeps the training
    command and records this one.
    """
    import numpy as np

    from checkraise.agents.blueprint import load_blueprint, resolve_blueprint
    from checkraise.solvers.blueprint import STEPS, Blueprint

    if steps not in STEPS:
        raise ConfigError(f"invalid --steps {steps}: expected one of {', '.join(map(str, STEPS))}")
    source = resolve_blueprint(blueprint)
    if not out.parent.is_dir():
        raise ConfigError(f"--out {out}: folder {out.parent} does not exist; expected a folder")
    if out.exists() and not force:
        raise ConfigError(f"--out {out} exists; expected a new file (or --force to replace it)")
    if out.resolve() == source.resolve():
        raise ConfigError(f"--out {out} is the blueprint being packed; expected another file")
    bp = load_blueprint(source)
    packed = Blueprint(bp.game, bp.strategy, dict(bp.header, packed_by=command_line(ctx)))
    packed.save(out, steps=steps)  # atomic: a killed run leaves no half-written file
    back = Blueprint.load(out)
    size, source_size = out.stat().st_size, source.stat().st_size
    change = float(np.abs(back.strategy - bp.strategy).max())
    figures: dict[str, Any] = {
        "source": str(source),
        "out": str(out),
        "steps": steps,
        "source_bytes": source_size,
        "bytes": size,
        "max_error": change,
    }
    if as_json:
        print(json.dumps(figures))
        return
    print(
        f"{out}: {size / 1e6:.1f} MB (from {source_size / 1e6:.1f} MB), "
        f"probabilities in steps of 1/{steps}, largest change {change:.6f}"
    )


@blueprint_app.command("show")
def show(
    blueprint: str = typer.Argument(..., help=BLUEPRINT_HELP),
    line: str = typer.Option("", "--line", help="ACPC betting line, e.g. 'r250c/' ('' = root)."),
    board: str = typer.Option("", "--board", help="The board for a postflop line, e.g. 'Ks7d2c'."),
    out: Path | None = typer.Option(
        None, "--out", help="PNG path (default: blueprint_<line>.png)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the per-class strategy as JSON."),
) -> None:
    """Print the blueprint's strategy at a betting line as 13×13 grids and draw it as a PNG.

    Each class is the mean of its combos weighted by how often the actor's own strategy
    takes the line with them (on --board for the streets after the preflop).
    """
    from checkraise.agents.blueprint import load_blueprint
    from checkraise.cards import parse_cards
    from checkraise.solvers.blueprint_view import blueprint_table
    from checkraise.solvers.spot.grid import grid_text, save_strategy_png

    bp = load_blueprint(blueprint)
    cards = tuple(parse_cards(board)) if board.strip() else ()
    table, freq, node = blueprint_table(bp, line, cards)
    tree = bp.game.tree
    who = "button (small blind)" if tree.player[node] == 0 else "big blind"
    if out is None:
        slug = re.sub(r"[^A-Za-z0-9]+", "_", tree.lines[node]).strip("_") or "root"
        out = Path(f"blueprint_{slug}.png")
    title = f"blueprint at '{tree.lines[node]}' — {who} to act"
    if cards:
        title += f" on {board}"
    save_strategy_png(table, freq, out, title)
    if as_json:
        print(
            json.dumps(
                {
                    "line": tree.lines[node],
                    "actor": int(tree.player[node]),
                    "actions": list(table.labels),
                    "frequencies": {a: float(f) for a, f in zip(table.labels, freq, strict=True)},
                    "classes": table.rows(),
                    "png": str(out),
                }
            )
        )
        return
    print(title)
    print(
        "range: "
        + ", ".join(f"{a} {100 * f:.1f}%" for a, f in zip(table.labels, freq, strict=True))
    )
    print(grid_text(table))
    print(f"picture: {out}")
