"""Checks shared by the commands' options, run by the option parser before any work."""

from __future__ import annotations

from checkraise.errors import ConfigError

__all__ = ["check_seed"]


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
