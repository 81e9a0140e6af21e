"""Staged game-tree search of the expert bot (flop, turn, river), with a Zobrist-hashed table.

After the flop the expert bot builds an expectimax tree over a sample of the opponent's
possible hands, weighted by his range:

* **our nodes** expand only the actions the knowledge base suggests there
  (:func:`checkraise.agents.expert_rules.advise`) and take the one of highest expected
  value under the current belief (the weights of his hands that reach the node);
* **opponent nodes** expand his action classes (:mod:`checkraise.nn.action_classes`,
  one representative action each), each hand weighted by the opponent model's
  probability of that class (``OpponentModel.predict``); the belief is updated by Bayes
  on the way down;
* **chance nodes** deal the next board card, sampled (seeded by the node's key) when
  there are more than ``samples`` cards; a hand that holds the card skips it;
* **leaves**: a fold, a showdown on the river valued by the evaluator, or the
  horizon: past the last street searched the pot is split by each hand's equity over
  every runout (sampled on the flop), as if checked down.

The search deepens by one street at a time (the current street, then the next ...)
until the time budget runs out, and plays the choice of the deepest search it finished.
Every public state has a 64-bit Zobrist key (Zobrist 1970): random words for the board
cards (XORed, so the order the cards came in does not matter) and for each betting
action by its place in the hand, kept up to date by XOR on the way down. The
transposition table caches by key what does not depend on how a state was reached:
the knowledge base's suggestions and the opponent model's predictions at a betting
state (revisited by every deeper iteration), and the showdown and equity vectors of a
board (shared by every betting line and every order of the cards that reach it).
``hit rate = hits / lookups`` is reported for each decision.
"""

from __future__ import annotations

import dataclasses
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import numpy.typing as npt

from checkraise.agents.expert_kb import KnowledgeBase
from checkraise.agents.expert_rules import advise
from checkraise.engine import Action, ActionKind, State
from checkraise.errors import ConfigError
from checkraise.evaluator import evaluate_batch
from checkraise.nn.action_classes import CHECK_CALL, LARGE, MEDIUM, SMALL, representative

if TYPE_CHECKING:
    from checkraise.engine import Observation

__all__ = [
    "OpponentModel",
    "SearchResult",
    "StagedSearch",
    "TranspositionTable",
    "Zobrist",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
_MASK64 = (1 << 64) - 1
_RAISES = (SMALL, MEDIUM, LARGE)
#: Tags XORed into a state's key to keep the kinds of table entries apart.
_TAG_ADVICE, _TAG_MODEL, _TAG_EQUITY = 0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9
#: Most runouts an equity leaf enumerates (the flop has 1,081; above this they are sampled).
MAX_RUNOUTS = 300


class OpponentModel(Protocol):
    """Predicts the class of the next action of the seat to act, for hypothesised hands."""

    def predict(self, obs: Observation, holes: IntArray) -> FloatArray:
        """``(k, 6)`` probabilities of the six action classes for each of ``holes`` (k, 2)."""
        ...


def _splitmix64(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


class Zobrist:
    """Random 64-bit words for board cards and for betting actions by their place in the hand.

    Examples
    --------
    >>> z = Zobrist(seed=1)
    >>> z.board((3, 17, 40)) == z.board((40, 3, 17))
    True
    >>> z.action(0, 0, Action.raise_to(300)) != z.action(1, 0, Action.raise_to(300))
    True
    """

    def __init__(self, seed: int = 20) -> None:
        rng = np.random.default_rng(seed)
        self.cards = [int(k) for k in rng.integers(1, 2**63, 52, dtype=np.int64)]
        # One word per (place in the hand, seat, action kind); the amount is mixed in.
        self.places = [[[int(k) for k in rng.integers(1, 2**63, 3, dtype=np.int64)]
                        for _seat in range(2)] for _place in range(256)]

    def board(self, cards: tuple[int, ...] | list[int]) -> int:
        """The key of a set of board cards (order does not matter)."""
        key = 0
        for c in cards:
            key ^= self.cards[int(c)]
        return key

    def action(self, place: int, seat: int, action: Action) -> int:
        """The key of ``action`` by ``seat`` as the ``place``-th action of the hand."""
        kind = (ActionKind.FOLD, ActionKind.CHECK_CALL, ActionKind.RAISE).index(action.kind)
        word = self.places[place % 256][seat % 2][kind]
        return word ^ _splitmix64(action.amount) if action.kind is ActionKind.RAISE else word

    def state(self, board: tuple[int, ...], history: list[tuple[int, Action]]) -> int:
        """The key of a public state: its board and its ``(seat, action)`` history."""
        key = self.board(board)
        for place, (seat, action) in enumerate(history):
            key ^= self.action(place, seat, action)
        return key


@dataclass
class TranspositionTable:
    """A dict keyed by 64-bit Zobrist keys that counts its lookups and hits."""

    capacity: int = 200_000
    entries: dict[int, Any] = field(default_factory=dict)
    lookups: int = 0
    hits: int = 0

    def get(self, key: int, compute: Callable[[], Any]) -> Any:
        """The entry under ``key``, computed and stored on a miss."""
        self.lookups += 1
        found = self.entries.get(key)
        if found is not None:
            self.hits += 1
            return found
        value = compute()
        if len(self.entries) >= self.capacity:
            self.entries.clear()
        self.entries[key] = value
        return value

    @property
    def hit_rate(self) -> float:
        """hits / lookups (0 before any lookup)."""
        return self.hits / self.lookups if self.lookups else 0.0


@dataclass(frozen=True)
class SearchResult:
    """The outcome of one search: the action, the expected chips of each root action."""

    action: Action
    values: dict[str, float]
    depth: int
    """Streets searched beyond the current one by the deepest finished iteration."""
    nodes: int
    lookups: int
    hits: int
    seconds: float


class _Timeout(Exception):
    pass


class StagedSearch:
    """Iterative-deepening expectimax over the opponent's sampled hands (module docstring).

    Parameters
    ----------
    model : OpponentModel
        Gives the opponent's action-class probabilities at his nodes.
    kb : KnowledgeBase
        Gives our actions at our nodes.
    samples : int
        Board cards dealt at a chance node (all of them when fewer remain).
    max_raises : int
        Raises per street past which the tree expands no more raises but all-in.
    seed : int
        Seeds the chance samples (with each node's key).
    """

    def __init__(self, model: OpponentModel, kb: KnowledgeBase, *, samples: int = 6,
                 max_raises: int = 3, seed: int = 0) -> None:
        self.model = model
        self.kb = kb
        self.samples = samples
        self.max_raises = max_raises
        self.seed = seed
        self.zobrist = Zobrist(seed=20)
        self.table = TranspositionTable()

    def search(self, obs: Observation, holes: IntArray, weights: FloatArray, *,
               seconds: float, max_depth: int = 3) -> SearchResult:
        """Choose an action at ``obs`` (our turn, after the flop) against ``holes`` (k, 2).

        ``weights`` are the hands' probabilities (the belief at the root). At least the
        search of the current street finishes, whatever the budget.
        """
        start = time.perf_counter()
        self.table = TranspositionTable()
        self._nodes = 0
        self._me = obs.seat
        self._hole = tuple(int(c) for c in obs.hole_cards)
        self._obs = obs
        self._holes = np.asarray(holes, dtype=np.int64).reshape(-1, 2)
        self._has = np.zeros((len(self._holes), 52), dtype=bool)
        self._has[np.arange(len(self._holes)), self._holes[:, 0]] = True
        self._has[np.arange(len(self._holes)), self._holes[:, 1]] = True
        history = [(seat, action) for seat, _rnd, action in obs.history]
        state = self._replay(tuple(obs.board), history)
        key = self.zobrist.state(tuple(obs.board), history)
        w = np.asarray(weights, dtype=np.float64)
        street = min(obs.round, 3)
        best: tuple[Action, dict[str, float], int] | None = None
        for depth in range(0, max(0, min(max_depth, 3 - street)) + 1):
            self._deadline = start + seconds if depth > 0 else float("inf")
            try:
                self._root_values: dict[str, float] = {}
                self._root_actions: dict[str, Action] = {}
                self._value(state, tuple(obs.board), history, key, w, street + depth, True)
            except _Timeout:
                break
            values = dict(self._root_values)
            chosen = max(values, key=lambda name: values[name])
            best = (self._root_actions[chosen], values, depth)
        assert best is not None
        return SearchResult(best[0], best[1], best[2], self._nodes, self.table.lookups,
                            self.table.hits, time.perf_counter() - start)

    # ------------------------------------------------------------------ tree

    def _replay(self, board: tuple[int, ...], history: list[tuple[int, Action]]) -> State:
        state = State(self._obs.config, hole_cards=[None, None], board=board, seed=0)
        for _seat, action in history:
            state.step(action)
        return state

    def _value(self, state: State, board: tuple[int, ...], history: list[tuple[int, Action]],
               key: int, w: FloatArray, horizon: int, root: bool = False) -> FloatArray:
        self._nodes += 1
        if self._nodes & 63 == 0 and time.perf_counter() > self._deadline:
            raise _Timeout
        me = self._me
        stack, pot = state.stacks[me], state.pot
        if state.is_terminal:
            if state.folded[me]:
                return np.full(len(w), float(stack))
            if state.folded[1 - me]:
                return np.full(len(w), float(stack + pot))
            return stack + pot * self._equity(board)
        needed = sum(self._obs.config.board_cards[:state.round + 1])
        if len(board) < needed:
            if state.round > horizon:
                return stack + pot * self._equity(board)
            return self._chance(board, history, key, w, horizon)
        if state.current_player == me:
            return self._ours(state, board, history, key, w, horizon, root)
        return self._theirs(state, board, history, key, w, horizon)

    def _step(self, state: State, history: list[tuple[int, Action]], key: int, seat: int,
              action: Action) -> tuple[State, list[tuple[int, Action]], int]:
        child = state.copy()
        child.step(action)
        return child, [*history, (seat, action)], key ^ self.zobrist.action(len(history), seat,
                                                                               action)

    def _ours(self, state: State, board: tuple[int, ...], history: list[tuple[int, Action]],
              key: int, w: FloatArray, horizon: int, root: bool) -> FloatArray:
        me = self._me
        obs = dataclasses.replace(state.observation(me), hole_cards=self._hole)
        actions: tuple[Action, ...] = self.table.get(key ^ _TAG_ADVICE,
                                                     lambda: advise(obs, self.kb).actions)
        if state.num_raises >= self.max_raises and obs.legal is not None:
            top = obs.legal.max_raise_to
            actions = tuple(a for a in actions
                            if a.kind is not ActionKind.RAISE or a.amount == top) or actions
        total = max(float(w.sum()), 1e-300)
        best_value: FloatArray | None = None
        best_ev = -np.inf
        for action in actions:
            child, h, k = self._step(state, history, key, me, action)
            v = self._value(child, board, h, k, w, horizon)
            ev = float(w @ v) / total
            if root:
                self._root_values[str(action)] = ev
                self._root_actions[str(action)] = action
            if ev > best_ev:
                best_ev, best_value = ev, v
        assert best_value is not None
        return best_value

    def _theirs(self, state: State, board: tuple[int, ...], history: list[tuple[int, Action]],
                key: int, w: FloatArray, horizon: int) -> FloatArray:
        opp = 1 - self._me
        obs = state.observation(opp)
        probs: FloatArray = self.table.get(key ^ _TAG_MODEL,
                                           lambda: self._predict(obs))
        total = float(w.sum())
        value = np.zeros(len(w))
        mass = np.zeros(len(w))
        fallback: FloatArray | None = None
        for k in range(probs.shape[1]):
            action = representative(obs, k)
            if action is None:
                continue
            if k in _RAISES and state.num_raises >= self.max_raises:
                continue
            pk = probs[:, k]
            reach = w * pk
            if k != CHECK_CALL and float(reach.sum()) <= 1e-3 * total:
                continue
            child, h, ck = self._step(state, history, key, opp, action)
            v = self._value(child, board, h, ck, reach, horizon)
            value += pk * v
            mass += pk
            if k == CHECK_CALL:
                fallback = v
        assert fallback is not None
        return np.where(mass > 0, value / np.maximum(mass, 1e-300), fallback)

    def _predict(self, obs: Observation) -> FloatArray:
        # Hands that hold a card dealt at a chance node are out of play there (weight 0);
        # the model is asked only about the others, which a real deal could give him.
        live = ~self._has[:, list(obs.board)].any(axis=1)
        probs = np.zeros((len(self._holes), 6))
        probs[:, CHECK_CALL] = 1.0
        if live.any():
            asked = np.asarray(self.model.predict(obs, self._holes[live]), dtype=np.float64)
            if asked.shape != (int(live.sum()), 6):
                raise ConfigError(f"opponent model gave shape {asked.shape}; expected "
                                  f"({int(live.sum())}, 6)")
            probs[live] = asked
        return probs

    def _chance(self, board: tuple[int, ...], history: list[tuple[int, Action]], key: int,
                w: FloatArray, horizon: int) -> FloatArray:
        dead = set(board) | set(self._hole)
        deck = [c for c in range(52) if c not in dead]
        if len(deck) > self.samples:
            rng = np.random.default_rng([self.seed, key & 0xFFFFFFFF, key >> 32])
            deck = sorted(int(c) for c in rng.choice(deck, self.samples, replace=False))
        acc = np.zeros(len(w))
        count = np.zeros(len(w))
        for card in deck:
            ok = ~self._has[:, card]
            new_board = (*board, card)
            state = self._replay(new_board, history)
            v = self._value(state, new_board, history, key ^ self.zobrist.cards[card],
                            w * ok, horizon)
            acc += np.where(ok, v, 0.0)
            count += ok
        me = self._me
        state = self._replay(board, history)
        # A hand that holds every sampled card (possible with few samples) splits the pot.
        return np.where(count > 0, acc / np.maximum(count, 1),
                        state.stacks[me] + 0.5 * state.pot)

    # ------------------------------------------------------------------ leaves

    def _equity(self, board: tuple[int, ...]) -> FloatArray:
        """Each hand's share of the pot for us over the runouts of ``board`` (cached)."""
        key = self.zobrist.board(board) ^ _TAG_EQUITY
        result: FloatArray = self.table.get(key, lambda: self._compute_equity(board))
        return result

    def _compute_equity(self, board: tuple[int, ...]) -> FloatArray:
        missing = 5 - len(board)
        dead = set(board) | set(self._hole)
        deck = [c for c in range(52) if c not in dead]
        runouts = np.array(list(itertools.combinations(deck, missing)), dtype=np.int64)
        runouts = runouts.reshape(-1, missing) if missing else np.zeros((1, 0), np.int64)
        if len(runouts) > MAX_RUNOUTS:
            rng = np.random.default_rng([self.seed, self.zobrist.board(board) & 0xFFFFFFFF])
            runouts = runouts[rng.choice(len(runouts), MAX_RUNOUTS, replace=False)]
        r = len(runouts)
        fixed = np.array(board, dtype=np.int64)
        boards = np.concatenate([np.broadcast_to(fixed, (r, len(board))), runouts], axis=1)
        ours = evaluate_batch(np.concatenate(
            [np.broadcast_to(np.array(self._hole), (r, 2)), boards], axis=1).astype(np.uint8))
        n = len(self._holes)
        theirs_cards = np.concatenate([np.repeat(self._holes, r, axis=0),
                                       np.tile(boards, (n, 1))], axis=1)
        # A hand that holds a board card (dealt at a chance node it skipped) clashes too.
        on_board = np.asarray(self._has[:, list(board)].any(axis=1), dtype=bool)
        clash = np.repeat(on_board[:, None], r, axis=1)
        for j in range(missing):
            clash |= self._has[:, runouts[:, j]]
        # Clashing rows are ranked with stand-in cards and then ignored.
        safe = theirs_cards.copy()
        flat_clash = clash.reshape(-1)
        safe[flat_clash] = np.concatenate([np.broadcast_to(np.array(self._hole), (1, 2)),
                                           boards[:1]], axis=1)
        theirs = evaluate_batch(safe.astype(np.uint8)).reshape(n, r)
        share = np.where(ours > theirs, 1.0, np.where(ours == theirs, 0.5, 0.0))
        valid = ~clash
        counted = valid.sum(axis=1)
        eq: FloatArray = np.where(counted > 0,
                                  (share * valid).sum(axis=1) / np.maximum(counted, 1), 0.5)
        return eq
