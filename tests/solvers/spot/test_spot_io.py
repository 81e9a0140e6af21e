"""Saved spot solutions: the loaded solver reports and iterates exactly like the saved one.

A damaged, edited or foreign folder fails with one :class:`SolutionError` (a
``FormatError``) and is left as it was.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from checkraise.errors import CheckraiseError, FormatError
from checkraise.solvers.spot.config import Spot
from checkraise.solvers.spot.io import (
    ARRAYS_FILE,
    HEADER_FILE,
    SolutionError,
    load_solution,
    save_solution,
)
from checkraise.solvers.spot.solver import Gadget, Leaf, NodeReport, SpotSolver

RIVER = {"board": "Ks 7h 2c 3d 9s", "pot": 100, "stack": 100,
         "ranges": {"oop": "AA,QQ,T8s,65s", "ip": "KK,JJ,A9s"},
         "sizes": {"bet": [50, 100], "raise": [100]}}
TURN = {"board": "Ks 7h 2c 3d", "pot": 60, "stack": 90,
        "ranges": {"oop": "AA,QQ,65s", "ip": "KK,JJ,A3s"},
        "sizes": {"bet": [75], "raise": [100], "allin": False}}


def _solved(table: dict[str, object], iterations: int = 15, **kwargs: object) -> SpotSolver:
    solver = SpotSolver(Spot.from_dict(table), **kwargs)  # type: ignore[arg-type]
    solver.iterate(iterations)
    return solver


def _assert_reports_equal(a: NodeReport, b: NodeReport, rtol: float = 0.0) -> None:
    assert a.labels == b.labels and a.actor == b.actor and a.board == b.board
    np.testing.assert_array_equal(a.combos, b.combos)
    for name in ("reach", "strategy", "ev", "equity", "frequencies"):
        got, want = getattr(a, name), getattr(b, name)
        if rtol:
            np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol, err_msg=name)
        else:
            np.testing.assert_array_equal(got, want, err_msg=name)


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("table,lines", [
    (RIVER, ["", "x", "b50", "x b100"]),
    (TURN, ["", "x x 5h", "b45 c Ac b45"]),
], ids=["river", "turn"])
def test_round_trip_gives_equal_reports(
    tmp_path: Path, table: dict[str, object], lines: list[str]
) -> None:
    solver = _solved(table, algorithm="cfr+")
    exploit = solver.exploitability()
    save_solution(solver, tmp_path, exploitability_pct=exploit, command="checkraise spot solve x")
    loaded, info = load_solution(tmp_path)
    assert (loaded.iteration, loaded.seconds, loaded.algorithm) == (15, solver.seconds, "cfr+")
    assert info.exploitability_pct == exploit and info.command == "checkraise spot solve x"
    assert loaded.spot == solver.spot
    for line in lines:
        _assert_reports_equal(loaded.report(line), solver.report(line))
    assert loaded.exploitability() == exploit
    assert loaded.expected_values() == solver.expected_values()


def test_loaded_solver_iterates_on_as_if_never_saved(tmp_path: Path) -> None:
    # Discounted CFR weighs iteration t by t-dependent factors: a resumed run matches an
    # uninterrupted one only if the regrets and the iteration count come back exactly.
    solver = _solved(TURN, iterations=10)
    save_solution(solver, tmp_path)
    resumed, _ = load_solution(tmp_path)
    solver.iterate(7)
    resumed.iterate(7)
    assert resumed.iteration == 17
    for p in range(2):
        np.testing.assert_array_equal(resumed.regret[p], solver.regret[p])
        np.testing.assert_array_equal(resumed.cum[p], solver.cum[p])


def test_float32_save_is_smaller_and_reports_agree_to_single_precision(tmp_path: Path) -> None:
    solver = _solved(TURN)
    save_solution(solver, tmp_path / "f64")
    save_solution(solver, tmp_path / "f32", dtype="float32")
    big = (tmp_path / "f64" / ARRAYS_FILE).stat().st_size
    small = (tmp_path / "f32" / ARRAYS_FILE).stat().st_size
    assert small < 0.6 * big
    loaded, info = load_solution(tmp_path / "f32")
    assert info.dtype == "float32" and loaded.cum[0].dtype == np.float64
    for line in ("", "x x 5h"):
        _assert_reports_equal(loaded.report(line), solver.report(line), rtol=1e-5)


def test_locks_and_root_reach_come_back(tmp_path: Path) -> None:
    spot = Spot.from_dict(RIVER)
    reach = (spot.weights(0) * 0.5, spot.weights(1))
    solver = SpotSolver(spot, reach=reach)
    labels, _ = solver.strategy_at("")
    locked = np.zeros(len(labels))
    locked[labels.index("b50")] = 1.0
    solver.lock("", locked)
    solver.iterate(10)
    save_solution(solver, tmp_path)
    loaded, _ = load_solution(tmp_path)
    np.testing.assert_array_equal(loaded.initial_reach[0], solver.initial_reach[0])
    _, strategy = loaded.strategy_at("")
    np.testing.assert_array_equal(strategy, np.broadcast_to(locked, strategy.shape))
    _assert_reports_equal(loaded.report(""), solver.report(""))
    loaded.iterate(5)  # the lock still holds while the run goes on
    _, strategy = loaded.strategy_at("")
    np.testing.assert_array_equal(strategy, np.broadcast_to(locked, strategy.shape))


@pytest.mark.parametrize("maxmargin", [False, True])
def test_the_gadget_comes_back_and_goes_on(tmp_path: Path, maxmargin: bool) -> None:
    spot = Spot.from_dict(RIVER)
    # Bounds that some IP hands take and others do not: the gadget's own regrets matter.
    bounds = np.linspace(20.0, 80.0, 1326)
    solver = SpotSolver(spot, gadget=Gadget(1, bounds, maxmargin=maxmargin))
    solver.iterate(12)
    save_solution(solver, tmp_path)
    loaded, _ = load_solution(tmp_path)
    assert loaded.gadget is not None and loaded.gadget.player == 1
    assert loaded.gadget.maxmargin is maxmargin
    _assert_reports_equal(loaded.report(""), solver.report(""))
    assert loaded.exploitability() == solver.exploitability()
    solver.iterate(5)
    loaded.iterate(5)
    np.testing.assert_array_equal(loaded._gadget_cum, solver._gadget_cum)
    np.testing.assert_array_equal(loaded.cum[1], solver.cum[1])


def _half_pot(leaf: Leaf, trav: int, reach: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    return np.full(1326, leaf.pot / 2)


def test_a_depth_limited_solve_needs_its_leaf_values_again(tmp_path: Path) -> None:
    solver = SpotSolver(Spot.from_dict(TURN), leaf_values=_half_pot)
    solver.iterate(8)
    save_solution(solver, tmp_path)
    with pytest.raises(SolutionError, match=r"depth-limited solve.*leaf_values="):
        load_solution(tmp_path)
    loaded, _ = load_solution(tmp_path, leaf_values=_half_pot)
    _assert_reports_equal(loaded.report(""), solver.report(""))
    save_solution(_solved(TURN, iterations=1), tmp_path / "full")
    with pytest.raises(SolutionError, match=r"not a depth-limited solve"):
        load_solution(tmp_path / "full", leaf_values=_half_pot)


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    save_solution(_solved(RIVER), tmp_path / "sol")
    return tmp_path / "sol"


def _flip_byte(path: Path, position: int) -> None:
    data = bytearray(path.read_bytes())
    data[position] ^= 0xFF
    path.write_bytes(bytes(data))


def test_a_changed_array_fails_on_its_checksum_and_nothing_is_touched(saved: Path) -> None:
    data = np.load(saved / ARRAYS_FILE)
    # Rewrite cum0 with one number changed: a valid .npz whose content is not the saved one.
    arrays = {k: data[k] for k in data.files}
    arrays["cum0"] = arrays["cum0"].copy()
    arrays["cum0"][3] += 1.0
    np.savez(saved / ARRAYS_FILE, **arrays)
    before = _snapshot(saved)
    with pytest.raises(SolutionError, match=r"array 'cum0' does not match its SHA-256"):
        load_solution(saved)
    assert _snapshot(saved) == before


def test_a_damaged_file_fails_with_one_clear_error(saved: Path) -> None:
    path = saved / ARRAYS_FILE
    size = path.stat().st_size
    _flip_byte(path, size // 2)  # in the middle of the buffers (the .npz is not compressed)
    before = _snapshot(saved)
    with pytest.raises(SolutionError, match=r"SHA-256|not a readable \.npz"):
        load_solution(saved)
    path.write_bytes(path.read_bytes()[: size // 3])  # cut short
    with pytest.raises(SolutionError, match=r"not a readable \.npz"):
        load_solution(saved)
    assert set(_snapshot(saved)) == set(before)


def _edit_header(folder: Path, **changes: object) -> None:
    path = folder / HEADER_FILE
    header = json.loads(path.read_text())
    header.update(changes)
    path.write_text(json.dumps(header))


def test_another_version_fails(saved: Path) -> None:
    _edit_header(saved, version=2)
    with pytest.raises(SolutionError, match=r"format version 2; this checkraise reads version 1"):
        load_solution(saved)


def test_a_spot_that_builds_another_tree_fails(saved: Path) -> None:
    header = json.loads((saved / HEADER_FILE).read_text())
    spot = header["spot"]
    spot["sizes"]["river"]["ip"]["bet"] = [33.0]
    _edit_header(saved, spot=spot)
    with pytest.raises(SolutionError, match=r"builds another betting tree"):
        load_solution(saved)
    spot["ranges"]["oop"] = "AA,Kx"
    _edit_header(saved, spot=spot)
    with pytest.raises(SolutionError, match=r"saved spot is not valid: .*'Kx'"):
        load_solution(saved)


def test_missing_and_foreign_folders_fail(tmp_path: Path, saved: Path) -> None:
    with pytest.raises(SolutionError, match=r"no such solution folder"):
        load_solution(tmp_path / "nowhere")
    (tmp_path / "empty").mkdir()
    with pytest.raises(SolutionError, match=rf"no {HEADER_FILE}"):
        load_solution(tmp_path / "empty")
    (saved / ARRAYS_FILE).unlink()
    with pytest.raises(SolutionError, match=rf"no {ARRAYS_FILE}"):
        load_solution(saved)
    (saved / HEADER_FILE).write_text('{"format": "checkraise-policy"}')
    with pytest.raises(SolutionError, match=r"not a checkraise spot solution"):
        load_solution(saved)
    assert issubclass(SolutionError, FormatError)


def test_save_refuses_a_file_and_a_bad_dtype(tmp_path: Path) -> None:
    solver = _solved(RIVER, iterations=1)
    (tmp_path / "file").write_text("x")
    with pytest.raises(CheckraiseError, match=r"it is a file, expected a folder"):
        save_solution(solver, tmp_path / "file")
    with pytest.raises(CheckraiseError, match=r"save dtype 'float16'; expected float32 or float64"):
        save_solution(solver, tmp_path / "x", dtype="float16")
    assert not (tmp_path / "x").exists()
