"""10,000 hands of random legal play through the PettingZoo environment.

Each hand is rebuilt from what the players observed at its end alone (their card
planes and the decoded action history) on a fresh engine ``State``, and must give
the rewards the environment paid and the chips it showed; chips are conserved.
The tables vary: 2 to 10 seats, unequal stacks (side pots), antes, both rule sets,
both action formats, short and deep stacks.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from checkraise.engine import Action, State
from checkraise.envs import decode_history, holdem_v0
from checkraise.envs.config import history_bound
from tests.envs.helpers import field_slices, plane_cards, vector_of

# (options, hands): 10,000 hands in all, more of them at the small tables, which are quicker.
TABLES: list[tuple[dict[str, object], int]] = [
    (dict(num_players=2, stacks=2000), 1600),
    (dict(num_players=2, stacks=(700, 3000), rules="acpc"), 1600),
    (dict(num_players=3, stacks=(1500, 400, 2600), ante=10, action_format="continuous"), 1400),
    (dict(num_players=4, stacks=(900, 2000, 300, 1200), bet_fractions=(0.33, 0.75, 1.5)), 1000),
    (dict(num_players=5, stacks=(1000, 250, 4000, 600, 1800), rules="acpc", ante=5), 900),
    (dict(num_players=6, stacks=1000, small_blind=25, big_blind=50), 800),
    (dict(num_players=6, stacks=(300, 900, 1500, 2100, 2700, 3300), action_format="continuous",
          rules="acpc"), 800),
    (dict(num_players=8, stacks=(200, 1100, 500, 800, 1400, 350, 600, 950), ante=20), 700),
    (dict(num_players=9, stacks=800, small_blind=40, big_blind=80, bet_fractions=(1.0,)), 600),
    (dict(num_players=10, stacks=(450, 1300, 700, 220, 1000, 390, 1600, 510, 880, 640)), 600),
]


def test_the_tables_add_up_to_ten_thousand_hands() -> None:
    assert sum(hands for _, hands in TABLES) == 10_000


def _random_action(rng: np.random.Generator, mask: np.ndarray, continuous: bool) -> object:
    choice = int(rng.choice(np.flatnonzero(mask)))
    if continuous:
        return (choice, np.array([rng.random()], dtype=np.float32))
    return choice


@pytest.mark.slow
@pytest.mark.parametrize(("options", "hands"), TABLES,
                         ids=[f"{o['num_players']}-seats-{i}" for i, (o, _) in enumerate(TABLES)])
def test_random_legal_play_agrees_with_the_engine(options: dict[str, object], hands: int
                                                  ) -> None:
    # The raw environment: PettingZoo's wrappers are checked by its api_test elsewhere.
    env = holdem_v0.raw_env(**options)
    table = env.config.table
    n, bb = table.num_players, table.big_blind
    rows = history_bound(table)
    sl = field_slices(n, rows)
    continuous = options.get("action_format") == "continuous"
    rng = np.random.default_rng(n)
    env.reset(seed=n)
    longest = 0
    for hand in range(hands):
        if hand:
            env.reset()
        final: dict[int, np.ndarray] = {}
        rewards: dict[int, float] = {}
        for agent in env.agent_iter():
            obs, reward, terminated, _, info = env.last()
            seat = int(agent.split("_")[1])
            assert not info.get("illegal_action")
            if terminated:
                final[seat] = vector_of(obs)
                rewards[seat] = reward
                env.step(None)
            else:
                if hand % 4 == 0:  # the decision's own fields, on a quarter of the hands
                    vector = vector_of(obs)
                    legal = env.table.state.legal_actions()
                    assert vector[sl["seat"]][seat] == vector[sl["to_act"]][seat] == 1
                    assert round(vector[sl["to_call"]][0] * bb) == legal.call_amount
                    assert np.rint(vector[sl["raise_range"]] * bb).tolist() == (
                        [legal.min_raise_to, legal.max_raise_to] if legal.can_raise else [0, 0])
                env.step(_random_action(rng, obs["action_mask"], continuous))
        assert sorted(final) == list(range(n))
        # Every seat observed the same history; rebuild the hand from it and the cards.
        history = decode_history(final[0])
        for s in range(1, n):
            assert np.array_equal(final[s][sl["history"]], final[0][sl["history"]])
        longest = max(longest, len(history))
        flop, turn, river = (plane_cards(final[0], p) for p in (1, 2, 3))
        dealt = [len(flop), len(turn), len(river)]
        assert dealt in ([0, 0, 0], [3, 0, 0], [3, 1, 0], [3, 1, 1])
        board = flop + turn + river
        holes = [plane_cards(final[s], 0) for s in range(n)]
        state = State(table, hole_cards=holes, board=board)
        for seat, street, kind, amount in history:
            assert (state.current_player, state.round) == (seat, street)
            before = state.contributions[seat]
            if kind == "raise":
                state.step(Action.raise_to(amount))
            elif kind == "call":
                state.step(Action.call())
                assert state.contributions[seat] - before == amount
            else:
                state.step(Action.fold())
        assert state.is_terminal
        assert len(state.board) == sum(dealt)  # the planes showed every card dealt
        payoffs = state.payoffs()
        assert sum(payoffs) == 0
        for s in range(n):
            assert rewards[s] == pytest.approx(float(Fraction(payoffs[s])) / bb, abs=1e-9)
            vector = final[s]
            stacks = np.rint(vector[sl["stacks"]] * bb).astype(int)
            bets = np.rint(vector[sl["bets"]] * bb).astype(int)
            assert stacks.tolist() == list(state.stacks)
            assert bets.tolist() == list(state.contributions)
            assert (stacks + bets).tolist() == list(table.stacks)
            assert vector[sl["folded"]].tolist() == list(state.folded)
            assert vector[sl["all_in"]].tolist() == list(state.all_in_flags)
            assert round(vector[sl["pot"]][0] * bb) == state.pot
            assert int(np.argmax(vector[sl["street"]])) == state.round
            assert vector[sl["to_act"]].sum() == 0 and vector[sl["seat"]][s] == 1
            assert vector[sl["history_length"]][0] == len(history)
        assert sum(state.final_stacks()) == sum(table.stacks)
    assert longest <= rows
