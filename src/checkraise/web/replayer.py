"""Hands from the hand database, action by action, for the replayer page.

:func:`list_hands` gives the latest stored hands; :func:`hand_steps` replays one
through the engine (:func:`checkraise.histories.replay`, which also checks the
record against the rules) and gives the table after every action, grouped by
street. Cards are shown where the record knows them: every hole card of hands
played at the web table or in an arena, only the shown ones of most PokerStars
hands.
"""

from __future__ import annotations

import sqlite3
from fractions import Fraction
from typing import Any, Final

from checkraise.agents.human import StreetBets
from checkraise.cards import format_card
from checkraise.engine import ActionEvent
from checkraise.errors import CheckraiseError
from checkraise.histories.record import STREET_NAMES

__all__ = ["MAX_LISTED", "ReplayError", "hand_steps", "list_hands"]

MAX_LISTED: Final = 500


class ReplayError(CheckraiseError):
    """A hand the replayer cannot show (no such hand in the database)."""


def list_hands(db: sqlite3.Connection, limit: int = 100, player: str | None = None,
               ) -> list[dict[str, Any]]:
    """The latest ``limit`` hands (newest first), optionally only those of ``player``.

    Examples
    --------
    >>> from checkraise.histories import EXAMPLE, insert_hands, open_database, parse_text
    >>> db = open_database(":memory:")
    >>> _ = insert_hands(db, parse_text(EXAMPLE))
    >>> [(h["hand_id"], h["players"]) for h in list_hands(db)]
    [('1', ['A', 'B', 'C'])]
    """
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LISTED:
        raise ReplayError(f"limit {limit!r}; expected 1..{MAX_LISTED} hands")
    where = ""
    args: tuple[str, ...] = ()
    if player:
        where = ("WHERE h.id IN (SELECT s.hand_id FROM seats s JOIN players p ON "
                 "p.id = s.player_id WHERE p.name = ?)")
        args = (player,)
    rows = db.execute(
        f"SELECT h.id, h.site, h.site_hand_id, h.table_name, h.board, h.total_pot, "
        f"h.big_blind FROM hands h {where} ORDER BY h.id DESC LIMIT ?", (*args, limit),
    ).fetchall()
    out = []
    for hid, site, hand_id, table, board, pot, bb in rows:
        names = [r[0] for r in db.execute(
            "SELECT p.name FROM seats s JOIN players p ON p.id = s.player_id "
            "WHERE s.hand_id = ? ORDER BY s.seat", (hid,))]
        out.append({"id": hid, "site": site, "hand_id": hand_id, "table": table,
                    "board": board, "pot": _number(Fraction(pot)), "big_blind": bb,
                    "players": names})
    return out


def _number(value: Fraction | int) -> int | float:
    value = Fraction(value)
    return int(value) if value.denominator == 1 else float(value)


def hand_steps(db: sqlite3.Connection, hand: int) -> dict[str, Any]:
    """The hand with database id ``hand``: its players and the table after every action.

    Examples
    --------
    >>> from checkraise.histories import EXAMPLE, insert_hands, open_database, parse_text
    >>> db = open_database(":memory:")
    >>> _ = insert_hands(db, parse_text(EXAMPLE))
    >>> shown = hand_steps(db, 1)
    >>> [s["text"] for s in shown["steps"]]
    ['blinds posted', 'C raises to 6', 'A folds', 'B folds']
    >>> [p["net"] for p in shown["players"]]
    [-1, -2, 3]
    """
    from checkraise.histories import load_hands, replay

    if isinstance(hand, bool) or not isinstance(hand, int):
        raise ReplayError(f"hand {hand!r}; expected a database id")
    records = list(load_hands(db, hand_ids=[hand]))
    if not records:
        raise ReplayError(f"no hand with id {hand} in the database")
    record = records[0]
    final = replay(record)
    history = [e for e in final.history if isinstance(e, ActionEvent)]
    # Undo back to the deal, then walk forward again by the same actions: the states
    # in between are the engine's own, chips and board included.
    state = final.copy()
    while state.history and any(isinstance(e, ActionEvent) for e in state.history):
        state.step_back()
    config = state.config
    known = [tuple(s.hole_cards) for s in record.seats]
    bets = StreetBets(config)
    n = config.num_players
    names = [s.name for s in record.seats]

    def snapshot(text: str) -> dict[str, Any]:
        bets.enter(state.round)
        return {
            "street": STREET_NAMES[min(state.round, 3)],
            "text": text,
            "board": [format_card(c) for c in state.board],
            "pot": state.pot,
            "stacks": list(state.stacks),
            "bets": [0 if state.is_terminal else max(0, bets.total[k] - bets.base)
                     for k in range(n)],
            "folded": list(state.folded),
            "acting": state.current_player,
        }

    steps = [snapshot("blinds posted")]
    for event in history:
        rnd, dealt = state.round, len(state.board)
        state.step(event.action)
        text = f"{names[event.seat]} {bets.apply(event.seat, rnd, event.action)}"
        if len(state.board) > dealt:
            text += f"; {STREET_NAMES[state.round]}: " + " ".join(
                format_card(c) for c in state.board[dealt:])
        steps.append(snapshot(text))
    payoffs = final.payoffs()
    from checkraise.histories.stats import position_names

    positions = ("BTN/SB", "BB") if n == 2 else position_names(n)
    if n == 2 and record.seats[1].blind < record.seats[0].blind:  # an ACPC log's seat order
        positions = ("BB", "BTN/SB")
    return {
        "id": hand,
        "site": record.site,
        "hand_id": record.hand_id,
        "table": record.table,
        "big_blind": record.big_blind,
        "players": [{"name": names[k], "position": positions[k], "stack": config.stacks[k],
                     "cards": [format_card(c) for c in known[k]] or None,
                     "net": _number(payoffs[k])} for k in range(n)],
        "steps": steps,
    }
