"""Planes that a convolutional opponent model reads: a decision as a (C, 20, 20) image (numpy).

After the expert no-limit bot's CNN opponent model (cards as a 4 x 13 image padded to
20 x 20, the betting of the hand in further planes), with our own layout of the
betting. A decision is the point where one seat (*the actor*, "self" below) is to act;
every plane is seen from that seat. ``PLANES`` (13) planes, each 20 x 20 float32:

=====  ======================================================================
plane  content
=====  ======================================================================
0      the actor's two hole cards
1      the flop (three cards), 2 the turn, 3 the river; zero before the deal
4-7    the actions of preflop, flop, turn, river (one plane per street)
8      pot / (sum of the starting stacks), everywhere
9      the actor's stack / its starting stack, everywhere
10     the largest stack of a live opponent / the actor's starting stack
11     amount to call / (pot + amount to call)
12     position: the actor's place in the post-flop order, 0 (first) .. 1 (last)
=====  ======================================================================

Card planes: card ``4 * rank + suit`` lights cell ``(CARD_ROW + suit, CARD_COL + rank)``,
so the 4 x 13 block sits in the middle of the 20 x 20 plane (rows 8-11, columns 3-15),
ranks left to right, one row per suit: pairs line up vertically, flushes horizontally.

Action planes: row ``i`` is the ``i``-th action of the street (at most ``SLOTS`` = 20
rows: when a street has more actions, the last 20 are kept, the earliest dropped).
Columns of a row:

* 0 / 1: 1 when the action's actor is self / an opponent (both 0: an empty row);
* 2-7: the action's class, one-hot (:data:`checkraise.nn.action_classes.ACTION_CLASSES`);
* 8: chips it put in / pot before it, clipped at ``POT_CLIP`` and divided by it;
* 9: chips it put in / the actor's stack before it (1 for an all-in);
* 10: chips it put in / ``start`` (the acting seat's starting stack): exact, so that
  :func:`decode` gives back chip amounts;
* 11: pot before the action / (twice ``start``).

"Chips it put in" is the increment: 0 for a fold or a check, the amount called, or
the raise-to total minus what the seat had in before.

The same planes come from an engine :class:`~checkraise.engine.Observation`
(:func:`encode`, :func:`encode_many`, which replay its public history) and from the
compact arrays stored by the data writer (:func:`encode_parts`), so the training data
and the bot at play see identical inputs. :func:`decode` inverts the planes to the
hole cards, board and the action list (street, self or not, class, chips), which the
tests use to check the layout round-trips.

Examples
--------
>>> from checkraise.engine import Action, State, TableConfig
>>> s = State(TableConfig.nolimit(2, 20000, 50, 100), deck=list(range(52)))
>>> s.step(Action.raise_to(300))
>>> obs = s.observation(s.current_player)
>>> planes = encode(obs, obs.hole_cards)
>>> planes.shape, planes.dtype
((13, 20, 20), dtype('float32'))
>>> d = decode(planes, 20000)
>>> d.hole, d.board, d.actions
((2, 3), (), ((0, False, 3, 250),))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise.engine.actions import ActionKind
from checkraise.engine.observation import Observation
from checkraise.errors import CheckraiseError
from checkraise.nn.action_classes import ACTION_CLASSES, action_class

__all__ = [
    "ACTION_COLUMNS",
    "CARD_COL",
    "CARD_ROW",
    "NUM_SCALARS",
    "PLANES",
    "POT_CLIP",
    "SIZE",
    "SLOTS",
    "DecodedDecision",
    "PlaneError",
    "action_table",
    "decode",
    "encode",
    "encode_batch",
    "encode_many",
    "encode_parts",
    "scalars_of",
]

SIZE = 20
PLANES = 13
SLOTS = 20
CARD_ROW = 8
CARD_COL = 3
POT_CLIP = 4.0
NUM_SCALARS = 5
#: Columns of an action table: street, seat, class, chips put in, pot before, stack before.
ACTION_COLUMNS = ("round", "seat", "cls", "chips", "pot", "stack")
_HOLE, _FLOP, _TURN, _RIVER = 0, 1, 2, 3
_ACTIONS = 4
_SCALARS = 8
_NCLS = len(ACTION_CLASSES)


class PlaneError(CheckraiseError):
    """Input that cannot be encoded (bad cards, an observation not at a decision)."""


@dataclass(frozen=True)
class DecodedDecision:
    """What :func:`decode` reads back from planes.

    ``actions`` holds ``(round, by_self, class, chips)`` per action in order (the
    last ``SLOTS`` of each street); ``scalars`` the five scalar planes' values.
    """

    hole: tuple[int, ...]
    board: tuple[int, ...]
    actions: tuple[tuple[int, bool, int, int], ...]
    scalars: tuple[float, ...]


def _check_cards(cards: npt.NDArray[Any], what: str) -> None:
    if cards.size and (cards.min() < 0 or cards.max() > 51):
        raise PlaneError(f"{what} {cards.tolist()}: expected cards 0..51")


def action_table(obs: Observation) -> npt.NDArray[np.int64]:
    """The public actions before ``obs``'s decision as an ``(n, 6)`` table (:data:`ACTION_COLUMNS`).

    The history is replayed on an engine state with stand-in cards (the betting does
    not depend on the cards), so each earlier action's class is read at its own
    decision point.
    """
    from checkraise.engine.state import State

    state = State(obs.config, deck=list(range(52)))
    rows: list[tuple[int, int, int, int, int, int]] = []
    for seat, rnd, action in obs.history:
        if state.is_terminal or state.current_player != seat:
            raise PlaneError(f"the history of seat {obs.seat}'s observation does not replay: "
                             f"seat {seat} acts out of turn")
        o = state.observation(seat)
        legal = o.legal
        assert legal is not None
        put_in = o.contributions[seat]
        if action.kind is ActionKind.FOLD:
            chips = 0
        elif action.kind is ActionKind.CHECK_CALL:
            chips = legal.call_amount
        else:
            chips = action.amount - put_in
        rows.append((rnd, seat, action_class(o, action), chips, o.pot, o.stacks[seat]))
        state.step(action)
    return np.array(rows, dtype=np.int64).reshape(len(rows), len(ACTION_COLUMNS))


def scalars_of(obs: Observation) -> npt.NDArray[np.float32]:
    """The five scalar-plane values of ``obs`` (planes 8-12)."""
    if obs.legal is None:
        raise PlaneError(f"seat {obs.seat} is not to act in this observation; "
                         "expected the observation of the seat to act")
    seat = obs.seat
    cfg = obs.config
    start = cfg.stacks[seat]
    n = cfg.num_players
    opp = max((obs.stacks[i] for i in range(n) if i != seat and not obs.folded[i]), default=0)
    to_call = obs.legal.call_amount
    first = cfg.first_player[1]
    order = (seat - first) % n
    return np.array([
        obs.pot / max(sum(cfg.stacks), 1),
        obs.stacks[seat] / max(start, 1),
        opp / max(start, 1),
        to_call / max(obs.pot + to_call, 1),
        order / max(n - 1, 1),
    ], dtype=np.float32)


def encode_parts(
    hole: npt.ArrayLike,
    board: npt.ArrayLike,
    actions: npt.NDArray[np.int64],
    seat: int,
    start: int,
    scalars: npt.ArrayLike,
    out: npt.NDArray[np.float32] | None = None,
) -> npt.NDArray[np.float32]:
    """Planes of one decision from its parts.

    Parameters
    ----------
    hole : array of 2 ints
        The actor's hole cards.
    board : array of 0, 3, 4 or 5 ints
        The board dealt so far (entries above 51 are padding and ignored).
    actions : int array (n, 6)
        The actions before the decision, columns :data:`ACTION_COLUMNS`.
    seat : int
        The actor's engine seat (actions by it are "self").
    start : int
        The actor's starting stack (the unit of exact chip amounts).
    scalars : array of 5 floats
        The values of planes 8-12 (:func:`scalars_of`).
    out : float32 array (PLANES, 20, 20), optional
        Written in place (zeroed first) instead of a new array.
    """
    planes = np.zeros((PLANES, SIZE, SIZE), np.float32) if out is None else out
    if out is not None:
        planes.fill(0.0)
    h = np.asarray(hole, dtype=np.int64).reshape(-1)
    b = np.asarray(board, dtype=np.int64).reshape(-1)
    b = b[b < 52]
    _check_cards(h, "hole cards")
    _check_cards(b, "board")
    planes[_HOLE, CARD_ROW + h % 4, CARD_COL + h // 4] = 1.0
    for plane, lo, hi in ((_FLOP, 0, 3), (_TURN, 3, 4), (_RIVER, 4, 5)):
        cards = b[lo:hi]
        planes[plane, CARD_ROW + cards % 4, CARD_COL + cards // 4] = 1.0
    start_f = float(max(start, 1))
    for rnd in range(4):
        rows = actions[actions[:, 0] == rnd][-SLOTS:]
        if not len(rows):
            continue
        p = planes[_ACTIONS + rnd]
        idx = np.arange(len(rows))
        mine = rows[:, 1] == seat
        p[idx, 0] = mine
        p[idx, 1] = ~mine
        p[idx, 2 + rows[:, 2]] = 1.0
        chips = rows[:, 3].astype(np.float64)
        p[idx, 8] = np.minimum(chips / np.maximum(rows[:, 4], 1), POT_CLIP) / POT_CLIP
        p[idx, 9] = chips / np.maximum(rows[:, 5], 1)
        p[idx, 10] = chips / start_f
        p[idx, 11] = rows[:, 4] / (2.0 * start_f)
    planes[_SCALARS:_SCALARS + NUM_SCALARS] = np.asarray(scalars, np.float32)[:, None, None]
    return planes


def encode_batch(
    holes: npt.NDArray[Any],
    boards: npt.NDArray[Any],
    actions: npt.NDArray[Any],
    owner: npt.NDArray[np.int64],
    seats: npt.NDArray[Any],
    starts: npt.NDArray[Any],
    scalars: npt.NDArray[Any],
) -> npt.NDArray[np.float32]:
    """Planes ``(k, PLANES, 20, 20)`` of ``k`` decisions at once (as :func:`encode_parts` each).

    ``holes`` ``(k, 2)``, ``boards`` ``(k, 5)`` (entries above 51 are padding),
    ``actions`` the action tables of all ``k`` decisions stacked ``(m, 6)`` with
    ``owner[j]`` the decision of row ``j`` (non-decreasing, each decision's rows in
    order), ``seats``, ``starts`` ``(k,)``, ``scalars`` ``(k, 5)``.
    """
    k = len(holes)
    planes = np.zeros((k, PLANES, SIZE, SIZE), np.float32)
    h = np.asarray(holes, np.int64)
    b = np.asarray(boards, np.int64)
    _check_cards(h, "hole cards")
    _check_cards(b[b < 52], "board")
    rows_k = np.arange(k)
    for j in range(2):
        planes[rows_k, _HOLE, CARD_ROW + h[:, j] % 4, CARD_COL + h[:, j] // 4] = 1.0
    for j in range(5):
        plane = _FLOP if j < 3 else (_TURN if j == 3 else _RIVER)
        ok = b[:, j] < 52
        c = b[ok, j]
        planes[rows_k[ok], plane, CARD_ROW + c % 4, CARD_COL + c // 4] = 1.0
    a = np.asarray(actions, np.int64).reshape(-1, len(ACTION_COLUMNS))
    if len(a):
        own = np.asarray(owner, np.int64)
        group = own * 4 + a[:, 0]
        # position of each row within its (decision, street) group, and the group's size
        change = np.r_[True, group[1:] != group[:-1]]
        starts_at = np.flatnonzero(change)
        sizes = np.diff(np.r_[starts_at, len(group)])
        gid = np.cumsum(change) - 1
        pos = np.arange(len(group)) - starts_at[gid]
        slot = pos - np.maximum(sizes[gid] - SLOTS, 0)
        keep = slot >= 0
        a, own, slot = a[keep], own[keep], slot[keep]
        plane = _ACTIONS + a[:, 0]
        mine = a[:, 1] == np.asarray(seats, np.int64)[own]
        planes[own, plane, slot, 0] = mine
        planes[own, plane, slot, 1] = ~mine
        planes[own, plane, slot, 2 + a[:, 2]] = 1.0
        chips = a[:, 3].astype(np.float64)
        start_f = np.maximum(np.asarray(starts, np.float64)[own], 1.0)
        planes[own, plane, slot, 8] = np.minimum(chips / np.maximum(a[:, 4], 1),
                                                 POT_CLIP) / POT_CLIP
        planes[own, plane, slot, 9] = chips / np.maximum(a[:, 5], 1)
        planes[own, plane, slot, 10] = chips / start_f
        planes[own, plane, slot, 11] = a[:, 4] / (2.0 * start_f)
    planes[:, _SCALARS:_SCALARS + NUM_SCALARS] = np.asarray(scalars, np.float32)[:, :, None, None]
    return planes


def encode_many(obs: Observation, holes: npt.ArrayLike) -> npt.NDArray[np.float32]:
    """Planes ``(k, PLANES, 20, 20)`` of ``obs``'s decision, each row of ``holes`` as the actor's.

    ``obs`` is the observation of the seat to act; its own hole cards are ignored,
    ``holes`` (``k x 2`` ints) stand for them (hypothesised hands in a search).
    """
    hs = np.asarray(holes, dtype=np.int64)
    if hs.ndim != 2 or hs.shape[1] != 2:
        raise PlaneError(f"holes of shape {hs.shape}: expected (k, 2)")
    _check_cards(hs, "hole cards")
    base = encode_parts(np.zeros(0, np.int64), np.asarray(obs.board, np.int64),
                        action_table(obs), obs.seat, obs.config.stacks[obs.seat],
                        scalars_of(obs))
    out = np.repeat(base[None], len(hs), axis=0)
    k = np.arange(len(hs))
    for j in range(2):
        out[k, _HOLE, CARD_ROW + hs[:, j] % 4, CARD_COL + hs[:, j] // 4] = 1.0
    return out


def encode(obs: Observation, hole: tuple[int, int] | tuple[int, ...]) -> npt.NDArray[np.float32]:
    """Planes ``(PLANES, 20, 20)`` of ``obs``'s decision with ``hole`` as the actor's cards."""
    if len(hole) != 2:
        raise PlaneError(f"hole cards {hole!r}: expected two cards")
    planes: npt.NDArray[np.float32] = encode_many(obs, np.array([hole], dtype=np.int64))[0]
    return planes


def _cards(plane: npt.NDArray[np.float32]) -> list[int]:
    suits, ranks = np.nonzero(plane[CARD_ROW:CARD_ROW + 4, CARD_COL:CARD_COL + 13])
    return sorted(int(4 * r + s) for s, r in zip(suits, ranks, strict=True))


def decode(planes: npt.NDArray[np.float32], start: int) -> DecodedDecision:
    """Read back the hole cards, board, actions and scalars (``start`` as given to the encoder).

    Cards come back sorted within each plane (the planes do not keep deal order).
    """
    if planes.shape != (PLANES, SIZE, SIZE):
        raise PlaneError(f"planes of shape {planes.shape}: expected ({PLANES}, {SIZE}, {SIZE})")
    board = _cards(planes[_FLOP]) + _cards(planes[_TURN]) + _cards(planes[_RIVER])
    actions: list[tuple[int, bool, int, int]] = []
    for rnd in range(4):
        p = planes[_ACTIONS + rnd]
        for row in p:
            if row[0] == 0 and row[1] == 0:
                break
            cls = int(np.argmax(row[2:2 + _NCLS]))
            actions.append((rnd, bool(row[0] == 1), cls, round(float(row[10]) * start)))
    scalars = tuple(float(planes[_SCALARS + i, 0, 0]) for i in range(NUM_SCALARS))
    return DecodedDecision(tuple(_cards(planes[_HOLE])), tuple(board), tuple(actions), scalars)
