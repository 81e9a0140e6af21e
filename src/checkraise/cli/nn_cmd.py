"""``checkraise nn``: the neural layer's commands (needs the extra ``nn``: torch).

The group only registers here; its commands live in their own modules
(``nn_*_cmd.py``) and import torch inside the command, so ``checkraise --help`` and
every other command run without torch installed.
"""

from __future__ import annotations

import typer

from checkraise.cli.app import app

__all__ = ["nn_app"]

nn_app = typer.Typer(
    name="nn",
    help="Neural methods (needs the extra nn: pip install torch==2.13.0 'checkraise[nn]').",
    no_args_is_help=True,
)
app.add_typer(nn_app, name="nn")
