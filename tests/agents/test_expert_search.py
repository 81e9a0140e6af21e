"""The staged search on a river spot small enough to value by hand; Zobrist keys and the table."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from checkraise.agents.expert_kb import load_knowledge_base
from checkraise.agents.expert_search import StagedSearch, TranspositionTable, Zobrist
from checkraise.cards import parse_cards
from checkraise.engine import Action, State, TableConfig

DATA = Path(load_knowledge_base.__code__.co_filename).parents[1] / "data" / "expert"
# One rule per situation: unbet we may check or bet the pot; facing a bet we call or fold.
RULES = """
[[rule]]
name = "unbet"
facing = ["none"]
actions = ["check", "bet:1"]
reason = "test"

[[rule]]
name = "facing"
actions = ["call", "fold"]
reason = "test"
"""
KINGS, QUEEN_JACK = parse_cards("KdKh"), parse_cards("QcJc")


class _Fixed:
    """Opponent model of the test: per hand, fixed probabilities facing our bet."""

    def __init__(self, qj_call: float) -> None:
        self.qj_call = qj_call

    def predict(self, obs: object, holes: np.ndarray) -> np.ndarray:
        rows = np.zeros((len(holes), 6))
        for i, hole in enumerate(holes):
            if sorted(hole) == sorted(KINGS):
                rows[i, 1], rows[i, 4] = 0.5, 0.5  # kings call or raise large, half each
            else:
                rows[i, 0], rows[i, 1] = 1.0 - self.qj_call, self.qj_call  # fold or call
        return rows


def _river() -> State:
    """AhAd on the button; raised to 300, called; checked to the river, the big blind checks."""
    config = TableConfig.nolimit(2, stacks=20_000)
    state = State(config, hole_cards=[parse_cards("AhAd"), KINGS],
                  board=parse_cards("Ks 8d 5c 3h 2s"), seed=1)
    state.step(Action.raise_to(300))
    state.step(Action.call())
    while state.round < 3 or state.current_player != 0:
        state.step(Action.call())
    return state


def _search(tmp_path: Path, qj_call: float) -> tuple[StagedSearch, object]:
    post = tmp_path / "postflop.toml"
    opponent = (DATA / "postflop.toml").read_text().split("[opponent]", 1)[1]
    post.write_text(RULES + "\n[opponent]" + opponent)
    kb = load_knowledge_base(DATA / "preflop.toml", post)
    search = StagedSearch(_Fixed(qj_call), kb, seed=1)
    obs = _river().observation(0)
    holes = np.array([KINGS, QUEEN_JACK])
    result = search.search(obs, holes, np.array([1.0, 3.0]), seconds=1.0)
    return search, result


@pytest.mark.parametrize(("qj_call", "bet_value", "best"), [
    # We end with our 19,700 behind plus what we win. Check: the kings (weight 1) win the
    # 600 pot, we beat Q-J (weight 3): (19,700 + 3 * 20,300) / 4 = 20,150.
    # Bet 600 (pot): against the kings, a call loses 600 more (19,100); a raise to 4,500
    # is met by our fold (only kings raise, so calling would lose 4,500 in all): 19,100.
    # Against Q-J: a fold gives 20,300, a call 20,900.
    # Q-J calls 20%: (19,100 + 3 * (0.8 * 20,300 + 0.2 * 20,900)) / 4 = 20,090 < 20,150.
    (0.2, 20_090.0, "c"),
    # Q-J calls 50%: (19,100 + 3 * 20,600) / 4 = 20,225 > 20,150: bet.
    (0.5, 20_225.0, "r900"),
])
def test_river_values_by_hand(tmp_path: Path, qj_call: float, bet_value: float,
                              best: str) -> None:
    _search_obj, result = _search(tmp_path, qj_call)
    assert result.values == pytest.approx({"c": 20_150.0, "r900": bet_value})
    assert str(result.action) == best
    # Lookups: our advice at the root and facing the raise, his prediction after our bet,
    # the showdown of the board at three leaves (check; bet-call; bet-raise-call). The
    # board's showdown is computed once and found twice.
    assert (result.lookups, result.hits) == (6, 2)


def test_zobrist_keys_ignore_card_order_and_see_every_action() -> None:
    z = Zobrist(seed=5)
    history = [(0, Action.raise_to(300)), (1, Action.call())]
    board = tuple(parse_cards("Ks 8d 5c 3h 2s"))
    assert z.state(board, history) == z.state(board[::-1], history)
    other = [(0, Action.raise_to(301)), (1, Action.call())]
    assert z.state(board, history) != z.state(board, other)
    assert z.state(board, history) != z.state(board, history[::-1])
    assert z.state(board, history) != z.state(board[:4], history)
    # Incremental: a child's key is the parent's XOR the action's word.
    child = [*history, (1, Action.call())]
    assert z.state(board, child) == z.state(board, history) ^ z.action(2, 1, Action.call())


def test_transpositions_hit_the_table() -> None:
    table = TranspositionTable()
    z = Zobrist()
    calls = []

    def compute() -> int:
        calls.append(1)
        return 7

    turn_then_river = z.board(parse_cards("Ks 8d 5c 3h 2s"))
    river_then_turn = z.board(parse_cards("Ks 8d 5c 2s 3h"))
    assert table.get(turn_then_river, compute) == table.get(river_then_turn, compute) == 7
    assert len(calls) == 1 and (table.lookups, table.hits) == (2, 1)
    assert table.hit_rate == 0.5


def test_a_turn_search_deepens_to_the_river_and_reuses_boards() -> None:
    kb = load_knowledge_base()
    config = TableConfig.nolimit(2, stacks=20_000)
    state = State(config, hole_cards=[parse_cards("AhAd"), None],
                  board=parse_cards("Ks 8d 5c 3h"), seed=1)
    state.step(Action.raise_to(300))
    state.step(Action.call())
    while state.round < 2 or state.current_player != 0:
        state.step(Action.call())
    search = StagedSearch(_Fixed(0.3), kb, samples=4, seed=3)
    holes = np.array([KINGS, QUEEN_JACK, parse_cards("8c8h")])
    result = search.search(state.observation(0), holes, np.ones(3), seconds=30.0)
    assert result.depth == 1  # the turn and then the river were searched
    assert result.hits > 0 and result.hits < result.lookups
    again = StagedSearch(_Fixed(0.3), kb, samples=4, seed=3).search(
        state.observation(0), holes, np.ones(3), seconds=30.0)
    assert again.values == result.values  # seeded: the same samples, the same values
