"""``checkraise acpc client|dealer|match``: play and host matches over the ACPC protocol."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from checkraise.cli.main import app

# The library (and rich) are imported inside the commands, so that `--help` stays light.
if TYPE_CHECKING:
    from checkraise.protocol.dealer import MatchResult, TimeLimits
    from checkraise.protocol.gamedef import GameDef

acpc_app = typer.Typer(
    name="acpc",
    help="Play and host poker matches over the ACPC protocol 2.0.0.",
    no_args_is_help=True,
)
app.add_typer(acpc_app, name="acpc")

# The standard heads-up no-limit game of the ACPC (reverse blinds, 20,000-chip stacks).
DEFAULT_GAME = """GAMEDEF
nolimit
numPlayers = 2
numRounds = 4
stack = 20000 20000
blind = 100 50
firstPlayer = 2 1 1 1
numSuits = 4
numRanks = 13
numHoleCards = 2
numBoardCards = 0 3 1 1
END GAMEDEF
"""


def _names(first: list[str] | None, rest: list[str] | None, what: str) -> list[str]:
    # `--players A B` arrives as option A plus extra argument B; commas also separate.
    out: list[str] = []
    for item in [*(first or []), *(rest or [])]:
        out.extend(x for x in item.split(",") if x)
    if not out:
        raise ValueError(f"no {what} given: expected --{what} NAME NAME ...")
    return out


@contextmanager
def _progress(total: int, label: str, quiet: bool) -> Iterator[Any]:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(
        TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=Console(stderr=True), transient=True, disable=quiet,
    )
    with progress:
        task = progress.add_task(label, total=total)
        yield lambda _hand: progress.advance(task)


def _limits(t_response: int, t_hand: int, t_per_hand: int, start_timeout: int) -> TimeLimits:
    from checkraise.protocol.dealer import TimeLimits

    return TimeLimits(t_response=t_response, t_hand=t_hand, t_per_hand=t_per_hand,
                      start=start_timeout)


def _result_json(result: MatchResult) -> dict[str, Any]:
    from checkraise.protocol.matchstate import format_value

    return {
        "hands": result.hands,
        "players": list(result.names),
        "totals": [format_value(t) for t in result.totals],
        "score_line": result.score_line,
    }


@acpc_app.command("client")
def client_command(
    host: str = typer.Argument(..., help="Dealer host, e.g. 127.0.0.1."),
    port: int = typer.Argument(..., help="The seat's port that the dealer printed."),
    agent: str = typer.Option(
        "random", "--agent", help="Agent spec, e.g. random, call, equity:margin=0.1."
    ),
    game_file: Path = typer.Option(
        None, "--game", help="ACPC .game file (default: heads-up no-limit, 20000 stacks)."
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the agent's randomness."),
    timeout: float = typer.Option(
        600.0, "--timeout", help="Seconds to wait for a server line before giving up."
    ),
    quiet: bool = typer.Option(False, "--quiet", help="Print nothing but errors."),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
) -> None:
    """Connect to an ACPC dealer and play an agent until the dealer closes the match."""
    from checkraise.agents import make_agent
    from checkraise.protocol.client import run_client
    from checkraise.protocol.gamedef import load_gamedef, parse_gamedef
    from checkraise.protocol.matchstate import format_value

    game: GameDef = (
        load_gamedef(game_file) if game_file is not None
        else parse_gamedef(DEFAULT_GAME, source="<default heads-up no-limit game>")
    )
    player = make_agent(agent, seed=seed)
    report = run_client(host, port, player, game, read_timeout=timeout)
    if as_json:
        print(json.dumps({"hands": report.hands, "total": format_value(report.total),
                          "actions": report.actions, "ended": report.ended}))
    elif not quiet:
        print(f"{report.hands} hands, net {format_value(report.total)} chips ({report.ended})")


@acpc_app.command("dealer")
def dealer_command(
    game_file: Path = typer.Argument(..., help="ACPC .game file."),
    more_players: list[str] = typer.Argument(None, help="More player names after --players."),
    hands: int = typer.Option(..., "--hands", help="Number of hands."),
    seed: int = typer.Option(..., "--seed", help="Card seed (0..2**32-1), as the reference."),
    players: list[str] = typer.Option(None, "--players", help="Player names, one per seat."),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
    port: list[int] = typer.Option(None, "--port", help="Port per seat (default: free ports)."),
    name: str = typer.Option("match", "--name", help="Match name (log header, log file)."),
    out: Path = typer.Option(Path("acpc-out"), "--out", help="Folder for the log <name>.log."),
    swap: bool = typer.Option(
        False, "--swap", help="Move each player one seat on (heads-up: swap seats)."
    ),
    t_response: int = typer.Option(60_000, "--t-response", help="Max ms per action."),
    t_hand: int = typer.Option(600_000, "--t-hand", help="Max ms per seat per hand."),
    t_per_hand: int = typer.Option(7_000, "--t-per-hand", help="Max mean ms per hand."),
    start_timeout: int = typer.Option(60_000, "--start-timeout", help="Max ms to connect."),
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON at the end."),
) -> None:
    """Host a match: print one port per seat, deal from the seed, write the log, print SCORE."""
    from checkraise.protocol.dealer import Dealer
    from checkraise.protocol.gamedef import load_gamedef
    from checkraise.protocol.match import rotate

    game = load_gamedef(game_file)
    names = _names(players, more_players, "players")
    if swap:
        names = rotate(names, 1)
    out.mkdir(parents=True, exist_ok=True)
    log = (out / f"{name}.log").open("w", encoding="ascii", newline="\n")
    try:
        with _progress(hands, "hands", quiet) as advance:
            dealer = Dealer(
                game, num_hands=hands, seed=seed, names=names, match_name=name,
                game_name=str(game_file), host=host, ports=port or None,
                limits=_limits(t_response, t_hand, t_per_hand, start_timeout), log=log,
                on_hand=advance,
            )
            ports = dealer.bind()
            print(" ".join(str(p) for p in ports), flush=True)
            result = dealer.run()
    finally:
        log.close()
    print(json.dumps(_result_json(result)) if as_json else result.score_line, flush=True)


@acpc_app.command("match")
def match_command(
    game_file: Path = typer.Argument(..., help="ACPC .game file."),
    more_agents: list[str] = typer.Argument(None, help="More agent names after --agents."),
    hands: int = typer.Option(..., "--hands", help="Number of hands (per half if duplicate)."),
    agents: list[str] = typer.Option(None, "--agents", help="Agent names, one per seat."),
    seed: int = typer.Option(0, "--seed", help="Card seed; agents get seeds derived from it."),
    duplicate: bool = typer.Option(
        False, "--duplicate", help="Also play the seats swapped (rotated) and sum the halves."
    ),
    swap: bool = typer.Option(False, "--swap", help="Play only the swapped half."),
    name: str = typer.Option("match", "--name", help="Match name (log header, log file)."),
    out: Path = typer.Option(Path("acpc-out"), "--out", help="Folder for the logs."),
    t_response: int = typer.Option(60_000, "--t-response", help="Max ms per action."),
    t_hand: int = typer.Option(600_000, "--t-hand", help="Max ms per seat per hand."),
    t_per_hand: int = typer.Option(7_000, "--t-per-hand", help="Max mean ms per hand."),
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
) -> None:
    """Run our dealer and one client process per agent on 127.0.0.1; print the result."""
    from checkraise.protocol.match import run_duplicate, run_match
    from checkraise.protocol.matchstate import format_value

    agent_names = _names(agents, more_agents, "agents")
    limits = _limits(t_response, t_hand, t_per_hand, 60_000)
    out.mkdir(parents=True, exist_ok=True)
    n = len(agent_names)
    with _progress(hands * (n if duplicate else 1), "hands", quiet) as advance:
        if duplicate:
            dup = run_duplicate(game_file, num_hands=hands, agents=agent_names, seed=seed,
                                out=out, match_name=name, limits=limits, on_hand=advance)
            summary: dict[str, Any] = {
                "duplicate": True,
                "hands": dup.hands,
                "players": dup.names,
                "totals": [format_value(t) for t in dup.totals],
                "per_hand": [format_value(Fraction(t) / dup.hands) for t in dup.totals],
                "halves": [_result_json(h) for h in dup.halves],
            }
        else:
            suffix = ".swap" if swap else ""
            log_path = out / f"{name}{suffix}.log"
            result = run_match(game_file, num_hands=hands, agents=agent_names, seed=seed,
                               shift=1 if swap else 0, match_name=name + suffix,
                               log_path=log_path, limits=limits, on_hand=advance)
            summary = {"duplicate": False, **_result_json(result)}
    if as_json:
        print(json.dumps(summary))
        return
    if duplicate:
        for player, total, mean in zip(
            summary["players"], summary["totals"], summary["per_hand"], strict=True
        ):
            print(f"{player}: {total} chips over {summary['hands']} hands ({mean} per hand)")
    else:
        print(summary["score_line"])
    sys.stdout.flush()
