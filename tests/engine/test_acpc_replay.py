"""Replay every hand of the reference dealer's logs through the engine in ``acpc`` mode.

Ground truth: ``shared/data/acpc/example_vs_example.*.log``, written by the ACPC
reference dealer. Each hand must be legal move by move, rebuild the exact
``STATE`` line (betting, cards, nets to the half chip) and the ``SCORE`` totals.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import pytest

from checkraise.engine import Action, State
from tests.engine.acpc_helpers import read_game, read_log
from tests.shared_data import NL2_GAME, NL2_LOG_HEAD, shared_data

MATCHES = [
    ("example_vs_example.nolimit.2p.log", "holdem.nolimit.2p.reverse_blinds.game", 200),
    ("example_vs_example.nolimit.3p.log", "holdem.nolimit.3p.game", 500),
    ("example_vs_example.limit.2p.log", "holdem.limit.2p.reverse_blinds.game", 500),
]


@pytest.mark.parametrize(("log", "game", "hands"), MATCHES)
def test_dealer_log_replays_exactly(log: str, game: str, hands: int) -> None:
    cfg = read_game(shared_data("acpc", game))
    states, score = read_log(shared_data("acpc", log))
    assert len(states) == hands
    totals: dict[str, Fraction] = defaultdict(Fraction)
    fractional = 0
    for line in states:
        s = State(cfg, hole_cards=line.holes, board=line.board)
        for rnd, actions in enumerate(line.rounds):
            for text in actions:
                assert not s.is_terminal, line.text
                assert s.round == rnd, line.text
                s.step(Action.parse(text))
        assert s.is_terminal, line.text
        assert s.payoffs() == line.nets, line.text
        assert s.acpc_state_line(line.hand, line.names) == line.text
        fractional += any(type(v) is Fraction for v in s.payoffs())
        for name, net in zip(line.names, s.payoffs(), strict=True):
            totals[name] += net
    assert dict(totals) == score
    if "3p" in log:
        assert fractional > 0  # the 3-player log has split pots in half chips


def test_head_of_a_dealer_log_replays_exactly() -> None:
    # The shipped fixture (the first 21 hands of the 2-player no-limit log, no SCORE
    # line): runs without the shared data.
    cfg = read_game(NL2_GAME)
    states, score = read_log(NL2_LOG_HEAD)
    assert len(states) == 21 and score == {}
    for line in states:
        s = State(cfg, hole_cards=line.holes, board=line.board)
        for actions in line.rounds:
            for text in actions:
                s.step(Action.parse(text))
        assert s.is_terminal, line.text
        assert s.payoffs() == line.nets, line.text
        assert s.acpc_state_line(line.hand, line.names) == line.text
