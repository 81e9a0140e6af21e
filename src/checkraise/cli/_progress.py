"""Progress of the long commands: hands (match, tournament, lbr, demo) and the counted
steps of the ``nn`` commands (:func:`stderr_bar`), as plain lines when stderr is a file."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO

__all__ = ["LogLines", "hands_progress", "stderr_bar"]


def _ignore(n: int) -> None:
    del n


class LogLines:
    """Progress as plain lines for a log file: one when ``interval`` seconds have passed.

    A background job (``nohup checkraise match ... 2> match.log &``) has no terminal to
    draw a bar on; these lines tell how far it got and how long it has to go.
    """

    def __init__(self, total: int | None, label: str, interval: float = 60.0,
                 stream: TextIO | None = None, clock: Callable[[], float] = time.monotonic,
                 unit: str = "hands") -> None:
        self.total, self.label, self.interval, self.unit = total, label, interval, unit
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.start = self.last = clock()
        self.done = 0

    def __call__(self, n: int) -> None:
        self.done += n
        self.tick()

    def tick(self) -> None:
        """Write a line if ``interval`` seconds have passed since the last one."""
        now = self.clock()
        if now - self.last >= self.interval:
            self.last = now
            self.stream.write(self.line(now - self.start) + "\n")
            self.stream.flush()

    def line(self, elapsed: float) -> str:
        """``"match: 120/1,000 hands (12%), 0:03:10 elapsed, ~0:23:13 left"`` (with no
        total: ``"re-solves: 120, 0:03:10 elapsed"``)."""
        if self.total is None:
            return f"{self.label}: {self.done:,}, {_clock_text(elapsed)} elapsed"
        share = self.done / self.total if self.total else 1.0
        text = (f"{self.label}: {self.done:,}/{self.total:,} {self.unit} ({100 * share:.0f}%), "
                f"{_clock_text(elapsed)} elapsed")
        if 0 < self.done < self.total:
            text += f", ~{_clock_text(elapsed * (self.total - self.done) / self.done)} left"
        return text


def _clock_text(seconds: float) -> str:
    whole = round(seconds)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


@contextmanager
def hands_progress(
    total: int, label: str, enabled: bool = True
) -> Iterator[Callable[[int], None]]:
    """Progress counting hands on stderr; yields ``advance(n)``.

    On a terminal a rich bar (unless ``enabled`` is false, e.g. under ``--json``);
    when stderr is a file or pipe, a plain :class:`LogLines` line a minute, whatever
    ``enabled`` says, since stdout (the JSON) is untouched.
    """
    if not sys.stderr.isatty():
        yield LogLines(total, label)
        return
    if not enabled:
        yield _ignore
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("hands"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=False) as bar:
        task = bar.add_task(label, total=total)
        yield lambda n: bar.advance(task, n)


class _LogBar:
    """What :func:`stderr_bar` gives when stderr is no terminal: the calls of a one-task
    rich ``Progress`` (``task_ids``, ``update``, ``with``) written as :class:`LogLines`."""

    def __init__(self, label: str, total: int | None, interval: float) -> None:
        self.lines = LogLines(total, label, interval, unit=label.split()[-1])
        self.task_ids = [0]

    def __enter__(self) -> _LogBar:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, task: int, *, advance: float | None = None,
               completed: float | None = None) -> None:
        del task
        if completed is not None:
            self.lines.done = int(completed)
        if advance is not None:
            self.lines.done += int(advance)
        self.lines.tick()


def stderr_bar(label: str, total: int | None, interval: float = 60.0) -> Any:
    """A transient rich progress bar on stderr with one task (``bar.task_ids[0]``); when
    stderr is a file or pipe (a job in the background), a :class:`LogLines` line every
    ``interval`` seconds instead, through the same calls."""
    if not sys.stderr.isatty():
        return _LogBar(label, total, interval)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   console=Console(stderr=True), transient=True)
    bar.add_task(label, total=total)
    return bar
