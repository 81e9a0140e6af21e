"""CFR speed on Leduc hold'em: ours (vectorised, numba) against OpenSpiel's C++ CFR+.

In one process, on one core:

1. milliseconds per CFR+ iteration, ours (public-tree vectorised CFR+) vs
   ``pyspiel.CFRPlusSolver`` (OpenSpiel's C++), and their ratio;
2. solver seconds each needs to reach exploitability 1e-3 (best responses that
   measure progress are not counted; both solvers run the same algorithm, so they
   need about the same number of iterations);
3. a table of the exploitability each algorithm reaches after 1, 10 and 60 solver
   seconds (``--budgets``), for our vectorised and tabular solvers, the sampling
   solvers, fictitious play and OpenSpiel's C++ CFR+.

Run: ``.venv/bin/python benchmarks/bench_cfr.py [--budgets 1,10,60] [--quick]``.
"""

from __future__ import annotations

import argparse
import gc
import os
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import pyspiel

from checkraise.games import GameTree, build_tree, load_game
from checkraise.solvers import make_solver
from checkraise.solvers.trace import SolveTrace, run_solver

TARGET = 1e-3


def ours_ms_per_iteration(iterations: int, repeats: int = 5) -> float:
    """Best-of-``repeats`` milliseconds per vectorised CFR+ iteration."""
    solver = make_solver("cfr+", load_game("leduc"))
    solver.warm_up()
    best = float("inf")
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        solver.iterate(iterations)
        best = min(best, (time.perf_counter() - start) / iterations)
    return best * 1e3


def openspiel_ms_per_iteration(iterations: int, repeats: int = 3) -> float:
    """Best-of-``repeats`` milliseconds per ``pyspiel.CFRPlusSolver`` iteration."""
    solver = pyspiel.CFRPlusSolver(pyspiel.load_game("leduc_poker"))
    solver.evaluate_and_update_policy()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(iterations):
            solver.evaluate_and_update_policy()
        best = min(best, (time.perf_counter() - start) / iterations)
    return best * 1e3


def openspiel_trace(seconds: float, stop_below: float = 0.0) -> SolveTrace:
    """OpenSpiel C++ CFR+ with exploitability at geometric checkpoints (not timed)."""
    game = pyspiel.load_game("leduc_poker")
    solver = pyspiel.CFRPlusSolver(game)
    trace = SolveTrace("openspiel cfr+ (C++)")
    elapsed = 0.0
    done = 0
    target = 1
    while elapsed < seconds:
        start = time.perf_counter()
        for _ in range(target - done):
            solver.evaluate_and_update_policy()
        elapsed += time.perf_counter() - start
        done = target
        value = pyspiel.exploitability(game, solver.average_policy())
        trace.iterations.append(done)
        trace.seconds.append(elapsed)
        trace.exploitability.append(value)
        if value <= stop_below:
            break
        target = max(done + 1, int(done * 1.25))
    return trace


def ours_trace(
    algorithm: str, seconds: float, vectorised: bool | None, tree: GameTree
) -> SolveTrace:
    """One of our solvers run for ``seconds`` of solver time."""
    solver = make_solver(algorithm, load_game("leduc"), vectorised=vectorised, tree=tree)
    trace = run_solver(solver, seconds=seconds)
    suffix = " (vectorised)" if type(solver).__name__.startswith("Vectorised") else ""
    trace.algorithm = algorithm + suffix
    return trace


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budgets", default="1,10,60", help="Seconds for the table.")
    parser.add_argument("--quick", action="store_true", help="Budgets 0.5,2 and fewer runs.")
    args = parser.parse_args()
    budgets = [0.5, 2.0] if args.quick else [float(b) for b in args.budgets.split(",")]

    ours_ms = ours_ms_per_iteration(500 if args.quick else 2000)
    theirs_ms = openspiel_ms_per_iteration(5 if args.quick else 20)
    print("Leduc hold'em, CFR+ (alternating updates, regret matching+, linear averaging)")
    print(f"  ours (vectorised, numba)       {ours_ms:9.4f} ms/iteration")
    print(f"  OpenSpiel CFRPlusSolver (C++)  {theirs_ms:9.4f} ms/iteration")
    print(f"  ratio                          {theirs_ms / ours_ms:9.1f}x faster per iteration")

    tree = build_tree(load_game("leduc"))
    mine = ours_trace("cfr+", max(budgets[-1], 1.0), None, tree)
    reference = openspiel_trace(max(budgets[-1], 60.0 if not args.quick else 5.0), TARGET)
    ours_time, theirs_time = mine.seconds_to(TARGET), reference.seconds_to(TARGET)
    ours_iters, theirs_iters = mine.iterations_to(TARGET), reference.iterations_to(TARGET)
    print(f"\nsolver seconds to exploitability {TARGET:g} (checkpoints 25% apart)")
    print(f"  ours (vectorised CFR+)         {ours_time:9.4f} s  ({ours_iters} iterations)")
    print(f"  OpenSpiel CFRPlusSolver (C++)  {theirs_time:9.4f} s  ({theirs_iters} iterations)")
    if ours_time == ours_time and theirs_time == theirs_time:
        print(f"  ratio                          {theirs_time / ours_time:9.1f}x")

    runs: list[tuple[str, bool | None]] = [
        ("cfr+", None), ("dcfr", None), ("lcfr", None), ("cfr", None),
        ("cfr+", False), ("cs-cfr", False), ("es-mccfr", False), ("os-mccfr", False),
        ("xfp", False),
    ]
    if args.quick:
        runs = [("cfr+", None), ("dcfr", None), ("cfr+", False), ("es-mccfr", False)]
    traces = [ours_trace(name, budgets[-1], vec, tree) for name, vec in runs]
    traces.append(openspiel_trace(budgets[-1]))
    header = "".join(f"{f'after {b:g} s':>14s}" for b in budgets)
    print("\nexploitability (chips/hand) of the average policy on Leduc")
    print(f"  {'algorithm':34s}{header}")
    for trace in traces:
        cells = "".join(f"{trace.at_seconds(b):14.3e}" for b in budgets)
        print(f"  {trace.algorithm:34s}{cells}")


if __name__ == "__main__":
    main()
