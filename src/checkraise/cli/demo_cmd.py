"""``checkraise demo``: the main job that ``make demo`` runs.

A short seeded 6-player tournament series between the built-in bots in the
format of the hand-reading paper's experiments (2,000 chips, blinds 20/40, one
rebuy), written as a report with charts and hand logs under ``--out``; then the
shipped heads-up blueprint plays the heuristic bot in a duplicate match. The series
seats the shipped DeepFool network (``deepfool``; it plays in numpy, so the lean
install, without torch, runs it).
"""

from __future__ import annotations

from pathlib import Path

import typer

from checkraise.cli._options import check_seed
from checkraise.cli._progress import hands_progress
from checkraise.cli.app import app
from checkraise.cli.tournament_cmd import print_standings

__all__ = ["DEMO_AGENTS", "demo_command"]

DEMO_AGENTS = ("handreader", "deepfool", "heuristic", "equity", "call", "random")
"""The built-in bots that meet in the demo."""


@app.command("demo")
def demo_command(
    out: Path = typer.Option(Path("demo-out"), "--out", help="Folder for the demo's files."),
    repeat: int = typer.Option(12, "--repeat", help="Number of tournaments."),
    hands: int = typer.Option(600, "--hands", help="Hand limit per tournament."),
    seed: int = typer.Option(2024, "--seed", callback=check_seed, help="Master seed."),
    workers: int = typer.Option(0, "--workers", help="Processes (0 = one per core)."),
    heads_up: int = typer.Option(1000, "--heads-up",
                                 help="Deals of the blueprint's heads-up match."),
) -> None:
    """A short tour: two hands, a 6-player tournament series, the blueprint heads-up."""
    # Imported here, not at the top: `checkraise --help` need not load numba and the arena.
    from checkraise.arena.series import run_tournaments
    from checkraise.arena.tournament import TournamentConfig
    from checkraise.cards import format_cards, parse_cards
    from checkraise.evaluator import CATEGORY_NAMES, category, evaluate

    for text in ("As Ks Qs Js Ts 2c 3d", "Ah Ad Kc Kd 7s 7h 2c"):
        cards = parse_cards(text)
        print(f"{format_cards(cards)}  ->  {CATEGORY_NAMES[category(evaluate(cards))]}")
    print()
    config = TournamentConfig(DEMO_AGENTS, max_hands=hands)
    print(
        f"{repeat} tournaments of {', '.join(DEMO_AGENTS)}: 2,000 chips, blinds 20/40, "
        f"one rebuy, at most {hands} hands (seed {seed})"
    )
    with hands_progress(repeat * hands, "demo") as advance:
        series = run_tournaments(
            config, seed, repeat, out=out, workers=workers or None, force=True, progress=advance
        )
    print_standings(series)
    print(f"report: {out / 'report.md'} (charts, results.json and hand logs beside it)")
    print()
    _blueprint_match(heads_up, seed, workers)


def _blueprint_match(deals: int, seed: int, workers: int) -> None:
    """The shipped heads-up blueprint against the heuristic bot, in duplicate."""
    from checkraise.arena.match import play_match, summary_line

    print(f"heads-up: the shipped blueprint (minraise2) against heuristic, {deals} deals in "
          "duplicate (ACPC stacks 20,000, blinds 50/100)")
    with hands_progress(2 * deals, "heads-up") as advance:
        result = play_match("blueprint", "heuristic", hands=deals, seed=seed,
                            workers=workers or None, progress=advance)
    print(summary_line(result))
