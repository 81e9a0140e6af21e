"""Luck adjustment: unbiased over every runout, and the all-in adjustment when all-in."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from tests.arena.test_allin import _play

from checkraise.arena.allin import allin_payoffs, board_at_last_action
from checkraise.arena.luck import luck_payoffs
from checkraise.arena.report import match_markdown
from checkraise.arena.ring import RingConfig, play_ring, play_rotation
from checkraise.cards import format_card, parse_cards
from checkraise.engine import RuleSet, State, TableConfig
from checkraise.equity import equity
from checkraise.errors import ConfigError


def _means_over_runouts(
    cfg: TableConfig, holes: str, board: str, known: int, moves: list[str]
) -> tuple[list[float], list[float]]:
    """The real and the luck-adjusted payoffs averaged over every way of dealing the
    board from card ``known`` on, the same actions each time."""
    hands = [parse_cards(h) for h in holes.split()]
    fixed = parse_cards(board)[:known]
    used = set(fixed) | {c for h in hands for c in h}
    deck = [c for c in range(52) if c not in used]
    real = [0.0] * cfg.num_players
    luck = [0.0] * cfg.num_players
    count = 0
    for rest in itertools.permutations(deck, 5 - known):  # ordered: turn, then river
        state = _play(cfg, holes, board[: 2 * known] + "".join(map(format_card, rest)), moves)
        adjusted = luck_payoffs(state)
        assert adjusted is not None
        for seat, (p, q) in enumerate(zip(state.payoffs(), adjusted, strict=True)):
            real[seat] += float(p)
            luck[seat] += q
        count += 1
    return [r / count for r in real], [q / count for q in luck]


@pytest.mark.parametrize(
    ("cfg", "holes", "board", "moves", "live", "flop_pot"),
    [
        # bets on the flop, turn and river: the later betting depends on nothing, the
        # payoffs on every card
        (
            TableConfig.nolimit(2, 5000),
            "AhKd 9s8s",
            "Ks7d2c4h9d",
            ["300", "c", "400", "c", "c", "1200", "c", "2000", "c"],
            (0, 1),
            600,
        ),
        # ACPC ties split; three seats, the small blind folded before the flop: his cards
        # are out of the deck and his 50 chips dead in the pot
        (
            TableConfig.nolimit(3, 3000, rules=RuleSet.ACPC),
            "Th9h AhKd AsKc",
            "Qs7d2c3h4h",
            ["c", "f", "c", "c", "c", "500", "c", "c", "c"],
            (1, 2),
            250,
        ),
        # three seats in to the river, a bet on the flop and the river: every seat is
        # charged for its own equity, whoever wins the pot
        (
            TableConfig.nolimit(3, 4000),
            "Th9h AhKd 7c7s",
            "Qh7d2h3c8s",
            ["c", "c", "c", "c", "300", "c", "c", "c", "c", "c", "c", "c", "800", "c", "c"],
            (0, 1, 2),
            300,
        ),
    ],
)
def test_the_turn_and_river_terms_average_to_zero_over_every_runout(
    cfg: TableConfig,
    holes: str,
    board: str,
    moves: list[str],
    live: tuple[int, ...],
    flop_pot: int,
) -> None:
    # every turn and river: whatever the payoffs did on each runout, the adjustment
    # leaves their average alone but for the flop's own term (the flop is fixed)
    real, luck = _means_over_runouts(cfg, holes, board, 3, moves)
    hands = [parse_cards(h) for h in holes.split()]
    dead = [c for i, h in enumerate(hands) if i not in live for c in h]
    flop = parse_cards(board)[:3]
    mine = [hands[i] for i in live]
    terms = [flop_pot * (after - before) for after, before in
             zip(_equities(mine, flop, dead), _equities(mine, [], dead), strict=True)]
    want = list(real)
    for seat, term in zip(live, terms, strict=True):
        want[seat] -= term
    assert luck == pytest.approx(want, abs=1e-9)
    assert all(term != 0.0 for term in terms)
    assert sum(luck) == pytest.approx(0.0, abs=1e-9)


def _equities(holes: list[list[int]], board: list[int], dead: list[int] | None = None
              ) -> list[float]:
    """Each hand's exact equity against the others, computed directly."""
    res = equity(holes, board=board, dead=dead or [], method="exact")
    return [float(e) for e in res.equity]


def _equity(holes: list[list[int]], board: list[int], dead: list[int] | None = None) -> float:
    """The first hand's exact equity against the second, computed directly."""
    return _equities(holes, board, dead)[0]


def test_checked_down_it_is_the_value_before_the_flop() -> None:
    cfg = TableConfig.nolimit(2, 5000)
    holes = [parse_cards("AhKd"), parse_cards("9s8s")]
    moves = ["300", "c", "c", "c", "c", "c", "c", "c"]  # a raised pot checked down
    state = _play(cfg, "AhKd 9s8s", "Ks7s2c4h3s", moves)  # the river makes the flush
    assert state.payoffs() == (-300, 300)
    # every card's luck out: what the 600 chips in the pot were worth before the flop
    expected = 600 * _equity(holes, []) - 300
    assert luck_payoffs(state) == pytest.approx([expected, -expected], abs=1e-9)


@pytest.mark.parametrize(
    ("cfg", "holes", "board", "moves"),
    [
        (TableConfig.nolimit(2, 1000), "AhAd KsKc", "2c7dTs3h5s", ["a", "c"]),
        # a limped pot, then all-in on the flop, or checked to an all-in on the turn
        # (the short stack all-in for less: the excess goes back, uncontested)
        (
            TableConfig.nolimit(2, (2500, 1003)),
            "AhKd 9s9c",
            "Ks7d2c4h9d",
            ["c", "c", "300", "a", "c"],
        ),
        (TableConfig.nolimit(2, 2000), "AhKd AsKc", "Qs7d2c3h4h", ["c", "c", "c", "c", "a", "c"]),
    ],
)
def test_all_in_it_is_the_all_in_adjusted_payoff_less_the_luck_before(
    cfg: TableConfig, holes: str, board: str, moves: list[str]
) -> None:
    hands = [parse_cards(h) for h in holes.split()]
    state = _play(cfg, holes, board, moves)
    expected = allin_payoffs(state)
    assert expected is not None
    # the cards dealt before the all-in changed the limped pot's (200) value by this much
    known = list(state.board[: board_at_last_action(state)])
    before = 200 * (_equity(hands, known) - _equity(hands, [])) if known else 0.0
    want = [float(expected[0]) - before, float(expected[1]) + before]
    assert luck_payoffs(state) == pytest.approx(want, abs=1e-6)


@pytest.mark.parametrize(
    ("cfg", "holes", "moves"),
    [
        (TableConfig.nolimit(2, 1000), "AhAd KsKc", ["300", "f"]),  # over before the flop
        (TableConfig.nolimit(3, 1000), "AhAd KsKc QsQc", ["300", "f", "f"]),
    ],
)
def test_nothing_is_adjusted_without_a_board_dealt_to_two_seats(
    cfg: TableConfig, holes: str, moves: list[str]
) -> None:
    state = _play(cfg, holes, "2c7dTs3h5s", moves)
    assert luck_payoffs(state) is None


@pytest.mark.parametrize(
    ("stack", "holes", "board", "real"),
    [
        (1000, "AhAd KsKc 7h6h", "Kd8h9h3s2c", (-1000, 2000, -1000)),  # the kings hit a set
        # an odd pot (3003) split by the two AK, exactly under ACPC rules
        (1001, "AhKd AsKc 7h6h", "QsJd2c3h4s", (Fraction(1001, 2), Fraction(1001, 2), -1001)),
    ],
)
def test_three_seats_all_in_before_the_flop_get_the_pot_at_their_equity(
    stack: int, holes: str, board: str, real: tuple[int | Fraction, ...]
) -> None:
    # equal stacks, so one pot and no side pot: the check-down value is the real one,
    # and every card's luck out leaves each seat its share of the pot at its equity
    # before the flop, less what it put in (the all-in adjustment, three ways)
    cfg = TableConfig.nolimit(3, stack, rules=RuleSet.ACPC)
    state = _play(cfg, holes, board, ["a", "c", "c"])
    assert state.payoffs() == real
    shares = _equities([parse_cards(h) for h in holes.split()], [])
    want = [3 * stack * share - stack for share in shares]
    assert luck_payoffs(state) == pytest.approx(want, abs=1e-6)
    assert want != pytest.approx([float(v) for v in real], abs=1.0)


def test_an_unfinished_hand_is_refused() -> None:
    with pytest.raises(ConfigError, match="finished hand"):
        luck_payoffs(State(TableConfig.nolimit(2, 1000), seed=1))


def test_a_match_reports_the_luck_adjusted_rate_and_it_cancels_between_twins() -> None:
    res = play_ring(RingConfig(("call", "call"), hands=40), seed=2, workers=1)
    # checked down every time: every hand saw the board with both players in
    assert res.luck_hands == 80
    one = play_rotation(RingConfig(("call", "call"), hands=40), seed=2, rotation=0)
    assert sum(a != [float(v) for v in b] for a, b in zip(one.luck, one.payoffs, strict=True)) > 30
    assert res.mbb(0, luck=True).mean == pytest.approx(0.0, abs=1e-9)  # twins
    assert all(row[0] + row[1] == pytest.approx(0.0, abs=1e-9) for row in res.deal_luck)
    data = res.to_json()
    assert data["luck_adjusted_hands"] == 80
    assert data["players"][0]["mbb_per_hand_luck_adjusted"]["mean"] == pytest.approx(0.0,
                                                                                     abs=1e-9)
    report = match_markdown(data)
    assert "Luck adjusted: 80 of 80 hands saw board cards with two or more players in" in report
    assert "| Agent | luck adjusted mbb/hand | 95% interval |" in report
    assert "All-in adjusted" not in report  # checked down: no all-in
    with pytest.raises(ConfigError, match="expected one kind of figure"):
        res.mbb(0, adjusted=True, luck=True)


def test_each_deal_sums_its_hands_luck_adjusted_payoffs_over_the_rotations() -> None:
    cfg = RingConfig(("call", "raise"), hands=30)
    res = play_ring(cfg, seed=4, workers=1)
    rotations = [play_rotation(cfg, seed=4, rotation=r) for r in range(2)]
    assert res.luck_hands == sum(r.luck_hands for r in rotations) > 0
    for h in range(30):
        for i in range(2):
            assert res.deal_luck[h][i] == pytest.approx(sum(r.luck[h][i] for r in rotations))
    # a hand with no board dealt to two or more players keeps its real result
    kept = [(r, h) for r in rotations for h in range(30)
            if r.luck[h] == [float(v) for v in r.payoffs[h]]]
    assert len(kept) == 60 - res.luck_hands


def test_a_three_seat_ring_adjusts_every_multiway_hand_and_cancels_between_triplets() -> None:
    # three 'call' seats see every card three ways; three 'allin' seats are all in before
    # the flop every hand: all of them adjusted, and identical agents still cancel
    calls = play_ring(RingConfig(("call",) * 3, hands=20), seed=6, workers=1)
    assert calls.luck_hands == 60 and calls.adjusted_hands == 0
    # each agent sits in every seat of a deal once: its luck-adjusted total is the seats'
    # sum, zero to rounding
    assert all(v == pytest.approx(0.0, abs=1e-6) for row in calls.deal_luck for v in row)
    one = play_rotation(RingConfig(("call",) * 3, hands=20), seed=6, rotation=0)
    assert sum(a != [float(v) for v in b] for a, b in zip(one.luck, one.payoffs, strict=True)) > 15
    shoves = play_ring(RingConfig(("allin",) * 3, hands=10), seed=7, workers=1)
    assert shoves.adjusted_hands == shoves.luck_hands == 30
    assert [sum(row[i] for row in shoves.deal_adjusted) for i in range(3)] == [0, 0, 0]
