"""``checkraise nn opponent generate|import|train|eval``: the CNN opponent model, data to table.

``generate`` plays heads-up hands between a pool of our bots into a folder of
``.npz`` chunks (resumable; with ``--db`` through a hand database); ``import`` turns
a hand database's heads-up hands into such a folder; ``train`` fits the network on
the decisions of every bot but the held-out ones; ``eval`` scores it and three
baselines on the held-out bots. Torch and numpy are imported inside the commands.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from checkraise.cli._options import check_seed, command_line
from checkraise.cli.nn_cmd import nn_app
from checkraise.errors import ConfigError

if TYPE_CHECKING:
    import sqlite3

__all__ = ["opponent_app"]

opponent_app = typer.Typer(
    name="opponent",
    help="The CNN opponent model: generate or import decisions, train, evaluate on unseen bots.",
    no_args_is_help=True,
)
nn_app.add_typer(opponent_app, name="opponent")

TEST_HELP = ("Held-out bots, comma-separated specs or player names as in the data's pool; "
             "default: heuristic:profile=multiway, the tight equity bot, the passive random "
             "bot, handreader.")


def _test_bots(text: str | None, names: tuple[str, ...]) -> tuple[str, ...]:
    """The held-out bots of ``--test``: the data's player ``names`` as written, else bot specs."""
    from checkraise.analysis.opponent_eval import DEFAULT_TEST_BOTS

    if text is None:
        return DEFAULT_TEST_BOTS
    # Imported players are named as in their hand histories, which bot specs do not parse
    # ("equity_raise_ratio=2" reads as an option): names of the data are taken as they are.
    plain = tuple(part.strip() for part in text.split(",") if part.strip())
    if plain and all(part in names for part in plain):
        return plain
    bots = _split_specs(text)
    if not bots:
        raise ConfigError(f"invalid --test {text!r}: expected bot specs")
    return bots


def _split_specs(text: str) -> tuple[str, ...]:
    from checkraise.agents.base import split_agent_specs

    return tuple(split_agent_specs(text))


def _progress(disable: bool, label: str):  # type: ignore[no-untyped-def]
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from checkraise.cli._progress import progress_bar

    return progress_bar(TextColumn(f"[bold]{label}"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("{task.description}"), TimeElapsedColumn(),
                        label=label, unit="", disable=disable)


def _hand_decisions(paths: list[Path]):  # type: ignore[no-untyped-def]
    """The decisions of hand-history files, read through an in-memory hand database."""
    from checkraise.analysis.opponent_data import decisions_from_hands
    from checkraise.histories.database import load_hands, open_database
    from checkraise.histories.importer import import_files

    db = open_database(":memory:")
    for report in import_files(db, paths):
        if report.error:
            raise ConfigError(f"--hands {report.path}: {report.error}")
    test_set, _ = decisions_from_hands(list(load_hands(db)))
    return test_set


@opponent_app.command("generate")
def generate(
    out: Path = typer.Option(..., "--out", help="Data folder (created; resumed if it exists)."),
    seed: int = typer.Option(1, "--seed", callback=check_seed, help="Seed of every chunk."),
    chunks: int = typer.Option(100, "--chunks", help="Chunks to write."),
    hands: int = typer.Option(2000, "--hands-per-chunk", help="Hands per chunk."),
    db_path: Path | None = typer.Option(
        None, "--db", help="Hand database (SQLite, created if missing): store the hands "
        "there and build each chunk from the hands read back (the same arrays)."),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as JSON."),
) -> None:
    """Play heads-up hands between a pool of bots; store every decision (resumable).

    Stacks of 20,000 chips reset every hand, blinds 50/100. A folder that already
    holds chunks of the same settings is completed, never rewritten. With --db the
    hands also go into a hand database (each hand once, however often the run is
    resumed), and a chunk whose hands the database lacks is made again.
    """
    import time

    from checkraise.analysis.opponent_data import GenerationConfig, check_folder, missing_chunks
    from checkraise.analysis.opponent_data import generate as run

    cfg = GenerationConfig(seed=seed or 0, chunks=chunks, hands_per_chunk=hands)
    db = None if db_path is None else _open_database(db_path, create=True)
    try:
        check_folder(out, cfg)
        done = chunks - len(missing_chunks(out, cfg, db))
        before = _stored(db)
        t0 = time.perf_counter()
        total = [0]
        with _progress(as_json, "generating") as bar:
            task = bar.add_task("", total=chunks, completed=done)

            def on_chunk(i: int, n: int) -> None:
                total[0] += n
                rate = total[0] / max(time.perf_counter() - t0, 1e-9)
                bar.update(task, advance=1,
                           description=f"{total[0]:,} decisions, {rate:,.0f}/s")

            written = run(out, cfg, on_chunk, db)
        stored = _stored(db) - before
    finally:
        if db is not None:
            db.close()
    seconds = time.perf_counter() - t0
    figures = {"folder": str(out), "chunks_written": written, "decisions_written": total[0],
               "seconds": round(seconds, 1),
               "decisions_per_second": round(total[0] / seconds, 1) if seconds else 0.0}
    if db_path is not None:
        figures |= {"database": str(db_path), "hands_stored": stored}
    if as_json:
        typer.echo(json.dumps(figures))
        return
    typer.echo(f"{written} chunks, {total[0]:,} decisions in {seconds:.1f} s into {out}")
    if db_path is not None:
        typer.echo(f"{stored:,} hands stored in {db_path}")


def _open_database(path: Path, *, create: bool) -> sqlite3.Connection:
    """The hand database at ``path``; one that does not exist is refused unless ``create``."""
    from checkraise.histories.database import HandDatabaseError, open_database

    if not create and not path.exists():
        raise HandDatabaseError(f"hand database {str(path)!r} does not exist: expected a file "
                                "written by 'checkraise hands import' or 'nn opponent generate "
                                "--db'")
    return open_database(path)


def _stored(db: sqlite3.Connection | None) -> int:
    """Hands in ``db`` (0 without one)."""
    return 0 if db is None else int(db.execute("SELECT COUNT(*) FROM hands").fetchone()[0])


@opponent_app.command("import")
def import_hands(
    db_path: Path = typer.Option(
        ..., "--db", help="Hand database to read (from 'hands import', 'generate --db')."),
    out: Path = typer.Option(..., "--out", help="Data folder to write (new or empty)."),
    chunk_size: int = typer.Option(2000, "--chunk-size", help="Hands per chunk."),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as JSON."),
) -> None:
    """Turn a hand database's heads-up hands into decision chunks, one bot per player.

    The chunks are those 'generate' writes, the players' names standing for the bots
    (for train/eval --test). Hands of other sizes than heads-up (six-max ...), limit
    hands, hands whose starting stacks differ from the first one's and hands with an
    acting player's hole cards unknown are skipped and counted. The folder appears
    only when complete.
    """
    from checkraise.analysis.opponent_import import check_import, import_database

    hands = check_import(db_path, out, chunk_size)
    with _progress(as_json, "importing") as bar:
        task = bar.add_task("", total=hands)

        def on_chunk(hands: int, decisions: int) -> None:
            bar.update(task, completed=hands, description=f"{decisions:,} decisions")

        report = import_database(db_path, out, chunk_size, on_chunk)
    if as_json:
        typer.echo(json.dumps(report.to_json()))
        return
    skipped = ", ".join(f"{n:,} {why}" for why, n in report.skipped.items() if n) or "none"
    typer.echo(f"{report.used:,} of {report.hands:,} hands ({len(report.players):,} players), "
               f"{report.decisions:,} decisions in {report.chunks} chunks into {out}; "
               f"skipped: {skipped}")


@opponent_app.command("train")
def train(
    ctx: typer.Context,
    data: Path = typer.Option(..., "--data", help="Folder written by 'generate'."),
    chunks: int | None = typer.Option(None, "--chunks",
                                      help="Use the folder's first CHUNKS chunks only."),
    out: Path = typer.Option(..., "--out", help="Model file (.npz); a .png of the curves beside."),
    test: str | None = typer.Option(None, "--test", help=TEST_HELP),
    epochs: int = typer.Option(3, "--epochs", help="Epochs."),
    max_train: int | None = typer.Option(None, "--max-train",
                                         help="Train on a seeded sample of this many decisions."),
    batch: int = typer.Option(256, "--batch", help="Batch size."),
    lr: float = typer.Option(2e-3, "--lr", help="Adam learning rate."),
    channels: str = typer.Option("16,32", "--channels", help="Channels of the two convolutions."),
    dropout: float = typer.Option(0.3, "--dropout", help="Dropout before the linear head."),
    seed: int = typer.Option(1, "--seed", callback=check_seed, help="Seed of init and shuffles."),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as JSON."),
) -> None:
    """Train the CNN on every bot's decisions but the held-out ones (checkpoint per epoch).

    Run again with the same options to resume from the checkpoint <out stem>.ckpt.npz.
    """
    from checkraise.analysis.opponent_data import data_command, load_decisions
    from checkraise.analysis.opponent_eval import split_by_bot
    from checkraise.nn.io import require_torch
    from checkraise.nn.opponent_cnn import CnnConfig, TrainConfig
    from checkraise.nn.opponent_cnn import train as fit

    try:
        c1, c2 = (int(x) for x in channels.split(","))
    except ValueError as exc:
        raise ConfigError(f"invalid --channels {channels!r}: expected two integers 'A,B'") \
            from exc
    cfg = CnnConfig(c1, c2, dropout)
    tcfg = TrainConfig(epochs=epochs, batch_size=batch, lr=lr, seed=seed or 0,
                       max_train=max_train)
    torch = require_torch()
    torch.set_num_threads(1)
    ds = load_decisions(data, chunks)
    bots = _test_bots(test, ds.names)
    train_set, held = split_by_bot(ds, bots)
    command = command_line(ctx)
    gen_cmd = data_command(data, chunks)
    with _progress(as_json, "training") as bar:
        task = bar.add_task("", total=None)
        epoch = [0]

        def on_batch(i: int, n: int, loss: float) -> None:
            if i == 1:
                epoch[0] += 1
                bar.reset(task, total=n)
            bar.update(task, completed=i, description=f"epoch {epoch[0]}, loss {loss:.3f}")

        _, result = fit(train_set, held, out, cfg, tcfg, command=command,
                            extra={"data_command": gen_cmd, "test_bots": list(bots)},
                            progress=on_batch)
    figures = {"model": str(out), "train_decisions": len(train_set),
               "held_decisions": len(held), "train_loss": list(result.train_loss),
               "held_loss": list(result.held_loss), "held_accuracy": list(result.held_accuracy),
               "seconds": round(result.seconds, 1)}
    if as_json:
        typer.echo(json.dumps(figures))
    else:
        for e, (a, b, c) in enumerate(zip(result.train_loss, result.held_loss,
                                          result.held_accuracy, strict=True)):
            typer.echo(f"epoch {e + 1}: train loss {a:.4f}, held-out loss {b:.4f}, "
                       f"held-out accuracy {c:.4f}")
        typer.echo(f"{len(train_set):,} training decisions, {result.seconds:.0f} s; wrote {out}")


@opponent_app.command("eval")
def evaluate(
    data: Path = typer.Option(..., "--data", help="Folder written by 'generate'."),
    chunks: int | None = typer.Option(None, "--chunks",
                                      help="Use the folder's first CHUNKS chunks only."),
    model: str | None = typer.Option(None, "--model",
                                     help="Model file; default: the shipped network."),
    test: str | None = typer.Option(None, "--test", help=TEST_HELP),
    max_test: int = typer.Option(100_000, "--max-test", help="Score a seeded sample of this many."),
    hands: list[Path] | None = typer.Option(
        None, "--hands", help="Test on these heads-up hand histories instead (ACPC logs, "
        "PokerStars text; repeatable), imported through a hand database."),
    no_cnn: bool = typer.Option(False, "--no-cnn", help="Baselines only (no torch needed)."),
    seed: int = typer.Option(1, "--seed", callback=check_seed, help="Seed of the test sample."),
    as_json: bool = typer.Option(False, "--json", help="Print the table as JSON."),
) -> None:
    """Accuracy and log-loss on the held-out bots: the CNN against three baselines."""
    from rich.console import Console
    from rich.table import Table

    from checkraise.analysis.opponent_data import load_decisions
    from checkraise.analysis.opponent_eval import check_test_bots, score_models, split_by_bot

    if max_test < 1:
        raise ConfigError(f"invalid --max-test {max_test}: expected 1 or more")
    cnn = None
    if not no_cnn:
        from checkraise.nn.io import require_torch
        from checkraise.nn.opponent_cnn import CnnOpponentModel

        require_torch().set_num_threads(1)
        cnn = CnnOpponentModel.load(model)
    ds = load_decisions(data, chunks)
    bots = _test_bots(test, ds.names)
    check_test_bots(ds, bots)
    train_set, test_set = split_by_bot(ds, bots)
    if hands:
        test_set = _hand_decisions(hands)
    with _progress(as_json, "scoring") as bar:
        task = bar.add_task("", total=None)
        report = score_models(train_set, test_set, cnn, max_test=max_test, seed=seed or 0,
                              progress=lambda i, n: bar.update(task, completed=i, total=n))
    if as_json:
        typer.echo(json.dumps(report.to_json()))
        return
    table = Table(title=f"Held-out players ({report.test_size:,} decisions; trained on "
                        f"{report.train_size:,} of {len(report.train_bots)} other bots)")
    table.add_column("model")
    table.add_column("accuracy", justify="right")
    table.add_column("log-loss (nats)", justify="right")
    for name, s in report.scores.items():
        table.add_row(name, f"{s.accuracy:.4f}", f"{s.log_loss:.4f}")
    Console().print(table)
    per = Table(title="Accuracy per held-out player")
    per.add_column("bot")
    for name in report.scores:
        per.add_column(name, justify="right")
    for bot, scores in report.per_bot.items():
        per.add_row(bot, *(f"{scores[k].accuracy:.4f}" for k in report.scores))
    Console().print(per)
