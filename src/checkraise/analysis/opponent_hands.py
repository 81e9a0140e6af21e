"""Decisions of the CNN opponent model from hand histories: one replay, one chunk builder.

Every route from a hand history to the stored decisions of
:mod:`checkraise.analysis.opponent_data` goes through :func:`hand_decisions` (one
hand) and :func:`build_chunk` (the hands of one chunk): ``decisions_from_hands``
(``nn opponent eval --hands``), ``nn opponent generate --db`` (the hands played are
stored in a hand database and the chunk is built from the hands read back) and
``nn opponent import`` (any database's heads-up hands). A hand is replayed through
the engine (:func:`checkraise.histories.replay.replay`, which checks it), then played
again action by action to read each decision's observation, which is recorded as
the live play of ``generate`` records it (:class:`DecisionRecorder`), so both routes
give the same arrays.

Hands the planes cannot hold are skipped and counted by reason (:data:`SKIP_REASONS`):
other than two players, limit betting, starting stacks unequal or other than the
chunk's (the planes measure chips against one starting stack), an acting player's
hole cards unknown (a PokerStars history shows only the hero's and those shown).
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from checkraise.engine import Action, ActionEvent, ActionKind, State
from checkraise.engine.observation import Observation
from checkraise.errors import FormatError
from checkraise.histories.acpc_log import record_from_state
from checkraise.histories.database import load_hands
from checkraise.histories.record import HandRecord
from checkraise.histories.replay import replay
from checkraise.nn.action_classes import ACTION_CLASSES, action_class, representative
from checkraise.nn.opponent_planes import ACTION_COLUMNS, NUM_SCALARS, scalars_of
from checkraise.protocol.matchstate import parse_state_line

__all__ = ["MAX_PLAYERS", "SKIP_REASONS", "DecisionRecorder", "HandChunk", "build_chunk",
           "hand_decisions", "played_record", "skip_reason", "stored_hand_ids", "stored_hands"]

#: Why a hand is left out, as counted in :attr:`HandChunk.skipped`.
SKIP_REASONS: Final = ("not heads-up", "limit betting", "other starting stacks",
                       "hole cards unknown")
#: Players a data folder can name (the ``bot`` arrays are int16).
MAX_PLAYERS: Final = int(np.iinfo(np.int16).max) + 1


def _mask(obs: Observation) -> int:
    return sum(1 << k for k in range(len(ACTION_CLASSES)) if representative(obs, k) is not None)


class DecisionRecorder:
    """Collects decisions hand by hand into the arrays of a chunk."""

    def __init__(self) -> None:
        self.cols: dict[str, list[Any]] = {k: [] for k in (
            "hand", "seat", "round", "nprev", "label", "mask", "bot", "opp", "hole", "board",
            "scalars")}
        self.acts: list[tuple[int, ...]] = []
        self.offsets = [0]
        self.n = 0

    def decision(self, hand: int, obs: Observation, action: Action, bot: int, opp: int) -> None:
        """Record ``action`` taken at ``obs`` by player ``bot`` against ``opp`` in hand ``hand``."""
        legal = obs.legal
        assert legal is not None
        actor = obs.seat
        cls = action_class(obs, action)
        chips = (0 if action.kind is ActionKind.FOLD else legal.call_amount
                 if action.kind is ActionKind.CHECK_CALL
                 else action.amount - obs.contributions[actor])
        cols = self.cols
        cols["hand"].append(hand)
        cols["seat"].append(actor)
        cols["round"].append(obs.round)
        cols["nprev"].append(self.n)
        cols["label"].append(cls)
        cols["mask"].append(_mask(obs))
        cols["bot"].append(bot)
        cols["opp"].append(opp)
        cols["hole"].append(obs.hole_cards)
        cols["board"].append(tuple(obs.board) + (255,) * (5 - len(obs.board)))
        cols["scalars"].append(scalars_of(obs))
        self.acts.append((obs.round, actor, cls, chips, obs.pot, obs.stacks[actor]))
        self.n += 1

    def end_hand(self) -> None:
        """Close the current hand."""
        self.offsets.append(self.offsets[-1] + self.n)
        self.n = 0

    def arrays(self) -> dict[str, npt.NDArray[Any]]:
        """The chunk's arrays."""
        cols = self.cols
        return {
            "hand": np.asarray(cols["hand"], np.int32),
            "seat": np.asarray(cols["seat"], np.int8),
            "round": np.asarray(cols["round"], np.int8),
            "nprev": np.asarray(cols["nprev"], np.int32),
            "label": np.asarray(cols["label"], np.int8),
            "mask": np.asarray(cols["mask"], np.uint8),
            "bot": np.asarray(cols["bot"], np.int16),
            "opp": np.asarray(cols["opp"], np.int16),
            "hole": np.asarray(cols["hole"], np.uint8).reshape(-1, 2),
            "board": np.asarray(cols["board"], np.uint8).reshape(-1, 5),
            "scalars": np.asarray(cols["scalars"], np.float32).reshape(-1, NUM_SCALARS),
            "actions": np.asarray(self.acts, np.int32).reshape(-1, len(ACTION_COLUMNS)),
            "offsets": np.asarray(self.offsets, np.int64),
        }


def skip_reason(hand: HandRecord, start: int | None) -> str | None:
    """Why ``hand`` cannot give decisions at starting stack ``start`` (None: any), or None.

    Examples
    --------
    >>> from checkraise.histories.pokerstars import EXAMPLE, parse_text
    >>> skip_reason(parse_text(EXAMPLE)[0], None)
    'not heads-up'
    """
    if hand.num_players != 2:
        return SKIP_REASONS[0]
    if hand.betting != "nolimit":
        return SKIP_REASONS[1]
    stacks = {s.stack for s in hand.seats}
    if len(stacks) != 1 or (start is not None and start not in stacks):
        return SKIP_REASONS[2]
    acting = {a.seat for a in hand.actions}
    if any(len(hand.seats[s].hole_cards) != 2 for s in acting):
        return SKIP_REASONS[3]
    return None


def hand_decisions(rec: DecisionRecorder, index: int, hand: HandRecord,
                   players: Sequence[int]) -> None:
    """Record the decisions of the heads-up ``hand`` as hand ``index`` of ``rec``'s chunk.

    ``players[s]`` is the id of the player in engine seat ``s``. Raises
    :class:`~checkraise.histories.record.HandHistoryError` when the hand does not replay.
    """
    final = replay(hand)
    state = State(final.config, hole_cards=final.hole_cards, board=final.board, seed=0)
    for event in final.history:
        if not isinstance(event, ActionEvent):
            continue
        seat = event.seat
        rec.decision(index, state.observation(seat), event.action, players[seat],
                     players[1 - seat])
        state.step(event.action)
    rec.end_hand()


@dataclass
class HandChunk:
    """The arrays of a chunk built from hand histories, and what was left out.

    ``arrays`` are those of a generated chunk (``hand_bots`` last: each hand's player
    ids by seat); ``start`` is the starting stack of every hand used (None when none
    was); ``skipped`` counts the hands left out by reason (:data:`SKIP_REASONS`).
    """

    arrays: dict[str, npt.NDArray[Any]]
    hands: int
    start: int | None
    skipped: Counter[str] = field(default_factory=Counter)


def build_chunk(
    hands: Iterable[HandRecord],
    players: dict[str, int],
    start: int | None = None,
    limit: int | None = None,
) -> HandChunk:
    """The chunk of the usable ``hands`` (at most ``limit``; an iterator is left after the last).

    ``players`` maps names to ids and is extended with new names (ids in order of
    appearance); ``start`` fixes the starting stack, else the first usable hand's is
    taken. Raises :class:`~checkraise.errors.FormatError` past :data:`MAX_PLAYERS` players.

    Examples
    --------
    >>> from checkraise.histories.acpc_log import EXAMPLE_GAME, EXAMPLE_LOG, parse_log_text
    >>> from checkraise.protocol.gamedef import parse_gamedef
    >>> hands = parse_log_text(EXAMPLE_LOG, parse_gamedef(EXAMPLE_GAME))
    >>> chunk = build_chunk(hands, {})
    >>> chunk.hands, chunk.start, chunk.arrays["label"].tolist(), chunk.arrays["bot"].tolist()
    (1, 1000, [3, 0], [0, 1])
    """
    rec = DecisionRecorder()
    skipped: Counter[str] = Counter()
    bots: list[tuple[int, int]] = []
    if limit is not None and limit < 1:
        return HandChunk(_with_bots(rec, bots), 0, start, skipped)
    for hand in hands:
        reason = skip_reason(hand, start)
        if reason is not None:
            skipped[reason] += 1
            continue
        start = hand.seats[0].stack
        ids = (_player_id(players, hand.seats[0].name), _player_id(players, hand.seats[1].name))
        hand_decisions(rec, len(bots), hand, ids)
        bots.append(ids)
        if len(bots) == limit:
            break
    return HandChunk(_with_bots(rec, bots), len(bots), start, skipped)


def _with_bots(rec: DecisionRecorder, bots: list[tuple[int, int]]) -> dict[str, npt.NDArray[Any]]:
    arrays = rec.arrays()
    arrays["hand_bots"] = np.asarray(bots, np.int16).reshape(-1, 2)
    return arrays


def _player_id(players: dict[str, int], name: str) -> int:
    found = players.get(name)
    if found is None:
        if len(players) >= MAX_PLAYERS:
            raise FormatError(f"player {name!r} would be the {len(players) + 1}th: a data "
                              f"folder names at most {MAX_PLAYERS} players")
        found = players[name] = len(players)
    return found


def played_record(state: State, names: Sequence[str], number: int, *, match: str, seed: str,
                  source: str) -> HandRecord:
    """The hand history of the finished ``state``: its ACPC ``STATE`` line read as a record.

    The record's key is ``("acpc", f"{match}.{seed}.{number}")``; ``names[s]`` plays
    engine seat ``s`` (no ``:`` or ``|``). The line is replayed and its nets checked
    (:func:`checkraise.histories.acpc_log.record_from_state`).
    """
    line = state.acpc_state_line(number, names)
    return record_from_state(parse_state_line(line), state.config, match=match, seed=seed,
                             source=source)


def stored_hand_ids(db: sqlite3.Connection, keys: Sequence[tuple[str, str]]
                    ) -> dict[tuple[str, str], int]:
    """The database ids of the hands of ``keys`` (``(site, hand_id)``) that ``db`` holds."""
    found: dict[tuple[str, str], int] = {}
    by_site: dict[str, list[str]] = {}
    for site, hand_id in keys:
        by_site.setdefault(site, []).append(hand_id)
    for site, hand_ids in by_site.items():
        for first in range(0, len(hand_ids), 500):
            part = hand_ids[first:first + 500]
            marks = ",".join("?" * len(part))
            rows = db.execute(f"SELECT site_hand_id, id FROM hands WHERE site = ? AND "
                              f"site_hand_id IN ({marks})", (site, *part))
            found.update(((site, r[0]), int(r[1])) for r in rows)
    return found


def stored_hands(db: sqlite3.Connection, keys: Sequence[tuple[str, str]]) -> list[HandRecord]:
    """The hands of ``keys`` read back from ``db``, in the order of ``keys``.

    Raises :class:`~checkraise.errors.FormatError` naming the first key not stored.
    """
    ids = stored_hand_ids(db, keys)
    for key in keys:
        if key not in ids:
            raise FormatError(f"hand {key[1]!r} of site {key[0]!r} is not in the hand database: "
                              "expected every hand just stored")
    order = sorted(set(ids.values()))
    by_id = dict(zip(order, load_hands(db, hand_ids=order), strict=True))
    return [by_id[ids[key]] for key in keys]
