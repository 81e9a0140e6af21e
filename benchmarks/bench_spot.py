"""Spot solver speed and memory: time to 0.5 % of the pot on fixed postflop spots.

Spots (chips, big blind = 10, so 100 bb = 1,000 chips; player 0 = OOP):

``river``, ``turn``, ``flop``
    A single-raised pot, BTN opens to 2.5 bb, the big blind calls (the small
    blind's 0.5 bb is dead): pot 55, 975 behind, on ``Qs Jh 2h`` (flop), ``Qs Jh 2h
    8d`` (turn, flop checked through) and ``Qs Jh 2h 8d 3c`` (river, flop and turn
    checked through). The ranges are the preflop ranges unchanged (a checked-through
    line keeps almost all of both), so these are the widest ranges such a spot has.
    Turn: bets of 33 % and 75 % of the pot, raises of 60 %, no all-in. River: the
    same two sizes plus all-in, raise cap 3. Flop: bets of 33 % and 75 % of the pot
    on every street, pot-sized raises, all-in, raise cap 3, and the CLI's all-in
    threshold (a bet that would leave less than 67 % of the pot behind is all-in). With
    60 % raises and no threshold, as the turn and river, the flop tree's buffers needed
    35 GiB in float32 (70 in float64): more than this 24 GB machine; this one needs
    10 GiB in float32.
``3bet``
    The setting of the published anchors: a flop 3-bet pot on ``Qs Jh 2h``, pot 180,
    910 behind (100 bb), one bet size of 52 % of the pot on every street, a raise of
    2.5x (38 % of the pot after the call, this solver's raise unit, for a raise over a
    52 % bet), all-in always allowed, no all-in threshold. See ``ANCHOR_SOURCE`` for
    what is published and what we had to choose.

The ranges are ours, written for this benchmark from the shape of the usual 100 bb
6-max solver charts (BTN opens about 43 %, the big blind flats about 40 % and 3-bets
its strongest hands and some suited wheel aces; against a 3-bet, BTN flats pairs,
broadways and suited connectors). They are plausible, not any chart copied: a
benchmark needs wide, realistic ranges, not the exact frequencies of one chart.

For every spot and thread count a fresh Python process (so runs share no memory and
each one's peak is its own) warms numba up on a tiny spot, builds the solver, and
runs discounted CFR until the exploitability is at most ``--accuracy`` % of the pot,
checked every 10 iterations (as postflop-solver's ``solve`` does; the checks are
inside the time). It reports the iterations, wall seconds, CPU seconds (all
threads), iterations per second and the process's peak resident memory
(``ru_maxrss``), with the resident memory before the solver was built beside it. A
spot whose buffers would not fit in the memory the machine has free is not run; its
estimate is printed instead.

The peers were **not run here**: this machine reaches no Rust crate registry, so
postflop-solver cannot be built (``cargo`` cannot fetch crates), and TexasSolver and
PioSOLVER are not available. Their figures are the published anchors, measured on
another CPU with other (unpublished, weighted) ranges; the per-core comparison
divides their seconds by their 6 threads' cores and is a rough guide, not a
same-run measurement.

Run: ``.venv/bin/python benchmarks/bench_spot.py [--spots river,turn] [--threads 1,2]
[--accuracy 0.5] [--max-seconds 1800] [--precision float32] [--json]``; progress
goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Any

# Big blind = 10 chips. BTN (in position) opens 2.5 bb, BB (out of position) calls.
BTN_OPEN = "22+,A2s+,K2s+,Q2s+,J4s+,T6s+,96s+,85s+,75s+,64s+,54s,A2o+,K8o+,Q9o+,J9o+,T9o"
BB_CALL = (
    "JJ-22,AQs-A6s,A5s:0.5,A4s:0.5,A3s-A2s,K2s+,Q2s+,J4s+,T6s+,96s+,85s+,74s+,63s+,53s+,"
    "43s,AJo-A2o,K8o+,Q9o+,J9o+,T8o+,98o,87o"
)
# A blind 3-bets BTN's open to 9 bb and BTN calls: pot 18 bb, 91 bb behind.
BLIND_3BET = (
    "QQ+,AK,JJ:0.75,TT:0.5,99:0.25,AQs,AJs:0.75,ATs:0.5,A5s-A4s,A3s:0.5,KQs,KJs:0.5,"
    "KTs:0.5,QJs:0.5,JTs:0.5,T9s:0.25,98s:0.25,87s:0.25,76s:0.25,AQo:0.5,KQo:0.25"
)
BTN_CALL_3BET = (
    "JJ-55,44:0.5,33:0.5,22:0.5,QQ:0.5,AQs-A6s,A5s:0.5,A4s:0.5,KQs-K9s,QJs-Q9s,JTs-J9s,"
    "T9s-T8s,98s,87s,76s,65s,54s,A3s:0.5,A2s:0.5,K8s:0.5,Q8s:0.5,J8s:0.5,T7s:0.5,97s:0.5,"
    "86s:0.5,75s:0.5,64s:0.5,AQo:0.75,AJo:0.5,KQo:0.75,KJo:0.25,QJo:0.25"
)

SRP = {"pot": 55, "stack": 975, "big_blind": 10, "ranges": {"oop": BB_CALL, "ip": BTN_OPEN}}
TWO_SIZES = {"bet": [33, 75], "raise": [60]}

SPOTS: dict[str, dict[str, Any]] = {
    "river": {**SRP, "board": "Qs Jh 2h 8d 3c", "raise_cap": 3,
              "sizes": {**TWO_SIZES, "allin": True}},
    "turn": {**SRP, "board": "Qs Jh 2h 8d", "raise_cap": 3,
             "sizes": {**TWO_SIZES, "allin": False}},
    "flop": {**SRP, "board": "Qs Jh 2h", "raise_cap": 3, "allin_threshold": 0.67,
             "sizes": {"bet": [33, 75], "raise": [100], "allin": True}},
    "3bet": {"board": "Qs Jh 2h", "pot": 180, "stack": 910, "big_blind": 10, "raise_cap": 3,
             "allin_threshold": 0.0,
             "ranges": {"oop": BLIND_3BET, "ip": BTN_CALL_3BET},
             "sizes": {"bet": [52], "raise": [38], "allin": True}},
}

ANCHOR_SOURCE = (
    "wasm-postflop README, 'Comparison' (PioSOLVER's '3betpotFAST' preset, all-in threshold "
    "100 %; Ryzen 7 3700X, Windows 10, 6 threads, target 0.5 % of the pot). Board Qs Jh 2h, "
    "pot 180, 910 behind and the 52 % flop bet are shown only in its result screenshots; "
    "its weighted ranges and turn/river sizes are not published, so ours are chosen."
)


@dataclass(frozen=True)
class Anchor:
    """A published figure for the flop 3-bet pot at 0.5 % with 6 threads."""

    name: str
    seconds: float
    memory_gb: float | None
    threads: int = 6


ANCHORS = (
    Anchor("postflop-solver (Desktop Postflop 0.2.1, f32)", 20.0, 1.27),
    Anchor("PioSOLVER Free 2.0.8 (Pio CFR)", 22.9, 1.41),
    Anchor("TexasSolver 0.2.0", 103.5, 2.84),
)

WARM_UP = {"board": "Qs Jh 2h", "pot": 55, "stack": 975, "big_blind": 10,
           "ranges": {"oop": "AA,KK", "ip": "QQ,JJ"}, "sizes": {"bet": [50], "raise": [60]},
           "raise_cap": 1}


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _rss_mb() -> float:
    """This process's peak resident memory so far (``ru_maxrss`` is KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


# ---------------------------------------------------------------------- estimates
def estimate_mb(name: str, precision: str) -> tuple[tuple[int, int], int, float]:
    """Hands, tree nodes and MiB of the solver's buffers, from the tree alone."""
    from checkraise.solvers.spot import Spot, build_tree
    from checkraise.solvers.spot.solver import estimate_memory

    spot = Spot.from_dict(SPOTS[name])
    hands = (int((spot.weights(0) > 0).sum()), int((spot.weights(1) > 0).sum()))
    nodes = build_tree(spot, hands).num_nodes
    return hands, int(nodes), estimate_memory(spot, precision) / 2**20


def available_mb() -> float:
    """``MemAvailable`` of /proc/meminfo, in MiB (inf where unknown)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return float("inf")


# ---------------------------------------------------------------------- one run
def child(name: str, threads: int, accuracy: float, max_seconds: float,
          max_iterations: int, precision: str) -> dict[str, Any]:
    """Solve one spot in this (fresh) process and return its figures."""
    from checkraise.solvers.spot import Spot
    from checkraise.solvers.spot.solver import SpotSolver

    tag = f"[{name} {threads}T]"
    warm = SpotSolver(Spot.from_dict(WARM_UP), precision=precision, threads=threads)
    started = time.perf_counter()
    warm.iterate(2)
    warm.exploitability()
    _log(f"{tag} numba warm-up {time.perf_counter() - started:.1f} s")
    del warm
    rss_before = _rss_mb()

    started = time.perf_counter()
    solver = SpotSolver(Spot.from_dict(SPOTS[name]), precision=precision, threads=threads)
    build = time.perf_counter() - started
    _log(f"{tag} built in {build:.2f} s: hands {solver.hands}, "
         f"{solver.tree.num_nodes} nodes, {solver.memory_bytes / 2**20:.0f} MiB of buffers")

    def progress(iteration: int, exploit: float) -> None:
        _log(f"{tag} iteration {iteration:5d}  exploitability {exploit:8.3f} % of the pot  "
             f"{time.perf_counter() - wall:8.1f} s")

    cpu = time.process_time()
    wall = time.perf_counter()
    exploit = solver.solve(accuracy=accuracy, max_iterations=max_iterations,
                           max_seconds=max_seconds, check_every=10, progress=progress)
    seconds = time.perf_counter() - wall
    cpu_seconds = time.process_time() - cpu
    return {
        "spot": name,
        "threads": threads,
        "precision": precision,
        "hands": list(solver.hands),
        "nodes": int(solver.tree.num_nodes),
        "iterations": solver.iteration,
        "seconds": round(seconds, 3),
        "cpu_seconds": round(cpu_seconds, 3),
        "iterations_per_second": round(solver.iteration / seconds, 3) if seconds else None,
        "exploitability_pct": round(exploit, 4),
        "reached": exploit <= accuracy,
        "build_seconds": round(build, 3),
        "buffers_mb": round(solver.memory_bytes / 2**20, 1),
        "rss_before_mb": round(rss_before, 1),
        "peak_rss_mb": round(_rss_mb(), 1),
    }


def run(name: str, threads: int, args: argparse.Namespace) -> dict[str, Any]:
    """One fresh subprocess for one spot and thread count; its stderr passes through."""
    env = dict(os.environ, NUMBA_NUM_THREADS=str(threads), OMP_NUM_THREADS="1")
    command = [sys.executable, __file__, "--child", name, "--threads", str(threads),
               "--accuracy", str(args.accuracy), "--max-seconds", str(args.max_seconds),
               "--max-iterations", str(args.max_iterations), "--precision", args.precision]
    done = subprocess.run(command, env=env, stdout=subprocess.PIPE, text=True, check=False)
    if done.returncode != 0:
        return {"spot": name, "threads": threads, "error": f"exit status {done.returncode}"}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


# ---------------------------------------------------------------------- report
def print_table(results: list[dict[str, Any]], skipped: list[dict[str, Any]],
                accuracy: float) -> None:
    print(f"Spot solver, discounted CFR, to {accuracy:g} % of the pot "
          "(fresh process per run; load average "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())} at the end)")
    print(f"  {'spot':6s} {'hands':>9s} {'nodes':>6s} {'thr':>3s} {'iters':>6s} {'wall s':>8s} "
          f"{'cpu s':>8s} {'it/s':>7s} {'expl %':>7s} {'RSS MB':>7s} {'before':>7s} "
          f"{'buffers':>8s}")
    for r in results:
        if "error" in r:
            print(f"  {r['spot']:6s} {'':>9s} {'':>6s} {r['threads']:3d}  failed: {r['error']}")
            continue
        hands = f"{r['hands'][0]}/{r['hands'][1]}"
        mark = "" if r["reached"] else "  (not reached)"
        print(f"  {r['spot']:6s} {hands:>9s} {r['nodes']:6d} {r['threads']:3d} "
              f"{r['iterations']:6d} {r['seconds']:8.2f} {r['cpu_seconds']:8.2f} "
              f"{r['iterations_per_second']:7.2f} {r['exploitability_pct']:7.3f} "
              f"{r['peak_rss_mb']:7.0f} {r['rss_before_mb']:7.0f} {r['buffers_mb']:8.0f}{mark}")
    for s in skipped:
        hands = f"{s['hands'][0]}/{s['hands'][1]}"
        print(f"  {s['spot']:6s} {hands:>9s} {s['nodes']:6d}  not run: its buffers need "
              f"{s['estimate_mb'] / 1024:.1f} GiB ({s['precision']}), "
              f"{s['limit_mb'] / 1024:.1f} GiB allowed")
    print("  (RSS MB: the process's peak resident memory; before: its peak before the solver "
          "was built, Python + numpy + numba; buffers: the solver's regret, strategy and "
          "showdown arrays)")


def print_anchors(results: list[dict[str, Any]]) -> None:
    print("\nPublished anchors, flop 3-bet pot, 0.5 % of the pot, 6 threads -- NOT run here "
          "(no Rust crate registry on this machine, so postflop-solver cannot be built; "
          "TexasSolver and PioSOLVER are not installed):")
    print(f"  source: {ANCHOR_SOURCE}")
    print(f"  {'solver':48s} {'seconds':>8s} {'core-s':>8s} {'memory':>9s}")
    for a in ANCHORS:
        memory = f"{a.memory_gb:.2f} GB" if a.memory_gb is not None else "-"
        print(f"  {a.name:48s} {a.seconds:8.1f} {a.seconds * a.threads:8.1f} {memory:>9s}")
    ours = [r for r in results if r.get("spot") == "3bet" and "error" not in r]
    if not ours:
        print("  (run --spots 3bet for our figures on the same setting)")
        return
    peer = ANCHORS[0]
    print("  per core: their core-seconds (seconds x 6 threads) over ours (wall seconds x "
          "threads, and our CPU seconds, which a loaded machine inflates less); > 1 means we "
          "need fewer core-seconds")
    for r in ours:
        core_s = r["seconds"] * r["threads"]
        cpu_s = r["cpu_seconds"]
        reached = "" if r["reached"] else " (target not reached: a lower bound)"
        print(f"  ours, {r['threads']} thread(s), {r['precision']}: {r['seconds']:.1f} s = "
              f"{core_s:.1f} core-s ({cpu_s:.1f} CPU s), {r['iterations']} iterations, "
              f"peak RSS {r['peak_rss_mb'] / 1024:.2f} GiB{reached}")
        for a in ANCHORS:
            theirs = a.seconds * a.threads
            print(f"      {a.name:46s} per-core ratio {theirs / core_s:6.2f} "
                  f"(by CPU s {theirs / cpu_s:6.2f})")
        if peer.memory_gb is not None:
            # Their "GB" read as 2**30 bytes, the unit of postflop-solver's own printout.
            ratio = r["peak_rss_mb"] / 1024 / peer.memory_gb
            print(f"      memory: our peak RSS / postflop-solver's {peer.memory_gb:.2f} GB "
                  f"= {ratio:.2f}")
    print("  Caveats: other CPU (Ryzen 7 3700X there), other ranges (theirs are weighted and "
          "unpublished), turn/river sizes and raise cap of the preset unknown; their 6 threads "
          "are assumed busy on 6 cores.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spots", default=",".join(SPOTS),
                        help=f"Comma-separated spots out of {', '.join(SPOTS)}.")
    parser.add_argument("--threads", default="1,2", help="Thread counts, e.g. 1,2.")
    parser.add_argument("--accuracy", type=float, default=0.5, help="Target, %% of the pot.")
    parser.add_argument("--max-seconds", type=float, default=1800.0,
                        help="Stop a run after this many solver seconds.")
    parser.add_argument("--max-iterations", type=int, default=10_000)
    parser.add_argument("--precision", choices=("float64", "float32"), default="float64")
    parser.add_argument("--max-memory-gb", type=float, default=None,
                        help="Skip spots whose buffers need more (default: 80 %% of the "
                             "memory available now).")
    parser.add_argument("--json", action="store_true", help="Print the figures as JSON.")
    parser.add_argument("--save", default=None, help="Also write the JSON figures to this file.")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.child is not None:
        result = child(args.child, int(args.threads), args.accuracy, args.max_seconds,
                       args.max_iterations, args.precision)
        print(json.dumps(result))
        return

    names = [s.strip() for s in args.spots.split(",") if s.strip()]
    unknown = [n for n in names if n not in SPOTS]
    if unknown:
        parser.error(f"unknown spot {unknown[0]!r}; expected some of {', '.join(SPOTS)}")
    try:
        thread_counts = [int(t) for t in args.threads.split(",")]
    except ValueError:
        parser.error(f"--threads {args.threads!r}; expected whole numbers such as 1,2")
    if any(t < 1 for t in thread_counts):
        parser.error(f"--threads {args.threads!r}; expected whole numbers >= 1")
    limit_mb = (args.max_memory_gb * 1024.0 if args.max_memory_gb is not None
                else 0.8 * available_mb())

    results: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    for name in names:
        hands, nodes, need = estimate_mb(name, args.precision)
        if need > limit_mb:
            _log(f"[{name}] skipped: buffers need {need / 1024:.1f} GiB, "
                 f"limit {limit_mb / 1024:.1f} GiB")
            skipped.append({"spot": name, "hands": list(hands), "nodes": nodes,
                            "estimate_mb": round(need, 1), "limit_mb": round(limit_mb, 1),
                            "precision": args.precision})
            continue
        for threads in thread_counts:
            _log(f"[{name} {threads}T] starting ({hands[0]}/{hands[1]} hands, {nodes} nodes, "
                 f"~{need:.0f} MiB of buffers)")
            results.append(run(name, threads, args))

    figures = {
        "accuracy_pct": args.accuracy,
        "load_average": list(os.getloadavg()),
        "results": results,
        "skipped": skipped,
        "peer_run_here": False,
        "anchors": {"source": ANCHOR_SOURCE, "figures": [
            {"name": a.name, "seconds": a.seconds, "threads": a.threads,
             "memory_gb": a.memory_gb} for a in ANCHORS]},
        "spots": SPOTS,
    }
    if args.save is not None:
        with open(args.save, "w", encoding="utf-8") as f:
            json.dump(figures, f, indent=2)
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print_table(results, skipped, args.accuracy)
    print_anchors(results)


if __name__ == "__main__":
    main()
