"""``checkraise explain``: the knowledge base's suggestions and reasons at a spot."""

from __future__ import annotations

import json

import pytest
from tests.cli_helpers import bad_cli, run_cli


def test_preflop_open_is_explained(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["explain", "AhKh"], capsys)
    assert code == 0
    assert "spot 1 entry 1" in out and "raise:2.5x (r250)" in out
    assert "position=button" in out and "situation=unopened" in out


def test_flush_draw_facing_a_small_bet_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    # 600 in the pot, the big blind bets 150: calling 150 to win 900 needs 1/6 = 16.7%,
    # and 9 flush outs of 47 unseen cards come 19% of the time on the turn.
    code, out, _ = run_cli(["explain", "9h8h", "--board", "Kh 4h 2c", "--betting",
                            "r300c/r450", "--json"], capsys)
    assert code == 0
    record = json.loads(out)
    assert record["seat"] == 0 and record["pot"] == 750 and record["to_call"] == 150
    assert record["entry"] == "rule 14 (draw-priced-in)"
    assert record["features"]["pot_odds"] == pytest.approx(1 / 6, abs=1e-4)
    assert [s["action"] for s in record["suggestions"]] == ["c", "f"]


@pytest.mark.parametrize(("argv", "message"), [
    (["explain", "9h8h", "--board", "Kh 4h", "--betting", "r300c"], "--board 'Kh 4h'"),
    (["explain", "9h8h", "--betting", "r300c"], "the betting reaches the flop, which has 3"),
    (["explain", "9h8h", "--betting", "f"], "ends the hand"),
    (["explain", "9h8h", "--betting", "r45"], "illegal raise to 45"),
    (["explain", "9h"], "hole cards '9h'"),
    (["explain", "9h8h", "--blinds", "50"], "invalid blinds"),
])
def test_bad_spots_are_named(argv: list[str], message: str,
                             capsys: pytest.CaptureFixture[str]) -> None:
    assert message in bad_cli(argv, capsys)
