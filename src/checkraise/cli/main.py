"""Entry point of the ``checkraise`` command.

Each command lives in its own module under ``checkraise.cli`` and registers
itself on :data:`app`; this module only imports them and turns bad-input errors
into one line on stderr with exit status 2.
"""

from __future__ import annotations

import importlib
import sys

import typer

__all__ = ["app", "main", "run"]

app = typer.Typer(
    name="checkraise",
    help="No-limit Texas Hold'em AI: evaluate, compute equity, play, solve.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# Command modules, imported for their side effect of registering on ``app``.
COMMAND_MODULES = [
    "checkraise.cli.eval_cmd",
    "checkraise.cli.demo_cmd",
    "checkraise.cli.acpc_cmd",
    "checkraise.cli.match_cmd",
    "checkraise.cli.tournament_cmd",
    "checkraise.cli.play_cmd",
    "checkraise.cli.hands_cmd",
    "checkraise.cli.solve_cmd",
    "checkraise.cli.equity_cmd",
    "checkraise.cli.range_cmd",
    "checkraise.cli.tune_cmd",
    "checkraise.cli.predict_cmd",
    "checkraise.cli.abstraction_cmd",
]

for _name in COMMAND_MODULES:
    importlib.import_module(_name)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; return the process exit status."""
    try:
        app(args=argv, prog_name="checkraise")
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except (ValueError, OSError) as exc:
        print(f"checkraise: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("checkraise: interrupted", file=sys.stderr)
        return 130
    return 0

def run() -> None:
    """Console-script entry point."""
    sys.exit(main())


if __name__ == "__main__":
    # Under `python -m` this file is `__main__`, a second copy whose `app` has no commands
    # (they register on `checkraise.cli.main.app`); run that module's entry point instead.
    from checkraise.cli.main import run as _run

    _run()
