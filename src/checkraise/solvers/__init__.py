"""Equilibrium finding: the CFR family, Monte Carlo CFR, fictitious play, best response.

- :mod:`.cfr`: tabular CFR (simultaneous or alternating), CFR+, linear CFR,
  discounted CFR, chance-sampled CFR.
- :mod:`.mccfr`: external- and outcome-sampling Monte Carlo CFR.
- :mod:`.fictitious_play`: extensive-form fictitious play.
- :mod:`.vectorised`: CFR over a public tree with all private hands in arrays (and
  over a subgame: root reach, the re-solving gadget).
- :mod:`.subgame`: unsafe and safe subgame re-solving on Leduc (the Libratus experiment).
- :mod:`.best_response`: exact best response, NashConv, exploitability, values.
- :mod:`.policy`: dense policies, saved as ``.npz`` with a JSON header.
"""

from __future__ import annotations

from collections.abc import Callable

from checkraise.errors import CheckraiseError, one_of
from checkraise.games.base import Game
from checkraise.games.tree import GameTree, build_tree
from checkraise.solvers.base import Solver, TabularSolver
from checkraise.solvers.best_response import (
    best_response,
    best_response_value,
    expected_values,
    exploitability,
    nash_conv,
)
from checkraise.solvers.cfr import (
    CFRPlusSolver,
    CFRSolver,
    ChanceSampledCFRSolver,
    DCFRSolver,
    LinearCFRSolver,
)
from checkraise.solvers.fictitious_play import FictitiousPlaySolver
from checkraise.solvers.mccfr import ExternalSamplingMCCFRSolver, OutcomeSamplingMCCFRSolver
from checkraise.solvers.policy import Policy, PolicyFileError
from checkraise.solvers.vectorised import (
    VECTORISED_ALGORITHMS,
    ResolvingGadget,
    VectorisedCFRSolver,
    public_exploitability,
    root_best_response,
)

__all__ = [
    "ALGORITHMS",
    "SOLVERS",
    "CFRPlusSolver",
    "CFRSolver",
    "ChanceSampledCFRSolver",
    "DCFRSolver",
    "ExternalSamplingMCCFRSolver",
    "FictitiousPlaySolver",
    "LinearCFRSolver",
    "OutcomeSamplingMCCFRSolver",
    "Policy",
    "PolicyFileError",
    "ResolvingGadget",
    "Solver",
    "TabularSolver",
    "VectorisedCFRSolver",
    "best_response",
    "best_response_value",
    "expected_values",
    "exploitability",
    "make_solver",
    "nash_conv",
    "public_exploitability",
    "root_best_response",
]

#: The tabular solver of each algorithm name: ``factory(tree, seed)``. Adding a solver is
#: one entry here (``checkraise solve --algo`` and :func:`make_solver` read this table).
#: The names the public-tree solver also runs are in ``VECTORISED_ALGORITHMS``.
SOLVERS: dict[str, Callable[[GameTree, int], Solver]] = {
    "cfr": lambda tree, seed: CFRSolver(tree, alternating=True),
    "cfr-sim": lambda tree, seed: CFRSolver(tree, alternating=False),
    "cfr+": lambda tree, seed: CFRPlusSolver(tree),
    "lcfr": lambda tree, seed: LinearCFRSolver(tree),
    "dcfr": lambda tree, seed: DCFRSolver(tree),
    "cs-cfr": lambda tree, seed: ChanceSampledCFRSolver(tree, seed=seed),
    "es-mccfr": lambda tree, seed: ExternalSamplingMCCFRSolver(tree, seed=seed),
    "os-mccfr": lambda tree, seed: OutcomeSamplingMCCFRSolver(tree, seed=seed),
    "xfp": lambda tree, seed: FictitiousPlaySolver(tree),
}

#: Algorithm names accepted by :func:`make_solver` (and ``checkraise solve --algo``).
ALGORITHMS = tuple(SOLVERS)


def make_solver(
    algorithm: str,
    game: Game,
    *,
    seed: int = 0,
    vectorised: bool | None = None,
    tree: GameTree | None = None,
) -> Solver:
    """A solver for ``game`` running ``algorithm`` (one of :data:`ALGORITHMS`).

    ``vectorised=None`` picks the public-tree solver for full-width CFR variants
    whenever the game offers a public tree; ``True`` insists on it, ``False``
    forces the tabular one. ``tree`` reuses an already-built history tree.

    Examples
    --------
    >>> from checkraise.games import LeducPoker
    >>> type(make_solver("cfr+", LeducPoker())).__name__
    'VectorisedCFRSolver'
    >>> type(make_solver("cfr+", LeducPoker(), vectorised=False)).__name__
    'CFRPlusSolver'
    """
    name = algorithm.strip().lower()
    if name not in ALGORITHMS:
        raise CheckraiseError(
            f"unknown algorithm {algorithm!r}; expected one of {one_of(ALGORITHMS)}"
        )
    base = "cfr" if name == "cfr-sim" else name
    alternating = name != "cfr-sim"
    has_public = hasattr(game, "public_tree") and game.num_players == 2
    if vectorised and (base not in VECTORISED_ALGORITHMS or not has_public):
        raise CheckraiseError(
            f"no vectorised solver for algorithm {algorithm!r} on {game!r}; "
            f"expected one of {one_of(VECTORISED_ALGORITHMS)} on a two-player poker game"
        )
    if vectorised is None:
        vectorised = base in VECTORISED_ALGORITHMS and has_public
    if vectorised:
        return VectorisedCFRSolver(game, base, alternating=alternating)
    return SOLVERS[name](tree if tree is not None else build_tree(game), seed)
