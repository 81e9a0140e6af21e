"""DeepFool's input encoding of one decision (torch-free): cards, ordered history, legal mask.

The DeepFool policy network (:mod:`checkraise.nn.deepfool_net`) reads three groups of
inputs, each built here from an engine :class:`~checkraise.engine.Observation` of the
seat to act:

* **cards**: the two hole cards and the board as rank indices (0..12, ``2..A``) and
  suit indices (0..3), padded with :data:`RANK_PAD` / :data:`SUIT_PAD` where the board
  is not dealt yet; the network embeds ranks and suits and sums them per group;
* **history**: the last :data:`HISTORY_LEN` actions of the hand *in order* (oldest
  first, zero rows after the last one), each as :data:`ACTION_FEATURES` numbers: a
  presence flag, who acted (one-hot of the seat counted from the observer, so 0 is the
  observer), the street (one-hot), the action's class (one-hot over
  :data:`~checkraise.nn.action_classes.ACTION_CLASSES`, folds included) and the chips
  it put in as a fraction of the pot before it. Every action of the hand is there,
  folds and any number of raises included, which is what the environment the DeepFool
  authors trained in lacked;
* **scalars**: :data:`SCALAR_FEATURES` numbers about the table now (pot, the price to
  call, the observer's stack, how many seats are still in, position, street).

The network's output is a distribution over the six action classes; :func:`legal_mask`
says which of them the seat may take (a class with a legal representative action, and
fold only when there is something to call: folding for free is never better than
checking).

Examples
--------
>>> from checkraise.engine import State, TableConfig
>>> s = State(TableConfig.nolimit(6, 2000, 20, 40), seed=3)
>>> s.check_call(); s.raise_to(200)
Action(kind=<ActionKind.CHECK_CALL: 'call'>, amount=0)
Action(kind=<ActionKind.RAISE: 'raise'>, amount=200)
>>> e = encode(s.observation(s.current_player))
>>> e.history[:2, 0].tolist(), e.history[2, 0].item()   # two actions so far
([1.0, 1.0], 0.0)
>>> e.mask.tolist()   # facing a raise: fold, call and every raise class
[True, True, True, True, True, True]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from checkraise.engine.actions import ActionKind
from checkraise.engine.observation import Observation
from checkraise.errors import CheckraiseError
from checkraise.nn.action_classes import (
    ACTION_CLASSES,
    ALL_IN,
    CHECK_CALL,
    FOLD,
    LARGE,
    LARGE_MIN,
    MEDIUM,
    SMALL,
    SMALL_MAX,
    representative,
)

__all__ = [
    "ACTION_FEATURES",
    "HISTORY_LEN",
    "MAX_SEATS",
    "NUM_CLASSES",
    "RANK_PAD",
    "SCALAR_FEATURES",
    "SUIT_PAD",
    "Encoded",
    "EncodedBatch",
    "encode",
    "legal_mask",
    "stack_encoded",
]

NUM_CLASSES = len(ACTION_CLASSES)
MAX_SEATS = 10
HISTORY_LEN = 24
RANK_PAD = 13
SUIT_PAD = 4
_ROUNDS = 4
# presence, seat (one-hot, relative), street (one-hot), class (one-hot), chips / pot
ACTION_FEATURES = 1 + MAX_SEATS + _ROUNDS + NUM_CLASSES + 1
SCALAR_FEATURES = 8 + _ROUNDS


@dataclass(frozen=True)
class Encoded:
    """One decision's inputs: card indices, history rows, scalars and the legal mask."""

    ranks: npt.NDArray[np.int64]
    """Shape (7,): hole ranks, then the five board ranks (``RANK_PAD`` when not dealt)."""
    suits: npt.NDArray[np.int64]
    """Shape (7,): the suits in the same order (``SUIT_PAD`` when not dealt)."""
    history: npt.NDArray[np.float32]
    """Shape (HISTORY_LEN, ACTION_FEATURES)."""
    scalars: npt.NDArray[np.float32]
    """Shape (SCALAR_FEATURES,)."""
    mask: npt.NDArray[np.bool_]
    """Shape (NUM_CLASSES,): the classes the seat may take."""


@dataclass(frozen=True)
class EncodedBatch:
    """Many decisions stacked along a first axis (what the network and the trainer take)."""

    ranks: npt.NDArray[np.int64]
    suits: npt.NDArray[np.int64]
    history: npt.NDArray[np.float32]
    scalars: npt.NDArray[np.float32]
    mask: npt.NDArray[np.bool_]

    def __len__(self) -> int:
        return int(self.ranks.shape[0])

    def take(self, index: npt.NDArray[np.int64] | slice) -> EncodedBatch:
        """The rows ``index`` of every array."""
        return EncodedBatch(self.ranks[index], self.suits[index], self.history[index],
                            self.scalars[index], self.mask[index])

    def arrays(self) -> dict[str, npt.NDArray[np.generic]]:
        """The arrays by name (for ``np.savez``)."""
        return {"ranks": self.ranks, "suits": self.suits, "history": self.history,
                "scalars": self.scalars, "mask": self.mask}

    @staticmethod
    def from_arrays(d: dict[str, npt.NDArray[np.generic]], prefix: str = "") -> EncodedBatch:
        """The inverse of :meth:`arrays` (keys optionally prefixed)."""
        return EncodedBatch(
            np.asarray(d[prefix + "ranks"], dtype=np.int64),
            np.asarray(d[prefix + "suits"], dtype=np.int64),
            np.asarray(d[prefix + "history"], dtype=np.float32),
            np.asarray(d[prefix + "scalars"], dtype=np.float32),
            np.asarray(d[prefix + "mask"], dtype=np.bool_),
        )


def stack_encoded(items: Sequence[Encoded]) -> EncodedBatch:
    """Stack single decisions into a batch (an empty batch for no items)."""
    if not items:
        return EncodedBatch(
            np.zeros((0, 7), np.int64), np.zeros((0, 7), np.int64),
            np.zeros((0, HISTORY_LEN, ACTION_FEATURES), np.float32),
            np.zeros((0, SCALAR_FEATURES), np.float32), np.zeros((0, NUM_CLASSES), np.bool_),
        )
    return EncodedBatch(
        np.stack([e.ranks for e in items]), np.stack([e.suits for e in items]),
        np.stack([e.history for e in items]), np.stack([e.scalars for e in items]),
        np.stack([e.mask for e in items]),
    )


def legal_mask(obs: Observation) -> npt.NDArray[np.bool_]:
    """Which action classes the seat to act at ``obs`` may take.

    A class is legal when :func:`~checkraise.nn.action_classes.representative` has a
    legal action for it; fold only when calling costs chips.
    """
    if obs.legal is None:
        raise CheckraiseError(f"seat {obs.seat} is not to act in this observation; "
                              "expected the observation of the seat to act")
    mask = np.zeros(NUM_CLASSES, dtype=np.bool_)
    for k in range(NUM_CLASSES):
        if k == FOLD and obs.legal.call_amount == 0:
            continue
        mask[k] = representative(obs, k) is not None
    return mask


def _history_rows(obs: Observation) -> npt.NDArray[np.float32]:
    """The ordered history, replayed from the blinds to classify each action."""
    cfg = obs.config
    n = cfg.num_players
    contrib = list(cfg.blinds)
    start = cfg.stacks
    antes = cfg.ante * n
    rows: list[npt.NDArray[np.float32]] = []
    for seat, rnd, action in obs.history:
        row = np.zeros(ACTION_FEATURES, dtype=np.float32)
        row[0] = 1.0
        row[1 + (seat - obs.seat) % n] = 1.0
        row[1 + MAX_SEATS + min(rnd, _ROUNDS - 1)] = 1.0
        top = max(contrib)
        pot = sum(contrib) + antes
        before = contrib[seat]
        if action.kind is ActionKind.FOLD:
            cls = FOLD
        elif action.kind is ActionKind.CHECK_CALL:
            cls = CHECK_CALL
            contrib[seat] = min(top, start[seat] - cfg.ante)
        else:
            to_call = top - before
            if action.amount >= start[seat] - cfg.ante:
                cls = ALL_IN
            else:
                frac = (action.amount - before - to_call) / max(pot + to_call, 1)
                cls = SMALL if frac <= SMALL_MAX else MEDIUM if frac <= LARGE_MIN else LARGE
            contrib[seat] = action.amount
        row[1 + MAX_SEATS + _ROUNDS + cls] = 1.0
        row[-1] = (contrib[seat] - before) / max(pot, 1)
        rows.append(row)
    out = np.zeros((HISTORY_LEN, ACTION_FEATURES), dtype=np.float32)
    keep = rows[-HISTORY_LEN:]
    if keep:
        out[: len(keep)] = np.stack(keep)
    return out


def encode(obs: Observation) -> Encoded:
    """The network's inputs for the decision of the seat to act at ``obs``."""
    mask = legal_mask(obs)
    cards = list(obs.hole_cards[:2]) + list(obs.board[:5])
    ranks = np.full(7, RANK_PAD, dtype=np.int64)
    suits = np.full(7, SUIT_PAD, dtype=np.int64)
    for i, c in enumerate(cards):
        ranks[i] = c // 4
        suits[i] = c % 4
    cfg = obs.config
    n = cfg.num_players
    bb = max(max(cfg.blinds), 1)
    to_call = obs.to_call
    live = sum(1 for f in obs.folded if not f)
    # Seats after the observer still to act this street matter for position; the
    # observer's seat counted from the button (n - 1 in ring games) stands for it.
    position = (obs.seat - (n - 1 if n > 2 else 0)) % n
    scalars = np.zeros(SCALAR_FEATURES, dtype=np.float32)
    scalars[0] = obs.pot / (100.0 * bb)
    scalars[1] = to_call / max(obs.pot + to_call, 1)
    scalars[2] = obs.stacks[obs.seat] / (100.0 * bb)
    scalars[3] = live / n
    scalars[4] = position / max(n - 1, 1)
    scalars[5] = n / MAX_SEATS
    scalars[6] = obs.stacks[obs.seat] / max(obs.pot, 1) / 10.0
    scalars[7] = sum(1 for a in obs.all_in if a) / n
    scalars[8 + min(obs.round, _ROUNDS - 1)] = 1.0
    return Encoded(ranks, suits, _history_rows(obs), scalars, mask)
