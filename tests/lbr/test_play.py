"""LBR against baselines whose LBR value is known exactly (Lisý & Bowling 2017, Table 1)."""

from __future__ import annotations

import numpy as np
import pytest
from tests.naive import naive_rank

from checkraise.agents.base import BaseAgent
from checkraise.cards import NUM_COMBOS
from checkraise.engine import Action, Observation
from checkraise.equity import equity
from checkraise.errors import ConfigError
from checkraise.lbr import LBRSettings, parse_streets, play_deal, run_lbr
from checkraise.lbr.play import _Tally, draw_deal, lbr_config, make_items, play_hand


def test_always_fold_loses_750_when_lbr_bets_turn_and_river() -> None:
    # LBR calls preflop and checks the flop behind; on the turn the agent checks and
    # LBR's bet wins the pot outright (+100 in the small blind); in the big blind the
    # agent folds its small blind at once (+50). (100 + 50) / 2 chips = 750 mbb, per deal.
    for actions in ("fcpa", "56"):
        result = run_lbr("checkfold", 200, LBRSettings(actions, parse_streets("turn,river")),
                         seed=3)
        assert result.mbb_per_game.mean == 750.0
        assert result.mbb_per_game.half_width == 0.0
        assert result.seat_mbb == (1000.0, 500.0)
        assert result.exact and result.hands == 200


def test_always_fold_loses_250_to_fold_call_lbr() -> None:
    # Fold/call LBR cannot bet: in the small blind it calls (every hand has wp > 1/4
    # against a random hand) and checks down, in the big blind it wins 50. The
    # showdowns cancel when every deal is also played with the hole cards swapped.
    result = run_lbr("checkfold", 120, LBRSettings("fc", parse_streets("all")), seed=5,
                     mirror=True)
    assert result.mbb_per_game.mean == 250.0
    assert result.mbb_per_game.half_width == 0.0


def test_fold_call_lbr_checks_down_in_the_small_blind() -> None:
    settings = LBRSettings("fc", parse_streets("all"))
    rng = np.random.default_rng(8)
    for i in range(25):
        deal = draw_deal(rng)
        r = play_deal("checkfold", deal, settings, seed=i)
        mine = naive_rank(list(deal.holes[0]) + list(deal.board))
        theirs = naive_rank(list(deal.holes[1]) + list(deal.board))
        assert r.seat0 == 100.0 * ((mine > theirs) - (mine < theirs))
        assert r.seat1 == 50.0
        # luck adjusted, a pot of 200 checked down is 200 times LBR's equity before the
        # flop, less 100; the agent's fold came before any card was dealt
        before = equity([list(deal.holes[0]), list(deal.holes[1])], method="exact").equity[0]
        assert r.luck0 == pytest.approx(200.0 * float(before) - 100.0, abs=1e-9)
        assert r.luck1 == 50.0


def test_the_luck_adjusted_rate_is_reported_and_narrower_on_checked_down_hands() -> None:
    settings = LBRSettings("fc", parse_streets("all"))
    result = run_lbr("checkfold", 40, settings, seed=5)
    assert result.to_json()["mbb_per_game_luck_adjusted"]["n"] == 40
    assert result.mbb_per_game_luck.half_width < result.mbb_per_game.half_width


def test_fold_call_lbr_against_always_call_is_exactly_even() -> None:
    # Both check every hand down; with the cards staying with the seats the two hands
    # of a deal are mirror images.
    result = run_lbr("call", 60, LBRSettings("fc", parse_streets("all")), seed=2)
    assert result.mbb_per_game.mean == 0.0
    assert result.mbb_per_game.half_width == 0.0


def test_betting_lbr_beats_always_call_by_a_wide_margin() -> None:
    result = run_lbr("call", 100, LBRSettings("fcpa", parse_streets("turn,river")), seed=2)
    assert result.mbb_per_game.low > 5000


def test_results_do_not_depend_on_blocks_or_workers() -> None:
    settings = LBRSettings("fcpa", parse_streets("turn,river"))
    a = run_lbr("raise", 16, settings, seed=9, block=1)
    b = run_lbr("raise", 16, settings, seed=9, block=3, workers=2)
    assert a.to_json() == b.to_json()


def test_a_stochastic_agent_without_a_fast_path_is_reported() -> None:
    result = run_lbr("equity:samples=50", 2, LBRSettings("fc", parse_streets("river")),
                     seed=1)
    assert not result.exact
    assert result.to_json()["range_tracking_exact"] is False
    assert result.notes


def test_bad_settings_name_the_value() -> None:
    with pytest.raises(ConfigError, match="'fcp'"):
        LBRSettings("fcp")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="'flops'"):
        parse_streets("flops,river")
    with pytest.raises(ConfigError, match="hands 1"):
        make_items("call", 1, LBRSettings(), seed=0)
    with pytest.raises(ConfigError, match="streets"):
        LBRSettings(streets=frozenset({4}))


class _TwoFaced(BaseAgent):
    """Folds to every bet at the table, but its copies (the hand-by-hand queries) call."""

    def __init__(self) -> None:
        super().__init__(seed=0)
        self.twin = False

    def __getstate__(self) -> dict[str, object]:
        return {**self.__dict__, "twin": True}

    def act(self, observation: Observation) -> Action:
        legal = observation.legal
        assert legal is not None
        if legal.call_amount > 0 and not self.twin:
            return Action.fold()
        return Action.call()


def test_an_action_the_queries_gave_no_probability_keeps_the_range_and_is_counted() -> None:
    tally = _Tally()
    rng = np.random.default_rng(1)
    settings = LBRSettings("fcpa", parse_streets("all"), preflop_samples=100)
    chips = play_hand(_TwoFaced(), draw_deal(rng), 1, settings, lbr_config(),
                      rng=np.random.default_rng(2), tally=tally)
    assert chips == 50.0  # it folded its small blind at once
    assert tally.range_resets == 1
    assert tally.last_range is not None and tally.last_range.sum() == NUM_COMBOS
