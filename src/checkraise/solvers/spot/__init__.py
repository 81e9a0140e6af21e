"""The postflop solver on real cards: a spot (board, pot, stacks, ranges, sizes) in,
a near-equilibrium strategy for every hand at every node out."""

from __future__ import annotations

from checkraise.solvers.spot.config import BetSizes, Spot, SpotError, load_spot
from checkraise.solvers.spot.tree import SpotTree, build_tree

__all__ = ["BetSizes", "Spot", "SpotError", "SpotTree", "build_tree", "load_spot"]
