"""Hand strength against a random hand: v = W - L, EHS, EHS², potential, histograms, outs.

* Hand strength HS, positive and negative potential (PPot, NPot) and effective hand
  strength ``EHS = HS (1 - NPot) + (1 - HS) PPot`` follow Billings, Davidson, Schaeffer
  and Szafron, "The challenge of poker", Artificial Intelligence 134 (2002), section 5,
  with the potential table counted over every (opponent hand, runout) pair to the river.
* E[HS] and E[HS²] over the remaining board (the "expected hand strength" and its square,
  Johanson, Burch, Valenzano, Bowling, "Evaluating state-space abstractions in extensive-
  form games", AAMAS 2013) and the histogram of final equity, the input to earth mover's
  distance clustering (Johanson et al. 2013; Ganzfried & Sandholm, AAAI 2014).
* Outs as in the hand-reading bot: an unseen card is an out when dealing it next raises
  our win probability against a random hand from P0 to P1 with ``P1 - P0 >= 0.6 (1 - P0)``.
  Win probability here is equity with ties shared, through to the river.

Everything is exact on the flop, turn and river (all runouts, all opponent hands); before
the flop the runouts are sampled (``samples`` boards, seeded) and each is still resolved
against every opponent hand.

Examples
--------
>>> s = hand_strength("AsAh", "Ad7c2h")
>>> s.hs > 0.97 and s.ppot == 0.0 < s.npot
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from checkraise.cards import format_card, parse_cards
from checkraise.equity import _kernels as K
from checkraise.equity import _strength_kernels as SK
from checkraise.equity.core import EquityError, parse_board

__all__ = [
    "HandStrength",
    "billings_ehs",
    "equity_histogram",
    "final_equities",
    "hand_strength",
    "outs",
    "pot_odds",
    "probability_to_hit",
    "required_equity",
    "win_minus_lose",
]

FloatArray = npt.NDArray[np.float64]
OUT_THRESHOLD = 0.6
PREFLOP_SAMPLES = 2_000


@dataclass(frozen=True)
class HandStrength:
    """Strength of one hand against a uniformly random opponent hand.

    Attributes
    ----------
    win, tie, lose
        Showdown probabilities with the board run out to the river.
    hs
        Billings' hand strength on the current board (no more cards): P(ahead) + P(tied)/2.
    ppot, npot
        Billings' positive / negative potential to the river (0 on the river or preflop).
    ehs, ehs2
        Mean and mean square of the river equity over the runouts.
    """

    win: float
    tie: float
    lose: float
    hs: float
    ppot: float
    npot: float
    ehs: float
    ehs2: float

    @property
    def equity(self) -> float:
        """Win probability with ties shared: ``win + tie / 2``."""
        return self.win + 0.5 * self.tie

    @property
    def value(self) -> float:
        """The heuristic bots' state value ``v = W - L``."""
        return self.win - self.lose

    @property
    def billings_ehs(self) -> float:
        """``HS (1 - NPot) + (1 - HS) PPot``."""
        return billings_ehs(self.hs, self.ppot, self.npot)


def billings_ehs(hs: float, ppot: float, npot: float) -> float:
    """Effective hand strength ``HS (1 - NPot) + (1 - HS) PPot`` (Billings et al. 2002)."""
    return hs * (1.0 - npot) + (1.0 - hs) * ppot


def _hand(hand: str | Iterable[int | str]) -> tuple[int, int]:
    cards = parse_cards(hand)
    if len(cards) != 2:
        raise EquityError(f"a hand needs exactly two cards, got {len(cards)}: {hand!r}")
    return cards[0], cards[1]


@dataclass(frozen=True)
class _Runouts:
    hero: tuple[int, int]
    board: list[int]
    runouts: npt.NDArray[np.int8]
    wins: FloatArray
    ties: FloatArray
    opps: FloatArray
    hp: FloatArray


def _sweep(
    hand: str | Iterable[int | str],
    board: str | Iterable[int | str] | None,
    dead: str | Iterable[int | str] | None,
    samples: int | None,
    seed: int | np.random.Generator | None,
) -> _Runouts:
    h0, h1 = _hand(hand)
    cards, dead_mask = parse_board(board, dead)
    taken = dead_mask | (1 << h0) | (1 << h1)
    for c in cards:
        if taken >> c & 1:
            raise EquityError(f"card {format_card(c)} is both in the hand and on the board/dead")
        taken |= 1 << c
    deck = np.array([c for c in range(52) if not taken >> c & 1], dtype=np.int64)
    k = 5 - len(cards)
    if samples is None and k == 5:
        samples = PREFLOP_SAMPLES
    if samples is not None and samples < math.comb(len(deck), k):
        gen = np.random.default_rng(seed)
        runouts = np.array(
            [np.sort(gen.choice(deck, size=k, replace=False)) for _ in range(samples)],
            dtype=np.int8,
        ).reshape(samples, k)
    else:
        runouts = K.combinations(deck, k)
    known = np.array(cards, dtype=np.int64)
    wins, ties, opps, hp = SK.vs_random_runouts(h0, h1, known, dead_mask, runouts)
    return _Runouts((h0, h1), cards, runouts, wins, ties, opps, hp)


def hand_strength(
    hand: str | Iterable[int | str],
    board: str | Iterable[int | str] | None = None,
    dead: str | Iterable[int | str] | None = None,
    samples: int | None = None,
    seed: int | np.random.Generator | None = None,
) -> HandStrength:
    """Win/tie/lose, HS, PPot, NPot, E[HS] and E[HS²] of ``hand`` against a random hand.

    Exact with 3-5 board cards; preflop it samples ``samples`` (default 2,000) boards.

    Examples
    --------
    >>> s = hand_strength("7c2d", "7h7s2c")
    >>> s.hs > 0.99 and round(s.value, 2) > 0.9
    True
    """
    sw = _sweep(hand, board, dead, samples, seed)
    eq = (sw.wins + 0.5 * sw.ties) / sw.opps
    total = sw.opps.sum()
    win = float(sw.wins.sum() / total)
    tie = float(sw.ties.sum() / total)
    hp = sw.hp
    if len(sw.board) in (3, 4):
        now = hp.sum(axis=1)  # ahead, tied, behind over (opponent, runout) pairs
        hs = float((now[0] + 0.5 * now[1]) / now.sum())
        ppot_den = now[2] + 0.5 * now[1]
        npot_den = now[0] + 0.5 * now[1]
        ppot = (hp[2, 0] + 0.5 * hp[2, 1] + 0.5 * hp[1, 0]) / ppot_den if ppot_den else 0.0
        npot = (hp[0, 2] + 0.5 * hp[1, 2] + 0.5 * hp[0, 1]) / npot_den if npot_den else 0.0
    else:
        hs = float(eq.mean()) if len(sw.board) == 5 else win + 0.5 * tie
        ppot = npot = 0.0
    return HandStrength(
        win=win,
        tie=tie,
        lose=max(0.0, 1.0 - win - tie),
        hs=hs,
        ppot=float(ppot),
        npot=float(npot),
        ehs=float(eq.mean()),
        ehs2=float((eq * eq).mean()),
    )


def final_equities(
    hand: str | Iterable[int | str],
    board: str | Iterable[int | str] | None = None,
    dead: str | Iterable[int | str] | None = None,
    samples: int | None = None,
    seed: int | np.random.Generator | None = None,
) -> FloatArray:
    """River equity against a random hand on each runout (all runouts, or sampled preflop)."""
    sw = _sweep(hand, board, dead, samples, seed)
    return (sw.wins + 0.5 * sw.ties) / sw.opps


def equity_histogram(
    hand: str | Iterable[int | str],
    board: str | Iterable[int | str] | None = None,
    bins: int = 50,
    dead: str | Iterable[int | str] | None = None,
    samples: int | None = None,
    seed: int | np.random.Generator | None = None,
) -> FloatArray:
    """Share of runouts whose final equity falls in each of ``bins`` equal bins of [0, 1].

    Examples
    --------
    >>> h = equity_histogram("AsKs", "QsJsTs", bins=10)
    >>> float(h.sum()), float(h[-1])
    (1.0, 1.0)
    """
    if bins < 1:
        raise EquityError(f"bins must be at least 1, got {bins}")
    eq = final_equities(hand, board, dead, samples, seed)
    counts, _ = np.histogram(eq, bins=bins, range=(0.0, 1.0))
    return np.asarray(counts / counts.sum(), dtype=np.float64)


def win_minus_lose(
    hand: str | Iterable[int | str],
    board: str | Iterable[int | str] | None = None,
    dead: str | Iterable[int | str] | None = None,
) -> float:
    """The heuristic value ``v = P(win) - P(lose)`` against one random hand.

    Preflop (no board, no dead cards) it reads the shipped exact 169-class table.

    Examples
    --------
    >>> round(win_minus_lose("AsAh"), 3)
    0.704
    """
    if not board and not dead:
        from checkraise.equity.preflop import preflop_entry

        h0, h1 = _hand(hand)
        entry = preflop_entry(h0, h1)
        return entry.win - entry.lose
    return hand_strength(hand, board, dead).value


def outs(
    hand: str | Iterable[int | str],
    board: str | Iterable[int | str],
    dead: str | Iterable[int | str] | None = None,
    threshold: float = OUT_THRESHOLD,
) -> list[int]:
    """Unseen cards that lift our win probability P0 to P1 with P1 - P0 >= threshold (1 - P0).

    Win probability is equity (ties shared) against a random hand through to the river.
    Needs a flop or a turn; there are no outs on the river.

    Examples
    --------
    >>> sorted({format_card(c)[0] for c in outs("8s7s", "6s5d2c")})  # the straight cards
    ['4', '9']
    """
    sw = _sweep(hand, board, dead, None, None)
    n_board = len(sw.board)
    if n_board == 5:
        return []
    if n_board != 3 and n_board != 4:
        raise EquityError("outs need a flop or a turn on the board")
    eq = (sw.wins + 0.5 * sw.ties) / sw.opps
    p0 = float(eq.mean())
    card_sum = np.zeros(52)
    card_n = np.zeros(52)
    for col in range(sw.runouts.shape[1]):
        cs = sw.runouts[:, col].astype(np.int64)
        np.add.at(card_sum, cs, eq)
        np.add.at(card_n, cs, 1.0)
    result = []
    for c in range(52):
        if card_n[c] and card_sum[c] / card_n[c] - p0 >= threshold * (1.0 - p0) - 1e-12:
            result.append(c)
    return result


def pot_odds(to_call: float, pot: float) -> float:
    """Share of the final pot we put in by calling: ``to_call / (pot + to_call)``.

    ``pot`` includes every bet already made, the one we face included. Calling breaks even
    when our equity equals this.

    Examples
    --------
    >>> pot_odds(50, 150)
    0.25
    """
    if to_call < 0 or pot < 0 or to_call + pot <= 0:
        raise EquityError(f"pot odds need to_call >= 0 and pot >= 0, got {to_call}, {pot}")
    return to_call / (pot + to_call)


required_equity = pot_odds


def probability_to_hit(num_outs: int, unseen: int, cards_to_come: int) -> float:
    """P(at least one of ``num_outs`` among ``cards_to_come`` cards from ``unseen``).

    Examples
    --------
    >>> round(probability_to_hit(9, 47, 2), 4)
    0.3497
    """
    if not 0 <= num_outs <= unseen or not 0 <= cards_to_come <= unseen:
        raise EquityError(
            f"need 0 <= outs <= unseen and 0 <= cards_to_come <= unseen, got "
            f"{num_outs}, {unseen}, {cards_to_come}"
        )
    miss = math.comb(unseen - num_outs, cards_to_come) / math.comb(unseen, cards_to_come)
    return 1.0 - miss
