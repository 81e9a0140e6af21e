"""numba kernels of the win-rate heuristic bot: state value, the four-mode policy, self-play.

* :func:`value_vs_random` — ``v = P(win) - P(lose)`` of a hand against ``n`` uniformly
  random opponent hands over the rest of the board, by Monte Carlo: each sample deals
  the missing board cards and the opponents' cards by a partial Fisher-Yates shuffle of
  the live deck, and counts a win when the hand beats every opponent, a loss when some
  opponent beats it (a tie for best counts as neither).
* :func:`decide` — the policy of the bot (see :mod:`checkraise.agents.heuristic`): pick
  one of four modes from the cut points ``x < y < z`` and act on the two cubics
  ``p(v)`` (most it will pay) and ``q(v)`` (the total it wants to bet to).
* :func:`play_duplicate` — heads-up self-play of two parameter sets over many deals
  whose values and showdown outcomes were computed beforehand (:func:`deal_values`),
  each deal played twice with the seats swapped. Its betting rules are the engine's
  casino no-limit rules specialised to two equal stacks (minimum raise by the larger of
  the big blind and the last raise; a short all-in can only be called), checked hand
  by hand against :class:`checkraise.engine.State` in the tests.

Hands are ranked with the evaluator's additive keys (``CARD_KEY``, ``rank_from_key``);
random numbers come from the xoshiro256** generator of :mod:`checkraise.equity._kernels`
with its state passed in, so results depend only on the seed.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from checkraise._numba import njit
from checkraise.equity._kernels import rng_below
from checkraise.evaluator._kernels import CARD_FLUSH_BIT, CARD_KEY, rank_from_key

FOLD = 0
CALL = 1
RAISE = 2

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
U64 = npt.NDArray[np.uint64]
I8 = npt.NDArray[np.int8]

# Offsets of one street's 11 parameters: cut points, then the cubics' coefficients.
X, Y, Z, P0, Q0 = 0, 1, 2, 3, 7
PARAMS_PER_STREET = 11


@njit
def value_vs_random(
    h0: int, h1: int, board: I64, n_board: int, n_opp: int, samples: int, state: U64
) -> float:
    """``P(win) - P(lose)`` of ``h0 h1`` against ``n_opp`` random hands (Monte Carlo).

    ``board[:n_board]`` are the known board cards; ``state`` is a xoshiro256** state.
    """
    used = (1 << h0) | (1 << h1)
    for i in range(n_board):
        used |= 1 << board[i]
    deck = np.empty(52, dtype=np.int64)
    m = 0
    for c in range(52):
        if not (used >> c) & 1:
            deck[m] = c
            m += 1
    missing = 5 - n_board
    need = missing + 2 * n_opp
    bkey0 = 0
    bfm0 = 0
    for i in range(n_board):
        bkey0 += CARD_KEY[board[i]]
        bfm0 |= CARD_FLUSH_BIT[board[i]]
    hkey = CARD_KEY[h0] + CARD_KEY[h1]
    hfm = CARD_FLUSH_BIT[h0] | CARD_FLUSH_BIT[h1]
    score = 0
    for _ in range(samples):
        # A partial shuffle of any arrangement leaves a uniform sequence in front.
        for i in range(need):
            j = i + rng_below(state, m - i)
            t = deck[i]
            deck[i] = deck[j]
            deck[j] = t
        bkey = bkey0
        bfm = bfm0
        for i in range(missing):
            bkey += CARD_KEY[deck[i]]
            bfm |= CARD_FLUSH_BIT[deck[i]]
        hero = rank_from_key(bkey + hkey, bfm | hfm)
        best = 0
        for o in range(n_opp):
            a = deck[missing + 2 * o]
            b = deck[missing + 2 * o + 1]
            r = rank_from_key(
                bkey + CARD_KEY[a] + CARD_KEY[b], bfm | CARD_FLUSH_BIT[a] | CARD_FLUSH_BIT[b]
            )
            if r > best:
                best = r
        if hero > best:
            score += 1
        elif hero < best:
            score -= 1
    return float(score / samples)


@njit
def pot_share_value(v: float, opponents: int) -> float:
    """The value ``v = P(win) - P(lose)`` rescaled to a pot contested by ``opponents``.

    ``(1 + v) / 2`` is the hand's share of the pot when ties are split evenly (exact
    heads-up, and multi-way ties are rare); when every one of the ``opponents + 1``
    players still in has put the same amount ``s`` in, calling down returns
    ``s ((opponents + 1) (1 + v) / 2 - 1)``. That return per chip is the value the
    policy reads: heads-up it is ``v`` itself (returned unchanged, bit for bit), and
    with more opponents a hand that beats its fair share of the field scores above 0,
    where ``v`` itself falls below 0 for every hand against five or more random hands.
    It is capped at 1, the top of the cut points' range.
    """
    if opponents <= 1:
        return v
    u = 0.5 * (opponents + 1) * (1.0 + v) - 1.0
    return u if u < 1.0 else 1.0


@njit
def cubic(prm: F64, at: int, v: float) -> float:
    """``prm[at] + prm[at+1] v + prm[at+2] v^2 + prm[at+3] v^3`` (Horner)."""
    return float(prm[at] + v * (prm[at + 1] + v * (prm[at + 2] + v * prm[at + 3])))


@njit
def mode_of(prm: F64, v: float) -> int:
    """Mode 0 (give up), 1 (wait and see), 2 (raise to q) or 3 (bet to the end)."""
    if v < prm[X]:
        return 0
    if v < prm[Y]:
        return 1
    if v < prm[Z]:
        return 2
    return 3


@njit
def decide(
    prm: F64, v: float, bet_level: int, can_check: bool,
    min_to: int, max_to: int, big_blind: int,
) -> tuple[int, int]:
    """One decision: ``(kind, raise_to)`` with kind FOLD, CALL (check or call) or RAISE.

    ``prm`` holds one street's 11 parameters; ``bet_level`` is the total contribution
    that calling commits (the bet to match, ACPC raise-to convention); ``min_to`` is
    ``-1`` when raising is not allowed. ``p`` and ``q`` are in big blinds.
    """
    mode = mode_of(prm, v)
    if mode == 0:
        return (CALL, 0) if can_check else (FOLD, 0)
    pay = cubic(prm, P0, v) * big_blind
    if mode >= 2 and min_to >= 0:
        target = cubic(prm, Q0, v) * big_blind
        if min_to <= target:
            to = int(np.floor(target + 0.5))
            to = min(max(to, min_to), max_to)
            return RAISE, to
        if mode == 3:
            # Re-raised past q(v): double the bet to match, so the pot races to all-in.
            to = min(max(2 * bet_level, min_to), max_to)
            return RAISE, to
    if can_check or mode == 3 or bet_level <= pay:
        return CALL, 0
    return FOLD, 0


@njit
def _play_hand(
    v0: F64, v1: F64, outcome: int, prm0: F64, prm1: F64, stack: int, sb: int, bb: int
) -> int:
    """Net chips of seat 0 (button, small blind) in one heads-up hand with equal stacks."""
    con = np.zeros(2, dtype=np.int64)
    stk = np.zeros(2, dtype=np.int64)
    con[0] = min(sb, stack)
    con[1] = min(bb, stack)
    stk[0] = stack - con[0]
    stk[1] = stack - con[1]
    mx = max(con[0], con[1])
    for rnd in range(4):
        if stk[0] == 0 or stk[1] == 0:
            break  # someone is all-in and called: the board runs out
        minr = 0
        pending = 3
        p = 0 if rnd == 0 else 1
        while pending:
            o = 1 - p
            owe = mx - con[p]
            can_check = owe <= 0
            # Raising needs chips beyond the call and an opponent who can still match more.
            if stk[p] > owe and con[o] + stk[o] > mx:
                total = con[p] + stk[p]
                min_to = mx + (minr if minr > bb else bb)
                if min_to > total:
                    min_to = total
                max_to = total
            else:
                min_to = -1
                max_to = -1
            prm = prm0[rnd] if p == 0 else prm1[rnd]
            v = v0[rnd] if p == 0 else v1[rnd]
            kind, to = decide(prm, v, con[p] + min(max(owe, 0), stk[p]), can_check,
                              min_to, max_to, bb)
            if kind == FOLD:
                return int(-con[0] if p == 0 else con[1])
            if kind == CALL:
                pay = min(max(owe, 0), stk[p])
                con[p] += pay
                stk[p] -= pay
                pending &= ~(1 << p)
            else:
                by = to - mx
                if by >= minr:
                    minr = by
                stk[p] -= to - con[p]
                con[p] = to
                mx = to
                pending = (1 << o) if stk[o] > 0 else 0
            if stk[0] == 0 and stk[1] == 0:
                pending = 0
            p = o
    if outcome > 0:
        return int(con[1])
    if outcome < 0:
        return int(-con[0])
    return 0


@njit
def play_duplicate(
    values: F64, outcome: I8, prm_a: F64, prm_b: F64, stack: int, sb: int, bb: int
) -> F64:
    """Chips won by ``prm_a`` per deal, summed over the two seatings against ``prm_b``.

    ``values[d, s, r]`` is the value of seat ``s``'s cards on street ``r`` of deal ``d``
    and ``outcome[d]`` the showdown (+1 seat 0 wins, -1 seat 1 wins, 0 split).
    """
    n = values.shape[0]
    out = np.zeros(n)
    for d in range(n):
        first = _play_hand(values[d, 0], values[d, 1], outcome[d], prm_a, prm_b, stack, sb, bb)
        second = _play_hand(values[d, 0], values[d, 1], outcome[d], prm_b, prm_a, stack, sb, bb)
        out[d] = first - second
    return out


@njit
def deal_values(
    decks: I64, preflop: F64, samples: int, state: U64
) -> tuple[F64, I8]:
    """Per deal: each seat's value on each street against one random hand, and the showdown.

    ``decks[d]`` lists seat 0's two cards, seat 1's two, then the five board cards;
    ``preflop[a, b]`` is the preflop value of the hand ``{a, b}``.
    """
    n = decks.shape[0]
    values = np.zeros((n, 2, 4))
    outcome = np.zeros(n, dtype=np.int8)
    board = np.empty(5, dtype=np.int64)
    counts = (0, 3, 4, 5)
    for d in range(n):
        for i in range(5):
            board[i] = decks[d, 4 + i]
        for s in range(2):
            a = decks[d, 2 * s]
            b = decks[d, 2 * s + 1]
            values[d, s, 0] = preflop[a, b]
            for r in range(1, 4):
                values[d, s, r] = value_vs_random(a, b, board, counts[r], 1, samples, state)
        bkey = 0
        bfm = 0
        for i in range(5):
            bkey += CARD_KEY[board[i]]
            bfm |= CARD_FLUSH_BIT[board[i]]
        r0 = rank_from_key(bkey + CARD_KEY[decks[d, 0]] + CARD_KEY[decks[d, 1]],
                           bfm | CARD_FLUSH_BIT[decks[d, 0]] | CARD_FLUSH_BIT[decks[d, 1]])
        r1 = rank_from_key(bkey + CARD_KEY[decks[d, 2]] + CARD_KEY[decks[d, 3]],
                           bfm | CARD_FLUSH_BIT[decks[d, 2]] | CARD_FLUSH_BIT[decks[d, 3]])
        outcome[d] = 1 if r0 > r1 else (-1 if r0 < r1 else 0)
    return values, outcome


@njit
def preflop_values_mc(
    hands: I64, n_opp: int, samples: int, state: U64
) -> F64:
    """Monte Carlo ``P(win) - P(lose)`` of each hand ``hands[k]`` against ``n_opp`` hands."""
    out = np.zeros(hands.shape[0])
    board = np.empty(5, dtype=np.int64)
    for k in range(hands.shape[0]):
        out[k] = value_vs_random(hands[k, 0], hands[k, 1], board, 0, n_opp, samples, state)
    return out


# ---------------------------------------------------------------------- ring games


@njit
def _next_seat(pending: int, after: int, n: int) -> int:
    """The first seat after ``after`` (cyclically) whose bit is set in ``pending``."""
    for j in range(1, n + 1):
        s = (after + j) % n
        if (pending >> s) & 1:
            return s
    return -1


@njit
def _ring_hand(
    vals: F64, ranks: I64, hero: int, prm_hero: F64, prm_opp: F64,
    share_hero: bool, share_opp: bool, stack: int, sb: int, bb: int,
) -> int:
    """Net chips of seat ``hero`` in one hand at ``n`` equal stacks, every other seat ``prm_opp``.

    Seat 0 posts the small blind, seat 1 the big blind and seat ``n - 1`` is the button
    (the engine's :meth:`~checkraise.engine.TableConfig.nolimit` seating); the betting
    is the engine's casino no-limit rules: minimum raise by the larger of the big blind
    and the last full raise, and an incomplete all-in raise does not reopen the betting
    for seats that already acted. ``vals[s, r, k - 1]`` is seat ``s``'s value on street
    ``r`` against ``k`` hands (the bot values against the seats still in), ``ranks[s]``
    its showdown rank; ``share_hero``/``share_opp`` say whether a profile reads the
    value as :func:`pot_share_value`. As the stacks are equal, an all-in seat has put in the most
    anyone can, so there are no side pots: one pot, split among the best ranks with the
    odd chips to the first winner left of the button.
    """
    n = ranks.shape[0]
    kmax = vals.shape[2]
    con = np.zeros(n, dtype=np.int64)
    stk = np.zeros(n, dtype=np.int64)
    folded = np.zeros(n, dtype=np.bool_)
    con[0] = min(sb, stack)
    con[1] = min(bb, stack)
    active = 0
    for i in range(n):
        stk[i] = stack - con[i]
        if stk[i] > 0:
            active |= 1 << i
    mx = max(con[0], con[1])
    nlive = n
    # Heads-up the button posts the small blind and acts first only before the flop.
    first_pre = 0 if n == 2 else 2
    first_post = 1 if n == 2 else 0
    for rnd in range(4):
        if rnd > 0:
            cnt = 0
            for i in range(n):
                cnt += (active >> i) & 1
            if cnt < 2:
                break  # fewer than two seats can bet: the board runs out
        minr = 0
        shorts = 0
        acted = 0
        pending = active
        first = first_pre if rnd == 0 else first_post
        p = _next_seat(pending, first - 1, n)
        while pending:
            bit = 1 << p
            owe = mx - con[p]
            call_amt = owe if owe < stk[p] else stk[p]
            min_to = -1
            max_to = -1
            if stk[p] > owe and not (owe < minr or (shorts > 0 and (acted >> p) & 1)):
                other = False
                for i in range(n):
                    if i != p and not folded[i] and con[i] + stk[i] > mx:
                        other = True
                if other:
                    total = con[p] + stk[p]
                    lo = mx + (minr if minr > bb else bb)
                    min_to = lo if lo < total else total
                    max_to = total
            k = nlive - 1
            if k < 1:
                k = 1
            if k > kmax:
                k = kmax
            prm = prm_hero[rnd] if p == hero else prm_opp[rnd]
            v = vals[p, rnd, k - 1]
            if share_hero if p == hero else share_opp:
                v = pot_share_value(v, k)
            kind, to = decide(prm, v, con[p] + call_amt, owe <= 0, min_to, max_to, bb)
            if kind == FOLD and owe > 0:
                folded[p] = True
                active &= ~bit
                pending &= ~bit
                nlive -= 1
            elif kind == RAISE:
                by = to - mx
                fr = minr
                if by >= fr:
                    acted = 0
                    minr = by
                    fr = by
                stk[p] -= to - con[p]
                con[p] = to
                if stk[p] == 0:
                    active &= ~bit
                    shorts += by
                    if shorts >= fr:
                        shorts = 0
                else:
                    shorts = 0
                mx = to
                pending = active & ~bit
            else:
                if owe > 0:
                    pay = owe
                    if owe >= stk[p]:
                        pay = stk[p]
                        active &= ~bit
                    stk[p] -= pay
                    con[p] += pay
                pending &= ~bit
            acted |= bit
            if nlive == 1:
                break
            if pending:
                p = _next_seat(pending, p, n)
        if nlive == 1:
            break
    pot = 0
    for i in range(n):
        pot += con[i]
    if nlive == 1:
        return int(pot - con[hero]) if not folded[hero] else int(-con[hero])
    if folded[hero]:
        return int(-con[hero])
    best = -1
    for i in range(n):
        if not folded[i] and ranks[i] > best:
            best = ranks[i]
    if ranks[hero] != best:
        return int(-con[hero])
    button = 0 if n == 2 else n - 1
    winners = 0
    first_winner = -1
    for j in range(1, n + 1):
        s = (button + j) % n
        if not folded[s] and ranks[s] == best:
            winners += 1
            if first_winner < 0:
                first_winner = s
    share = pot // winners
    if hero == first_winner:
        share += pot - share * winners
    return int(share - con[hero])


@njit
def play_ring(
    values: F64, ranks: I64, prm_a: F64, prm_b: F64, share_a: bool, share_b: bool,
    stack: int, sb: int, bb: int,
) -> I64:
    """``out[d, s]``: chips won by ``prm_a`` in seat ``s`` of deal ``d``, the other seats ``prm_b``.

    ``values[d, s, r, k - 1]`` is the value of seat ``s``'s cards on street ``r`` of
    deal ``d`` against ``k`` random hands and ``ranks[d, s]`` its showdown rank;
    ``share_a``/``share_b`` whether each profile reads the :func:`pot_share_value`.
    """
    nd = values.shape[0]
    n = values.shape[1]
    out = np.zeros((nd, n), dtype=np.int64)
    for d in range(nd):
        for s in range(n):
            out[d, s] = _ring_hand(
                values[d], ranks[d], s, prm_a, prm_b, share_a, share_b, stack, sb, bb
            )
    return out


@njit
def ring_deal_values(
    decks: I64, preflop: F64, seats: int, samples: int, state: U64
) -> tuple[F64, I64]:
    """Each seat's value per street against 1..seats-1 random hands, and its showdown rank.

    ``decks[d]`` lists the seats' hole cards (two each, seat 0 first) then the five
    board cards; ``preflop[k - 1, a, b]`` is the preflop value of ``{a, b}`` against
    ``k`` hands.
    """
    n = decks.shape[0]
    kmax = seats - 1
    values = np.zeros((n, seats, 4, kmax))
    ranks = np.zeros((n, seats), dtype=np.int64)
    board = np.empty(5, dtype=np.int64)
    counts = (0, 3, 4, 5)
    for d in range(n):
        bkey = 0
        bfm = 0
        for i in range(5):
            board[i] = decks[d, 2 * seats + i]
            bkey += CARD_KEY[board[i]]
            bfm |= CARD_FLUSH_BIT[board[i]]
        for s in range(seats):
            a = decks[d, 2 * s]
            b = decks[d, 2 * s + 1]
            for k in range(1, kmax + 1):
                values[d, s, 0, k - 1] = preflop[k - 1, a, b]
                for r in range(1, 4):
                    values[d, s, r, k - 1] = value_vs_random(
                        a, b, board, counts[r], k, samples, state
                    )
            ranks[d, s] = rank_from_key(bkey + CARD_KEY[a] + CARD_KEY[b],
                                        bfm | CARD_FLUSH_BIT[a] | CARD_FLUSH_BIT[b])
    return values, ranks
