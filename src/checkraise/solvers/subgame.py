"""Subgame re-solving, measured exactly: the Libratus experiment on Leduc hold'em.

A blueprint is an equilibrium of an abstracted game (here Leduc whose blueprint
cannot tell J from Q: :mod:`checkraise.games.leduc_abstraction`). During play the
rest of the hand is re-solved without the abstraction. Every public state at the
start of the second round is one subgame (each first-round line that did not end
in a fold, times each board card); the final strategy is the blueprint in the
first round and a re-solved strategy in every subgame, for both players, and its
exact exploitability in real Leduc is the figure.

- **unsafe**: the subgame is solved as a game of its own from both players'
  blueprint reach of every private card, taken as common knowledge (chance and
  card removal are in the public tree's chance reach).
- **safe** (the "Resolve" of Brown & Sandholm 2017, "Safe and nested subgame
  solving for imperfect-information games", arXiv 1705.02955; the re-solving
  gadget of Burch, Johanson & Bowling 2014, "Solving imperfect information games
  using decomposition"): to re-solve player P, his opponent chooses, for each
  private card, between entering the subgame and taking his counterfactual
  best-response value against the blueprint in that subgame, in the same
  counterfactual units (weighted by chance and P's reach). P's strategy is his
  average strategy in that gadget game. Because no card of the opponent can then
  gain more than against the blueprint, the result is never more exploitable than
  the blueprint (up to the gadget solve's own error).
- **maxmargin** (Moravcik, Schmid, Ha, Hladik & Gaukrodger 2016, "Refining subgames
  in large imperfect information games"; Brown & Sandholm 2017): the opponent
  instead picks which card enters and is paid its value minus the same
  alternative, so P maximises the smallest margin by which each card's
  counterfactual best-response value falls below the blueprint's. The blueprint
  itself has margin 0 everywhere, so this is safe too.

Brown & Sandholm (2018, Science, "Superhuman AI for heads-up no-limit poker:
Libratus beats top professionals", Table 1) report the same three figures on
small hold'em variants; :data:`LIBRATUS_TABLE_1` holds them.

Every solve is the vectorised public-tree CFR+ (:mod:`checkraise.solvers.vectorised`)
on the subgame's public tree (``LeducPoker.public_tree(root)``), with root reach
and the gadget as options of that solver; the blueprint is a tabular solver of
:data:`checkraise.solvers.SOLVERS` on the abstract game, lifted to the real keys.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise.errors import ConfigError, one_of
from checkraise.games.leduc import LeducPoker, LeducState, card_name
from checkraise.games.leduc_abstraction import AbstractLeduc, LeducAbstraction, abstract_key
from checkraise.games.public_tree import DECISION, PublicTree
from checkraise.games.tree import GameTree, build_tree
from checkraise.solvers.best_response import exploitability
from checkraise.solvers.policy import Policy
from checkraise.solvers.vectorised import (
    ResolvingGadget,
    VectorisedCFRSolver,
    root_best_response,
)

__all__ = [
    "LIBRATUS_TABLE_1",
    "MODES",
    "LibratusResult",
    "Subgame",
    "blueprint_policy",
    "combine",
    "counterfactual_best_response",
    "libratus_experiment",
    "resolve_all",
    "resolve_safe",
    "resolve_unsafe",
    "subgame_reach",
    "subgames",
]

FloatArray = npt.NDArray[np.float64]
Rows = dict[str, FloatArray]

#: Brown & Sandholm (2018), Science, Table 1: exploitability in mbb/game of the
#: blueprint with no re-solving, with unsafe and with safe ("Resolve") re-solving.
LIBRATUS_TABLE_1: tuple[tuple[str, float, float, float], ...] = (
    ("small two-round hold'em", 91.3, 5.51, 22.6),
    ("large two-round hold'em", 41.3, 397.0, 9.84),
    ("three-round hold'em", 346.0, 79.3, 72.6),
)

_NUM_CARDS = 6


@dataclass(frozen=True)
class Subgame:
    """The public state at the start of Leduc's second round.

    Parameters
    ----------
    first_round : tuple of int
        The first round's actions (a line that ends in a call).
    board : int
        The public card, 0..5.
    """

    first_round: tuple[int, ...]
    board: int

    @property
    def name(self) -> str:
        """E.g. ``"crc/Ks"``."""
        return "".join("fcr"[a] for a in self.first_round) + "/" + card_name(self.board)

    def root(self) -> LeducState:
        """The subgame's root (private cards placeholders: only the public part counts)."""
        cards = [c for c in range(_NUM_CARDS) if c != self.board][:2]
        return LeducState((cards[0], cards[1]), self.board, (self.first_round, ()))

    def public_tree(self) -> PublicTree:
        """The subgame as a public tree in real Leduc's keys and chance units."""
        return _public_tree(self)


@cache
def _public_tree(subgame: Subgame) -> PublicTree:
    return LeducPoker().public_tree(subgame.root())


@cache
def _real_tree() -> GameTree:
    return build_tree(LeducPoker())


@cache
def _abstract_tree(abstraction: LeducAbstraction) -> GameTree:
    # Solvers only read a tree's arrays, so one tree per abstraction serves every run.
    return build_tree(AbstractLeduc(abstraction))


def subgames() -> tuple[Subgame, ...]:
    """Every second-round public state of Leduc: 5 first-round lines times 6 boards.

    Examples
    --------
    >>> found = subgames()
    >>> len(found), found[0].name, found[-1].name
    (30, 'cc/Js', 'crrc/Kh')
    """
    lines: list[tuple[int, ...]] = []
    pending: list[LeducState] = [LeducState((0, 1))]
    while pending:
        state = pending.pop(0)
        for action in state.legal_actions():
            child = state.child(action)
            if child.is_chance_node():
                lines.append(child.rounds[0])
            elif not child.is_terminal():
                pending.append(child)
    lines.sort(key=lambda line: (len(line), line))
    return tuple(Subgame(line, board) for line in lines for board in range(_NUM_CARDS))


def _check_count(name: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError(f"{name}={value!r}; expected a whole number >= 1")


def blueprint_policy(
    abstraction: str | LeducAbstraction,
    iterations: int,
    algorithm: str = "cfr+",
    seed: int = 0,
) -> Policy:
    """An equilibrium of abstracted Leduc, as a policy on real Leduc's keys.

    The abstract game is solved by the tabular solver ``algorithm`` of
    :data:`checkraise.solvers.SOLVERS` (``seed`` feeds the sampling ones); every real
    information set then plays its abstract information set's row.

    Examples
    --------
    >>> policy = blueprint_policy("jq", 10)
    >>> bool(np.array_equal(policy.row("Js:"), policy.row("Qh:")))
    True
    """
    from checkraise.solvers import SOLVERS  # the registry imports this module's peers

    _check_count("iterations", iterations)
    if algorithm not in SOLVERS:
        raise ConfigError(f"unknown algorithm {algorithm!r}; expected one of {one_of(SOLVERS)}")
    game = AbstractLeduc(abstraction)
    solver = SOLVERS[algorithm](_abstract_tree(game.abstraction), seed)
    solver.iterate(iterations)
    abstract = solver.average_policy()
    real = _real_tree()
    rows = [abstract.row(abstract_key(game.abstraction, key)) for key in real.infoset_keys]
    probs = np.array(rows, dtype=np.float64)
    meta = {"abstraction": game.abstraction.value, "algorithm": algorithm,
            "iterations": iterations, "seed": seed}
    return Policy.from_tree(real, probs, meta)


def subgame_reach(policy: Policy, subgame: Subgame) -> FloatArray:
    """Each player's probability of playing the first round's line with each card.

    ``reach[player, card]`` is the product of ``policy``'s probabilities of that
    player's own actions on the line (0 for the board card). With chance and card
    removal (the public tree's chance reach) these are the players' ranges.

    Examples
    --------
    >>> from checkraise.games import build_tree, LeducPoker
    >>> uniform = Policy.uniform(build_tree(LeducPoker()))
    >>> subgame_reach(uniform, Subgame((2, 1), 5)).round(3).tolist()
    [[0.5, 0.5, 0.5, 0.5, 0.5, 0.0], [0.333, 0.333, 0.333, 0.333, 0.333, 0.0]]
    """
    reach = np.zeros((2, _NUM_CARDS))
    for card in range(_NUM_CARDS):
        if card == subgame.board:
            continue
        for player in range(2):
            other = next(c for c in range(_NUM_CARDS) if c not in (card, subgame.board))
            cards = (card, other) if player == 0 else (other, card)
            state = LeducState(cards)
            probability = 1.0
            for action in subgame.first_round:
                if state.current_player() == player:
                    probability *= float(policy.row(state.information_set_key())[action])
                state = state.child(action)
            reach[player, card] = probability
    return reach


def counterfactual_best_response(policy: Policy, subgame: Subgame, player: int) -> FloatArray:
    """``player``'s counterfactual best-response value of each card in ``subgame``.

    The other player follows ``policy`` from his reach of the subgame; ``player``
    plays a best response inside the subgame. Values are weighted by chance and the
    other player's reach (real Leduc's chips per hand), not by ``player``'s own
    reach: the alternative values of the safe re-solving gadget.
    """
    if player not in (0, 1):
        raise ConfigError(f"player {player!r}; expected 0 or 1")
    tree = subgame.public_tree()
    return root_best_response(tree, policy, player, subgame_reach(policy, subgame))


def _rows(solver: VectorisedCFRSolver, player: int) -> Rows:
    """``player``'s average rows by real key, where the solve reached them at all."""
    tree = solver.tree
    average = solver.average_buffer()
    rows: Rows = {}
    for node in np.flatnonzero((tree.kind == DECISION) & (tree.player == player)):
        count = int(tree.child_count[node])
        offset = int(tree.decision_offset[node])
        actions = tree.edge[tree.child_start[node] : tree.child_start[node] + count]
        for hand, key in enumerate(tree.keys[node]):
            block = slice(offset + hand * count, offset + (hand + 1) * count)
            # A hand the player never brings here keeps the blueprint's row.
            if key is None or solver.cum_policy[block].sum() <= 0.0:
                continue
            row = np.zeros(tree.num_actions)
            row[actions] = average[block]
            rows[key] = row
    return rows


def resolve_unsafe(policy: Policy, subgame: Subgame, iterations: int) -> Rows:
    """Both players' rows from solving ``subgame`` with the blueprint's ranges as
    common knowledge (CFR+, ``iterations`` iterations).

    A subgame that one player's blueprint never enters gives him no range to
    assume: it keeps the blueprint (no rows).
    """
    _check_count("iterations", iterations)
    reach = subgame_reach(policy, subgame)
    if not np.all(reach.sum(axis=1) > 0.0):
        return {}
    solver = VectorisedCFRSolver(subgame.public_tree(), "cfr+", root_reach=reach)
    solver.iterate(iterations)
    return {**_rows(solver, 0), **_rows(solver, 1)}


def resolve_safe(
    policy: Policy, subgame: Subgame, iterations: int, maxmargin: bool = False
) -> Rows:
    """Both players' rows by safe re-solving of ``subgame`` (one gadget solve each).

    Player P's rows come from a CFR+ solve (``iterations`` iterations) of the
    subgame under the re-solving gadget whose player is P's opponent, with his
    counterfactual best-response values against the blueprint as alternatives
    (the Maxmargin gadget with ``maxmargin``).
    """
    _check_count("iterations", iterations)
    tree = subgame.public_tree()
    reach = subgame_reach(policy, subgame)
    rows: Rows = {}
    for player in range(2):
        opponent = 1 - player
        alternative = counterfactual_best_response(policy, subgame, opponent)
        solver = VectorisedCFRSolver(
            tree, "cfr+", root_reach=reach,
            gadget=ResolvingGadget(opponent, alternative, maxmargin=maxmargin),
        )
        solver.iterate(iterations)
        rows.update(_rows(solver, player))
    return rows


def combine(policy: Policy, rows: Mapping[str, FloatArray], meta: Mapping[str, Any]) -> Policy:
    """``policy`` with the rows of the keys in ``rows`` replaced."""
    probs = policy.probs.copy()
    index = policy.index
    for key, row in rows.items():
        probs[index[key]] = row
    return Policy(policy.keys, probs, policy.legal, policy.game_name, policy.game_params,
                  dict(meta))


def _resolve_maxmargin(policy: Policy, subgame: Subgame, iterations: int) -> Rows:
    return resolve_safe(policy, subgame, iterations, maxmargin=True)


#: The re-solving modes of :func:`resolve_all`.
MODES = {"unsafe": resolve_unsafe, "safe": resolve_safe, "maxmargin": _resolve_maxmargin}


def resolve_all(blueprint: Policy, mode: str, iterations: int) -> Policy:
    """``blueprint`` with every second-round subgame re-solved (``mode`` one of
    :data:`MODES`, ``iterations`` CFR+ iterations per solve).

    Examples
    --------
    >>> blueprint = blueprint_policy("jq", 200)
    >>> resolved = resolve_all(blueprint, "safe", 100)
    >>> bool(np.array_equal(resolved.row("Ks:r"), blueprint.row("Ks:r")))
    True
    """
    solve = MODES.get(mode)
    if solve is None:
        raise ConfigError(f"re-solving mode {mode!r}; expected one of {one_of(MODES)}")
    _check_count("iterations", iterations)
    rows: Rows = {}
    for subgame in subgames():
        rows.update(solve(blueprint, subgame, iterations))
    return combine(blueprint, rows, {**blueprint.meta, "resolve": mode,
                                     "subgame_iterations": iterations})


@dataclass(frozen=True)
class LibratusResult:
    """The three exploitabilities of one run (chips per hand, NashConv / 2).

    Attributes
    ----------
    blueprint, unsafe, safe, maxmargin : float
        Exploitability in real Leduc of the blueprint with no re-solving, with
        unsafe, with safe (Resolve) and with Maxmargin re-solving of every
        second-round subgame.
    seconds : float
        Wall time of the whole run (blueprint, 150 subgame solves, four exploitabilities).
    """

    abstraction: str
    algorithm: str
    blueprint_iterations: int
    subgame_iterations: int
    seed: int
    blueprint: float
    unsafe: float
    safe: float
    maxmargin: float
    subgames: int
    seconds: float

    @property
    def milli(self) -> tuple[float, float, float, float]:
        """Blueprint, unsafe, safe and Maxmargin in milli-chips per hand."""
        return (1000.0 * self.blueprint, 1000.0 * self.unsafe, 1000.0 * self.safe,
                1000.0 * self.maxmargin)

    def to_json(self) -> dict[str, Any]:
        """The run as plain JSON values."""
        blueprint, unsafe, safe, maxmargin = self.milli
        return {
            "game": "leduc",
            "abstraction": self.abstraction,
            "algorithm": self.algorithm,
            "blueprint_iterations": self.blueprint_iterations,
            "subgame_iterations": self.subgame_iterations,
            "seed": self.seed,
            "subgames": self.subgames,
            "chips_per_hand": {"blueprint": self.blueprint, "unsafe": self.unsafe,
                               "safe": self.safe, "maxmargin": self.maxmargin},
            "milli_chips_per_hand": {"blueprint": blueprint, "unsafe": unsafe, "safe": safe,
                                     "maxmargin": maxmargin},
            "seconds": self.seconds,
        }


def libratus_experiment(
    iterations_blueprint: int = 2000,
    iterations_subgame: int = 1000,
    abstraction: str | LeducAbstraction = LeducAbstraction.JQ,
    seed: int = 0,
    algorithm: str = "cfr+",
) -> LibratusResult:
    """Exploitability of an abstract blueprint with no, unsafe, safe and Maxmargin re-solving.

    Parameters
    ----------
    iterations_blueprint : int
        Iterations of ``algorithm`` on the abstract game.
    iterations_subgame : int
        CFR+ iterations of every subgame solve (30 unsafe, 60 safe, 60 Maxmargin).
    abstraction : str or LeducAbstraction
        What the blueprint sees of the cards.
    seed : int
        Seed of the blueprint's solver (used by the sampling algorithms).
    algorithm : str
        The blueprint's solver, a name of :data:`checkraise.solvers.SOLVERS`.

    Examples
    --------
    >>> result = libratus_experiment(300, 200, "jq")
    >>> result.safe <= result.blueprint
    True
    """
    _check_count("iterations_blueprint", iterations_blueprint)
    _check_count("iterations_subgame", iterations_subgame)
    parsed = LeducAbstraction.parse(abstraction)
    start = time.perf_counter()
    blueprint = blueprint_policy(parsed, iterations_blueprint, algorithm, seed)
    tree = _real_tree()
    figures = [exploitability(tree, blueprint)] + [
        exploitability(tree, resolve_all(blueprint, mode, iterations_subgame))
        for mode in ("unsafe", "safe", "maxmargin")
    ]
    return LibratusResult(
        abstraction=parsed.value,
        algorithm=algorithm,
        blueprint_iterations=iterations_blueprint,
        subgame_iterations=iterations_subgame,
        seed=seed,
        blueprint=figures[0],
        unsafe=figures[1],
        safe=figures[2],
        maxmargin=figures[3],
        subgames=len(subgames()),
        seconds=time.perf_counter() - start,
    )
