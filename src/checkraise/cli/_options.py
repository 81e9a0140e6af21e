"""Checks shared by the commands' options, run by the option parser before any work."""

from __future__ import annotations

from typing import TYPE_CHECKING

from checkraise.errors import CheckraiseError, ConfigError

if TYPE_CHECKING:
    import typer

    from checkraise.backend import Backend

__all__ = ["ADDRESS_HELP", "BACKEND_HELP", "OptionError", "check_positive", "check_seed",
           "check_workers", "command_line", "given_options", "open_backend", "parse_blinds",
           "seat_agents"]

BACKEND_HELP = (
    "Where the work runs: local (processes on this machine) or ray (a Ray cluster; "
    "needs checkraise[distributed]). Results do not depend on it."
)
ADDRESS_HELP = (
    "With --backend ray: the running Ray cluster to join (auto, HOST:PORT or "
    "ray://HOST:10001); default: start a local Ray for this command."
)


def check_positive(option: str, value: float) -> None:
    """Refuse an option below 1, naming it.

    Examples
    --------
    >>> check_positive("--epochs", 0)
    Traceback (most recent call last):
    ...
    checkraise.errors.ConfigError: invalid --epochs 0: expected 1 or more
    """
    if not value >= 1:
        raise ConfigError(f"invalid {option} {value}: expected 1 or more")


def check_seed(seed: int | None) -> int | None:
    """The ``--seed`` callback: 0 or more (numpy's ``SeedSequence`` takes no negative seed).

    Examples
    --------
    >>> check_seed(7), check_seed(None)
    (7, None)
    >>> check_seed(-1)
    Traceback (most recent call last):
    ...
    checkraise.errors.ConfigError: invalid --seed -1: expected 0 or more
    """
    if seed is not None and seed < 0:
        raise ConfigError(f"invalid --seed {seed}: expected 0 or more")
    return seed


def open_backend(name: str, workers: int, address: str | None) -> Backend:
    """The backend of ``--backend``, ``--workers`` (0: the default) and ``--address``.

    Imported here, not at the top: ``checkraise --help`` loads neither the process
    pool nor ray.

    Examples
    --------
    >>> open_backend("local", 2, None)
    LocalBackend(workers=2)
    """
    from checkraise.backend import make_backend

    return make_backend(name, workers or None, address)


def command_line(ctx: typer.Context) -> str:
    """The command as typed, rebuilt from the options the user gave (not the defaults).

    Repeated options and several arguments give one word each; a boolean flag given as
    false writes its ``--no-`` form. Files that a command writes record it.
    """
    import shlex

    words = ["checkraise", *ctx.command_path.split()[1:]]
    for param in ctx.command.params:
        name = param.name
        source = ctx.get_parameter_source(name) if name is not None else None
        if name is None or source is None or source.name == "DEFAULT":
            continue
        value = ctx.params.get(name)
        opts = list(getattr(param, "opts", []))
        for v in value if isinstance(value, (list, tuple)) else [value]:
            if param.param_type_name == "argument":
                words.append(str(v))
            elif isinstance(v, bool):
                flags = opts if v else list(getattr(param, "secondary_opts", []))
                if flags:
                    words.append(flags[0])
            elif v is not None:
                words += [opts[0], str(v)]
    return shlex.join(words)


def given_options(ctx: typer.Context, names: tuple[str, ...]) -> list[str]:
    """The flags (or an argument's metavar) among the parameters ``names`` that the
    user gave, in the command's order, each as typed (``--no-x`` for a flag turned off)."""
    out = []
    for param in ctx.command.params:
        source = ctx.get_parameter_source(param.name) if param.name in names else None
        if param.name is not None and source is not None and source.name != "DEFAULT":
            opts = list(getattr(param, "opts", []))
            off = list(getattr(param, "secondary_opts", []))
            if param.param_type_name == "argument":
                out.append(getattr(param, "metavar", None) or param.name.upper())
            elif ctx.params.get(param.name) is False and off:
                out.append(off[0])  # the --no- form that was typed
            else:
                out.append(opts[0])
    return out


class OptionError(CheckraiseError):
    """A command-line option outside its range."""


def parse_blinds(text: str) -> tuple[int, int]:
    """``"50/100"`` -> ``(50, 100)``."""
    small, sep, big = text.partition("/")
    if not sep or not small.strip().isdigit() or not big.strip().isdigit():
        raise OptionError(f"invalid blinds {text!r}: expected SMALL/BIG, e.g. 50/100")
    return int(small), int(big)


def seat_agents(agents: list[str], blinds: str, workers: int, command: str,
                ) -> tuple[tuple[str, ...], int, int]:
    """The agent specs, small and big blind of a ``command`` that seats bots, with
    ``--workers`` checked; a human seat is refused (no terminal in the workers)."""
    from checkraise.agents.base import split_agent_specs
    from checkraise.arena.match import refuse_interactive

    check_workers(workers)
    small, big = parse_blinds(blinds)
    specs = tuple(split_agent_specs(agents))
    refuse_interactive(specs, command)
    return specs, small, big


def check_workers(workers: int) -> int:
    """``workers`` if it is 0 (one per core) or more, else raise :class:`OptionError`."""
    if workers < 0:
        raise OptionError(f"invalid --workers {workers}: expected 0 (one per core) or more")
    return workers
