"""All-in adjustment against slow twins: the engine's payout averaged over every runout."""

from __future__ import annotations

import itertools
from fractions import Fraction

import eval7
import pytest

from checkraise.arena.allin import allin_payoffs, board_at_last_action, order_counts
from checkraise.arena.luck import luck_payoffs
from checkraise.arena.ring import RingConfig, play_ring
from checkraise.cards import format_card, parse_cards
from checkraise.engine import ActionEvent, RuleSet, State, TableConfig
from checkraise.errors import ConfigError


def _replay(cfg: TableConfig, holes: list[list[int]], board: list[int],
            actions: list[ActionEvent]) -> State:
    state = State(cfg, hole_cards=holes, board=board)
    for event in actions:
        state.step(event.action)
    assert state.is_terminal
    return state


def _brute_force(state: State) -> tuple[Fraction, ...]:
    """Mean of the engine's own payoffs over every completion of the board."""
    holes = [list(h) for h in state.hole_cards]
    known = list(state.board[:board_at_last_action(state)])
    used = set(known) | {c for h in holes for c in h}
    deck = [c for c in range(52) if c not in used]
    actions = [e for e in state.history if isinstance(e, ActionEvent)]
    total = [Fraction(0)] * state.config.num_players
    count = 0
    for rest in itertools.combinations(deck, 5 - len(known)):
        pay = _replay(state.config, holes, known + list(rest), actions).payoffs()
        total = [t + Fraction(p) for t, p in zip(total, pay, strict=True)]
        count += 1
    return tuple(t / count for t in total)


def _play(cfg: TableConfig, holes: str, board: str, moves: list[str]) -> State:
    state = State(cfg, hole_cards=[parse_cards(h) for h in holes.split()],
                  board=parse_cards(board))
    for move in moves:
        if move == "f":
            state.fold()
        elif move == "c":
            state.check_call()
        elif move == "a":
            state.go_all_in()
        else:
            state.raise_to(int(move))
    assert state.is_terminal
    return state


CASES = {
    # heads-up, all-in on the flop, the bigger stack's excess returned
    "hu-flop-uncalled": (TableConfig.nolimit(2, (2500, 1003)), "AhKd 9s9c", "Ks7d2c4h9d",
                         ["c", "c", "300", "a", "c"]),
    # heads-up ACPC rules, all-in on the turn with the same hand: ties split exactly
    "hu-acpc-turn-ties": (TableConfig.nolimit(2, 1001, rules=RuleSet.ACPC), "AhKd AsKc",
                          "Qs7d2c3h4h", ["c", "c", "c", "c", "a", "c"]),
    # three seats, the small blind's chips dead: an odd pot, odd chips on ties
    "ring-dead-blind-odd-chip": (TableConfig.nolimit(3, 2000, 25, 50), "8h8d AhKd AsKc",
                                 "Jd7c2s5h6h", ["c", "f", "c", "a", "c"]),
    # a folded seat put in more than the all-in short stack: a side pot only one can win
    "ring-side-pot-dead-money": (TableConfig.nolimit(3, (2000, 2000, 300)), "QhQd 7s6s AcJc",
                                 "Ts9c2d3h4s", ["a", "1000", "c", "1600", "f"]),
    # three seats all-in on the flop for three different amounts: a main pot and a side pot
    "ring-three-way-side-pot": (TableConfig.nolimit(3, (3000, 1200, 2000)), "AhKh QsQd 9c8c",
                                "Kd9h4c2s7d", ["c", "c", "c", "a", "a", "c"]),
    # four seats, one folded before the flop, three all-in on the turn: ties (two AK)
    # split exactly under ACPC rules, the folded cards are out of the deck
    "ring-four-seats-turn-ties": (TableConfig.nolimit(4, 1001, rules=RuleSet.ACPC),
                                  "AhKd AsKc 7h7d 2c3c", "Qs7c2h4d9s",
                                  ["f", "c", "c", "c", "c", "c", "c", "a", "c", "c"]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_adjusted_payoffs_are_the_engines_payoffs_averaged_over_every_runout(
    name: str,
) -> None:
    cfg, holes, board, moves = CASES[name]
    state = _play(cfg, holes, board, moves)
    assert board_at_last_action(state) in (3, 4)
    adjusted = allin_payoffs(state)
    assert adjusted is not None
    assert tuple(Fraction(v) for v in adjusted) == _brute_force(state)
    assert sum(adjusted) == 0


def test_a_preflop_all_in_matches_eval7_over_all_1712304_boards() -> None:
    cfg = TableConfig.nolimit(2, 1000)
    state = _play(cfg, "AhAd KsKc", "2c7dTs3h5s", ["a", "c"])
    mine = [eval7.Card(format_card(c)) for c in parse_cards("AhAd")]
    theirs = [eval7.Card(format_card(c)) for c in parse_cards("KsKc")]
    deck = [c for c in eval7.Deck().cards if c not in mine + theirs]
    net = 0
    boards = 0
    for five in itertools.combinations(deck, 5):
        a, b = eval7.evaluate(mine + list(five)), eval7.evaluate(theirs + list(five))
        net += (a > b) - (a < b)
        boards += 1
    expected = Fraction(1000 * net, boards)
    assert allin_payoffs(state) == (expected, -expected)


@pytest.mark.parametrize(("holes", "board"), [
    ("AhKh QsQd 9c8c", "Kd9h4c"),  # 990 turns and rivers
    ("AhKd AsKc 7h7d", "Qs8c2s"),  # ties between the two AK, unless the spades come
    ("2c2d 3h3s 4c4h 5d5s", "AcKdQh"),  # four pairs: the board's two pair often ties them all
    # eight hands: counted from the codes (an array of 8**8 counts would take 134 MB)
    ("2c2d 3h3s 4c4h 5d5s 6c6d 7h7s 8c8h 9d9s", "AcKdQh"),
])
def test_the_showdown_orders_match_eval7_on_every_completion(holes: str, board: str) -> None:
    hands = [parse_cards(h) for h in holes.split()]
    known = parse_cards(board)
    counts = order_counts(tuple(map(tuple, hands)), tuple(known))
    used = set(known) | {c for h in hands for c in h}
    deck = [c for c in range(52) if c not in used]
    expected: dict[tuple[int, ...], int] = {}
    for rest in itertools.combinations(deck, 5 - len(known)):
        five = [eval7.Card(format_card(c)) for c in (*known, *rest)]
        values = [eval7.evaluate([eval7.Card(format_card(c)) for c in h] + five) for h in hands]
        beaten = tuple(sum(w < v for w in values) for v in values)
        expected[beaten] = expected.get(beaten, 0) + 1
    k = len(hands)
    decoded = {tuple(code // k**i % k for i in range(k)): n for code, n in counts.items()}
    assert decoded == expected
    assert len(expected) >= 3


def test_three_seats_all_in_before_the_flop_agree_with_the_luck_adjustment() -> None:
    # one pot, no side pot: the expected payout is each seat's equity share of the pot,
    # which the luck adjustment computes as shares of the same order counts (checked
    # against eval7 above), not by the engine's settlement
    state = _play(TableConfig.nolimit(3, 1000), "AhAd KsKc 7h6h", "Kd8h9h3s2c", ["a", "c", "c"])
    adjusted = allin_payoffs(state)
    assert adjusted is not None and sum(adjusted) == 0
    assert [float(v) for v in adjusted] == pytest.approx(luck_payoffs(state), abs=1e-9)


@pytest.mark.parametrize(
    ("cfg", "holes", "moves"),
    [
        (TableConfig.nolimit(2, 1000), "AhAd KsKc", ["300", "f"]),  # a fold ends it
        (TableConfig.nolimit(2, 1000), "AhAd KsKc", ["c", "c", "c", "c", "c", "c",
                                                    "a", "c"]),  # all-in on the river
        (TableConfig.nolimit(3, 1000), "AhAd KsKc QsQc",
         ["c", "c", "c"] + ["c"] * 6 + ["a", "c", "c"]),  # three seats, on the river
    ],
)
def test_nothing_is_adjusted_without_cards_to_come_for_two_or_more_seats(
    cfg: TableConfig, holes: str, moves: list[str]
) -> None:
    assert allin_payoffs(_play(cfg, holes, "2c7dTs3h5s", moves)) is None


def test_an_unfinished_hand_is_refused() -> None:
    with pytest.raises(ConfigError, match="finished hand"):
        allin_payoffs(State(TableConfig.nolimit(2, 1000), seed=1))


def test_a_match_reports_the_adjusted_rate_and_it_cancels_between_twins() -> None:
    # 'random' shoves and calls often: many hands are all-in before the river
    res = play_ring(RingConfig(("random", "random"), hands=60), seed=5, workers=1)
    assert res.adjusted_hands > 0
    assert res.mbb(0, adjusted=True).mean == 0.0  # same agent in both seats: exactly zero
    assert all(row[0] + row[1] == 0 for row in res.deal_adjusted)
    data = res.to_json()
    assert data["allin_adjusted_hands"] == res.adjusted_hands
    assert data["players"][0]["mbb_per_hand_allin_adjusted"]["mean"] == 0.0


def test_hands_checked_down_to_the_river_keep_their_real_result() -> None:
    res = play_ring(RingConfig(("call", "call"), hands=40), seed=2, workers=1)
    assert res.adjusted_hands == 0
    assert res.deal_adjusted == res.deal_chips
