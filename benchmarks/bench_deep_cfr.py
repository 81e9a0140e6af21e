"""Deep CFR on Leduc hold'em: ours against OpenSpiel's PyTorch Deep CFR, same settings.

In one process, one torch thread each, the same iterations, traversals, network
sizes, batch sizes, training steps, learning rate and memory size (defaults: the
anchor's 100 iterations of 1,500 traversals, with the network and training settings
of OpenSpiel's ``examples/deep_cfr_pytorch.py``):

- OpenSpiel: ``open_spiel.python.pytorch.deep_cfr.DeepCFRSolver`` on
  ``pyspiel.load_game("leduc_poker")``, its ``solve()``; NashConv of its policy
  network by ``open_spiel.python.algorithms.exploitability.nash_conv``;
- ours: :class:`checkraise.nn.deep_cfr.DeepCFRSolver` on our Leduc, ``run()``
  (traversals, advantage networks and the policy network); NashConv of its policy
  network by our exact best response, cross-checked by converting the policy to an
  OpenSpiel ``TabularPolicy`` and asking OpenSpiel.

Seconds count the solve only (not the NashConv): wall seconds, and the process's CPU
seconds (``time.process_time``), the steadier figure on a shared machine. NashConv is stochastic: it
depends on the seed, so compare over a few seeds (``--seeds 0,1``).

OpenSpiel's PyTorch Deep CFR imports ``tree`` (the PyPI package ``dm-tree``), which
checkraise does not depend on; without it the script installs a stand-in
``tree.map_structure`` for named tuples (noted in the output), which is all that
module uses of it.

Run: ``.venv/bin/python benchmarks/bench_deep_cfr.py [--iterations 100] [--traversals 1500]
[--seeds 0] [--which both|ours|openspiel] [--quick]``.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import json
import os
import sys
import time
import types
from pathlib import Path
from typing import Any

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root, for tests/

import torch

from checkraise.games import load_game
from checkraise.nn.deep_cfr import DeepCFRConfig, DeepCFRSolver
from checkraise.solvers.best_response import nash_conv


def _tree_stand_in() -> bool:
    """Install a minimal ``tree`` module if dm-tree is missing; whether it did."""
    try:
        import tree  # noqa: F401
    except ImportError:
        module = types.ModuleType("tree")

        def map_structure(fn: Any, *structures: Any) -> Any:
            first = structures[0]
            return type(first)(*(fn(*leaves) for leaves in zip(*structures, strict=True)))

        module.map_structure = map_structure  # type: ignore[attr-defined]
        # a spec, as a real module has: torch's optimisers look modules up with find_spec
        module.__spec__ = importlib.machinery.ModuleSpec("tree", None)
        sys.modules["tree"] = module
        return True
    return False


def run_openspiel(config: DeepCFRConfig) -> dict[str, Any]:
    """OpenSpiel's Deep CFR on leduc_poker with ``config``'s settings."""
    import pyspiel
    from open_spiel.python import policy
    from open_spiel.python.algorithms import exploitability
    from open_spiel.python.pytorch import deep_cfr

    game = pyspiel.load_game("leduc_poker")
    cpu = time.process_time()
    start = time.perf_counter()
    solver = deep_cfr.DeepCFRSolver(
        game,
        policy_network_layers=config.policy_layers,
        advantage_network_layers=config.advantage_layers,
        num_iterations=config.iterations,
        num_traversals=config.traversals,
        learning_rate=config.learning_rate,
        batch_size_advantage=config.advantage_batch or None,
        batch_size_strategy=config.policy_batch or None,
        memory_capacity=config.memory,
        policy_network_train_steps=config.policy_steps,
        advantage_network_train_steps=config.advantage_steps,
        reinitialize_advantage_networks=True,
        seed=config.seed,
    )
    solver.solve()
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu
    table = policy.tabular_policy_from_callable(game, solver.action_probabilities)
    return {"nash_conv": float(exploitability.nash_conv(game, table)), "seconds": seconds,
            "cpu_seconds": cpu}


def run_ours(config: DeepCFRConfig, cross_check: bool) -> dict[str, Any]:
    """Our Deep CFR on Leduc with ``config``; NashConv ours (and OpenSpiel's, if asked)."""
    game = load_game("leduc")
    cpu = time.process_time()
    start = time.perf_counter()
    solver = DeepCFRSolver(game, config)
    solver.run()
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu
    policy = solver.policy()
    out: dict[str, Any] = {"nash_conv": nash_conv(solver.tree, policy), "seconds": seconds,
                           "cpu_seconds": cpu}
    if cross_check:
        from open_spiel.python.algorithms import exploitability
        from tests.solvers.openspiel_policy import to_openspiel

        os_game, table = to_openspiel("leduc", policy)
        out["nash_conv_openspiel"] = float(exploitability.nash_conv(os_game, table))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--traversals", type=int, default=1500)
    parser.add_argument("--advantage-steps", type=int, default=375)
    parser.add_argument("--policy-steps", type=int, default=2500)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--memory", type=int, default=100_000)
    parser.add_argument("--learning-rate", type=float, default=1e-3)
    parser.add_argument("--layers", default="64", help="Hidden widths of both networks.")
    parser.add_argument("--seeds", default="0", help="Comma-separated seeds.")
    parser.add_argument("--which", choices=("both", "ours", "openspiel"), default="both")
    parser.add_argument("--quick", action="store_true",
                        help="A small preset: 10 iterations of 150 traversals, 50/250 steps.")
    parser.add_argument("--json", action="store_true", help="Print one JSON line per seed.")
    args = parser.parse_args()
    torch.set_num_threads(1)
    if args.quick:
        args.iterations, args.traversals = 10, 150
        args.advantage_steps, args.policy_steps = 50, 250
    layers = tuple(int(w) for w in args.layers.split(","))
    stand_in = _tree_stand_in() if args.which != "ours" else False
    if stand_in:
        print("note: dm-tree is not installed; OpenSpiel runs with a stand-in tree.map_structure")
    # Warm the numba kernels (cached on disk) so that compiling is not timed.
    DeepCFRSolver(load_game("leduc"), DeepCFRConfig(iterations=1, traversals=1,
                  advantage_steps=0, policy_steps=0)).run()
    print(f"Leduc Deep CFR: {args.iterations} iterations x {args.traversals} traversals, "
          f"layers {layers}, steps {args.advantage_steps}/{args.policy_steps}, batch "
          f"{args.batch}, lr {args.learning_rate}, memory {args.memory}, 1 torch thread")
    for seed in (int(s) for s in args.seeds.split(",")):
        config = DeepCFRConfig(
            iterations=args.iterations, traversals=args.traversals,
            advantage_layers=layers, policy_layers=layers, learning_rate=args.learning_rate,
            advantage_batch=args.batch, policy_batch=args.batch,
            advantage_steps=args.advantage_steps, policy_steps=args.policy_steps,
            memory=args.memory, seed=seed,
        )
        row: dict[str, Any] = {"seed": seed}
        if args.which in ("both", "ours"):
            row["ours"] = run_ours(config, cross_check=args.which == "both")
        if args.which in ("both", "openspiel"):
            row["openspiel"] = run_openspiel(config)
        if "ours" in row and "openspiel" in row:
            row["time_ratio"] = row["openspiel"]["seconds"] / row["ours"]["seconds"]
            row["cpu_ratio"] = row["openspiel"]["cpu_seconds"] / row["ours"]["cpu_seconds"]
        if args.json:
            print(json.dumps(row), flush=True)
            continue
        for who in ("openspiel", "ours"):
            if who in row:
                r = row[who]
                check = (f"  (OpenSpiel's nash_conv of it: {r['nash_conv_openspiel']:.4f})"
                         if "nash_conv_openspiel" in r else "")
                print(f"seed {seed}  {who:9s}  NashConv {r['nash_conv']:.4f}  "
                      f"wall s {r['seconds']:8.1f}  CPU s {r['cpu_seconds']:8.1f}{check}",
                      flush=True)
        if "time_ratio" in row:
            print(f"seed {seed}  OpenSpiel / ours: wall {row['time_ratio']:.1f}x, "
                  f"CPU {row['cpu_ratio']:.1f}x", flush=True)


if __name__ == "__main__":
    main()
