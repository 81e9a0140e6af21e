"""``benchmarks/pool_parts.py``: a pairing's parts pooled from their figures.

The oracle is ``checkraise match --pool``, which pools the same matches deal by deal
from their journals: a part given only by its figures (deals, mean, half width, as a
closing note records them) must give the same pooled figure, to the rounding of the
figures given.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from checkraise.cli.main import app

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "pool_parts.py"


def _match(out: Path, seed: int, deals: int, agents: tuple[str, str] = ("random", "call")
           ) -> dict:
    result = CliRunner().invoke(app, ["match", *agents, "-n", str(deals), "--seed", str(seed),
                                      "--workers", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return json.loads((out / "results.json").read_text())


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, check=False)


def test_a_part_known_by_its_figures_pools_as_its_deals_would(tmp_path: Path) -> None:
    first = _match(tmp_path / "a", 21, 60)["players"][0]["mbb_per_hand_luck_adjusted"]
    _match(tmp_path / "b", 22, 90)
    pooled = CliRunner().invoke(app, ["match", "--pool", str(tmp_path / "a"), "--pool",
                                      str(tmp_path / "b"), "--json"])
    assert pooled.exit_code == 0, pooled.output
    want = json.loads(pooled.output)["players"][0]["mbb_per_hand_luck_adjusted"]
    # Both folders on disk: exactly the deal-by-deal figure.
    both = _run(str(tmp_path / "a"), str(tmp_path / "b"), "--json")
    assert both.returncode == 0, both.stderr
    got = json.loads(both.stdout)["pooled"]
    assert got["n"] == want["n"] == 150
    assert got["mean"] == pytest.approx(want["mean"], rel=1e-9)
    assert got["half_width"] == pytest.approx(want["half_width"], rel=1e-9)
    # The first folder lost, its figures kept at whole mbb/hand.
    given = [str(first["n"]), str(round(first["mean"])), str(round(first["half_width"]))]
    lost = _run("--figures", *given, str(tmp_path / "b"), "--json")
    assert lost.returncode == 0, lost.stderr
    got = json.loads(lost.stdout)["pooled"]
    assert got["n"] == 150
    assert got["mean"] == pytest.approx(want["mean"], abs=0.5 * 60 / 150 + 1e-9)
    assert got["half_width"] == pytest.approx(want["half_width"], rel=0.01)
    assert "pooled (luck" in _run("--figures", *given, str(tmp_path / "b")).stdout
    # A pooled folder (match --pool --out) is a part too, with its parts' seeds.
    _match(tmp_path / "c", 23, 50)
    joined = CliRunner().invoke(app, ["match", "--pool", str(tmp_path / "b"), "--pool",
                                      str(tmp_path / "c"), "--out", str(tmp_path / "bc")])
    assert joined.exit_code == 0, joined.output
    three = CliRunner().invoke(app, ["match", "--pool", str(tmp_path / "a"), "--pool",
                                     str(tmp_path / "b"), "--pool", str(tmp_path / "c"),
                                     "--json"])
    want = json.loads(three.output)["players"][0]["mbb_per_hand_luck_adjusted"]
    nested = _run(str(tmp_path / "a"), str(tmp_path / "bc"), "--json")
    assert nested.returncode == 0, nested.stderr
    got = json.loads(nested.stdout)["pooled"]
    assert got["n"] == want["n"] == 200
    assert got["mean"] == pytest.approx(want["mean"], rel=1e-9)
    assert got["half_width"] == pytest.approx(want["half_width"], rel=1e-9)
    again = _run(str(tmp_path / "bc"), str(tmp_path / "c"))
    assert again.returncode != 0 and "seeds [22, 23, 23]: a seed repeats" in again.stderr


def test_bad_parts_are_refused_with_the_value(tmp_path: Path) -> None:
    _match(tmp_path / "a", 21, 20)
    _match(tmp_path / "c", 23, 20, ("call", "random"))
    small = CliRunner().invoke(app, ["match", "random", "call", "-n", "20", "--seed", "24",
                                     "--blinds", "5/10", "--workers", "1", "--out",
                                     str(tmp_path / "d")])
    assert small.exit_code == 0, small.output
    _match(tmp_path / "e", 25, 1)
    cases = [
        ((), "no parts"),
        (("--figures", "1", "5", "3"), "at least 2 deals"),
        (("--figures", "10", "x", "3"), "--figures 10 x 3: expected DEALS"),
        ((str(tmp_path / "nowhere"),), "nowhere/results.json"),
        ((str(tmp_path / "a"), str(tmp_path / "a")), "seeds [21, 21]"),
        ((str(tmp_path / "a"), str(tmp_path / "c")), "expected the parts of one pairing"),
        ((str(tmp_path / "a"), "--player", "fold"), "--player 'fold'"),
        ((str(tmp_path / "a"), str(tmp_path / "d")),
         "small_blind 5 where " + str(tmp_path / "a") + " has 50"),
        (("--figures", "10", "5", "inf"),
         "--figures 10 5 inf: expected at least 2 deals, a finite mean and a finite half"),
        ((str(tmp_path / "e"),), "figure is over 1 deal(s), with no spread"),
    ]
    for args, message in cases:
        run = _run(*args)
        assert run.returncode != 0 and message in run.stderr, (args, run.stderr)
