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

import sqlite3
from pathlib import Path

__all__ = ["cumulative_winnings", "plot_cumulative_winnings"]


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


def plot_cumulative_winnings(
    db: sqlite3.Connection, path: str | Path, players: tuple[str, ...] = ()
) -> Path:
    """Draw the cumulative winnings of each player into a PNG at ``path``; return the path."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    curves = cumulative_winnings(db, players)
    fig, ax = plt.subplots(figsize=(9, 5), dpi=100)
    for name, curve in sorted(curves.items(), key=lambda kv: -kv[1][-1]):
        ax.plot(range(1, len(curve) + 1), curve, label=f"{name} ({curve[-1]:+.0f} bb)",
                linewidth=1.2)
    ax.axhline(0.0, color="grey", linewidth=0.6)
    ax.set_xlabel("hands played")
    ax.set_ylabel("cumulative winnings (big blinds)")
    ax.set_title("Cumulative winnings per player")
    if curves:
        ax.legend(fontsize="small", loc="best")
    fig.tight_layout()
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out)
    plt.close(fig)
    return out
