"""``checkraise hands import|stats|luck|export``: the hand database from the command line."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from checkraise.cli.app import app
from checkraise.errors import CheckraiseError

if TYPE_CHECKING:
    import sqlite3

hands_app = typer.Typer(
    help="Hand histories: import PokerStars text and ACPC logs, statistics, export.",
    no_args_is_help=True,
)
app.add_typer(hands_app, name="hands")

_POSITION_ORDER = ("SB", "BB", "UTG", "UTG+1", "UTG+2", "UTG+3", "LJ", "HJ", "CO", "BTN")


@hands_app.command("import")
def import_command(
    files: list[Path] = typer.Argument(..., help="PokerStars .txt files and/or ACPC .log files."),
    db_path: Path = typer.Option(Path("hands.sqlite"), "--db", help="Hand database (SQLite)."),
    game: Path | None = typer.Option(
        None, "--game", help="ACPC game file for logs (default: the one the log header names)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print machine-readable JSON."),
) -> None:
    """Import hand histories, one transaction per file; hands already present are skipped.

    Every hand is replayed through the engine and must agree with the amounts the file
    says were collected; a file with a bad hand is reported and leaves the database as
    it was. Exit status 2 when any file was rejected.
    """
    from checkraise.histories.database import open_database
    from checkraise.histories.importer import FileReport, import_files

    gamedef = None
    if game is not None:
        from checkraise.protocol.gamedef import load_gamedef

        gamedef = load_gamedef(game)
    db = open_database(db_path)
    try:
        if as_json or not sys.stderr.isatty():
            # No one sees a progress bar here: spare the import of rich (a tenth of the
            # time of a whole Pluribus import).
            reports = import_files(db, files, game=gamedef)
        else:
            from rich.progress import Progress

            with Progress(transient=True) as progress:
                task = progress.add_task("importing", total=len(files))

                def advance(report: FileReport) -> None:
                    progress.update(task, advance=1, description=Path(report.path).name)

                reports = import_files(db, files, game=gamedef, on_file=advance)
    finally:
        db.close()
    bad = [r for r in reports if not r.ok]
    if as_json:
        print(json.dumps({"db": str(db_path), "files": [r.__dict__ for r in reports]}))
    else:
        read = sum(r.hands for r in reports)
        added = sum(r.added for r in reports)
        print(f"{len(reports) - len(bad)} of {len(reports)} files imported: {read} hands read, "
              f"{added} added, {read - added} already present")
        for r in bad:
            typer.echo(f"rejected {r.path}: {r.error}", err=True)
    if bad:
        raise typer.Exit(2)


def _open_existing(db_path: Path, player: str | None = None) -> sqlite3.Connection:
    """The hand database at ``db_path``, which must exist (and hold ``player``, if given)."""
    from checkraise.histories.database import open_database

    if not db_path.exists():
        raise CheckraiseError(
            f"hand database {str(db_path)!r} does not exist: run 'hands import'")
    db = open_database(db_path)
    if player is not None:
        try:
            _check_player(db, db_path, player)
        except BaseException:
            db.close()
            raise
    return db


def _check_player(db: sqlite3.Connection, db_path: Path, player: str) -> None:
    """Raise naming ``player`` and some players the database does hold, if it has none."""
    import difflib

    from checkraise.histories.database import player_names

    names = player_names(db)
    if player in names:
        return
    if not names:
        raise CheckraiseError(f"no hands of player {player!r}: {str(db_path)!r} holds no hands")
    by_lower = {n.lower(): n for n in reversed(names)}  # the most hands wins a clash
    close = [by_lower[m] for m in difflib.get_close_matches(player.lower(), list(by_lower), n=3)]
    shown = list(dict.fromkeys(close + names))[:8]  # close matches, then the most hands
    more = f" and {len(names) - len(shown)} more" if len(names) > len(shown) else ""
    raise CheckraiseError(
        f"no hands of player {player!r} in {str(db_path)!r}: players are "
        f"{', '.join(repr(n) for n in shown)}{more}"
    )


@hands_app.command("stats")
def stats_command(
    db_path: Path = typer.Option(Path("hands.sqlite"), "--db", help="Hand database (SQLite)."),
    player: str | None = typer.Option(None, "--player", help="Only this player."),
    position: list[str] = typer.Option(
        [], "--position", help="Only these positions (SB BB UTG ... HJ CO BTN); repeatable."
    ),
    by_position: bool = typer.Option(
        False, "--by-position", help="One line per player and position."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print machine-readable JSON."),
    out: Path | None = typer.Option(
        None, "--out", help="Folder for winnings.png (cumulative winnings per player)."
    ),
) -> None:
    """Player statistics: hands, VPIP, PFR, 3-bet %, AF, WTSD, W$SD, bb/100."""
    from checkraise.histories.stats import player_stats

    db = _open_existing(db_path, player)
    try:
        lines = player_stats(db, player=player, positions=tuple(position),
                             by_position=by_position)
        lines.sort(key=lambda s: (s.player if by_position else "",
                                  _POSITION_ORDER.index(s.position)
                                  if s.position in _POSITION_ORDER else -1))
        plot = None
        if out is not None:
            from checkraise.histories.plots import plot_cumulative_winnings

            players = (player,) if player else ()
            plot = plot_cumulative_winnings(db, out / "winnings.png", players)
    finally:
        db.close()
    if as_json:
        print(json.dumps({"stats": [s.as_dict() for s in lines],
                          "plot": str(plot) if plot else None}))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"Hand statistics: {db_path.name}")
    for col in ("player", "pos", "hands", "VPIP", "PFR", "3bet", "AF", "WTSD", "W$SD", "bb/100"):
        table.add_column(col, justify="left" if col in ("player", "pos") else "right",
                         no_wrap=True)

    def f(x: float | None, digits: int = 1) -> str:
        return "-" if x is None else f"{x:.{digits}f}"

    for s in lines:
        table.add_row(s.player, s.position, str(s.hands), f(s.vpip), f(s.pfr), f(s.three_bet),
                      f(s.aggression, 2), f(s.wtsd), f(s.wsd), f(s.bb_per_100, 2))
    Console().print(table)
    if plot is not None:
        print(f"wrote {plot}")


@hands_app.command("luck")
def luck_command(
    db_path: Path = typer.Option(Path("hands.sqlite"), "--db", help="Hand database (SQLite)."),
    player: str | None = typer.Option(None, "--player", help="Only this player."),
    as_json: bool = typer.Option(False, "--json", help="Print machine-readable JSON."),
) -> None:
    """Win rates as won, all-in adjusted and luck adjusted (mbb/hand, 95% intervals).

    The adjusted rates take out the luck of the board cards and keep the expectation,
    so they estimate the same win rate more precisely. They need every player's hole
    cards, folded hands included (Pluribus logs, ACPC dealer logs, checkraise's match
    logs): a hand without them is an error that names it.
    """
    from checkraise.cli._progress import hands_progress
    from checkraise.histories.database import load_hands
    from checkraise.histories.luck import luck_rates

    db = _open_existing(db_path, player)
    try:
        hands = [h for h in load_hands(db)
                 if player is None or any(s.name == player for s in h.seats)]
    finally:
        db.close()
    with hands_progress(len(hands), "luck", enabled=not as_json) as advance:
        lines = luck_rates(hands, player=player, advance=advance)
    if as_json:
        print(json.dumps({"hands": len(hands), "players": [line.as_dict() for line in lines]}))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"Win rates, mbb/hand with 95% intervals: {db_path.name}, "
                        f"{len(hands):,} hands")
    for col in ("player", "hands", "as won", "all-in adjusted", "luck adjusted"):
        table.add_column(col, justify="left" if col == "player" else "right", no_wrap=True)
    for line in lines:
        table.add_row(line.player, f"{line.hands:,}",
                      *(f"{e.mean:+.0f} ± {e.half_width:.0f}"
                        for e in (line.won, line.allin, line.luck)))
    Console().print(table)


@hands_app.command("export")
def export_command(
    db_path: Path = typer.Option(Path("hands.sqlite"), "--db", help="Hand database (SQLite)."),
    fmt: str = typer.Option("pokerstars", "--format", help="pokerstars or acpc."),
    out: Path = typer.Option(Path("out"), "--out", help="Folder for the exported files."),
    as_json: bool = typer.Option(False, "--json", help="Print machine-readable JSON."),
) -> None:
    """Write the database back out as PokerStars text or ACPC dealer logs (+ game files)."""
    from checkraise.histories.acpc_log import write_logs
    from checkraise.histories.database import load_hands
    from checkraise.histories.pokerstars import format_hands

    if fmt not in ("pokerstars", "acpc"):
        raise CheckraiseError(f"unknown format {fmt!r}: expected pokerstars or acpc")
    db = _open_existing(db_path)
    try:
        hands = list(load_hands(db))
    finally:
        db.close()
    out.mkdir(parents=True, exist_ok=True)
    if fmt == "pokerstars":
        path = out / "hands.txt"
        path.write_text(format_hands(hands) if hands else "", encoding="utf-8")
        paths = [path]
    else:
        paths = write_logs(hands, out, stem="hands")
    if as_json:
        print(json.dumps({"hands": len(hands), "files": [str(p) for p in paths]}))
    else:
        print(f"wrote {len(hands)} hands to {', '.join(str(p) for p in paths)}")
