"""The heuristic bot picks its shipped profile by table size; the multi-way profile ships valid."""

from __future__ import annotations

import json
import random
from importlib import resources

import pytest

from checkraise.agents import make_agent
from checkraise.agents.heuristic import HeuristicAgent
from checkraise.agents.profiles import (
    Profile,
    ProfileError,
    default_profile,
    load_profile,
    multiway_profile,
    profile_for_seats,
)
from checkraise.arena.table import play_hand
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
