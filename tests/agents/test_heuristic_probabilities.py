"""The heuristic bot's action probabilities: its exact Monte Carlo law against seeded play."""

from __future__ import annotations

import dataclasses
import itertools
import math
from typing import Any

import eval7
import numpy as np
import pytest
from tests.agents.probability_states import Decision, SmallBettor, decisions

from checkraise.agents import _heuristic_probs as HP
from checkraise.agents._probability_kernels import wins_ties_vs_random
from checkraise.agents.heuristic import HeuristicAgent
from checkraise.agents.probabilities import (
    HandActionProbabilities,
    action_probabilities,
    hand_by_hand_probabilities,
    update_range,
)
from checkraise.cards import COMBO_CARDS, COMBO_MASKS, format_card, format_cards, parse_cards
from checkraise.engine import Action, Observation
from checkraise.equity.strength import hand_strength

SAMPLES = 30  # few deals: the value is noisy, so many hands have mixed actions


# ---------------------------------------------------------------------- the pieces


def _naive_counts(board: list[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Wins, ties and (runout, opponent) pairs per combo: eval7 ranks, every pair compared."""
    masks = np.array([int(m) for m in COMBO_MASKS], dtype=object)
    wins, ties, pairs = (np.zeros(1326, dtype=np.int64) for _ in range(3))
    deck = [c for c in range(52) if c not in board]
    for runout in itertools.combinations(deck, 5 - len(board)):
        full = board + list(runout)
        full_mask = sum(1 << c for c in full)
        live = [i for i in range(1326) if not masks[i] & full_mask]
        cards = [eval7.Card(format_card(c)) for c in full]
        rank = np.array(
            [eval7.evaluate(cards + [eval7.Card(format_card(int(c))) for c in COMBO_CARDS[i]])
             for i in live]
        )
        m = np.array([int(masks[i]) for i in live], dtype=np.uint64)
        disjoint = (m[:, None] & m[None, :]) == 0
        wins[live] += ((rank[:, None] > rank[None, :]) & disjoint).sum(axis=1)
        ties[live] += ((rank[:, None] == rank[None, :]) & disjoint).sum(axis=1)
        pairs[live] += disjoint.sum(axis=1)
    return wins, ties, pairs


@pytest.mark.parametrize("board", ["Ad7c2hKs7d", "5h6h7h8h9h", "QcJd2s2d"])
def test_win_tie_counts_equal_a_brute_force_count(board: str) -> None:
    cards = parse_cards(board)
    got = wins_ties_vs_random(np.array(cards, dtype=np.int64), COMBO_CARDS)
    for g, want in zip(got, _naive_counts(cards), strict=True):
        np.testing.assert_array_equal(g, want)


def test_win_tie_counts_on_the_flop_equal_hand_strength() -> None:
    board = "Ad7c2h"
    wins, ties, pairs = wins_ties_vs_random(np.array(parse_cards(board), dtype=np.int64),
                                            COMBO_CARDS)
    for hand in ("AsKc", "9s8s", "7h7s", "3c4c", "QdJd"):
        a, b = sorted(parse_cards(hand))
        i = next(k for k, (x, y) in enumerate(COMBO_CARDS) if (x, y) == (a, b))
        s = hand_strength(hand, board)
        assert wins[i] / pairs[i] == pytest.approx(s.win, abs=1e-12)
        assert ties[i] / pairs[i] == pytest.approx(s.tie, abs=1e-12)
    assert pairs[np.isin(COMBO_CARDS, parse_cards(board)).any(axis=1)].sum() == 0


def test_the_value_law_is_the_trinomial() -> None:
    n = 7
    rng = np.random.default_rng(3)
    pw = np.r_[rng.random(5) * 0.6, 1.0, 0.0, 0.0]
    pt = np.r_[rng.random(5) * 0.3, 0.0, 1.0, 0.0]
    labels = rng.integers(-1, 4, size=2 * n + 1)
    (got,) = HP.score_law_sums(pw, pt, n, [(labels, 4)])
    want = np.zeros((len(pw), 4))
    for h in range(len(pw)):
        pl = 1.0 - pw[h] - pt[h]
        for w in range(n + 1):
            for lose in range(n + 1 - w):
                t = n - w - lose
                prob = (math.factorial(n) / (math.factorial(w) * math.factorial(t)
                        * math.factorial(lose)) * pw[h] ** w * pt[h] ** t * pl ** lose)
                if labels[w - lose + n] >= 0:
                    want[h, labels[w - lose + n]] += prob
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-13)


def test_the_value_law_at_the_default_sample_count_is_the_binomial_without_ties() -> None:
    # Without ties W - L = 2W - n: the binomial law, computed here in log space.
    n = 1000
    pw = np.array([0.5, 0.9, 0.03, 0.6197])
    (got,) = HP.score_law_sums(pw, np.zeros(4), n, [(np.arange(2 * n + 1), 2 * n + 1)])
    for h, p in enumerate(pw):
        want = np.zeros(2 * n + 1)
        for w in range(n + 1):
            log = (math.lgamma(n + 1) - math.lgamma(w + 1) - math.lgamma(n - w + 1)
                   + w * math.log(p) + (n - w) * math.log1p(-p))
            want[2 * w] = math.exp(log)
        np.testing.assert_allclose(got[h], want, rtol=0, atol=1e-12)
        assert got[h].sum() == pytest.approx(1.0, abs=1e-12)


# ---------------------------------------------------------------------- the agent


@pytest.fixture(scope="module")
def played() -> list[Decision]:
    # Small bets keep the bot in the hand, so it often acts twice on a street.
    return decisions(
        7, 40, player=HeuristicAgent(seed=1, samples=SAMPLES),
        opponent=lambda seed: SmallBettor(seed=seed),
    )


def _bot(seed: int = 0) -> HeuristicAgent:
    return HeuristicAgent(seed=seed, samples=SAMPLES)


def _hole(combo: int) -> tuple[int, int]:
    return int(COMBO_CARDS[combo, 0]), int(COMBO_CARDS[combo, 1])


def test_preflop_fast_path_equals_the_hand_by_hand_fallback() -> None:
    # The preflop value is a table entry: the fallback's single act per hand is exact.
    for seats in (2, 6):
        for d in decisions(11, 4, seats=seats, player=_bot())[:3]:
            if d.obs.board:
                continue
            fast = action_probabilities(_bot(), d.obs)
            slow = hand_by_hand_probabilities(_bot(), d.obs)
            assert fast.exact and "table" in fast.note
            assert fast.actions == slow.actions
            np.testing.assert_array_equal(fast.probs, slow.probs)


def _empirical(
    d: Decision, combo: int, runs: int, seed: int
) -> tuple[dict[Action, int], int, dict[Action, int]]:
    """Seeded bots holding ``combo`` replay the street's earlier decisions, then act.

    Returns the counts of actions among the runs whose earlier actions matched the
    history, their number, and the counts of fresh bots acting at once (no memory).
    """
    seat, config, _, hand = d.begin
    hole = _hole(combo)
    cond: dict[Action, int] = {}
    marginal: dict[Action, int] = {}
    matched = 0
    for s in range(runs):
        bot = _bot(seed + s)
        bot.begin_hand(seat, config, hole, hand)
        if all(bot.act(dataclasses.replace(o, hole_cards=hole)) == a for o, a in d.earlier):
            a = bot.act(dataclasses.replace(d.obs, hole_cards=hole))
            cond[a] = cond.get(a, 0) + 1
            matched += 1
        fresh = _bot(seed + runs + s)
        fresh.begin_hand(seat, config, hole, hand)
        a = fresh.act(dataclasses.replace(d.obs, hole_cards=hole))
        marginal[a] = marginal.get(a, 0) + 1
    return cond, matched, marginal


def _earlier_probability(d: Decision) -> np.ndarray:
    """P(the street's earlier actions | hand), by the chain rule over the fast path."""
    p = np.ones(1326)
    for o, a in d.earlier:
        p *= update_range(np.ones(1326), action_probabilities(_bot(), o), a)
    return p


def _binomial_p_value(count: int, runs: int, p: float) -> float:
    """Two-sided binomial tail: the chance of a count as far out as ``count`` or further."""
    pmf = [math.comb(runs, k) * p**k * (1.0 - p) ** (runs - k) for k in range(runs + 1)]
    return min(1.0, 2.0 * min(sum(pmf[: count + 1]), sum(pmf[count:])))


ALPHA = 1e-6  # per cell: a few hundred cells, so a correct law fails about once in 10^4 runs


def _kind_probs(hap: HandActionProbabilities, combo: int) -> dict[str, float]:
    out: dict[str, float] = {}
    for k, action in enumerate(hap.actions):
        out[action.kind.value] = out.get(action.kind.value, 0.0) + float(hap.probs[combo, k])
    return out


def _kind_counts(counts: dict[Action, int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for action, c in counts.items():
        out[action.kind.value] = out.get(action.kind.value, 0) + c
    return out


def _compare(d: Decision, hap: HandActionProbabilities, hands: list[int], runs: int) -> Any:
    """Every action's and every action kind's frequency against the fast path's probability.

    Returns how many kind cells were seen mixed (which no 0/1 model, a bot acting on a
    point value, passes), and whether fresh bots without the street's memory were seen
    to act otherwise.
    """
    mixed = 0
    conditioning_seen = False
    for n, combo in enumerate(hands):
        cond, matched, marginal = _empirical(d, combo, runs, seed=1000 * n)
        assert matched >= runs // 4
        assert set(cond) <= set(hap.actions)
        for k, action in enumerate(hap.actions):
            p = float(hap.probs[combo, k])
            c = cond.get(action, 0)
            assert _binomial_p_value(c, matched, p) > ALPHA, (combo, str(action), p, c, matched)
        kinds, counts, fresh = _kind_probs(hap, combo), _kind_counts(cond), _kind_counts(marginal)
        for kind, p in kinds.items():
            c = counts.get(kind, 0)
            assert _binomial_p_value(c, matched, p) > ALPHA, (combo, kind, p, c, matched)
            # A bot acting on a point value gives 0/1 rows: a mixed count rejects it.
            mixed += 0 < c < matched
            if _binomial_p_value(fresh.get(kind, 0), runs, p) < ALPHA:
                conditioning_seen = True
    return mixed, conditioning_seen


def _most_mixed(hap: HandActionProbabilities, allowed: np.ndarray, count: int) -> list[int]:
    """The allowed hands whose most likely action kind is least likely (most mixed)."""
    by_kind = np.zeros((1326, 3))
    for k, action in enumerate(hap.actions):
        by_kind[:, ["fold", "call", "raise"].index(action.kind.value)] += hap.probs[:, k]
    spread = np.where(allowed, 1.0 - by_kind.max(axis=1), -1.0)
    return [int(i) for i in np.argsort(-spread, kind="stable")[:count]]


def test_postflop_probabilities_match_seeded_play_first_decisions(played: list[Decision]) -> None:
    firsts = [d for d in played if d.obs.board and not d.earlier]
    chosen = [next(d for d in firsts if len(d.obs.board) == k) for k in (3, 4, 5)]
    mixed = 0
    for d in chosen:
        hap = action_probabilities(_bot(), d.obs)
        assert hap.exact and "0 earlier" in hap.note
        live = hap.probs.sum(axis=1) > 0
        hands = _most_mixed(hap, live, 4)
        m, _ = _compare(d, hap, hands, runs=250)
        mixed += m
    assert mixed >= 12  # the test tells the law from a point mass on many cells


def test_postflop_probabilities_are_conditioned_on_the_streets_earlier_actions(
    played: list[Decision],
) -> None:
    later = [d for d in played if d.obs.board and d.earlier]
    assert later
    mixed = 0
    conditioning_seen = False
    for d in later[:3]:
        hap = action_probabilities(_bot(), d.obs)
        assert f"{len(d.earlier)} earlier" in hap.note
        likely = _earlier_probability(d) >= 0.3
        hands = _most_mixed(hap, likely, 3)
        m, seen = _compare(d, hap, hands, runs=250)
        mixed += m
        conditioning_seen |= seen
    assert mixed >= 4
    # Fresh bots (no memory of the street) act measurably otherwise: the conditioning matters.
    assert conditioning_seen


class _FixedValue(HeuristicAgent):
    """The heuristic policy acting on a value set from outside."""

    fixed = 0.0

    def value(self, observation: Observation) -> float:
        return self.fixed


def test_range_tracking_over_a_street_equals_a_brute_force_bayes_update(
    played: list[Decision],
) -> None:
    # Chain of update_range over the street's actions = prior x P(all of them | hand),
    # the joint summed plainly over every (wins, ties, losses) of the bot's SAMPLES deals.
    d = next(d for d in played if d.obs.board and d.earlier)
    hap = action_probabilities(_bot(), d.obs)
    steps = [(o, a) for o, a in d.earlier] + [(d.obs, hap.actions[0])]
    rng = np.random.default_rng(4)
    prior = rng.random(1326)
    tracked = prior.copy()
    for o, a in steps:
        tracked = update_range(tracked, action_probabilities(_bot(), o), a)
    policy = _FixedValue(seed=0, samples=SAMPLES)
    n = SAMPLES
    board = format_cards(d.obs.board, "")
    live = np.flatnonzero(~np.isin(COMBO_CARDS, d.obs.board).any(axis=1))
    joints: list[float] = []
    for combo in rng.choice(live, size=12, replace=False):
        s = hand_strength(format_cards(_hole(int(combo)), ""), board)
        joint = 0.0
        for w in range(n + 1):
            for lose in range(n + 1 - w):
                t = n - w - lose
                policy.fixed = (w - lose) / n
                if all(policy.act(o) == a for o, a in steps):
                    joint += (math.comb(n, w) * math.comb(n - w, lose)
                              * s.win**w * s.tie**t * s.lose**lose)
        assert tracked[combo] == pytest.approx(prior[combo] * joint, rel=1e-9, abs=1e-12)
        joints.append(joint)
    assert sum(0.01 < j < 0.99 for j in joints) >= 3  # mixed hands, not only 0/1 ones


def test_multiway_postflop_falls_back_to_hand_by_hand_and_says_so() -> None:
    d = next(
        d for d in decisions(5, 20, seats=3, player=_bot(2))
        if d.obs.board and sum(not f for f in d.obs.folded) >= 3
    )
    bot = _bot(3)
    assert bot.action_probabilities(d.obs) is None
    hap = action_probabilities(bot, d.obs)
    assert not hap.exact and "stochastic" in hap.note


def test_fast_path_does_not_change_the_agent(played: list[Decision]) -> None:
    d = next(d for d in played if d.obs.board)
    bot, twin = _bot(4), _bot(4)
    for agent in (bot, twin):
        agent.begin_hand(*d.begin)
    action_probabilities(bot, d.obs)
    assert bot.act(d.obs) == twin.act(d.obs)
    assert bot.last_value == twin.last_value


def test_rows_of_the_heuristic_are_distributions(played: list[Decision]) -> None:
    for d in [d for d in played if d.obs.board][:5]:
        hap = action_probabilities(_bot(), d.obs)
        dead = np.isin(COMBO_CARDS, d.obs.board).any(axis=1)
        assert np.all(hap.probs[dead] == 0)
        np.testing.assert_allclose(hap.probs[~dead].sum(axis=1), 1.0, rtol=0, atol=1e-12)

