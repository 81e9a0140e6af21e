"""Abstract HUNL as a ``games/`` game: chance, buckets and returns checked independently.

The pooled game's returns are checked against a brute-force mean over the pool's
deals, each showdown ranked by eval7 on the pool's cards (not the pool's winner
array); its buckets against the abstraction's own lookup (``Abstraction.bucket``,
another kernel than the pool's), coarsened and composed for recall in the test.
"""

from __future__ import annotations

import random

import eval7
import numpy as np
import pytest

from checkraise.cards import format_card, parse_cards
from checkraise.errors import ConfigError
from checkraise.games import build_tree
from checkraise.games.base import IllegalActionError
from checkraise.games.holdem import CALL, FOLD, RAISE, SHOWDOWN, HoldemRules
from checkraise.games.holdem_game import HoldemCards, HoldemGame, HoldemState
from checkraise.games.tree import CHANCE_KIND, GameTree

BUCKETS = (2, 2, 2, 2)


@pytest.fixture(scope="module")
def pooled() -> HoldemGame:
    return HoldemGame(
        "tiny",
        HoldemRules(stack=400),
        HoldemCards(buckets=BUCKETS, recall=True, deals=300, deal_seed=1),
    )


@pytest.fixture(scope="module")
def pooled_tree(pooled: HoldemGame) -> GameTree:
    return build_tree(pooled)


def _rank(cards: list[int]) -> int:
    return int(eval7.evaluate([eval7.Card(format_card(c)) for c in cards]))


def _naive_buckets(cards: HoldemCards, deal: list[int]) -> list[list[int]]:
    """Per position the four streets' buckets, from ``Abstraction.bucket`` and the coarse map."""
    board_at = (0, 3, 4, 5)
    out = []
    for p in range(2):
        hole = deal[2 * p : 2 * p + 2]
        seq: list[int] = []
        for street in range(4):
            raw = cards.abstraction.bucket(street, hole, deal[4 : 4 + board_at[street]])
            c = int(cards.coarse[street, raw])
            seq.append(seq[-1] * cards.buckets[street] + c if cards.recall and street else c)
        out.append(seq)
    return out


def test_chance_probabilities_sum_to_one(pooled_tree: GameTree) -> None:
    chance = np.flatnonzero(pooled_tree.kind == CHANCE_KIND)
    assert chance.shape[0] > 10
    for node in chance:
        start, count = pooled_tree.child_start[node], pooled_tree.child_count[node]
        assert pooled_tree.prob[start : start + count].sum() == pytest.approx(1.0, abs=1e-12)
        assert (pooled_tree.prob[start : start + count] > 0).all()


def test_pool_buckets_match_the_abstraction_lookup(pooled: HoldemGame) -> None:
    deals, buckets, winner = pooled.cards.pool
    assert deals.shape == (300, 9) and buckets.shape == (300, 2, 4)
    for i in range(40):
        deal = [int(c) for c in deals[i]]
        assert len(set(deal)) == 9
        assert buckets[i].tolist() == _naive_buckets(pooled.cards, deal)
    # recall: a later street's code carries the earlier ones
    k = np.asarray(BUCKETS)
    for s in range(1, 4):
        assert (buckets[:, :, s] // k[s] == buckets[:, :, s - 1]).all()
    # the same seed gives the same pool; another seed another
    again = HoldemCards(buckets=BUCKETS, recall=True, deals=300, deal_seed=1).pool[0]
    other = HoldemCards(buckets=BUCKETS, recall=True, deals=300, deal_seed=2).pool[0]
    assert np.array_equal(again, deals) and not np.array_equal(other, deals)
    _ = winner


def test_returns_equal_a_brute_force_mean_over_the_pool(pooled: HoldemGame) -> None:
    deals, buckets, _ = pooled.cards.pool
    n = deals.shape[0]
    # the showdown winner of each deal by eval7 on the pool's cards
    sign = np.zeros(n)
    for i in range(n):
        d = [int(c) for c in deals[i]]
        r0, r1 = _rank(d[0:2] + d[4:9]), _rank(d[2:4] + d[4:9])
        sign[i] = 1.0 if r0 > r1 else -1.0 if r1 > r0 else 0.0
    rng = random.Random(7)
    seen = {"fold": 0, "river": 0, "early": 0}
    for _ in range(120):
        state: HoldemState = pooled.initial_state()
        reach = 1.0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                o, pr = rng.choices(outcomes, weights=[p for _, p in outcomes])[0]
                reach *= pr
                state = state.child(o)
            else:
                # lean to check/call so that many paths reach the river
                acts = [int(pooled.tree.act_kind[c]) for c in pooled.tree.children(state.node)]
                a = acts.index(CALL) if rng.random() < 0.7 else rng.randrange(len(acts))
                state = state.child(a)
        # the deals still consistent with every bucket dealt so far
        ok = np.ones(n, dtype=bool)
        for street in range(len(state.buckets[0])):
            ok &= buckets[:, 0, street] == state.buckets[0][street]
            ok &= buckets[:, 1, street] == state.buckets[1][street]
        # the chance probabilities along the path are the share of those deals
        assert reach == pytest.approx(ok.sum() / n, rel=1e-9)
        tree = pooled.tree
        c = tree.committed[state.node]
        ret = state.returns()
        assert ret[0] == -ret[1]
        if tree.kind[state.node] == FOLD:
            seen["fold"] += 1
            folder = int(tree.player[state.node])
            assert ret[folder] == -float(c[folder])
            continue
        assert tree.kind[state.node] == SHOWDOWN and c[0] == c[1]
        seen["river" if len(state.buckets[0]) == 4 else "early"] += 1
        assert ret[0] == pytest.approx(float(c[0]) * sign[ok].mean(), abs=1e-9)
    assert min(seen.values()) >= 5, seen


def test_information_sets_see_own_bucket_and_the_line(pooled: HoldemGame) -> None:
    state = pooled.initial_state()
    outcome = state.chance_outcomes()[0][0]
    state = state.child(outcome)
    b0, b1 = divmod(outcome, BUCKETS[0])
    assert state.information_set_key() == f"0|{b0}|"
    assert state.information_set_key(1) == f"1|{b1}|"
    state = state.child(1)  # the small blind limps
    assert state.information_set_key() == f"1|{b1}|c"
    with pytest.raises(IllegalActionError, match="action 9 is not legal"):
        state.child(9)
    with pytest.raises(IllegalActionError, match="chance outcome 99 is not possible"):
        pooled.initial_state().child(99)


def test_coarse_buckets_are_monotone_in_the_bucket_mean() -> None:
    cards = HoldemCards(buckets=(8, 5, 3, 2))
    for s, street in enumerate(("preflop", "flop", "turn", "river")):
        n = cards.abstraction.buckets[s]
        mean = cards.abstraction.arrays[f"{street}_mean"]
        size = cards.abstraction.arrays[f"{street}_size"]
        coarse = cards.coarse[s, :n]
        order = np.argsort(mean, kind="stable")
        assert (np.diff(coarse[order]) >= 0).all(), street
        k = cards.buckets[s]
        assert set(coarse.tolist()) == set(range(k))
        # equal-frequency groups, up to one fine bucket's weight
        share = np.bincount(coarse, weights=size, minlength=k) / size.sum()
        assert np.abs(share - 1 / k).max() <= size.max() / size.sum() + 1e-9, street
    full = HoldemCards()
    assert full.buckets == full.abstraction.buckets
    assert (full.coarse[1, :200] == np.arange(200)).all()


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"buckets": (2, 2, 2)}, "buckets=(2, 2, 2)"),
        ({"buckets": (2, 0, 2, 2)}, "buckets=(2, 0, 2, 2)"),
        ({"buckets": (170, 2, 2, 2)}, "buckets=(170, 2, 2, 2)"),
        ({"deals": -1}, "deals=-1"),
        ({"deals": 2.5}, "deals=2.5"),
        ({"buckets": 4}, "buckets=4"),
        ({"buckets": (True, 2, 2, 2)}, "buckets=(True, 2, 2, 2)"),
        ({"deal_seed": "one"}, "deal_seed='one'"),
    ],
)
def test_bad_cards_name_the_value(kwargs: dict[str, object], named: str) -> None:
    with pytest.raises(ConfigError) as err:
        HoldemCards(**kwargs)  # type: ignore[arg-type]
    assert named in str(err.value)


def test_card_level_game_deals_real_cards_and_pays_by_the_evaluator() -> None:
    game = HoldemGame("tiny", HoldemRules(stack=400), HoldemCards(buckets=BUCKETS, recall=True))
    state = game.initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [c for c, _ in outcomes] == list(range(52))
    assert all(p == pytest.approx(1 / 52) for _, p in outcomes)
    # AsAd against KcKh; the board 2c 7d 9h / Js / 3s pairs nobody: aces win
    deal = parse_cards("As Ad Kc Kh 2c 7d 9h Js 3s")
    for card in deal[:4]:
        assert state.is_chance_node()
        state = state.child(card)
    assert not state.is_chance_node() and state.current_player() == 0
    naive = _naive_buckets(game.cards, deal)
    assert state.buckets == ((naive[0][0],), (naive[1][0],))
    assert len(state.chance_outcomes()) == 0
    with pytest.raises(IllegalActionError, match="action 5 is not legal"):
        state.child(5)  # four actions here: fold, call, raise, all-in
    # check it down: c c (flop) c c (turn) c c (river) c c
    for street in range(4):
        if street:
            assert len(state.chance_outcomes()) == 52 - len(state.cards)
            for card in deal[4 + (0, 3, 4)[street - 1] : 4 + (3, 4, 5)[street - 1]]:
                state = state.child(card)
            assert state.buckets[0] == tuple(naive[0][: street + 1])
            assert state.buckets[1] == tuple(naive[1][: street + 1])
        for _ in range(2):
            kinds = [int(game.tree.act_kind[c]) for c in game.tree.children(state.node)]
            state = state.child(kinds.index(CALL))
    assert state.is_terminal()
    assert state.returns() == [100.0, -100.0]
    # all-in preflop and called: chance runs the board out, the kings hit a king
    state = game.initial_state()
    for card in deal[:4]:
        state = state.child(card)
    kinds = [int(game.tree.act_kind[c]) for c in game.tree.children(state.node)]
    state = state.child(len(kinds) - 1)  # all-in (last)
    assert game.tree.act_kind[state.node] == RAISE and game.tree.act_to[state.node] == 400
    state = state.child(1)  # call
    for card in parse_cards("2c 7d Kd Js 3s"):
        assert state.is_chance_node()
        state = state.child(card)
    assert state.is_terminal() and state.returns() == [-400.0, 400.0]


@pytest.mark.parametrize(("buckets", "recall"), [(BUCKETS, True), (None, False)])
def test_combo_buckets_the_bot_reads_equal_the_buckets_training_met(
    buckets: tuple[int, ...] | None, recall: bool
) -> None:
    # the bot reads its bucket from combo_buckets (all 1,326 hands on a board), the trainer
    # from deal_buckets (one deal): both against the abstraction's own lookup
    from checkraise.cards import COMBO_CARDS

    cards = HoldemCards(buckets=buckets, recall=recall)
    rng = random.Random(7)
    for _ in range(6):
        deal = rng.sample(range(52), 9)
        naive = _naive_buckets(cards, deal)
        got, _ = cards.deal_buckets(np.asarray(deal, dtype=np.uint8))
        assert got.tolist() == naive
        for street in range(4):
            per_combo = cards.combo_buckets(street, tuple(deal[4:]))
            for p in range(2):
                a, b = sorted(deal[2 * p : 2 * p + 2])
                i = int(np.flatnonzero((COMBO_CARDS[:, 0] == a) & (COMBO_CARDS[:, 1] == b))[0])
                assert per_combo[i] == naive[p][street], (deal, street, p)
            dead = set(deal[4 : 4 + (0, 3, 4, 5)[street]])
            clash = [bool({int(x), int(y)} & dead) for x, y in COMBO_CARDS]
            assert (per_combo[clash] == -1).all() and (per_combo[~np.asarray(clash)] >= 0).all()


def test_river_buckets_from_values_count_the_thresholds_at_or_below() -> None:
    # the river table's cut (read by training) against a plain count
    from checkraise.games._holdem_kernels import river_buckets_from_values

    rng = np.random.default_rng(0)
    for k in (0, 1, 7, 255):
        thresholds = np.sort(rng.integers(0, 1981, size=k)).astype(np.int64)
        values = np.concatenate([np.arange(1981), rng.integers(0, 1981, size=500)])
        values = values.astype(np.uint16)
        out = np.empty(values.shape[0], dtype=np.uint8)
        river_buckets_from_values(values, thresholds, out)
        assert out.tolist() == [int((thresholds <= v).sum()) for v in values]
