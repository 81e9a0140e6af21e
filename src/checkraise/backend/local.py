"""Work items in processes on this machine (``workers=1``: in this process).

Workers report progress through a queue that the parent drains while it waits, so one
progress bar covers all of them. At most ``2 * workers`` items are handed to the pool
at a time: when an item fails, the rest are simply not submitted, and the running
ones finish and are kept.
"""

from __future__ import annotations

import multiprocessing
import os
import queue as queue_module
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, TypeVar

from checkraise.backend.base import (
    Backend,
    BackendName,
    Progress,
    WorkItem,
    WorkItemError,
    _ignore,
    check_workers,
    default_workers,
)

__all__ = ["LocalBackend"]

T = TypeVar("T", bound=WorkItem)
R = TypeVar("R")

_QUEUE: Any = None
_FLUSH_SECONDS = 0.2
_LATE_SECONDS = 10.0  # how long units announced by a finished item may take to arrive


def _init_worker(q: Any) -> None:
    global _QUEUE
    _QUEUE = q
    _one_thread_each()


def _one_thread_each() -> None:
    """Workers share the cores, one each: torch in a worker uses one thread unless the
    environment sets ``OMP_NUM_THREADS``. Two workers on two cores each running torch's
    default pool (one thread per core) made every inference wait for the other's: the
    expert bot's CNN decisions took twice their time in a two-worker match."""
    if "OMP_NUM_THREADS" in os.environ:
        return
    os.environ["OMP_NUM_THREADS"] = "1"  # for a torch imported later in this worker
    torch = sys.modules.get("torch")  # already imported by the parent before the fork
    if torch is not None:
        torch.set_num_threads(1)


class _Reporter:
    """A worker's ``progress``: sends the units gathered every 0.2 s through the queue."""

    def __init__(self) -> None:
        self.pending = 0
        self.sent = 0
        self.last = time.monotonic()

    def __call__(self, n: int) -> None:
        self.pending += n
        now = time.monotonic()
        if now - self.last >= _FLUSH_SECONDS and _QUEUE is not None:
            _QUEUE.put(self.pending)
            self.sent += self.pending
            self.pending, self.last = 0, now


def _call(fn: Callable[[T, Progress], R], item: T) -> tuple[R, int, int]:
    # A queue's put is sent by a feeder thread and may reach the parent after the
    # result: the item's result carries how many units it sent and the ones it did not,
    # so the parent can wait for the rest and the total is exact.
    reporter = _Reporter()
    result = fn(item, reporter)
    return result, reporter.sent, reporter.pending


def _drain(q: Any, report: Progress, block_until: int = 0) -> int:
    """Report the units in the queue (waiting until ``block_until`` came); how many."""
    got = 0
    while True:
        try:
            n = int(q.get(timeout=_LATE_SECONDS) if got < block_until else q.get_nowait())
        except queue_module.Empty:
            return got
        report(n)
        got += n


def _terminate(pool: ProcessPoolExecutor) -> None:
    # An interrupt must not wait for items that may run for minutes. The executor has no
    # public way to stop running workers before Python 3.14 (terminate_workers), so its
    # process table is read where it exists.
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=5.0)


class LocalBackend(Backend):
    """Processes on this machine.

    Parameters
    ----------
    workers
        Worker processes (``None``: one per core). With 1, or a single item, items
        run one after another in this process.

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Item:
    ...     seed: int
    >>> got = {}
    >>> LocalBackend(1).run(lambda item, progress: item.seed * 10, [Item(1), Item(2)],
    ...                     got.__setitem__)
    >>> got
    {0: 10, 1: 20}
    """

    name = BackendName.LOCAL

    def __init__(self, workers: int | None = None) -> None:
        self.workers = check_workers(workers) or default_workers()

    def __repr__(self) -> str:
        return f"LocalBackend(workers={self.workers})"

    def run(
        self,
        fn: Callable[[T, Progress], R],
        items: Sequence[T],
        on_result: Callable[[int, R], None],
        on_progress: Progress | None = None,
    ) -> None:
        """See :meth:`Backend.run`."""
        report: Progress = on_progress if on_progress is not None else _ignore
        if self.workers == 1 or len(items) <= 1:
            for i, item in enumerate(items):
                try:
                    result = fn(item, report)
                except Exception as exc:
                    raise WorkItemError(i, item, exc) from exc
                on_result(i, result)
            return
        ctx = multiprocessing.get_context()
        q = ctx.Queue()
        pool = ProcessPoolExecutor(
            max_workers=min(self.workers, len(items)), mp_context=ctx,
            initializer=_init_worker, initargs=(q,),
        )
        window = 2 * self.workers
        running: dict[Future[tuple[R, int, int]], int] = {}
        failure: tuple[int, BaseException] | None = None
        next_index = 0
        sent = received = 0
        try:
            while True:
                while failure is None and next_index < len(items) and len(running) < window:
                    running[pool.submit(_call, fn, items[next_index])] = next_index
                    next_index += 1
                if not running:
                    break
                done, _ = wait(running, timeout=_FLUSH_SECONDS, return_when=FIRST_COMPLETED)
                received += _drain(q, report)
                for fut in sorted(done, key=running.__getitem__):
                    i = running.pop(fut)
                    error = fut.exception()
                    if error is not None:
                        failure = failure or (i, error)
                        continue
                    result, item_sent, pending = fut.result()
                    sent += item_sent
                    if pending:
                        report(pending)
                    on_result(i, result)
            received += _drain(q, report, block_until=sent - received)
        except BaseException:
            _terminate(pool)  # before shutdown, which forgets the processes
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        finally:
            pool.shutdown(wait=True)
            q.close()
        if failure is not None:
            index, cause = failure
            raise WorkItemError(index, items[index], cause) from cause
