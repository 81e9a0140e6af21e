"""``benchmarks/resolve_gain.py --opponent``: the turn test against one continuation strategy.

Against ``--opponent none`` (the plain blueprint) each seat's deal is played out on its
own and his range is tracked by a separate set of readers, yet the spot and the play are
those of blueprint self-play: the gains must be the plain turn test's, which shares one
deal and the bot's own ranges.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "resolve_gain.py"
DEAL = 432001  # reaches the turn in blueprint self-play and against bias=call


@pytest.fixture(scope="module")
def gain() -> ModuleType:
    spec = importlib.util.spec_from_file_location("resolve_gain", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_against_the_plain_blueprint_it_is_the_self_play_test(gain: ModuleType) -> None:
    plain = gain.turn_gains(DEAL, ["depth/safe"], 10)
    against = gain.turn_gains_against(DEAL, ["depth/safe"], 10, "none", 0.99)
    assert plain["reached"] and against["reached"]
    for seat in (0, 1):
        assert against[f"pot@{seat}"] == plain["pot"]
        assert against[f"depth/safe@{seat}"] == pytest.approx(plain[f"depth/safe@{seat}"],
                                                                abs=1e-6)


def test_a_seat_whose_hand_ended_gains_nothing(gain: ModuleType) -> None:
    rows = [{"deal": 1, "reached": True, "depth/safe@1": 10.0}, {"deal": 2, "reached": False}]
    (line,) = gain.summary(rows, ["depth/safe"], "turn")
    # deal 1: (0 + 10) / 2 = 5 chips = 50 mbb; deal 2: 0; mean 25, sd 35.36 over 2 deals
    assert "+25.0 ±   49.0 mbb/hand over 2 deals (1 reached the turn)" in line


def test_belief_puts_its_weight_on_the_opponent(gain: ModuleType) -> None:
    import numpy as np

    weights = np.exp(gain.belief_logs("call", 0.97))
    assert weights == pytest.approx([0.01, 0.01, 0.97, 0.01])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--opponent", "call"], "--opponent call with --street river; expected --street turn"),
        (["--street", "turn", "--opponent", "call", "--belief", "1"],
         "--belief 1.0; expected a probability strictly between 0 and 1"),
    ],
)
def test_bad_options_are_named(tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "gain.jsonl"
    run = subprocess.run([sys.executable, str(SCRIPT), *args, "--out", str(out)],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 2
    assert message in run.stderr
    assert not out.exists()


def test_pooling_a_variant_the_files_do_not_hold_is_named(tmp_path: Path) -> None:
    run = tmp_path / "run.jsonl"
    run.write_text('{"deal": 1, "reached": true, "pot@0": 10, "depth/model@0": 5.0, '
                   '"depth/safe@0": 1.0}\n{"deal": 2, "reached": false}\n')
    done = subprocess.run([sys.executable, str(SCRIPT), "--street", "turn", "--variants",
                           "depth/network,depth/safe", "--pool", str(run)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert ("--variants depth/network: no deal in the files that reached the turn holds it; "
            "they hold depth/model, depth/safe") in done.stderr
    done = subprocess.run([sys.executable, str(SCRIPT), "--street", "turn", "--variants",
                           "depth/model,depth/safe", "--pool", str(run)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    # deal 1: (5 - 1) / 2 = 2 chips = 20 mbb; deal 2: 0; mean 10
    assert "depth/model minus depth/safe:    +10.0" in done.stdout
    missing = subprocess.run([sys.executable, str(SCRIPT), "--pool", str(tmp_path / "no")],
                             capture_output=True, text=True, check=False)
    assert missing.returncode == 2 and "--pool " + str(tmp_path / "no") in missing.stderr



def test_the_kept_leaf_test_gives_the_figures_the_readme_reports(gain: ModuleType) -> None:
    import gzip

    root = SCRIPT.parents[1]
    kept = root / "docs" / "results" / "issue16" / "leaf" / "call_433001.jsonl.gz"
    rows = gain.read_rows(gzip.decompress(kept.read_bytes()).decode())
    assert sorted(rows) == list(range(433001, 433401))  # the pre-registered 400 deals, once
    lines = gain.summary(list(rows.values()), ["depth/model", "depth/safe"], "turn")
    model, safe, diff = (line.split() for line in lines)
    readme = " ".join((root / "README.md").read_text().split())
    assert (f"`leaf=model` gains {model[1]} ± {model[3]} mbb/hand and `leaf=safe` "
            f"{safe[1]} ± {safe[3]}") in readme
    assert f"`leaf=model` minus `leaf=safe` is {diff[3]} ± {diff[5]} mbb/hand" in readme
