"""The postflop solver on real cards: a spot (board, pot, stacks, ranges, sizes) in,
a near-equilibrium strategy for every hand at every node out.

``SpotSolver``, ``NodeReport``, ``Gadget``, ``Leaf``, ``save_solution`` and
``load_solution`` load the numba kernels on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from checkraise._lazy import lazy_names
from checkraise.solvers.spot.config import BetSizes, Spot, SpotError, load_spot
from checkraise.solvers.spot.tree import SpotTree, build_tree

if TYPE_CHECKING:
    from checkraise.solvers.spot.io import load_solution, save_solution
    from checkraise.solvers.spot.solver import Gadget, Leaf, NodeReport, SpotSolver

__all__ = [
    "BetSizes", "Gadget", "Leaf", "NodeReport", "Spot", "SpotError", "SpotSolver", "SpotTree",
    "build_tree", "load_solution", "load_spot", "save_solution",
]

__getattr__, __dir__ = lazy_names(__name__, {
    "SpotSolver": "checkraise.solvers.spot.solver",
    "NodeReport": "checkraise.solvers.spot.solver",
    "Gadget": "checkraise.solvers.spot.solver",
    "Leaf": "checkraise.solvers.spot.solver",
    "save_solution": "checkraise.solvers.spot.io",
    "load_solution": "checkraise.solvers.spot.io",
})
