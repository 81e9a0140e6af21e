"""The ``resolve`` bot: the blueprint, with the river re-solved during play.

Preflop, flop and turn it plays its blueprint (:class:`~checkraise.agents.blueprint.
BlueprintAgent`). On the river it re-solves: both players' ranges at the start of the
river are tracked by Bayes from the blueprint's probability of every action for every
hand (:mod:`checkraise.agents.range_tracking`; an opponent's off-tree size is read by
the blueprint's action translation there), and the river is solved on exact cards by
the spot solver with finer sizes than the blueprint's plus every size already used on
this river (:mod:`checkraise.agents.subgame`). Each of the bot's river decisions
re-solves only when the river's line has left the last subgame's tree.

Options: ``mode`` (``unsafe`` or ``safe``; see :mod:`checkraise.agents.subgame`),
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
    MODES,
    RiverSubgame,
    _label_action,
    _labels_and_sizes,
    street_start,
)
from checkraise.cards import combo_index
from checkraise.errors import ConfigError, one_of

if TYPE_CHECKING:
    from checkraise.agents.probabilities import HandActionProbabilities
    from checkraise.engine import Action, Observation, TableConfig

__all__ = ["ResolveAgent"]


class ResolveAgent(BaseAgent):
    """Blueprint play with river re-solving (see the module docstring).

    Parameters
    ----------
    mode : str
        ``safe`` (default) or ``unsafe``.
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
        The blueprint: ``small`` (shipped) or a path.
    seconds : float
        Time budget per re-solve.
    accuracy : float
        Target exploitability of a re-solve, % of the pot (measured every 10
        iterations).
    iterations : int
        At most this many iterations per re-solve. A match is reproducible when every
        re-solve stops on ``accuracy`` or ``iterations`` before ``seconds`` runs out.
    seed : int or None
        Seeds the action draws (and the blueprint's).
    """

    def __init__(self, *, mode: str = "safe", bound: str = "cbv", gadget: str = "resolve",
                 warm: int = 200, file: str = "small",
                 seconds: float = 5.0,
                 accuracy: float = 0.5, iterations: int = 2000,
                 seed: int | None = None) -> None:
        super().__init__(seed=seed)
        if mode not in MODES:
            raise ConfigError(f"mode={mode!r}; expected one of {one_of(MODES)}")
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
        self.player = BlueprintAgent(file=file, seed=seed)
        # Readers: the blueprint of each seat, never acting, for range tracking and the
        # safe gadget's values (their translation draws are their own, seeded apart).
        reader_seed = None if seed is None else seed + 1
        self.readers = (BlueprintAgent(file=file, seed=reader_seed),
                        BlueprintAgent(file=file, seed=reader_seed))
        self.decisions: list[dict[str, Any]] = []
        self._seat = 0
        self._combo = 0
        self._subgame: RiverSubgame | None = None

    def begin_hand(self, seat: int, config: TableConfig, hole_cards: tuple[int, ...],
                   hand_number: int) -> None:
        self.player.begin_hand(seat, config, hole_cards, hand_number)
        for s, reader in enumerate(self.readers):
            reader.begin_hand(s, config, hole_cards, hand_number)
        self._seat = seat
        self._combo = combo_index(*hole_cards)
        self._subgame = None

    def ranges(self, observation: Observation) -> tuple[Any, Any]:
        """Both seats' ranges at the start of the current street."""
        start = len(observation.history) - len(street_start(observation).actions)

        def likelihood(obs: Observation, index: int, action: Action) -> Any:
            return self.readers[obs.seat].read_probabilities(obs, action)

        w0, w1 = track_ranges(observation, likelihood, upto=start)
        mine = (w0, w1)[self._seat]
        if mine[self._combo] <= 0.0:
            # the blueprint gives our own line no weight with our hand (a translation
            # draw went the other way): keep the hand in play with a trace of weight
            mine[self._combo] = 1e-6 * max(float(mine.max()), 1e-12)
        return w0, w1

    def _river(self, observation: Observation) -> tuple[RiverSubgame, list[str], bool]:
        """The subgame of this river (re-solved when the line has left the last one's
        tree), the river's labels so far, and whether it was solved now."""
        labels, *_ = _labels_and_sizes(street_start(observation))
        if self._subgame is not None and self._subgame.fits(labels):
            return self._subgame, labels, False
        self._subgame = RiverSubgame.solve(
            observation, self.ranges(observation), self._seat, self.mode,
            self.readers, bound=self.bound, gadget=self.gadget, warm=self.warm,
            accuracy=self.accuracy,
            max_seconds=self.seconds, max_iterations=self.iterations,
        )
        return self._subgame, labels, True

    def act(self, observation: Observation) -> Action:
        if observation.round < 3:
            return self.player.act(observation)
        import time

        started = time.perf_counter()
        sub, labels, solved = self._river(observation)
        names, row = sub.strategy(labels, self._combo)
        p = np.maximum(row[0], 0.0)
        p = p / p.sum() if p.sum() > 0 else np.full(p.shape, 1.0 / p.size)
        label = names[int(self.rng.choice(len(names), p=p))]
        self.decisions.append({
            "seconds": time.perf_counter() - started, "solved": solved,
            "iterations": sub.solver.iteration, "exploitability": sub.exploitability,
        })
        return _label_action(label, sub.start.base[self._seat], observation)

    def action_probabilities(self, observation: Observation) -> HandActionProbabilities:
        """Every hand's probability of each action: the blueprint's before the river, the
        re-solved subgame's on it (hands the subgame's range does not hold: check/call)."""
        from checkraise.agents.probabilities import (
            HandActionProbabilities,
            action_order,
            live_combos,
        )

        if observation.round < 3:
            return self.player.action_probabilities(observation)
        sub, labels, _ = self._river(observation)
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
        return HandActionProbabilities(actions, probs, exact=True,
                                       note=f"{self.mode} re-solved river subgame")
