"""The ``checkraise`` Typer application, on which every command module registers.

It lives apart from ``cli/main.py``, which imports the command modules, so that a
command module imports it without a cycle and can be imported on its own.
"""

from __future__ import annotations

import typer

__all__ = ["HELP_WIDTH", "app", "version"]

# Help is rendered by the plain formatter (rich_markup_mode=None; see cli/_help.py): it
# rewraps each paragraph to the terminal width and shows flags without a type, where
# typer's rich panels print ``<bool>`` beside every flag and break docstring lines a
# second time in narrow terminals. Lines stop at 120 columns on wide terminals.
HELP_WIDTH = 120

app = typer.Typer(
    name="checkraise",
    help="No-limit Texas Hold'em AI: evaluate, compute equity, play, solve.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"max_content_width": HELP_WIDTH},
)


def version() -> str:
    """The installed package's version (``pyproject.toml``), else ``checkraise.__version__``."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("checkraise")
    except PackageNotFoundError:  # running from a source tree that was never installed
        from checkraise import __version__

        return __version__


def _print_version(value: bool) -> None:
    if value:
        print(f"checkraise {version()}")
        raise typer.Exit()


@app.callback()
def _options(
    show_version: bool = typer.Option(
        False, "--version", help="Print the version and exit.", callback=_print_version,
        is_eager=True,
    ),
) -> None:
    del show_version  # handled by its eager callback
