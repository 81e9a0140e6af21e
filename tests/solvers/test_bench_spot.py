"""The spot benchmark's fixed spots and its memory estimate (``benchmarks/bench_spot.py``).

The benchmark skips a spot whose buffers would not fit in memory, judging from an
estimate made from the betting tree alone; these tests hold that estimate to the
bytes the solver really allocates, and the anchor spot to the published setting it
stands for.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from checkraise.solvers.spot import Spot, build_tree
from checkraise.solvers.spot.solver import SpotSolver

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_spot.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_spot", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


def test_every_spot_is_a_valid_spot(bench: ModuleType) -> None:
    assert set(bench.SPOTS) == {"river", "turn", "flop", "3bet"}
    streets = {name: Spot.from_dict(data).street for name, data in bench.SPOTS.items()}
    assert streets == {"river": "river", "turn": "turn", "flop": "flop", "3bet": "flop"}


# The turn board has no two interchangeable suits; the 3-bet flop's clubs and
# diamonds are (np.zeros leaves its gigabyte of buffers unpaged until written).
@pytest.mark.parametrize(
    ("name", "precision"), [("river", "float64"), ("turn", "float32"), ("3bet", "float32")]
)
def test_memory_estimate_is_the_solvers_allocation(
    bench: ModuleType, name: str, precision: str
) -> None:
    hands, nodes, estimate_mb = bench.estimate_mb(name, precision)
    solver = SpotSolver(Spot.from_dict(bench.SPOTS[name]), precision=precision)
    assert hands == solver.hands
    assert nodes == solver.tree.num_nodes
    assert estimate_mb * 2**20 == solver.memory_bytes


def test_anchor_spot_bets_52_percent_and_raises_two_and_a_half_times(
    bench: ModuleType,
) -> None:
    # The published 3betpotFAST setting: pot 180, 910 behind, a 52 % bet, 2.5x raises.
    tree = build_tree(Spot.from_dict(bench.SPOTS["3bet"]), (1, 1))
    root = [tree.labels[c] for c in tree.children(0)]
    assert root == ["x", "b94", "b910"]
    bet = tree.find("b94")
    raises = [tree.labels[c] for c in tree.children(bet) if tree.labels[c].startswith("r")]
    assert abs(int(raises[0][1:]) - 2.5 * 94) <= 1
    assert raises[-1] == "r910"


def test_the_help_text_prints() -> None:
    # argparse expands % in help texts: a bare "%" made --help crash.
    import subprocess

    done = subprocess.run([sys.executable, str(SCRIPT), "--help"], capture_output=True,
                          text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr[-300:]
    assert "Target, % of the pot." in done.stdout


def test_the_flop_spot_fits_the_machine_it_was_measured_on(bench: ModuleType) -> None:
    # Its figures in docs/benchmarks.md were measured in float32 on 24 GB.
    from checkraise.solvers.spot.solver import estimate_memory

    spot = Spot.from_dict(bench.SPOTS["flop"])
    assert estimate_memory(spot, "float32") < 12 * 2**30
