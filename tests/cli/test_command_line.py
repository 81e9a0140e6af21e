"""``command_line``: the command as typed, which run folders and files record."""

from __future__ import annotations

from pathlib import Path

import typer
from typer.testing import CliRunner

from checkraise.cli._options import command_line


def test_given_options_only_with_repeats_arguments_and_negative_flags() -> None:
    app = typer.Typer()
    seen: list[str] = []

    @app.command()
    def run(
        ctx: typer.Context,
        files: list[Path] = typer.Argument(...),
        train: list[Path] = typer.Option([], "--train"),
        table: bool = typer.Option(True, "--table/--no-table"),
        force: bool = typer.Option(False, "--force"),
        seed: int = typer.Option(1, "--seed"),
        name: str = typer.Option("x y", "--name"),
    ) -> None:
        seen.append(command_line(ctx))

    args = ["a.txt", "b c.txt", "--train", "t1", "--train", "t2", "--no-table", "--name", "p q"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    # the defaults (--seed 1, --force off) are left out; the false flag keeps its --no- form
    assert seen == ["checkraise a.txt 'b c.txt' --train t1 --train t2 --no-table --name 'p q'"]
