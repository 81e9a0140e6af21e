"""``checkraise predict``: the hand header and board in the text, the range chart's title and scale.

The fixture is the first five hands of Pluribus session 105 as published
(``data/pluribus_105_first5.txt``); the expected header is read from the raw text
with regular expressions here, not through checkraise's parser.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from checkraise.cli.main import main
from checkraise.opponents import display

FIXTURE = Path(__file__).parent / "data" / "pluribus_105_first5.txt"


def _raw_hand(index: int) -> str:
    return re.split(r"(?=^PokerStars Hand #)", FIXTURE.read_text(), flags=re.M)[index + 1]


def _expected_header(index: int) -> list[str]:
    text = _raw_hand(index)
    number = re.search(r"Hand #(\d+)", text)
    button = re.search(r"Seat #(\d+) is the button", text)
    small = re.search(r"^(\S+): posts small blind", text, re.M)
    big = re.search(r"^(\S+): posts big blind", text, re.M)
    assert number and button and small and big
    seats = re.findall(r"^Seat (\d+): (\S+) \((\d+) in chips\)", text, re.M)
    # PokerStars lists seats from seat 1; the engine order starts left of the button
    # (the small blind), as the predictor prints them.
    first = [name for _, name, _ in seats].index(small.group(1))
    seats = seats[first:] + seats[:first]
    players = []
    for seat, name, chips in seats:
        tags = ["BTN"] if seat == button.group(1) else []
        tags += ["SB"] if name == small.group(1) else ["BB"] if name == big.group(1) else []
        players.append(f"{name} ({', '.join([*tags, f'{chips} chips'])})")
    board = []
    for street in ("FLOP", "TURN", "RIVER"):
        dealt = re.search(rf"\*\*\* {street} \*\*\*.*\[([^\]]+)\]$", text, re.M)
        if dealt:
            board.append(f"{street.lower()} {dealt.group(1)}")
    return [
        f"Hand #{number.group(1)} (--hand {index} of {FIXTURE.name}), blinds 50/100, "
        f"{len(seats)} players",
        "  players: " + ", ".join(players),
        "  board: " + ", ".join(board),
    ]


@pytest.mark.parametrize("index", [1, 4])
def test_text_output_starts_with_the_hand_and_its_board(
    index: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["predict", str(FIXTURE), "--hand", str(index), "--top", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:3] == _expected_header(index)


def test_text_output_cut_at_a_street_shows_the_board_so_far(
    capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["predict", str(FIXTURE), "--hand", "4", "--street", "turn", "--top", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2:4] == ["  board: flop 2c Kd Qd, turn 4d", "  predicted after the turn"]


def test_chart_title_names_the_hand_asked_for_and_has_a_colour_bar(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    figures: list[Any] = []
    draw = display.grid_figure

    def keep(*args: Any, **kwargs: Any) -> Any:
        figures.append(draw(*args, **kwargs))
        return figures[-1]

    monkeypatch.setattr(display, "grid_figure", keep)
    assert main(["predict", str(FIXTURE), "--hand", "4", "--observer", "Pluribus", "--json",
                 "--out", str(tmp_path)]) == 0
    capsys.readouterr()
    assert len(figures) == 5  # every player but the observer
    for fig in figures:
        grid, bar = fig.axes
        title = grid.get_title()
        assert "--hand 4 of pluribus_105_first5.txt" in title and "#105004" in title
        assert bar.get_ylabel() == display.COLORBAR_LABEL
        norm = grid.images[0].norm
        assert norm.vmin == 0.0 and bar.get_ylim() == pytest.approx((0.0, norm.vmax))
        assert norm.vmax == pytest.approx(grid.images[0].get_array().max())
    assert sorted(p.name for p in tmp_path.glob("range-*.png")) == [
        "range-MrBlonde.png", "range-MrBlue.png", "range-MrOrange.png", "range-MrPink.png",
        "range-MrWhite.png",
    ]
