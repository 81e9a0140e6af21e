"""The execution backend: independent, seeded work items in, their results out by index.

A long job (the rotations of a duplicate match, the repetitions of a tournament, the
deal blocks of a tuning pool, later blocks of LBR hands or training shards) is cut into
*work items*, each carrying everything it needs, its seed included, so that an item's
result depends only on the item and never on which worker ran it, how many workers
there were, or which backend. A higher layer hands the backend a module-level function
``fn(item, progress) -> result`` and the items; the backend never imports that layer.

Two backends implement :class:`Backend`: :class:`~checkraise.backend.local.LocalBackend`
(processes on this machine, the default) and
:class:`~checkraise.backend.ray_backend.RayBackend` (a local or remote Ray cluster, the
optional extra ``distributed``). :func:`make_backend` picks one by name.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from enum import StrEnum
from types import TracebackType
from typing import Protocol, TypeVar

from checkraise.errors import ConfigError, one_of

__all__ = [
    "Backend",
    "BackendName",
    "Progress",
    "WorkItem",
    "WorkItemError",
    "check_workers",
    "default_workers",
]

Progress = Callable[[int], None]
"""Called with a number of units (hands, deals) just completed."""


class WorkItem(Protocol):
    """What a backend needs of a work item: its own seed (for error reports)."""

    @property
    def seed(self) -> int:
        """The seed the item's result is computed from."""
        ...


T = TypeVar("T", bound=WorkItem)
R = TypeVar("R")


class BackendName(StrEnum):
    """The backends :func:`~checkraise.backend.make_backend` knows."""

    LOCAL = "local"
    RAY = "ray"


class WorkItemError(RuntimeError):
    """A work item raised: which one (index, seed, the item) and the original exception.

    The results of the items that finished are handed to ``on_result`` before this is
    raised; the original exception is also this one's ``__cause__``.
    """

    def __init__(self, index: int, item: object, cause: BaseException) -> None:
        self.index = index
        self.item = item
        self.seed: int | None = getattr(item, "seed", None)
        self.cause = cause
        shown = repr(item)
        if len(shown) > 200:
            shown = shown[:197] + "..."
        super().__init__(
            f"work item {index} (seed {self.seed}) failed: {type(cause).__name__}: {cause} "
            f"[item {shown}]"
        )


def default_workers() -> int:
    """The number of CPU cores of this machine (at least 1)."""
    return max(1, os.cpu_count() or 1)


def check_workers(workers: int | None) -> int | None:
    """``workers`` if it is ``None`` (the backend's default) or at least 1.

    Examples
    --------
    >>> check_workers(2), check_workers(None)
    (2, None)
    >>> check_workers(0)
    Traceback (most recent call last):
    ...
    checkraise.errors.ConfigError: invalid workers 0: expected at least 1 (or None for the default)
    """
    if workers is None:
        return None
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ConfigError(
            f"invalid workers {workers!r}: expected at least 1 (or None for the default)"
        )
    return workers


def _ignore(n: int) -> None:
    del n


class Backend:
    """Runs ``fn(item, progress)`` for every item; results are reported by item index.

    Subclasses implement :meth:`run`. A backend is a context manager: leaving it
    releases what it started (a local Ray instance), nothing else.
    """

    name: BackendName

    def run(
        self,
        fn: Callable[[T, Progress], R],
        items: Sequence[T],
        on_result: Callable[[int, R], None],
        on_progress: Progress | None = None,
    ) -> None:
        """Call ``fn(item, progress)`` for every item and ``on_result(index, result)``.

        ``on_result`` and ``on_progress`` run in the calling process, ``on_result``
        in completion order. ``fn`` must be a module-level function; items and
        results must pickle. If an item raises, items not yet started are dropped,
        the ones running finish and reach ``on_result``, then :class:`WorkItemError`
        is raised with the failing item's index and seed.
        """
        raise NotImplementedError

    def map(
        self,
        fn: Callable[[T, Progress], R],
        items: Sequence[T],
        on_progress: Progress | None = None,
    ) -> list[R]:
        """The results of :meth:`run` as a list in item order.

        Examples
        --------
        >>> from dataclasses import dataclass
        >>> from checkraise.backend import LocalBackend
        >>> @dataclass(frozen=True)
        ... class Square:
        ...     seed: int
        >>> LocalBackend(1).map(lambda item, progress: item.seed ** 2, [Square(2), Square(3)])
        [4, 9]
        """
        out: dict[int, R] = {}
        self.run(fn, items, out.__setitem__, on_progress)
        return [out[i] for i in range(len(items))]

    def close(self) -> None:
        """Release what this backend started (nothing by default)."""

    def __enter__(self) -> Backend:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def backend_names() -> str:
    """The known backend names as an error message lists them."""
    return one_of(n.value for n in BackendName)
