"""``hands stats`` chart: one distinct colour per player, however many players."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure

from checkraise.histories.database import insert_hands, open_database
from checkraise.histories.plots import player_styles, plot_cumulative_winnings
from checkraise.histories.pokerstars import EXAMPLE, parse_text


def _database_with_players(n_hands: int) -> Any:
    # The example hand (players A, B, C) renamed per copy: three new players per hand.
    text = ""
    for k in range(n_hands):
        hand = EXAMPLE.replace("Hand #1:", f"Hand #{k + 1}:")
        for old in "ABC":
            hand = hand.replace(f"Seat {'ABC'.index(old) + 1}: {old} ",
                                f"Seat {'ABC'.index(old) + 1}: {old}{k} ")
            hand = hand.replace(f"\n{old}: ", f"\n{old}{k}: ").replace(f"to {old}\n",
                                                                     f"to {old}{k}\n")
            hand = hand.replace(f"\n{old} collected", f"\n{old}{k} collected")
        text += hand + "\n\n"
    db = open_database(":memory:")
    insert_hands(db, parse_text(text))
    return db


def test_every_player_gets_a_distinct_colour_beyond_ten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    figures: list[Figure] = []
    save = Figure.savefig

    def keep(self: Figure, *args: Any, **kwargs: Any) -> None:
        figures.append(self)
        save(self, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", keep)
    db = _database_with_players(9)  # 27 players
    plot_cumulative_winnings(db, tmp_path / "winnings.png")
    (fig,) = figures
    lines = [line for line in fig.axes[0].get_lines() if line.get_label()[:1] in "ABC"]
    assert len(lines) == 27
    colours = {to_rgba(line.get_color()) for line in lines}
    assert len(colours) == 27
    assert len(fig.axes[0].get_legend().get_texts()) == 27


@pytest.mark.parametrize("n", [1, 2, 9, 10, 11, 19, 20, 21, 25, 40, 100])
def test_player_styles_are_distinct_colours(n: int) -> None:
    styles = player_styles(n)
    assert len(styles) == n
    assert len({to_rgba(colour) for colour, _ in styles}) == n
