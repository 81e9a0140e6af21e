"""Progress of the long commands: hands (match, tournament, lbr, demo) and the counted
steps of the ``nn`` commands (:func:`stderr_bar`), as plain lines when stderr is a file."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO

__all__ = ["LogLines", "LogProgress", "hands_progress", "progress_bar", "stderr_bar"]


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
        self.start_done = 0  # done before this process began (a resumed job)
        self.note = ""  # written after the count (a task's description)

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
        note = f"; {self.note}" if self.note else ""
        if self.total is None:
            return f"{self.label}: {self.done:,}, {_clock_text(elapsed)} elapsed{note}"
        share = self.done / self.total if self.total else 1.0
        unit = f" {self.unit}" if self.unit else ""
        text = (f"{self.label}: {self.done:,}/{self.total:,}{unit} ({100 * share:.0f}%), "
                f"{_clock_text(elapsed)} elapsed")
        here = self.done - self.start_done
        if here > 0 and self.done < self.total:
            text += f", ~{_clock_text(elapsed * (self.total - self.done) / here)} left"
        return text + note


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


class LogProgress:
    """What :func:`progress_bar` gives when stderr is no terminal: the calls of a rich
    ``Progress`` that the commands make (``add_task``, ``update``, ``advance``, ``reset``,
    ``console.print``, ``with``) written as :class:`LogLines`, one per task and interval,
    with the task's description after the count."""

    def __init__(self, label: str, interval: float = 60.0, unit: str | None = None,
                 stream: TextIO | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.label, self.interval, self.unit = label, interval, unit
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.tasks: list[LogLines] = []
        self.console = self

    @property
    def task_ids(self) -> list[int]:
        return list(range(len(self.tasks)))

    def __enter__(self) -> LogProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def print(self, *objects: object) -> None:
        """``console.print``: the text as a line of the log."""
        self.stream.write(" ".join(str(o) for o in objects) + "\n")
        self.stream.flush()

    def add_task(self, description: str = "", total: float | None = None,
                 completed: float = 0, **_: object) -> int:
        name = description.strip() or self.label
        unit = self.unit if self.unit is not None else name.split()[-1]
        lines = LogLines(None if total is None else int(total), name, self.interval,
                         self.stream, self.clock, unit=unit)
        lines.done = lines.start_done = int(completed)
        self.tasks.append(lines)
        return len(self.tasks) - 1

    def update(self, task: int, *, total: float | None = None,
               completed: float | None = None, advance: float | None = None,
               description: str | None = None, **_: object) -> None:
        lines = self.tasks[task]
        if total is not None:
            lines.total = int(total)
        if completed is not None:
            lines.done = int(completed)
        if advance is not None:
            lines.done += int(advance)
        if description is not None:  # a description that repeats the label adds nothing
            text = description.strip()
            lines.note = "" if text == lines.label else text
        lines.tick()

    def advance(self, task: int, advance: float = 1) -> None:
        self.update(task, advance=advance)

    def reset(self, task: int, *, total: float | None = None, **_: object) -> None:
        lines = self.tasks[task]
        lines.done = lines.start_done = 0
        lines.start = self.clock()
        lines.total = None if total is None else int(total)


def progress_bar(*columns: Any, label: str, console: Any = None, transient: bool = False,
                 disable: bool = False, unit: str | None = None,
                 interval: float = 60.0) -> Any:
    """A rich ``Progress`` with ``columns`` on a terminal; when stderr is a file or pipe
    (a job in the background, ``nohup ... 2> job.log &``) a :class:`LogProgress` that
    writes a line per task every ``interval`` seconds instead, whatever ``disable`` says
    (stdout, e.g. ``--json``, is untouched). ``label`` names a task without a
    description, ``unit`` what the count counts (default: the label's last word)."""
    if not sys.stderr.isatty():
        return LogProgress(label, interval, unit)
    from rich.console import Console
    from rich.progress import Progress

    return Progress(*columns, console=console or Console(stderr=True), transient=transient,
                    disable=disable)


def stderr_bar(label: str, total: int | None, interval: float = 60.0) -> Any:
    """A transient rich progress bar on stderr with one task (``bar.task_ids[0]``); when
    stderr is a file or pipe (a job in the background), a :class:`LogLines` line every
    ``interval`` seconds instead, through the same calls."""
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    bar = progress_bar(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                       label=label, transient=True, interval=interval)
    bar.add_task(label, total=total)
    return bar
