"""The observation: card planes, chips, position and the full ordered action history.

One encoder gives both observation forms: the flat float32 vector is the
concatenation of the named fields of :data:`FIELDS` in that order, each flattened
in C order, and the dict form holds the same numbers under the field names with
their shapes. ``docs/envs.md`` lists the layout; in short, with ``n`` seats and
``H`` history rows:

==================  ==================  ============================================
field               shape               content
==================  ==================  ============================================
``layout``          (3,)                ``n``, the big blind in chips, ``H``
``cards``           (4, 4, 13)          planes hole, flop, turn, river; [suit, rank]
``street``          (4,)                one-hot current betting round
``seat``            (n,)                one-hot own seat (seats are positions)
``to_act``          (n,)                one-hot seat to act (zeros once the hand ends)
``stacks``          (n,)                chips behind, in big blinds
``bets``            (n,)                chips put in this hand (antes included), bb
``folded``          (n,)                1 for a seat that folded
``all_in``          (n,)                1 for a seat all-in
``pot``             (1,)                the pot, bb
``to_call``         (1,)                chips to call now, bb (0 when not to act)
``raise_range``     (2,)                min and max raise-to totals, bb (0 if none)
``history_length``  (1,)                actions taken in the hand so far
``history``         (H, n + 10)         one row per action, oldest first
==================  ==================  ============================================

A history row is ``[1, seat one-hot (n), street one-hot (4), fold, check/call,
raise, chips added (bb), seat's bet after the action (bb)]``; unused rows are zero.
The bet after a raise is its raise-to total (ACPC convention, antes excluded), so
:func:`decode_history` reads back each action exactly, in chips.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import numpy.typing as npt

from checkraise.engine.actions import Action, ActionKind
from checkraise.errors import FormatError

if TYPE_CHECKING:
    from checkraise.engine.state import State
    from checkraise.envs.config import EnvConfig

__all__ = ["FIELDS", "HistoryEntry", "ObservationLayout", "decode_history"]

FIELDS: tuple[str, ...] = (
    "layout", "cards", "street", "seat", "to_act", "stacks", "bets", "folded", "all_in",
    "pot", "to_call", "raise_range", "history_length", "history",
)
_KINDS = (ActionKind.FOLD, ActionKind.CHECK_CALL, ActionKind.RAISE)
_KIND_INDEX = {kind: i for i, kind in enumerate(_KINDS)}
_NUM_STREETS = 4


class HistoryEntry(NamedTuple):
    """One action of the hand: who, in which betting round, what, and how many chips.

    ``action`` is ``"fold"``, ``"call"`` (a check is a call of 0) or ``"raise"``;
    ``amount`` is the raise-to total for a raise (ACPC convention), the chips put in
    for a call (0 for a check), and 0 for a fold.
    """

    seat: int
    street: int
    action: str
    amount: int


def _shapes(n: int, rows: int) -> dict[str, tuple[int, ...]]:
    return {
        "layout": (3,), "cards": (4, 4, 13), "street": (_NUM_STREETS,), "seat": (n,),
        "to_act": (n,), "stacks": (n,), "bets": (n,), "folded": (n,), "all_in": (n,),
        "pot": (1,), "to_call": (1,), "raise_range": (2,), "history_length": (1,),
        "history": (rows, n + 10),
    }


class ObservationLayout:
    """Where each field sits in the flat vector for ``n`` seats and ``rows`` history rows.

    Parameters
    ----------
    num_players, history_rows
        ``n`` and ``H``.
    big_blind
        Chips per big blind (the unit of every amount).

    Examples
    --------
    >>> layout = ObservationLayout(2, 36, 100)
    >>> layout.size, layout.slices["history"]
    (664, slice(232, 664, None))
    """

    def __init__(self, num_players: int, history_rows: int, big_blind: int) -> None:
        self.num_players = num_players
        self.history_rows = history_rows
        self.big_blind = big_blind
        self.shapes = _shapes(num_players, history_rows)
        self.slices: dict[str, slice] = {}
        start = 0
        for name in FIELDS:
            size = int(np.prod(self.shapes[name]))
            self.slices[name] = slice(start, start + size)
            start += size
        self.size = start

    @classmethod
    def of(cls, config: EnvConfig) -> ObservationLayout:
        """The layout of an environment's observations."""
        return cls(config.num_players, config.history_rows, config.big_blind)

    @classmethod
    def from_vector(cls, vector: npt.ArrayLike) -> ObservationLayout:
        """Read the layout from the ``layout`` field at the head of a flat vector."""
        v = np.asarray(vector, dtype=np.float64).reshape(-1)
        if v.size < 3:
            raise FormatError(f"an observation vector of {v.size} numbers: expected the "
                              "layout field (seats, big blind, history rows) at its head")
        n, bb, rows = (round(x) for x in v[:3])
        if not 2 <= n <= 10 or bb < 1 or rows < 1:
            raise FormatError(f"observation layout {v[:3].tolist()}: expected 2..10 seats, "
                              "a big blind >= 1 and history rows >= 1")
        layout = cls(n, rows, bb)
        if layout.size != v.size:
            raise FormatError(f"an observation vector of {v.size} numbers, but its layout "
                              f"{[n, bb, rows]} needs {layout.size}")
        return layout

    def bounds(self, max_chips: int, max_actions: int
               ) -> dict[str, tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]:
        """``(low, high)`` arrays of each field, for the observation spaces."""
        chips = np.float32(max_chips / self.big_blind)
        out = {}
        for name, shape in self.shapes.items():
            low = np.zeros(shape, dtype=np.float32)
            high = np.ones(shape, dtype=np.float32)
            if name in ("stacks", "bets", "pot", "to_call", "raise_range"):
                high[...] = chips
            elif name == "layout":
                high[:] = (10, self.big_blind, self.history_rows)
            elif name == "history_length":
                high[:] = max_actions
            elif name == "history":
                high[:, -2:] = chips
            out[name] = (low, high)
        return out

    def to_dict(self, vector: npt.NDArray[np.float32]) -> dict[str, npt.NDArray[np.float32]]:
        """The dict form of a flat vector (copies, shaped)."""
        return {name: vector[self.slices[name]].reshape(self.shapes[name]).copy()
                for name in FIELDS}

    def to_vector(self, fields: Mapping[str, npt.ArrayLike]) -> npt.NDArray[np.float32]:
        """The flat vector of a dict-form observation."""
        return np.concatenate([np.asarray(fields[name], dtype=np.float32).reshape(-1)
                               for name in FIELDS])


class HandRecorder:
    """Plays actions on a hand's :class:`~checkraise.engine.State` and keeps history rows.

    The rows are written as actions happen, so an observation copies them instead of
    walking the engine's history again.
    """

    def __init__(self, layout: ObservationLayout, state: State, bound: int) -> None:
        self.layout = layout
        self.state = state
        self.rows = np.zeros((bound, layout.num_players + 10), dtype=np.float32)
        self.count = 0

    def step(self, action: Action) -> None:
        """Apply ``action`` (legal) for the seat to act and record its row."""
        state = self.state
        seat = state.current_player
        assert seat is not None
        street = state.round
        before = state.contributions[seat]
        state.step(action)
        after_bets = state.bets[seat]
        added = state.contributions[seat] - before
        n = self.layout.num_players
        bb = self.layout.big_blind
        if self.count == len(self.rows):  # past the bound: not expected, but never lose rows
            self.rows = np.concatenate([self.rows, np.zeros_like(self.rows)])
        row = self.rows[self.count]
        row[0] = 1.0
        row[1 + seat] = 1.0
        row[1 + n + street] = 1.0
        row[5 + n + _KIND_INDEX[action.kind]] = 1.0
        row[8 + n] = added / bb
        row[9 + n] = after_bets / bb
        self.count += 1

    def encode(self, seat: int) -> npt.NDArray[np.float32]:
        """``seat``'s observation of the hand now, as the flat vector."""
        layout = self.layout
        state = self.state
        n = layout.num_players
        bb = layout.big_blind
        sl = layout.slices
        v = np.zeros(layout.size, dtype=np.float32)
        v[0:3] = (n, bb, layout.history_rows)
        cards = sl["cards"].start
        for card in state.hole_cards[seat]:
            v[cards + (card & 3) * 13 + (card >> 2)] = 1.0
        for i, card in enumerate(state.board):
            plane = 1 if i < 3 else i - 1  # flop cards 0..2, turn 3, river 4
            v[cards + plane * 52 + (card & 3) * 13 + (card >> 2)] = 1.0
        v[sl["street"].start + state.round] = 1.0
        v[sl["seat"].start + seat] = 1.0
        actor = state.current_player
        if actor is not None:
            v[sl["to_act"].start + actor] = 1.0
        v[sl["stacks"]] = state.stacks
        v[sl["bets"]] = state.contributions
        v[sl["folded"]] = state.folded
        v[sl["all_in"]] = state.all_in_flags
        v[sl["pot"]] = state.pot
        if actor == seat:
            legal = state.legal_actions()
            v[sl["to_call"]] = legal.call_amount
            if legal.min_raise_to is not None and legal.max_raise_to is not None:
                v[sl["raise_range"]] = (legal.min_raise_to, legal.max_raise_to)
        # The chip fields were written in chips: one division for all of them.
        chips = slice(sl["stacks"].start, sl["bets"].stop)
        v[chips] /= bb
        money = slice(sl["pot"].start, sl["raise_range"].stop)
        v[money] /= bb
        v[sl["history_length"]] = self.count
        rows = layout.history_rows
        kept = self.rows[max(0, self.count - rows):self.count]
        hist = sl["history"].start
        v[hist:hist + kept.size] = kept.reshape(-1)
        return v


def _history_rows(observation: Any) -> tuple[npt.NDArray[np.float64], int, int]:
    """(history rows, seats, big blind) of a flat vector or a dict-form observation."""
    if (isinstance(observation, Mapping) and "observation" in observation
            and "action_mask" in observation):
        observation = observation["observation"]  # PettingZoo's wrapper dict
    if isinstance(observation, Mapping):
        missing = [k for k in ("layout", "history") if k not in observation]
        if missing:
            raise FormatError(f"a dict observation without the fields {missing}: expected "
                              f"the fields {list(FIELDS)}")
        head = np.asarray(observation["layout"], dtype=np.float64).reshape(-1)
        if head.size != 3:
            raise FormatError(f"the layout field holds {head.size} numbers; expected 3")
        n, bb = round(head[0]), round(head[1])
        rows = np.asarray(observation["history"], dtype=np.float64)
        if rows.ndim != 2 or rows.shape[1] != n + 10:
            raise FormatError(f"a history of shape {rows.shape}: expected (rows, {n + 10}) "
                              f"for {n} seats")
        return rows, n, bb
    layout = ObservationLayout.from_vector(observation)
    v = np.asarray(observation, dtype=np.float64).reshape(-1)
    rows = v[layout.slices["history"]].reshape(layout.shapes["history"])
    return rows, layout.num_players, layout.big_blind


def decode_history(observation: Any) -> list[HistoryEntry]:
    """The actions encoded in an observation, oldest first.

    ``observation`` is a flat vector, a dict-form observation, or PettingZoo's
    ``{"observation": ..., "action_mask": ...}``; each carries its own layout (seats,
    big blind, rows), so nothing else is needed. With ``max_history`` below the
    hand's length only the most recent actions are in the observation.

    Examples
    --------
    >>> from checkraise.engine import Action, State, TableConfig
    >>> state = State(TableConfig.nolimit(2, stacks=1000), seed=3)
    >>> recorder = HandRecorder(ObservationLayout(2, 36, 100), state, 36)
    >>> for action in ("r300", "c", "c", "r500", "f"):
    ...     recorder.step(Action.parse(action))
    >>> for entry in decode_history(recorder.encode(0)):
    ...     print(entry)
    HistoryEntry(seat=0, street=0, action='raise', amount=300)
    HistoryEntry(seat=1, street=0, action='call', amount=200)
    HistoryEntry(seat=1, street=1, action='call', amount=0)
    HistoryEntry(seat=0, street=1, action='raise', amount=500)
    HistoryEntry(seat=1, street=1, action='fold', amount=0)
    """
    rows, n, bb = _history_rows(observation)
    rows = rows[rows[:, 0] > 0.5]
    seats = np.argmax(rows[:, 1:1 + n], axis=1).tolist()
    streets = np.argmax(rows[:, 1 + n:5 + n], axis=1).tolist()
    kinds = np.argmax(rows[:, 5 + n:8 + n], axis=1).tolist()
    added = np.rint(rows[:, 8 + n] * bb).astype(np.int64).tolist()
    totals = np.rint(rows[:, 9 + n] * bb).astype(np.int64).tolist()
    out: list[HistoryEntry] = []
    for seat, street, k, add, total in zip(seats, streets, kinds, added, totals, strict=True):
        kind = _KINDS[k]
        amount = total if kind is ActionKind.RAISE else add if kind is ActionKind.CHECK_CALL else 0
        out.append(HistoryEntry(seat, street, str(kind), amount))
    return out
