"""Running a solver while recording exploitability against iterations and time.

Solver time is measured around :meth:`~checkraise.solvers.base.Solver.iterate`
only; the exact best responses that measure progress are not counted. Checkpoints
are spaced geometrically, so a log-log chart of the trace is evenly sampled.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from checkraise.errors import CheckraiseError
from checkraise.solvers.base import Solver

__all__ = ["SolveTrace", "checkpoints", "plot_traces", "run_solver"]


@dataclass
class SolveTrace:
    """Exploitability of a solver's average policy at its checkpoints."""

    algorithm: str
    iterations: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    exploitability: list[float] = field(default_factory=list)

    @property
    def final_exploitability(self) -> float:
        """Exploitability at the last checkpoint."""
        return self.exploitability[-1] if self.exploitability else float("nan")

    @property
    def total_seconds(self) -> float:
        """Solver seconds up to the last checkpoint."""
        return self.seconds[-1] if self.seconds else 0.0

    def at_seconds(self, budget: float) -> float:
        """Exploitability at the last checkpoint reached within ``budget`` seconds."""
        best = float("nan")
        for seconds, value in zip(self.seconds, self.exploitability, strict=True):
            if seconds <= budget:
                best = value
        return best

    def seconds_to(self, target: float) -> float:
        """Solver seconds at the first checkpoint with exploitability <= ``target``."""
        for seconds, value in zip(self.seconds, self.exploitability, strict=True):
            if value <= target:
                return seconds
        return float("nan")

    def iterations_to(self, target: float) -> int:
        """Iterations at the first checkpoint with exploitability <= ``target`` (-1: never)."""
        for iterations, value in zip(self.iterations, self.exploitability, strict=True):
            if value <= target:
                return iterations
        return -1

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict of the trace."""
        return {
            "algorithm": self.algorithm,
            "iterations": self.iterations,
            "seconds": self.seconds,
            "exploitability": self.exploitability,
        }


def checkpoints(iterations: int, points: int) -> list[int]:
    """About ``points`` iteration counts from 1 to ``iterations``, evenly spaced in log.

    Examples
    --------
    >>> checkpoints(1000, 4)
    [1, 10, 100, 1000]
    """
    if iterations < 1 or points < 1:
        raise CheckraiseError(
            f"iterations={iterations!r}, points={points!r}; expected both >= 1"
        )
    if points == 1:
        return [iterations]
    marks = {round(iterations ** (k / (points - 1))) for k in range(points)}
    return sorted(m for m in marks if 1 <= m <= iterations)


def run_solver(
    solver: Solver,
    iterations: int | None = None,
    *,
    seconds: float | None = None,
    points: int = 30,
    on_checkpoint: Callable[[int, float, float], None] | None = None,
) -> SolveTrace:
    """Run ``solver`` for ``iterations`` or until ``seconds`` of solver time.

    ``on_checkpoint(iteration, seconds, exploitability)`` is called at every checkpoint.

    Examples
    --------
    >>> from checkraise.games import KuhnPoker
    >>> from checkraise.solvers import CFRPlusSolver
    >>> trace = run_solver(CFRPlusSolver(KuhnPoker()), 100, points=3)
    >>> trace.iterations
    [1, 10, 100]
    """
    if (iterations is None) == (seconds is None):
        raise CheckraiseError("give exactly one of iterations or seconds")
    trace = SolveTrace(solver.algorithm or type(solver).__name__)
    label = getattr(solver, "algorithm_label", None)
    if isinstance(label, str):
        trace.algorithm = label
    solver.warm_up()
    # A full collection now, rather than inside the first timed iterations.
    gc.collect()
    elapsed = 0.0

    def step(target: int) -> None:
        nonlocal elapsed
        start = time.perf_counter()
        solver.iterate(target - solver.iteration)
        elapsed += time.perf_counter() - start
        value = solver.exploitability()
        trace.iterations.append(solver.iteration)
        trace.seconds.append(elapsed)
        trace.exploitability.append(value)
        if on_checkpoint is not None:
            on_checkpoint(solver.iteration, elapsed, value)

    if iterations is not None:
        for target in checkpoints(iterations, points):
            step(target)
        return trace
    assert seconds is not None
    target = 1
    while elapsed < seconds:
        step(target)
        # Aim the next checkpoint about 25% later in time, using the observed rate.
        rate = solver.iteration / max(elapsed, 1e-9)
        target = max(solver.iteration + 1, int(1.25 * max(elapsed, 1e-4) * rate))
    return trace


def plot_traces(traces: Sequence[SolveTrace], path: str | Path, title: str = "") -> Path:
    """Draw exploitability against iterations and against seconds (log-log) as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for trace in traces:
        left.plot(trace.iterations, trace.exploitability, marker=".", label=trace.algorithm)
        right.plot(
            [max(s, 1e-6) for s in trace.seconds],
            trace.exploitability,
            marker=".",
            label=trace.algorithm,
        )
    for axis, xlabel in ((left, "iterations"), (right, "solver seconds")):
        axis.set_xscale("log")
        axis.set_yscale("log")
        axis.set_xlabel(xlabel)
        axis.set_ylabel("exploitability (chips per hand)")
        axis.grid(True, which="both", alpha=0.3)
        axis.legend()
    if title:
        figure.suptitle(title)
    figure.tight_layout()
    target = Path(path)
    figure.savefig(target, dpi=110)
    plt.close(figure)
    return target
