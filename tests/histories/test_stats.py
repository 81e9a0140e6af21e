"""Statistics of a small hand-made file, each figure computed by hand below."""

from __future__ import annotations

from pathlib import Path

import pytest

from checkraise.histories import (
    import_files,
    open_database,
    parse_text,
    player_stats,
    position_names,
    seat_stats,
)

# Three players, blinds 1/2, 100 chips each. Seats: 1 A, 2 B, 3 C.
HANDS = """\
PokerStars Hand #101: Hold'em No Limit (1/2) - 2024/03/01 10:00:00 ET
Table 'Made' 3-max Seat #3 is the button
Seat 1: A (100 in chips)
Seat 2: B (100 in chips)
Seat 3: C (100 in chips)
A: posts small blind 1
B: posts big blind 2
*** HOLE CARDS ***
C: raises 4 to 6
A: raises 12 to 18
B: folds
C: calls 12
*** FLOP *** [2c 7d 9h]
A: bets 20
C: calls 20
*** TURN *** [2c 7d 9h] [Kd]
A: checks
C: bets 40
A: folds
Uncalled bet (40) returned to C
C collected 78 from pot
*** SUMMARY ***
Total pot 78 | Rake 0
Board [2c 7d 9h Kd]


PokerStars Hand #102: Hold'em No Limit (1/2) - 2024/03/01 10:01:00 ET
Table 'Made' 3-max Seat #1 is the button
Seat 1: A (100 in chips)
Seat 2: B (100 in chips)
Seat 3: C (100 in chips)
B: posts small blind 1
C: posts big blind 2
*** HOLE CARDS ***
Dealt to A [7c 2d]
A: calls 2
B: calls 1
C: checks
*** FLOP *** [As Kh 3c]
B: checks
C: bets 4
A: folds
B: calls 4
*** TURN *** [As Kh 3c] [5d]
B: checks
C: checks
*** RIVER *** [As Kh 3c 5d] [8s]
B: bets 10
C: calls 10
*** SHOWDOWN ***
B: shows [Ad Qc] (a pair of Aces)
C: shows [Kc Jd] (a pair of Kings)
B collected 34 from pot
*** SUMMARY ***
Total pot 34 | Rake 0
Board [As Kh 3c 5d 8s]
Seat 2: B (small blind) showed [Ad Qc] and won (34)
Seat 3: C (big blind) showed [Kc Jd] and lost


PokerStars Hand #103: Hold'em No Limit (1/2) - 2024/03/01 10:02:00 ET
Table 'Made' 3-max Seat #2 is the button
Seat 1: A (100 in chips)
Seat 2: B (100 in chips)
Seat 3: C (100 in chips)
C: posts small blind 1
A: posts big blind 2
*** HOLE CARDS ***
B: raises 4 to 6
C: folds
A: raises 14 to 20
B: raises 30 to 50
A: calls 30
*** FLOP *** [Qs Qd 4h]
A: checks
B: bets 50 and is all-in
A: calls 50 and is all-in
*** TURN *** [Qs Qd 4h] [6c]
*** RIVER *** [Qs Qd 4h 6c] [9c]
*** SHOWDOWN ***
A: shows [Ah Ac] (two pair, Aces and Queens)
B: shows [Kh Ks] (two pair, Kings and Queens)
A collected 201 from pot
*** SUMMARY ***
Total pot 201 | Rake 0
Board [Qs Qd 4h 6c 9c]


PokerStars Hand #104: Hold'em No Limit (1/2) - 2024/03/01 10:03:00 ET
Table 'Made' 3-max Seat #3 is the button
Seat 1: A (100 in chips)
Seat 2: B (100 in chips)
Seat 3: C (100 in chips)
A: posts small blind 1
B: posts big blind 2
*** HOLE CARDS ***
C: folds
A: calls 1
B: checks
*** FLOP *** [Tc 8d 2h]
A: checks
B: checks
*** TURN *** [Tc 8d 2h] [3s]
A: bets 2
B: raises 4 to 6
A: calls 4
*** RIVER *** [Tc 8d 2h 3s] [Jc]
A: checks
B: checks
*** SHOWDOWN ***
A: shows [Td 9d] (a pair of Tens)
B: shows [8c 8h] (three of a kind, Eights)
B collected 16 from pot
*** SUMMARY ***
Total pot 16 | Rake 0
Board [Tc 8d 2h 3s Jc]
"""

# Expected, worked out by hand from the text above (definitions in stats.py):
#
# A: #101 SB: 3-bets C's open (3-bet chance, 3-bet, VPIP, PFR), flop bet, folds turn; put in
#       18 + 20 = 38, net -38.
#    #102 BTN: limps (VPIP), folds to the flop bet; net -2. No raise faced: no 3-bet chance.
#    #103 BB: faces B's open alone -> 3-bets (chance, 3-bet, VPIP, PFR); the 4-bet is a
#       second raise, no new chance. Flop: check, call (1 call). Showdown, wins 201; net +101.
#    #104 SB: completes (VPIP); turn bet, calls the raise (1 bet, 1 call); showdown, loses;
#       net -8.
#    hands 4, VPIP 4/4 = 100, PFR 2/4 = 50, 3-bet 2/2 = 100, AF (2 bets) / (2 calls) = 1.0,
#    saw flop 4, showdowns 2 (#103, #104) -> WTSD 50, won 1 of 2 -> W$SD 50,
#    net -38 - 2 + 101 - 8 = 53 chips = 26.5 bb over 4 hands -> 662.5 bb/100.
# B: #101 BB: faces two raises (no chance), folds; net -2.
#    #102 SB: completes (VPIP); flop call, river bet; wins the showdown (34); net 34 - 16 = +18.
#    #103 BTN: opens (VPIP, PFR; no raise before him), 4-bets, flop all-in bet; loses; net -100.
#    #104 BB: checks preflop (no VPIP); turn raise; wins the showdown (16); net +8.
#    hands 4, VPIP 2/4 = 50, PFR 1/4 = 25, 3-bet: no chance -> None,
#    AF (bet + bet + raise = 3) / (1 call) = 3.0, saw flop 3, showdowns 3 -> WTSD 100,
#    won 2 of 3 -> W$SD 66.67, net -2 + 18 - 100 + 8 = -76 = -38 bb -> -950 bb/100.
# C: #101 BTN: opens (VPIP, PFR), calls the 3-bet (two raises: no chance), flop call,
#       turn bet, gets 40 back and collects 78; put in 78 -> net +40.
#    #102 BB: checks preflop; flop bet, river call; loses the showdown; net -16.
#    #103 SB: faces B's open alone (3-bet chance), folds; net -1.
#    #104 BTN: folds first in; net 0.
#    hands 4, VPIP 1/4 = 25, PFR 1/4 = 25, 3-bet 0/1 = 0, AF (bet + bet) / (2 calls) = 1.0,
#    saw flop 2, showdowns 1 -> WTSD 50, W$SD 0/1 = 0, net +23 = 11.5 bb -> 287.5 bb/100.
EXPECTED = {
    #      hands VPIP   PFR   3bet   AF   WTSD   W$SD      bb/100
    "A": (4, 100.0, 50.0, 100.0, 1.0, 50.0, 50.0, 662.5),
    "B": (4, 50.0, 25.0, None, 3.0, 100.0, 200 / 3, -950.0),
    "C": (4, 25.0, 25.0, 0.0, 1.0, 50.0, 0.0, 287.5),
}


@pytest.fixture
def db(tmp_path: Path):  # type: ignore[no-untyped-def]
    path = tmp_path / "made.txt"
    path.write_text(HANDS)
    conn = open_database(tmp_path / "hands.sqlite")
    (report,) = import_files(conn, [path])
    assert report.ok and report.added == 4, report.error
    yield conn
    conn.close()


def test_player_statistics_equal_the_hand_computed_values(db) -> None:  # type: ignore[no-untyped-def]
    lines = {s.player: s for s in player_stats(db)}
    assert set(lines) == set(EXPECTED)
    for name, (hands, vpip, pfr, three, af, wtsd, wsd, bb100) in EXPECTED.items():
        got = lines[name]
        assert got.hands == hands
        assert got.vpip == pytest.approx(vpip)
        assert got.pfr == pytest.approx(pfr)
        assert got.three_bet == (None if three is None else pytest.approx(three))
        assert got.aggression == pytest.approx(af)
        assert got.wtsd == pytest.approx(wtsd)
        assert got.wsd == pytest.approx(wsd)
        assert got.bb_per_100 == pytest.approx(bb100)
    assert sum(s.net for s in lines.values()) == 0


def test_statistics_per_position(db) -> None:  # type: ignore[no-untyped-def]
    # A was SB in #101 and #104: VPIP 2/2, PFR 1/2, net -38 - 8 = -46 = -23 bb in 2 hands.
    (sb,) = player_stats(db, player="A", positions=("SB",))
    assert (sb.hands, sb.vpip, sb.pfr, sb.bb_per_100) == (2, 100.0, 50.0, -1150.0)
    by_pos = {s.position: s.hands for s in player_stats(db, player="C", by_position=True)}
    assert by_pos == {"BTN": 2, "BB": 1, "SB": 1}


def test_seat_positions_follow_the_blind_posts() -> None:
    hands = parse_text(HANDS)
    # Hand #102: B posts the small blind, so B, C, A are SB, BB, BTN.
    assert [(s.name, st.position) for s, st in zip(hands[1].seats, seat_stats(hands[1]),
                                                   strict=True)] == [
        ("B", "SB"), ("C", "BB"), ("A", "BTN")]
    assert position_names(6) == ("SB", "BB", "UTG", "HJ", "CO", "BTN")
    assert position_names(10) == ("SB", "BB", "UTG", "UTG+1", "UTG+2", "UTG+3", "LJ", "HJ", "CO",
                                  "BTN")
