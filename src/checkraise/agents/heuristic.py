"""The win-rate heuristic bot: four betting modes cut by the state value, cubic bet sizes.

Each time it acts the bot computes the state value ``v = P(win) - P(lose)`` of its hand
against as many uniformly random hands as there are opponents left in the hand (win =
beat all of them), over the rest of the board:

* before the flop from a shipped 169-class table (``checkraise/data/heuristic_preflop.csv``:
  the heads-up column is exact, copied from :func:`checkraise.equity.preflop.exact_heads_up`;
  the columns against 2-9 hands are seeded Monte Carlo, see :func:`build_preflop_values`);
* after the flop by Monte Carlo with ``samples`` deals (:func:`state_value`), once per
  street: later decisions on the same street reuse the value, so the bot does not
  contradict itself through sampling noise.

A profile whose ``value`` is ``pot-share`` (the shipped ``multiway`` one) reads instead
``u = (k + 1)(1 + v) / 2 - 1`` against ``k`` opponents still in, capped at 1: the return
per chip of calling down a pot all of them paid into equally
(:class:`~checkraise.agents.profiles.ValueScale`). Heads-up ``u = v``.

For the street ``r`` the profile (:mod:`checkraise.agents.profiles`) gives cut points
``x < y < z`` and two cubics, ``p(v)`` the most it will pay and ``q(v)`` the total it
wants to bet to (big blinds, totals for the hand). "The amount to call" is the total
contribution that calling commits, in the same raise-to units. The modes:

1. ``v < x`` give up: check if free, otherwise fold;
2. ``x <= v < y`` wait and see: call while the amount to call is at most ``p(v)``,
   otherwise fold;
3. ``y <= v < z`` raise: raise to ``q(v)`` if the minimum raise is not above ``q(v)``,
   else call, folding when asked to pay more than ``p(v)``;
4. ``v >= z`` bet to the end: raise to ``q(v)``; once re-raised past it, raise to twice
   the bet to match, until all-in (never fold).

Raise targets are rounded to chips and clamped into the legal range. This is the
polynomial-threshold design of competition bots built on a Monte Carlo win rate (the
"win-rate" rule-based players of Billings et al., *The challenge of poker*, 2002, with
the betting function fitted by self-play rather than by hand); the tuner is
:mod:`checkraise.tuning`.

Examples
--------
>>> from checkraise.engine import State, TableConfig
>>> state = State(TableConfig.nolimit(2), seed=3)
>>> bot = HeuristicAgent(seed=1)
>>> bot.act(state.observation(state.current_player)).kind.value in ("fold", "call", "raise")
True
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from checkraise.agents import _heuristic_kernels as K
from checkraise.agents import _heuristic_probs as HP
from checkraise.agents import _probability_kernels as PK
from checkraise.agents.base import AgentSpecError, BaseAgent
from checkraise.agents.draws import DRAWS, fresh_seed
from checkraise.agents.probabilities import (
    HandActionProbabilities,
    action_order,
    from_choices,
    live_combos,
)
from checkraise.agents.profiles import Profile, load_profile, profile_for_seats
from checkraise.cards import CLASS_NAMES, COMBO_CARDS, COMBO_CLASS, CardError, parse_cards
from checkraise.engine import Action, LegalActions
from checkraise.equity.core import rng_state
from checkraise.errors import ConfigError, one_of

if TYPE_CHECKING:
    from checkraise.engine import Observation, TableConfig

__all__ = [
    "DEFAULT_SAMPLES",
    "MAX_OPPONENTS",
    "HeuristicAgent",
    "build_preflop_values",
    "decide",
    "preflop_value",
    "preflop_values",
    "state_value",
]

DEFAULT_SAMPLES = 1000
"""Monte Carlo deals per postflop value: standard error at most 1/sqrt(1000) ~ 0.03."""

MAX_OPPONENTS = 9
PREFLOP_FILE = "heuristic_preflop.csv"
_MC_DRAW = 0x6d63  # the tag of a hand's Monte Carlo generator (draws=hand)


# ---------------------------------------------------------------------- the state value


def _class_hands() -> npt.NDArray[np.int64]:
    """One representative hand (two cards) of each of the 169 classes, in CLASS_NAMES order."""
    first = [int(np.argmax(np.asarray(COMBO_CLASS) == k)) for k in range(len(CLASS_NAMES))]
    hands: npt.NDArray[np.int64] = COMBO_CARDS[first].astype(np.int64)
    return hands


def build_preflop_values(
    samples: int = 100_000, seed: int = 2024
) -> tuple[npt.NDArray[np.float64], float]:
    """Compute the ``(169, 9)`` table of preflop values against 1-9 random hands.

    The heads-up column is exact (:func:`checkraise.equity.preflop.exact_heads_up`,
    about half a minute); the others are Monte Carlo with ``samples`` deals per cell
    from ``seed``. Returns the table and the largest standard error of its MC cells.
    """
    from checkraise.equity.preflop import exact_heads_up

    exact = exact_heads_up()
    hands = _class_hands()
    table = np.zeros((len(CLASS_NAMES), MAX_OPPONENTS))
    for k, name in enumerate(CLASS_NAMES):
        w, _, lose = exact[name]
        table[k, 0] = w - lose
    seeds = np.random.SeedSequence(seed).spawn(MAX_OPPONENTS - 1)
    worst = 0.0
    for n in range(2, MAX_OPPONENTS + 1):
        state = rng_state(np.random.default_rng(seeds[n - 2]))
        table[:, n - 1] = K.preflop_values_mc(hands, n, samples, state)
        # A sample scores +1, 0 or -1, so its variance is P(win) + P(lose) - v^2 <= 1 - v^2.
        worst = max(worst, float(np.sqrt((1.0 - table[:, n - 1] ** 2).max() / samples)))
    return table, worst


def _write_preflop_values(
    path: Path, table: npt.NDArray[np.float64], samples: int, seed: int, se: float
) -> None:
    with path.open("w", newline="") as fh:
        fh.write(
            "# checkraise heuristic-bot preflop values v = P(win) - P(lose) against n random\n"
            "# hands (win = beat all), written by `python -m checkraise.agents.heuristic`.\n"
            "# v1: exact (all boards, checkraise.equity.preflop.exact_heads_up).\n"
            f"# v2..v{MAX_OPPONENTS}: Monte Carlo, {samples} deals per cell, seed {seed}, "
            f"largest standard error {se:.5f}.\n"
        )
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(["hand", *(f"v{n}" for n in range(1, MAX_OPPONENTS + 1))])
        for k, name in enumerate(CLASS_NAMES):
            writer.writerow([name, *(f"{x:.6f}" for x in table[k])])


@lru_cache(maxsize=1)
def preflop_values() -> npt.NDArray[np.float64]:
    """The shipped table as ``v[n - 1, a, b]``: value of hole cards ``a, b`` against n hands.

    Examples
    --------
    >>> from checkraise.cards import parse_card
    >>> round(float(preflop_values()[0, parse_card("As"), parse_card("Ah")]), 3)
    0.704
    """
    text = resources.files("checkraise").joinpath("data", PREFLOP_FILE).read_text()
    rows = [line for line in text.splitlines() if line and not line.startswith("#")]
    by_class: dict[str, list[float]] = {}
    for row in csv.DictReader(rows):
        by_class[row["hand"]] = [float(row[f"v{n}"]) for n in range(1, MAX_OPPONENTS + 1)]
    if set(by_class) != set(CLASS_NAMES):
        raise RuntimeError(f"{PREFLOP_FILE} does not list the 169 preflop classes")
    per_class = np.array([by_class[name] for name in CLASS_NAMES])  # (169, 9)
    out = np.zeros((MAX_OPPONENTS, 52, 52))
    for combo, (a, b) in enumerate(COMBO_CARDS):
        col = per_class[COMBO_CLASS[combo]]
        out[:, a, b] = col
        out[:, b, a] = col
    out.flags.writeable = False
    return out


def preflop_value(hand: str | Sequence[int], opponents: int = 1) -> float:
    """Preflop value ``v = P(win) - P(lose)`` of a hand against ``opponents`` random hands.

    Examples
    --------
    >>> round(preflop_value("AsAh"), 4), preflop_value("7h2c") < 0 < preflop_value("AsAh", 3)
    (0.7041, True)
    """
    cards = parse_cards(hand) if isinstance(hand, str) else [int(c) for c in hand]
    if len(cards) != 2:
        raise CardError(f"a hand needs exactly two cards, got {len(cards)}: {hand!r}")
    if not 1 <= opponents <= MAX_OPPONENTS:
        raise ConfigError(f"invalid opponents {opponents!r}: expected 1..{MAX_OPPONENTS}")
    return float(preflop_values()[opponents - 1, cards[0], cards[1]])


def state_value(
    hand: str | Sequence[int],
    board: str | Sequence[int] = (),
    opponents: int = 1,
    samples: int = DEFAULT_SAMPLES,
    seed: int | np.random.Generator | None = None,
) -> float:
    """``v = P(win) - P(lose)`` against ``opponents`` random hands over the rest of the board.

    Before the flop it reads the table (:func:`preflop_value`); afterwards it samples
    ``samples`` deals of the missing board cards and the opponents' hands.

    Examples
    --------
    >>> v = state_value("AsKs", "Ad7c2h", samples=20_000, seed=1)
    >>> abs(v - 0.7761) < 0.03   # exact value: checkraise.equity.strength.win_minus_lose
    True
    """
    cards = parse_cards(hand) if isinstance(hand, str) else [int(c) for c in hand]
    known = parse_cards(board) if isinstance(board, str) else [int(c) for c in board]
    if len(cards) != 2:
        raise CardError(f"a hand needs exactly two cards, got {len(cards)}: {hand!r}")
    if len(known) not in (0, 3, 4, 5):
        raise CardError(f"a board has 0, 3, 4 or 5 cards, got {len(known)}: {board!r}")
    if len(set(cards) | set(known)) != len(cards) + len(known):
        raise CardError(f"hand {hand!r} and board {board!r} share a card")
    if not 1 <= opponents <= MAX_OPPONENTS:
        raise ConfigError(f"invalid opponents {opponents!r}: expected 1..{MAX_OPPONENTS}")
    if samples < 1:
        raise ConfigError(f"invalid samples {samples!r}: expected at least 1")
    if not known:
        return preflop_value(cards, opponents)
    gen = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    return _mc_value(cards[0], cards[1], known, opponents, samples, rng_state(gen))


def _mc_value(
    h0: int, h1: int, board: Sequence[int], opponents: int, samples: int,
    state: npt.NDArray[np.uint64],
) -> float:
    arr = np.zeros(5, dtype=np.int64)
    arr[: len(board)] = board
    return float(K.value_vs_random(h0, h1, arr, len(board), opponents, samples, state))


# ---------------------------------------------------------------------- the policy


def decide(
    profile: Profile,
    street: int,
    v: float,
    legal: LegalActions,
    my_bet: int,
    big_blind: int,
) -> Action:
    """The bot's action on ``street`` for value ``v`` (see the module docstring).

    ``my_bet`` is the seat's total contribution so far (antes excluded), so the amount
    to call is ``my_bet + legal.call_amount`` in raise-to units.

    Examples
    --------
    >>> from checkraise.engine import LegalActions
    >>> from checkraise.agents.profiles import default_profile
    >>> legal = LegalActions(True, False, 100, 200, 20000, )
    >>> str(decide(default_profile(), 0, -0.9, legal, 100, 100))   # 72o facing a raise
    'f'
    """
    prm = profile.array[street]
    min_to = -1 if legal.min_raise_to is None else int(legal.min_raise_to)
    max_to = -1 if legal.max_raise_to is None else int(legal.max_raise_to)
    kind, to = K.decide(
        prm, float(v), int(my_bet + legal.call_amount), bool(legal.call_amount <= 0),
        min_to, max_to, int(big_blind),
    )
    if kind == K.RAISE:
        return Action.raise_to(int(to))
    if kind == K.FOLD and legal.can_fold:
        return Action.fold()
    return Action.call()


# ---------------------------------------------------------------------- the agent


class HeuristicAgent(BaseAgent):
    """The win-rate heuristic bot (module docstring), registered as ``heuristic``.

    Parameters
    ----------
    seed : int or None
        Seed of the Monte Carlo sampling.
    profile : str, Path, Profile or None
        ``None`` or ``"auto"`` picks the shipped profile by table size (the heads-up
        ``default`` at 2 seats, ``multiway`` at 3 or more, see
        :func:`~checkraise.agents.profiles.profile_for_seats`); a shipped name
        (``default``/``headsup``, ``multiway``) or a JSON/TOML file forces one.
    samples : int
        Monte Carlo deals per postflop value (default :data:`DEFAULT_SAMPLES`).
    draws : str
        ``stream`` (the default): the Monte Carlo deals of a session come one after
        another from one generator, so a hand's values depend on every hand before it.
        ``hand``: each value's deals come from a generator seeded by the seed, the hand
        number, the street and the number of opponents alone, so that when two bots are
        compared deal by deal against it (two matches on the same seed), it computes the
        same values in both wherever their hands reach the same street with the same
        players (common random numbers; :mod:`checkraise.agents.draws`).

    Examples
    --------
    >>> from checkraise.agents import make_agent
    >>> bot = make_agent("heuristic:samples=200", seed=4)
    >>> bot.profile.name, bot.samples
    ('default', 200)
    >>> from checkraise.engine import TableConfig
    >>> bot.begin_hand(0, TableConfig.nolimit(6), (0, 1), 0)
    >>> bot.profile.name
    'multiway'
    """

    def __init__(
        self,
        *,
        seed: int | None = None,
        profile: str | Path | Profile | None = None,
        samples: int = DEFAULT_SAMPLES,
        draws: str = "stream",
    ) -> None:
        super().__init__(seed=seed)
        if draws not in DRAWS:
            raise AgentSpecError(f"invalid heuristic-agent draws {draws!r}; expected one of "
                                 f"{one_of(DRAWS)}")
        self.draws = draws
        self._draw_seed = fresh_seed(seed)
        self._hand = 0
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
            raise AgentSpecError(
                f"invalid heuristic-agent samples {samples!r}: expected a positive integer"
            )
        # Chosen by table size when the hand begins (until then: the heads-up profile).
        self.auto_profile = profile is None or str(profile) == "auto"
        self.profile = load_profile(None if self.auto_profile else profile)
        self._seats = 2
        self.samples = samples
        self._state = rng_state(self.rng)
        self._cache: dict[tuple[tuple[int, ...], tuple[int, ...], int], float] = {}
        self.last_value: float | None = None

    def begin_hand(
        self, seat: int, config: TableConfig, hole_cards: tuple[int, ...], hand_number: int
    ) -> None:
        """Forget the previous hand's values; pick the profile for the table size if
        automatic."""
        self._cache.clear()
        self._hand = hand_number
        self._choose_profile(config.num_players)

    def _choose_profile(self, seats: int) -> None:
        if self.auto_profile and seats != self._seats:
            self.profile = profile_for_seats(seats)
            self._seats = seats

    def value(self, observation: Observation) -> float:
        """The state value ``v`` for ``observation`` (cached per hand, board and opponents)."""
        opponents = sum(
            1 for s, f in enumerate(observation.folded) if s != observation.seat and not f
        )
        opponents = min(max(opponents, 1), MAX_OPPONENTS)
        hole = tuple(observation.hole_cards)
        board = tuple(observation.board)
        key = (hole, board, opponents)
        v = self._cache.get(key)
        if v is None:
            if board:
                state = self._state
                if self.draws == "hand":  # the same deals whatever came before
                    state = rng_state(np.random.default_rng(
                        [self._draw_seed, self._hand, len(board), opponents, _MC_DRAW]))
                v = _mc_value(hole[0], hole[1], board, opponents, self.samples, state)
            else:
                v = float(preflop_values()[opponents - 1, hole[0], hole[1]])
            self._cache[key] = v
        return v

    def _policy_inputs(self, observation: Observation) -> _PolicyInputs:
        """What the policy reads besides ``v``, without changing the agent."""
        legal = observation.legal
        if legal is None:
            raise ConfigError(
                f"agent asked to act for seat {observation.seat} but it is not that seat's turn"
            )
        seats = len(observation.folded)
        profile = (
            profile_for_seats(seats)
            if self.auto_profile and seats != self._seats
            else self.profile
        )
        opponents = sum(
            1 for s, f in enumerate(observation.folded) if s != observation.seat and not f
        )
        config = observation.config
        return _PolicyInputs(
            profile=profile,
            street=min(observation.round, 3),
            legal=legal,
            my_bet=max(observation.contributions[observation.seat] - config.ante, 0),
            big_blind=max(config.blinds),
            opponents=min(max(opponents, 1), MAX_OPPONENTS),
        )

    def act(self, observation: Observation) -> Action:
        """Compute ``v`` (``last_value``) and act by the profile's mode for this street.

        A ``pot-share`` profile acts on the pot share of ``v`` against the opponents
        still in (module docstring).
        """
        inputs = self._policy_inputs(observation)
        self._choose_profile(len(observation.folded))
        v = self.value(observation)
        self.last_value = v
        return inputs.act(v)

    def action_probabilities(self, observation: Observation) -> HandActionProbabilities | None:
        """The probability of each action for every hand (the optional agent method).

        Exact: before the flop the value is a table entry; after it, heads-up (one
        opponent still in), the law of the Monte Carlo value is computed exactly
        (:mod:`checkraise.agents._heuristic_probs`), conditioned on the bot's earlier
        actions on the street, which reused the same value. With two or more opponents
        after the flop it returns ``None`` (no exact law of a value against several
        random hands here): callers then query :meth:`act` hand by hand.
        """
        inputs = self._policy_inputs(observation)
        live = live_combos(observation)
        board = observation.board
        if not board:
            values = preflop_values()[inputs.opponents - 1, COMBO_CARDS[:, 0], COMBO_CARDS[:, 1]]
            memo: dict[float, Action] = {}
            choices: list[Action | None] = [None] * len(live)
            for i in np.flatnonzero(live):
                v = float(values[i])
                if v not in memo:
                    memo[v] = inputs.act(v)
                choices[i] = memo[v]
            return from_choices(choices, exact=True, note="preflop values from the table")
        if inputs.opponents > 1:
            return None
        n = self.samples
        grid = [k / n for k in range(-n, n + 1)]  # every value W - L over n deals can take
        now = [inputs.act(v) for v in grid]
        mask = np.ones(len(grid), dtype=bool)
        earlier = HP.earlier_street_decisions(observation, inputs.opponents, MAX_OPPONENTS)
        for legal, my_bet, taken in earlier:
            then = dataclasses.replace(inputs, legal=legal, my_bet=my_bet)
            mask &= np.array([then.act(v) == taken for v in grid])
        actions = tuple(sorted(set(now), key=action_order))
        index = {a: j for j, a in enumerate(actions)}
        label = np.array([index[a] for a in now], dtype=np.int64)
        wins, ties, pairs = _wins_ties_vs_random(tuple(board))
        rows = np.flatnonzero(live & (pairs > 0))
        k = len(actions)
        joint, seen, marginal = HP.score_law_sums(
            wins[rows] / pairs[rows],
            ties[rows] / pairs[rows],
            n,
            [(np.where(mask, label, -1), k), (np.where(mask, 0, -1), 1), (label, k)],
        )
        seen = seen[:, 0]
        # A hand that would almost never have acted so earlier keeps its marginal row:
        # Bayes has already given it (almost) no weight.
        cond = seen > HP.FFT_NOISE
        p = np.where(cond[:, None], joint / np.where(cond, seen, 1.0)[:, None], marginal)
        p[p < HP.FFT_NOISE] = 0.0
        p /= p.sum(axis=1, keepdims=True)
        probs = np.zeros((len(live), k))
        probs[rows] = p
        keep = probs.max(axis=0) > 0.0
        return HandActionProbabilities(
            tuple(a for a, kept in zip(actions, keep, strict=True) if kept),
            probs[:, keep],
            exact=True,
            note=(
                f"exact law of the {n}-deal Monte Carlo value (FFT, masses below "
                f"{HP.FFT_NOISE:g} dropped), given the bot's {len(earlier)} earlier "
                "action(s) on this street"
            ),
        )


@lru_cache(maxsize=8)
def _wins_ties_vs_random(
    board: tuple[int, ...],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    # Cached: range tracking asks again at each decision on a street.
    out = PK.wins_ties_vs_random(np.array(board, dtype=np.int64), COMBO_CARDS)
    for arr in out:
        arr.setflags(write=False)
    return out


@dataclass(frozen=True)
class _PolicyInputs:
    """One decision's inputs to :func:`decide` other than the value."""

    profile: Profile
    street: int
    legal: LegalActions
    my_bet: int
    big_blind: int
    opponents: int

    def act(self, v: float) -> Action:
        """The action for state value ``v`` (the pot share of it for a pot-share profile)."""
        if self.profile.pot_share:
            v = K.pot_share_value(v, self.opponents)
        return decide(self.profile, self.street, v, self.legal, self.my_bet, self.big_blind)


def main(argv: list[str] | None = None) -> None:
    """Regenerate the shipped preflop value table."""
    parser = argparse.ArgumentParser(description="Regenerate " + PREFLOP_FILE)
    parser.add_argument("--samples", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--out", type=Path, default=Path(__file__).resolve().parents[1] / "data" / PREFLOP_FILE
    )
    args = parser.parse_args(argv)
    table, se = build_preflop_values(args.samples, args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    _write_preflop_values(args.out, table, args.samples, args.seed, se)
    print(f"wrote {args.out} (largest Monte Carlo standard error {se:.5f})")


if __name__ == "__main__":
    main()
