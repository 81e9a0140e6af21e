"""A blueprint training run in a folder: budget, checkpoints, resume, progress log.

The folder holds ``checkpoint.npz`` (regrets and strategy sums, to resume from),
``blueprint.npz`` (the average strategy, what the ``blueprint`` bot plays),
``progress.jsonl`` (one line per checkpoint: iterations, seconds, information sets
touched, the regret proxy) and ``progress.png`` (the proxy against iterations).
Checkpoints are written atomically every ``checkpoint_seconds``, so a killed run
loses at most that much work; ``resume`` continues to the same total budget.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from checkraise.errors import ConfigError
from checkraise.solvers.blueprint import BlueprintTrainer

__all__ = ["RUN_FILES", "RunBudget", "plot_progress", "read_progress", "train_in_folder"]

CHECKPOINT = "checkpoint.npz"
BLUEPRINT = "blueprint.npz"
PROGRESS = "progress.jsonl"
CHART = "progress.png"
RUN_FILES = (CHECKPOINT, BLUEPRINT, PROGRESS, CHART)


@dataclass(frozen=True)
class RunBudget:
    """Stop when the trainer's total training time or iteration count reaches these."""

    seconds: float | None = None
    iterations: int | None = None
    checkpoint_seconds: float = 600.0
    step: int = 100_000

    def __post_init__(self) -> None:
        if self.seconds is None and self.iterations is None:
            raise ConfigError("a training run needs --hours or --iterations")
        if self.seconds is not None and not self.seconds > 0:
            raise ConfigError(f"training time {self.seconds!r} s; expected > 0")
        if self.iterations is not None and self.iterations < 1:
            raise ConfigError(f"iterations={self.iterations!r}; expected >= 1")
        if not self.checkpoint_seconds > 0 or self.step < 1:
            raise ConfigError(
                f"checkpoint every {self.checkpoint_seconds!r} s, step {self.step!r}; "
                "expected both > 0"
            )

    def done(self, trainer: BlueprintTrainer) -> bool:
        if self.iterations is not None and trainer.iteration >= self.iterations:
            return True
        return self.seconds is not None and trainer.seconds >= self.seconds

    def next_step(self, trainer: BlueprintTrainer) -> int:
        n = self.step
        if self.iterations is not None:
            n = min(n, self.iterations - trainer.iteration)
        return max(n, 1)


def _checkpoint(folder: Path, trainer: BlueprintTrainer, command: str) -> dict[str, Any]:
    trainer.save(folder / CHECKPOINT, command=command)
    trainer.blueprint(command=command).save(folder / BLUEPRINT)
    row = {
        "iteration": trainer.iteration,
        "seconds": round(trainer.seconds, 1),
        "touched": trainer.touched(),
        "infosets": trainer.num_infosets,
        "regret_proxy": trainer.regret_proxy(),
        "wall": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    path = folder / PROGRESS
    # a run killed while appending left half a line: start a fresh one, not glue to it
    torn = path.exists() and path.stat().st_size > 0 and not path.read_bytes().endswith(b"\n")
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(("\n" if torn else "") + json.dumps(row) + "\n")
    return row


def train_in_folder(
    folder: Path,
    trainer: BlueprintTrainer,
    budget: RunBudget,
    *,
    command: str = "",
    on_step: Callable[[BlueprintTrainer], None] | None = None,
    on_checkpoint: Callable[[dict[str, Any]], None] | None = None,
    step_fn: Callable[[BlueprintTrainer, int], None] | None = None,
) -> BlueprintTrainer:
    """Train until ``budget`` is spent, checkpointing into ``folder``; return the trainer.

    ``step_fn(trainer, n)`` runs ``n`` iterations (default ``trainer.iterate``; the Ray
    shards plug in here).
    """
    folder.mkdir(parents=True, exist_ok=True)
    run = step_fn if step_fn is not None else (lambda t, n: t.iterate(n))
    last = time.monotonic()
    try:
        while not budget.done(trainer):
            run(trainer, budget.next_step(trainer))
            if on_step is not None:
                on_step(trainer)
            if time.monotonic() - last >= budget.checkpoint_seconds:
                row = _checkpoint(folder, trainer, command)
                last = time.monotonic()
                if on_checkpoint is not None:
                    on_checkpoint(row)
    finally:
        # also on Ctrl-C: the iterations done so far are kept
        row = _checkpoint(folder, trainer, command)
        if on_checkpoint is not None:
            on_checkpoint(row)
        plot_progress(folder)
    return trainer


def read_progress(folder: Path) -> list[dict[str, Any]]:
    """The rows of ``progress.jsonl``; a line a killed run left half written is skipped."""
    path = folder / PROGRESS
    if not path.exists():
        return []
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(row, dict) and {"iteration", "regret_proxy"} <= row.keys():
            rows.append(row)
    return rows


def plot_progress(folder: Path) -> Path | None:
    """Draw the regret proxy against iterations (log-log) into ``progress.png``."""
    rows = [r for r in read_progress(folder) if r["regret_proxy"] == r["regret_proxy"]]
    if not rows:  # one checkpoint is still a point on the chart: a run always leaves it
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4), dpi=100)
    ax.loglog([r["iteration"] for r in rows], [r["regret_proxy"] for r in rows], marker="o")
    ax.set_xlabel("iterations (one traversal per position)")
    ax.set_ylabel("sum of max positive regret / iterations (chips)")
    ax.set_title("Blueprint training: exploitability proxy")
    ax.grid(True, which="both", alpha=0.3)
    # labels on the decades only: labelled minor ticks overlap once a run spans one
    from matplotlib.ticker import NullFormatter

    ax.xaxis.set_minor_formatter(NullFormatter())
    fig.tight_layout()
    out = folder / CHART
    fig.savefig(out)
    plt.close(fig)
    return out
