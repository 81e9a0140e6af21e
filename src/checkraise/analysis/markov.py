"""The Markov baseline of hand reading: hidden hand categories, observed bet classes.

The hand-reading paper (Li, Jiang, Chen and Bao, Chinese Journal of Computers 40(12), 2017)
measures its predictions against a Markov model of the kind Li Ruobin built (2013): a
hidden Markov model over the streets of one player's hand whose

* hidden state on street ``s`` is his hand category on that street's board
  (:mod:`checkraise.opponents.categories`: 4 preflop, 11 on the flop, turn and river);
* observation on street ``s`` is the class of his most aggressive action on it
  (:func:`~checkraise.opponents.actions.summarize`; one of the nine
  :class:`~checkraise.opponents.actions.ActionClass` values), or nothing when he did not
  act (all in before), which then says nothing about the state;
* parameters are an initial distribution over preflop categories, one transition matrix
  per pair of streets and one emission matrix per street.

The model sees only the actions, never the board: that is the baseline's point.

**Fitting** (:func:`fit`) is maximum likelihood with ``smoothing`` pseudo-counts added to
the counts of every state and symbol seen on that street (the others, such as a draw on
the river or a half-pot bet preflop, keep probability 0; a row nobody reached is uniform
over them). A trail whose categories are all known
(every player of the Pluribus hands, showdown hands elsewhere) gives its counts directly;
where some categories are unknown, the expected counts come from the forward-backward
recursions and the fit is Baum-Welch (expectation-maximisation), started from the known
trails' counts mixed with a seeded random draw, until the log-likelihood gains less than
``tol`` per trail. Known categories enter the recursions as masks, so one code path does
both, and a fit on fully known trails stops after its first step.

**Prediction** (:meth:`MarkovModel.filter`) is the forward algorithm: the posterior over
the categories of each street given the actions up to and including that street.

A model is saved as JSON (:meth:`MarkovModel.save`) with a header: format name and
version, the smoothing, the seed, the counts of trails and the command that produced it.

Examples
--------
>>> import numpy as np
>>> m = MarkovModel(np.array([0.5, 0.5]), (np.array([[0.9, 0.1], [0.2, 0.8]]),),
...                 (np.array([[0.8, 0.2], [0.3, 0.7]]), np.array([[0.5, 0.5], [0.5, 0.5]])))
>>> [np.round(p, 3).tolist() for p in m.filter([1, None])]
[[0.222, 0.778], [0.356, 0.644]]
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from checkraise.cards import combo_index
from checkraise.engine import ActionKind
from checkraise.errors import CheckraiseError
from checkraise.histories import HandRecord, replay
from checkraise.opponents.actions import ActionClass, summarize, understand
from checkraise.opponents.categories import (
    POSTFLOP_CATEGORIES,
    PREFLOP_CATEGORIES,
    category_table,
)
from checkraise.opponents.predict import board_at

__all__ = [
    "FORMAT",
    "OBSERVATIONS",
    "PAPER_STATES",
    "VERSION",
    "MarkovModel",
    "MarkovModelError",
    "Trail",
    "fit",
    "trails_from_hands",
]

FloatArray = npt.NDArray[np.float64]
FORMAT: Final = "checkraise.markov"
VERSION: Final = 1
OBSERVATIONS: Final = tuple(ActionClass)
"""The observation symbols: every action class, indexed in declaration order."""
PAPER_STATES: Final = (len(PREFLOP_CATEGORIES), *[len(POSTFLOP_CATEGORIES)] * 3)
STREET_NAMES: Final = ("preflop", "flop", "turn", "river")
_BOARD_CARDS: Final = (0, 3, 4, 5)


class MarkovModelError(CheckraiseError):
    """Markov model parameters or a model file not as expected (named in the message)."""


@dataclass(frozen=True)
class Trail:
    """One player's hand: per street he reached, his category and his observed action.

    ``categories[s]`` is ``None`` where his cards are unknown, ``observations[s]`` (an
    index into :data:`OBSERVATIONS`) where he did not act on street ``s``.
    """

    categories: tuple[int | None, ...]
    observations: tuple[int | None, ...]


def _stochastic(a: Any, shape: tuple[int, ...], where: str) -> FloatArray:
    arr = np.array(a, dtype=np.float64)
    if arr.shape != shape:
        raise MarkovModelError(f"{where} has shape {arr.shape}: expected {shape}")
    if not np.all(np.isfinite(arr)) or np.any(arr < 0):
        raise MarkovModelError(f"{where} has a negative or non-finite entry: expected "
                               "probabilities")
    sums = arr.sum(axis=-1)
    if not np.allclose(sums, 1.0, atol=1e-6):
        bad = float(np.ravel(sums)[np.argmax(np.abs(np.ravel(sums) - 1.0))])
        raise MarkovModelError(f"{where} has a row summing to {bad:.6g}: expected 1")
    arr.setflags(write=False)
    return arr


@dataclass(frozen=True)
class MarkovModel:
    """A hidden Markov model over the streets of a hand (module docstring).

    Parameters
    ----------
    initial
        ``(K_0,)`` distribution of the first street's state.
    transitions
        One ``(K_s, K_{s+1})`` row-stochastic matrix per pair of streets.
    emissions
        One ``(K_s, M)`` row-stochastic matrix per street, ``M`` observation symbols.
    header
        What the JSON header records besides the format (seed, command, smoothing, ...).
    """

    initial: FloatArray
    transitions: tuple[FloatArray, ...]
    emissions: tuple[FloatArray, ...]
    header: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        k0 = np.asarray(self.initial).shape
        if len(k0) != 1 or k0[0] < 1:
            raise MarkovModelError(f"initial has shape {k0}: expected (K,) with K >= 1")
        if len(self.emissions) != len(self.transitions) + 1:
            raise MarkovModelError(f"{len(self.transitions)} transition matrices and "
                                   f"{len(self.emissions)} emission matrices: expected one "
                                   "emission matrix per street, one transition fewer")
        states = [k0[0]]
        for s, t in enumerate(self.transitions):
            states.append(np.asarray(t).shape[-1] if np.ndim(t) == 2 else -1)
            if states[-1] < 1:
                raise MarkovModelError(f"transitions[{s}] is not a matrix")
        m = np.asarray(self.emissions[0]).shape[-1]
        object.__setattr__(self, "initial", _stochastic(self.initial, (states[0],), "initial"))
        object.__setattr__(self, "transitions", tuple(
            _stochastic(t, (states[s], states[s + 1]), f"transitions[{s}]")
            for s, t in enumerate(self.transitions)))
        object.__setattr__(self, "emissions", tuple(
            _stochastic(e, (states[s], m), f"emissions[{s}]")
            for s, e in enumerate(self.emissions)))
        object.__setattr__(self, "header", dict(self.header))

    @property
    def states(self) -> tuple[int, ...]:
        """Number of states on each street."""
        return tuple(e.shape[0] for e in self.emissions)

    @property
    def symbols(self) -> int:
        """Number of observation symbols."""
        return int(self.emissions[0].shape[1])

    def _check(self, observations: Sequence[int | None]) -> None:
        if len(observations) > len(self.states):
            raise MarkovModelError(f"{len(observations)} observations: the model has "
                                   f"{len(self.states)} streets")
        for s, o in enumerate(observations):
            if o is not None and not 0 <= o < self.symbols:
                raise MarkovModelError(f"observation {o!r} on street {s}: expected None or "
                                       f"0..{self.symbols - 1}")

    def filter(self, observations: Sequence[int | None]) -> list[FloatArray]:
        """Forward algorithm: ``P(state_s | obs_0..obs_s)`` for each street ``s`` given.

        ``None`` observes nothing on that street. Examples in the module docstring.
        """
        self._check(observations)
        out: list[FloatArray] = []
        alpha: FloatArray = self.initial
        for s, o in enumerate(observations):
            if s:
                alpha = alpha @ self.transitions[s - 1]
            if o is not None:
                post = alpha * self.emissions[s][:, o]
                # An action the model gives no state a chance of (possible only without
                # smoothing) says nothing: keep the prior rather than divide by zero.
                if post.sum() > 0:
                    alpha = post
            alpha = alpha / alpha.sum()
            out.append(alpha)
        return out

    def sample(self, n: int, seed: int) -> list[Trail]:
        """``n`` full-length trails drawn from the model (all categories known).

        Examples
        --------
        >>> m = MarkovModel(np.array([1.0, 0.0]), (np.eye(2),), (np.eye(2), np.eye(2)))
        >>> m.sample(1, seed=0)
        [Trail(categories=(0, 0), observations=(0, 0))]
        """
        rng = np.random.default_rng(seed)

        def draw(rows: FloatArray) -> npt.NDArray[np.int64]:
            # Inverse CDF, one uniform per trail: row i of ``rows`` is trail i's law.
            cdf = np.cumsum(rows, axis=1)
            picked = (rng.random(n)[:, None] * cdf[:, -1:] >= cdf).sum(axis=1)
            out: npt.NDArray[np.int64] = np.minimum(picked, rows.shape[1] - 1).astype(np.int64)
            return out

        cats = [draw(np.tile(self.initial, (n, 1)))]
        for s in range(1, len(self.states)):
            cats.append(draw(self.transitions[s - 1][cats[-1]]))
        obs = [draw(self.emissions[s][c]) for s, c in enumerate(cats)]
        return [Trail(tuple(int(c[i]) for c in cats), tuple(int(o[i]) for o in obs))
                for i in range(n)]

    def to_json(self) -> dict[str, Any]:
        """The JSON form: a header, the names of states and symbols, the parameters."""
        paper = self.states == PAPER_STATES and self.symbols == len(OBSERVATIONS)
        return {
            "header": {"format": FORMAT, "version": VERSION, **self.header},
            "streets": list(STREET_NAMES[: len(self.states)]) if paper else len(self.states),
            "categories": ([list(PREFLOP_CATEGORIES)] + [list(POSTFLOP_CATEGORIES)] * 3
                           if paper else list(self.states)),
            "observations": [c.value for c in OBSERVATIONS] if paper else self.symbols,
            "initial": self.initial.tolist(),
            "transitions": [t.tolist() for t in self.transitions],
            "emissions": [e.tolist() for e in self.emissions],
        }

    def save(self, path: Path) -> Path:
        """Write :meth:`to_json` to ``path``; returns it."""
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")
        return path

    @classmethod
    def from_json(cls, data: Any, source: str = "<json>") -> MarkovModel:
        """The model of a :meth:`to_json` mapping; :class:`MarkovModelError` if it is not one."""
        if not isinstance(data, dict) or not isinstance(data.get("header"), dict):
            raise MarkovModelError(f"{source}: expected a JSON object with a 'header'")
        head = data["header"]
        if head.get("format") != FORMAT or head.get("version") != VERSION:
            raise MarkovModelError(f"{source}: header format {head.get('format')!r} version "
                                   f"{head.get('version')!r}: expected {FORMAT!r} version "
                                   f"{VERSION}")
        for key in ("initial", "transitions", "emissions"):
            if not isinstance(data.get(key), list):
                raise MarkovModelError(f"{source}: {key!r} is missing: expected a list")
        extra = {k: v for k, v in head.items() if k not in ("format", "version")}
        try:
            return cls(np.asarray(data["initial"], dtype=np.float64),
                       tuple(np.asarray(t, dtype=np.float64) for t in data["transitions"]),
                       tuple(np.asarray(e, dtype=np.float64) for e in data["emissions"]),
                       extra)
        except MarkovModelError as exc:
            raise MarkovModelError(f"{source}: {exc}") from None
        except ValueError as exc:  # ragged lists that numpy cannot shape
            raise MarkovModelError(f"{source}: parameters are not rectangular: {exc}") from None

    @classmethod
    def load(cls, path: Path) -> MarkovModel:
        """Read a model saved by :meth:`save`."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise MarkovModelError(f"{path}: not valid JSON: {exc}") from None
        return cls.from_json(data, str(path))


def _recursions(
    model: MarkovModel, trail: Trail
) -> tuple[list[FloatArray], list[FloatArray], float]:
    """Posteriors of each state and each transition on ``trail``, and its log-likelihood."""
    n = len(trail.observations)
    local = []
    for s in range(n):
        v = np.ones(model.states[s])
        c = trail.categories[s]
        if c is not None:
            v = np.zeros(model.states[s])
            v[c] = 1.0
        o = trail.observations[s]
        if o is not None:
            v = v * model.emissions[s][:, o]
        local.append(v)
    alphas: list[FloatArray] = []
    scale = []
    a = model.initial * local[0]
    for s in range(n):
        if s:
            a = (alphas[-1] @ model.transitions[s - 1]) * local[s]
        total = float(a.sum())
        if total <= 0:
            return [], [], -np.inf
        scale.append(total)
        alphas.append(a / total)
    beta = np.ones(model.states[n - 1])
    gammas: list[FloatArray] = [alphas[-1] * beta]
    xis: list[FloatArray] = []
    for s in range(n - 2, -1, -1):
        nxt = local[s + 1] * beta
        xi = alphas[s][:, None] * model.transitions[s] * nxt[None, :]
        xis.append(xi / xi.sum())
        beta = model.transitions[s] @ nxt / scale[s + 1]
        g = alphas[s] * beta
        gammas.append(g / g.sum())
    return gammas[::-1], xis[::-1], float(np.sum(np.log(scale)))


def _counts_to_model(
    first: FloatArray, trans: list[FloatArray], emit: list[FloatArray], smoothing: float,
    header: Mapping[str, Any],
) -> MarkovModel:
    def rows(c: FloatArray) -> FloatArray:
        # Pseudo-counts only where the data has some mass (a state or a symbol seen on
        # that street): a draw on the river or a half-pot bet preflop stays impossible.
        seen = c.reshape(-1, c.shape[-1]).sum(axis=0) > 0
        if not seen.any():
            seen[:] = True
        c = np.where(seen, c + smoothing, 0.0)
        total = c.sum(axis=-1, keepdims=True)
        out: FloatArray = np.where(total > 0, c / np.where(total > 0, total, 1.0),
                                   seen / seen.sum())
        return out

    return MarkovModel(rows(first), tuple(rows(t) for t in trans),
                       tuple(rows(e) for e in emit), header)


def fit(
    trails: Iterable[Trail],
    *,
    states: Sequence[int] = PAPER_STATES,
    symbols: int = len(OBSERVATIONS),
    smoothing: float = 0.5,
    seed: int = 0,
    iterations: int = 200,
    tol: float = 1e-7,
    command: str = "",
) -> MarkovModel:
    """Fit a model to ``trails`` by maximum likelihood, Baum-Welch where categories are unknown.

    Parameters
    ----------
    trails
        One per player and hand; identical trails are counted once with their multiplicity.
    states, symbols
        Shape of the model (default: the paper's categories and the nine action classes).
    smoothing
        Pseudo-count added to every count (0: plain maximum likelihood).
    seed
        Seeds the random part of the starting point of Baum-Welch.
    iterations, tol
        Baum-Welch stops after ``iterations`` or when the log-likelihood per trail gains
        less than ``tol``.
    command
        Recorded in the header.

    Examples
    --------
    >>> t = [Trail((0, 1), (0, 1))] * 3 + [Trail((1,), (1,))]
    >>> m = fit(t, states=(2, 2), symbols=2, smoothing=0.0)
    >>> m.initial.tolist(), m.transitions[0][0].tolist()
    ([0.75, 0.25], [0.0, 1.0])
    """
    if smoothing < 0 or iterations < 1:
        raise MarkovModelError(f"smoothing {smoothing!r} and iterations {iterations!r}: "
                               "expected smoothing >= 0 and at least 1 iteration")
    weights = Counter(trails)
    if not weights:
        raise MarkovModelError("no trails to fit the model to: expected at least one")
    states = tuple(states)
    for trail in weights:
        if not 1 <= len(trail.observations) == len(trail.categories) <= len(states):
            raise MarkovModelError(f"trail {trail} has {len(trail.categories)} categories and "
                                   f"{len(trail.observations)} observations: expected as many "
                                   f"of each, 1..{len(states)}")
        for s, (c, o) in enumerate(zip(trail.categories, trail.observations, strict=True)):
            if c is not None and not 0 <= c < states[s]:
                raise MarkovModelError(f"trail {trail}: category {c} on street {s}, expected "
                                       f"0..{states[s] - 1}")
            if o is not None and not 0 <= o < symbols:
                raise MarkovModelError(f"trail {trail}: observation {o} on street {s}, "
                                       f"expected 0..{symbols - 1}")
    labelled = sum(w for t, w in weights.items() if None not in t.categories)
    total = sum(weights.values())
    header: dict[str, Any] = {"seed": seed, "smoothing": smoothing, "trails": total,
                              "labelled": labelled, "command": command}
    uniform = MarkovModel(np.full(states[0], 1.0 / states[0]),
                          tuple(np.full((a, b), 1.0 / b) for a, b in itertools.pairwise(states)),
                          tuple(np.full((k, symbols), 1.0 / symbols) for k in states))
    # The known trails' counts do not depend on the model: on them alone one step is the fit.
    known = {t: w for t, w in weights.items() if None not in t.categories}
    unknown = {t: w for t, w in weights.items() if None in t.categories}
    counts = _expected(uniform, known)[:3]
    model = _counts_to_model(*counts, smoothing, header)
    history: list[float] = []
    if unknown:
        # Baum-Welch, started half-way between the known trails' fit and a seeded random
        # model, so that the unknown states are not all started alike.
        rng = np.random.default_rng(seed)

        def mix(p: FloatArray) -> FloatArray:
            return 0.5 * p + 0.5 * rng.dirichlet(np.ones(p.shape[-1]), size=p.shape[:-1])

        model = MarkovModel(mix(model.initial), tuple(mix(t) for t in model.transitions),
                            tuple(mix(e) for e in model.emissions), header)
        for _ in range(iterations):
            # The known trails' counts never change: only the unknown ones are recomputed.
            first, trans, emit, ll = _expected(model, unknown)
            history.append((ll + _complete_log_likelihood(model, *counts)) / total)
            model = _counts_to_model(first + counts[0], [a + b for a, b in zip(
                trans, counts[1], strict=True)], [a + b for a, b in zip(
                    emit, counts[2], strict=True)], smoothing, header)
            if len(history) >= 2 and history[-1] - history[-2] < tol:
                break
    ll_final = _expected(model, unknown)[3] + _complete_log_likelihood(model, *counts)
    final = dict(header, iterations=max(len(history), 1), log_likelihood=ll_final / total)
    if history:
        final["log_likelihood_history"] = history
    return MarkovModel(model.initial, model.transitions, model.emissions, final)


def _complete_log_likelihood(
    model: MarkovModel, first: FloatArray, trans: list[FloatArray], emit: list[FloatArray]
) -> float:
    """Log-likelihood of trails with known categories from their counts alone."""
    total = 0.0
    pairs = [(first, model.initial), *zip(trans, model.transitions, strict=True),
             *zip(emit, model.emissions, strict=True)]
    for c, p in pairs:
        used = c > 0
        total += float(np.sum(c[used] * np.log(p[used])))
    return total


def _expected(
    model: MarkovModel, weights: Mapping[Trail, int]
) -> tuple[FloatArray, list[FloatArray], list[FloatArray], float]:
    """Expected counts of first states, transitions and emissions; the log-likelihood."""
    states = model.states
    first = np.zeros(states[0])
    trans = [np.zeros((a, b)) for a, b in itertools.pairwise(states)]
    emit = [np.zeros((k, model.symbols)) for k in states]
    ll = 0.0
    for trail, w in weights.items():
        gammas, xis, lp = _recursions(model, trail)
        if not gammas:
            raise MarkovModelError(f"trail {trail} has probability 0 under the model: "
                                   "fit with smoothing > 0")
        ll += w * lp
        first += w * gammas[0]
        for s, xi in enumerate(xis):
            trans[s] += w * xi
        for s, o in enumerate(trail.observations):
            if o is not None:
                emit[s][:, o] += w * gammas[s]
    return first, trans, emit, ll


def trails_from_hands(hands: Iterable[HandRecord]) -> list[Trail]:
    """Every player's trail in ``hands``: categories where his cards are known.

    A player's trail runs over the streets he saw: up to the one he folded on, or to the
    last street dealt. His observation on a street is his summarised action there
    (:func:`~checkraise.opponents.actions.summarize`).
    """
    out: list[Trail] = []
    for hand in hands:
        state = replay(hand, check_payout=False)
        history = state.observation(0).history
        summary = summarize(understand(state.config, history))
        board = tuple(hand.board)
        dealt = _BOARD_CARDS.index(len(board))
        folded = {seat: rnd for seat, rnd, action in history if action.kind is ActionKind.FOLD}
        for seat, player in enumerate(hand.seats):
            last = folded.get(seat, dealt)
            known = len(player.hole_cards) == 2
            combo = combo_index(*player.hole_cards) if known else -1
            cats: list[int | None] = []
            obs: list[int | None] = []
            for s in range(last + 1):
                cats.append(int(category_table(board_at(board, s))[combo]) if known else None)
                act = summary.get((seat, s))
                obs.append(OBSERVATIONS.index(act.cls) if act is not None else None)
            out.append(Trail(tuple(cats), tuple(obs)))
    return out
