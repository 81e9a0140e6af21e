"""Hand histories: PokerStars text and ACPC dealer logs in and out, replay, database, stats.

Readers turn files into :class:`HandRecord` objects, every hand is replayed through
the engine (:func:`replay`) and must agree with the amounts collected, the hand
database (:func:`open_database`, SQLite) stores them, and :func:`player_stats`
reports VPIP, PFR, 3-bet %, aggression, showdown figures and bb/100.

Examples
--------
>>> from checkraise.histories import EXAMPLE, parse_text, replay
>>> replay(parse_text(EXAMPLE)[0]).payoffs()
(-1, -2, 3)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from checkraise._lazy import lazy_names

# Imported now, not on first use: the submodule ``replay`` would otherwise shadow the
# function of that name as soon as anything imported the submodule.
from checkraise.histories.replay import replay, table_config

if TYPE_CHECKING:
    from checkraise.histories.acpc_log import (
        format_state_line,
        net_results,
        parse_log_file,
        parse_log_text,
        write_logs,
    )
    from checkraise.histories.database import (
        SCHEMA_VERSION,
        insert_hands,
        load_hands,
        open_database,
    )
    from checkraise.histories.importer import FileReport, import_files, read_hands
    from checkraise.histories.pokerstars import (
        EXAMPLE,
        format_hand,
        format_hands,
        parse_file,
        parse_text,
    )
    from checkraise.histories.record import (
        HandAction,
        HandHistoryError,
        HandRecord,
        Move,
        PlayerSeat,
    )
    from checkraise.histories.stats import StatLine, player_stats, position_names, seat_stats

# Public name -> the module that defines it, imported on first use (PEP 562): a command
# that needs one part (``hands import`` of PokerStars text needs neither the ACPC log
# reader nor, through it, the protocol package and numpy) loads only that part.
_LAZY: dict[str, str] = {
    **dict.fromkeys(("format_state_line", "net_results", "parse_log_file", "parse_log_text",
                     "write_logs"), "checkraise.histories.acpc_log"),
    **dict.fromkeys(("SCHEMA_VERSION", "insert_hands", "load_hands", "open_database"),
                    "checkraise.histories.database"),
    **dict.fromkeys(("FileReport", "import_files", "read_hands"),
                    "checkraise.histories.importer"),
    **dict.fromkeys(("EXAMPLE", "format_hand", "format_hands", "parse_file", "parse_text"),
                    "checkraise.histories.pokerstars"),
    **dict.fromkeys(("HandAction", "HandHistoryError", "HandRecord", "Move", "PlayerSeat"),
                    "checkraise.histories.record"),
    **dict.fromkeys(("StatLine", "player_stats", "position_names", "seat_stats"),
                    "checkraise.histories.stats"),
}


__getattr__, __dir__ = lazy_names(__name__, _LAZY)


__all__ = [
    "EXAMPLE",
    "SCHEMA_VERSION",
    "FileReport",
    "HandAction",
    "HandHistoryError",
    "HandRecord",
    "Move",
    "PlayerSeat",
    "StatLine",
    "format_hand",
    "format_hands",
    "format_state_line",
    "import_files",
    "insert_hands",
    "load_hands",
    "net_results",
    "open_database",
    "parse_file",
    "parse_log_file",
    "parse_log_text",
    "parse_text",
    "player_stats",
    "position_names",
    "read_hands",
    "replay",
    "seat_stats",
    "table_config",
    "write_logs",
]
