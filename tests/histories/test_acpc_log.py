"""ACPC dealer logs: every hand of the three reference logs replays to the printed nets."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from checkraise.histories import (
    HandHistoryError,
    HandRecord,
    format_state_line,
    net_results,
    parse_log_file,
    parse_log_text,
    replay,
    write_logs,
)
from checkraise.protocol.gamedef import load_gamedef
from tests.shared_data import NL2_GAME, NL2_LOG_HEAD, shared_data

LOGS = {
    "example_vs_example.limit.2p.log": 500,
    "example_vs_example.nolimit.2p.log": 200,
    "example_vs_example.nolimit.3p.log": 500,
}


def _state_lines(path: Path) -> list[str]:
    return [line for line in path.read_text().splitlines() if line.startswith("STATE:")]


@pytest.mark.parametrize("name", sorted(LOGS))
def test_every_hand_of_the_log_agrees_with_its_nets(name: str) -> None:
    path = shared_data("acpc", name)
    hands = parse_log_file(path)  # the game file named in the header, found beside the log
    assert len(hands) == LOGS[name]
    lines = _state_lines(path)
    score = next(line for line in path.read_text().splitlines() if line.startswith("SCORE:"))
    totals: dict[str, Fraction] = {}
    for hand, line in zip(hands, lines, strict=True):
        printed = [Fraction(v) for v in line.split(":")[4].split("|")]
        assert list(net_results(hand)) == printed
        assert format_state_line(hand) == line  # the writer reproduces the dealer's line
        replay(hand)  # the record replays under the generic replay as well
        for s, net in zip(hand.seats, printed, strict=True):
            totals[s.name] = totals.get(s.name, Fraction(0)) + net
    names = score.split(":")[2].split("|")
    assert [totals[n] for n in names] == [Fraction(v) for v in score.split(":")[1].split("|")]


def test_head_of_a_dealer_log_agrees_with_its_nets() -> None:
    # The shipped fixture: the first 21 hands of the 2-player no-limit log.
    hands = parse_log_file(NL2_LOG_HEAD)  # finds the game file beside it, in tests/data
    lines = _state_lines(NL2_LOG_HEAD)
    assert len(hands) == len(lines) == 21
    for hand, line in zip(hands, lines, strict=True):
        assert list(net_results(hand)) == [Fraction(v) for v in line.split(":")[4].split("|")]
        assert format_state_line(hand) == line
        replay(hand)


def test_three_player_log_has_fractional_split() -> None:
    path = shared_data("acpc", "example_vs_example.nolimit.3p.log")
    hand = next(h for h in parse_log_file(path) if h.hand_id.endswith(".35"))
    assert [s.collected for s in hand.seats] == [Fraction(53691, 2), 0, Fraction(53691, 2)]


def test_wrong_net_is_rejected_with_line() -> None:
    text = NL2_LOG_HEAD.read_text().replace(
        "STATE:0:cr921c/cr13714c/cc/cc:8dJd|Td4d/As9d6s/3d/6c:13714|-13714",
        "STATE:0:cr921c/cr13714c/cc/cc:8dJd|Td4d/As9d6s/3d/6c:13715|-13715")
    game = load_gamedef(NL2_GAME)
    with pytest.raises(HandHistoryError) as info:
        parse_log_text(text, game, source="bad.log")
    assert info.value.line == 5 and "difference 1" in str(info.value)


def test_pluribus_hands_through_acpc_logs_and_back(
    pluribus_hands: list[HandRecord], tmp_path: Path
) -> None:
    sample = pluribus_hands[:400]
    (log,) = write_logs(sample, tmp_path, stem="plur")
    back = parse_log_file(log)
    assert [[s.name for s in h.seats] for h in back] == [[s.name for s in h.seats]
                                                         for h in sample]
    assert [net_results(h) for h in back] == [net_results(h) for h in sample]
