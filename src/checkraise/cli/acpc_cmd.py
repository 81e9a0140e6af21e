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

from checkraise.cli._options import check_seed
from checkraise.cli.app import app

if TYPE_CHECKING:
    from checkraise.protocol.dealer import Correction, MatchResult, TimeLimits

acpc_app = typer.Typer(
    name="acpc",
    help="Play and host poker matches over the ACPC protocol 2.0.0.",
    no_args_is_help=True,
)
app.add_typer(acpc_app, name="acpc")

def _names(first: list[str] | None, rest: list[str] | None, what: str) -> list[str]:
    # `--players A B` arrives as option A plus extra argument B; commas also separate.
    from checkraise.protocol.errors import MatchSetupError
    out: list[str] = []
    for item in [*(first or []), *(rest or [])]:
        out.extend(x for x in item.split(",") if x)
    if not out:
        raise MatchSetupError(f"no {what} given: expected --{what} NAME NAME ...")
    return out


def _match_name(name: str) -> str:
    # The name becomes a file name and a word of the log header.
    from checkraise.protocol.errors import MatchSetupError
    if not name or name in (".", "..") or any(ch.isspace() or ch in "/\\" for ch in name):
        raise MatchSetupError(
            f"invalid match name {name!r}: expected a file name without spaces or '/'"
        )
    return name


# Plain prints: rich would wrap a long path or line at the console width.
def _warn(note: Correction) -> None:
    print(f"lenient: {note.describe()}", file=sys.stderr, flush=True)


def _where(paths: list[Path]) -> None:
    print(f"log: {', '.join(str(p) for p in paths)}", file=sys.stderr, flush=True)


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
    port: int = typer.Argument(..., help="The seat's port that the dealer printed (1..65535)."),
    agent: str = typer.Option(
        "random", "--agent", help="Agent spec, e.g. random, call, equity:margin=0.1."
    ),
    game_file: Path = typer.Option(
        None, "--game",
        help="ACPC .game file (default: the standard ACPC game that the first state shows: "
        "2 or 3 players, limit or no-limit).",
    ),
    seed: int = typer.Option(
        0, "--seed", callback=check_seed,
        help="Seed of the agent's randomness (0 or more)."
    ),
    timeout: float = typer.Option(
        600.0, "--timeout", help="Seconds to wait for a server line before giving up (> 0)."
    ),
    quiet: bool = typer.Option(False, "--quiet", help="Print nothing but errors."),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
) -> None:
    """Connect to an ACPC dealer and play an agent until the dealer closes the match."""
    from checkraise.agents import make_agent
    from checkraise.protocol.client import run_client
    from checkraise.protocol.errors import MatchSetupError
    from checkraise.protocol.gamedef import GameDef, load_gamedef
    from checkraise.protocol.matchstate import format_value
    from checkraise.protocol.net import check_host, check_port
    check_port(port)
    check_host(host)
    if not timeout > 0:
        raise MatchSetupError(f"invalid --timeout {timeout!r}: expected seconds > 0")
    game: GameDef | None = load_gamedef(game_file) if game_file is not None else None
    player = make_agent(agent, seed=seed)
    report = run_client(host, port, player, game, read_timeout=timeout)
    if report.inferred_game and not quiet and not as_json:
        print(f"game: {report.inferred_game}, assumed from the states seen (no --game)",
              file=sys.stderr)
    if as_json:
        summary: dict[str, Any] = {"hands": report.hands, "total": format_value(report.total),
                                   "actions": report.actions, "ended": report.ended}
        if report.inferred_game:
            summary["inferred_game"] = report.inferred_game
        print(json.dumps(summary))
    elif not quiet:
        print(f"{report.hands} hands, net {format_value(report.total)} chips ({report.ended})")


@acpc_app.command("dealer")
def dealer_command(
    game_file: Path = typer.Argument(..., help="ACPC .game file."),
    more_players: list[str] = typer.Argument(None, help="More player names after --players."),
    hands: int = typer.Option(..., "--hands", help="Number of hands (at least 1)."),
    seed: int = typer.Option(
        ..., "--seed",
        help="Card seed (0..2**32-1), as the reference."
    ),
    players: list[str] = typer.Option(None, "--players", help="Player names, one per seat."),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
    port: list[int] = typer.Option(
        None, "--port", help="Port per seat, 1..65535 (0 or none given: a free port)."
    ),
    name: str = typer.Option("match", "--name", help="Match name (log header, log file)."),
    out: Path = typer.Option(Path("acpc-out"), "--out", help="Folder for the log <name>.log."),
    force: bool = typer.Option(
        False, "--force", help="Overwrite an existing <name>.log (refused otherwise)."
    ),
    lenient: bool = typer.Option(
        False, "--lenient",
        help="Forgive bad answers as the reference dealer does: an invalid raise becomes the "
        "nearest legal raise, an unreadable or illegal action a call, a stray line is ignored; "
        "each fix is logged with the seat and the line (default: abort the match).",
    ),
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
    """Host a match: print one port per seat, deal from the seed, write the log, print SCORE.

    Everything is checked before any file is opened; an existing log is never
    overwritten without --force. The log's path is printed on stderr.
    """
    from checkraise.protocol.dealer import Dealer
    from checkraise.protocol.errors import MatchAbortedError
    from checkraise.protocol.gamedef import load_gamedef
    from checkraise.protocol.log import open_new_log
    from checkraise.protocol.match import rotate
    limits = _limits(t_response, t_hand, t_per_hand, start_timeout)
    game = load_gamedef(game_file)
    names = _names(players, more_players, "players")
    if swap:
        names = rotate(names, 1)
    log_path = out / f"{_match_name(name)}.log"
    dealer = Dealer(
        game, num_hands=hands, seed=seed, names=names, match_name=name,
        game_name=str(game_file), host=host, ports=port or None, limits=limits,
        lenient=lenient, on_correction=_warn,
    )
    log = open_new_log(log_path, force=force)
    dealer.log = log
    try:
        with _progress(hands, "hands", quiet) as advance:
            dealer.on_hand = advance
            ports = dealer.bind()
            print(" ".join(str(p) for p in ports), flush=True)
            result = dealer.run()
    except MatchAbortedError as exc:
        raise MatchAbortedError(
            f"{exc} (the log of the hands played is in {log_path})", seat=exc.seat, line=exc.line
        ) from None
    finally:
        log.close()
    _where([log_path])
    if as_json:
        print(json.dumps({**_result_json(result), "log": str(log_path),
                          "corrections": len(result.corrections)}), flush=True)
    else:
        print(result.score_line, flush=True)


@acpc_app.command("match")
def match_command(
    game_file: Path = typer.Argument(..., help="ACPC .game file."),
    more_agents: list[str] = typer.Argument(None, help="More agent names after --agents."),
    hands: int = typer.Option(
        ..., "--hands", help="Number of hands, at least 1 (per half if duplicate)."
    ),
    agents: list[str] = typer.Option(None, "--agents", help="Agent names, one per seat."),
    seed: int = typer.Option(
        0, "--seed",
        help="Card seed (0..2**32-1); agents get seeds derived from it."
    ),
    duplicate: bool = typer.Option(
        False, "--duplicate", help="Also play the seats swapped (rotated) and sum the halves."
    ),
    swap: bool = typer.Option(False, "--swap", help="Play only the swapped half."),
    name: str = typer.Option("match", "--name", help="Match name (log header, log file)."),
    out: Path = typer.Option(Path("acpc-out"), "--out", help="Folder for the logs."),
    force: bool = typer.Option(
        False, "--force", help="Overwrite existing logs of the same name (refused otherwise)."
    ),
    lenient: bool = typer.Option(
        False, "--lenient",
        help="Forgive bad answers as the reference dealer does (see `acpc dealer --help`).",
    ),
    t_response: int = typer.Option(60_000, "--t-response", help="Max ms per action."),
    t_hand: int = typer.Option(600_000, "--t-hand", help="Max ms per seat per hand."),
    t_per_hand: int = typer.Option(7_000, "--t-per-hand", help="Max mean ms per hand."),
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
) -> None:
    """Run our dealer and one client process per agent on 127.0.0.1; print the result.

    Everything is checked before any file is opened; existing logs are never
    overwritten without --force. The logs' paths are printed on stderr.
    """
    from checkraise.arena.match import refuse_interactive
    from checkraise.protocol.dealer import check_player_name
    from checkraise.protocol.errors import MatchAbortedError, MatchSetupError
    from checkraise.protocol.gamedef import load_gamedef
    from checkraise.protocol.log import check_new_log
    from checkraise.protocol.match import (
        duplicate_log_paths,
        player_names,
        run_duplicate,
        run_match,
    )
    from checkraise.protocol.matchstate import format_value
    agent_names = _names(agents, more_agents, "agents")
    limits = _limits(t_response, t_hand, t_per_hand, 60_000)
    if duplicate and swap:
        raise MatchSetupError("--duplicate already plays the swapped half: drop --swap")
    if isinstance(hands, bool) or hands < 1:
        raise MatchSetupError(f"invalid number of hands {hands!r}: expected at least 1")
    if not 0 <= seed < 2**32:
        raise MatchSetupError(f"invalid seed {seed!r}: expected 0..{2**32 - 1}")
    game = load_gamedef(game_file)
    if len(agent_names) != game.num_players:
        raise MatchSetupError(
            f"the game seats {game.num_players} players, got {len(agent_names)} agents: "
            f"{agent_names}"
        )
    refuse_interactive(agent_names, "acpc match")
    for player in player_names(agent_names):
        check_player_name(player)
    suffix = ".swap" if swap else ""
    logs = (duplicate_log_paths(out, _match_name(name), len(agent_names)) if duplicate
            else [out / f"{_match_name(name)}{suffix}.log"])
    for path in logs:
        check_new_log(path, force=force)
    n = len(agent_names)
    common: dict[str, Any] = {
        "limits": limits, "on_hand": None, "force": force, "lenient": lenient,
        "on_correction": _warn,
    }
    try:
        with _progress(hands * (n if duplicate else 1), "hands", quiet) as advance:
            common["on_hand"] = advance
            if duplicate:
                dup = run_duplicate(game_file, num_hands=hands, agents=agent_names, seed=seed,
                                    out=out, match_name=name, **common)
                summary: dict[str, Any] = {
                    "duplicate": True,
                    "hands": dup.hands,
                    "players": dup.names,
                    "totals": [format_value(t) for t in dup.totals],
                    "per_hand": [format_value(Fraction(t) / dup.hands) for t in dup.totals],
                    "halves": [_result_json(h) for h in dup.halves],
                }
            else:
                result = run_match(game_file, num_hands=hands, agents=agent_names, seed=seed,
                                   shift=1 if swap else 0, match_name=name + suffix,
                                   log_path=logs[0], **common)
                summary = {"duplicate": False, **_result_json(result)}
    except MatchAbortedError as exc:
        written = [str(p) for p in logs if p.exists()]
        raise MatchAbortedError(
            f"{exc} (logs of the hands played: {', '.join(written)})", seat=exc.seat,
            line=exc.line,
        ) from None
    _where(logs)
    if as_json:
        print(json.dumps({**summary, "logs": [str(p) for p in logs]}))
        return
    if duplicate:
        for player, total, mean in zip(
            summary["players"], summary["totals"], summary["per_hand"], strict=True
        ):
            print(f"{player}: {total} chips over {summary['hands']} hands ({mean} per hand)")
    else:
        print(summary["score_line"])
    sys.stdout.flush()
