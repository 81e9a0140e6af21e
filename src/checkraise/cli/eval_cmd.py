"""``checkraise eval``: the best five of 5-7 cards, their category and rank."""

from __future__ import annotations

import json

import typer

from checkraise.cli.app import app

# The evaluator (numba, tables) is imported inside the command, so that `--help` stays light.


@app.command("eval")
def eval_command(
    cards: list[str] = typer.Argument(..., help="5 to 7 cards, e.g. As Ks Qs Js Ts 2c 3d"),
    as_json: bool = typer.Option(False, "--json", help="Print machine-readable JSON."),
) -> None:
    """Evaluate a 5, 6 or 7 card hand: its best five cards, category and rank.

    The rank runs from 1 (7-5-4-3-2 offsuit) to 7462 (royal flush); higher wins.
    """
    from checkraise.cards import format_cards, parse_cards
    from checkraise.evaluator import CATEGORY_NAMES, NUM_RANKS, best_five, category, evaluate

    parsed = parse_cards(" ".join(cards))
    rank = evaluate(parsed)
    five = best_five(parsed)
    cat = CATEGORY_NAMES[category(rank)]
    if as_json:
        record = {
            "cards": format_cards(parsed),
            "best_five": format_cards(five),
            "category": cat,
            "rank": rank,
            "max_rank": NUM_RANKS,
        }
        print(json.dumps(record))
    else:
        print(f"{format_cards(five)}: {cat} (rank {rank} of {NUM_RANKS})")
