"""``checkraise nn river``: DeepStack's value network on the hold'em river (and turn).

``generate`` solves random river situations on exact cards into ``.npz`` chunks
(resumable, on the execution backend; ``--street turn``: turn situations, solved turn
and river), ``train`` fits the network over the card abstraction's river (turn)
buckets and draws its loss curves, ``eval`` measures it on situations it never saw
and, for a river network, as the leaf values of depth-limited turn subgames against
exact turn-and-river solves. The library (numpy, numba, torch) is imported inside the
commands.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import typer

from checkraise.cli._options import (
    ADDRESS_HELP,
    BACKEND_HELP,
    check_positive,
    check_seed,
    command_line,
)
from checkraise.cli._progress import stderr_bar
from checkraise.cli.nn_cmd import nn_app
from checkraise.cli.nn_values_cmd import plot_losses
from checkraise.errors import ConfigError

__all__ = ["river_app"]

river_app = typer.Typer(
    name="river",
    help="DeepStack's value network on the hold'em river (or turn): data, training, "
         "evaluation.",
    no_args_is_help=True,
)
nn_app.add_typer(river_app, name="river")


@river_app.command("generate")
def generate_cmd(
    ctx: typer.Context,
    situations: int = typer.Option(..., "--situations", help="Situations to solve in all."),
    out: Path = typer.Option(..., "--out", help="Folder of the chunks (resumes if present)."),
    seed: int = typer.Option(0, "--seed", callback=check_seed, help="Seed of the situations."),
    accuracy: float = typer.Option(0.3, "--accuracy",
                                   help="Exploitability each solve stops at, % of the pot."),
    max_iterations: int = typer.Option(400, "--max-iterations",
                                       help="Iterations a solve stops at otherwise."),
    chunk_size: int = typer.Option(100, "--chunk-size", help="Situations per chunk file."),
    street: str = typer.Option("river", "--street", help="river (5 board cards), or turn "
                               "(4; each solved exactly, turn and river)."),
    workers: int = typer.Option(1, "--workers", help="Processes (or Ray tasks at once)."),
    backend: str = typer.Option("local", "--backend", help=BACKEND_HELP),
    address: str | None = typer.Option(None, "--address", help=ADDRESS_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print machine-readable JSON."),
) -> None:
    """Solve random river (or turn) situations: random boards, stacks and recursive
    random ranges.

    Chunk k depends only on (--seed, k), not on the backend or the workers; a killed
    run continues where it stopped with the same settings and gives the same data.
    """
    from checkraise.nn.river_data import RiverDataSettings, generate

    for option, value in (("--situations", situations), ("--max-iterations", max_iterations),
                          ("--chunk-size", chunk_size), ("--workers", workers)):
        check_positive(option, value)
    settings = RiverDataSettings(situations, seed, accuracy, max_iterations, chunk_size,
                                 street)
    start = time.perf_counter()
    with stderr_bar("situations", situations) as bar:
        task = bar.task_ids[0]
        written = generate(out, settings, workers=workers, backend=backend, address=address,
                           progress=lambda n: bar.update(task, advance=n))
    seconds = time.perf_counter() - start
    report = {"situations": situations, "written": written, "seed": seed, "out": str(out),
              "street": street,
              "seconds": round(seconds, 1), "command": command_line(ctx)}
    if as_json:
        print(json.dumps(report))
    else:
        print(f"{written} situations solved into {out} ({seconds:.1f} s); "
              f"{situations} in the folder's settings")


@river_app.command("train")
def train_cmd(
    ctx: typer.Context,
    data: Path = typer.Option(..., "--data", help="A folder written by generate."),
    out: Path = typer.Option(..., "--out", help="The model file (.npz); the PNG goes beside."),
    epochs: int = typer.Option(60, "--epochs", help="Passes over the training part."),
    seed: int = typer.Option(0, "--seed", callback=check_seed, help="Split, weights, batches."),
    hidden: str = typer.Option("256,256,256", "--hidden", help="Hidden layer widths."),
    batch_size: int = typer.Option(256, "--batch-size", help="Situations per Adam step."),
    lr: float = typer.Option(1e-3, "--lr", help="Adam's step size."),
    threads: int = typer.Option(1, "--threads", help="torch's threads."),
    as_json: bool = typer.Option(False, "--json", help="Print machine-readable JSON."),
) -> None:
    """Train the river (or turn, by the data) network (Huber loss, zero-sum outputs) and
    plot its loss curves."""
    check_positive("--epochs", epochs)
    check_positive("--batch-size", batch_size)
    check_positive("--threads", threads)
    try:
        widths = tuple(int(w) for w in hidden.split(","))
    except ValueError:
        raise ConfigError(f"invalid --hidden {hidden!r}: expected widths like 256,256") from None
    if out.parent != Path() and not out.parent.is_dir():
        raise ConfigError(f"folder {str(out.parent)!r} of --out does not exist")
    from checkraise.nn.river_data import load_situations
    from checkraise.nn.river_values import train_river
    from checkraise.nn.values import TrainSettings

    settings = TrainSettings(hidden=widths, epochs=epochs, batch_size=batch_size,
                             learning_rate=lr, seed=seed, threads=threads)
    situations, data_settings = load_situations(data)
    n = int(situations["spr"].shape[0])
    with stderr_bar("epochs", epochs) as bar:
        task = bar.task_ids[0]
        result = train_river(
            situations, settings, out, command=command_line(ctx),
            progress=lambda e, _n, _t, _v: bar.update(task, completed=e),
            data_info={"situations": n, "seed": data_settings.seed,
                       "accuracy": data_settings.accuracy,
                       "max_iterations": data_settings.max_iterations,
                       "street": data_settings.street})
    png = out.with_suffix(".png")
    plot_losses(png, result.train_loss, result.valid_loss,
                f"Hold'em {data_settings.street} value network", "shares of the pot")
    report = {"model": str(out), "plot": str(png), "situations": n,
              "train_loss": result.train_loss[-1], "valid_loss": result.valid_loss[-1],
              "valid_mae": result.valid_mae, "epochs": epochs, "seconds": result.seconds}
    if as_json:
        print(json.dumps(report))
    else:
        print(f"wrote {out} and {png}: train loss {result.train_loss[-1]:.2e}, held-out "
              f"{result.valid_loss[-1]:.2e}, held-out error {result.valid_mae:.4f} of the pot "
              f"per bucket after {epochs} epochs ({result.seconds:.0f} s)")


@river_app.command("eval")
def eval_cmd(
    data: Path = typer.Option(..., "--data", help="River (turn) situations the network never "
                              "saw (a generate folder of another seed)."),
    model: str = typer.Option("default", "--model", help="A network file, default (the "
                              "packaged river network) or turn (the packaged turn one)."),
    turn_spots: int = typer.Option(0, "--turn-spots", help="A river network: also solve this "
                                   "many random turn spots exactly and depth-limited with it."),
    flop_spots: int = typer.Option(0, "--flop-spots", help="A turn network: also solve this "
                                   "many random flop spots exactly and depth-limited with it."),
    seed: int = typer.Option(0, "--seed", callback=check_seed, help="Seed of the spots."),
    as_json: bool = typer.Option(False, "--json", help="Print machine-readable JSON."),
) -> None:
    """The network's error per hand on unseen river (turn) situations, against two
    baselines, and (--turn-spots with a river network, --flop-spots with a turn network)
    depth-limited solves of the street before with it against exact ones."""
    from checkraise.nn.river_eval import evaluate_depth_limited, evaluate_river
    from checkraise.nn.river_values import RiverValueFunction

    for option, count in (("--turn-spots", turn_spots), ("--flop-spots", flop_spots)):
        if count < 0:
            raise ConfigError(f"invalid {option} {count}: expected 0 or more")
    function = RiverValueFunction(model)
    for option, count, street in (("--turn-spots", turn_spots, "river"),
                                  ("--flop-spots", flop_spots, "turn")):
        if count > 0 and function.street != street:
            raise ConfigError(f"{option} needs a {street} network; {function.path} is a "
                              f"{function.street} network")
    report: dict[str, Any] = {"model": str(function.path), "street": function.street,
                              "river": evaluate_river(function, data)}
    spots, before = (turn_spots, "turn") if function.street == "river" else (flop_spots, "flop")
    if spots > 0:
        with stderr_bar(f"{before} spots", spots) as bar:
            task = bar.task_ids[0]
            report[before] = evaluate_depth_limited(
                function, spots, seed, progress=lambda: bar.update(task, advance=1))
    if as_json:
        print(json.dumps(report))
        return
    river = report["river"]
    print(f"{river['situations']} unseen {function.street} situations, mean |error| per hand "
          f"(shares of the pot, weighted by how much each hand counts):")
    for name, value in river["errors"].items():
        print(f"  {name:32s} {value:.4f}")
    if spots > 0:
        t = report[before]
        print(f"{t['spots']} {before} spots, depth-limited with the network against exact "
              f"(to the river): root value gap {t['value_gap_pct']:.2f} % of the pot, "
              f"strategy gap {t['strategy_gap']:.3f} (mean total variation)")
