"""DeepFool training throughput: MCCFR traversals per second at six seats.

One traversal deals one six-max hand (blinds 20/40, stacks drawn in 10..150 big
blinds), expands the traverser's first ``--expand-depth`` decisions on every path
(every legal action class) and samples the other seats' actions from the strategy,
labelling each expanded decision with its regret-matched strategy
(:mod:`checkraise.nn.deepfool_mccfr`). Measured in this process, one core
(``torch.set_num_threads(1)``), after a warm-up traversal each:

* ``mccfr (numpy)``: the standard phase as ``checkraise nn deepfool train`` runs it,
  the network evaluated by :class:`~checkraise.nn.deepfool_policy.NumpyPolicy`;
* ``mccfr (torch)``, the peer: the same traversals with the same weights, each
  decision evaluated by the torch module itself (``DeepFoolNet.probs``), the obvious
  way to write it; the ratio is what the numpy forward pass buys;
* ``fast (rule agent)``: the fast phase, whose strategy is the rule agent (a Monte
  Carlo win probability per decision) and no network.

Run: ``PYTHONPATH=src python benchmarks/bench_deepfool.py [--traversals 200]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--traversals", type=int, default=200)
    parser.add_argument("--expand-depth", type=int, default=2)
    parser.add_argument("--network", default="default", help="default, pretrained or a file")
    args = parser.parse_args()

    import torch

    from checkraise.agents.deepfool import SHIPPED, shipped_network
    from checkraise.engine import State
    from checkraise.nn.deepfool_data import random_table, rule_decision
    from checkraise.nn.deepfool_encoding import stack_encoded
    from checkraise.nn.deepfool_mccfr import TraversalResult, traverse
    from checkraise.nn.deepfool_net import load_net
    from checkraise.nn.deepfool_policy import NumpyPolicy

    torch.set_num_threads(1)
    path = shipped_network(args.network) if args.network in SHIPPED else args.network
    net = load_net(path)[0]
    policy = NumpyPolicy({k: v.numpy() for k, v in net.state_dict().items()})

    def run(name: str, strategy, n: int) -> float:  # type: ignore[no-untyped-def]
        rng = np.random.default_rng(1)
        for warm in range(2):
            out = TraversalResult()
            count = 1 if warm == 0 else n
            start = time.perf_counter()
            for i in range(count):
                state = State(random_table(rng, 6), seed=int(rng.integers(2**31)))
                traverse(state, i % 6, lambda o, e: strategy(o, e, rng), rng,
                         args.expand_depth, out)
            seconds = time.perf_counter() - start
        rate = n / seconds
        print(f"{name:22s} {rate:8.1f} traversals/s  ({out.nodes / n:.0f} nodes and "
              f"{len(out.labels) / n:.1f} labels per traversal)")
        return rate

    ours = run("mccfr (numpy)", lambda o, e, rng: policy.probs(e), args.traversals)
    peer = run("mccfr (torch)", lambda o, e, rng: net.probs(stack_encoded([e]))[0],
               args.traversals)
    run("fast (rule agent)", lambda o, e, rng: rule_decision(o, e, rng, 100),
        max(args.traversals // 4, 1))
    print(f"numpy / torch forward: {ours / peer:.2f}x  (expand depth {args.expand_depth}, "
          f"network {path})")


if __name__ == "__main__":
    main()
