"""``checkraise spot solve|show|example`` on tiny river and turn spots (seconds each).

Oracles: the sizes of the tree come from the flags by hand (75% of a 60-chip pot is
a bet of 45), the per-class numbers of ``show`` are recomputed here combo by combo
from the solver's report, and a PNG is recognised by its signature.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from tests.cli_helpers import PNG_SIGNATURE
from tests.cli_helpers import bad_cli as _bad
from tests.cli_helpers import run_cli as _run

from checkraise.cards import CLASS_NAMES, COMBO_CLASS
from checkraise.cli import spot_cmd
from checkraise.cli.main import main
from checkraise.solvers.spot.config import load_spot
from checkraise.solvers.spot.io import load_solution

RIVER_FLAGS = ["--board", "Ks,7h,2c,3d,9s", "--pot", "100", "--stack", "100",
               "--oop-range", "AA,QQ,T8s,65s", "--ip-range", "KK,JJ,A9s",
               "--bet-sizes", "50,100", "--raise-sizes", "100"]




@pytest.fixture(scope="module")
def river(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("spot") / "river"
    assert main(["spot", "solve", *RIVER_FLAGS, "--accuracy", "0.5", "--max-iterations",
                 "400", "--out", str(out), "--json"]) == 0
    return out


def test_solve_from_flags_prints_the_json_keys_and_saves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "sol"
    code, text, _ = _run(["spot", "solve", *RIVER_FLAGS, "--accuracy", "0.5",
                          "--max-iterations", "400", "--threads", "2", "--out", str(out),
                          "--json"], capsys)
    assert code == 0
    result = json.loads(text)
    assert {"exploitability_pct", "iterations", "seconds", "peak_memory_mb", "out"} <= set(result)
    assert result["out"] == str(out)
    assert result["exploitability_pct"] <= 0.5 and 0 < result["iterations"] <= 400
    assert result["peak_memory_mb"] > 10  # a Python process with numpy holds more than that
    solver, info = load_solution(out)
    assert solver.iteration == result["iterations"]
    assert math.isclose(solver.exploitability(), result["exploitability_pct"], rel_tol=1e-9)
    assert info.command is not None and info.command.startswith("checkraise spot solve --board")
    assert "--threads 2" in info.command and "--json" in info.command
    assert load_spot(out / "spot.toml") == solver.spot


def test_flags_override_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spot_file = tmp_path / "spot.toml"
    spot_file.write_text(
        'board = "Ks 7h 2c 3d 9s"\npot = 100\nstack = 100\n'
        '[ranges]\noop = "AA,QQ,T8s"\nip = "KK,JJ"\n'
        "[sizes]\nbet = [50]\n[sizes.river.ip]\nbet = [33]\n"
    )
    out = tmp_path / "sol"
    code, _, err = _run(["spot", "solve", str(spot_file), "--pot", "60", "--bet-sizes", "75",
                         "--no-allin", "--max-iterations", "20", "--out", str(out)], capsys)
    assert code == 0, err
    solver, _ = load_solution(out)
    spot = solver.spot
    assert (spot.pot, spot.stack, spot.ip_range) == (60, 100, "KK,JJ")  # file kept, pot from flag
    assert all(s.bet == (75.0,) and not s.allin for street in spot.sizes for s in street)
    # 75% of a 60-chip pot is a bet of 45 for OOP and, after a check, for IP too.
    assert solver.strategy_at("")[0] == ("x", "b45")
    assert solver.strategy_at("x")[0] == ("x", "b45")


def test_bad_input_gives_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad_board = [*RIVER_FLAGS]
    bad_board[1] = "Ks,7h,2c,3d,9x"
    assert "'9x'" in _bad(["spot", "solve", *bad_board], capsys)
    assert "--pot, --stack" in _bad(["spot", "solve", "--board", "Ks,7h,2c"], capsys)
    clash = [*RIVER_FLAGS[:6], "--oop-range", "KsKh", "--ip-range", "QQ"]
    assert "KsKh" in _bad(["spot", "solve", *clash], capsys)
    assert "'abc'" in _bad(["spot", "solve", *RIVER_FLAGS, "--bet-sizes", "50,abc"], capsys)
    assert "cfr2" in _bad(["spot", "solve", *RIVER_FLAGS, "--algorithm", "cfr2"], capsys)
    assert "--max-iterations 0" in _bad(
        ["spot", "solve", *RIVER_FLAGS, "--max-iterations", "0"], capsys)
    assert "nope.toml" in _bad(["spot", "solve", str(tmp_path / "nope.toml")], capsys)
    assert not any(tmp_path.iterdir())


def test_out_folder_is_not_overwritten_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "sol"
    argv = ["spot", "solve", *RIVER_FLAGS, "--max-iterations", "10", "--out", str(out)]
    assert _run(argv, capsys)[0] == 0
    before = (out / "solution.npz").read_bytes()
    assert "--force" in _bad([*argv[:-4], "--max-iterations", "20", "--out", str(out)], capsys)
    assert (out / "solution.npz").read_bytes() == before
    assert _run([*argv[:-4], "--max-iterations", "20", "--out", str(out), "--force"],
                capsys)[0] == 0
    assert load_solution(out)[0].iteration == 20


def test_resume_goes_on_as_one_uninterrupted_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    whole, part = tmp_path / "whole", tmp_path / "part"
    base = ["spot", "solve", *RIVER_FLAGS, "--accuracy", "1e-9", "--check-every", "5"]
    assert _run([*base, "--max-iterations", "30", "--out", str(whole)], capsys)[0] == 0
    assert _run([*base, "--max-iterations", "10", "--out", str(part)], capsys)[0] == 0
    code, text, _ = _run(["spot", "solve", "--resume", str(part), "--accuracy", "1e-9",
                          "--check-every", "5", "--max-iterations", "30", "--json"], capsys)
    assert code == 0 and json.loads(text)["iterations"] == 30
    (a, _), (b, info) = load_solution(whole), load_solution(part)
    assert info.command is not None
    first, then = info.command.split(" && ")
    assert "--max-iterations 10" in first and "--resume" not in first
    assert then.startswith("checkraise spot solve ") and f"--resume {part}" in then
    for p in range(2):
        np.testing.assert_array_equal(a.cum[p], b.cum[p])
        np.testing.assert_array_equal(a.regret[p], b.regret[p])
    line = _bad(["spot", "solve", "--resume", str(part), "--pot", "80", "--algorithm", "cfr+"],
                capsys)
    assert "drop --pot, --algorithm" in line
    line = _bad(["spot", "solve", "spot.toml", "--resume", str(part), "--no-allin"], capsys)
    assert "drop SPOT, --no-allin" in line  # the argument by its metavar, a flag as typed


def test_show_json_gives_reach_weighted_class_numbers(
    river: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    png = tmp_path / "x.png"
    code, text, _ = _run(["spot", "show", str(river), "--line", "x", "--png", str(png),
                          "--json"], capsys)
    assert code == 0
    shown = json.loads(text)
    assert shown["actor"] == "IP" and shown["labels"] == ["x", "b50", "b100"]
    assert math.isclose(sum(shown["frequencies"].values()), 1.0)
    assert png.read_bytes()[:8] == PNG_SIGNATURE and shown["png"] == str(png)
    # Recompute every class from the per-combo report, one combo at a time.
    report = load_solution(river)[0].report("x")
    rows = {row["class"]: row for row in shown["classes"]}
    expected: dict[str, list[float]] = {}
    for i, combo in enumerate(report.combos):
        name = CLASS_NAMES[int(COMBO_CLASS[combo])]
        w = float(report.reach[i])
        acc = expected.setdefault(name, [0.0] * (2 + 2 * len(report.labels)))
        acc[0] += w
        acc[1] += w * report.ev[i]
        for j in range(len(report.labels)):
            acc[2 + j] += w * report.strategy[i, j]
        acc[2 + len(report.labels)] += w * report.equity[i]
    assert set(rows) == {name for name, acc in expected.items() if acc[0] > 0}
    for name, row in rows.items():
        acc = expected[name]
        assert math.isclose(row["combos"], acc[0], rel_tol=1e-12)
        assert math.isclose(row["ev"], acc[1] / acc[0], rel_tol=1e-9, abs_tol=1e-9)
        assert math.isclose(row["equity"], acc[2 + len(report.labels)] / acc[0], rel_tol=1e-9)
        for j, label in enumerate(report.labels):
            assert math.isclose(row["strategy"][label], acc[2 + j] / acc[0], abs_tol=1e-12)
    # The aggregate frequency is the range's reach-weighted mean as well.
    for j, label in enumerate(report.labels):
        want = float(np.dot(report.reach, report.strategy[:, j]) / report.reach.sum())
        assert math.isclose(shown["frequencies"][label], want, rel_tol=1e-12)


def test_show_prints_grids_and_writes_the_png(
    river: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, text, _ = _run(["spot", "show", str(river)], capsys)
    assert code == 0
    lines = text.splitlines()
    assert lines[0].startswith("OOP at the root, board Ks 7h 2c 3d 9s")
    header = "     A   K   Q   J   T   9   8   7   6   5   4   3   2"
    assert lines.count(header) == 3  # one grid per action: x, b50, b100
    aa_row = lines[lines.index(header) + 1]
    assert aa_row.startswith("A ") and aa_row.split()[1] != "."  # AA is in OOP's range
    assert any(line.startswith("AA ") for line in lines)
    png = river / "strategy-root.png"
    assert png.read_bytes()[:8] == PNG_SIGNATURE


def test_show_on_a_bad_line_names_the_actions(
    river: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = _bad(["spot", "show", str(river), "--line", "b60"], capsys)
    assert "no action 'b60' here; expected one of x, b50, b100" in line
    assert "hand is over" in _bad(["spot", "show", str(river), "--line", "x x c"], capsys)
    assert "no such solution folder" in _bad(["spot", "show", str(tmp_path / "no")], capsys)


def test_turn_spot_show_asks_for_the_river_card(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "turn"
    argv = ["spot", "solve", "--board", "Ks7h2c3d", "--pot", "60", "--stack", "90",
            "--oop-range", "AA,65s", "--ip-range", "KK,A3s", "--bet-sizes", "75",
            "--max-iterations", "10", "--out", str(out)]
    assert _run(argv, capsys)[0] == 0
    line = _bad(["spot", "show", str(out), "--line", "x x"], capsys)
    assert "stops where the river is dealt" in line and '--line "x x As"' in line
    code, text, _ = _run(["spot", "show", str(out), "--line", "x x 5h"], capsys)
    assert code == 0 and "board Ks 7h 2c 3d 5h" in text


def test_example_writes_a_spot_that_loads_and_keeps_an_existing_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "dir" / "spot.toml"
    assert _run(["spot", "example", str(path)], capsys)[0] == 0
    spot = load_spot(path)
    assert spot.street == "turn" and spot.sizes[2][1].bet == (33.0, 75.0)
    path.write_text("mine")
    assert "--force" in _bad(["spot", "example", str(path)], capsys)
    assert path.read_text() == "mine"


def test_written_out_names_match_the_solver() -> None:
    from checkraise.solvers.spot.solver import PRECISIONS, SOLVER_ALGORITHMS

    assert spot_cmd.ALGORITHM_NAMES == SOLVER_ALGORITHMS
    assert spot_cmd.PRECISION_NAMES == PRECISIONS
