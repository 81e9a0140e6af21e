"""Bad spots fail with one clear error naming the bad value; good spots survive their file forms."""

from __future__ import annotations

import copy
import json
import tomllib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from checkraise.cards import parse_cards
from checkraise.errors import CheckraiseError, ConfigError, FormatError
from checkraise.solvers.spot.config import BetSizes, Spot, SpotError, load_spot
from checkraise.solvers.spot.solver import SpotSolver

BASE: dict[str, Any] = {"board": "Qs Jh 2h", "pot": 50, "stack": 200,
                        "ranges": {"oop": "AA,KK", "ip": "QQ"}}


def _with(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    data.update(changes)
    return data


BAD = {
    "two board cards": (_with(board="Qs Jh"), ["Qs Jh", "2 cards", "expected 3"]),
    "six board cards": (_with(board="Qs Jh 2h 3c 4d 5s"), ["6 cards", "expected 3"]),
    "a card twice": (_with(board="Qs Jh Qs"), ["Qs", "twice"]),
    "a card twice in a list": (_with(board=["Qs", "Jh", "Qs"]), ["Qs", "twice"]),
    "not a card": (_with(board="Qs Jx 2h"), ["Jx"]),
    "a range token of board cards": (
        _with(ranges={"oop": "AA,QsJh", "ip": "QQ"}), ["OOP", "QsJh", "board"]),
    "every combo of a token hits the board": (
        _with(board="Qs Qh Qd", ranges={"oop": "AA", "ip": "QQ"}), ["IP", "'QQ'", "board"]),
    "empty after card removal": (
        _with(board="Qs Qh Qd", ranges={"oop": "AA", "ip": "KK:0"}), ["IP", "KK:0", "empty"]),
    "empty range text": (_with(ranges={"oop": "", "ip": "QQ"}), ["OOP", "empty"]),
    "bad range token": (_with(ranges={"oop": "AZ", "ip": "QQ"}), ["OOP", "AZ"]),
    "zero pot": (_with(pot=0), ["pot = 0", ">= 1"]),
    "negative pot": (_with(pot=-5), ["pot = -5"]),
    "fractional pot": (_with(pot=2.5), ["pot = 2.5"]),
    "zero stack": (_with(stack=0), ["stack = 0"]),
    "negative stack": (_with(stack=-1), ["stack = -1"]),
    "zero size": (_with(sizes={"bet": [0]}), ["sizes.bet", "0", "% of the pot"]),
    "negative size": (_with(sizes={"bet": [50, -50]}), ["sizes.bet", "-50"]),
    "text size": (_with(sizes={"bet": ["big"]}), ["sizes.bet", "'big'", "number"]),
    "text in a size list": (_with(sizes={"raise": "50,abc"}), ["sizes.raise", "'abc'"]),
    "nan size": (_with(sizes={"bet": [float("nan")]}), ["sizes.bet", "nan"]),
    "zero size of one street and player": (
        _with(sizes={"river": {"ip": {"bet": [0]}}}), ["sizes.river.ip.bet", "0"]),
    "an IP donk bet": (_with(sizes={"turn": {"ip": {"donk": [50]}}}), ["sizes.turn.ip.donk"]),
    "unknown spot field": (_with(bets=[50]), ["'bets'", "sizes"]),
    "unknown sizes key": (_with(sizes={"bets": [50]}), ["'bets'", "in sizes", "bet"]),
    "unknown street key": (_with(sizes={"river": {"bets": [50]}}), ["'bets'", "sizes.river"]),
    "unknown player key": (
        _with(sizes={"river": {"oop": {"bets": [50]}}}), ["'bets'", "sizes.river.oop"]),
    "negative threshold": (_with(allin_threshold=-1), ["allin_threshold = -1"]),
    "negative raise cap": (_with(raise_cap=-1), ["raise_cap = -1"]),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_spot_gives_one_clear_error(case: str) -> None:
    data, words = BAD[case]
    with pytest.raises(SpotError) as caught:
        Spot.from_dict(data)
    message = str(caught.value)
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    assert isinstance(caught.value, ConfigError) and isinstance(caught.value, ValueError)


def test_unknown_toml_keys_are_named(tmp_path: Path) -> None:
    top = tmp_path / "top.toml"
    top.write_text('board = "Qs Jh 2h"\npot = 50\nstack = 200\nfoo = 1\n'
                   '[ranges]\noop = "AA"\nip = "KK"\n')
    with pytest.raises(SpotError, match="unknown spot field 'foo'"):
        load_spot(top)
    nested = tmp_path / "nested.toml"
    nested.write_text('board = "Qs Jh 2h"\npot = 50\nstack = 200\n[ranges]\noop = "AA"\n'
                      'ip = "KK"\n[sizes.turn.ip]\nbett = [50]\n')
    with pytest.raises(SpotError, match=r"unknown key 'bett' in sizes\.turn\.ip"):
        load_spot(nested)
    broken = tmp_path / "broken.toml"
    broken.write_text('board = "Qs Jh 2h"\npot = \n')
    with pytest.raises(FormatError, match=r"broken\.toml"):
        load_spot(broken)
    broken_json = tmp_path / "broken.json"
    broken_json.write_text('{"board": ')
    with pytest.raises(FormatError, match=r"broken\.json"):
        load_spot(broken_json)


@pytest.mark.parametrize("shape", [(10,), (1326, 1), (2, 1326), ()])
def test_reach_of_the_wrong_shape_is_refused(shape: tuple[int, ...]) -> None:
    spot = Spot.from_dict(BASE)
    with pytest.raises(ConfigError, match="OOP reach must be 1,326") as caught:
        SpotSolver(spot, reach=(np.ones(shape), np.ones(1326)))
    assert f"got shape {shape!r}" in str(caught.value)
    with pytest.raises(ConfigError, match="IP reach"):
        SpotSolver(spot, reach=(np.ones(1326), np.ones(shape)))


def test_reach_without_a_hand_is_refused() -> None:
    spot = Spot.from_dict(BASE)
    with pytest.raises(ConfigError, match="OOP has no hand"):
        SpotSolver(spot, reach=(np.zeros(1326), np.ones(1326)))


def test_a_lock_of_the_wrong_shape_names_the_actions() -> None:
    solver = SpotSolver(Spot.from_dict(_with(sizes={"bet": [50], "raise": [], "allin": False})))
    with pytest.raises(ConfigError, match=r"shape \(3,\); expected \(2,\).*x, b25"):
        solver.lock("", [0.2, 0.3, 0.5])
    with pytest.raises(CheckraiseError, match="no action 'b99'"):
        solver.lock("b99", [0.5, 0.5])


ROUND_TRIP = [
    BASE,
    {"board": "Qs Jh 2h 4d", "pot": 55, "stack": 230, "big_blind": 2,
     "allin_threshold": 0.67, "raise_cap": 2,
     "ranges": {"oop": "AA:0.5,KQs,T9s-65s", "ip": "QQ-22,AJo+:0.25"},
     "sizes": {"bet": [100, 33], "raise": [75], "allin": False,
               "turn": {"oop": {"donk": [25]}, "ip": {"bet": [150, 50]}},
               "river": {"raise": []}}},
    {"board": ["Ks", "7h", "2c", "3d", "9s"], "pot": 100, "stack": 1,
     "ranges": {"oop": "random", "ip": "AhKh,22"}, "sizes": {"allin": False}},
]


@pytest.mark.parametrize("case", range(len(ROUND_TRIP)))
def test_dict_json_and_toml_round_trips(case: int) -> None:
    spot = Spot.from_dict(ROUND_TRIP[case])
    assert Spot.from_dict(spot.to_dict()) == spot
    assert Spot.from_dict(json.loads(spot.to_json())) == spot
    assert Spot.from_dict(tomllib.loads(spot.to_toml())) == spot
    # Not trivially equal: the fields were read back, not copied.
    assert spot.to_dict() == Spot.from_dict(tomllib.loads(spot.to_toml())).to_dict()


def test_round_trip_through_files(tmp_path: Path) -> None:
    spot = Spot.from_dict(ROUND_TRIP[1])
    (tmp_path / "s.toml").write_text(spot.to_toml())
    (tmp_path / "s.json").write_text(spot.to_json())
    assert load_spot(tmp_path / "s.toml") == spot
    assert load_spot(tmp_path / "s.json") == spot
    assert spot.sizes[1][0].donk == (25.0,) and spot.sizes[1][1].bet == (50.0, 150.0)
    assert spot.sizes[2][0].raise_ == () and spot.sizes[0][0].bet == (33.0, 100.0)


# ---------------------------------------------------------------- bugs these tests found
# Each failed on the first version of the solver's input checks.


def test_reach_must_be_a_pair() -> None:
    with pytest.raises(ConfigError, match="reach"):
        SpotSolver(Spot.from_dict(BASE), reach=(np.ones(1326),))


def test_negative_reach_names_the_weight() -> None:
    reach = np.ones(1326)
    reach[7] = -0.5
    with pytest.raises(ConfigError) as caught:
        SpotSolver(Spot.from_dict(BASE), reach=(reach, np.ones(1326)))
    assert "-0.5" in str(caught.value)


def test_boolean_size_is_refused() -> None:
    with pytest.raises(SpotError, match="True"):
        Spot.from_dict(_with(sizes={"bet": [True]}))


def _direct(oop: BetSizes, ip: BetSizes) -> Spot:
    return Spot(board=tuple(parse_cards("Qs Jh 2h")), pot=50, stack=200, oop_range="AA",
                ip_range="KK", sizes=tuple((oop, ip) for _ in range(3)))


def test_direct_spot_refuses_bad_sizes() -> None:
    with pytest.raises(SpotError):
        _direct(BetSizes(bet=(0.0, -5.0)), BetSizes())


def test_direct_spot_round_trips() -> None:
    spot = _direct(BetSizes(bet=(100.0, 50.0)), BetSizes())
    assert Spot.from_dict(spot.to_dict()) == spot


def test_direct_spot_with_ip_donk_is_refused_up_front() -> None:
    with pytest.raises(SpotError, match="donk"):
        _direct(BetSizes(), BetSizes(donk=(30.0,)))
