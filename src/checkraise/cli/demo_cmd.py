"""``checkraise demo``: the main job that ``make demo`` runs."""

from __future__ import annotations

from pathlib import Path

import typer

from checkraise.cards import format_cards, parse_cards
from checkraise.cli.main import app
from checkraise.evaluator import CATEGORY_NAMES, category, evaluate


@app.command("demo")
def demo_command(
    out: Path = typer.Option(Path("demo-out"), "--out", help="Folder for the demo's files."),
) -> None:
    """A short tour: evaluate a few hands."""
    for text in ("As Ks Qs Js Ts 2c 3d", "Ah Ad Kc Kd 7s 7h 2c", "9c 8d 7h 6s 5c Kd 2h"):
        cards = parse_cards(text)
        rank = evaluate(cards)
        print(f"{format_cards(cards)}  ->  {CATEGORY_NAMES[category(rank)]}")
