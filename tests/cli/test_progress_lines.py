"""Progress of long jobs as plain lines when stderr is a log file, not a terminal."""

from __future__ import annotations

import io

import pytest

from checkraise.cli._progress import LogLines, LogProgress, stderr_bar


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_one_line_per_interval_with_count_elapsed_and_time_left() -> None:
    clock, out = _Clock(), io.StringIO()
    advance = LogLines(1000, "match", interval=60.0, stream=out, clock=clock)
    clock.now += 30
    advance(50)  # half a minute: too soon for a line
    assert out.getvalue() == ""
    clock.now += 60
    advance(200)  # 250 hands in 90 s: 750 more take 270 s
    assert out.getvalue() == "match: 250/1,000 hands (25%), 0:01:30 elapsed, ~0:04:30 left\n"
    clock.now += 10
    advance(50)  # 10 s after the last line: nothing
    assert out.getvalue().count("\n") == 1
    clock.now += 3650
    advance(700)  # all done: no time left to announce
    assert out.getvalue().splitlines()[-1] == "match: 1,000/1,000 hands (100%), 1:02:30 elapsed"


def test_a_job_shorter_than_the_interval_prints_nothing() -> None:
    clock, out = _Clock(), io.StringIO()
    advance = LogLines(10, "lbr", interval=60.0, stream=out, clock=clock)
    for _ in range(10):
        clock.now += 1
        advance(1)
    assert out.getvalue() == ""


def test_stderr_bar_off_a_terminal_turns_the_bar_s_calls_into_lines(
        capsys: pytest.CaptureFixture[str]) -> None:
    # pytest's stderr is no terminal: the nn commands' bars become lines in the log
    with stderr_bar("flop spots", 4, interval=0.0) as bar:
        task = bar.task_ids[0]
        bar.update(task, advance=1)
        bar.update(task, completed=3)
    with stderr_bar("re-solves", None, interval=0.0) as bar:
        bar.update(bar.task_ids[0], advance=2)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith("flop spots: 1/4 spots (25%), 0:00:00 elapsed, ~")
    assert lines[1].startswith("flop spots: 3/4 spots (75%), ")
    assert lines[2] == "re-solves: 2, 0:00:00 elapsed"


def test_log_progress_writes_the_calls_of_a_rich_progress_as_lines() -> None:
    clock, out = _Clock(), io.StringIO()
    bar = LogProgress("training", interval=60.0, unit="iterations", stream=out, clock=clock)
    with bar:
        # a resumed run: 400 of 1,000 were done before this process began
        task = bar.add_task("", total=1000, completed=400)
        clock.now += 30
        bar.update(task, completed=500, description="500 it  3 it/s")
        assert out.getvalue() == ""  # too soon
        clock.now += 90
        bar.update(task, completed=700, description="700 it  2 it/s")
        bar.console.print("checkpoint: 700 iterations")
        other = bar.add_task("epochs", total=None)
        clock.now += 30
        bar.reset(other, total=4)  # counted afresh from here
        clock.now += 60
        bar.advance(other, 3)
    lines = out.getvalue().splitlines()
    # 300 iterations in this process's 120 s: the 300 left take 120 s more
    assert lines[0] == ("training: 700/1,000 iterations (70%), 0:02:00 elapsed, ~0:02:00 left; "
                        "700 it  2 it/s")
    assert lines[1] == "checkpoint: 700 iterations"
    assert lines[2] == "epochs: 3/4 iterations (75%), 0:01:00 elapsed, ~0:00:20 left"
    assert bar.task_ids == [0, 1]
