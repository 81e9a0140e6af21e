"""The replayer without a server: stored hands from other sources, action by action."""

from __future__ import annotations

from checkraise.histories import EXAMPLE, insert_hands, open_database, parse_text
from checkraise.histories.acpc_log import EXAMPLE_GAME, parse_log_text
from checkraise.protocol.gamedef import parse_gamedef
from checkraise.web.replayer import hand_steps, list_hands


def test_an_acpc_hand_whose_first_seat_is_the_big_blind() -> None:
    game = parse_gamedef(EXAMPLE_GAME.replace("blind = 50 100", "blind = 100 50")
                         .replace("firstPlayer = 1 2 2 2", "firstPlayer = 2 1 1 1"))
    db = open_database(":memory:")
    insert_hands(db, parse_log_text("STATE:0:r250f:AsKd|2c2d:-100|100:A|B\n", game, "x.log"))
    shown = hand_steps(db, 1)
    # The log's seat 0 (A) posts 100: the big blind; B on the button raises, A folds.
    assert [(p["name"], p["position"], p["net"], p["cards"]) for p in shown["players"]] == [
        ("A", "BB", -100, ["As", "Kd"]), ("B", "BTN/SB", 100, ["2c", "2d"])]
    assert [s["text"] for s in shown["steps"]] == ["blinds posted", "B raises to 250",
                                                   "A folds"]
    assert [s["pot"] for s in shown["steps"]] == [150, 350, 350]


def test_a_pokerstars_hand_shows_no_card_it_does_not_know() -> None:
    db = open_database(":memory:")
    insert_hands(db, parse_text(EXAMPLE))
    shown = hand_steps(db, 1)
    assert [p["cards"] for p in shown["players"]] == [None, None, None]
    assert [s["stacks"] for s in shown["steps"]][-1] == [199, 198, 194]
    assert list_hands(db, player="B")[0]["hand_id"] == "1"
    assert list_hands(db, player="Z") == []
