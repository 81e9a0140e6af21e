"""The expert bot: a knowledge base, an opponent model and a staged game-tree search.

After the heads-up no-limit system of the Northeastern University team (third in the
2018 Chinese university computer-games championship): an expert knowledge base proposes
our actions (:mod:`checkraise.agents.expert_kb`, :mod:`checkraise.agents.expert_rules`),
an opponent model predicts the opponent's, and a game tree built in stages decides:

* **preflop** the knowledge base's table decides, no tree;
* **flop, turn, river** :class:`~checkraise.agents.expert_search.StagedSearch` searches
  over ``hands`` hands drawn (seeded) from the opponent's range, our nodes limited to
  the knowledge base's suggestions, his nodes weighted by the opponent model, for at
  most ``seconds`` per decision.

His range is tracked by Bayes through the hand (:func:`~checkraise.agents.range_tracking.
track_ranges`) with the same opponent model as the likelihood (``track=kb``: with the
knowledge base's whatever the search uses; ``track=staged``: the knowledge base's for
his preflop actions, the opponent model's for later ones): each of his actions
multiplies each hand's weight by the model's probability of that action's class.

The opponent model is ``cnn=true`` the CNN of :mod:`checkraise.nn.opponent_cnn` (loaded
lazily; it needs torch) or ``cnn=false`` :class:`KnowledgeOpponentModel`, the tiers of
``postflop.toml`` and, before the flop, our own preflop table read as his.

Examples
--------
>>> from checkraise.engine import State, TableConfig
>>> s = State(TableConfig.nolimit(2), seed=3)
>>> bot = ExpertAgent(seed=1)
>>> bot.act(s.observation(s.current_player)).kind.value in ("fold", "call", "raise")
True
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from checkraise.agents.base import AgentSpecError, BaseAgent
from checkraise.agents.expert_kb import KnowledgeBase, load_knowledge_base
from checkraise.agents.expert_rules import (
    advise,
    board_strengths,
    facing_class,
    preflop_action,
    preflop_spot,
)
from checkraise.agents.expert_search import OpponentModel, StagedSearch
from checkraise.agents.range_tracking import board_live, track_ranges
from checkraise.cards import COMBO_CARDS, COMBO_CLASS, COMBO_MASKS, NUM_COMBOS
from checkraise.engine import Action
from checkraise.errors import ConfigError
from checkraise.nn.action_classes import ACTION_CLASSES, action_class, representative
from checkraise.opponents.categories import FLUSH_DRAW, STRAIGHT_DRAW, category_table

if TYPE_CHECKING:
    from checkraise.engine import Observation, TableConfig

__all__ = ["ALL_HOLES", "ExpertAgent", "KnowledgeOpponentModel", "MixedOpponentModel",
           "OpponentModel", "StagedOpponentModel", "combo_indices"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
ALL_HOLES: IntArray = COMBO_CARDS.astype(np.int64)
_PAIR_INDEX = np.full((52, 52), -1, dtype=np.int64)
_PAIR_INDEX[ALL_HOLES[:, 0], ALL_HOLES[:, 1]] = np.arange(NUM_COMBOS)
_PAIR_INDEX[ALL_HOLES[:, 1], ALL_HOLES[:, 0]] = np.arange(NUM_COMBOS)


def combo_indices(holes: IntArray) -> IntArray:
    """The combo index (0..1325) of each row of ``holes`` (k, 2)."""
    h = np.asarray(holes, dtype=np.int64).reshape(-1, 2)
    out: IntArray = _PAIR_INDEX[h[:, 0], h[:, 1]]
    return out


def _legal_classes(obs: Observation) -> npt.NDArray[np.bool_]:
    return np.array([representative(obs, k) is not None for k in range(len(ACTION_CLASSES))])


class KnowledgeOpponentModel:
    """The opponent model of ``cnn=false``: the knowledge base read as the opponent's play.

    Before the flop each hand puts ``preflop_trust`` on the class of the action our
    preflop table gives it in his spot and spreads the rest over the other legal
    classes; after it, the row of the first ``[[opponent.tier]]`` of postflop.toml that
    his hand fits (by its strength on the board and whether it is a draw), by the bet he
    faces. Classes with no legal representative get 0; rows sum to 1.
    """

    def __init__(self, kb: KnowledgeBase | None = None) -> None:
        self.kb = load_knowledge_base() if kb is None else kb

    def predict(self, obs: Observation, holes: IntArray) -> FloatArray:
        """``(k, 6)`` class probabilities of the seat to act in ``obs`` for each hand."""
        legal = _legal_classes(obs)
        idx = combo_indices(holes)
        rows = self._preflop(obs, idx, legal) if obs.round == 0 else self._postflop(obs, idx)
        rows = rows * legal
        sums = rows.sum(axis=1, keepdims=True)
        uniform = legal / legal.sum()
        out: FloatArray = np.where(sums > 0, rows / np.maximum(sums, 1e-300), uniform)
        return out

    def _preflop(self, obs: Observation, idx: IntArray,
                 legal: npt.NDArray[np.bool_]) -> FloatArray:
        kb = self.kb
        spot = preflop_spot(obs, kb)
        choices = kb.preflop.spots[spot]
        trust = kb.preflop_trust
        cls_of: dict[tuple[str, float], int] = {}
        per_class = np.empty(len(choices), dtype=np.int64)
        for i, choice in enumerate(choices):
            name = (choice.action, choice.size)
            if name not in cls_of:
                cls_of[name] = action_class(obs, preflop_action(obs, kb, choice))
            per_class[i] = cls_of[name]
        others = max(int(legal.sum()) - 1, 1)
        rows = np.tile(np.where(legal, (1.0 - trust) / others, 0.0), (len(idx), 1))
        rows[np.arange(len(idx)), per_class[COMBO_CLASS[idx]]] = trust
        return rows

    def _postflop(self, obs: Observation, idx: IntArray) -> FloatArray:
        hs = board_strengths(obs.board)[idx]
        codes = category_table(obs.board)[idx]
        draw = (codes == FLUSH_DRAW) | (codes == STRAIGHT_DRAW)
        facing = facing_class(obs)
        which = "unbet" if facing == "none" else (
            "facing_large" if facing in ("raise-large", "all-in") else "facing")
        rows = np.zeros((len(idx), len(ACTION_CLASSES)))
        done = np.zeros(len(idx), dtype=bool)
        for tier in self.kb.tiers:
            fits = ~done & (hs >= tier.min_hs)
            if tier.draw is not None:
                fits &= draw == tier.draw
            rows[fits] = getattr(tier, which)
            done |= fits
        return rows


class StagedOpponentModel:
    """One model for his preflop actions, another after the flop (``track=staged``).

    Before the flop he plays a table (ours is the knowledge base's), which the CNN
    learns only approximately; after it his search is what a learned model must guess.
    """

    def __init__(self, preflop: OpponentModel, postflop: OpponentModel) -> None:
        self.preflop = preflop
        self.postflop = postflop

    def predict(self, obs: Observation, holes: IntArray) -> FloatArray:
        """``(k, 6)`` class probabilities of the seat to act in ``obs`` for each hand."""
        return (self.preflop if obs.round == 0 else self.postflop).predict(obs, holes)


class MixedOpponentModel:
    """``weight`` of one model's probabilities plus ``1 - weight`` of another's (``mix=``).

    A learned model is least reliable exactly where the search exploits it most: a hand
    it wrongly thinks folds becomes a bluff target. Averaging it with the knowledge
    base's model (:class:`KnowledgeOpponentModel`) keeps what it learned and pulls its
    mistakes towards a sane prior.
    """

    def __init__(self, model: OpponentModel, prior: OpponentModel, weight: float) -> None:
        if not 0.0 <= weight <= 1.0:
            raise ConfigError(f"mixture weight {weight!r}; expected a number in [0, 1]")
        self.model = model
        self.prior = prior
        self.weight = float(weight)

    def predict(self, obs: Observation, holes: IntArray) -> FloatArray:
        """``(k, 6)`` class probabilities of the seat to act in ``obs`` for each hand."""
        w = self.weight
        out: FloatArray = (w * np.asarray(self.model.predict(obs, holes), dtype=np.float64)
                           + (1.0 - w) * self.prior.predict(obs, holes))
        return out


def _cnn_model(path: str | None = None) -> OpponentModel:
    """The CNN opponent model in ``path``, or the one shipped as package data (imports
    torch)."""
    try:
        from checkraise.nn.opponent_cnn import CnnOpponentModel
    except ImportError as exc:
        raise ConfigError(f"expert:cnn=true needs checkraise.nn.opponent_cnn and torch ({exc}); "
                          "expected them installed, or use cnn=false") from exc
    model: OpponentModel = CnnOpponentModel.load(path)
    return model


class ExpertAgent(BaseAgent):
    """The expert bot (module docstring). Heads-up no-limit, any stacks and blinds.

    Parameters
    ----------
    seed : int or None
        Seeds the hands drawn from his range and the chance samples.
    cnn : bool
        The opponent model: the CNN (true, the default; needs the extra ``nn``) or the
        knowledge base (false).
    model : str
        With ``cnn=true``: the CNN's file (``default``: the shipped one, learned from six
        other bots; ``expert``: the shipped one learned from ``expert:cnn=false``'s
        hands), e.g. one trained on an opponent's hand histories by ``checkraise nn
        opponent train``.
    track : str
        The model his range is tracked with: ``model`` (default: the opponent model
        above), ``kb`` (the knowledge base's, whatever weights his search nodes) or
        ``staged`` (his preflop actions by the knowledge base, later ones by the
        opponent model; :class:`StagedOpponentModel`).
    seconds : float
        Time budget of a postflop decision (the current street is always searched).
    hands : int
        Hands drawn from his range for the tree.
    samples : int
        Board cards dealt at each chance node of the tree.
    mix : float
        With ``cnn=true``: the CNN's weight at his nodes in the tree, the knowledge
        base's model having the rest (default 1: the CNN alone;
        :class:`MixedOpponentModel`); ``track=model`` and ``staged`` read his range
        with the mixture too.
    """

    def __init__(self, *, seed: int | None = None, cnn: bool = True, seconds: float = 0.2,
                 hands: int = 40, samples: int = 6, model: str = "default",
                 track: str = "model", mix: float = 1.0) -> None:
        super().__init__(seed=seed)
        if not isinstance(cnn, bool):
            raise AgentSpecError(f"expert option cnn={cnn!r}; expected true or false")
        if isinstance(seconds, bool) or not isinstance(seconds, int | float) \
                or not 0 < seconds <= 60:
            raise AgentSpecError(f"expert option seconds={seconds!r}; expected a number of "
                                 "seconds in (0, 60]")
        for name, value, top in (("hands", hands, 1326), ("samples", samples, 48)):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= top:
                raise AgentSpecError(f"expert option {name}={value!r}; expected an int "
                                     f"in 1..{top}")
        if track not in ("model", "kb", "staged"):
            raise AgentSpecError(f"expert option track={track!r}; expected model, kb or "
                                 "staged")
        if isinstance(mix, bool) or not isinstance(mix, int | float) or not 0 <= mix <= 1:
            raise AgentSpecError(f"expert option mix={mix!r}; expected the CNN's weight, "
                                 "a number in [0, 1]")
        if mix != 1 and not cnn:
            raise AgentSpecError(f"expert option mix={mix!r} with cnn=false; the weight is "
                                 "the CNN's (cnn=true)")
        if model != "default" and not cnn:
            raise AgentSpecError(f"expert option model={model!r} with cnn=false; a model "
                                 "file is the CNN's (cnn=true)")
        self.cnn = cnn
        self.seconds = float(seconds)
        self.hands = hands
        self.kb = load_knowledge_base()
        if not cnn:
            self.model: OpponentModel = KnowledgeOpponentModel(self.kb)
        else:
            self.model = _cnn_model() if model == "default" else _cnn_model(model)
        tree: OpponentModel = self.model
        if cnn and mix < 1:
            tree = MixedOpponentModel(self.model, KnowledgeOpponentModel(self.kb), mix)
        self.tracker: OpponentModel = tree
        if track == "kb" and cnn:
            self.tracker = KnowledgeOpponentModel(self.kb)
        elif track == "staged" and cnn:
            self.tracker = StagedOpponentModel(KnowledgeOpponentModel(self.kb), tree)
        self.search = StagedSearch(tree, self.kb, samples=samples,
                                   seed=int(self.rng.integers(2**31)))
        self.decisions: list[dict[str, Any]] = []
        """One record per decision: street, seconds, depth, nodes, table lookups and hits."""

    @property
    def stats(self) -> dict[str, Any]:
        """Decisions so far: count, seconds per street (median, max), table hit rate."""
        out: dict[str, Any] = {"decisions": len(self.decisions)}
        lookups = sum(d["lookups"] for d in self.decisions)
        hits = sum(d["hits"] for d in self.decisions)
        out["tt_hit_rate"] = hits / lookups if lookups else 0.0
        for street in ("preflop", "flop", "turn", "river"):
            times = [d["seconds"] for d in self.decisions if d["street"] == street]
            if times:
                out[street] = {"n": len(times), "median": float(np.median(times)),
                               "max": float(max(times))}
        return out

    def begin_hand(self, seat: int, config: TableConfig, hole_cards: tuple[int, ...],
                   hand_number: int) -> None:
        """Check the table: heads-up only."""
        if config.num_players != 2:
            raise ConfigError(f"the expert bot plays heads-up; this table has "
                              f"{config.num_players} seats")

    def end_hand(self, observation: Observation, payoffs: tuple[int | Fraction, ...]) -> None:
        """Nothing to learn between hands."""

    def opponent_range(self, obs: Observation) -> FloatArray:
        """His weights over the 1,326 combos at ``obs``, by Bayes with the opponent model."""
        me = obs.seat
        mine = np.uint64((1 << int(obs.hole_cards[0])) | (1 << int(obs.hole_cards[1])))

        def likelihood(o: Observation, _index: int, action: Action) -> FloatArray:
            if o.seat == me:
                return np.ones(NUM_COMBOS)
            # Only hands the board leaves possible are asked about (and ours are not).
            live = board_live(o.board) & ((COMBO_MASKS & mine) == 0)
            column = np.zeros(NUM_COMBOS)
            column[live] = self.tracker.predict(o, ALL_HOLES[live])[:, action_class(o, action)]
            return column

        weights = track_ranges(obs, likelihood)[1 - me]
        out: FloatArray = np.where((COMBO_MASKS & mine) == 0, weights, 0.0)
        return out

    def act(self, observation: Observation) -> Action:
        """Preflop by the table; after the flop by the staged search."""
        start = time.perf_counter()
        obs = observation
        if obs.round == 0:
            action = advise(obs, self.kb).actions[0]
            self.decisions.append({"street": "preflop", "seconds": time.perf_counter() - start,
                                   "depth": 0, "nodes": 0, "lookups": 0, "hits": 0})
            return action
        weights = self.opponent_range(obs)
        if weights.sum() <= 0:
            weights = np.where((COMBO_MASKS & np.uint64(sum(1 << int(c) for c in (
                *obs.hole_cards, *obs.board)))) == 0, 1.0, 0.0)
        draws = self.rng.choice(NUM_COMBOS, size=self.hands, p=weights / weights.sum())
        combos, counts = np.unique(draws, return_counts=True)
        result = self.search.search(obs, ALL_HOLES[combos], counts.astype(np.float64),
                                    seconds=self.seconds)
        self.decisions.append({
            "street": ("preflop", "flop", "turn", "river")[min(obs.round, 3)],
            "seconds": time.perf_counter() - start, "depth": result.depth,
            "nodes": result.nodes, "lookups": result.lookups, "hits": result.hits,
        })
        return result.action
