"""The heuristic bot picks its shipped profile by table size; the multi-way profile ships valid."""

from __future__ import annotations

import json
import random
from importlib import resources

import pytest

from checkraise.agents import make_agent
from checkraise.agents._heuristic_kernels import pot_share_value
from checkraise.agents.base import BaseAgent
from checkraise.agents.baselines import MinRaiseAgent
from checkraise.agents.heuristic import HeuristicAgent
from checkraise.agents.profiles import (
    Profile,
    ProfileError,
    ValueScale,
    default_profile,
    load_profile,
    multiway_profile,
    profile_for_seats,
)
from checkraise.arena.table import play_hand
from checkraise.cards import parse_cards
from checkraise.engine import TableConfig


def test_profile_for_seats_is_heads_up_at_two_and_multiway_above() -> None:
    assert profile_for_seats(2) == default_profile() == load_profile("headsup")
    for seats in range(3, 11):
        assert profile_for_seats(seats) == multiway_profile()
    assert multiway_profile().values != default_profile().values
    for bad in (1, 0, True):
        with pytest.raises(ProfileError, match="invalid table size"):
            profile_for_seats(bad)


def test_shipped_multiway_profile_validates_and_records_its_command() -> None:
    text = resources.files("checkraise.agents.profiles").joinpath("multiway.json").read_text()
    raw = json.loads(text)
    prof = Profile.from_dict(raw, "multiway.json")
    assert prof == multiway_profile() and prof.name == "multiway"
    comment = " ".join(raw["comment"])
    assert "checkraise tune" in comment and "--seats 6" in comment and "--seed" in comment


def _betting(agents: list[HeuristicAgent], seats: int, hands: int) -> list[str]:
    config = TableConfig.nolimit(seats)
    rng = random.Random(seats)
    out = []
    for h in range(hands):
        deck = list(range(52))
        rng.shuffle(deck)
        out.append(play_hand(agents, config, deck, h).state.acpc_betting())
    return out


def _bots(seats: int, profile: str | None) -> list[HeuristicAgent]:
    return [HeuristicAgent(seed=i, profile=profile, samples=100) for i in range(seats)]


@pytest.mark.parametrize(("seats", "own", "other"), [(2, "default", "multiway"),
                                                     (6, "multiway", "default")])
def test_automatic_profile_plays_exactly_like_the_profile_for_the_table_size(
    seats: int, own: str, other: str
) -> None:
    auto = _betting(_bots(seats, None), seats, 60)
    assert auto == _betting(_bots(seats, own), seats, 60)
    assert auto == _betting(_bots(seats, "auto"), seats, 60)
    # The other profile plays these hands differently, so the equality above has teeth.
    assert sum(a != b for a, b in zip(auto, _betting(_bots(seats, other), seats, 60),
                                      strict=True)) >= 10


def test_a_spec_option_forces_either_profile_at_any_table_size() -> None:
    six = TableConfig.nolimit(6)
    two = TableConfig.nolimit(2)
    forced_hu = make_agent("heuristic:profile=default", seed=1)
    forced_mw = make_agent("heuristic:profile=multiway", seed=1)
    auto = make_agent("heuristic", seed=1)
    assert isinstance(forced_hu, HeuristicAgent) and isinstance(forced_mw, HeuristicAgent)
    assert isinstance(auto, HeuristicAgent)
    for config, expected in ((six, "multiway"), (two, "default"), (six, "multiway")):
        for bot in (forced_hu, forced_mw, auto):
            bot.begin_hand(0, config, (0, 1), 0)
        assert (forced_hu.profile.name, forced_mw.profile.name) == ("default", "multiway")
        assert auto.profile.name == expected


def test_pot_share_value_is_v_heads_up_and_the_return_per_chip_of_a_level_pot() -> None:
    for v in (-1.0, -0.37, 0.0, 0.1, 0.73, 1.0):
        assert pot_share_value(v, 1) == v  # bit for bit: heads-up play cannot change
    # Equity e = (1 + v) / 2 in a pot of k + 1 equal stakes s returns s ((k + 1) e - 1).
    assert pot_share_value(-1.0, 5) == -1.0  # drawing dead loses the stake
    assert pot_share_value(-2.0 / 3.0, 5) == pytest.approx(0.0)  # e = 1/6: break even
    assert pot_share_value(-0.8, 3) == pytest.approx(4 * 0.1 - 1)
    assert pot_share_value(-0.5, 2) == pytest.approx(3 * 0.25 - 1)
    assert pot_share_value(0.0, 5) == 1.0  # capped at the top of the cut points


def test_value_scale_is_read_written_and_checked() -> None:
    raw = default_profile().to_dict()
    assert "value" not in raw and default_profile().value is ValueScale.WIN_MINUS_LOSE
    raw["value"] = "pot-share"
    prof = Profile.from_dict(raw, "mine.json")
    assert prof.pot_share and prof.values == default_profile().values
    assert Profile.from_dict(prof.to_dict()) == prof
    assert prof.replace(0, -0.3).pot_share and prof.renamed("x").pot_share
    raw["value"] = "equity"
    with pytest.raises(ProfileError, match="'value' = 'equity': expected one of"):
        Profile.from_dict(raw, "mine.json")


def test_shipped_multiway_profile_reads_the_pot_share() -> None:
    assert multiway_profile().pot_share and not default_profile().pot_share


@pytest.mark.parametrize("hand", ["AsAh", "KdKc", "QhQs", "AcKc"])
def test_six_seat_bot_keeps_premium_hands_against_five_min_raisers(hand: str) -> None:
    # Seat 2 acts first before the flop; every other seat re-raises the minimum. Valued
    # against five random hands by P(win) - P(lose), all four hands were below 0 and the
    # bot folded them to the first re-raise (issue 23: about -295 mbb/hand against such
    # tables). In a pot that all six pay into, each is worth far more than a sixth.
    hole = parse_cards(hand)
    rest = [c for c in range(52) if c not in hole]
    deck = rest[:4] + hole + rest[4:]
    bot = HeuristicAgent(seed=1, samples=200)
    agents: list[BaseAgent] = [MinRaiseAgent(seed=i) for i in range(6)]
    agents[2] = bot
    hand_log = play_hand(agents, TableConfig.nolimit(6), deck, 0)
    assert bot.profile.name == "multiway"
    assert not hand_log.state.folded[2]
    assert hand_log.payoffs[2] != 0
