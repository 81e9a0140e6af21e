"""Blueprint MCCFR speed: external-sampling iterations per second on HUNL fold/call/pot/all-in.

Game: ACPC heads-up no-limit hold'em, 20,000-chip stacks, blinds 50/100 (the small
blind acts first preflop, the big blind first after), betting abstracted to fold,
call, a pot-sized bet and all-in. Ours is ``HoldemGame(PRESETS["fcpa"],
HoldemRules(), HoldemCards("default"))`` (full deck, the shipped card abstraction, no
recall) trained by ``BlueprintTrainer(game, seed, threads)``; the peer is
OpenSpiel's C++ ``ExternalSamplingMCCFRSolver`` (through ``pyspiel``) on
``universal_poker`` with the same rules (``PEER_PARAMETERS``) and
``bettingAbstraction=fcpa``. OpenSpiel has no card abstraction (its information
sets are the exact cards), so the two solve different abstract games and only
their iterations per second compare, not their convergence.

What one iteration is, for both. OpenSpiel's ``RunIteration()`` (in
``open_spiel/algorithms/external_sampling_mccfr.cc``) calls ``UpdateRegrets`` once
for each player from a fresh initial state: chance (each card dealt separately) and
the opponent's actions are sampled, the traverser's actions are all walked, the
traverser's cumulative regrets are updated, and with the default ``SIMPLE`` average
the opponent's cumulative strategy is updated at the nodes the traversal passes
through (no second averaging pass). Tables live in an ``std::unordered_map`` keyed
by the information-state string, an entry made on first visit. Ours:
``trainer.iterate(n)`` runs n iterations, each one external-sampling traversal per
position, the same unit; one iteration samples one deal and runs both traversals on
it, where OpenSpiel samples chance anew in each traversal. The trainer runs as
``checkraise blueprint train`` does (river buckets read from the table of every river
class, built before the timing) but with negative-regret pruning off
(``prune_from=2**62``), since OpenSpiel's solver does not prune; linear CFR discounts
every 200,000 iterations stay on. The settings are printed beside the figure.

Measured, each half in a fresh Python process run one after the other (so neither
shares memory or a core with the other):

* OpenSpiel: ``--warm-up`` seconds of iterations (not timed), then iterations for
  ``--seconds`` of wall time; iterations per second by wall time and by the
  process's CPU time, and separately over the first and second half of the timed
  window (its hash table grows all the time, since almost every deal meets new
  information sets). Memory per information set: growth of the process's resident
  memory (``/proc/self/statm``) from before the solver was made to the end of the
  run, divided by the information sets in its table, counted afterwards (not timed)
  from ``__getstate__``, which lists every entry (``key<~>values`` pairs). That
  serialised copy (about the size of the table, twice while pyspiel hands it to
  Python) raises the process's peak memory after the timing, not the figures.
* Ours: the trainer is built, ``iterate`` is called until ``--warm-up`` seconds have
  passed (the first call compiles the numba kernels; that time is printed), then
  ``iterate(batch)`` calls, the batch sized from the warm-up rate to last about a
  quarter second, until ``--seconds`` of wall time; iterations are read from
  ``trainer.iteration``. Memory per information set: ``trainer.memory_bytes``
  (int32 regrets and float32 strategy sums, plus per-worker deltas with more than
  one thread) over ``trainer.num_infosets`` (betting decisions times buckets, all
  preallocated), with the information sets touched by the end (``touched()``) and
  the resident-memory growth (tables, numba's compiled code) beside it.

The comparison is per core: OpenSpiel's solver is single-threaded, ours runs on
``--threads`` numba threads (default 1); with more than one thread the per-thread
ratio is printed too. The issue's goal is ours >= 20x OpenSpiel's iterations per
second. The machine is shared, so the load average is printed before and after.

Run: ``.venv/bin/python benchmarks/bench_blueprint.py [--seconds 20] [--warm-up 2]
[--threads 1] [--only openspiel|ours] [--json]``; progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from typing import Any

GOAL = 20.0

# ACPC heads-up no-limit ("holdem.nolimit.2p.reverse_blinds.game"): seat 1 posts the
# big blind and seat 2 the small blind, which acts first preflop (firstPlayer counts
# from 1, one entry per round).
PEER_PARAMETERS: dict[str, Any] = {
    "betting": "nolimit",
    "bettingAbstraction": "fcpa",
    "numPlayers": 2,
    "numRounds": 4,
    "blind": "100 50",
    "firstPlayer": "2 1 1 1",
    "numSuits": 4,
    "numRanks": 13,
    "numHoleCards": 2,
    "numBoardCards": "0 3 1 1",
    "stack": "20000 20000",
}


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _rss_bytes() -> int:
    """This process's resident memory now (not its peak), from /proc/self/statm."""
    with open("/proc/self/statm", encoding="ascii") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE")


# ---------------------------------------------------------------------- OpenSpiel
def run_openspiel(seconds: float, warm_up: float, seed: int) -> dict[str, Any]:
    """Time ``pyspiel.ExternalSamplingMCCFRSolver`` in this process."""
    import pyspiel

    game = pyspiel.load_game("universal_poker", PEER_PARAMETERS)
    rss_before = _rss_bytes()
    solver = pyspiel.ExternalSamplingMCCFRSolver(game, seed=seed)
    started = time.perf_counter()
    warm = 0
    while time.perf_counter() - started < warm_up:
        solver.run_iteration()
        warm += 1
    _log(f"[openspiel] warm-up: {warm} iterations in {time.perf_counter() - started:.1f} s")

    halves = [0, 0]
    cpu = time.process_time()
    started = time.perf_counter()
    half = started + seconds / 2
    end = started + seconds
    now = started
    while now < end:
        solver.run_iteration()
        halves[now >= half] += 1
        now = time.perf_counter()
    wall = now - started
    cpu_seconds = time.process_time() - cpu
    rss_after = _rss_bytes()
    iterations = halves[0] + halves[1]
    _log(f"[openspiel] {iterations} iterations in {wall:.1f} s; counting information sets")

    state = solver.__getstate__()
    table = state[state.find("[SolverValuesTable]"):]
    infosets = (table.count("<~>") + 1) // 2 if "<~>" in table else 0
    del state, table
    growth = rss_after - rss_before
    return {
        "solver": "OpenSpiel ExternalSamplingMCCFRSolver (C++)",
        "threads": 1,
        "warm_up_iterations": warm,
        "iterations": iterations,
        "seconds": round(wall, 3),
        "cpu_seconds": round(cpu_seconds, 3),
        "iterations_per_second": iterations / wall,
        "iterations_per_cpu_second": iterations / cpu_seconds if cpu_seconds else None,
        "iterations_per_second_halves": [2 * h / seconds for h in halves],
        "infosets": infosets,
        "rss_growth_bytes": growth,
        "bytes_per_infoset": growth / infosets if infosets else None,
        "memory_measure": "resident-memory growth / information sets in the table",
    }


# ---------------------------------------------------------------------- ours
def run_ours(seconds: float, warm_up: float, seed: int, threads: int) -> dict[str, Any]:
    """Time ``BlueprintTrainer.iterate`` in this process."""
    # Imported here so that the OpenSpiel half runs without the trainer.
    from checkraise.games.holdem import PRESETS, HoldemRules
    from checkraise.games.holdem_game import HoldemCards, HoldemGame
    from checkraise.solvers.blueprint import BlueprintTrainer, TrainSettings

    rss_before = _rss_bytes()
    started = time.perf_counter()
    # The full deck (no deal pool), the shipped card abstraction, no recall: the
    # game `checkraise blueprint train --preset fcpa` trains.
    game = HoldemGame(PRESETS["fcpa"], HoldemRules(), HoldemCards("default"))
    # Plain external sampling, as OpenSpiel runs it: no negative-regret pruning (the
    # trainer's default turns it on after 4 million iterations, inside this window).
    settings = TrainSettings(prune_from=2**62)
    trainer = BlueprintTrainer(game, seed=seed, threads=threads, settings=settings)
    trainer.use_river_table()  # as `blueprint train` does by default (setup, ~30 s)
    build = time.perf_counter() - started
    _log(f"[ours] game and trainer built in {build:.2f} s")

    started = time.perf_counter()
    trainer.iterate(1)
    compile_seconds = time.perf_counter() - started
    _log(f"[ours] first iterate(1), numba compile included: {compile_seconds:.1f} s")
    batch = 1
    while time.perf_counter() - started < compile_seconds + warm_up:
        tick = time.perf_counter()
        trainer.iterate(batch)
        if time.perf_counter() - tick < 0.05:
            batch *= 2
    warm = trainer.iteration
    rate = warm / max(time.perf_counter() - started - compile_seconds, 1e-9)
    batch = max(1, int(rate / 4))
    _log(f"[ours] warm-up: {warm} iterations, ~{rate:,.0f}/s; timed batches of {batch}")

    cpu = time.process_time()
    started = time.perf_counter()
    end = started + seconds
    now = started
    while now < end:
        trainer.iterate(batch)
        now = time.perf_counter()
    wall = now - started
    cpu_seconds = time.process_time() - cpu
    iterations = trainer.iteration - warm
    infosets = int(trainer.num_infosets)
    table_bytes = int(trainer.memory_bytes)
    settings = trainer.settings
    touched = trainer.touched()
    return {
        "solver": "ours: BlueprintTrainer (numba)",
        "threads": threads,
        "build_seconds": round(build, 3),
        "compile_seconds": round(compile_seconds, 3),
        "warm_up_iterations": warm,
        "iterations": iterations,
        "seconds": round(wall, 3),
        "cpu_seconds": round(cpu_seconds, 3),
        "iterations_per_second": iterations / wall,
        "iterations_per_cpu_second": iterations / cpu_seconds if cpu_seconds else None,
        "infosets": infosets,
        "table_bytes": table_bytes,
        "bytes_per_infoset": table_bytes / infosets if infosets else None,
        "touched_infosets": touched,
        "rss_growth_bytes": _rss_bytes() - rss_before,
        "trainer_settings": repr(settings),
        "pruning_in_window": trainer.iteration > settings.prune_from,
        "memory_measure": "trainer.memory_bytes / trainer.num_infosets",
    }


# ---------------------------------------------------------------------- driver
def run_child(which: str, args: argparse.Namespace) -> dict[str, Any]:
    """One half in a fresh subprocess; its stderr passes through."""
    env = dict(os.environ, NUMBA_NUM_THREADS=str(args.threads), OMP_NUM_THREADS="1")
    command = [sys.executable, __file__, "--child", which, "--seconds", str(args.seconds),
               "--warm-up", str(args.warm_up), "--seed", str(args.seed),
               "--threads", str(args.threads)]
    done = subprocess.run(command, env=env, stdout=subprocess.PIPE, text=True, check=False)
    if done.returncode != 0:
        return {"error": f"exit status {done.returncode} (see stderr above)"}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _bytes(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f} B"


def print_report(figures: dict[str, Any]) -> None:
    load = ", ".join(f"{x:.2f}" for x in figures["load_average_before"])
    print("HUNL (ACPC: 20,000 stacks, 50/100 blinds), fold/call/pot/all-in, external-sampling "
          f"MCCFR, {figures['seconds']:g} s timed each; load average before {load}")
    print(f"  {'':48s} {'iterations':>10s} {'it/s':>10s} {'it/CPU s':>10s} "
          f"{'info sets':>12s} {'per info set':>13s}")
    for key in ("openspiel", "ours"):
        r = figures.get(key)
        if r is None:
            continue
        if "error" in r:
            print(f"  {key:48s} failed: {r['error']}")
            continue
        label = r["solver"] + (f", {r['threads']} threads" if r["threads"] > 1 else "")
        per_cpu = r["iterations_per_cpu_second"] or float("nan")
        print(f"  {label:48s} {r['iterations']:10,d} {r['iterations_per_second']:10,.0f} "
              f"{per_cpu:10,.0f} {r['infosets']:12,d} {_bytes(r['bytes_per_infoset']):>13s}")
    theirs, ours = figures.get("openspiel"), figures.get("ours")
    if theirs is not None and "error" not in theirs:
        first, second = theirs["iterations_per_second_halves"]
        print(f"  OpenSpiel it/s over the first / second half of its window: {first:,.0f} / "
              f"{second:,.0f}; its per-info-set memory is resident-memory growth "
              f"({theirs['rss_growth_bytes'] / 2**20:,.0f} MiB) / info sets in its table")
    if ours is not None and "error" not in ours:
        print(f"  ours: tables {ours['table_bytes'] / 2**20:,.1f} MiB for all "
              f"{ours['infosets']:,} information sets (preallocated; "
              f"{ours['touched_infosets']:,} touched by the end), resident-memory growth "
              f"{ours['rss_growth_bytes'] / 2**20:,.0f} MiB, numba compile "
              f"{ours['compile_seconds']:.1f} s, pruning in the window: "
              f"{'yes' if ours['pruning_in_window'] else 'no'}")
        print(f"  ours: {ours['trainer_settings']}")
    ratio = figures.get("ratio")
    if ratio is not None:
        met = "met" if figures["ratio_per_thread"] >= GOAL else "NOT met"
        print(f"  ratio ours / OpenSpiel: {ratio:.1f}x iterations per second", end="")
        if ours is not None and ours["threads"] > 1:
            print(f", {figures['ratio_per_thread']:.1f}x per thread", end="")
        print(f" (goal >= {GOAL:g}x per core: {met})")
    load = ", ".join(f"{x:.2f}" for x in figures["load_average_after"])
    print(f"  load average after {load}; {os.cpu_count()} cores")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="Timed wall seconds for each solver (default 20).")
    parser.add_argument("--warm-up", type=float, default=2.0,
                        help="Untimed seconds first (ours: after the numba compile).")
    parser.add_argument("--threads", type=int, default=1,
                        help="Numba threads for ours (default 1; OpenSpiel's solver has one).")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=("openspiel", "ours"), default=None,
                        help="Run one half only.")
    parser.add_argument("--json", action="store_true", help="Print the figures as JSON.")
    parser.add_argument("--child", choices=("openspiel", "ours"), default=None,
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.seconds <= 0:
        parser.error(f"--seconds {args.seconds}; expected a positive number")
    if args.warm_up < 0:
        parser.error(f"--warm-up {args.warm_up}; expected a number >= 0")
    if args.threads < 1:
        parser.error(f"--threads {args.threads}; expected a whole number >= 1")

    if args.child == "openspiel":
        print(json.dumps(run_openspiel(args.seconds, args.warm_up, args.seed)))
        return
    if args.child == "ours":
        print(json.dumps(run_ours(args.seconds, args.warm_up, args.seed, args.threads)))
        return

    figures: dict[str, Any] = {
        "game": "ACPC HUNL, fold/call/pot/all-in",
        "peer_parameters": PEER_PARAMETERS,
        "seconds": args.seconds,
        "warm_up": args.warm_up,
        "seed": args.seed,
        "cores": os.cpu_count(),
        "load_average_before": list(os.getloadavg()),
    }
    for which in ("openspiel", "ours"):
        if args.only in (None, which):
            figures[which] = run_child(which, args)
    figures["load_average_after"] = list(os.getloadavg())
    theirs, ours = figures.get("openspiel"), figures.get("ours")
    if theirs and ours and "error" not in theirs and "error" not in ours:
        ratio = ours["iterations_per_second"] / theirs["iterations_per_second"]
        figures["ratio"] = ratio
        figures["ratio_per_thread"] = ratio / ours["threads"]
        figures["goal"] = GOAL
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print_report(figures)


if __name__ == "__main__":
    main()
