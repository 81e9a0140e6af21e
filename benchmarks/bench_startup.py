"""Start-up time of the ``checkraise`` command against ``python -c "import numpy"``.

Ours: ``checkraise --help`` (and the light ``range`` command) run as fresh processes,
``python -m checkraise.cli.main`` with this checkout's ``src`` first on the path.
Peer: a fresh ``python -c "import numpy"``, the floor of any numpy program. Goal:
``--help`` about as fast as the peer (commands import numba, the evaluator tables,
matplotlib and rich only when they run).

Wall-clock and CPU (user + system of the child) figures, best and median of several
runs; on a shared machine the wall figure moves with the other jobs' load, the CPU
figure much less. The ratios are of the bests. Part of any command's cost (not of
``--help``) is typer's own: it imports pydantic to convert the arguments.

Run: ``python benchmarks/bench_startup.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(
    args: list[str], runs: int, cache: str | None = None
) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of ``runs`` fresh ``python ARGS`` processes (output discarded).

    ``cache`` is a folder for compiled ``.pyc`` files: as an installed package has them,
    the timed runs should not compile the sources again (a ``PYTHONDONTWRITEBYTECODE``
    in the environment would make every run do so).
    """
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(SRC), *filter(None, [os.environ.get("PYTHONPATH")])]))
    if cache is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = cache
    walls, cpus = [], []
    for _ in range(runs):
        cpu = _children_cpu()
        start = time.perf_counter()
        subprocess.run([sys.executable, *args], env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        walls.append(time.perf_counter() - start)
        cpus.append(_children_cpu() - cpu)
    return walls, cpus


def _line(label: str, runs: tuple[list[float], list[float]]) -> str:
    wall, cpu = runs
    return (f"  {label:<34} wall best {1000 * min(wall):6.0f} ms, "
            f"median {1000 * statistics.median(wall):6.0f} ms;  "
            f"CPU best {1000 * min(cpu):6.0f} ms, median {1000 * statistics.median(cpu):6.0f} ms")


def main() -> None:
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("--runs", type=int, default=15, help="runs of each command (default 15)")
    args = cli.parse_args()
    commands = {
        'python -c "import numpy" (peer)': ["-c", "import numpy"],
        "checkraise --help": ["-m", "checkraise.cli.main", "--help"],
        "checkraise range QQ+,AKs": ["-m", "checkraise.cli.main", "range", "QQ+,AKs"],
    }
    with tempfile.TemporaryDirectory() as cache:
        for argv in commands.values():
            timed(argv, 1, cache)  # compile once, warm the file cache
        numpy, help_, range_ = (timed(argv, args.runs, cache) for argv in commands.values())
    print(f"start-up, wall clock, {args.runs} runs each:")
    for label, result in zip(commands, (numpy, help_, range_), strict=True):
        print(_line(label, result))
    print(f"ratio checkraise --help / import numpy (best): wall "
          f"{min(help_[0]) / min(numpy[0]):.2f}x, CPU {min(help_[1]) / min(numpy[1]):.2f}x")


if __name__ == "__main__":
    main()
