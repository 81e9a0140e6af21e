"""The spot solver: discounted CFR (or CFR+) over every hand of both ranges at once.

One iteration walks the betting tree once per player (alternating updates, the
order of :mod:`checkraise.solvers.vectorised`, whose algorithm table it shares:
``dcfr`` is Brown & Sandholm's discounted CFR with alpha = 1.5, beta = 0, gamma = 2,
``cfr+`` is Tammelin's CFR+ with linear averaging). The walk itself lives in
:mod:`._kernels`.

Values are in chips, measured from the spot's start: a player who wins the pot
gets the starting pot plus what the other put in since the start, a player who
loses it loses what he put in. So the two players' values add up to the pot, and
**exploitability** is the mean of the two players' best-response gains,
``(BR_oop + BR_ip - pot) / 2``, reported as a percentage of the starting pot: the
convention of the public solvers (postflop-solver, TexasSolver, GTO+).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise.cards import COMBO_CARDS, NUM_COMBOS, parse_card
from checkraise.errors import CheckraiseError, ConfigError, one_of
from checkraise.solvers.spot import _kernels as K
from checkraise.solvers.spot._node import strategy as node_strategy
from checkraise.solvers.spot._sweep import sweep_tables
from checkraise.solvers.spot.config import Spot
from checkraise.solvers.spot.tree import CHANCE, DECISION, LEAF, SpotTree, build_tree
from checkraise.solvers.vectorised import VECTORISED_ALGORITHMS

__all__ = ["SOLVER_ALGORITHMS", "Gadget", "Leaf", "LeafValues", "NodeReport", "Progress",
           "SpotSolver", "estimate_memory"]

FloatArray = npt.NDArray[np.float64]
SOLVER_ALGORITHMS = ("dcfr", "cfr+")
PRECISIONS = ("float32", "float64")

_LockTables = tuple[tuple[np.ndarray, np.ndarray], ...]
_Tables = tuple[Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any]
"""The tree, hand and buffer arrays every kernel walk takes, in its argument order."""

Progress = Callable[[int, float], None]
"""Called with the iteration count and the exploitability (% of the pot) when measured."""


@dataclass(frozen=True)
class Located:
    """A node of the betting tree at one runout: where its strategy is stored."""

    node: int
    bases: tuple[int, int]
    turn: int
    river: int
    dealt: int
    board: tuple[int, ...]
    reach: tuple[FloatArray, FloatArray]
    perm: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]


@dataclass(frozen=True)
class Leaf:
    """Where a depth-limited tree ends: the chips at stake there."""

    node: int
    line: str
    board: tuple[int, ...]
    pot: float  # chips in the middle at the leaf
    committed: float  # what each player has put in since the spot started
    stack: float  # what each has behind
    combos: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]
    """Each player's hands: the traverser's values are needed for all of them, also
    those his own strategy no longer brings here (reach 0): regrets need them."""
    choice: int = 0
    """With ``leaf_choices``: which of the ``k`` continuations this leaf stands for."""


LeafValues = Callable[[Leaf, int, tuple[FloatArray, FloatArray]], npt.ArrayLike]
"""``(leaf, traverser, (reach_oop, reach_ip)) -> chips of the pot won per combo``."""


@dataclass(frozen=True)
class Gadget:
    """The re-solving gadget's bounds: ``player``'s value per combo if he opts out.

    With ``maxmargin`` it is the Maxmargin gadget instead (Moravcik, Schmid, Ha, Hladik &
    Gaukrodger 2016; Brown & Sandholm 2017): ``player`` picks *which* of his hands
    enters and is paid its counterfactual value minus its bound, so the re-solved
    player maximises the smallest margin ``bound - value`` over the hands that can be
    held, instead of only keeping every margin above 0.
    """

    player: int
    values: FloatArray
    maxmargin: bool = False

    def check(self) -> None:
        """Raise :class:`ConfigError` unless the player is 0/1 and 1,326 finite values."""
        if self.player not in (0, 1):
            raise ConfigError(f"gadget player {self.player!r}; expected 0 (OOP) or 1 (IP)")
        values = np.asarray(self.values)
        if values.shape != (NUM_COMBOS,) or not np.all(np.isfinite(values)):
            raise ConfigError(
                f"gadget values have shape {values.shape}; expected 1,326 finite chips"
            )


@dataclass(frozen=True)
class NodeReport:
    """What a player sees at one node: the strategy, EV and equity of every hand.

    Attributes
    ----------
    line : str
        The action line (with the cards dealt on the way).
    board : tuple of int
        The board at the node.
    actor : int
        0 = OOP, 1 = IP.
    labels : tuple of str
        The actions.
    combos : int array
        The actor's hands (indices into the 1,326 combos).
    reach : float array
        The actor's range at the node: his starting weight times the probability
        that his own strategy takes the line (0 for hands that hit a dealt card).
    strategy : float array (hands, actions)
        The average strategy.
    ev : float array
        Expected chips of each hand from here on, measured like the solver's
        values (a hand that wins the pot gets the starting pot plus the chips the
        other put in since the spot started); NaN where no opponent hand is left.
    equity : float array
        Share of the pot each hand wins at showdown against the opponent's range
        at the node, over every runout still to come; NaN as for ``ev``.
    frequencies : float array
        How often the range takes each action (weighted by ``reach``).
    """

    line: str
    board: tuple[int, ...]
    actor: int
    labels: tuple[str, ...]
    combos: npt.NDArray[np.int64]
    reach: FloatArray
    strategy: FloatArray
    ev: FloatArray
    equity: FloatArray
    frequencies: FloatArray


class SpotSolver:
    """Solve a :class:`~checkraise.solvers.spot.config.Spot`.

    Parameters
    ----------
    spot : Spot
        The spot.
    algorithm : str
        ``dcfr`` (default) or ``cfr+``.
    precision : str
        ``float32`` halves the memory of the regret and strategy buffers;
        ``float64`` (default) keeps them exact to double rounding.
    threads : int
        Cores for the walk below the first chance node (1 = no threads).
    reach : tuple of two arrays or None
        Reach probabilities of the 1,326 combos at the root for OOP and IP,
        instead of the spot's ranges (subgame solving starts from these).
    leaf_values : callable or None
        Depth-limited solving: the tree ends where the first street ends, and
        ``leaf_values(leaf, traverser, (reach_oop, reach_ip))`` gives the
        traverser's expected share of the pot at that :class:`Leaf` for each of
        the 1,326 combos, given both players' reach there (a value network, or
        the blueprint's continuation values).
    gadget : Gadget or None
        Safe re-solving: ``gadget.player`` may, hand by hand, take
        ``gadget.values`` (his expected chips under the blueprint, the
        solver's value convention) instead of entering the subgame.
    isomorphism : bool
        Solve only one of each set of suit-isomorphic turn and river cards
        (where the board and both ranges are symmetric in two suits), and store
        only one at the first chance layer; locks must then be symmetric too.
    leaf_choices : (player, k) or None
        With ``leaf_values``: at every non-all-in end of the first street ``player``
        chooses, hand by hand, which of ``k`` leaves the game goes on from (the
        :attr:`Leaf.choice`; Brown, Sandholm & Amos 2018's continuation strategies).

    Examples
    --------
    >>> spot = Spot.from_dict({"board": "Ks 7h 2c 3d 9s", "pot": 100, "stack": 100,
    ...                        "ranges": {"oop": "AA,QQ", "ip": "KK,JJ"}})
    >>> solver = SpotSolver(spot)
    >>> solver.solve(max_iterations=300) < 0.5
    True
    >>> solver.exploitability() < 0.5
    True
    """

    def __init__(
        self,
        spot: Spot,
        algorithm: str = "dcfr",
        precision: str = "float64",
        threads: int = 1,
        reach: tuple[npt.ArrayLike, npt.ArrayLike] | None = None,
        leaf_values: LeafValues | None = None,
        gadget: Gadget | None = None,
        isomorphism: bool = True,
        leaf_choices: tuple[int, int] | None = None,
    ) -> None:
        if algorithm not in SOLVER_ALGORITHMS:
            raise ConfigError(
                f"algorithm {algorithm!r}; expected one of {one_of(SOLVER_ALGORITHMS)}"
            )
        if precision not in PRECISIONS:
            raise ConfigError(f"precision {precision!r}; expected one of {one_of(PRECISIONS)}")
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise ConfigError(f"threads = {threads!r}; expected a whole number >= 1")
        self.spot = spot
        self.algorithm = algorithm
        self.precision = precision
        self.threads = threads
        self.clip, discount, self.gamma = VECTORISED_ALGORITHMS[algorithm]
        self.alpha, self.beta = discount if discount is not None else (1.0, 1.0)
        self.discounted = discount is not None
        self.iteration = 0
        self.seconds = 0.0
        # Off only in tests: the walk then sweeps leaves no opponent hand reaches too.
        self._skip_unreached = True
        self.board = tuple(spot.board)
        self.board_mask = sum(1 << c for c in self.board)
        if reach is not None and (not isinstance(reach, (tuple, list)) or len(reach) != 2):
            raise ConfigError("reach must be a pair (OOP's, IP's) of 1,326 weights each")
        weights = [spot.weights(p) for p in range(2)] if reach is None else [
            self._check_reach(r, p) for p, r in enumerate(reach)
        ]
        self.combos = tuple(np.flatnonzero(w > 0.0).astype(np.int64) for w in weights)
        for p, combos in enumerate(self.combos):
            if combos.size == 0:
                raise ConfigError(f"{('OOP', 'IP')[p]} has no hand that can be held")
        self.initial_reach = tuple(weights[p][self.combos[p]] for p in range(2))
        self.cards = tuple(COMBO_CARDS[c].astype(np.int64) for c in self.combos)
        self.same = tuple(_same_index(self.combos[p], self.combos[1 - p]) for p in range(2))
        self.hands = (int(self.combos[0].size), int(self.combos[1].size))
        self.leaf_values = leaf_values
        self.gadget = gadget
        if gadget is not None:
            gadget.check()
        self._gadget_regret = np.zeros((2, self.hands[gadget.player] if gadget else 0))
        self._gadget_cum = np.zeros_like(self._gadget_regret)
        self._root_mass: dict[int, FloatArray] = {}
        self._setup_isomorphism(isomorphism, weights)
        if leaf_choices is not None and leaf_values is None:
            raise ConfigError("leaf_choices need leaf_values: they choose among leaf values")
        self.leaf_choices = leaf_choices
        self.tree: SpotTree = build_tree(spot, self.hands, depth_limited=leaf_values is not None,
                                         first_outcomes=self._first_outcomes,
                                         leaf_choices=leaf_choices)
        self.nodes = _node_table(self.tree)
        self._slots = np.flatnonzero(self.nodes[:, K._SLOT] >= 0)
        self._build_showdowns()
        dtype = np.float32 if precision == "float32" else np.float64
        self.regret = tuple(np.zeros(self.tree.storage[p], dtype) for p in range(2))
        self.cum = tuple(np.zeros(self.tree.storage[p], dtype) for p in range(2))
        self._locks: dict[int, dict[int, tuple[np.ndarray, np.ndarray]]] = {}
        self._lock_cache: _LockTables | None = None
        slots = max(1, self._slots.size)
        width = max(self.hands)
        self._task_reach = np.zeros((slots, 2, width))
        self._task_info = np.zeros((slots, 5), np.int64)
        self._results = np.zeros((slots, 52, width)) if self._slots.size else np.zeros((1, 1, 1))
        self._depth = _depth(self.tree)
        self._buffers = tuple(
            K.make_buffers(self._depth, self.tree.max_actions, self.hands[p], self.hands[1 - p])
            for p in range(2)
        )

    # ------------------------------------------------------------------ set-up
    def _check_reach(self, values: npt.ArrayLike, player: int) -> FloatArray:
        arr = np.asarray(values, np.float64)
        name = ("OOP", "IP")[player]
        if arr.shape != (NUM_COMBOS,):
            raise ConfigError(f"{name} reach must be 1,326 weights; got shape {arr.shape}")
        bad = np.flatnonzero(~np.isfinite(arr) | (arr < 0.0))
        if bad.size:
            raise ConfigError(
                f"{name} reach weight {arr[bad[0]]!r} (combo {int(bad[0])}); expected finite "
                "weights >= 0"
            )
        from checkraise.cards import COMBO_MASKS

        return np.where((COMBO_MASKS & np.uint64(self.board_mask)) == 0, arr, 0.0)

    def _setup_isomorphism(self, enabled: bool, weights: list[FloatArray]) -> None:
        """Which suit swaps keep both ranges (and any gadget) the same, and their tables."""
        gadget = None if self.gadget is None else np.asarray(self.gadget.values)
        self.iso_pairs = _iso_pairs(enabled, weights, gadget)
        self.perm = tuple(np.tile(np.arange(n, dtype=np.int64), (16, 1)) for n in self.hands)
        for pair in np.flatnonzero(self.iso_pairs):
            swapped = _swap_combos(int(pair) // 4, int(pair) % 4)
            for p in range(2):
                self.perm[p][pair] = np.searchsorted(self.combos[p], swapped[self.combos[p]])
        self.first_slot = _first_slots(self.board_mask, self.iso_pairs)
        self._first_outcomes = int((self.first_slot >= 0).sum())

    def _sym(self) -> tuple[Any, Any, Any]:
        return (self.iso_pairs, self.perm, self.first_slot)

    def _build_showdowns(self) -> None:
        left = [c for c in range(52) if not (self.board_mask >> c) & 1]
        extra = 5 - len(self.board)
        if extra == 0:
            runouts = [(-1, -1)]
        elif extra == 1:
            runouts = [(c, -1) for c in left]
        else:
            runouts = [(t, r) for i, t in enumerate(left) for r in left[i + 1 :]]
        self.board_row = np.zeros(53 * 53, np.int64)
        for row, (a, b) in enumerate(runouts):
            self.board_row[K.board_index(a, b)] = row
            if b >= 0:
                self.board_row[K.board_index(b, a)] = row
        boards = np.array(runouts, np.int64).reshape(-1, 2)
        board = np.array(self.board, np.int64)
        self.order = []
        self.rank = []
        for p in range(2):
            order = np.empty((len(runouts), self.hands[p]), np.int32)
            rank = np.empty((len(runouts), self.hands[p]), np.int32)
            K.showdown_tables(board, boards, self.cards[p], order, rank)
            self.order.append(order)
            self.rank.append(rank)
        # Per traverser, the two players' sorted hands merged once per runout.
        self.seq: list[npt.NDArray[np.uint16]] = []
        codes: list[npt.NDArray[np.uint8]] = []
        for p in range(2):
            length = self.hands[1 - p] + 2 * self.hands[p]
            seq = np.empty((len(runouts), length), np.uint16)
            card_a = np.empty(length, np.uint8)
            card_b = np.empty(length, np.uint8)
            sweep_tables(self.order[p], self.rank[p], self.order[1 - p], self.rank[1 - p],
                         self.cards[p], self.cards[1 - p], seq, card_a, card_b)
            self.seq.append(seq)
            codes += [card_a, card_b]
        self.codes = tuple(codes)

    @property
    def memory_bytes(self) -> int:
        """Bytes of the regret and strategy buffers and the showdown tables."""
        buffers = sum(a.nbytes for a in (*self.regret, *self.cum))
        tables = sum(a.nbytes for a in (*self.order, *self.rank))
        return buffers + tables + sum(a.nbytes for a in self.seq)

    # ------------------------------------------------------------------ walking
    @property
    def _lock_tables(self) -> _LockTables:
        """The locks as the kernels read them (built on first use after a change)."""
        if self._lock_cache is None:
            self._lock_cache = _build_lock_tables(self._locks, self.hands)
        return self._lock_cache

    def _args(self) -> _Tables:
        t = self._lock_tables
        return (
            self.nodes, self.tree.commit, self.board_row, self.cards, self.same,
            tuple(self.seq), self.codes, self.regret, self.cum, t[0], t[1], t[2], t[3],
        )

    def _walk(self, trav: int, params: FloatArray) -> FloatArray:
        """The traverser's counterfactual values at the root (the gadget's, if any)."""
        reach_t, reach_o = self.initial_reach[trav], self.initial_reach[1 - trav]
        if self.gadget is None:
            return self._walk_from(0, trav, (0, 0), -1, -1, self.board_mask, reach_t, reach_o,
                                   params)
        return self._gadget_walk(trav, params)

    def _walk_from(
        self, root: int, trav: int, bases: tuple[int, int], turn: int, river: int, dealt: int,
        reach_t: FloatArray, reach_o: FloatArray, params: FloatArray,
    ) -> FloatArray:
        """The traverser's values at ``root``: one walk, or split over threads and leaves."""
        out = np.zeros(self.hands[trav])
        args = self._args()
        tail = (params, self._task_reach, self._task_info, self._results)
        buffers = self._buffers[trav]
        head = (root, trav, bases[0], bases[1], turn, river, dealt, reach_t, reach_o, out)
        leaves = self.leaf_values is not None
        if not leaves and (self.threads == 1 or self._slots.size == 0):
            params[K.P_PHASE] = K.PHASE_ALL
            K.walk(*head, *args, *tail, *self._sym(), buffers)
            return out
        self._task_info[:, 4] = -1  # slots the collecting walk does not reach stay -1
        params[K.P_PHASE] = K.PHASE_COLLECT
        K.walk(*head, *args, *tail, *self._sym(), buffers)
        reached = np.flatnonzero(self._task_info[: self._slots.size, 4] >= 0)
        if leaves:
            self._fill_leaves(reached, trav)
        else:
            self._run_tasks(reached, trav, params)
        params[K.P_PHASE] = K.PHASE_FINISH
        K.walk(*head, *args, *tail, *self._sym(), buffers)
        return out

    def _run_tasks(self, reached: npt.NDArray[np.int64], trav: int, params: FloatArray) -> None:
        import numba  # only threaded runs need it here

        # The first chance layer deals to the spot's board: the same cards everywhere.
        canonical, copies = [], []
        k_of: dict[int, int] = {}
        for card in range(52):
            if (self.board_mask >> card) & 1:
                continue
            k = k_of[card] = len(k_of)
            s = K.iso_suit(self.board_mask, card, self.iso_pairs)
            if s < 0:
                canonical.append((k, card))
            else:  # a copy of the same rank in suit s, which is canonical and came before
                copies.append((k, card, k_of[card - (card & 3) + s], 4 * s + (card & 3)))
        slot_list = [int(slot) for slot in reached for _ in canonical]
        k_list = [k for _ in reached for k, _ in canonical]
        card_list = [card for _ in reached for _, card in canonical]
        params[K.P_PHASE] = K.PHASE_ALL
        previous = numba.get_num_threads()
        limit = int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]
        threads = min(self.threads, limit)
        numba.set_num_threads(threads)
        try:
            K.run_tasks(
                np.array(slot_list, np.int64), np.array(k_list, np.int64),
                np.array(card_list, np.int64), self._slots.astype(np.int64), threads,
                self._depth, self.tree.max_actions, trav, self.hands[trav],
                self.hands[1 - trav], *self._args(), params, self._task_reach,
                self._task_info, self._results, *self._sym(),
            )
        finally:
            numba.set_num_threads(previous)
        n_t = self.hands[trav]
        for slot in reached:
            for k, _card, source, pair in copies:
                swap = self.perm[trav][pair]
                self._results[slot, k, :n_t] = self._results[slot, source, :n_t][swap]

    def _fill_leaves(self, reached: npt.NDArray[np.int64], trav: int) -> None:
        """Ask ``leaf_values`` for the traverser's values at every leaf the walk reached.

        A ``leaf_values`` with a ``batch(leaves, traverser, reaches)`` method gets all
        the leaves in one call (a network then runs once per walk).
        """
        assert self.leaf_values is not None
        other = 1 - trav
        n_t, n_o = self.hands[trav], self.hands[other]
        leaves: list[Leaf] = []
        reaches: list[tuple[FloatArray, FloatArray]] = []
        for slot in reached:
            node = int(self._slots[slot])
            reach = [np.zeros(NUM_COMBOS), np.zeros(NUM_COMBOS)]
            reach[trav][self.combos[trav]] = self._task_reach[slot, 0, :n_t]
            reach[other][self.combos[other]] = self._task_reach[slot, 1, :n_o]
            committed = float(self.tree.commit[node])
            label = self.tree.labels[node]
            leaves.append(Leaf(
                node=node, line=self._line_of(node), board=self.board,
                pot=self.spot.pot + 2 * committed, committed=committed,
                stack=self.spot.stack - committed, combos=(self.combos[0], self.combos[1]),
                choice=int(label[1:]) if label.startswith("k") else 0,
            ))
            reaches.append((reach[0], reach[1]))
        batch = getattr(self.leaf_values, "batch", None)
        evs: list[FloatArray]
        if batch is not None and leaves:
            evs = list(np.asarray(batch(leaves, trav, reaches), np.float64).reshape(
                len(leaves), -1))
        else:
            evs = [np.asarray(self.leaf_values(leaf, trav, r), np.float64)
                   for leaf, r in zip(leaves, reaches, strict=True)]
        for slot, leaf, ev in zip(reached, leaves, evs, strict=True):
            if ev.shape != (NUM_COMBOS,) or not np.all(np.isfinite(ev[self.combos[trav]])):
                raise ConfigError(
                    f"leaf_values returned shape {ev.shape} or non-finite values at leaf "
                    f"{leaf.line!r}; expected 1,326 finite chips"
                )
            mass = np.zeros(n_t)
            K.fold_values(1.0, self._task_reach[slot, 1, :n_o], self.cards[trav],
                          self.cards[other], self.same[trav], mass)
            self._results[slot, 0, :n_t] = (ev[self.combos[trav]] - leaf.committed) * mass

    def _line_of(self, node: int) -> str:
        labels = []
        while node > 0:
            if self.tree.labels[node]:
                labels.append(self.tree.labels[node])
            node = int(self.tree.parent[node])
        return " ".join(reversed(labels))

    def _gadget_walk(self, trav: int, params: FloatArray) -> FloatArray:
        """Root values in the re-solving gadget (Burch, Johanson & Bowling 2014).

        The gadget player picks, hand by hand, between taking his bound (``T``)
        and entering the subgame (``F``); his choice is learned by the same regret
        rule as every other node.
        """
        assert self.gadget is not None
        if self.gadget.maxmargin:
            return self._maxmargin_walk(trav, params)
        g = self.gadget.player
        other = 1 - g
        mode = int(params[K.P_MODE])
        sigma = self._gadget_strategy(average=mode != K.MODE_CFR)
        reach_g = self.initial_reach[g]
        bound = self.gadget.values[self.combos[g]]
        if trav == g:
            follow = self._walk_from(0, g, (0, 0), -1, -1, self.board_mask,
                                     reach_g * sigma[1], self.initial_reach[other], params)
            take = bound * self.root_mass(g)
            if mode == K.MODE_BEST_RESPONSE:
                return np.maximum(take, follow)
            value: FloatArray = sigma[0] * take + sigma[1] * follow
            if mode == K.MODE_CFR:
                self._gadget_update(np.stack([take, follow]) - value, reach_g, sigma, params)
            return value
        follow = self._walk_from(0, other, (0, 0), -1, -1, self.board_mask,
                                 self.initial_reach[other], reach_g * sigma[1], params)
        take = np.zeros(self.hands[other])
        K.fold_values(1.0, reach_g * sigma[0] * (self.spot.pot - bound), self.cards[other],
                      self.cards[g], self.same[other], take)
        return follow + take

    def _maxmargin_walk(self, trav: int, params: FloatArray) -> FloatArray:
        """Root values in the Maxmargin gadget (see :class:`Gadget`).

        The gadget player's reach at the root is his choice ``q`` over hands alone (a
        counterfactual value leaves his own reach out, so one zero-sum game holds both
        sides); it is learnt by regret matching on ``value - bound`` in counterfactual
        units. Outside CFR iterations (values, best responses, reports) the walk is the
        plain subgame's from both ranges, so exploitability measures the strategies in
        the subgame itself; :meth:`margins` gives the gadget's own figure.
        """
        assert self.gadget is not None
        g = self.gadget.player
        other = 1 - g
        mode = int(params[K.P_MODE])
        if mode != K.MODE_CFR:
            return self._walk_from(0, trav, (0, 0), -1, -1, self.board_mask,
                                   self.initial_reach[trav], self.initial_reach[1 - trav], params)
        q = self._maxmargin_choice()
        if trav == other:
            return self._walk_from(0, other, (0, 0), -1, -1, self.board_mask,
                                   self.initial_reach[other], q, params)
        follow = self._walk_from(0, g, (0, 0), -1, -1, self.board_mask, q,
                                 self.initial_reach[other], params)
        margin = follow - self._gadget_bound_cf()
        regret = self._gadget_regret[1] + margin - float(np.dot(q, margin))
        if self.clip:
            regret = np.maximum(regret, 0.0)
        else:
            regret = np.where(regret > 0, regret * params[K.P_POSITIVE],
                              regret * params[K.P_NEGATIVE])
        self._gadget_regret[1] = regret
        self._gadget_cum[1] += params[K.P_AVG_WEIGHT] * q
        return follow

    def _maxmargin_choice(self) -> FloatArray:
        """The gadget player's current distribution over his hands (regret matching)."""
        positive: FloatArray = np.maximum(self._gadget_regret[1], 0.0)
        total = float(positive.sum())
        if total > 0:
            return positive / total
        return np.full(positive.shape[0], 1.0 / max(1, positive.shape[0]))

    def _gadget_bound_cf(self) -> FloatArray:
        """The gadget player's bounds in counterfactual units (times the other's reach)."""
        assert self.gadget is not None
        g = self.gadget.player
        bound: FloatArray = self.gadget.values[self.combos[g]] * self.root_mass(g)
        return bound

    def root_mass(self, player: int) -> FloatArray:
        """For each of ``player``'s hands, the other player's root reach that holds no card
        of it: the weight that turns an expected value at the root into a counterfactual
        one (computed once; the root reach does not change)."""
        cached = self._root_mass.get(player)
        if cached is None:
            cached = np.zeros(self.hands[player])
            K.fold_values(1.0, self.initial_reach[1 - player], self.cards[player],
                          self.cards[1 - player], self.same[player], cached)
            self._root_mass[player] = cached
        return cached

    def margins(self) -> FloatArray:
        """Per hand of the gadget player: his bound minus his best-response value against
        the other's average strategy, in chips (``nan`` where no opposing hand is left).
        Safe re-solving keeps every margin >= 0; Maxmargin makes the smallest one large."""
        if self.gadget is None:
            raise ConfigError("margins need a re-solving gadget")
        g = self.gadget.player
        params = self._params(K.MODE_BEST_RESPONSE)
        best = self._walk_from(0, g, (0, 0), -1, -1, self.board_mask, self.initial_reach[g],
                               self.initial_reach[1 - g], params)
        mass = self.root_mass(g)
        with np.errstate(invalid="ignore", divide="ignore"):
            out: FloatArray = np.where(mass > 0, self.gadget.values[self.combos[g]]
                                       - best / np.where(mass > 0, mass, 1.0), np.nan)
        return out

    def _gadget_strategy(self, average: bool) -> FloatArray:
        src = self._gadget_cum if average else self._gadget_regret
        positive = np.maximum(src, 0.0)
        total = positive.sum(axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(total > 0, positive / np.where(total > 0, total, 1.0), 0.5)

    def _gadget_update(self, regrets: FloatArray, reach: FloatArray, sigma: FloatArray,
                       params: FloatArray) -> None:
        r = self._gadget_regret + regrets
        if self.clip:
            r = np.maximum(r, 0.0)
        else:
            r = np.where(r > 0, r * params[K.P_POSITIVE], r * params[K.P_NEGATIVE])
        self._gadget_regret = r
        self._gadget_cum += params[K.P_AVG_WEIGHT] * reach * sigma

    def _params(self, mode: int) -> FloatArray:
        params = np.zeros(K.NUM_PARAMS)
        params[K.P_POT] = self.spot.pot
        params[K.P_MODE] = mode
        params[K.P_CLIP] = 1.0 if self.clip else 0.0
        params[K.P_POSITIVE] = 1.0
        params[K.P_NEGATIVE] = 1.0
        params[K.P_SKIP] = 1.0 if self._skip_unreached else 0.0
        return params

    def iterate(self, iterations: int = 1) -> None:
        """Run ``iterations`` more CFR iterations."""
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 0:
            raise ConfigError(f"iterations = {iterations!r}; expected a whole number >= 0")
        started = time.perf_counter()
        params = self._params(K.MODE_CFR)
        for _ in range(iterations):
            t = self.iteration + 1
            if self.discounted:
                params[K.P_POSITIVE] = t**self.alpha / (t**self.alpha + 1.0)
                params[K.P_NEGATIVE] = t**self.beta / (t**self.beta + 1.0)
            params[K.P_AVG_WEIGHT] = float(t) ** self.gamma
            for trav in range(2):
                self._walk(trav, params)
            self.iteration = t
        self.seconds += time.perf_counter() - started

    # ------------------------------------------------------------------ measuring
    def _pair_mass(self) -> float:
        """Total weight of the compatible pairs of hands at the root."""
        w0, w1 = self.initial_reach
        per_card = np.zeros(52)
        np.add.at(per_card, self.cards[1][:, 0], w1)
        np.add.at(per_card, self.cards[1][:, 1], w1)
        compat = w1.sum() - per_card[self.cards[0][:, 0]] - per_card[self.cards[0][:, 1]]
        same = self.same[0]
        compat = compat + np.where(same >= 0, w1[np.maximum(same, 0)], 0.0)
        return float(np.dot(w0, compat))

    def root_values(self, mode: int = K.MODE_AVERAGE) -> tuple[FloatArray, FloatArray]:
        """Both players' counterfactual values per hand at the root."""
        params = self._params(mode)
        return self._walk(0, params), self._walk(1, params)

    def expected_values(self) -> tuple[float, float]:
        """Each player's expected chips under the average strategies."""
        v0, v1 = self.root_values(K.MODE_AVERAGE)
        mass = self._pair_mass()
        return (float(np.dot(self.initial_reach[0], v0) / mass),
                float(np.dot(self.initial_reach[1], v1) / mass))

    def best_response_values(self) -> tuple[float, float]:
        """Each player's expected chips when best-responding to the other's average."""
        v0, v1 = self.root_values(K.MODE_BEST_RESPONSE)
        mass = self._pair_mass()
        return (float(np.dot(self.initial_reach[0], v0) / mass),
                float(np.dot(self.initial_reach[1], v1) / mass))

    def exploitability(self) -> float:
        """Mean best-response gain of the two players, in % of the starting pot."""
        br0, br1 = self.best_response_values()
        return 100.0 * ((br0 + br1 - self.spot.pot) / 2.0) / self.spot.pot

    def solve(
        self,
        accuracy: float | None = None,
        max_iterations: int = 1000,
        max_seconds: float | None = None,
        check_every: int = 10,
        progress: Progress | None = None,
    ) -> float:
        """Iterate until the exploitability is at most ``accuracy`` % of the pot.

        Also stops after ``max_iterations`` iterations, or before ``max_seconds``
        seconds would pass: a step of ``check_every`` iterations is not begun when the
        last one, run again, would end past the budget (the first always runs). Returns
        the last exploitability measured (measured every ``check_every`` iterations and
        at the end).
        """
        if accuracy is not None and not accuracy > 0.0:
            raise ConfigError(f"accuracy = {accuracy!r}; expected a % of the pot > 0")
        if check_every < 1:
            raise ConfigError(f"check_every = {check_every!r}; expected >= 1")
        started = time.perf_counter()
        exploit = float("inf")
        while self.iteration < max_iterations:
            step = min(check_every, max_iterations - self.iteration)
            step_start = time.perf_counter()
            self.iterate(step)
            exploit = self.exploitability()
            if progress is not None:
                progress(self.iteration, exploit)
            if accuracy is not None and exploit <= accuracy:
                break
            now = time.perf_counter()
            if max_seconds is not None and 2 * now - step_start - started > max_seconds:
                break  # another step as long as this one would end past the budget
        if exploit == float("inf"):
            exploit = self.exploitability()
        return exploit

    # ------------------------------------------------------------------ reading
    def locate(self, line: str, reaches: bool = True) -> Located:
        """The node, runout and both players' reach at the end of an action line.

        Card tokens deal the turn and river: ``"b30 c Kd x b50"`` is OOP bets 30, IP
        calls, the turn is the king of diamonds, OOP checks and IP bets 50. Reaches
        follow the average strategies (locked hands their locks). With suit
        isomorphism a card may lead to the stored game of another suit: the result
        is in that stored game's terms, and ``perm`` maps each player's hands to it.
        With ``reaches=False`` the reaches are not followed through the actions (only
        the cards), for callers that want the node alone.
        """
        tree = self.tree
        node, bases, turn, river = 0, [0, 0], -1, -1
        dealt = real_dealt = self.board_mask
        suit_map = [0, 1, 2, 3]  # a real suit -> its suit in the stored game
        board = list(self.board)
        reach = [self.initial_reach[0].copy(), self.initial_reach[1].copy()]
        for token in line.split():
            if tree.kind[node] == CHANCE:
                real = self._card_token(line, token, real_dealt)
                card = real - (real & 3) + suit_map[real & 3]
                s = K.iso_suit(dealt, card, self.iso_pairs)
                if s >= 0:
                    t = card & 3
                    suit_map = [s if u == t else t if u == s else u for u in suit_map]
                    card = card - t + s
                if self.nodes[node, K._SLOT] >= 0:
                    k = int(self.first_slot[card])
                else:
                    k = sum(1 for c in range(card) if not (dealt >> c) & 1)
                for p in range(2):
                    bases[p] += int(tree.offset[node, p] + k * tree.stride[node, p])
                    hit = (self.cards[p][:, 0] == card) | (self.cards[p][:, 1] == card)
                    reach[p][hit] = 0.0
                if turn < 0:
                    turn = card
                else:
                    river = card
                dealt |= 1 << card
                real_dealt |= 1 << real
                board.append(real)
                node = int(tree.child_start[node])
                continue
            child = tree.step(node, token, line)
            if reaches:
                actor = int(tree.player[node])
                sigma = self._strategy_block(node, bases[actor], actor, average=True)
                reach[actor] = reach[actor] * sigma[child - int(tree.child_start[node])]
            node = child
        perm = tuple(self._hand_map(p, suit_map) for p in range(2))
        return Located(node, (bases[0], bases[1]), turn, river, dealt, tuple(board),
                       (reach[0], reach[1]), (perm[0], perm[1]))

    def _hand_map(self, player: int, suit_map: list[int]) -> npt.NDArray[np.int64]:
        """Index in the stored game of each of ``player``'s hands under ``suit_map``."""
        mine = self.combos[player]
        if suit_map == [0, 1, 2, 3]:
            return np.arange(mine.size, dtype=np.int64)
        from checkraise.cards import combo_index

        cards = self.cards[player]
        moved = [combo_index(int(a) - int(a) % 4 + suit_map[int(a) % 4],
                             int(b) - int(b) % 4 + suit_map[int(b) % 4]) for a, b in cards]
        return np.searchsorted(mine, np.array(moved, np.int64)).astype(np.int64)

    def _card_token(self, line: str, token: str, dealt: int) -> int:
        try:
            card = parse_card(token)
        except CheckraiseError:
            raise CheckraiseError(
                f"line {line!r}: {token!r} comes where a card is dealt; expected a card such "
                "as Kd"
            ) from None
        if (dealt >> card) & 1:
            raise CheckraiseError(f"line {line!r}: {token} is already on the board")
        return card

    def _strategy_block(self, node: int, base: int, actor: int, average: bool) -> FloatArray:
        count = int(self.tree.child_count[node])
        block = base + int(self.tree.offset[node, actor])
        out = np.empty((count, self.hands[actor]))
        t = self._lock_tables
        node_strategy(self.regret[actor], self.cum[actor], block, count, self.hands[actor],
                      average, t[0][actor], t[1][actor], t[2][actor], t[3][actor], out)
        return out

    def _decision(self, line: str, reaches: bool = True) -> Located:
        at = self.locate(line, reaches)
        kind = self.tree.kind[at.node]
        if kind != DECISION:
            where = "a card is dealt next" if kind == CHANCE else "the hand is over"
            raise CheckraiseError(f"line {line!r}: no decision here ({where})")
        return at

    def lock(self, line: str, strategy: npt.ArrayLike, combos: npt.ArrayLike | None = None,
             ) -> None:
        """Fix the actor's strategy at the node of ``line`` (node locking).

        Parameters
        ----------
        line : str
            The node (with its turn and river cards if it lies below them).
        strategy : array
            Either one row of action probabilities for every locked hand
            (``(actions,)``) or a row per combo (``(1326, actions)``).
        combos : int array or None
            The combo indices to lock (default: every hand the actor holds).
        """
        at = self._decision(line, reaches=False)
        actor = int(self.tree.player[at.node])
        count = int(self.tree.child_count[at.node])
        probs = np.asarray(strategy, np.float64)
        if probs.shape == (count,):
            probs = np.broadcast_to(probs, (NUM_COMBOS, count))
        if probs.shape != (NUM_COMBOS, count):
            raise ConfigError(
                f"locked strategy has shape {probs.shape}; expected ({count},) or "
                f"(1326, {count}) for the actions {', '.join(self.strategy_at(line)[0])}"
            )
        mine = self.combos[actor]
        chosen = mine if combos is None else np.asarray(combos, np.int64)
        rows = np.empty((mine.size, count))
        rows[at.perm[actor]] = probs[mine]  # in the stored game's hand order
        if np.any(~np.isfinite(rows)) or rows.min() < 0 or np.any(np.abs(rows.sum(1) - 1) > 1e-9):
            raise ConfigError("a locked strategy row must be probabilities that add up to 1")
        block = at.bases[actor] + int(self.tree.offset[at.node, actor])
        mask = np.empty(mine.size, np.bool_)
        mask[at.perm[actor]] = np.isin(mine, chosen)
        self._locks.setdefault(actor, {})[block] = (mask, np.ascontiguousarray(rows.T).ravel())
        self._lock_cache = None  # rebuilt when next read: locking many nodes stays linear

    def lock_state(self) -> dict[int, dict[int, tuple[np.ndarray, np.ndarray]]]:
        """The locks as ``{player: {block start: (hand mask, [action, hand] values)}}``."""
        return {p: {b: (m.copy(), v.copy()) for b, (m, v) in table.items()}
                for p, table in self._locks.items()}

    def restore_locks(self, locks: dict[int, dict[int, tuple[np.ndarray, np.ndarray]]]) -> None:
        """Put back locks taken from :meth:`lock_state` (of a solver of the same spot)."""
        for p, table in locks.items():
            for block, (mask, values) in table.items():
                fits = p in (0, 1) and mask.shape == (self.hands[p],)
                if not fits or values.size % max(1, mask.size) or not (
                    0 <= block < self.tree.storage[p]
                ):
                    raise ConfigError(f"lock at block {block} of player {p} does not fit this spot")
        self._locks = {p: dict(table) for p, table in locks.items()}
        self._lock_cache = None

    @property
    def gadget_buffers(self) -> tuple[FloatArray, FloatArray]:
        """The gadget node's regrets and strategy sums, ``(2, hands)`` each."""
        return self._gadget_regret, self._gadget_cum

    def restore_gadget_buffers(self, regret: FloatArray, cum: FloatArray) -> None:
        """Put back gadget buffers from :attr:`gadget_buffers`."""
        if regret.shape != self._gadget_regret.shape or cum.shape != self._gadget_cum.shape:
            raise ConfigError(
                f"gadget buffers of shape {regret.shape}; expected {self._gadget_regret.shape}"
            )
        self._gadget_regret = regret.astype(np.float64)
        self._gadget_cum = cum.astype(np.float64)

    def unlock(self) -> None:
        """Remove every lock."""
        self._locks = {}
        self._lock_cache = None

    def report(self, line: str = "") -> NodeReport:
        """Strategy, EV and equity of every hand of the actor at ``line``."""
        at = self._decision(line)
        actor = int(self.tree.player[at.node])
        other = 1 - actor
        strategy = self._strategy_block(at.node, at.bases[actor], actor, average=True).T
        params = self._params(K.MODE_AVERAGE)
        values = self._walk_from(at.node, actor, at.bases, at.turn, at.river, at.dealt,
                                 at.reach[actor], at.reach[other], params)
        wins = np.zeros(self.hands[actor])
        mass = np.zeros(self.hands[actor])
        K.equity_sums(at.reach[other], self.cards[actor], self.cards[other], self.same[actor],
                      self.order[actor], self.rank[actor], self.order[other], self.rank[other],
                      self._runouts(at), self.board_row, wins, mass)
        here = np.zeros(self.hands[actor])
        K.fold_values(1.0, at.reach[other], self.cards[actor], self.cards[other],
                      self.same[actor], here)
        with np.errstate(invalid="ignore", divide="ignore"):
            ev = np.where(here > 0, values / np.where(here > 0, here, 1.0), np.nan)
            equity = np.where(mass > 0, wins / np.where(mass > 0, mass, 1.0), np.nan)
        order = at.perm[actor]  # from the stored game back to the real cards
        weight = at.reach[actor][order]
        strategy, ev, equity = strategy[order], ev[order], equity[order]
        dealt = sum(1 << c for c in at.board[len(self.board):])
        cards = self.cards[actor]
        dead = ((dealt >> cards[:, 0]) & 1) | ((dealt >> cards[:, 1]) & 1) if dealt else None
        if dead is not None:
            ev = np.where(dead.astype(bool), np.nan, ev)
            equity = np.where(dead.astype(bool), np.nan, equity)
        total = weight.sum()
        freq = (weight @ strategy) / total if total > 0 else np.full(strategy.shape[1], np.nan)
        labels = tuple(self.tree.labels[c] for c in self.tree.children(at.node))
        return NodeReport(line, at.board, actor, labels, self.combos[actor].copy(), weight.copy(),
                          strategy, ev, equity, freq)

    def _runouts(self, at: Located) -> npt.NDArray[np.int64]:
        """The showdown-table keys of every way the board can still come."""
        left = [c for c in range(52) if not (at.dealt >> c) & 1]
        dealt = (at.turn >= 0) + (at.river >= 0)
        to_come = 5 - len(self.board) - dealt
        if to_come == 0:
            return np.array([[at.turn, at.river]], np.int64)
        if to_come == 1:
            if at.turn >= 0:
                return np.array([[at.turn, c] for c in left], np.int64)
            return np.array([[c, -1] for c in left], np.int64)
        return np.array([[a, b] for i, a in enumerate(left) for b in left[i + 1 :]], np.int64)

    def strategy_at(self, line: str, average: bool = True) -> tuple[tuple[str, ...], FloatArray]:
        """The action labels and the ``[hand, action]`` strategy of the actor at ``line``."""
        at = self._decision(line, reaches=False)
        actor = int(self.tree.player[at.node])
        out = self._strategy_block(at.node, at.bases[actor], actor, average)
        labels = tuple(self.tree.labels[c] for c in self.tree.children(at.node))
        return labels, out.T[at.perm[actor]].copy()

    def describe(self) -> dict[str, Any]:
        """Figures for reports: iterations, seconds, memory."""
        return {
            "algorithm": self.algorithm,
            "precision": self.precision,
            "iterations": self.iteration,
            "seconds": round(self.seconds, 3),
            "hands": list(self.hands),
            "tree_nodes": self.tree.num_nodes,
            "memory_mb": round(self.memory_bytes / 2**20, 1),
        }



def _iso_pairs(
    enabled: bool, weights: list[FloatArray], gadget: FloatArray | None
) -> npt.NDArray[np.int64]:
    """``[4s + t] = 1`` where swapping suits s < t maps both ranges (and gadget) onto themselves."""
    pairs = np.zeros(16, np.int64)
    if not enabled:
        return pairs
    for s in range(4):
        for t in range(s + 1, 4):
            swapped = _swap_combos(s, t)
            ok = all(np.array_equal(w, w[swapped]) for w in weights)
            if ok and (gadget is None or np.array_equal(gadget, gadget[swapped])):
                pairs[4 * s + t] = 1
    return pairs


def _first_slots(board_mask: int, iso_pairs: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Storage index of each card stored at the first chance layer (-1: dealt or a copy)."""
    slots = np.full(52, -1, np.int64)
    stored = 0
    for card in range(52):
        if not (board_mask >> card) & 1 and K.iso_suit(board_mask, card, iso_pairs) < 0:
            slots[card] = stored
            stored += 1
    return slots


def estimate_memory(spot: Spot, precision: str = "float64", isomorphism: bool = True) -> int:
    """Bytes a :class:`SpotSolver` of ``spot`` allocates for its buffers and showdown
    tables, from the betting tree alone (nothing big is allocated).

    Examples
    --------
    >>> spot = Spot.from_dict({"board": "Ks 7h 2c 3d 9s", "pot": 100, "stack": 100,
    ...                        "ranges": {"oop": "AA,QQ", "ip": "KK,JJ"}})
    >>> estimate_memory(spot) == SpotSolver(spot).memory_bytes
    True
    """
    if precision not in PRECISIONS:
        raise ConfigError(f"precision {precision!r}; expected one of {one_of(PRECISIONS)}")
    weights = [spot.weights(p) for p in range(2)]
    hands = (int((weights[0] > 0).sum()), int((weights[1] > 0).sum()))
    board_mask = sum(1 << c for c in spot.board)
    first = None
    if len(spot.board) < 5:
        first = int((_first_slots(board_mask, _iso_pairs(isomorphism, weights, None)) >= 0).sum())
    tree = build_tree(spot, hands, first_outcomes=first)
    item = 4 if precision == "float32" else 8
    runouts = {3: 49 * 48 // 2, 4: 48, 5: 1}[len(spot.board)]
    # order and rank (4 bytes each), and the merged sweeps: n_o + 2 n_t codes of 2 bytes
    # per traverser, 3 (n_0 + n_1) in all
    tables = 2 * 4 * runouts * sum(hands) + 2 * 3 * runouts * sum(hands)
    return 2 * item * sum(tree.storage) + tables


def _swap_combos(s: int, t: int) -> npt.NDArray[np.int64]:
    """For each combo, the combo with suits ``s`` and ``t`` swapped."""
    from checkraise.cards import combo_index

    def swap(card: int) -> int:
        suit = card & 3
        return card - suit + (t if suit == s else s if suit == t else suit)

    return np.array([combo_index(swap(int(a)), swap(int(b))) for a, b in COMBO_CARDS],
                    np.int64)


def _same_index(mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    pos = np.searchsorted(theirs, mine)
    pos = np.minimum(pos, max(theirs.size - 1, 0))
    found = theirs.size > 0
    return np.where(found & (theirs[pos] == mine), pos, -1).astype(np.int64)


def _depth(tree: SpotTree) -> int:
    depth = np.zeros(tree.num_nodes, np.int64)
    for node in range(1, tree.num_nodes):
        depth[node] = depth[tree.parent[node]] + 1
    return int(depth.max()) + 1


def _node_table(tree: SpotTree) -> np.ndarray:
    n = tree.num_nodes
    table = np.zeros((n, K.NODE_COLUMNS), np.int64)
    table[:, K._KIND] = tree.kind
    table[:, K._PLAYER] = tree.player
    table[:, K._START] = tree.child_start
    table[:, K._COUNT] = tree.child_count
    table[:, K._OFF : K._OFF + 2] = tree.offset
    table[:, K._STRIDE : K._STRIDE + 2] = tree.stride
    table[:, K._OUTCOMES] = tree.outcomes
    table[:, K._SLOT] = -1
    # First-layer chance nodes: no chance node above them.
    slot = 0
    for node in range(n):
        if tree.kind[node] not in (CHANCE, LEAF):
            continue
        up = int(tree.parent[node])
        while up >= 0 and tree.kind[up] != CHANCE:
            up = int(tree.parent[up])
        if up < 0:
            table[node, K._SLOT] = slot
            slot += 1
    return table


def _build_lock_tables(
    locks: dict[int, dict[int, tuple[np.ndarray, np.ndarray]]], hands: tuple[int, int]
) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    starts, offsets, masks, values = [], [], [], []
    for p in range(2):
        table = locks.get(p, {})
        blocks = sorted(table)
        starts.append(np.array(blocks, np.int64))
        sizes = [table[b][1].size for b in blocks]
        offsets.append(np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
                       if blocks else np.zeros(0, np.int64))
        masks.append(np.concatenate([table[b][0] for b in blocks]).astype(np.bool_)
                     if blocks else np.zeros(0, np.bool_))
        values.append(np.concatenate([table[b][1] for b in blocks])
                      if blocks else np.zeros(0, np.float64))
    return ((starts[0], starts[1]), (offsets[0], offsets[1]), (masks[0], masks[1]),
            (values[0], values[1]))
