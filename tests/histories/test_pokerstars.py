"""PokerStars reader and writer on the 4,930 real Pluribus hands and on hand-written cases."""

from __future__ import annotations

from fractions import Fraction

import pytest

from checkraise.cards import parse_cards
from checkraise.histories import (
    HandHistoryError,
    HandRecord,
    Move,
    format_hands,
    parse_text,
    replay,
)
from tests.shared_data import PLURIBUS_SAMPLE


def test_all_pluribus_hands_replay_and_agree_to_the_chip(pluribus_hands: list[HandRecord]) -> None:
    assert len(pluribus_hands) == 4930
    assert len({h.hand_id for h in pluribus_hands}) == 4930
    for hand in pluribus_hands:
        state = replay(hand)  # raises on any disagreement
        # Independent of the replay's own check: chips are conserved and the
        # collected amounts plus returned bets equal what was put in.
        put = sum(s.blind + s.ante for s in hand.seats) + sum(a.amount for a in hand.actions)
        assert sum(s.collected for s in hand.seats) + sum(s.uncalled for s in hand.seats) == put
        assert [Fraction(w) for w in state.winnings()] == [s.collected for s in hand.seats]


def test_known_hand_30027_read_by_hand(pluribus_hands: list[HandRecord]) -> None:
    hand = next(h for h in pluribus_hands if h.hand_id == "30027")
    # Seat 1 Eddie posts the small blind: engine order starts there; Seat 6 is the button.
    assert [s.name for s in hand.seats] == ["Eddie", "Bill", "Pluribus", "MrWhite", "Gogo",
                                            "Budd"]
    assert hand.button == 6
    assert hand.board == tuple(parse_cards("3h 7s 5c Qs 6c"))
    river = [a for a in hand.actions if a.street == 3]
    assert [(a.seat, a.move, a.amount, a.all_in) for a in river] == [
        (2, Move.BET, 6225, True), (5, Move.CALL, 6225, True)]
    turn_raise = next(a for a in hand.actions if a.move is Move.RAISE and a.street == 2)
    assert (turn_raise.amount, turn_raise.to) == (2925, 2925)
    # Pluribus shows only in the summary ("showed [8s As] and lost").
    assert hand.seats[2].showed and hand.seats[2].hole_cards == tuple(parse_cards("8s As"))
    assert hand.seats[5].collected == 20250
    # Pot 50 + 200 + 10000 + 10000 = 20250 to Budd, who put in 10000.
    assert replay(hand).payoffs() == (-50, -200, -10000, 0, 0, 10250)


def test_half_chip_split_pots_are_read_exactly(pluribus_hands: list[HandRecord]) -> None:
    split = [h for h in pluribus_hands if any(s.collected.denominator == 2 for s in h.seats)]
    assert split, "the data has odd-chip split pots printed as x.5"
    assert len(split) == 5  # counted with grep: 10 "collected N.5" lines, two per hand
    hand = split[0]
    assert hand.rules == "acpc"  # odd chips split in fractions, as the converter printed them
    winners = [s for s in hand.seats if s.collected]
    assert len(winners) == 2 and winners[0].collected == winners[1].collected
    assert replay(hand).winnings() == tuple(s.collected for s in hand.seats)


def test_round_trip_of_every_pluribus_hand(pluribus_hands: list[HandRecord]) -> None:
    again = parse_text(format_hands(pluribus_hands), source="roundtrip.txt")
    assert again == pluribus_hands


SIDE_POTS = """\
PokerStars Hand #7: Hold'em No Limit (10/20) - 2024/02/02 20:00:00 ET
Table 'Side' 9-max Seat #4 is the button
Seat 1: Ann (300 in chips)
Seat 2: Ben (1000 in chips)
Seat 4: Cat (120 in chips)
Seat 7: Dan (1000 in chips)
Ann: posts the ante 5
Ben: posts the ante 5
Cat: posts the ante 5
Dan: posts the ante 5
Dan: posts small blind 10
Ann: posts big blind 20
*** HOLE CARDS ***
Ben: raises 40 to 60
Cat: raises 55 to 115 and is all-in
Dan: folds
Ann: raises 180 to 295 and is all-in
Ben: calls 235
*** FLOP *** [2c 3d 4h]
*** TURN *** [2c 3d 4h] [9s]
*** RIVER *** [2c 3d 4h 9s] [Kd]
*** SHOWDOWN ***
Ann: shows [Ah Ad] (a pair of Aces)
Ben: shows [Kh Ks] (three of a kind, Kings)
Cat: shows [Qh Qs] (a pair of Queens)
Ben collected 360 from side pot
Ben collected 375 from main pot
*** SUMMARY ***
Total pot 735 Main pot 375. Side pot 360. | Rake 0
Board [2c 3d 4h 9s Kd]
Seat 1: Ann (big blind) showed [Ah Ad] and lost
Seat 2: Ben showed [Kh Ks] and won (735)
Seat 4: Cat (button) showed [Qh Qs] and lost
Seat 7: Dan (small blind) folded before Flop
"""


def test_antes_side_pots_and_dealer_seat_numbers() -> None:
    (hand,) = parse_text(SIDE_POTS, source="side.txt")
    # Dan (seat 7) posts the small blind: engine seat 0; the button is the seat before.
    assert [s.name for s in hand.seats] == ["Dan", "Ann", "Ben", "Cat"]
    assert hand.button == 4 and hand.ante == 5
    state = replay(hand)
    # By hand: main pot 4 x 5 antes + 10 (Dan) + 3 x 115 = 375; side pot 2 x 180 = 360;
    # Ben's three kings win both.
    assert state.winnings() == (0, 0, 735, 0)
    assert state.uncalled() is None
    assert state.payoffs() == (-15, -300, 435, -120)
    assert parse_text(format_hands([hand]))[0] == hand


ANTE_POSTFLOP = """\
PokerStars Hand #8: Hold'em No Limit (10/20) - 2024/02/02 20:05:00 ET
Table 'Ante' 6-max Seat #3 is the button
Seat 1: Ann (1000 in chips)
Seat 2: Ben (1000 in chips)
Seat 3: Cat (1000 in chips)
Ann: posts the ante 5
Ben: posts the ante 5
Cat: posts the ante 5
Ann: posts small blind 10
Ben: posts big blind 20
*** HOLE CARDS ***
Cat: raises 40 to 60
Ann: folds
Ben: calls 40
*** FLOP *** [2c 3d 4h]
Ben: bets 100
Cat: raises 200 to 300
Ben: folds
Uncalled bet (200) returned to Cat
Cat collected 345 from pot
*** SUMMARY ***
Total pot 345 | Rake 0
"""


def test_raise_amounts_after_the_flop_do_not_count_antes() -> None:
    (hand,) = parse_text(ANTE_POSTFLOP)
    state = replay(hand)
    # Pot: antes 15 + Ann 10 + Ben 60 + 100 + Cat 60 + 100 (200 of the raise returned).
    assert state.winnings() == (0, 0, 345) and state.uncalled() == (2, 200)
    assert state.payoffs() == (-15, -165, 180)


def test_money_game_amounts_in_cents() -> None:
    text = (SIDE_POTS.replace("(10/20)", "($0.10/$0.20 USD)")
            .replace("chips)", "chips)"))
    # Only the header changes: amounts become cents, so 300 chips are $300 here.
    (hand,) = parse_text(text)
    assert hand.unit == 100 and hand.big_blind == 20 and hand.seats[1].stack == 30000


def _error(text: str) -> HandHistoryError:
    with pytest.raises(HandHistoryError) as info:
        for hand in parse_text(text, source="bad.txt"):
            replay(hand)
    return info.value


def _line_of(text: str, needle: str) -> int:
    return text.splitlines().index(needle) + 1


def test_unknown_action_word_names_file_and_line() -> None:
    bad = SIDE_POTS.replace("Dan: folds", "Dan: limps")
    err = _error(bad)
    assert (err.source, err.line) == ("bad.txt", _line_of(bad, "Dan: limps"))
    assert "limps" in str(err) and str(err).startswith("bad.txt:")


def test_impossible_amounts_are_rejected() -> None:
    bad = SIDE_POTS.replace("Ben: raises 40 to 60", "Ben: raises 50 to 60")
    err = _error(bad)
    assert err.line == _line_of(bad, "Ben: raises 50 to 60") and "impossible amount" in str(err)
    for amount in ("-5", "+5"):
        bad = SIDE_POTS.replace("Ann: posts the ante 5", f"Ann: posts the ante {amount}")
        err = _error(bad)
        assert err.line == _line_of(bad, f"Ann: posts the ante {amount}")
        assert "impossible amount" in str(err)
    bad = PLURIBUS_SAMPLE.read_text().split("\n\n\n")[7]  # hand #30027
    bad = bad.replace("Budd: calls 200", "Budd: calls 300")
    err = _error(bad)
    assert err.line == _line_of(bad, "Budd: calls 300") and "the call is 200" in str(err)


def test_card_dealt_twice_and_truncated_hand() -> None:
    bad = SIDE_POTS.replace("Cat: shows [Qh Qs]", "Cat: shows [Qh 9s]").replace(
        "showed [Qh Qs]", "showed [Qh 9s]")
    assert "dealt twice" in str(_error(bad))
    cut = SIDE_POTS.split("*** FLOP ***")[0]
    err = _error(cut)
    assert "truncated" in str(err) and err.source == "bad.txt"


def test_raise_when_nobody_can_call_is_rejected() -> None:
    bad = SIDE_POTS.replace("Ben: calls 235", "Ben: raises 600 to 895")
    err = _error(bad)
    assert err.line == _line_of(bad, "Ben: raises 600 to 895") and "not allowed" in str(err)


def test_wrong_collected_amount_reports_the_difference() -> None:
    bad = SIDE_POTS.replace("Ben collected 360 from side pot", "Ben collected 350 from side pot")
    err = _error(bad)
    assert "difference -10" in str(err) and err.line == 1


def test_reads_random_engine_hands_written_by_the_engine() -> None:
    # The engine's own PokerStars writer is an independent producer of histories:
    # 2-9 seats, uneven stacks, antes, all-ins and side pots, real "*** SHOW DOWN ***".
    import random

    from checkraise.engine import Action, State, TableConfig

    rng = random.Random(3)
    for k in range(150):
        n = rng.randrange(2, 10)
        stacks = tuple(rng.randrange(300, 3000) for _ in range(n))
        config = TableConfig.nolimit(n, stacks=stacks, small_blind=10, big_blind=20,
                                     ante=rng.choice([0, 0, 5]))
        state = State(config, seed=k)
        while not state.is_terminal:
            legal = state.legal_actions()
            r = rng.random()
            if legal.can_fold and r < 0.25:
                state.step(Action.fold())
            elif legal.min_raise_to is not None and legal.max_raise_to is not None and r < 0.5:
                state.step(Action.raise_to(rng.randrange(legal.min_raise_to,
                                                         legal.max_raise_to + 1)))
            else:
                state.step(Action.call())
        (hand,) = parse_text(state.to_pokerstars(hand_id=k + 1))
        assert replay(hand).payoffs() == state.payoffs()


def test_player_names_with_colons_and_prefixes_read_like_plain_names() -> None:
    # Fold and check lines are matched whole against the seated names; names that hold
    # ": " or that prefix another name must still be read line by line, as before.
    plain = parse_text(SIDE_POTS)[0]
    renamed = SIDE_POTS.replace("Ann", "X: y").replace("Ben", "Bo").replace("Dan", "Bob")
    (hand,) = parse_text(renamed)
    assert [s.name for s in hand.seats] == ["Bob", "X: y", "Bo", "Cat"]
    assert hand.actions == plain.actions
    assert replay(hand).payoffs() == replay(plain).payoffs()
    folds = ANTE_POSTFLOP.replace("Ann", "Zed: folds").replace("Cat", "Zed: checks")
    (hand,) = parse_text(folds)
    assert hand.actions == parse_text(ANTE_POSTFLOP)[0].actions


def test_same_seat_line_in_chips_and_in_cents() -> None:
    money = SIDE_POTS.replace("(10/20)", "($0.10/$0.20 USD)")
    # Seat lines are remembered between hands; the unit must still apply per hand.
    assert parse_text(SIDE_POTS)[0].seats[1].stack == 300
    assert parse_text(money)[0].seats[1].stack == 30000
    assert parse_text(SIDE_POTS)[0].seats[1].stack == 300
