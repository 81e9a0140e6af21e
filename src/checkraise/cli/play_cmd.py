"""``checkraise play``: a human against bots at the terminal, in the tournament format."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from checkraise.cli.main import app
from checkraise.cli.match_cmd import parse_blinds

# Agents and the arena are imported inside the command, so that `--help` stays light.
if TYPE_CHECKING:
    from checkraise.agents.base import Agent

__all__ = ["play_command"]


@app.command("play")
def play_command(
    opponents: list[str] = typer.Option(
        ["random"], "--opponents", "-o",
        help="Opponent agent specs, comma-separated; repeated in turn to fill the seats.",
    ),
    seats: int = typer.Option(6, "--seats", help="Players at the table, you included (2-10)."),
    hands: int = typer.Option(600, "--hands", help="Hand limit."),
    blinds: str = typer.Option("20/40", "--blinds", help="Small/big blind."),
    chips: int = typer.Option(2000, "--chips", help="Starting chips (one rebuy of the same)."),
    seed: int | None = typer.Option(
        None, "--seed", help="Seed of cards and bots (default: random, printed)."
    ),
    name: str = typer.Option("you", "--name", help="Your name in the logs."),
    out: Path | None = typer.Option(None, "--out", help="Folder for the hand logs."),
) -> None:
    """Play a tournament against bots: the table, your legal actions with amounts, the showdown.

    Moves: f fold, c/k check or call, r N raise to N, a all-in, q quit, ? help.
    Bad input is asked again.
    """
    from checkraise.agents.base import make_agent, split_agent_specs
    from checkraise.agents.human import HumanAgent, QuitGame
    from checkraise.arena.ring import seed_int
    from checkraise.arena.tournament import TournamentConfig, play_tournament

    if not 2 <= seats <= 10:
        raise ValueError(f"invalid seats {seats!r}: expected 2..10 players, you included")
    specs = split_agent_specs(opponents)
    if not specs:
        raise ValueError("no opponents given: expected e.g. --opponents random,call")
    if seed is None:
        seed = secrets.randbelow(2**31)
    small, big = parse_blinds(blinds)
    bots = [specs[i % len(specs)] for i in range(seats - 1)]
    config = TournamentConfig(("human", *bots), hands, small, big, chips, 1, chips)
    labels = [name, *config.labels[1:]]
    human = HumanAgent(say=typer.echo)
    agents: list[Agent] = [human] + [
        make_agent(spec, seed=seed_int(seed, 0, 1, i + 1)) for i, spec in enumerate(bots)
    ]

    out_noted = False

    def announce(hand: int, player_at: list[int]) -> None:
        nonlocal out_noted
        human.set_names([labels[p] for p in player_at])
        if 0 not in player_at and not out_noted:
            out_noted = True
            typer.echo(f"You are out after {hand} hands; the bots play the tournament out.")

    typer.echo(f"checkraise play: seed {seed}, {seats} players: " + ", ".join(labels))
    typer.echo("moves: f fold, c check/call, r N raise to N, a all-in, q quit, ? help")
    try:
        result = play_tournament(
            config, seed, agents=agents, on_hand=announce,
            log_dir=out / "logs" if out is not None else None,
        )
    except QuitGame:
        typer.echo("You left the table.")
        return
    typer.echo("")
    typer.echo(f"Tournament over after {result.hands_played} hands:")
    order = sorted(range(seats), key=lambda p: result.players[p].rank)
    for p in order:
        o = result.players[p]
        typer.echo(
            f"  {o.rank:>4.1f}. {labels[p]:<20} chips {o.chips:>6}  "
            f"hands survived {o.hands_survived}"
        )
