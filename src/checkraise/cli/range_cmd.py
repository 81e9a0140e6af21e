"""``checkraise range``: the combos of a range and its share of all hands."""

from __future__ import annotations

import json

import typer

from checkraise.cli.app import app


@app.command("range")
def range_command(
    text: str = typer.Argument(..., help="Range, e.g. 'QQ+,AKs,T9s-65s,AQo:0.5'."),
    board: str = typer.Option("", "--board", "-b", help="Remove combos using these cards."),
    as_json: bool = typer.Option(False, "--json", help="Print machine-readable JSON."),
) -> None:
    """List a range's combos (with weights) and the percentage of all 1,326 hands."""
    from checkraise.cards import COMBO_CARDS, format_card
    from checkraise.ranges import Range, RangeParseError
    if not text.replace(",", " ").strip():
        # Range("") is the library's empty range; on the command line it is a mistake.
        raise RangeParseError(
            text, text, 0, "no hands given: expected e.g. 'QQ+,AKs', 'AhKh' or 'random'"
        )
    rng = Range(text)
    if board:
        rng = rng.remove_cards(board)
    combos = [
        (format_card(int(COMBO_CARDS[i][1])) + format_card(int(COMBO_CARDS[i][0])), w)
        for i, w in rng
    ]
    if as_json:
        print(json.dumps({
            "range": str(rng),
            "combos": len(rng),
            "weighted_combos": rng.weighted_combos,
            "percent": rng.percent,
            "hands": [{"hand": h, "weight": w} for h, w in combos],
        }))
        return
    summary = f"{len(rng)} combos, {rng.weighted_combos:g} weighted, {rng.percent:.2f}% of hands"
    print(f"{rng}  ({summary})")
    line = [h if w == 1.0 else f"{h}:{w:g}" for h, w in reversed(combos)]
    for start in range(0, len(line), 12):
        print("  " + " ".join(line[start : start + 12]))
