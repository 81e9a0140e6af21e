"""Run independent arena tasks (repetitions, seatings) in worker processes.

Every task carries its own seed, derived from the master seed with
:class:`numpy.random.SeedSequence` spawn keys, so a task's result does not depend
on which worker runs it or when; callers aggregate results in task order. Workers
report progress (hands played) through a queue that the parent drains while it
waits, so one progress bar covers all workers.
"""

from __future__ import annotations

import multiprocessing
import os
import queue as queue_module
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, TypeVar

from checkraise.errors import ConfigError

__all__ = ["Progress", "default_workers", "run_tasks"]

T = TypeVar("T")
R = TypeVar("R")

Progress = Callable[[int], None]
"""Called with a number of units (hands) just completed."""

_QUEUE: Any = None


def default_workers() -> int:
    """The number of CPU cores (at least 1)."""
    return max(1, os.cpu_count() or 1)


def _init_worker(q: Any) -> None:
    global _QUEUE
    _QUEUE = q


def _report(n: int) -> None:
    if _QUEUE is not None:
        _QUEUE.put(n)


def _call(fn: Callable[[T, Progress], R], task: T) -> R:
    return fn(task, _report)


def run_tasks(
    fn: Callable[[T, Progress], R],
    tasks: Sequence[T],
    *,
    workers: int,
    on_result: Callable[[int, R], None],
    on_progress: Progress | None = None,
) -> None:
    """Call ``fn(task, progress)`` for every task; ``on_result(index, result)`` as each ends.

    With ``workers <= 1`` (or a single task) everything runs in this process;
    otherwise in a pool of ``workers`` processes. ``fn`` must be a module-level
    function and tasks and results picklable. ``on_result`` runs in this process
    in completion order; an exception in a task cancels the rest and is raised.

    Examples
    --------
    >>> got = {}
    >>> run_tasks(lambda t, progress: t * t, [1, 2, 3], workers=1,
    ...           on_result=got.__setitem__)
    >>> got
    {0: 1, 1: 4, 2: 9}
    """
    if workers < 1:
        raise ConfigError(f"invalid workers {workers!r}: expected at least 1")
    report: Progress = on_progress if on_progress is not None else (lambda n: None)
    if workers == 1 or len(tasks) <= 1:
        for i, task in enumerate(tasks):
            on_result(i, fn(task, report))
        return
    ctx = multiprocessing.get_context()
    q = ctx.Queue()
    pool = ProcessPoolExecutor(
        max_workers=min(workers, len(tasks)), mp_context=ctx,
        initializer=_init_worker, initargs=(q,),
    )
    try:
        futures: dict[Future[R], int] = {
            pool.submit(_call, fn, task): i for i, task in enumerate(tasks)
        }
        pending = set(futures)
        while pending:
            done, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            _drain(q, report)
            for fut in sorted(done, key=futures.__getitem__):
                on_result(futures[fut], fut.result())
        _drain(q, report)
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    finally:
        pool.shutdown(wait=True)
        q.close()


def _drain(q: Any, report: Progress) -> None:
    while True:
        try:
            n = q.get_nowait()
        except queue_module.Empty:
            return
        report(int(n))
