"""DeepStack's counterfactual value networks on the hold'em river and turn, over hand clusters.

Moravcik et al. (2017), "DeepStack", Science 356(6337) and its supplement: a network
maps a public state and both players' ranges over *buckets* of hands to both players'
values per bucket; an outer layer makes them zero-sum. Here the public state is the
start of a river's betting (:mod:`checkraise.nn.river_data`) and the buckets are the
card abstraction's river buckets (:class:`checkraise.games.holdem_game.HoldemCards`:
the hand's exact EHS cut at 200 thresholds, so a bucket is a band of strength). The
*turn* network is the same over the abstraction's turn buckets, at the start of the
turn's betting; at the leaves of a depth-limited *flop* subgame it is asked once per
turn card, as the river network is per river card at the end of the turn.

**Input** (``2 B + 2`` numbers, ``B`` buckets): each player's range summed per bucket
(each summing to 1), ``log(spr) / log(30)`` and ``1 / (1 + spr)``. **Output** (``2 B``):
each player's *share of the pot* per bucket (:mod:`checkraise.nn.river_data`), the
mean over the bucket's combos weighted by ``w(h) = r(h) m(h)`` (the hand's range weight
times the opponent weight compatible with it), which is how much the hand's value
counts in the players' expected values.

**Zero-sum correction.** With ``W_p[b] = sum_{h in b} r_p(h) m_p(h) / M`` (``M`` the
weight of the compatible pairs; each ``W_p`` sums to 1) exact shares satisfy
``W_0 . e_0 + W_1 . e_1 = 1``: the pot goes to someone. Raw outputs ``y`` miss it by
``err = W_0 . y_0 + W_1 . y_1 - 1``; the correction subtracts ``err / 2`` from every
output of both players, after which the identity holds exactly. The loss is the
Huber loss of the corrected shares over the buckets the board fills.

**At the leaves of a turn subgame** (:class:`RiverLeafValues`) the network is asked
once per river card and leaf, in one batch: each hand then gets its bucket's share on
that card, and its value at the leaf is the mean over the river cards of those shares
weighted by the opponent weight compatible with the hand and the card (the solver's
chance weighting, per pair of hands).

:class:`RiverValueFunction` evaluates a saved network in numpy (no torch to play).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from checkraise.cards import COMBO_CARDS, NUM_COMBOS
from checkraise.errors import ConfigError
from checkraise.nn.io import ModelFileError, load_model, require_torch, save_model
from checkraise.nn.river_data import SPR_RANGE, STREET_CARDS
from checkraise.nn.values import (
    TrainSettings,
    fit_epochs,
    prelu_mlp,
    read_layers,
    run_layers,
)

if TYPE_CHECKING:
    from checkraise.solvers.spot.solver import Leaf

__all__ = [
    "MODEL_KIND",
    "BucketLeafValues",
    "RiverLeafValues",
    "RiverValueFunction",
    "board_buckets",
    "bucket_features",
    "compatible_mass",
    "default_river_model",
    "river_buckets",
    "train_river",
]

FloatArray = npt.NDArray[np.float64]
MODEL_KIND = "holdem-river-cfv"
_SPR_SCALE = float(np.log(30.0))
STREETS = {cards: street for street, cards in STREET_CARDS.items()}
_CARD_A = COMBO_CARDS[:, 0].astype(np.int64)
_CARD_B = COMBO_CARDS[:, 1].astype(np.int64)
# _PAIR[a, b]: the combo index of cards a and b (-1 on the diagonal)
_PAIR = np.full((52, 52), -1, dtype=np.int64)
_PAIR[_CARD_A, _CARD_B] = np.arange(NUM_COMBOS)
_PAIR[_CARD_B, _CARD_A] = np.arange(NUM_COMBOS)
_INCIDENCE = np.zeros((NUM_COMBOS, 52))
_INCIDENCE[np.arange(NUM_COMBOS), _CARD_A] = 1.0
_INCIDENCE[np.arange(NUM_COMBOS), _CARD_B] = 1.0


def board_buckets(board: Sequence[int], abstraction: str = "default") -> npt.NDArray[np.int64]:
    """The bucket of each of the 1,326 combos on ``board`` (-1 where it clashes), on the
    street its length says (3 cards: flop, 4: turn, 5: river)."""
    if len(board) not in (3, 4, 5):
        raise ConfigError(f"a board of {len(board)} cards; expected 3, 4 or 5")
    buckets: npt.NDArray[np.int64] = _cards(abstraction).combo_buckets(
        len(board) - 2, tuple(int(c) for c in board))
    return buckets


def river_buckets(board: Sequence[int], abstraction: str = "default") -> npt.NDArray[np.int64]:
    """The river bucket of each of the 1,326 combos on ``board`` (its first five cards;
    -1 where a combo clashes)."""
    if len(board) < 5:
        raise ConfigError(f"a river board has 5 cards; got {len(board)}")
    return board_buckets(tuple(board)[:5], abstraction)


_CARDS: dict[str, Any] = {}


def _cards(abstraction: str) -> Any:
    from checkraise.games.holdem_game import HoldemCards

    if abstraction not in _CARDS:
        _CARDS[abstraction] = HoldemCards(abstraction)
    return _CARDS[abstraction]


def num_buckets(abstraction: str = "default", cards: int = 5) -> int:
    """Number of buckets of the abstraction on the street of ``cards`` board cards
    (default the river)."""
    return int(_cards(abstraction).abstraction.buckets[cards - 2])


def compatible_mass(reach_o: FloatArray) -> FloatArray:
    """For every combo, the weight of ``reach_o`` (1,326 or ``(n, 1326)``) holding no card
    of it.

    Examples
    --------
    >>> r = np.zeros(1326); r[:3] = 1.0  # 2c2d, 2c2h, 2c2s
    >>> m = compatible_mass(r)
    >>> float(m[0]), float(m[5])  # 2c2d meets none of them; 2d2h meets two
    (0.0, 1.0)
    """
    r = np.asarray(reach_o, dtype=np.float64)
    flat = r.reshape(-1, NUM_COMBOS)
    per_card = flat @ _INCIDENCE  # (n, 52): the weight holding each card
    total = flat.sum(axis=1, keepdims=True)
    out = total - per_card[:, _CARD_A] - per_card[:, _CARD_B] + flat
    result: FloatArray = out.reshape(r.shape)
    return result


def bucket_features(
    buckets: npt.NDArray[np.int64], spr: float | FloatArray, ranges: FloatArray, num: int,
) -> tuple[FloatArray, FloatArray, npt.NDArray[np.bool_]]:
    """``(x, weights, filled)`` of situations: the network input, the correction weights
    ``W`` (``(n, 2 B)``) and the buckets the board fills (``(n, B)``).

    ``buckets`` is ``(n, 1326)`` (or one row for all), ``ranges`` ``(n, 2, 1326)``.
    """
    r, m, live, offsets = _bucketed(buckets, ranges, num)
    n = r.shape[0]
    x = np.zeros((n, 2 * num + 2))
    weights = np.zeros((n, 2 * num))
    for p in range(2):
        mass = np.bincount(offsets, weights=r[:, p].ravel(), minlength=n * num).reshape(n, num)
        x[:, p * num:(p + 1) * num] = mass / np.maximum(mass.sum(axis=1, keepdims=True), 1e-300)
        rm = np.bincount(offsets, weights=(r[:, p] * m[:, p]).ravel(),
                         minlength=n * num).reshape(n, num)
        weights[:, p * num:(p + 1) * num] = rm / np.maximum(rm.sum(axis=1, keepdims=True),
                                                             1e-300)
    s = np.broadcast_to(np.asarray(spr, dtype=np.float64), (n,))
    x[:, -2] = np.log(np.maximum(s, 1e-3)) / _SPR_SCALE
    x[:, -1] = 1.0 / (1.0 + s)
    filled = np.bincount(offsets[live.ravel()], minlength=n * num).reshape(n, num) > 0
    return x, weights, filled


def _bucketed(buckets: npt.NDArray[np.int64], ranges: FloatArray, num: int,
              ) -> tuple[FloatArray, FloatArray, npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
    """``(r, m, live, offsets)``: the ranges without the board's combos ``(n, 2, 1326)``,
    each player's compatible opponent weight per combo, which combos the board leaves
    ``(n, 1326)``, and each combo's row-and-bucket index into a flat ``(n * num)`` array
    (its bucket 0 where dead; dead combos weigh 0)."""
    r = np.asarray(ranges, dtype=np.float64)
    n = r.shape[0]
    b = np.broadcast_to(np.asarray(buckets, dtype=np.int64), (n, NUM_COMBOS))
    live = b >= 0
    r = np.where(live[:, None, :], r, 0.0)
    m = np.stack([compatible_mass(r[:, 1]), compatible_mass(r[:, 0])], axis=1)
    offsets = (np.arange(n)[:, None] * num + np.where(live, b, 0)).ravel()
    return r, m, live, offsets


def bucket_targets(buckets: npt.NDArray[np.int64], ranges: FloatArray, shares: FloatArray,
                   num: int) -> FloatArray:
    """Each player's share per bucket ``(n, 2 B)``: the mean over the bucket's combos
    weighted by ``r(h) m(h)`` (0 where the board fills no combo of it)."""
    r, m, live, offsets = _bucketed(buckets, ranges, num)
    n = r.shape[0]
    e = np.where(live[:, None, :], np.nan_to_num(np.asarray(shares, np.float64)), 0.0)
    out = np.zeros((n, 2 * num))
    for p in range(2):
        w = (r[:, p] * m[:, p]).ravel()
        top = np.bincount(offsets, weights=w * e[:, p].ravel(), minlength=n * num)
        bottom = np.bincount(offsets, weights=w, minlength=n * num)
        out[:, p * num:(p + 1) * num] = (top / np.where(bottom > 0, bottom, 1.0)).reshape(n, num)
    return out


def zero_sum_correct(raw: FloatArray, weights: FloatArray) -> FloatArray:
    """Raw shares ``(n, 2 B)`` shifted so that ``W_0 . e_0 + W_1 . e_1 = 1`` exactly.

    Examples
    --------
    >>> w = np.array([[0.5, 0.5, 1.0, 0.0]])
    >>> e = zero_sum_correct(np.array([[1.0, 0.0, 0.7, 0.3]]), w)
    >>> round(float((w * e).sum()), 12)
    1.0
    """
    err = (weights * raw).sum(axis=1, keepdims=True) - 1.0
    corrected: FloatArray = raw - err / 2.0
    return corrected


# ------------------------------------------------------------------------ training
@dataclass(frozen=True)
class RiverTrainResult:
    """Losses per epoch (Huber, shares of the pot), the held-out mean absolute error
    per bucket, and the wall time."""

    train_loss: tuple[float, ...]
    valid_loss: tuple[float, ...]
    valid_mae: float
    seconds: float
    train_size: int
    valid_size: int
    extra: dict[str, Any] = field(default_factory=dict)


def _network(inputs: int, hidden: Sequence[int], outputs: int) -> Any:
    torch = require_torch()

    class RiverNetwork(torch.nn.Module):  # type: ignore[misc, name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.mlp = prelu_mlp(inputs, hidden, outputs)

        def forward(self, x: Any, weights: Any) -> Any:
            raw = self.mlp(x)
            err = (weights * raw).sum(dim=1, keepdim=True) - 1.0
            return raw - err / 2.0

    return RiverNetwork()


def training_arrays(situations: dict[str, npt.NDArray[Any]], abstraction: str = "default",
                    block: int = 2000,
                    ) -> tuple[FloatArray, FloatArray, FloatArray, npt.NDArray[np.bool_]]:
    """``(x, weights, targets, filled)`` of raw situations (``river_data`` chunks; river
    or turn by the boards' length).

    Made ``block`` situations at a time: the float64 intermediates of a whole 200,000
    situation set (several per combo and situation) would not fit in memory.
    """
    cards = int(situations["boards"].shape[1])
    num = num_buckets(abstraction, cards)
    n = int(situations["spr"].shape[0])
    x = np.zeros((n, 2 * num + 2))
    w = np.zeros((n, 2 * num))
    y = np.zeros((n, 2 * num))
    filled = np.zeros((n, num), dtype=bool)
    for lo in range(0, n, block):
        part = slice(lo, min(n, lo + block))
        boards = situations["boards"][part].astype(np.int64)
        buckets = np.stack([board_buckets(b, abstraction) for b in boards])
        ranges = situations["ranges"][part].astype(np.float64)
        x[part], w[part], filled[part] = bucket_features(
            buckets, situations["spr"][part].astype(np.float64), ranges, num)
        y[part] = bucket_targets(buckets, ranges, situations["shares"][part], num)
    return x, w, y, filled


def train_river(
    situations: dict[str, npt.NDArray[Any]],
    settings: TrainSettings,
    out: str | Path,
    command: str = "",
    progress: Callable[[int, int, float, float], None] | None = None,
    data_info: dict[str, Any] | None = None,
    abstraction: str = "default",
) -> RiverTrainResult:
    """Train the river (turn, by the boards' length) network on raw situations and save
    it to ``out`` (the settings are the Leduc network's,
    :class:`checkraise.nn.values.TrainSettings`).

    ``progress(epoch, epochs, train_loss, valid_loss)`` is called after each epoch.
    """
    torch = require_torch()
    x_np, w_np, y_np, filled_np = training_arrays(situations, abstraction)
    valid, training, rng = settings.start(x_np.shape[0])
    valid_size = int(valid.size)
    cards = int(situations["boards"].shape[1])
    num = num_buckets(abstraction, cards)
    x = torch.from_numpy(x_np.astype(np.float32))
    w = torch.from_numpy(w_np.astype(np.float32))
    y = torch.from_numpy(y_np.astype(np.float32))
    mask = torch.from_numpy(np.tile(filled_np, 2).astype(np.float32))
    net = _network(x_np.shape[1], settings.hidden, 2 * num)
    huber = torch.nn.HuberLoss(delta=1.0, reduction="none")

    def loss_of(idx: Any) -> Any:
        err = huber(net(x[idx], w[idx]), y[idx]) * mask[idx]
        return err.sum() / mask[idx].sum().clamp_min(1.0)

    start = time.perf_counter()
    train_curve, valid_curve = fit_epochs(settings, net, training, valid, rng, loss_of, progress)
    vidx = torch.from_numpy(valid)
    with torch.no_grad():
        pred = net(x[vidx], w[vidx]).numpy()
    m = np.tile(filled_np[valid], 2)
    mae = float(np.abs(pred - y_np[valid])[m].mean())
    seconds = time.perf_counter() - start
    save_model(
        out, net.state_dict(),
        {"input": int(x_np.shape[1]), "hidden": list(settings.hidden), "output": 2 * num,
         "buckets": num, "abstraction": abstraction, "activation": "prelu", "zero_sum": True,
         "street": STREETS[cards]},
        kind=MODEL_KIND, command=command,
        extra={"training": {"epochs": settings.epochs, "batch_size": settings.batch_size,
                            "learning_rate": settings.learning_rate, "seed": settings.seed,
                            "train_size": int(training.size), "valid_size": valid_size,
                            "train_loss": train_curve[-1], "valid_loss": valid_curve[-1],
                            "valid_mae": mae, "seconds": seconds},
               "data": data_info or {}},
    )
    return RiverTrainResult(tuple(train_curve), tuple(valid_curve), mae, seconds,
                            int(training.size), valid_size)


# ------------------------------------------------------------------------ playing
def default_river_model(street: str = "river") -> Path:
    """The packaged river (``turn``: turn) value network
    (``checkraise/data/river_values.npz``, ``turn_values.npz``)."""
    from importlib.resources import files

    return Path(str(files("checkraise") / "data" / f"{street}_values.npz"))


class RiverValueFunction:
    """A saved river (or turn) network evaluated in numpy (float64), zero-sum corrected.

    Parameters
    ----------
    path : str or Path
        A file written by :func:`train_river` (kind ``"holdem-river-cfv"``); ``default``
        is the packaged river network, ``turn`` the packaged turn network.

    Attributes
    ----------
    street, cards : str, int
        ``"river"``, 5 or ``"turn"``, 4: where the network's situations start.
    """

    def __init__(self, path: str | Path = "default") -> None:
        p = (default_river_model() if str(path) == "default"
             else default_river_model("turn") if str(path) == "turn" else Path(path))
        if not p.is_file():
            raise ModelFileError(f"value network {str(p)!r} does not exist; expected a file "
                                 "written by 'checkraise nn river train'")
        header, arrays = load_model(p, MODEL_KIND)
        arch = header.get("architecture", {})
        hidden = arch.get("hidden") if isinstance(arch, dict) else None
        if not isinstance(hidden, list) or "buckets" not in arch:
            raise ModelFileError(f"{p}: architecture {arch!r}; expected a river value network")
        self.header = header
        self.path = p
        self.abstraction = str(arch.get("abstraction", "default"))
        self.street = str(arch.get("street", "river"))  # river networks came first
        if self.street not in STREET_CARDS:
            raise ModelFileError(f"{p}: street {self.street!r}; expected one of "
                                 f"{', '.join(STREET_CARDS)}")
        self.cards = STREET_CARDS[self.street]
        self.buckets = int(arch["buckets"])
        want = num_buckets(self.abstraction, self.cards)
        if self.buckets != want:
            raise ModelFileError(f"{p}: {self.buckets} buckets; the {self.abstraction!r} "
                                 f"abstraction has {want} {self.street} buckets")
        self.layers = read_layers(p, arch, arrays, len(hidden))

    def bucket_shares(self, x: FloatArray, weights: FloatArray) -> FloatArray:
        """Corrected shares per bucket ``(n, 2 B)`` of inputs ``x`` and weights ``W``."""
        return zero_sum_correct(run_layers(self.layers, x), weights)

    def shares(self, board: Sequence[int], spr: float, ranges: FloatArray) -> FloatArray:
        """Each player's share of the pot per combo ``(2, 1326)`` (0 where the board
        clashes): every combo gets its bucket's share."""
        if len(board) != self.cards:
            raise ConfigError(f"a {self.street} network takes {self.cards} board cards; "
                              f"got {len(board)}")
        buckets = board_buckets(board, self.abstraction)
        r = np.asarray(ranges, dtype=np.float64)[None]
        x, w, _ = bucket_features(buckets, spr, r, self.buckets)
        e = self.bucket_shares(x, w).reshape(2, self.buckets)
        out = np.where(buckets >= 0, e[:, np.maximum(buckets, 0)], 0.0)
        result: FloatArray = out
        return result


class BucketLeafValues:
    """``leaf_values`` of a depth-limited turn (or flop) subgame from shares of the pot
    per river (turn) bucket.

    At a leaf (the turn's betting over, both players in) each river card the board
    leaves is dealt (on a flop subgame: each turn card): both reaches lose the combos
    holding it, :meth:`bucket_shares` gives the traverser's share of the pot per
    bucket on that card, every combo takes its bucket's share, and a hand's value is
    the mean of its shares over the cards,
    weighted by the opponent weight compatible with the hand and the card (the
    solver's chance weighting, per pair of hands). The spot solver asks for all leaves
    at once (:meth:`batch`); the per-card work is in :mod:`checkraise.nn._leaf_kernels`.
    Subclasses say where the shares come from.
    """

    def __init__(self, board: Sequence[int],
                 bucket_of: Callable[[tuple[int, ...]], npt.NDArray[np.int64]],
                 buckets: int) -> None:
        if len(board) not in (3, 4):
            raise ConfigError(f"a depth-limited subgame's board has 3 or 4 cards (the flop "
                              f"or the turn); got {len(board)}")
        self.board = tuple(int(c) for c in board)
        self.num = buckets
        dealt = set(self.board)
        self.cards = np.array([c for c in range(52) if c not in dealt], dtype=np.int64)
        # (cards, 1326): each combo's river bucket on each card (-1 where it clashes)
        self.buckets = np.ascontiguousarray(
            np.stack([bucket_of((*self.board, int(c))) for c in self.cards]), dtype=np.int64)
        self._buckets_t = np.ascontiguousarray(self.buckets.T)
        self.calls = 0

    def bucket_shares(self, leaves: Sequence[Leaf], trav: int, reach: FloatArray,
                      ) -> FloatArray:
        """The traverser's share per bucket ``(n, cards, B)`` of each leaf on each river
        card, from both reaches at the leaves ``(n, 2, 1326)``."""
        raise NotImplementedError

    def __call__(self, leaf: Leaf, trav: int, reach: tuple[FloatArray, FloatArray],
                 ) -> FloatArray:
        one: FloatArray = self.batch([leaf], trav, [reach])[0]
        return one

    def batch(self, leaves: Sequence[Leaf], trav: int,
              reaches: Sequence[tuple[FloatArray, FloatArray]]) -> FloatArray:
        """Chips of the pot won per combo ``(len(leaves), 1326)`` for the traverser."""
        from checkraise.nn import _leaf_kernels as LK

        self.calls += 1
        n = len(leaves)
        r = np.ascontiguousarray([np.stack(pair) for pair in reaches], dtype=np.float64)
        shares = np.ascontiguousarray(self.bucket_shares(leaves, trav, r))
        out = np.empty((n, NUM_COMBOS))
        pots = np.array([leaf.pot for leaf in leaves], dtype=np.float64)
        LK.aggregate(shares, np.ascontiguousarray(r[:, 1 - trav]), self._buckets_t,
                     self.cards, _CARD_A, _CARD_B, _PAIR, pots, out)
        return out

    def masses(self, reach: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
        """Per bucket on each card, each ``(n, cards, B)``, from both reaches ``(n, 2,
        1326)``: player 0's weight, player 1's, and the sum of each of player 0's (then
        1's) hands' weight times the opponent's weight compatible with it and the card."""
        from checkraise.nn import _leaf_kernels as LK

        shape = (reach.shape[0], self.cards.size, self.num)
        out = (np.empty(shape), np.empty(shape), np.empty(shape), np.empty(shape))
        LK.leaf_masses(np.ascontiguousarray(reach), self._buckets_t, self.cards, _CARD_A,
                       _CARD_B, _PAIR, *out)
        return out

    def reach_per_bucket(self, reach: FloatArray) -> FloatArray:
        """``(n, cards, B)``: the weight of each row of ``reach`` ``(n, 1326)`` per bucket
        on each river card."""
        from checkraise.nn import _leaf_kernels as LK

        out = np.empty((reach.shape[0], self.cards.size, self.num))
        LK.bucket_reach(np.ascontiguousarray(reach), self.buckets, self.num, out)
        return out


class RiverLeafValues(BucketLeafValues):
    """:class:`BucketLeafValues` from the river network (a flop subgame's: the turn
    network): on each card its shares per bucket from both ranges and the stack behind
    over the leaf's pot, clipped to the data's range (an all-in leaf at the smallest).
    One network call per walk."""

    def __init__(self, function: RiverValueFunction, board: Sequence[int]) -> None:
        if len(board) + 1 != function.cards:
            raise ConfigError(f"a {function.street} network values the end of a "
                              f"{function.cards - 1}-card board's betting; got "
                              f"{len(board)} cards")
        super().__init__(board, lambda cards: board_buckets(cards, function.abstraction),
                         function.buckets)
        self.function = function

    def bucket_shares(self, leaves: Sequence[Leaf], trav: int, reach: FloatArray,
                      ) -> FloatArray:
        n, k, num = len(leaves), self.cards.size, self.num
        x = np.empty((n, k, 2 * num + 2))  # every column is written below
        w = np.empty((n, k, 2 * num))
        masses = self.masses(reach)
        for p in range(2):
            mass, rm = masses[p], masses[2 + p]
            np.divide(mass, np.maximum(mass.sum(axis=2, keepdims=True), 1e-300),
                      out=x[:, :, p * num:(p + 1) * num])
            np.divide(rm, np.maximum(rm.sum(axis=2, keepdims=True), 1e-300),
                      out=w[:, :, p * num:(p + 1) * num])
        # Within the data's stacks: an all-in leaf is as good as the smallest stack behind,
        # a deeper one than the data's deepest plays like it (the network never saw more).
        spr = np.clip([leaf.stack / leaf.pot for leaf in leaves], *SPR_RANGE)
        x[:, :, -2] = (np.log(np.maximum(spr, 1e-3)) / _SPR_SCALE)[:, None]
        x[:, :, -1] = (1.0 / (1.0 + spr))[:, None]
        out = self.function.bucket_shares(x.reshape(n * k, -1), w.reshape(n * k, -1))
        shares: FloatArray = out[:, trav * num:(trav + 1) * num].reshape(n, k, num)
        return shares
