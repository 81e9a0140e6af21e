"""``checkraise eval``: rank of a 5-7 card hand."""

from __future__ import annotations

import json

import typer

from checkraise.cards import format_cards, parse_cards
from checkraise.cli.main import app
from checkraise.evaluator import CATEGORY_NAMES, category, evaluate


@app.command("eval")
def eval_command(
    cards: list[str] = typer.Argument(..., help="5 to 7 cards, e.g. As Ks Qs Js Ts 2c 3d"),
    as_json: bool = typer.Option(False, "--json", help="Print machine-readable JSON."),
) -> None:
    """Evaluate a 5, 6 or 7 card hand: its rank and category."""
    parsed = parse_cards(" ".join(cards))
    rank = evaluate(parsed)
    cat = CATEGORY_NAMES[category(rank)]
    if as_json:
        print(json.dumps({"cards": format_cards(parsed), "rank": rank, "category": cat}))
    else:
        print(f"{format_cards(parsed)}: {cat} (rank {rank})")
