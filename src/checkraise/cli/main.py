"""Entry point of the ``checkraise`` command.

Each command lives in its own module under ``checkraise.cli`` and registers
itself on :data:`app` (defined in ``cli/app.py``, which imports no command, so that any
command module can be imported on its own); this module only imports them and turns
bad-input errors into one line on stderr with exit status 2.

Start-up is kept light: the command modules import the library (numba kernels,
evaluator tables, matplotlib, rich) inside their command functions, so that
``checkraise --help`` costs little more than importing numpy
(``benchmarks/bench_startup.py`` measures it).
"""

from __future__ import annotations

import errno
import importlib
import json
import os
import socket
import sys
import traceback

# numpy's BLAS multiplies small matrices here (leaf values, networks played in numpy)
# while numba kernels, torch and worker processes use the cores; its thread pool then
# only waits for cores: a depth-limited re-solve made 20 iterations in 5 s on a busy
# two-core machine with it, 160 without. Set before numpy loads; the environment wins.
for _name in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import typer  # noqa: E402

from checkraise.cli._help import use_widowless_help  # noqa: E402
from checkraise.errors import CheckraiseError  # noqa: E402

__all__ = ["app", "main", "run", "version"]

from checkraise.cli.app import app, version  # noqa: E402

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
    "checkraise.cli.spot_cmd",
    "checkraise.cli.lbr_cmd",
    "checkraise.cli.blueprint_cmd",
    "checkraise.cli.resolve_cmd",
    "checkraise.cli.serve_cmd",
    "checkraise.cli.nn_cmd",
    "checkraise.cli.nn_opponent_cmd",
    "checkraise.cli.nn_values_cmd",
    "checkraise.cli.nn_river_cmd",
    "checkraise.cli.nn_deepcfr_cmd",
    "checkraise.cli.explain_cmd",
    "checkraise.cli.nn_deepfool_cmd",
]

for _name in COMMAND_MODULES:
    importlib.import_module(_name)


# Errors of the user's surroundings rather than of checkraise: a path that is missing,
# a folder where a file is expected, no permission, a full disk, a dealer not listening.
_USER_OS_ERRORS = (
    FileNotFoundError, FileExistsError, IsADirectoryError, NotADirectoryError,
    PermissionError, ConnectionError, TimeoutError, socket.gaierror,
)
_USER_ERRNOS = frozenset({errno.ENOSPC, errno.EROFS, errno.EADDRINUSE, errno.EADDRNOTAVAIL})


def _is_user_error(exc: BaseException) -> bool:
    """Bad input or a problem of the machine, as opposed to a bug of ours."""
    if isinstance(exc, CheckraiseError | json.JSONDecodeError | UnicodeDecodeError):
        return True
    work_item_error = getattr(sys.modules.get("checkraise.backend.base"), "WorkItemError", None)
    if work_item_error is not None and isinstance(exc, work_item_error):
        # A work item that failed on bad input (a model file, say) is the user's to fix;
        # any other failure in a worker is a bug of ours, reported with the item and seed.
        return _is_user_error(exc.cause)
    return isinstance(exc, _USER_OS_ERRORS) or (
        isinstance(exc, OSError) and exc.errno in _USER_ERRNOS
    )


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; return the process exit status.

    Bad input (the project's :class:`~checkraise.errors.CheckraiseError` family, a
    malformed JSON or text file) and problems of the machine (a missing file, no
    permission, a full disk, a refused connection) print one line and return 2.
    Anything else is a bug of ours: a short "internal error" line and the traceback,
    status 1.
    """
    try:
        use_widowless_help(typer.main.get_command(app))(args=argv, prog_name="checkraise")
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except KeyboardInterrupt:
        print("checkraise: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        if _is_user_error(exc):
            print(f"checkraise: error: {exc}", file=sys.stderr)
            return 2
        print(
            "checkraise: internal error (a bug in checkraise, not in your input); please "
            "report it with the command and this traceback:",
            file=sys.stderr,
        )
        traceback.print_exc(file=sys.stderr)
        return 1
    return 0

def run() -> None:
    """Console-script entry point."""
    sys.exit(main())


if __name__ == "__main__":
    # Under `python -m` this file is `__main__`, a second copy of the module; run the
    # entry point of the one that the command modules' imports loaded.
    from checkraise.cli.main import run as _run

    _run()
