"""Import speed of the Pluribus folder: parse + replay + insert, in hands per second.

Ours: :func:`checkraise.histories.import_files` into a fresh SQLite file (one
transaction per file), i.e. PokerStars parsing, a full engine replay with the
payout check, and the inserts. Peer: PokerKit's ``PokerStarsParser`` (parse) and
iterating its ``HandHistory`` states (replay), on a subset because it is slow; no
database. Goal: >= 5,000 hands/s on one core.

Both wall-clock and CPU (``time.process_time``) figures are printed, best and median
of several runs: on a shared machine the wall figure moves with the other jobs'
load, the CPU figure much less.

The whole command: ``checkraise hands import <the folder> --db <new file>`` run as a
fresh process (start-up, imports, parsing, replay and inserts), wall clock and CPU
of the child, in hands per second. Goal: >= 5,000 hands/s wall clock. The child
keeps compiled ``.pyc`` files in a temporary folder, as an installed package has
them (``PYTHONDONTWRITEBYTECODE`` would make every run compile the sources).

Run: ``python benchmarks/bench_import.py [--runs N] [--command-only]``.
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

from checkraise.histories import import_files, insert_hands, open_database, parse_file, replay

DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "pluribus"
SRC = Path(__file__).resolve().parents[1] / "src"


def command(files: list[Path], cache: str) -> tuple[float, float]:
    """One whole ``checkraise hands import`` process into a new database: (wall s, CPU s)."""
    env = dict(os.environ, PYTHONPYCACHEPREFIX=cache, PYTHONPATH=os.pathsep.join(
        [str(SRC), *filter(None, [os.environ.get("PYTHONPATH")])]))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory() as tmp:
        argv = [sys.executable, "-m", "checkraise.cli.main", "hands", "import",
                *map(str, files), "--db", str(Path(tmp) / "h.sqlite")]
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = usage.ru_utime + usage.ru_stime
        start = time.perf_counter()
        subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL)
        wall = time.perf_counter() - start
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, usage.ru_utime + usage.ru_stime - cpu


def whole_command(files: list[Path], hands: int, runs: int) -> None:
    """Print the whole command's rates, best and median of ``runs``."""
    with tempfile.TemporaryDirectory() as cache:
        command(files, cache)  # compile the sources once, warm the file cache
        timed = [command(files, cache) for _ in range(runs)]
    walls = [t[0] for t in timed]
    cpus = [t[1] for t in timed]
    met = "met" if hands / min(walls) >= 5000 else "not met"
    print(f"checkraise hands import (whole command, fresh process), {hands} hands, {runs} runs:")
    print(f"  wall: {_rates(hands, walls)}   (goal >= 5,000 hands/s wall: {met})")
    print(f"  CPU:  {_rates(hands, cpus)}")


def ours(files: list[Path]) -> tuple[int, float, float]:
    """One import into a fresh database: (hands added, wall s, CPU s)."""
    with tempfile.TemporaryDirectory() as tmp:
        db = open_database(Path(tmp) / "bench.sqlite")
        start = time.perf_counter()
        cpu = time.process_time()
        reports = import_files(db, files)
        cpu = time.process_time() - cpu
        elapsed = time.perf_counter() - start
        db.close()
    assert all(r.ok for r in reports), [r.error for r in reports if not r.ok]
    return sum(r.added for r in reports), elapsed, cpu


def stages(files: list[Path]) -> dict[str, float]:
    """CPU seconds of each stage, file by file as the import does them."""
    spent = {"parse": 0.0, "replay": 0.0, "insert": 0.0}
    clock = time.process_time
    with tempfile.TemporaryDirectory() as tmp:
        db = open_database(Path(tmp) / "stages.sqlite")
        gc.disable()  # as import_files does while it reads and stores a file
        try:
            for path in files:
                t0 = clock()
                hands = parse_file(path)
                t1 = clock()
                for hand in hands:
                    replay(hand)
                t2 = clock()
                insert_hands(db, hands)
                t3 = clock()
                spent["parse"] += t1 - t0
                spent["replay"] += t2 - t1
                spent["insert"] += t3 - t2
        finally:
            gc.enable()
            db.close()
    return spent


def peer(files: list[Path]) -> tuple[int, float, float]:
    """PokerKit on ``files``: (hands, wall s, CPU s)."""
    from pokerkit.notation import PokerStarsParser

    parser = PokerStarsParser()
    text = "\n\n\n".join(f.read_text() for f in files)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        start = time.perf_counter()
        cpu = time.process_time()
        count = 0
        for history in parser(text, parse_value=lambda s: int(float(s))):
            for _state in history:
                pass
            count += 1
        cpu = time.process_time() - cpu
        elapsed = time.perf_counter() - start
    return count, elapsed, cpu


def _rates(hands: int, seconds: list[float]) -> str:
    return (f"best {hands / min(seconds):,.0f} hands/s ({min(seconds):.3f} s), "
            f"median {hands / statistics.median(seconds):,.0f} hands/s "
            f"({statistics.median(seconds):.3f} s)")


def main() -> None:
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("--runs", type=int, default=7, help="timed imports (default 7)")
    cli.add_argument("--command-only", action="store_true",
                     help="time only the whole command, not the stages and the peer")
    args = cli.parse_args()
    files = sorted(DATA.glob("*.txt"))
    if not files:
        raise SystemExit(f"no Pluribus data under {DATA}")
    whole_command(files, sum(len(parse_file(f)) for f in files), args.runs)
    if args.command_only:
        return
    ours(files[:2])  # warm up imports and the evaluator
    runs = [ours(files) for _ in range(args.runs)]
    hands = runs[0][0]
    walls = [r[1] for r in runs]
    cpus = [r[2] for r in runs]
    split = min((stages(files) for _ in range(3)), key=lambda s: sum(s.values()))
    print(f"checkraise import (parse + replay + insert), {hands} hands, {args.runs} runs:")
    print(f"  wall: {_rates(hands, walls)}")
    print(f"  CPU:  {_rates(hands, cpus)}")
    print("  CPU by stage (best of 3): " + ", ".join(f"{k} {v:.3f} s" for k, v in split.items()))
    peer_files = files[:3]
    peer_runs = [peer(peer_files) for _ in range(2)]
    peer_hands = peer_runs[0][0]
    peer_wall = min(r[1] for r in peer_runs)
    peer_cpu = min(r[2] for r in peer_runs)
    print(f"pokerkit PokerStarsParser + HandHistory replay (no database), {peer_hands} hands, "
          f"best of 2:")
    print(f"  wall: {peer_hands / peer_wall:,.0f} hands/s, "
          f"CPU: {peer_hands / peer_cpu:,.0f} hands/s")
    ratio_wall = (hands / min(walls)) / (peer_hands / peer_wall)
    ratio_cpu = (hands / min(cpus)) / (peer_hands / peer_cpu)
    met = "met" if hands / min(cpus) >= 5000 else "not met"
    print(f"ratio checkraise / pokerkit (best): wall {ratio_wall:.1f}x, CPU {ratio_cpu:.1f}x   "
          f"(goal >= 5,000 hands/s on one core, by CPU: {met})")


if __name__ == "__main__":
    main()
