"""The hand-reading bot: Algorithm 2's rules, registry, legal play in the arena."""

from __future__ import annotations

import pytest

from checkraise.agents import make_agent
from checkraise.agents.handreading import HandReadingAgent, Response, decide, is_speculative
from checkraise.cards import combo_index, parse_cards
from checkraise.engine import ActionKind, LegalActions, State, TableConfig

FACING = LegalActions(True, False, 100, 300, 10_000)
OPEN = LegalActions(False, True, 0, 100, 10_000)


def _decide(win: float, legal: LegalActions = FACING, **kw):  # type: ignore[no-untyped-def]
    args = {"street": 1, "pot": 300, "mine": 100, "stack": 10_000, "big_blind": 100}
    opponents = kw.pop("opponents", 1)
    args.update(kw)
    return decide(win, opponents, legal, **args)


def test_thresholds_order_and_raise_sizes() -> None:
    # Heads-up: fair share 0.5; T_pot = 0.5 + 0.3 * 0.5 = 0.65, T_half = 0.55,
    # T_call = 0.7 * 0.5 = 0.35 (pot odds 100 / 400 = 0.25).
    d = _decide(0.7)
    assert d.reason == "raise pot" and d.action.amount == 100 + 100 + 400  # pot after call 400
    d = _decide(0.6)
    assert d.reason == "raise half pot" and d.action.amount == 100 + 100 + 200
    assert _decide(0.4).reason == "call"
    assert _decide(0.3).reason == "fold"
    assert _decide(0.3, OPEN).reason == "check"


def test_more_players_lower_thresholds() -> None:
    # Three opponents: fair share 0.25, T_half = 0.25 + 0.1 * 0.75 = 0.325, T_call = 0.175.
    assert _decide(0.35, opponents=3).reason == "raise half pot"
    assert _decide(0.35, opponents=1).reason == "call"
    assert _decide(0.26, opponents=3).reason == "call"  # the pot odds (0.25) bind
    assert _decide(0.24, opponents=3).reason == "fold"


def test_tournament_mode_is_tighter() -> None:
    assert _decide(0.4).reason == "call"
    assert _decide(0.4, tighten=0.06).reason == "fold"
    cash = HandReadingAgent(seed=1, mode="cash")
    tour = HandReadingAgent(seed=1, mode="tournament")
    assert cash.tighten == 0.0 < tour.tighten


def test_auto_mode_switches_to_tournament_when_chips_carry_over() -> None:
    bot = HandReadingAgent(seed=1)
    cards = tuple(parse_cards("As Kd"))
    bot.begin_hand(0, TableConfig.nolimit(3, stacks=2000), cards, 0)
    assert not bot.tournament and bot.tighten == 0.0
    bot.begin_hand(0, TableConfig.nolimit(3, stacks=2000), cards, 1)
    assert not bot.tournament
    bot.begin_hand(1, TableConfig.nolimit(3, stacks=(2000, 1500, 2500)), cards, 2)
    assert bot.tournament and bot.tighten > 0.0
    shrunk = HandReadingAgent(seed=1)
    shrunk.begin_hand(0, TableConfig.nolimit(3, stacks=2000), cards, 0)
    shrunk.begin_hand(0, TableConfig.nolimit(2, stacks=3000), cards, 1)
    assert shrunk.tournament
    assert not HandReadingAgent(seed=1, mode="cash").tournament


def test_huge_overbet_is_a_special_case() -> None:
    legal = LegalActions(True, False, 2000, 4000, 10_000)  # 2,000 to call into 300 before
    # Pot odds 2,000 / 4,300 = 0.465; with the margin 0.05 the call needs 0.515.
    assert _decide(0.5, legal, pot=2300).reason == "fold to huge overbet"
    assert _decide(0.53, legal, pot=2300).reason == "call huge overbet"
    # The same bet into a big pot is no overbet: the ordinary rules apply (a raise).
    assert _decide(0.7, legal, pot=6000).reason == "raise pot"


def test_fold_equity_raise() -> None:
    # Checked to us with W = 0.3 into a pot of 300: checking is worth 0.3 * 300 = 90.
    # A pot-sized bet (to 100 + 300) that folds him 70% of the time and wins 20% when
    # called (pot 900): 0.7 * 300 + 0.3 * (0.2 * 900 - 300) = 174 > 90 + 0.05 * 300.
    good = {1.0: Response(400, 0.7, 0.2, 900)}
    d = _decide(0.3, OPEN, responses=good)
    assert d.reason == "raise on fold equity" and d.action.amount == 400
    # Folding 20% of the time: 0.2 * 300 + 0.8 * (180 - 300) = -36 < 90: check.
    assert _decide(0.3, OPEN, responses={1.0: Response(400, 0.2, 0.2, 900)}).reason == "check"
    # Facing a bet the alternative is the better of calling (0.3 * 400 - 100 = 20) and
    # folding; a raise to 700 that folds him half the time and wins 30% of a pot of 1,600:
    # 0.5 * 300 + 0.5 * (0.3 * 1600 - 600) = 90 > 20 + 15.
    d = _decide(0.3, responses={1.0: Response(700, 0.5, 0.3, 1600)})
    assert d.reason == "raise on fold equity"


def test_short_stack_preflop_is_all_in_or_fold() -> None:
    legal = LegalActions(True, False, 50, 200, 900)
    for win in (0.2, 0.4, 0.6, 0.9):
        d = _decide(win, legal, street=0, pot=150, mine=50, stack=850, big_blind=100)
        assert d.action.kind is ActionKind.FOLD or d.action.amount == 900


def test_deep_stack_speculative_call_and_draw_on_implied_odds() -> None:
    legal = LegalActions(True, False, 200, 500, 20_000)
    deep = {"street": 0, "pot": 450, "mine": 100, "stack": 19_900}
    assert _decide(0.2, legal, speculative=True, **deep).reason == "deep stack speculative call"
    assert _decide(0.2, legal, speculative=False, **deep).reason == "fold"
    assert _decide(0.2, legal, speculative=True, **(deep | {"stack": 5000})).reason == "fold"
    # Flop, 9 outs: hit 9/47 = 0.19; (pot 500 + call 200 + implied 700) * 0.19 = 268 >= 200.
    legal = LegalActions(True, False, 200, 400, 10_000)
    d = _decide(0.2, legal, pot=500, draw_outs=9)
    assert d.reason == "draw with 9 outs on implied odds"
    assert _decide(0.2, legal, pot=500, draw_outs=7).reason == "fold"


def test_speculative_hands() -> None:
    assert [is_speculative(*parse_cards(h)) for h in ("9c9d", "TcTd", "Js9s", "Js8s", "As2s",
                                                      "Ac2d")] == [True, False, True, False,
                                                                   True, False]


def test_registry_and_options() -> None:
    agent = make_agent("fold:mode=tournament,samples=100", seed=3)
    assert isinstance(agent, HandReadingAgent) and agent.samples == 100
    with pytest.raises(ValueError, match="mode"):
        make_agent("fold:mode=ring")


def test_win_rate_drops_against_a_four_bettor() -> None:
    from checkraise.engine import Action

    cfg = TableConfig.nolimit(2, stacks=20_000)
    state = State(cfg, hole_cards=[parse_cards("Kc Kd"), parse_cards("7h 6h")], seed=1)
    bot = HandReadingAgent(seed=2, samples=20_000)
    bot.begin_hand(0, cfg, state.hole_cards[0], 0)
    vs_random = bot.win_rate(state.observation(0))
    state.step(Action.raise_to(300))
    state.step(Action.raise_to(1000))  # 3-bet
    state.step(Action.raise_to(2500))
    state.step(Action.raise_to(7000))  # 5-bet: a strong range
    vs_range = bot.win_rate(state.observation(0))
    # Standard error of each estimate: at most 0.5 / sqrt(20,000) = 0.0035.
    assert vs_random > 0.78 and vs_range < vs_random - 0.01
    seen = bot.last_prediction[1]
    aa, trash = combo_index(*parse_cards("As Ah")), combo_index(*parse_cards("7c 2d"))
    assert seen[aa] > 3 * seen[trash]


def test_plays_legal_hands_and_learns_opponents() -> None:
    import numpy as np

    from checkraise.arena import play_match
    from checkraise.arena.table import play_hand

    result = play_match("fold:samples=100", "random", hands=10, seed=4, workers=1)
    assert result.labels[0].startswith("handreader")
    bot = HandReadingAgent(seed=5, samples=100)
    caller, rand = make_agent("call", seed=1), make_agent("random", seed=2)
    rng = np.random.default_rng(0)
    for h in range(8):
        # The players keep their circular order while the button moves.
        order = [[bot, caller, rand], [rand, bot, caller], [caller, rand, bot]][h % 3]
        deck = [int(c) for c in rng.permutation(52)]
        play_hand(order, TableConfig.nolimit(3, stacks=5000), deck, h)
    # The caller always sits one seat after the bot, the random player two.
    assert set(bot.book.players) == {"3:1", "3:2"}
    caller_stats = bot.book["3:1"].total()
    assert caller_stats.hands == 8
    assert caller_stats.pre_fold == 0 and caller_stats.post_fold_facing == 0


def _flop_decision(folds: list[int]) -> HandReadingAgent:
    """The bot in the big blind, checked to on the flop, against a player with these
    responses when facing a flop bet (fold or check, call, raise by size)."""
    from checkraise.engine import Action
    from checkraise.opponents.stats import Position

    cfg = TableConfig.nolimit(2, stacks=20_000)
    state = State(cfg, hole_cards=[parse_cards("Ah Kh"), parse_cards("7c 2d")], seed=5)
    bot = HandReadingAgent(seed=3, samples=4000)
    bot.book["2:1"].by_position[Position.REAR].situations[(1, 1, True)] = folds
    bot.begin_hand(1, cfg, state.hole_cards[1], 0)
    state.step(Action.call())
    state.step(Action.call())
    assert state.current_player == 1 and len(state.board) == 3
    bot.act(state.observation(1))
    return bot


def test_bluffs_a_player_who_folds_to_bets_and_not_a_calling_station() -> None:
    folder = _flop_decision([60, 0, 0, 0, 0])
    assert folder.last_win is not None and folder.last_win < 0.5
    assert folder.last_reason == "raise on fold equity"
    station = _flop_decision([0, 60, 0, 0, 0])
    assert station.last_reason == "check"


def test_tournament_commit_rule() -> None:
    # Tournament mode (commit 1/3): calling 4,000 of 9,000 behind needs W >= T_pot
    # (0.65 heads-up) even though the pot odds (4,000 / 10,000) and T_call would allow it.
    legal = LegalActions(True, False, 4000, 8000, 9_000)
    kw = {"pot": 6000, "stack": 9000}
    assert _decide(0.5, legal, **kw).reason == "call"
    assert _decide(0.5, legal, commit=1 / 3, **kw).reason == "fold: stack at risk"
    assert _decide(0.66, legal, commit=1 / 3, **kw).reason == "call risking the stack"
    # Fold-equity raises that would add more than a third of the stack are not made.
    big = {1.0: Response(5000, 0.9, 0.2, 10_000)}
    assert _decide(0.3, OPEN, responses=big, **kw).reason == "raise on fold equity"
    assert _decide(0.3, OPEN, responses=big, commit=1 / 3, **kw).reason == "check"


@pytest.mark.parametrize("folds", [False, True])
def test_showdown_evidence_only_from_cards_shown(folds: bool) -> None:
    """The bot weighs an opponent's cut only by cards it saw at a showdown."""
    from checkraise.engine import Action
    from checkraise.opponents.stats import Position

    cfg = TableConfig.nolimit(2, stacks=20_000)
    state = State(cfg, hole_cards=[parse_cards("Ah Kh"), parse_cards("7c 2d")], seed=5)
    bot = HandReadingAgent(seed=3, samples=100)
    bot.book["2:1"].by_position[Position.REAR].situations[(0, 0, True)] = [5, 5, 10, 0, 0]
    bot.begin_hand(1, cfg, state.hole_cards[1], 0)
    state.step(Action.raise_to(300))
    if folds:
        state.step(Action.fold())
    else:
        state.step(Action.call())
        while not state.is_terminal:
            state.step(Action.call())
    obs = state.observation(1)
    bot.end_hand(obs, state.payoffs())
    assert (obs.shown[0] is None) == folds
    if folds:
        assert "2:1" not in bot.evidence
    else:
        # His preflop raise and three checks (calls of nothing) were each weighed once.
        assert bot.evidence["2:1"].actions == 4


def test_tournament_last_life_is_tighter() -> None:
    """Once the bot has lost all its chips (the rebuy is used) it plays its last life
    tighter: more on every threshold and a smaller share of the stack at risk."""
    from checkraise.engine import Action

    bot = HandReadingAgent(seed=3, samples=100, mode="tournament")
    before = (bot.tighten, bot.commit_now)
    cfg = TableConfig.nolimit(2, stacks=(2000, 2000))
    for mine, busts in (("Ah Ad", 0), ("7c 2d", 1)):
        # Seat 0 pushes AK, the bot calls: with aces it doubles, with 7-2 it busts.
        state = State(cfg, hole_cards=[parse_cards("As Kd"), parse_cards(mine)],
                      board=parse_cards("4s 5h 9c Jd Qh"))
        bot.begin_hand(1, cfg, state.hole_cards[1], 0)
        state.step(Action.raise_to(2000))
        state.step(Action.call())
        bot.end_hand(state.observation(1), state.payoffs())
        assert bot.busts == busts
    assert bot.tighten == pytest.approx(before[0] + bot.last_tighten)
    assert bot.commit_now == bot.last_commit < before[1]
    bot.begin_hand(1, cfg, (0, 1), 0)  # a new tournament: a fresh start
    assert bot.busts == 0
