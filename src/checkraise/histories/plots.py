"""Plots from the hand database: cumulative winnings per player.

The curve is the running sum of a player's net result, in big blinds, over the
hands he played in database (import) order; the usual "graph" of tracking software.

Examples
--------
>>> from checkraise.histories.database import insert_hands, open_database
>>> from checkraise.histories.pokerstars import EXAMPLE, parse_text
>>> db = open_database(":memory:")
>>> _ = insert_hands(db, parse_text(EXAMPLE))
>>> cumulative_winnings(db)["C"]
[1.5]
"""

from __future__ import annotations

import colorsys
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "cumulative_winnings",
    "cumulative_winnings_figure",
    "player_styles",
    "plot_cumulative_winnings",
]

_LINESTYLES = ("-", "--", "-.", ":")


def player_styles(n: int) -> list[tuple[str, str]]:
    """A distinct ``(colour, line style)`` for each of ``n`` players, colours distinct too.

    Up to 10 players get the "tab10" colours with solid lines, up to 20 the "tab20"
    colours. Beyond that the hues go round the colour wheel in ``n`` equal steps at
    three alternating lightnesses, so neighbours in the legend differ in both, and the
    line style cycles through solid, dashed, dash-dot and dotted.

    Examples
    --------
    >>> player_styles(2)
    [('#1f77b4', '-'), ('#ff7f0e', '-')]
    >>> len({colour for colour, _ in player_styles(25)})
    25
    """
    from matplotlib import colormaps
    from matplotlib.colors import to_hex

    if n <= 20:
        palette = colormaps["tab10" if n <= 10 else "tab20"]
        # tab20 pairs a dark and a light shade of each hue: the light one is dashed.
        return [(to_hex(palette(i)), "-" if n <= 10 else _LINESTYLES[i % 2]) for i in range(n)]
    styles = []
    for i in range(n):
        lightness = (0.35, 0.5, 0.65)[i % 3]
        r, g, b = colorsys.hls_to_rgb(i / n, lightness, 0.75)
        # 24-bit colours: distinct hues i/n stay distinct unless n is in the millions.
        colour = "#" + "".join(f"{round(255 * x):02x}" for x in (r, g, b))
        styles.append((colour, _LINESTYLES[i % len(_LINESTYLES)]))
    return styles


def cumulative_winnings(
    db: sqlite3.Connection, players: tuple[str, ...] = ()
) -> dict[str, list[float]]:
    """Running total of each player's net in big blinds, hand by hand.

    ``players`` restricts the result; empty means everyone.
    """
    sql = (
        "SELECT p.name, t.net_bb FROM seats t JOIN players p ON p.id = t.player_id"
        + (f" WHERE p.name IN ({','.join('?' * len(players))})" if players else "")
        + " ORDER BY t.hand_id, t.seat"
    )
    curves: dict[str, list[float]] = {}
    for name, net in db.execute(sql, players):
        curve = curves.setdefault(name, [])
        curve.append((curve[-1] if curve else 0.0) + net)
    return curves


def cumulative_winnings_figure(
    db: sqlite3.Connection, players: tuple[str, ...] = ()
) -> Figure:
    """The cumulative winnings of each player as a matplotlib figure, one style per player."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    curves = cumulative_winnings(db, players)
    fig, ax = plt.subplots(figsize=(9, 5), dpi=100)
    ranked = sorted(curves.items(), key=lambda kv: -kv[1][-1])
    for (name, curve), (colour, style) in zip(ranked, player_styles(len(ranked)), strict=True):
        ax.plot(range(1, len(curve) + 1), curve, label=f"{name} ({curve[-1]:+.0f} bb)",
                linewidth=1.2, color=colour, linestyle=style)
    ax.axhline(0.0, color="grey", linewidth=0.6)
    ax.set_xlabel("hands played")
    ax.set_ylabel("cumulative winnings (big blinds)")
    ax.set_title("Cumulative winnings per player")
    if curves:
        ax.legend(fontsize="small", loc="best", ncol=1 + (len(curves) - 1) // 12)
    fig.tight_layout()
    return fig


def plot_cumulative_winnings(
    db: sqlite3.Connection, path: str | Path, players: tuple[str, ...] = ()
) -> Path:
    """Draw the cumulative winnings of each player into a PNG at ``path``; return the path."""
    import matplotlib.pyplot as plt

    fig = cumulative_winnings_figure(db, players)
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out)
    plt.close(fig)
    return out
