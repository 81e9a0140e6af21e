"""Duplicate matches and ring games: seating, decks, exact-zero bookkeeping, seeds."""

from __future__ import annotations

from fractions import Fraction
from typing import ClassVar

import pytest
from tests.naive import naive_rank

from checkraise.agents import BaseAgent, register_agent
from checkraise.agents.base import _FACTORIES, AGENT_PATHS
from checkraise.arena.match import play_match
from checkraise.arena.ring import RingConfig, deal_deck, play_ring, play_rotation
from checkraise.engine import Action, Observation, RuleSet, TableConfig


class _Recorder(BaseAgent):
    """Calls everything and writes down (hand, seat, hole cards) of every hand it plays."""

    log: ClassVar[list[list[tuple[int, int, tuple[int, ...]]]]] = []

    def __init__(self, *, seed: int | None = None) -> None:
        super().__init__(seed=seed)
        self.seen: list[tuple[int, int, tuple[int, ...]]] = []
        _Recorder.log.append(self.seen)

    def begin_hand(
        self, seat: int, config: TableConfig, hole_cards: tuple[int, ...], hand_number: int
    ) -> None:
        self.seen.append((hand_number, seat, hole_cards))

    def act(self, observation: Observation) -> Action:
        return Action.call()


@pytest.fixture
def recorder() -> object:
    _Recorder.log = []
    register_agent("test-recorder", _Recorder)
    yield _Recorder
    _FACTORIES.pop("test-recorder", None)
    AGENT_PATHS.pop("test-recorder", None)


@pytest.mark.parametrize("spec", ["call", "raise", "allin", "checkfold", "random"])
def test_duplicate_of_identical_agents_is_exactly_zero(spec: str) -> None:
    result = play_match(spec, spec, hands=60, seed=7, workers=1)
    assert result.total_chips(0) == 0 and result.total_chips(1) == 0
    assert all(row == [0, 0] for row in result.deal_chips)
    e = result.mbb(0)
    assert (e.mean, e.half_width) == (0.0, 0.0)


def test_ring_duplicate_of_identical_agents_is_exactly_zero_with_acpc_fractions() -> None:
    # ACPC rules split odd chips in fractions (a 33-chip pot tied two ways gives 16.5 each);
    # the sums over the rotations must still cancel exactly.
    config = RingConfig(("call",) * 3, hands=100, stack=1000, small_blind=5, big_blind=11,
                        rules=RuleSet.ACPC)
    result = play_ring(config, seed=4, workers=1)
    assert [result.total_chips(i) for i in range(3)] == [0, 0, 0]
    halves = [x for row in play_rotation(config, 4, 0).payoffs for x in row
              if isinstance(x, Fraction) and x.denominator == 2]
    assert halves
    random_ring = RingConfig(("random",) * 3, hands=100, stack=1000, small_blind=5, big_blind=10)
    assert [play_ring(random_ring, seed=5, workers=1).total_chips(i) for i in range(3)] == [0] * 3


def test_every_player_holds_every_seat_once_per_deal_with_the_same_cards(recorder: object) -> None:
    n, hands = 3, 12
    config = RingConfig(("test-recorder",) * n, hands=hands)
    _Recorder.log.clear()  # the config built one agent to check the spec
    play_ring(config, seed=9, workers=1)
    logs = _Recorder.log
    assert len(logs) == n * n  # n rotations, n fresh agents each
    for h in range(hands):
        deck = deal_deck(9, 0, h)
        seats_by_player: dict[int, list[int]] = {i: [] for i in range(n)}
        for r in range(n):
            for i in range(n):
                hand, seat, cards = logs[r * n + i][h]
                assert hand == h
                assert cards == tuple(deck[2 * seat : 2 * seat + 2])  # same deck, dealt by seat
                seats_by_player[i].append(seat)
        assert all(sorted(s) == list(range(n)) for s in seats_by_player.values())
    # The button moves one seat per hand: a player's seat goes down by one each hand.
    first = logs[0]
    assert [(first[h + 1][1] - first[h][1]) % n for h in range(hands - 1)] == [n - 1] * (hands - 1)


def test_call_vs_call_matches_a_naive_showdown_oracle() -> None:
    # Two calling stations check every hand down: the better 7-card hand wins one big blind.
    hands = 60
    result = play_match("call", "call", hands=hands, seed=12, duplicate=False, workers=1)
    for h in range(hands):
        deck = deal_deck(12, 0, h)
        board = deck[4:9]
        seat0 = naive_rank(deck[0:2] + board)
        seat1 = naive_rank(deck[2:4] + board)
        expected_seat0 = 100 if seat0 > seat1 else (-100 if seat0 < seat1 else 0)
        seat_of_player0 = (0 - h) % 2  # role 0 in rotation 0
        expected = expected_seat0 if seat_of_player0 == 0 else -expected_seat0
        assert result.deal_chips[h] == [expected, -expected]


def test_results_do_not_depend_on_the_number_of_workers() -> None:
    one = play_match("random", "raise", hands=80, seed=21, workers=1)
    two = play_match("random", "raise", hands=80, seed=21, workers=2)
    assert one.deal_chips == two.deal_chips
    assert one.to_json() == two.to_json()
    other = play_match("random", "raise", hands=80, seed=22, workers=1)
    assert other.deal_chips != one.deal_chips


def test_chips_are_conserved_every_deal() -> None:
    result = play_ring(RingConfig(("random", "raise", "allin", "call"), hands=40), seed=3,
                       workers=1)
    assert all(sum(row) == 0 for row in result.deal_chips)
    assert result.to_json()["hands_played"] == 160


def test_bad_configs_are_value_errors() -> None:
    with pytest.raises(ValueError, match="number of agents 1"):
        RingConfig(("call",), hands=10)
    with pytest.raises(ValueError, match="invalid hands 0"):
        RingConfig(("call", "call"), hands=0)
    with pytest.raises(ValueError, match="blinds"):
        RingConfig(("call", "call"), hands=5, small_blind=200, big_blind=100)
