"""One web table without a server: settings, engine-checked moves, privacy, seeds, storage."""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

import pytest

from checkraise.engine import IllegalActionError
from checkraise.errors import ConfigError
from checkraise.histories import replay
from checkraise.histories.record import HandRecord
from checkraise.web.table import TableError, TableSettings, WebTable


def _table(bots: tuple[str, ...] = ("call",), seed: int = 7, stack: int = 10_000,
           records: list[HandRecord] | None = None) -> WebTable:
    settings = TableSettings(bots, (stack,) * (len(bots) + 1), seed)
    return WebTable("t1", settings, None if records is None else records.append)


def _passive(table: WebTable) -> list[dict[str, Any]]:
    """Check or call to the end of the hand; every step seen."""
    steps = table.deal()
    while table.running:
        legal = steps[-1]["view"]["legal"]
        steps += table.act("call" if legal["call"] else "check")
    return steps


@pytest.mark.parametrize("data,message", [
    ({"bots": ["nobody"]}, "unknown bot 'nobody'"),
    ({"bots": ["heuristic:profile=/etc/passwd"]}, "unknown bot 'heuristic:profile"),
    ({"bots": []}, "0 bots; expected 1 to 9"),
    ({"bots": ["call"] * 10}, "10 bots; expected 1 to 9"),
    ({"bots": ["blueprint", "call"]}, "plays heads-up only"),
    ({"bots": ["call"], "stack_bb": 5}, "stack 500; expected whole chips 1000..100000"),
    ({"bots": ["call"], "stack_bb": "lots"}, "stack 'lots'; expected a number"),
    ({"bots": ["call"], "stacks_bb": [100]}, "1 stacks for 2 seats"),
    ({"bots": ["call"], "seed": -1}, "seed -1; expected an int"),
    ({"bots": ["call"], "seed": "x"}, "seed 'x'; expected an int"),
    ({"bots": "call"}, "bots 'call'; expected a list"),
])
def test_bad_settings_name_the_value(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        TableSettings.from_dict(data)


def test_a_missing_seed_is_drawn_and_shown() -> None:
    settings = TableSettings.from_dict({"bots": ["call"]})
    assert 0 <= settings.seed < 2**31
    table = WebTable("t1", settings)
    assert table.deal()[-1]["view"]["seed"] == settings.seed


def test_the_same_seed_and_moves_replay_the_same_hands() -> None:
    logs = []
    for _ in range(2):
        table = _table(("random", "raise", "call"), seed=11)
        logs.append([_passive(table)[-1]["log"] for _ in range(3)])
    assert logs[0] == logs[1]
    other = _table(("random", "raise", "call"), seed=12)
    assert [_passive(other)[-1]["log"] for _ in range(3)] != logs[0]


def test_a_finished_hand_is_stored_and_replays_to_the_shown_result() -> None:
    records: list[HandRecord] = []
    table = _table(("call", "random"), seed=3, records=records)
    results = []
    for _ in range(4):
        view = _passive(table)[-1]["view"]
        assert view["over"]
        results.append(view["result"]["you"])
    assert len(records) == 4
    for record, shown in zip(records, results, strict=True):
        # The histories reader replays the record through the engine and checks the payout.
        payoffs = replay(record).payoffs()
        you = [s.name for s in record.seats].index("you")
        assert payoffs[you] == shown
        assert sum(payoffs) == 0
    assert table.view()["session"]["net_bb"] == pytest.approx(sum(results) / 100)
    assert table.view()["session"]["chart"] == pytest.approx(
        [sum(results[: k + 1]) / 100 for k in range(4)])
    assert len({r.hand_id for r in records}) == 4


def test_other_players_cards_stay_hidden_until_shown_at_showdown() -> None:
    table = _table(("random", "random", "random"), seed=5)
    for _ in range(6):
        steps = table.deal()
        while True:
            for step in steps:
                view, state = step["view"], table.state
                assert state is not None
                assert view["players"][0]["cards"] is not None
                for p, player in enumerate(view["players"][1:], start=1):
                    seat = table.seat_of(p)
                    if player["cards"] is not None:
                        assert view["over"] and state.shown()[seat]
            if not table.running:
                break
            legal = steps[-1]["view"]["legal"]
            steps = table.act("call" if legal["call"] else "check")


def _snapshot(table: WebTable) -> tuple[Any, ...]:
    assert table.state is not None
    return (copy.deepcopy(table.view()), table.state.history[:], table.hands_played)


def test_illegal_moves_change_nothing() -> None:
    table = _table(("call",), seed=2)
    view = table.deal()[-1]["view"]
    # Heads-up the person is first the button and small blind: 50 to call, raises 200..10000.
    assert view["legal"]["call"] == 50 and view["legal"]["min_to"] == 200
    before = _snapshot(table)
    for kind, to, error in [
        ("check", None, IllegalActionError),
        ("raise", 150, IllegalActionError),
        ("raise", 10_001, IllegalActionError),
        ("raise", True, IllegalActionError),
        ("raise", "300", IllegalActionError),
        ("raise", None, IllegalActionError),
        ("shove", None, TableError),
    ]:
        with pytest.raises(error):
            table.act(kind, to)
        assert _snapshot(table) == before
    with pytest.raises(TableError, match="still being played"):
        table.deal()
    assert _snapshot(table) == before
    table.act("call")  # the big blind (a calling bot) checks: the flop, his turn first
    view = table.view()
    assert view["legal"]["check"] and not view["legal"]["fold"]
    with pytest.raises(IllegalActionError, match="nothing to call"):
        table.act("fold")
    with pytest.raises(IllegalActionError, match="nothing to call"):
        table.act("call")


def test_acting_out_of_turn_or_between_hands_is_refused() -> None:
    table = _table(("call",))
    with pytest.raises(TableError, match="deal one first"):
        table.act("call")
    _passive(table)
    with pytest.raises(TableError, match="deal one first"):
        table.act("call")


def test_the_button_goes_round_the_table() -> None:
    table = _table(("checkfold", "checkfold", "checkfold"), seed=1)
    positions, buttons = [], []
    for _ in range(4):
        view = _passive(table)[0]["view"]
        positions.append(view["players"][0]["position"])
        buttons.append([p["button"] for p in view["players"]].index(True))
    assert positions == ["SB", "BTN", "UTG", "BB"]  # four seats: SB, BB, UTG, BTN
    # The button moves one player on (to the left) every hand.
    assert buttons == [3, 0, 1, 2]


def test_pot_fraction_buttons_have_the_card_room_amounts() -> None:
    table = _table(("call",), seed=4)
    legal = table.deal()[-1]["view"]["legal"]
    # Small blind 50 in, big blind 100: calling makes the pot 200, so a pot raise is 200
    # more than the big blind's 100 (to 300), two thirds to 233; a third (166) is below the
    # minimum raise to 200 and a half is the minimum itself.
    assert [(p["label"], p["to"]) for p in legal["presets"]] == [
        ("min", 200), ("2/3 pot", 233), ("pot", 300), ("all-in", 10_000)]
    table.act("raise", 300)
    assert table.state is not None
    assert table.state.contributions[table.seat_of(0)] == 300


def test_a_split_pot_shows_exact_chips() -> None:
    table = _table(("call",), seed=0)
    for _ in range(30):
        view = _passive(table)[-1]["view"]
        nets = [p["net"] for p in view["players"]]
        assert sum(nets) == 0 and all(isinstance(n, int) for n in nets)
        assert view["result"]["you_bb"] == float(Fraction(nets[0], 100))


def test_the_coach_gives_the_equity_against_each_predicted_range() -> None:
    import eval7

    from checkraise.cards import COMBO_CARDS, format_card

    table = WebTable("t1", TableSettings(("call",), (10_000, 10_000), seed=6, coach=True))
    view = table.deal()[-1]["view"]
    while len(view["board"]) < 5:
        view = table.act("call" if view["legal"]["call"] else "check")[-1]["view"]
    # Heads-up the person is on the button in the first hand: the bot checks the river
    # to him, and the coach reads the bot's range from its actions.
    advice = view["coach"]
    assert table.coach is not None and [o["name"] for o in advice["opponents"]] == ["call#1"]
    [weights] = table.coach.last_ranges.values()
    live = weights[weights > 0]
    assert live.max() - live.min() > 0.1  # a prediction, not every hand alike
    hole = [eval7.Card(c) for c in view["players"][0]["cards"]]
    board = [eval7.Card(c) for c in view["board"]]
    mine = eval7.evaluate(hole + board)
    dead = set(view["players"][0]["cards"]) | set(view["board"])
    score = total = 0.0
    for combo, weight in enumerate(weights):
        cards = [format_card(int(c)) for c in COMBO_CARDS[combo]]
        if weight <= 0 or dead & set(cards):
            continue
        theirs = eval7.evaluate([eval7.Card(c) for c in cards] + board)
        score += weight * (1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)
        total += weight
    assert advice["opponents"][0]["equity"] == pytest.approx(score / total, abs=1e-4)
    top = advice["opponents"][0]["top"]
    assert len(top) == 5 and top == sorted(top, key=lambda t: -t["share"])
    table.act("check")
    assert table.view()["coach"] is None  # the hand is over: no advice


def test_without_the_coach_no_advice_is_given() -> None:
    table = _table(("call",), seed=6)
    assert table.deal()[-1]["view"]["coach"] is None
    with pytest.raises(ConfigError, match="coach 'yes'; expected true or false"):
        TableSettings.from_dict({"bots": ["call"], "coach": "yes"})
