"""Abstract heads-up no-limit hold'em as a :class:`~checkraise.games.base.Game`.

:class:`HoldemCards` is the card side: the card abstraction's tables, an optional
coarsening to fewer buckets (equal-frequency groups of buckets sorted by mean
hand strength), optional perfect recall of earlier streets' buckets, and an
optional seeded pool of deals. :class:`HoldemGame` puts it together with the rules
and the betting tree. An information set is (position, bucket, abstract betting
line), exactly the rows the blueprint trainer keeps.

With a pool of ``N`` deals the game is "heads-up no-limit where the deal is drawn
uniformly from these ``N`` deals". Its chance nodes deal each street's pair of
buckets with the frequencies of the deals still consistent with the buckets seen,
and a showdown pays the mean over those deals. That is the same game, value for
value, as drawing a deal and reading its buckets (a strategy sees only buckets), but
small enough for :func:`~checkraise.games.tree.build_tree`, so tabular CFR and the
exact best response run on it: this is how the Monte Carlo trainer is checked.
Without a pool, chance deals real cards one at a time (for tools and sampling;
the tree is far too large to list).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise.errors import ConfigError
from checkraise.games.base import (
    CHANCE,
    TERMINAL,
    FloatVector,
    Game,
    IllegalActionError,
    State,
)
from checkraise.games.holdem import (
    DECISION,
    FOLD,
    SHOWDOWN,
    ActionAbstraction,
    BettingTree,
    HoldemRules,
    build_betting_tree,
    load_actions,
)

__all__ = ["HoldemCards", "HoldemGame", "HoldemState"]

I64 = npt.NDArray[np.int64]
BOARD_AT = (0, 3, 4, 5)


class HoldemCards:
    """Buckets of deals: the abstraction, its coarsening, recall and the deal pool.

    Parameters
    ----------
    abstraction
        A card abstraction name or file (``"default"`` ships with the package).
    buckets
        Coarsen to this many buckets per street (``None`` keeps the abstraction's).
    recall
        Key each street by the whole sequence of buckets so far (perfect recall).
    deals, deal_seed
        ``deals > 0`` draws a seeded pool of that many deals (see the module docstring).
    """

    def __init__(
        self,
        abstraction: str = "default",
        buckets: tuple[int, ...] | None = None,
        recall: bool = False,
        deals: int = 0,
        deal_seed: int = 0,
    ) -> None:
        from checkraise.abstraction import Abstraction

        self.abstraction_name = str(abstraction)
        self.abstraction = Abstraction.load(abstraction)
        base = self.abstraction.buckets
        if buckets is not None:
            if (
                not isinstance(buckets, (tuple, list))
                or len(buckets) != 4
                or any(isinstance(k, bool) or not isinstance(k, int) or k < 1 for k in buckets)
            ):
                raise ConfigError(f"buckets={buckets!r}; expected 4 whole numbers >= 1")
            if any(k > n for k, n in zip(buckets, base, strict=True)):
                raise ConfigError(f"buckets={buckets!r}; expected at most the abstraction's {base}")
        if isinstance(deals, bool) or not isinstance(deals, int) or deals < 0:
            raise ConfigError(f"deals={deals!r}; expected a whole number >= 0 (0 = full deck)")
        if isinstance(deal_seed, bool) or not isinstance(deal_seed, int):
            raise ConfigError(f"deal_seed={deal_seed!r}; expected a whole number")
        self.buckets = tuple(buckets) if buckets is not None else base
        self.recall = bool(recall)
        self.deals = deals
        self.deal_seed = int(deal_seed)
        width = max(base)
        coarse = np.zeros((4, width), dtype=np.int64)
        for s, street in enumerate(("preflop", "flop", "turn", "river")):
            n = base[s]
            k = self.buckets[s]
            if k == n:
                coarse[s, :n] = np.arange(n)
                continue
            arrays = self.abstraction.arrays
            mean = arrays[f"{street}_mean"]
            size = arrays[f"{street}_size"]
            order = np.argsort(mean, kind="stable")
            cum = np.cumsum(size[order]) - 0.5 * size[order]
            groups = np.minimum((cum / size.sum() * k).astype(np.int64), k - 1)
            coarse[s, order] = groups
        self.coarse = coarse
        counts = np.asarray(self.buckets, dtype=np.int64)
        self.table_sizes = np.cumprod(counts) if self.recall else counts

    def to_dict(self) -> dict[str, Any]:
        return {
            "abstraction": self.abstraction_name,
            "abstraction_sha256": self.abstraction.header.get("checksums", {}),
            "buckets": list(self.buckets),
            "recall": self.recall,
            "deals": self.deals,
            "deal_seed": self.deal_seed,
        }

    def kernel_tables(self) -> tuple[Any, ...]:
        """The card arguments of the kernels (tables, coarse map, recall, table sizes)."""
        return (*self.abstraction.tables(), self.coarse, self.recall, self.table_sizes)

    def deal_buckets(self, deal: npt.NDArray[np.uint8]) -> tuple[I64, int]:
        """``(buckets[2, 4], winner)`` of one deal (hole 0, hole 1, board; winner 2 = tie)."""
        from checkraise.games._holdem_kernels import deal_buckets

        out = np.zeros((2, 4), dtype=np.int64)
        empty = np.zeros(0, dtype=np.uint8)
        winner = deal_buckets(  # type: ignore[call-arg]
            np.asarray(deal, dtype=np.uint8), out, *self.kernel_tables(), empty
        )
        return out, int(winner)

    def river_table(self) -> npt.NDArray[np.uint8]:
        """The abstraction's river bucket of every river class (123,156,254 bytes).

        Built once (exact EHS of every class, one sorted sweep per canonical board:
        about 20 s on two cores) so that a trainer reads a river bucket instead of
        ranking 990 opponent hands per deal; empty if the river has over 256 buckets.
        """
        from checkraise.abstraction._ehs_kernels import canonical_boards
        from checkraise.abstraction._table_kernels import fill_river
        from checkraise.abstraction.isomorphism import index_size
        from checkraise.games._holdem_kernels import river_buckets_from_values

        if self.abstraction.buckets[3] > 256:
            return np.zeros(0, dtype=np.uint8)
        boards = canonical_boards(5)
        values = np.zeros(index_size(3), dtype=np.uint16)
        for start in range(0, len(boards), 8192):
            fill_river(boards, start, min(len(boards), start + 8192), values)
        out = np.empty(values.shape[0], dtype=np.uint8)
        river_buckets_from_values(values, self.abstraction.arrays["river_thresholds"], out)
        return out

    def combo_buckets(self, street: int, board: tuple[int, ...]) -> I64:
        """The bucket on ``street`` of each of the 1,326 combos on ``board`` (-1: clashes).

        ``board`` holds at least the street's cards (extra cards are ignored).
        """
        from checkraise.cards import COMBO_CARDS
        from checkraise.games._holdem_kernels import combo_buckets

        out = np.zeros(COMBO_CARDS.shape[0], dtype=np.int64)
        cards = np.asarray(board[: BOARD_AT[street]], dtype=np.uint8)
        combo_buckets(street, cards, COMBO_CARDS.astype(np.uint8), *self.kernel_tables(), out)  # type: ignore[call-arg]
        return out

    @cached_property
    def pool(self) -> tuple[npt.NDArray[np.uint8], I64, I64]:
        """``(deals[N, 9], buckets[N, 2, 4], winner[N])`` of the seeded pool (empty without one)."""
        from checkraise.games._holdem_kernels import pool_buckets

        n = self.deals
        rng = np.random.default_rng(self.deal_seed)
        deals = np.empty((n, 9), dtype=np.uint8)
        for i in range(n):
            deals[i] = rng.choice(52, size=9, replace=False)
        buckets = np.zeros((n, 2, 4), dtype=np.int64)
        winner = np.zeros(n, dtype=np.int64)
        if n:
            pool_buckets(deals, buckets, winner, *self.kernel_tables())
        return deals, buckets, winner


class HoldemGame(Game):
    """Abstract heads-up no-limit hold'em (see the module docstring).

    Examples
    --------
    >>> g = HoldemGame("tiny", HoldemRules(stack=400), HoldemCards(buckets=(2, 2, 2, 2),
    ...                recall=True, deals=200, deal_seed=3))
    >>> s = g.initial_state()
    >>> s.is_chance_node(), round(sum(p for _, p in s.chance_outcomes()), 12)
    (True, 1.0)
    """

    name = "holdem"

    def __init__(
        self,
        actions: ActionAbstraction | str | Mapping[str, Any] = "small",
        rules: HoldemRules | None = None,
        cards: HoldemCards | None = None,
    ) -> None:
        self.actions = load_actions(actions)
        self.rules = rules if rules is not None else HoldemRules()
        self._cards = cards

    @cached_property
    def cards(self) -> HoldemCards:
        return self._cards if self._cards is not None else HoldemCards()

    @cached_property
    def tree(self) -> BettingTree:
        return build_betting_tree(self.actions, self.rules)

    @property
    def num_players(self) -> int:
        return 2

    @property
    def num_distinct_actions(self) -> int:
        return self.tree.max_actions

    def action_name(self, action: int) -> str:
        return f"a{action}"

    @property
    def params(self) -> Mapping[str, Any]:
        return {
            "actions": self.actions.to_dict(),
            "rules": self.rules.to_dict(),
            "cards": self.cards.to_dict(),
        }

    @cached_property
    def tensor_layout(self) -> tuple[I64, I64, I64]:
        """``(slot, offset, slots)`` of the betting part of the information-state tensor.

        ``slot[n]`` is the place of the action leading to node ``n`` among its street's
        actions (-1 at the root), ``slots[s]`` the most actions any line takes on street
        ``s`` and ``offset[s]`` where street ``s``'s slots start in the tensor.
        """
        tree = self.tree
        slot = np.full(tree.num_nodes, -1, dtype=np.int64)
        parent = tree.parent
        street = tree.street
        slots = np.zeros(4, dtype=np.int64)
        # Breadth-first order puts every parent before its children.
        for n in range(1, tree.num_nodes):
            par = int(parent[n])
            same = par != 0 and int(street[int(parent[par])]) == int(street[par])
            slot[n] = slot[par] + 1 if same else 0
            s = int(street[par])
            slots[s] = max(slots[s], slot[n] + 1)
        base = 2 + int(sum(self.cards.buckets))
        widths = slots * self.num_distinct_actions
        offset = base + np.concatenate(([0], np.cumsum(widths)[:-1])).astype(np.int64)
        return slot, offset, slots

    @property
    def information_state_tensor_size(self) -> int:
        _, offset, slots = self.tensor_layout
        return int(offset[3] + slots[3] * self.num_distinct_actions)

    def initial_state(self) -> HoldemState:
        subset = np.arange(self.cards.deals) if self.cards.deals else None
        return HoldemState(self, node=0, dealt=0, subset=subset, buckets=((), ()), cards=())


class HoldemState(State):
    """A history of :class:`HoldemGame`: betting node, streets dealt, and the deal so far."""

    def __init__(
        self,
        game: HoldemGame,
        node: int,
        dealt: int,
        subset: I64 | None,
        buckets: tuple[tuple[int, ...], tuple[int, ...]],
        cards: tuple[int, ...],
    ) -> None:
        self.game = game
        self.node = node
        self.dealt = dealt  # streets whose cards (buckets) have been dealt
        self.subset = subset
        self.buckets = buckets
        self.cards = cards

    # -- where we are
    def _needs_deal(self) -> bool:
        tree = self.game.tree
        kind = int(tree.kind[self.node])
        if kind == SHOWDOWN:  # an all-in before the river: real cards run out to five
            return self.subset is None and len(self.cards) < 9
        return kind == DECISION and int(tree.street[self.node]) >= self.dealt

    def current_player(self) -> int:
        tree = self.game.tree
        if self._needs_deal():
            return CHANCE
        if tree.kind[self.node] != DECISION:
            return TERMINAL
        return int(tree.player[self.node])

    def legal_actions(self) -> list[int]:
        if self.is_chance_node():
            return [o for o, _ in self.chance_outcomes()]
        if self.is_terminal():
            return []
        return list(range(int(self.game.tree.num_children[self.node])))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            return []
        if self.subset is not None:
            _, pb, _ = self.game.cards.pool
            street = self.dealt
            width = int(self.game.cards.table_sizes[street])
            codes = pb[self.subset, 0, street] * width + pb[self.subset, 1, street]
            values, counts = np.unique(codes, return_counts=True)
            total = float(counts.sum())
            return [(int(v), float(c) / total) for v, c in zip(values, counts, strict=True)]
        used = set(self.cards)
        left = [c for c in range(52) if c not in used]
        return [(c, 1.0 / len(left)) for c in left]

    def information_set_key(self, player: int | None = None) -> str:
        p = self.current_player() if player is None else player
        street = int(self.game.tree.street[self.node])
        bucket = self.buckets[p][street] if len(self.buckets[p]) > street else -1
        return f"{p}|{bucket}|{self.game.tree.lines[self.node]}"

    def information_state_tensor(self, player: int | None = None) -> FloatVector:
        """``player``'s view as float32: position, buckets and the betting line.

        Layout: the position one-hot (2); for each street ``s`` a one-hot over its
        ``buckets[s]`` buckets (with perfect recall every street dealt so far, each by
        its own bucket; without, only the current street's, as in the key; zero for
        streets not dealt); then for each street its betting slots
        (:attr:`HoldemGame.tensor_layout`), one per action taken on that street in
        order, each a one-hot over ``num_distinct_actions`` child indices. Equal
        tensors mean equal :meth:`information_set_key`.
        """
        p = self.current_player() if player is None else player
        if p not in (0, 1):
            raise ConfigError(f"no information state for player {p!r} in {self!r}")
        game = self.game
        tree = game.tree
        slot, offset, _ = game.tensor_layout
        out = np.zeros(game.information_state_tensor_size, dtype=np.float32)
        out[p] = 1.0
        counts = game.cards.buckets
        starts = 2 + np.concatenate(([0], np.cumsum(counts)[:-1]))
        street = int(tree.street[self.node])
        seen = self.buckets[p]
        for s, code in enumerate(seen):
            if s > street or (not game.cards.recall and s != street):
                continue
            out[int(starts[s]) + int(code) % int(counts[s])] = 1.0
        width = game.num_distinct_actions
        node = self.node
        while node != 0:
            par = int(tree.parent[node])
            index = node - int(tree.first_child[par])
            out[int(offset[int(tree.street[par])]) + int(slot[node]) * width + index] = 1.0
            node = par
        return out

    def returns(self) -> list[float]:
        tree = self.game.tree
        kind = int(tree.kind[self.node])
        if kind == DECISION:
            return [0.0, 0.0]
        c = tree.committed[self.node]
        if kind == FOLD:
            folder = int(tree.player[self.node])
            won = float(c[folder])
            return [-won, won] if folder == 0 else [won, -won]
        # showdown: equal commitments
        amount = float(c[0])
        if self.subset is not None:
            _, _, winner = self.game.cards.pool
            w = winner[self.subset]
            ev0 = amount * (float(np.sum(w == 0)) - float(np.sum(w == 1))) / float(w.shape[0])
            return [ev0, -ev0]
        from checkraise.evaluator import evaluate

        hole0, hole1, board = self.cards[0:2], self.cards[2:4], self.cards[4:9]
        r0 = evaluate(list(hole0) + list(board))
        r1 = evaluate(list(hole1) + list(board))
        ev = amount if r0 > r1 else -amount if r1 > r0 else 0.0
        return [ev, -ev]

    def child(self, action: int) -> HoldemState:
        tree = self.game.tree
        if self.is_terminal():
            raise IllegalActionError(f"action {action!r}: the hand is over at {self!r}")
        if self.is_chance_node():
            return self._deal(action)
        n = int(tree.num_children[self.node])
        if not isinstance(action, (int, np.integer)) or not 0 <= action < n:
            raise IllegalActionError(
                f"action {action!r} is not legal in {self!r}; expected 0..{n - 1}"
            )
        return HoldemState(
            self.game,
            int(tree.first_child[self.node]) + int(action),
            self.dealt,
            self.subset,
            self.buckets,
            self.cards,
        )

    def _deal(self, outcome: int) -> HoldemState:
        legal = dict(self.chance_outcomes())
        if outcome not in legal:
            raise IllegalActionError(f"chance outcome {outcome!r} is not possible in {self!r}")
        if self.subset is not None:
            _, pb, _ = self.game.cards.pool
            street = self.dealt
            width = int(self.game.cards.table_sizes[street])
            b0, b1 = divmod(int(outcome), width)
            keep = self.subset[
                (pb[self.subset, 0, street] == b0) & (pb[self.subset, 1, street] == b1)
            ]
            buckets = (self.buckets[0] + (b0,), self.buckets[1] + (b1,))
            return HoldemState(self.game, self.node, self.dealt + 1, keep, buckets, self.cards)
        cards = (*self.cards, int(outcome))
        if self.game.tree.kind[self.node] == SHOWDOWN:
            return HoldemState(self.game, self.node, self.dealt, None, self.buckets, cards)
        need = 4 + BOARD_AT[self.dealt]
        if len(cards) < need:
            return HoldemState(self.game, self.node, self.dealt, None, self.buckets, cards)
        # the street's cards are all out: read both positions' buckets
        street = self.dealt
        seen0 = (*self.buckets[0], self._bucket(0, street, cards))
        seen1 = (*self.buckets[1], self._bucket(1, street, cards))
        return HoldemState(self.game, self.node, self.dealt + 1, None, (seen0, seen1), cards)

    def _bucket(self, p: int, street: int, cards: tuple[int, ...]) -> int:
        ab = self.game.cards
        hole = cards[2 * p : 2 * p + 2]
        board = cards[4 : 4 + BOARD_AT[street]]
        raw = ab.abstraction.bucket(street, hole, board)
        c = int(ab.coarse[street, raw])
        if ab.recall and street > 0:
            prev = self.buckets[p][street - 1]
            k = int(ab.table_sizes[street] // ab.table_sizes[street - 1])
            return prev * k + c
        return c

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def __repr__(self) -> str:
        return f"HoldemState(line={self.game.tree.lines[self.node]!r}, dealt={self.dealt})"

