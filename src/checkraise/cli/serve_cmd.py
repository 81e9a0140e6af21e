"""``checkraise serve``: the web table, hand replayer and solution viewer in a browser.

The web libraries (Starlette, uvicorn) are the optional extra ``web`` and are
imported inside the command, so the CLI works without them; without them the
command stops with one line saying what to install.
"""

from __future__ import annotations

import ipaddress
import socket
import sys
from pathlib import Path

import typer

from checkraise.cli.app import app
from checkraise.errors import CheckraiseError, ConfigError

__all__ = ["INSTALL_HINT", "serve_command"]

INSTALL_HINT = "pip install 'checkraise[web]'"


class MissingExtraError(CheckraiseError):
    """An optional extra that a command needs is not installed."""


def is_loopback(host: str) -> bool:
    """Whether ``host`` only listens on this machine.

    Examples
    --------
    >>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("0.0.0.0")
    (True, True, False)
    """
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def require_web() -> None:
    """Raise :class:`MissingExtraError` naming the install command unless the extra is there."""
    import importlib.util

    missing = [m for m in ("starlette", "uvicorn") if importlib.util.find_spec(m) is None]
    if missing:
        raise MissingExtraError(
            f"checkraise serve needs {' and '.join(missing)} (the extra 'web'), not installed: "
            f"{INSTALL_HINT}")


@app.command("serve")
def serve_command(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (loopback by "
                             "default; another address lets other machines in)."),
    port: int = typer.Option(8000, "--port", help="TCP port."),
    db: Path | None = typer.Option(None, "--db", help="Hand database (SQLite) that finished "
                                   "hands go into and the replayer reads."),
    solutions: Path | None = typer.Option(None, "--solutions", help="Folder of solved spots "
                                          "(`spot solve --out`) for the solution viewer."),
) -> None:
    """Serve the web table against the bots, the hand replayer and the solution viewer.

    Open http://HOST:PORT/ in a browser. Stop with Ctrl-C.
    """
    if not 0 <= port <= 65535:
        raise ConfigError(f"--port {port}; expected 0..65535")
    if solutions is not None and not solutions.is_dir():
        raise ConfigError(f"--solutions {str(solutions)!r} is not a folder")
    require_web()
    import uvicorn

    from checkraise.web.app import create_app
    from checkraise.web.session import MAX_MESSAGE_BYTES

    if not is_loopback(host):
        print(f"checkraise: warning: listening on {host}, not only on this machine: anyone who "
              "can reach it may play here and read the hand database", file=sys.stderr)
    application = create_app(db_path=db, solutions=solutions)
    # Bound here rather than by uvicorn, so a busy port is one line and status 2 like any
    # other problem of the machine, and --port 0 says which port it got.
    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError:
        listener.close()
        raise
    port = listener.getsockname()[1]
    print(f"serving on http://{host}:{port}/ (table), /replayer, /viewer; Ctrl-C stops",
          flush=True)
    # A client message is at most MAX_MESSAGE_BYTES (the session checks that); the frame
    # limit keeps a larger one from being buffered at all.
    # log_config=None: uvicorn's loggers are left to logging's defaults (warnings and errors
    # on stderr) instead of a dictConfig that rebinds the process's logging to the stderr
    # of the moment (a closed stream once a caller such as a test swaps stderr back).
    config = uvicorn.Config(application, host=host, port=port, log_level="warning",
                            log_config=None, ws_max_size=4 * MAX_MESSAGE_BYTES)
    uvicorn.Server(config).run(sockets=[listener])
