"""Solved spots for the solution viewer page: the tree by its lines, the 13×13 grids.

The server is given one folder of solutions (``checkraise serve --solutions DIR``);
:class:`SolutionLibrary` lists the solution folders inside it (those holding a
``solution.json``) and opens only those, by name, so a page cannot make the
server read any other path. A node is reached by its line, exactly as
``checkraise spot show --line`` reaches it (actions, and the turn and river cards
where they are dealt); :meth:`SolutionLibrary.node` says what happens there: a
decision (the actor's actions with their frequencies and, per hand class, the
strategy, EV and equity that :func:`checkraise.solvers.spot.grid.class_table`
computes), a card to deal (the cards left) or the end of the hand.
"""

from __future__ import annotations

import math
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from checkraise.cards import format_card
from checkraise.errors import CheckraiseError

if TYPE_CHECKING:
    from checkraise.solvers.spot.solver import SpotSolver

__all__ = ["MAX_OPEN", "SolutionLibrary", "ViewerError"]

MAX_OPEN: Final = 4  # solutions kept loaded (each holds its buffers in memory)
HEADER: Final = "solution.json"


class ViewerError(CheckraiseError):
    """A solution or a line the viewer cannot show."""


def _finite(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None


class SolutionLibrary:
    """The solutions under ``root`` (``None``: no folder was given).

    Parameters
    ----------
    root
        The folder whose subfolders (or itself) hold ``spot solve --out`` solutions.
    """

    def __init__(self, root: Path | None) -> None:
        self.root = root
        self._open: dict[str, SpotSolver] = {}
        self._lock = threading.Lock()

    def names(self) -> list[str]:
        """The solutions, as paths relative to the root (``"."`` for the root itself)."""
        if self.root is None or not self.root.is_dir():
            return []
        found = sorted(p.parent for p in self.root.rglob(HEADER))
        return [str(p.relative_to(self.root)) for p in found]

    def solver(self, name: str) -> SpotSolver:
        """The loaded solution ``name`` (one of :meth:`names`)."""
        from checkraise.solvers.spot.io import load_solution

        if name not in self.names():
            listed = ", ".join(self.names()) or "none"
            raise ViewerError(f"no solution {name!r} here; expected one of: {listed}")
        with self._lock:
            solver = self._open.get(name)
            if solver is None:
                assert self.root is not None
                solver, _ = load_solution(self.root / name)
                if len(self._open) >= MAX_OPEN:
                    self._open.pop(next(iter(self._open)))
                self._open[name] = solver
            return solver

    def node(self, name: str, line: str) -> dict[str, Any]:
        """What the viewer shows at ``line`` of solution ``name`` (JSON-ready)."""
        from checkraise.solvers.spot.grid import action_colours, action_name, class_table
        from checkraise.solvers.spot.tree import CHANCE, DECISION

        if len(line) > 1000:
            raise ViewerError(f"line of {len(line)} characters; expected a line of actions")
        solver = self.solver(name)
        line = " ".join(line.split())
        with self._lock:  # a solver's walk uses its own buffers: one request at a time
            at = solver.locate(line)
            kind = int(solver.tree.kind[at.node])
            spot = solver.spot.to_dict()
            base: dict[str, Any] = {
                "name": name, "line": line, "board": [format_card(c) for c in at.board],
                "pot": spot["pot"], "stack": spot["stack"],
            }
            if kind == CHANCE:
                left = [format_card(c) for c in range(52) if not (at.dealt >> c) & 1]
                return {**base, "kind": "chance", "cards": left}
            if kind != DECISION:
                return {**base, "kind": "end"}
            report = solver.report(line)
        table = class_table(report)
        cells = []
        for k, cls in enumerate(table.names):
            if table.reach[k] <= 0:
                continue
            cells.append({
                "class": cls,
                "combos": round(float(table.reach[k]), 3),
                "share": round(float(table.share[k]), 4),
                "strategy": [round(float(v), 4) for v in table.strategy[k]],
                "ev": _finite(round(float(table.ev[k]), 3)),
                "equity": _finite(round(float(table.equity[k]), 4)),
            })
        return {
            **base,
            "kind": "decision",
            "actor": ("OOP", "IP")[report.actor],
            "actions": [{"label": a, "name": action_name(a), "colour": c,
                         "frequency": _finite(float(f))}
                        for a, c, f in zip(report.labels, action_colours(report.labels),
                                           report.frequencies, strict=True)],
            "classes": cells,
        }
