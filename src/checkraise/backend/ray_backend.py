"""Work items as Ray tasks, on a local Ray instance or an existing cluster.

Ray (https://www.ray.io, the optional extra ``distributed``) is imported only when this
backend is made. Without ``address`` the first :meth:`RayBackend.run` starts a local
instance with ``num_cpus=workers`` (one per core by default) and :meth:`RayBackend.close`
stops it; with ``address`` it joins that cluster and leaves it running. A Ray instance
already started in this process (a test session, a notebook) is used as it is.

Results stream back as items finish (``ray.wait``). Progress streams through a small
actor (one per backend): a task adds its units to it at most every 0.2 s and returns the
rest with its result; the driver collects the actor's sum every 0.2 s while it waits, so
the progress bar moves during long items and the total is exact. At most ``workers``
items (default: the cluster's CPUs) are in flight: when one fails the rest are not
submitted and the running ones finish and are kept. An interrupt (Ctrl-C) cancels the
tasks in flight, forcefully.
"""

from __future__ import annotations

import importlib
import logging
import time
from collections.abc import Callable, Sequence
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
from checkraise.errors import ConfigError

__all__ = ["RayBackend", "import_ray"]

T = TypeVar("T", bound=WorkItem)
R = TypeVar("R")

_FLUSH_SECONDS = 0.2
_LATE_SECONDS = 10.0  # how long units announced by finished tasks may take to arrive


def import_ray() -> Any:
    """The ``ray`` module, or :class:`ConfigError` saying how to install it."""
    try:
        return importlib.import_module("ray")
    except ImportError as exc:
        raise ConfigError(
            "backend 'ray' needs the ray package, which is not installed: "
            "install checkraise[distributed] (pip install 'checkraise[distributed]')"
        ) from exc


class _ProgressSink:
    """Ray actor: the progress units reported since the driver last asked."""

    def __init__(self) -> None:
        self.units = 0

    def add(self, n: int) -> None:
        self.units += n

    def take(self) -> int:
        n, self.units = self.units, 0
        return n


class _Reporter:
    """The ``progress`` callable a task gets: batches units, sends them every 0.2 s."""

    def __init__(self, sink: Any) -> None:
        self.sink = sink
        self.pending = 0
        self.sent = 0
        self.last = time.monotonic()

    def __call__(self, n: int) -> None:
        self.pending += n
        now = time.monotonic()
        if now - self.last >= _FLUSH_SECONDS:
            self.sink.add.remote(self.pending)
            self.sent += self.pending
            self.pending, self.last = 0, now


def _task(
    fn: Callable[[Any, Progress], Any], item: Any, sink: Any
) -> tuple[Any, int, int]:
    # The units not yet sent travel with the result, and the number sent to the actor
    # too, so that the driver can wait for calls still on their way: the total is exact
    # without a synchronous call to the actor at the end of every task.
    reporter = _Reporter(sink)
    result = fn(item, reporter)
    return result, reporter.sent, reporter.pending


class RayBackend(Backend):
    """Ray tasks on a local Ray instance or an existing cluster.

    Parameters
    ----------
    workers
        Items in flight at once; when a local instance is started, also its
        ``num_cpus``. ``None``: one per core locally, every CPU of a cluster.
    address
        A running cluster to join (``"auto"``, ``"host:6379"`` or ``"ray://host:10001"``);
        ``None`` starts a local instance on first use.
    """

    name = BackendName.RAY

    def __init__(self, workers: int | None = None, address: str | None = None) -> None:
        self.workers = check_workers(workers)
        if address is not None and not address.strip():
            raise ConfigError(f"invalid address {address!r}: expected auto or HOST:PORT")
        self.address = address
        self._ray = import_ray()
        self._started = False
        self._remote: Any = None
        self._sink: Any = None

    def __repr__(self) -> str:
        return f"RayBackend(workers={self.workers}, address={self.address!r})"

    def _ensure_started(self) -> Any:
        ray = self._ray
        if not ray.is_initialized():
            if self.address is not None:
                ray.init(address=self.address, logging_level=logging.WARNING)
            else:
                # Ray runs its workers at nice 15 by default; the work of this command
                # should run at the priority the local backend's processes would have.
                # address="local": a new instance, even where RAY_ADDRESS or a cluster
                # started with `ray start` on this machine would be found otherwise.
                ray.init(
                    address="local", num_cpus=self.workers or default_workers(),
                    include_dashboard=False,
                    logging_level=logging.WARNING, _system_config={"worker_niceness": 0},
                )
            self._started = True
        if self._remote is None:
            self._remote = ray.remote(num_cpus=1, max_retries=0)(_task)
            # One sink for all runs: starting an actor starts a worker process.
            self._sink = ray.remote(num_cpus=0)(_ProgressSink).remote()
        return ray

    def _window(self, ray: Any) -> int:
        if self.workers is not None:
            return self.workers
        return max(1, int(ray.cluster_resources().get("CPU", 1)))

    def run(
        self,
        fn: Callable[[T, Progress], R],
        items: Sequence[T],
        on_result: Callable[[int, R], None],
        on_progress: Progress | None = None,
    ) -> None:
        """See :meth:`Backend.run`."""
        if not items:
            return
        report: Progress = on_progress if on_progress is not None else _ignore
        ray = self._ensure_started()
        # RayTaskError (the item raised; its .cause is the item's exception) and the
        # failures of Ray itself, such as a worker that crashed or ran out of memory.
        task_error = ray.exceptions.RayError
        sink = self._sink
        ray.get(sink.take.remote())  # units left over from an interrupted run
        window = self._window(ray)
        running: dict[Any, int] = {}
        failure: tuple[int, BaseException] | None = None
        next_index = 0
        collected = time.monotonic()
        sent = received = 0
        try:
            while True:
                while failure is None and next_index < len(items) and len(running) < window:
                    ref = self._remote.remote(fn, items[next_index], sink)
                    running[ref] = next_index
                    next_index += 1
                if not running:
                    break
                refs = list(running)
                ready, rest = ray.wait(refs, num_returns=1, timeout=_FLUSH_SECONDS)
                if ready and rest:
                    ready += ray.wait(rest, num_returns=len(rest), timeout=0)[0]
                if time.monotonic() - collected >= _FLUSH_SECONDS:
                    received += _collect(ray, sink, report)
                    collected = time.monotonic()
                for ref in sorted(ready, key=running.__getitem__):
                    i = running.pop(ref)
                    try:
                        result, item_sent, pending = ray.get(ref)
                    except task_error as exc:
                        if failure is None:
                            cause = getattr(exc, "cause", None)
                            failure = (i, cause if isinstance(cause, BaseException) else exc)
                        continue
                    sent += item_sent
                    if pending:
                        report(pending)
                    on_result(i, result)
            received += _collect(ray, sink, report)
            deadline = time.monotonic() + _LATE_SECONDS
            while received < sent and time.monotonic() < deadline:
                time.sleep(0.01)
                received += _collect(ray, sink, report)
        except BaseException:
            for ref in running:
                ray.cancel(ref, force=True)
            raise
        if failure is not None:
            index, cause = failure
            raise WorkItemError(index, items[index], cause) from cause

    def close(self) -> None:
        """Stop the local Ray instance if this backend started it."""
        if self._sink is not None and self._ray.is_initialized():
            self._ray.kill(self._sink)
        self._sink = self._remote = None
        if self._started:
            self._ray.shutdown()
            self._started = False


def _collect(ray: Any, sink: Any, report: Progress) -> int:
    n = int(ray.get(sink.take.remote()))
    if n:
        report(n)
    return n
