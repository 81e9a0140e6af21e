"""The solution viewer's library without a server: names, chance nodes, the end of a hand."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from checkraise.errors import CheckraiseError
from checkraise.solvers.spot.config import Spot
from checkraise.solvers.spot.io import save_solution
from checkraise.solvers.spot.solver import SpotSolver
from checkraise.web.viewer import SolutionLibrary, ViewerError

TURN = {"board": "Ks 7h 2c 3d", "pot": 60, "stack": 90,
        "ranges": {"oop": "AA,QQ,65s", "ip": "KK,JJ,A3s"},
        "sizes": {"bet": [75], "raise": [100], "allin": False}}


@pytest.fixture(scope="module")
def solved(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, SpotSolver]:
    root = tmp_path_factory.mktemp("viewer")
    solver = SpotSolver(Spot.from_dict(TURN))
    solver.iterate(10)
    save_solution(solver, root / "turn", exploitability_pct=1.0, command="test")
    return root, solver


def test_a_card_is_dealt_where_the_turn_betting_ends(solved: tuple[Path, SpotSolver]) -> None:
    root, solver = solved
    library = SolutionLibrary(root)
    node = library.node("turn", "x   x")
    assert node["kind"] == "chance" and node["line"] == "x x"
    assert len(node["cards"]) == 48
    assert not {"Ks", "7h", "2c", "3d"} & set(node["cards"])
    river = library.node("turn", "x x 5h")
    assert river["kind"] == "decision" and river["board"] == ["Ks", "7h", "2c", "3d", "5h"]
    report = solver.report("x x 5h")
    np.testing.assert_allclose([a["frequency"] for a in river["actions"]], report.frequencies)
    with pytest.raises(CheckraiseError, match="Ks is already on the board"):
        library.node("turn", "x x Ks")
    assert library.node("turn", "b45 f")["kind"] == "end"


def test_a_solution_folder_itself_can_be_the_root(solved: tuple[Path, SpotSolver]) -> None:
    root, _ = solved
    library = SolutionLibrary(root / "turn")
    assert library.names() == ["."]
    assert library.node(".", "")["actor"] == "OOP"


def test_nothing_outside_the_listed_solutions_is_opened(solved: tuple[Path, SpotSolver]) -> None:
    root, _ = solved
    for library, name in [(SolutionLibrary(root), "../turn"), (SolutionLibrary(root), str(root)),
                          (SolutionLibrary(None), "turn")]:
        with pytest.raises(ViewerError, match="no solution"):
            library.node(name, "")
    with pytest.raises(ViewerError, match="expected a line of actions"):
        SolutionLibrary(root).node("turn", "x " * 600)
