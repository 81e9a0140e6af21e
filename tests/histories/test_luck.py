"""Win rates of a hand database as won, all-in adjusted and luck adjusted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from checkraise.cli.main import app
from checkraise.histories import HandRecord
from checkraise.histories.luck import luck_rates
from checkraise.histories.pokerstars import EXAMPLE, parse_text
from checkraise.histories.record import HandHistoryError
from checkraise.histories.stats import seat_stats

FIRST = 300  # Pluribus hands scored here (all 4,930 take about a minute)


@pytest.fixture(scope="module")
def lines(pluribus_hands: list[HandRecord]) -> dict[str, object]:
    return {line.player: line for line in luck_rates(pluribus_hands[:FIRST])}


def test_the_rates_as_won_are_the_trackers_net_in_big_blinds(
    pluribus_hands: list[HandRecord], lines: dict[str, object]
) -> None:
    # the tracker statistics read what each player collected from the record; the
    # luck module replays the hand through the engine: the same chips either way
    nets: dict[str, list[float]] = {}
    for hand in pluribus_hands[:FIRST]:
        for seat, stats in zip(hand.seats, seat_stats(hand), strict=True):
            nets.setdefault(seat.name, []).append(stats.net / hand.big_blind)
    assert set(nets) == set(lines)
    for name, values in nets.items():
        line = lines[name]
        assert line.hands == len(values)  # type: ignore[attr-defined]
        assert line.won.mean == pytest.approx(1000 * sum(values) / len(values))  # type: ignore[attr-defined]


def test_every_kind_of_rate_sums_to_zero_over_the_players(lines: dict[str, object]) -> None:
    # no rake in these hands, and each adjustment moves chips between the players of a hand
    for kind in ("won", "allin", "luck"):
        total = sum(getattr(line, kind).mean * line.hands for line in lines.values())  # type: ignore[attr-defined]
        assert total == pytest.approx(0.0, abs=1e-6)
    pluribus = lines["Pluribus"]
    assert pluribus.hands == FIRST  # type: ignore[attr-defined]
    # part of the spread is the luck of the cards, and it goes (over all 4,930 hands the
    # interval narrows from ±249 to ±183; over these 300, from ±807 to ±742)
    assert pluribus.luck.half_width < pluribus.won.half_width  # type: ignore[attr-defined]
    assert pluribus.luck.mean != pluribus.won.mean  # type: ignore[attr-defined]


def test_a_hand_without_every_hole_card_is_refused_by_name() -> None:
    hand = parse_text(EXAMPLE, source="example.txt")[0]
    with pytest.raises(HandHistoryError, match=r"example.txt:\d+: hand #\d+: the hole cards of"):
        luck_rates([hand])


def test_the_command_reports_every_player_and_one_player(
    pluribus_hands: list[HandRecord], tmp_path: Path
) -> None:
    from checkraise.histories.database import insert_hands, open_database

    db_path = tmp_path / "p.sqlite"
    db = open_database(db_path)
    insert_hands(db, pluribus_hands[:60])
    db.close()
    runner = CliRunner()
    result = runner.invoke(app, ["hands", "luck", "--db", str(db_path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["hands"] == 60
    first = next(p for p in data["players"] if p["player"] == "Pluribus")
    assert first["hands"] == 60 and data["players"][0]["hands"] == 60  # most hands first
    assert set(first) == {"player", "hands", "mbb_per_hand_won", "mbb_per_hand_allin",
                          "mbb_per_hand_luck"}
    one = runner.invoke(app, ["hands", "luck", "--db", str(db_path), "--player", "Pluribus"])
    assert one.exit_code == 0, one.output
    assert "Pluribus" in one.stdout and "MrBlue" not in one.stdout
    bad = runner.invoke(app, ["hands", "luck", "--db", str(db_path), "--player", "pluribus"])
    assert bad.exit_code != 0
    assert "no hands of player 'pluribus'" in str(bad.exception)
    assert "'Pluribus'" in str(bad.exception)  # the players it does hold
