"""All-in equity of 2-10 players holding hands or weighted ranges: exact or Monte Carlo.

The joint distribution is the one PokerStove and Equilab use: a deal (one combo per player
plus the rest of the board) has probability proportional to the product of the players'
weights for their combos, over the deals in which no card appears twice and none is on
the board or dead; the rest of the board is uniform over the remaining cards.

* **Exact** enumerates every runout of the board and, per runout, ranks each live combo
  once; heads-up it resolves ranges with a sorted sweep with card-removal corrections
  (postflop-solver's showdown evaluation), three or more players walk the non-colliding
  assignments depth-first.
* **Monte Carlo** draws deals from exactly that distribution: each ranged player's combo is
  drawn from its weights independently and the *whole* deal is redrawn if two of them
  share a card. Independent draws have probability prod(w_i) / prod(W_i); keeping only
  non-colliding ones leaves probability proportional to prod(w_i) on exactly the allowed
  deals, which is the target, so the sampler is unbiased (rejection sampling; von Neumann
  1951). Players with a uniformly random hand are dealt afterwards straight from the deck:
  given the cards already out, a random hand is uniform over the live combos and the
  number of live combos does not depend on which cards are out, so dealing them
  sequentially needs no correction. Each sample's equity share (1, 1/k on a k-way tie, 0)
  gives the standard error. When every player holds a known hand or a random one, seven
  cards are dealt per random word, exactly uniformly (batched ranged integers with
  Lemire's rejection; see :func:`checkraise.equity._mc_kernels._deal_batch`).

  Rejection can be hopeless: ranges whose weight sits on combos that nearly always share
  a card accept one deal in 10^4 or fewer and would run for hours. The sampler gives up
  once it has made at least :data:`MIN_ATTEMPTS` attempts and needs more than
  :data:`ATTEMPTS_PER_SAMPLE` per accepted deal, so it never makes more than
  ``max(MIN_ATTEMPTS, ATTEMPTS_PER_SAMPLE * (samples + 1))``. Enumeration skips
  colliding assignments at no cost, so :func:`equity` then enumerates exactly when
  :func:`exact_cost` is within :data:`EXACT_BUDGET`, and otherwise raises
  :class:`LowAcceptanceError` with the acceptance rate it saw.

Examples
--------
A three-way flop spot published with PokerStove's exact output (17.2757 %, 44.1860 %,
38.5382 %; suckout.blogspot.com, "Know thy Equity", 2006):

>>> r = equity(["KdQd", "JcTc", "5h5s"], board="KcQh5c")
>>> str(r.method), [round(100 * float(e), 4) for e in r.equity]
('exact', [17.2757, 44.186, 38.5382])
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

import numpy as np
import numpy.typing as npt

from checkraise.cards import COMBO_CARDS, COMBO_MASKS, NUM_COMBOS, format_card, parse_cards
from checkraise.equity import _kernels as K
from checkraise.equity import _mc_kernels as MC
from checkraise.errors import CheckraiseError, one_of
from checkraise.evaluator._kernels import CARD_FLUSH_BIT, CARD_KEY
from checkraise.ranges import Range, as_range, cards_mask

__all__ = [
    "ATTEMPTS_PER_SAMPLE",
    "EXACT_BUDGET",
    "EXACT_STEPS_PER_SECOND",
    "MIN_ATTEMPTS",
    "PROGRESS_WORK",
    "EquityError",
    "EquityResult",
    "ExactCost",
    "LowAcceptanceError",
    "Method",
    "PlayerSpec",
    "WinProbability",
    "equity",
    "exact_cost",
    "parse_board",
    "rng_state",
    "weights_of",
    "win_probability",
]

FloatArray = npt.NDArray[np.float64]
PlayerSpec = str | Range | Sequence[int] | None

EXACT_BUDGET = 40_000_000
"""Estimated work (combo rankings plus showdowns) up to which ``method="auto"`` enumerates."""

DEFAULT_SAMPLES = 200_000
MAX_SAMPLES_FOR_TARGET = 20_000_000

MIN_ATTEMPTS = 1_000_000
"""Monte Carlo attempts (accepted or redrawn deals) before the sampler may give up."""

ATTEMPTS_PER_SAMPLE = 100
"""Past :data:`MIN_ATTEMPTS`, the sampler gives up when it needs more attempts than this
per accepted deal (an acceptance rate below 1 %)."""

EXACT_STEPS_PER_SECOND = 8e7
"""Exact enumeration speed in :class:`ExactCost` steps a second, for time estimates only:
5e7 to 1.2e8 measured on one core of the development machine over heads-up and 3-4 player
hands and ranges (it varies with the spot and the machine, so take it as a rough guide)."""

PROGRESS_WORK = 20_000_000
"""Work between two calls of an exact enumeration's ``progress`` callback."""

_BOARD_SIZES = (0, 3, 4, 5)


@dataclass(frozen=True)
class ExactCost:
    """The size of an exact enumeration: board runouts and estimated work.

    ``work`` counts combo rankings plus showdowns (heads-up sweeps count 8 steps a combo).
    """

    runouts: int
    work: float

    @property
    def affordable(self) -> bool:
        """Whether ``method="auto"`` would enumerate (work within :data:`EXACT_BUDGET`)."""
        return self.work <= EXACT_BUDGET

    @property
    def seconds(self) -> float:
        """A rough time on one core: ``work`` at :data:`EXACT_STEPS_PER_SECOND`."""
        return self.work / EXACT_STEPS_PER_SECOND


def sci(x: float) -> str:
    """``x`` in short scientific notation, ``2.5e10`` rather than Python's ``2.5e+10``."""
    mantissa, _, exponent = f"{x:.1e}".partition("e")
    return f"{mantissa}e{int(exponent)}"


class EquityError(CheckraiseError):
    """Bad input to an equity computation (hands, ranges, board, dead cards, options)."""


class LowAcceptanceError(EquityError):
    """Monte Carlo gave up: the ranges almost never fit together and enumeration is too big.

    ``accepted`` of ``attempts`` drawn deals had no card twice; ``cost`` is the exact
    enumeration that was not affordable.
    """

    def __init__(self, accepted: int, attempts: int, cost: ExactCost) -> None:
        self.accepted = accepted
        self.attempts = attempts
        self.cost = cost
        super().__init__(
            f"Monte Carlo gave up: the players' ranges collide (share a card) in almost "
            f"every deal; only {accepted:,} of {attempts:,} drawn deals fit together "
            f"(acceptance {accepted / max(attempts, 1):.2g}, at least 1 in "
            f"{ATTEMPTS_PER_SAMPLE} is needed), and exact enumeration would take about "
            f"{sci(cost.work)} steps ({cost.runouts:,} boards), over the budget of "
            f"{sci(EXACT_BUDGET)}; remove the combos that block each other from the ranges, "
            f"or ask for exact enumeration (method='exact', --exact) and wait for it"
        )


class Method(StrEnum):
    """How :func:`equity` computes: enumerate everything, sample, or choose by cost."""

    EXACT = "exact"
    MC = "mc"
    AUTO = "auto"

    @classmethod
    def parse(cls, value: Method | str) -> Method:
        """The method named ``value``; :class:`EquityError` naming the valid ones otherwise."""
        try:
            return cls(value)
        except ValueError:
            raise EquityError(
                f"unknown method {value!r}: expected {one_of([m.value for m in cls])}"
            ) from None


@dataclass(frozen=True)
class EquityResult:
    """Per-player win, tie and equity (win plus tie shares) probabilities.

    ``stderr`` is the standard error of each equity (zeros for exact results);
    ``samples`` is the number of Monte Carlo deals or of enumerated board runouts.
    """

    win: FloatArray
    tie: FloatArray
    equity: FloatArray
    stderr: FloatArray
    method: Method
    samples: int

    @property
    def lose(self) -> FloatArray:
        """Probability of losing outright (neither winning nor tying)."""
        return np.clip(1.0 - self.win - self.tie, 0.0, 1.0)

    @property
    def num_players(self) -> int:
        """Number of players."""
        return int(self.win.shape[0])


def rng_state(seed: int | np.random.Generator | None) -> npt.NDArray[np.uint64]:
    """Four-word xoshiro256** state from a seed or a numpy Generator (never all zero)."""
    if isinstance(seed, int) and seed < 0:
        raise EquityError(f"invalid seed {seed}: expected 0 or more")
    gen = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    state = gen.integers(0, 2**64 - 1, size=4, dtype=np.uint64, endpoint=True)
    if not state.any():
        state[0] = 1
    return state


def parse_board(
    board: str | Iterable[int | str] | None, dead: str | Iterable[int | str] | None
) -> tuple[list[int], int]:
    """Board cards (0, 3, 4 or 5, unique) and the dead-card mask; they must not overlap."""
    cards = [] if board is None else parse_cards(board)
    if len(cards) not in _BOARD_SIZES:
        shown = " ".join(format_card(c) for c in cards)
        raise EquityError(
            f"invalid board {shown!r}: a board has 0, 3, 4 or 5 cards (preflop, flop, turn "
            f"or river), got {len(cards)}"
        )
    dead_cards = [] if dead is None else parse_cards(dead)
    both = set(cards) & set(dead_cards)
    if both:
        raise EquityError(f"card {format_card(min(both))} is both on the board and dead")
    return cards, cards_mask(dead_cards)


@dataclass(frozen=True)
class _Players:
    pc0: npt.NDArray[np.int64]
    pc1: npt.NDArray[np.int64]
    pm: npt.NDArray[np.int64]
    pid: npt.NDArray[np.int64]
    pw: FloatArray
    offs: npt.NDArray[np.int64]
    uniform: npt.NDArray[np.bool_]
    sizes: list[int]
    always_held: int  # cards that some player holds in every one of its combos


def _prepare_players(specs: Sequence[PlayerSpec], taken: int) -> _Players:
    if isinstance(specs, (str, Range)) or not isinstance(specs, Sequence):
        raise EquityError("players must be a list of hands or ranges, e.g. ['AsKs', 'QQ+']")
    n = len(specs)
    if not 2 <= n <= 10:
        raise EquityError(f"equity needs 2 to 10 players, got {n}")
    ids_list: list[npt.NDArray[np.int64]] = []
    w_list: list[FloatArray] = []
    uniform = np.zeros(n, dtype=np.bool_)
    always = 0
    for p, spec in enumerate(specs):
        rng = as_range(spec)
        uniform[p] = rng.is_uniform()
        live = rng.remove_cards(taken)
        if live.is_empty():
            where = "" if rng.is_empty() else " after removing the board and dead cards"
            raise EquityError(
                f"player {p + 1}'s range {str(spec) if spec is not None else 'random'!r} "
                f"holds no hand{where}"
            )
        ids = live.combos()
        common = int(np.bitwise_and.reduce(COMBO_MASKS[ids]))
        if common & always:
            raise EquityError(
                f"player {p + 1} holds {format_card((common & always).bit_length() - 1)}, "
                "which another player always holds"
            )
        always |= common
        ids_list.append(ids)
        w_list.append(live.weights[ids])
    ids_all = np.concatenate(ids_list)
    offs = np.zeros(n + 1, dtype=np.int64)
    offs[1:] = np.cumsum([len(i) for i in ids_list])
    return _Players(
        pc0=COMBO_CARDS[ids_all, 0].astype(np.int64),
        pc1=COMBO_CARDS[ids_all, 1].astype(np.int64),
        pm=COMBO_MASKS[ids_all].astype(np.int64),
        pid=ids_all.astype(np.int64),
        pw=np.concatenate(w_list),
        offs=offs,
        uniform=uniform,
        sizes=[len(i) for i in ids_list],
        always_held=always,
    )


def _exact_work(pl: _Players, runouts: int) -> float:
    if len(pl.sizes) == 2:
        a, b = pl.sizes
        showdown = a * b if a * b <= 512 else (a + b) * 8
        return runouts * (a + b + showdown)
    return runouts * (sum(pl.sizes) + math.prod(pl.sizes))


@dataclass(frozen=True)
class _Spot:
    pl: _Players
    cards: list[int]
    deck: npt.NDArray[np.int64]
    runouts: int

    @property
    def cost(self) -> ExactCost:
        return ExactCost(self.runouts, _exact_work(self.pl, self.runouts))


def _spot(
    players: Sequence[PlayerSpec],
    board: str | Iterable[int | str] | None,
    dead: str | Iterable[int | str] | None,
) -> _Spot:
    cards, dead_mask = parse_board(board, dead)
    taken = dead_mask | cards_mask(cards)
    pl = _prepare_players(players, taken)
    deck = np.array(
        [c for c in range(52) if not (taken | pl.always_held) >> c & 1], dtype=np.int64
    )
    return _Spot(pl, cards, deck, math.comb(len(deck), 5 - len(cards)))


def exact_cost(
    players: Sequence[PlayerSpec],
    board: str | Iterable[int | str] | None = None,
    dead: str | Iterable[int | str] | None = None,
) -> ExactCost:
    """What ``equity(players, board, dead, method="exact")`` would enumerate, without doing it.

    Examples
    --------
    >>> c = exact_cost(["AsKs", "QhQd"])
    >>> c.runouts, c.affordable
    (1712304, True)
    >>> exact_cost(["AsKs", "random", "random"]).affordable
    False
    """
    return _spot(players, board, dead).cost


def _exact(sp: _Spot, progress: Callable[[int, int], None] | None) -> EquityResult:
    pl = sp.pl
    n = len(pl.sizes)
    known = np.array(sp.cards, dtype=np.int64)
    args = (pl.pc0, pl.pc1, pl.pm, pl.pid, pl.pw, pl.offs, known, sp.deck)
    if progress is None:
        win, tie, share, total, runouts = K.exact_equity(*args)
    else:
        # The same walk in slices of about PROGRESS_WORK; it adds the same numbers in the
        # same order, so the result does not depend on whether progress is asked for.
        win, tie, share = np.zeros(n), np.zeros(n), np.zeros(n)
        walk = np.zeros(5 - len(sp.cards) + 2, dtype=np.int64)
        step = max(1, int(PROGRESS_WORK / max(_exact_work(pl, 1), 1.0)))
        total, runouts = 0.0, 0
        progress(0, sp.runouts)
        while walk[-1] >= 0:
            total, done = K.exact_equity_steps(*args, walk, win, tie, share, total, step)
            runouts += done
            progress(runouts, sp.runouts)
    if total <= 0.0:
        raise EquityError("no deal is possible: the players' hands always collide")
    return EquityResult(
        win / total, tie / total, share / total, np.zeros(n), Method.EXACT, runouts
    )


def equity(
    players: Sequence[PlayerSpec],
    board: str | Iterable[int | str] | None = None,
    dead: str | Iterable[int | str] | None = None,
    method: Method | str = Method.AUTO,
    samples: int | None = None,
    seed: int | np.random.Generator | None = None,
    target_se: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> EquityResult:
    """Win, tie and equity of each player at showdown with the rest of the board to come.

    Parameters
    ----------
    players
        2-10 entries, each a hand (``"AsKs"``), range text (``"QQ+,AKs:0.5"``), a
        :class:`~checkraise.ranges.Range`, two card ints, or ``None``/``"unknown"``/
        ``"random"`` for a random hand.
    board, dead
        Known board cards (0, 3, 4 or 5) and cards out of play.
    method
        ``"exact"`` enumerates, ``"mc"`` samples, ``"auto"`` enumerates when the estimated
        work (:func:`exact_cost`) is at most :data:`EXACT_BUDGET`.
    samples
        Monte Carlo deals (default 200,000), or the cap when ``target_se`` is given.
    seed
        Seed or generator for Monte Carlo.
    target_se
        Stop sampling once every player's equity has at most this standard error.
    progress
        Called as ``progress(done, total)`` with the board runouts enumerated so far, at
        the start and about every :data:`PROGRESS_WORK` steps of an exact enumeration
        (nothing is reported otherwise; the result is the same either way).

    Returns
    -------
    EquityResult
        Ties are shared: a k-way tie adds 1/k to each tied player's equity. Monte Carlo
        whose ranges almost never fit together returns the exact result instead
        (``method`` is then ``"exact"``; see the module docstring).

    Raises
    ------
    LowAcceptanceError
        When Monte Carlo gives up and exact enumeration is over :data:`EXACT_BUDGET`.

    Examples
    --------
    >>> r = equity(["AhAd", "random"], samples=20_000, seed=1)
    >>> str(r.method), abs(float(r.equity[0]) - 0.852) < 4 * float(r.stderr[0])
    ('mc', True)
    """
    method = Method.parse(method)
    sp = _spot(players, board, dead)
    pl, cards, deck = sp.pl, sp.cards, sp.deck
    n = len(pl.sizes)
    if method is Method.AUTO:
        exact = sp.cost.affordable and samples is None
        method = Method.EXACT if exact else Method.MC
    if method is Method.EXACT:
        return _exact(sp, progress)
    known = np.array(cards, dtype=np.int64)
    if samples is not None and samples < 2:
        raise EquityError(f"samples must be at least 2, got {samples}")
    if target_se is not None and not target_se > 0.0:
        raise EquityError(f"target_se must be positive, got {target_se}")
    cap = samples or (MAX_SAMPLES_FOR_TARGET if target_se else DEFAULT_SAMPLES)
    fixed = [p for p in range(n) if pl.sizes[p] == 1 and not pl.uniform[p]]
    randoms = [p for p in range(n) if pl.uniform[p]]
    state = rng_state(seed)
    if len(fixed) + len(randoms) == n:
        # Known hands against random hands: a rejection-free kernel; results are computed
        # in the order fixed players, then random players, and mapped back.
        idx = np.array(fixed, dtype=np.int64)
        first = pl.pc0[pl.offs[idx]]
        second = pl.pc1[pl.offs[idx]]
        fk = np.add(CARD_KEY[first], CARD_KEY[second])
        ff = np.bitwise_or(CARD_FLUSH_BIT[first], CARD_FLUSH_BIT[second])
        fk = fk.astype(np.int64)
        ff = ff.astype(np.int64)
        if n == 2 and fixed and len(cards) + len(deck) >= 7:
            # Player 0 is fixed: the heads-up kernel's fixed seven-card layout.
            dk = MC.heads_up_deck(known, deck)
            mult, thr = MC.deal_plan(len(dk), 7, len(cards))
            out = MC.monte_carlo_heads_up(
                fk, ff, known, dk, cap, target_se or 0.0, 4096, state, mult, thr
            )
        else:
            mult, thr = MC.deal_plan(len(deck), 5 - len(cards) + 2 * len(randoms), 0)
            out = MC.monte_carlo_fixed(
                fk, ff, len(randoms), known, deck, cap, target_se or 0.0, 4096, state,
                mult, thr,
            )
        order = np.array(fixed + randoms)
        win, tie, ssum, ssq = (np.empty(n) for _ in range(4))
        for dst, src in zip((win, tie, ssum, ssq), out[:4], strict=True):
            dst[order] = src
        done = out[4]
    else:
        prob, alias = K.build_alias(pl.pw, pl.offs)
        win, tie, ssum, ssq, done, attempts = MC.monte_carlo(
            pl.pc0, pl.pc1, pl.pm, prob, alias, pl.offs, pl.uniform, known, deck,
            cap, target_se or 0.0, 4096, state, MIN_ATTEMPTS, ATTEMPTS_PER_SAMPLE,
        )
        if done < cap and MC.gave_up(attempts, done, MIN_ATTEMPTS, ATTEMPTS_PER_SAMPLE):
            return _low_acceptance(sp, done, attempts, progress)
    mean = ssum / done
    var = np.maximum(ssq / done - mean * mean, 0.0) * done / max(done - 1, 1)
    return EquityResult(win / done, tie / done, mean, np.sqrt(var / done), Method.MC, done)


def _low_acceptance(
    sp: _Spot, done: int, attempts: int, progress: Callable[[int, int], None] | None
) -> EquityResult:
    # Enumeration does not mind how rarely the ranges fit together: use it if affordable.
    cost = sp.cost
    if cost.affordable:
        return _exact(sp, progress)
    raise LowAcceptanceError(done, attempts, cost)


def weights_of(dist: npt.ArrayLike) -> Range:
    """A range from any non-negative length-1,326 vector of relative weights (max scaled to 1)."""
    w = np.asarray(dist, dtype=np.float64)
    if w.shape != (NUM_COMBOS,):
        raise EquityError(f"a hand distribution must have shape (1326,), got {w.shape}")
    if not np.all(np.isfinite(w)) or (w < 0).any():
        raise EquityError("a hand distribution must be finite and non-negative")
    top = float(w.max())
    if top <= 0.0:
        raise EquityError("a hand distribution must have some positive weight")
    return Range.from_array(w / top)


@dataclass(frozen=True)
class WinProbability:
    """Our showdown odds against several opponents (the hand-reading bot's Algorithm 1)."""

    win: float
    tie: float
    lose: float
    equity: float
    stderr: float
    samples: int

    @property
    def value(self) -> float:
        """``v = W - L``."""
        return self.win - self.lose


def win_probability(
    hand: str | Sequence[int],
    opponents: Sequence[npt.ArrayLike | Range | str | None] | npt.NDArray[np.float64],
    board: str | Iterable[int | str] | None = None,
    dead: str | Iterable[int | str] | None = None,
    samples: int = 10_000,
    seed: int | np.random.Generator | None = None,
) -> WinProbability:
    """Monte Carlo win probability of ``hand`` against q opponents' predicted hand distributions.

    The hand-reading bot's Algorithm 1: N times, deal each opponent a hand from its
    distribution (a length-1,326 vector of relative weights; a ``(q, 1326)`` array works),
    complete the board, and count how often our hand wins. Deals are drawn jointly and
    without card collisions as in :func:`equity`.

    Examples
    --------
    >>> dist = np.zeros(1326); dist[Range("KK").combos()] = 1.0
    >>> p = win_probability("AsAh", [dist], samples=20_000, seed=3)
    >>> 0.78 < p.win < 0.84
    True
    """
    specs: list[PlayerSpec] = [as_range(hand) if not isinstance(hand, str) else hand]
    for opp in opponents:
        if opp is None or isinstance(opp, (str, Range)):
            specs.append(opp)
        else:
            specs.append(weights_of(opp))
    r = equity(specs, board, dead, method=Method.MC, samples=samples, seed=seed)
    w, t = float(r.win[0]), float(r.tie[0])
    return WinProbability(
        w, t, max(0.0, 1.0 - w - t), float(r.equity[0]), float(r.stderr[0]), r.samples
    )
