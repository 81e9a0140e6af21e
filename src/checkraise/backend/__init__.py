"""Where work runs: local processes or a Ray cluster, behind one small interface.

See :mod:`checkraise.backend.base` for the contract (seeded work items in, results by
index out, identical whatever the backend and the number of workers).

Examples
--------
>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Item:
...     seed: int
>>> with make_backend("local", workers=1) as backend:
...     backend.map(lambda item, progress: item.seed + 1, [Item(1), Item(5)])
[2, 6]
"""

from __future__ import annotations

from checkraise.backend.base import (
    Backend,
    BackendName,
    Progress,
    WorkItem,
    WorkItemError,
    backend_names,
    check_workers,
    default_workers,
)
from checkraise.backend.local import LocalBackend
from checkraise.errors import ConfigError

__all__ = [
    "Backend",
    "BackendName",
    "LocalBackend",
    "Progress",
    "WorkItem",
    "WorkItemError",
    "default_workers",
    "make_backend",
    "resolve_backend",
]


def make_backend(
    name: str = "local", workers: int | None = None, address: str | None = None
) -> Backend:
    """The backend called ``name`` (``local`` or ``ray``) with ``workers`` and ``address``.

    Raises :class:`~checkraise.errors.ConfigError` for an unknown name, ``workers``
    below 1, an ``address`` given to the local backend, or ``ray`` when the ray
    package is not installed (``pip install 'checkraise[distributed]'``).

    Examples
    --------
    >>> make_backend("local", workers=2)
    LocalBackend(workers=2)
    >>> make_backend("spark")
    Traceback (most recent call last):
    ...
    checkraise.errors.ConfigError: unknown backend 'spark': expected local or ray
    >>> make_backend("local", address="auto")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    checkraise.errors.ConfigError: an address ('auto') is only for the ray backend, ...
    """
    try:
        kind = BackendName(name)
    except ValueError:
        raise ConfigError(
            f"unknown backend {name!r}: expected {backend_names()}"
        ) from None
    check_workers(workers)
    if kind is BackendName.LOCAL:
        if address is not None:
            raise ConfigError(
                f"an address ({address!r}) is only for the ray backend, not for "
                f"{kind.value!r}: pass --backend ray or drop --address"
            )
        return LocalBackend(workers)
    from checkraise.backend.ray_backend import RayBackend

    return RayBackend(workers, address)


def resolve_backend(backend: Backend | None, workers: int | None) -> Backend:
    """``backend``, or local processes (``workers``, default one per core) if it is None."""
    return backend if backend is not None else LocalBackend(workers)
