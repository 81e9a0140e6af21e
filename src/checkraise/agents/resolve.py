"""The ``resolve`` bot: the blueprint, with the river (and the turn) re-solved during play.

Preflop and flop it plays its blueprint (:class:`~checkraise.agents.blueprint.
BlueprintAgent`), and the turn too unless ``mode=depth``. On the river it re-solves:
both players' ranges at the start of the river are tracked by Bayes from the
blueprint's probability of every action for every hand
(:mod:`checkraise.agents.range_tracking`; an opponent's off-tree size is read by the
blueprint's action translation there), and the river is solved on exact cards by
the spot solver with finer sizes than the blueprint's plus every size already used on
this river (:mod:`checkraise.agents.subgame`). Each of the bot's decisions re-solves
only when the street's line has left the last subgame's tree.

``mode=depth`` re-solves the turn too, depth-limited (Moravcik et al. 2017; Brown,
Sandholm & Amos 2018): the subgame ends with the turn's betting, and what follows is
valued by ``leaf``:

``network``
    the river value network (:class:`~checkraise.nn.river_values.RiverLeafValues`,
    option ``values``), DeepStack's way;
``safe``
    the ``k = 4`` continuation strategies (:mod:`checkraise.agents.continuations`):
    at every end of the turn the opponent picks, hand by hand, the one best for him
    (a choice node in the subgame), we play the blueprint;
``model``
    the same four, mixed by a posterior over which one the opponent plays, updated by
    Bayes from his actions across hands (the survey's exploitative version).

On the river both ranges are then tracked through the turn by the turn subgame's own
strategies (ours as we played them, his as the subgame assumed), and the river is
re-solved unsafe.

With ``flop=network`` (and ``mode=depth``) the flop is re-solved depth-limited too,
its leaves valued by the turn value network (option ``turn_values``) on every turn
card, DeepStack's continual re-solving from the flop on; the turn's ranges then come
through the flop by the flop subgame's strategies.

Options: ``mode`` (``unsafe``, ``safe`` or ``depth``; see :mod:`checkraise.agents.subgame`),
``leaf`` (with ``depth``: ``network``, ``safe`` or ``model``), ``values`` (with
``leaf=network``: the river network, ``default`` or a path), ``flop`` (with ``depth``:
``blueprint``, the default, or ``network``), ``turn_values`` (the turn network of
``flop=network``: ``turn``, the packaged one, or a path),
``file`` (the blueprint), ``seconds`` (time budget per re-solve, default 5),
``accuracy`` (stop at this exploitability, % of the pot; default 0.5), ``iterations``
(at most this many per re-solve; default 2,000).

The bot keeps, per decision, the seconds it spent (:attr:`ResolveAgent.decisions`) for
``benchmarks/bench_resolve.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from checkraise.agents.base import BaseAgent
from checkraise.agents.blueprint import BlueprintAgent
from checkraise.agents.range_tracking import track_ranges
from checkraise.agents.subgame import (
    BOUNDS,
    GADGETS,
    Subgame,
    _label_action,
    _labels_and_sizes,
    street_start,
)
from checkraise.cards import combo_index
from checkraise.errors import ConfigError, one_of
from checkraise.games.holdem import STREET_NAMES

if TYPE_CHECKING:
    from checkraise.agents.probabilities import HandActionProbabilities
    from checkraise.engine import Action, Observation, TableConfig

__all__ = ["AGENT_MODES", "ResolveAgent"]

#: ``unsafe`` and ``safe`` re-solve the river; ``depth`` the turn (depth-limited) and the river.
AGENT_MODES = ("unsafe", "safe", "depth")
#: How ``mode=depth`` values the end of the turn.
LEAVES = ("network", "safe", "model")
#: Who plays the flop with ``mode=depth``: the blueprint, or a depth-limited re-solve
#: with the turn network at its leaves.
FLOP = ("blueprint", "network")

_RESOLVE_DRAW = 0x7273  # the tag of a re-solved decision's draw (``draws=hand``)

#: The kinds of re-solve (street, mode, leaves) this process has run once
#: untimed: the first use of a numba kernel in a process compiles it or loads it from the
#: disk cache, up to a minute with a cold cache, and inside a timed re-solve that time
#: would count against its budget (a turn re-solve with ``iterations=100,seconds=60``
#: stopped after 10 iterations on a fresh copy of the code).
_COMPILED: set[tuple[int, str, str]] = set()


class ResolveAgent(BaseAgent):
    """Blueprint play with river re-solving (see the module docstring).

    Parameters
    ----------
    mode : str
        ``safe`` (default), ``unsafe`` or ``depth`` (see the module docstring).
    leaf : str
        With ``depth``: ``network`` (default), ``safe`` or ``model`` (see the module
        docstring).
    values : str
        With ``leaf=network``: the river value network of the turn's leaves
        (``default``, the packaged one, or a path).
    flop : str
        With ``depth``: ``blueprint`` (default; the blueprint plays the flop) or
        ``network`` (the flop re-solved depth-limited, the turn network at its leaves).
    turn_values : str
        With ``flop=network``: the turn value network (``turn``, the packaged one, or a
        path).
    bound : str
        With ``safe``, the opponent's alternative value per hand: ``cbv`` (his
        best-response value against the blueprint: sound) or ``blueprint`` (his value
        when both play the blueprint, Brown & Sandholm's "Estimate").
    gadget : str
        With ``safe``: ``resolve`` (Burch et al.'s CFR-D gadget, the default) or
        ``maxmargin`` (the smallest margin over the opponent's hands made as large as
        it can be; it runs ``iterations`` or ``seconds``, as its exploitability in the
        subgame is not its target).
    warm : int
        With ``safe``: this many iterations without the gadget first (their regrets
        kept, their average dropped), then as many with it before the accuracy is
        checked, so that CFR settles near the unsafe solution among the strategies the
        gadget allows (0: start cold).
    file : str
        The blueprint: ``small`` (shipped; the default, which every figure of this bot
        was measured with), ``minraise2`` (shipped) or a path.
    seconds : float
        Time budget per re-solve.
    accuracy : float
        Target exploitability of a re-solve, % of the pot (measured every 10
        iterations).
    iterations : int
        At most this many iterations per re-solve, counted from the first: with
        ``safe`` the ``2 * warm`` warm iterations always run and count, so at
        ``iterations <= 2 * warm`` a re-solve is exactly those. A match is
        reproducible when every re-solve stops on ``accuracy`` or ``iterations``
        before ``seconds`` runs out.
    draws : str
        ``stream`` (the default) or ``hand``, as for the blueprint bot: with ``hand``
        every draw, the blueprint's before the re-solved streets and the subgame's on
        them, depends only on the seed, the hand number and the decision, so against
        ``blueprint:draws=hand`` (same file, same seed: the same role in a duplicate
        match) the bot plays exactly as its blueprint until it re-solves, and a
        duplicate match between the two measures only what re-solving changes.
    seed : int or None
        Seeds the action draws (and the blueprint's).
    """

    def __init__(self, *, mode: str = "safe", bound: str = "cbv", gadget: str = "resolve",
                 warm: int = 200, file: str = "small", leaf: str = "network",
                 values: str = "default", flop: str = "blueprint", turn_values: str = "turn",
                 seconds: float = 5.0,
                 accuracy: float = 0.5, iterations: int = 2000, draws: str = "stream",
                 seed: int | None = None) -> None:
        super().__init__(seed=seed)
        if mode not in AGENT_MODES:
            raise ConfigError(f"mode={mode!r}; expected one of {one_of(AGENT_MODES)}")
        if not seconds > 0:
            raise ConfigError(f"seconds={seconds!r}; expected a time budget > 0")
        if not accuracy > 0:
            raise ConfigError(f"accuracy={accuracy!r}; expected a % of the pot > 0")
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 10:
            raise ConfigError(f"iterations={iterations!r}; expected a whole number >= 10")
        self.iterations = iterations
        if bound not in BOUNDS:
            raise ConfigError(f"bound={bound!r}; expected one of {one_of(BOUNDS)}")
        if gadget not in GADGETS:
            raise ConfigError(f"gadget={gadget!r}; expected one of {one_of(GADGETS)}")
        if isinstance(warm, bool) or not isinstance(warm, int) or warm < 0:
            raise ConfigError(f"warm={warm!r}; expected a whole number of iterations >= 0")
        self.warm = warm
        self.mode = mode
        self.bound = bound
        self.gadget = gadget
        self.seconds = float(seconds)
        self.accuracy = float(accuracy)
        self.player = BlueprintAgent(file=file, draws=draws, seed=seed)
        self.draws = draws
        # Readers: the blueprint of each seat, never acting, for range tracking and the
        # safe gadget's values (their translation draws are their own, seeded apart).
        reader_seed = None if seed is None else seed + 1
        self.readers = (BlueprintAgent(file=file, seed=reader_seed),
                        BlueprintAgent(file=file, seed=reader_seed))
        self.decisions: list[dict[str, Any]] = []
        self._seat = 0
        self._combo = 0
        self._subgame: Subgame | None = None
        # the last subgame of each street this hand (mode depth: flop, turn)
        self._solved: dict[int, Subgame] = {}
        if leaf not in LEAVES:
            raise ConfigError(f"leaf={leaf!r}; expected one of {one_of(LEAVES)}")
        if flop not in FLOP:
            raise ConfigError(f"flop={flop!r}; expected one of {one_of(FLOP)}")
        if flop == "network" and mode != "depth":
            raise ConfigError(f"flop=network with mode={mode!r}; it needs mode=depth")
        self.leaf = leaf
        self.flop = flop
        self.network: Any = None
        self.turn_network: Any = None
        if mode == "depth" and leaf == "network":
            from checkraise.nn.river_values import RiverValueFunction

            self.network = RiverValueFunction(values)
        if flop == "network":
            from checkraise.nn.river_values import RiverValueFunction

            self.turn_network = RiverValueFunction(turn_values)
            if self.turn_network.street != "turn":
                raise ConfigError(f"turn_values={turn_values!r} is a {self.turn_network.street} "
                                  "network; expected a turn value network")
        self.posterior: Any = None
        self._matrices: dict[tuple[int, int], Any] = {}  # continuation values, kept
        if mode == "depth" and leaf == "model":
            from checkraise.agents.continuations import ContinuationPosterior

            self.posterior = ContinuationPosterior()

    def begin_hand(self, seat: int, config: TableConfig, hole_cards: tuple[int, ...],
                   hand_number: int) -> None:
        self.player.begin_hand(seat, config, hole_cards, hand_number)
        for s, reader in enumerate(self.readers):
            reader.begin_hand(s, config, hole_cards, hand_number)
        self._seat = seat
        self._combo = combo_index(*hole_cards)
        self._subgame = None
        self._solved = {}

    def ranges(self, observation: Observation) -> tuple[Any, Any]:
        """Both seats' ranges at the start of the current street."""
        start = len(observation.history) - len(street_start(observation).actions)

        def likelihood(obs: Observation, index: int, action: Action) -> Any:
            return self.readers[obs.seat].read_probabilities(obs, action)

        last = self._solved.get(observation.round - 1)
        labels, *_ = (_labels_and_sizes(street_start(observation, observation.round - 1))
                      if last else ([],))
        if last is not None and last.fits(labels):
            # Through the last street by its subgame's strategies, as both were played.
            w0, w1 = last.ranges_after(labels)
        else:
            w0, w1 = track_ranges(observation, likelihood, upto=start)
        mine = (w0, w1)[self._seat]
        if mine[self._combo] <= 0.0:
            # the blueprint gives our own line no weight with our hand (a translation
            # draw went the other way): keep the hand in play with a trace of weight
            mine[self._combo] = 1e-6 * max(float(mine.max()), 1e-12)
        return w0, w1

    def _resolves(self, observation: Observation) -> bool:
        """Whether this street is re-solved (else the blueprint plays it)."""
        depth = self.mode == "depth"
        return observation.round == 3 or (observation.round == 2 and depth) or (
            observation.round == 1 and self.flop == "network")

    def subgame(self, observation: Observation) -> Subgame:
        """The subgame this bot plays the current street of ``observation`` by (solved
        now unless the last one still holds the street's line)."""
        if not self._resolves(observation):
            street = STREET_NAMES[observation.round]
            raise ConfigError(f"mode={self.mode!r} plays the {street} by its blueprint; "
                              "there is no subgame to solve")
        return self._street(observation)[0]

    def _street(self, observation: Observation) -> tuple[Subgame, list[str], bool]:
        """The subgame of this street (re-solved when the line has left the last one's
        tree), the street's labels so far, and whether it was solved now."""
        labels, *_ = _labels_and_sizes(street_start(observation))
        sub = self._subgame
        if sub is not None and sub.start.board == observation.board and sub.fits(labels):
            return sub, labels, False
        street = observation.round
        mode = "unsafe" if self.mode == "depth" else self.mode

        def solve(warm: int, seconds: float, iterations: int) -> Subgame:
            leaves, choices = self._leaves(observation) if street < 3 else (None, None)
            return Subgame.solve(
                observation, self.ranges(observation), self._seat, mode,
                self.readers, bound=self.bound, gadget=self.gadget, warm=warm,
                accuracy=self.accuracy, max_seconds=seconds, max_iterations=iterations,
                leaf_values=leaves, leaf_choices=choices,
            )

        kind = (street, self.mode, self.leaf)
        if kind not in _COMPILED:
            # the same kind of re-solve once, one iteration a phase and no budget, so
            # that the timed one below does not pay for compiling the kernels
            solve(min(self.warm, 1), float("inf"), 1)
            _COMPILED.add(kind)
        self._subgame = solve(self.warm, self.seconds, self.iterations)
        self._solved[street] = self._subgame
        return self._subgame, labels, True

    def _leaves(self, observation: Observation) -> tuple[Any, tuple[int, int] | None]:
        """The turn (flop) subgame's leaf values and the opponent's leaf choices
        (``leaf=safe``)."""
        from checkraise.nn.river_values import RiverLeafValues

        if observation.round == 1:
            return RiverLeafValues(self.turn_network, observation.board), None
        if self.leaf == "network":
            return RiverLeafValues(self.network, observation.board), None
        from checkraise.agents.continuations import ContinuationLeafValues

        start = street_start(observation)
        weights = None if self.leaf == "safe" else self.posterior.weights
        values = ContinuationLeafValues(start, self.readers, self._seat, weights,
                                        cache=self._matrices)
        them = 1 if self._seat == start.oop_seat else 0  # the opponent's spot player
        return values, ((them, values.choices) if self.leaf == "safe" else None)

    def end_hand(self, observation: Observation, payoffs: tuple[Any, ...]) -> None:
        if self.posterior is not None:
            from checkraise.agents.continuations import observe_hand

            observe_hand(self.posterior, observation, self.readers, 1 - self._seat)

    def act(self, observation: Observation) -> Action:
        if not self._resolves(observation):
            return self.player.act(observation)
        import time

        started = time.perf_counter()
        sub, labels, solved = self._street(observation)
        names, row = sub.strategy(labels, self._combo)
        p = np.maximum(row[0], 0.0)
        p = p / p.sum() if p.sum() > 0 else np.full(p.shape, 1.0 / p.size)
        label = names[self.player.choose(p, observation, _RESOLVE_DRAW, self.rng)]
        self.decisions.append({
            "seconds": time.perf_counter() - started, "solved": solved,
            "street": observation.round,
            "iterations": sub.solver.iteration, "exploitability": sub.exploitability,
        })
        return _label_action(label, sub.start.base[self._seat], observation)

    def action_probabilities(self, observation: Observation) -> HandActionProbabilities:
        """Every hand's probability of each action: the blueprint's on the streets it
        plays, the re-solved subgame's on the others (hands the subgame's range does not
        hold: check/call)."""
        from checkraise.agents.probabilities import (
            HandActionProbabilities,
            action_order,
            live_combos,
        )

        if not self._resolves(observation):
            return self.player.action_probabilities(observation)
        sub, labels, _ = self._street(observation)
        names, rows = sub.strategy(labels)
        real = [_label_action(n, sub.start.base[self._seat], observation) for n in names]
        actions = tuple(sorted(set(real), key=action_order))
        probs = np.zeros((rows.shape[0], len(actions)))
        for k, action in enumerate(real):
            probs[:, actions.index(action)] += rows[:, k]
        live = live_combos(observation)
        empty = live & (probs.sum(axis=1) <= 0.0)
        if empty.any():
            from checkraise.engine import Action

            if Action.call() not in actions:
                actions = tuple(sorted((*actions, Action.call()), key=action_order))
                probs = np.insert(probs, actions.index(Action.call()), 0.0, axis=1)
            probs[empty, actions.index(Action.call())] = 1.0
        probs[~live] = 0.0
        probs[live] /= probs[live].sum(axis=1, keepdims=True)
        street = STREET_NAMES[observation.round]
        return HandActionProbabilities(actions, probs, exact=True,
                                       note=f"{self.mode} re-solved {street} subgame")
