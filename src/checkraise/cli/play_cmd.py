"""``checkraise play``: a human against bots at the terminal, in the tournament format."""

from __future__ import annotations

import re
import secrets
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from checkraise.cli._options import check_seed, parse_blinds
from checkraise.cli.app import app
from checkraise.errors import CheckraiseError

PLAY_LOGS = re.compile(r"rep-\d{4,}\.(?:log|txt)")
"""The hand logs a session writes into ``--out/logs``."""

if TYPE_CHECKING:
    from checkraise.agents.base import Agent
    from checkraise.engine import Action, Observation, TableConfig

__all__ = ["PlayError", "play_command"]


class PlayError(CheckraiseError):
    """Bad options for ``checkraise play`` (seats, opponents, name)."""


class _Watched:
    """An agent passed through unchanged, except that the hand's final stacks are noted."""

    def __init__(self, agent: Agent, note: list[tuple[int | Fraction, ...]]) -> None:
        # ``note`` is shared by every seat: the one entry is the last hand's final stacks.
        self.agent = agent
        self.note = note

    def act(self, observation: Observation) -> Action:
        return self.agent.act(observation)

    def begin_hand(
        self, seat: int, config: TableConfig, hole_cards: tuple[int, ...], hand_number: int
    ) -> None:
        from checkraise.agents.base import call_begin_hand

        call_begin_hand(self.agent, seat, config, hole_cards, hand_number)

    def end_hand(self, observation: Observation, payoffs: tuple[int | Fraction, ...]) -> None:
        start = observation.config.stacks
        self.note[:] = [tuple(start[s] + payoffs[s] for s in range(len(start)))]
        from checkraise.agents.base import call_end_hand

        call_end_hand(self.agent, observation, payoffs)


# Written out so that `--help` need not import the agents (and numpy) to list them;
# tests/cli/test_startup.py checks it against the registry.
OPPONENT_NAMES = (
    "allin, blueprint, call, checkfold, deepfool, equity, expert, handreader (alias fold), "
    "heuristic, raise, random or resolve"
)
_OPPONENTS_HELP = (
    "Opponent agent specs, comma-separated; repeated in turn to fill the seats. "
    f"Agents: {OPPONENT_NAMES}."
)


@app.command("play")
def play_command(
    opponents: list[str] = typer.Option(
        ["random"], "--opponents", "-o", help=_OPPONENTS_HELP,
    ),
    seats: int = typer.Option(6, "--seats", help="Players at the table, you included (2-10)."),
    hands: int = typer.Option(600, "--hands", help="Hand limit."),
    blinds: str = typer.Option("20/40", "--blinds", help="Small/big blind."),
    chips: int = typer.Option(2000, "--chips", help="Starting chips (one rebuy of the same)."),
    seed: int | None = typer.Option(
        None, "--seed", callback=check_seed,
        help="Seed of cards and bots (default: random, printed)."
    ),
    name: str = typer.Option("you", "--name", help="Your name in the logs."),
    out: Path | None = typer.Option(None, "--out", help="Folder for the hand logs."),
    force: bool = typer.Option(
        False, "--force", help="Replace the hand logs of an earlier session in --out."
    ),
) -> None:
    """Play a tournament against bots: the table, your legal actions with amounts, the showdown.

    Moves: f fold, c/k check or call, b N bet N, r N raise to N, a all-in, q quit, ? help.
    Amounts count this street only, as in a card room ("raise to 300" on the flop is 300
    on the flop, whatever went in before). Bad input is asked again.
    """
    from checkraise.agents.base import make_agent, split_agent_specs
    from checkraise.agents.human import HumanAgent, QuitGame
    from checkraise.arena.outfolder import claim_out_folder
    from checkraise.arena.report import places
    from checkraise.arena.ring import seed_int
    from checkraise.arena.table import log_names
    from checkraise.arena.tournament import TournamentConfig, play_tournament
    if not 2 <= seats <= 10:
        raise PlayError(f"invalid seats {seats!r}: expected 2..10 players, you included")
    specs = split_agent_specs(opponents)
    if not specs:
        raise PlayError("no opponents given: expected e.g. --opponents random,call")
    if seed is None:
        seed = secrets.randbelow(2**31)
    small, big = parse_blinds(blinds)
    bots = [specs[i % len(specs)] for i in range(seats - 1)]
    config = TournamentConfig(("human", *bots), hands, small, big, chips, 1, chips)
    labels = [name.strip(), *config.labels[1:]]
    if not labels[0] or log_names(labels[:1])[0] in log_names(labels[1:]):
        raise PlayError(
            f"invalid --name {name!r}: expected a non-empty name other than the bots' "
            f"({', '.join(labels[1:])})"
        )
    config = replace(config, names=tuple(labels))
    if out is not None:
        claim_out_folder(out, (), PLAY_LOGS, force=force, command="play")
    human = HumanAgent(say=typer.echo)
    final: list[tuple[int | Fraction, ...]] = []  # the last hand's final stacks, engine seats
    players: list[Agent] = [human] + [
        make_agent(spec, seed=seed_int(seed, 0, 1, i + 1)) for i, spec in enumerate(bots)
    ]
    agents: list[Agent] = [_Watched(agent, final) for agent in players]
    seated: list[int] = []  # the player in each engine seat of the last hand

    def who(p: int) -> tuple[str, str]:
        return ("you", "") if p == 0 else (labels[p], "s")

    def busts(still_in: set[int], hand: int) -> None:
        """Say who lost all his chips in the last hand: a rebuy, or out."""
        for seat, p in enumerate(seated):
            if final and final[0][seat] == 0:
                person, s = who(p)
                if p in still_in:
                    typer.echo(f"*** {person} rebuy{s} {chips} chips (no rebuys left)")
                else:
                    typer.echo(f"*** {person} {'are' if p == 0 else 'is'} out after hand {hand}")
        final.clear()

    def announce(hand: int, player_at: list[int]) -> None:
        human_left = 0 in seated and 0 not in player_at
        busts(set(player_at), hand)
        if human_left:
            typer.echo("The bots play the tournament out.")
        seated[:] = player_at
        human.set_names([labels[p] for p in player_at])

    typer.echo(f"checkraise play: seed {seed}, {seats} players: " + ", ".join(labels))
    typer.echo(
        "moves: f fold, c check/call, b N bet N, r N raise to N (this street), a all-in, "
        "q quit, ? help"
    )
    try:
        result = play_tournament(
            config, seed, agents=agents, on_hand=announce,
            log_dir=out / "logs" if out is not None else None,
        )
    except QuitGame:
        typer.echo("You left the table.")
        return
    busts({p for p, o in enumerate(result.players) if o.eliminated_at is None},
          result.hands_played)
    typer.echo("")
    typer.echo(f"Tournament over after {result.hands_played} hands:")
    order = sorted(range(seats), key=lambda p: result.players[p].rank)
    place = places([o.rank for o in result.players])
    for p in order:
        o = result.players[p]
        typer.echo(
            f"  {place[p]:>5} {labels[p]:<20} chips {o.chips:>6}  "
            f"hands survived {o.hands_survived}"
        )
