"""The heads-up no-limit blueprint: Pluribus-style external-sampling MCCFR.

Brown & Sandholm (2019), "Superhuman AI for multiplayer poker" (Pluribus), and its
supplementary material: external-sampling Monte Carlo CFR (Lanctot et al. 2009) on
an abstract game, with

- **linear CFR** over the first part of training (Brown & Sandholm 2019, "Solving
  imperfect-information games via discounted regret minimization"): every
  ``discount_every`` iterations until ``discount_until``, regrets and strategy sums
  are multiplied by ``k / (k + 1)`` at the ``k``-th discount;
- **negative-regret pruning** from ``prune_from`` on, on ``prune_prob`` of the
  traversals: actions with regret below ``prune_below`` are not explored, except on
  the river and for actions that end the hand;
- **int32 regrets with a floor** (``floor``), so a pruned action can come back;
- the **average strategy kept for every street**. Pluribus sampled the preflop
  average and played later streets from the current strategy because its tables
  filled a 512 GB machine; our tables are small enough to keep the sums everywhere,
  and the average is what MCCFR's guarantee is about.

The trainer meets information sets as it samples deals: tables are preallocated
per (abstract betting node, bucket), the betting tree has a few thousand nodes and
no cards, so nothing is enumerated over deals. With ``threads > 1`` each worker runs
its share of a batch against the shared tables plus its own deltas, merged in worker
order: a run is the same for a given seed and number of workers.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise._npzfile import read_npz, write_npz
from checkraise.errors import ConfigError, FormatError
from checkraise.games.holdem import DECISION, HoldemRules, load_actions
from checkraise.games.holdem_game import HoldemCards, HoldemGame

__all__ = [
    "Blueprint",
    "BlueprintError",
    "BlueprintTrainer",
    "TrainSettings",
    "game_from_dict",
]

CHECKPOINT_FORMAT = "checkraise-blueprint-checkpoint"
BLUEPRINT_FORMAT = "checkraise-blueprint"
FORMAT_VERSION = 1
#: The steps a saved blueprint's probabilities may come in: 1/255 (``uint8``) or 1/65535.
STEPS = (255, 65535)

I64 = npt.NDArray[np.int64]
F32 = npt.NDArray[np.float32]


class BlueprintError(FormatError):
    """A blueprint or checkpoint file that is damaged, edited or of another game."""


@dataclass(frozen=True)
class TrainSettings:
    """How the trainer runs (see the module docstring); iterations count both positions."""

    batch: int = 2_000
    discount_every: int = 200_000
    discount_until: int = 8_000_000
    prune_from: int = 4_000_000
    prune_prob: float = 0.95
    prune_below: int = -3_000_000
    floor: int = -3_200_000

    def __post_init__(self) -> None:
        for name in ("batch", "discount_every"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ConfigError(f"{name}={v!r}; expected a whole number >= 1")
        for name in ("discount_until", "prune_from"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise ConfigError(f"{name}={v!r}; expected a whole number >= 0")
        p = self.prune_prob
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0.0 <= p <= 1.0:
            raise ConfigError(f"prune_prob={p!r}; expected a number in 0..1")
        for name in ("floor", "prune_below"):  # they bound int32 regrets in the kernel
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int):
                raise ConfigError(f"{name}={v!r}; expected a whole number of chips")
        if not -(2**31) < self.floor <= self.prune_below <= 0:
            raise ConfigError(
                f"floor={self.floor}, prune_below={self.prune_below}; expected "
                "-2**31 < floor <= prune_below <= 0"
            )


def game_from_dict(d: dict[str, Any]) -> HoldemGame:
    """The :class:`HoldemGame` of a file header's ``game`` entry."""
    try:
        cards = d["cards"]
        return HoldemGame(
            load_actions(d["actions"]),
            HoldemRules(**d["rules"]),
            HoldemCards(
                cards["abstraction"],
                tuple(cards["buckets"]),
                bool(cards["recall"]),
                int(cards["deals"]),
                int(cards["deal_seed"]),
            ),
        )
    except (KeyError, TypeError) as exc:
        raise BlueprintError(f"game description {d!r} lacks or mangles {exc}") from exc


@dataclass(frozen=True)
class Layout:
    """Where the row of each information set lives in the flat tables.

    Rows are grouped by (street, acting position, bucket): inside a group the
    decisions follow in tree order, so the rows one deal's traversal meets lie in a
    few contiguous regions instead of all over the table (the tables outgrow the
    caches and the walk is bound by memory). The row of bucket ``b`` at node ``n``
    starts at ``base[n] + b * stride[n]``; the ``dec_*`` arrays hold the same per
    decision (in ``tree.decision_nodes`` order) with its actions and bucket count.
    """

    base: I64
    stride: I64
    dec_base: I64
    dec_stride: I64
    dec_actions: I64
    dec_buckets: I64
    size: int

    def entries(self, d: int) -> I64:
        """The table indices of decision ``d``'s rows: ``[bucket, action]``."""
        na, nb = int(self.dec_actions[d]), int(self.dec_buckets[d])
        rows = self.dec_base[d] + np.arange(nb, dtype=np.int64)[:, None] * self.dec_stride[d]
        out: I64 = rows + np.arange(na)[None, :]
        return out

    def row_ends(self) -> tuple[I64, I64]:
        """``(first, last)``: the table index of every row's first and last action, rows
        in table order (rows are contiguous and tile the table)."""
        last = np.sort(np.concatenate(
            [self.entries(d)[:, -1] for d in range(self.dec_base.shape[0])]
        ))
        first = np.concatenate([[0], last[:-1] + 1]).astype(np.int64)
        return first, last

    def node_major(self) -> I64:
        """For the layout of format 1 (decision, bucket, action in order), the new index
        of each old entry: ``new[old]``."""
        return np.concatenate(
            [self.entries(d).ravel() for d in range(self.dec_base.shape[0])]
        ).astype(np.int64)


def make_layout(game: HoldemGame) -> Layout:
    """The :class:`Layout` of ``game``'s tables."""
    tree = game.tree
    dec = tree.decision_nodes
    street = tree.street[dec]
    player = tree.player[dec]
    actions = tree.num_children[dec].astype(np.int64)
    buckets = game.cards.table_sizes[street].astype(np.int64)
    group = street * 2 + player
    dec_base = np.zeros(dec.shape[0], dtype=np.int64)
    dec_stride = np.zeros(dec.shape[0], dtype=np.int64)
    start = 0
    for g in range(8):
        members = np.flatnonzero(group == g)
        if members.size == 0:
            continue
        local = np.concatenate([[0], np.cumsum(actions[members])[:-1]])
        width = int(actions[members].sum())
        dec_base[members] = start + local
        dec_stride[members] = width
        start += width * int(buckets[members[0]])
    base = np.full(tree.num_nodes, -1, dtype=np.int64)
    stride = np.zeros(tree.num_nodes, dtype=np.int64)
    base[dec] = dec_base
    stride[dec] = dec_stride
    return Layout(base, stride, dec_base, dec_stride, actions, buckets, start)


LAYOUT_VERSION = 2


def _to_layout(header: dict[str, Any], layout: Layout, arrays: list[npt.NDArray[Any]]) -> None:
    """Re-lay tables read from a file written with the node-major layout (format 1)."""
    if header.get("layout", 1) == LAYOUT_VERSION:
        return
    where = layout.node_major()
    for a in arrays:
        moved = np.empty_like(a)
        moved[where] = a
        a[:] = moved


def _write(path: Path, header: dict[str, Any], arrays: dict[str, npt.NDArray[Any]]) -> None:
    """Write ``path`` atomically: a killed job leaves the previous file whole."""
    write_npz(path, header, arrays)


def _read(path: str | Path, fmt: str) -> tuple[dict[str, Any], dict[str, npt.NDArray[Any]]]:
    return read_npz(path, fmt, FORMAT_VERSION, BlueprintError)


class BlueprintTrainer:
    """External-sampling MCCFR on a :class:`HoldemGame` (see the module docstring).

    Examples
    --------
    >>> from checkraise.games.holdem import HoldemRules
    >>> game = HoldemGame("tiny", HoldemRules(stack=400),
    ...                   HoldemCards(buckets=(2, 2, 2, 2), recall=True, deals=100))
    >>> t = BlueprintTrainer(game, seed=1)
    >>> t.iterate(500)
    >>> t.iteration, t.average_strategy().shape == (t.num_entries,)
    (500, True)
    """

    def __init__(
        self,
        game: HoldemGame,
        seed: int = 0,
        threads: int = 1,
        settings: TrainSettings | None = None,
    ) -> None:
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise ConfigError(f"threads={threads!r}; expected a whole number >= 1")
        self.game = game
        self.seed = int(seed)
        self.threads = threads
        self.settings = settings if settings is not None else TrainSettings()
        self.layout = make_layout(game)
        n = self.layout.size
        self.num_entries = n
        self._river_table = np.zeros(0, dtype=np.uint8)
        # regret and strategy sum of an entry side by side: the walk reads one cache line
        # per information set instead of two (both are 4 bytes)
        self._table = np.zeros((n, 2), dtype=np.int32)
        self.regrets = self._table[:, 0]
        self.sums = self._table.view(np.float32)[:, 1]
        w = threads if threads > 1 else 1
        m = n if threads > 1 else 0
        self._delta = np.zeros((w, m, 2), dtype=np.int32)
        # rows each worker wrote in a batch (base * 16 + actions), for a sparse merge
        self._log = np.zeros((w, (1 << 20) if threads > 1 else 0), dtype=np.int64)
        self._log_len = np.zeros(w, dtype=np.int64)
        self._dreg = self._delta[:, :, 0]
        self._dcum = self._delta.view(np.float32)[:, :, 1]
        self.iteration = 0
        self.nodes_met = 0
        self.seconds = 0.0
        self.weight = 0.0  # iterations the regrets hold, with linear CFR's discounts

    # -- sizes
    @property
    def num_infosets(self) -> int:
        return int(self.layout.dec_buckets.sum())

    @property
    def memory_bytes(self) -> int:
        return int(self.regrets.nbytes + self.sums.nbytes + self._dreg.nbytes + self._dcum.nbytes)

    def regret_proxy(self) -> float:
        """Exploitability proxy: the sum over information sets of the largest positive
        regret, divided by the (discounted) number of iterations, in chips per iteration.
        CFR's bound on exploitability has this form (Zinkevich et al. 2007); sampled, it
        is a trend line, not a guarantee."""
        from checkraise.solvers._mccfr_kernels import positive_regret_sum

        lay = self.layout
        total = positive_regret_sum(
            self.regrets, lay.dec_base, lay.dec_stride, lay.dec_actions, lay.dec_buckets
        )
        return float(total) / self.weight if self.weight > 0 else float("nan")

    def touched(self) -> int:
        """Information sets whose regrets or sums have moved from zero."""
        lay = self.layout
        moved = (self.regrets != 0) | (self.sums != 0)
        return sum(
            int(moved[lay.entries(d)].any(axis=1).sum()) for d in range(lay.dec_base.shape[0])
        )

    def use_river_table(self) -> None:
        """Read river buckets from a table of every river class (123 MB, built in about
        20 s) instead of ranking 990 hands per deal: for long runs on the full deck."""
        if not self.game.cards.deals:
            self._river_table = self.game.cards.river_table()

    # -- training
    def _chunk_end(self, end: int, step: int | None = None) -> int:
        """Where the chunk from ``self.iteration`` stops: ``end``, the next multiple of
        ``step`` (default: a batch per thread) or, while discounting, the next discount
        point, whichever comes first (the discount applies to whole chunks)."""
        s = self.settings
        if step is None:
            step = s.batch * self.threads
        stop = min(end, (self.iteration // step + 1) * step)
        if self.iteration < s.discount_until:
            stop = min(stop, (self.iteration // s.discount_every + 1) * s.discount_every)
        return stop

    def _end_chunk(self, stop: int, counted: float | None = None) -> None:
        """The bookkeeping after the iterations up to ``stop`` are in the tables: the
        count, the weight (``counted`` more, default ``stop - iteration``) and linear
        CFR's discount at a discount point."""
        s = self.settings
        self.weight += stop - self.iteration if counted is None else counted
        self.iteration = stop
        if self.iteration <= s.discount_until and self.iteration % s.discount_every == 0:
            k = self.iteration // s.discount_every
            d = k / (k + 1)
            self.regrets[:] = (self.regrets.astype(np.float64) * d).astype(np.int32)
            self.sums *= np.float32(d)
            self.weight *= d

    def iterate(
        self, iterations: int, progress: Callable[[BlueprintTrainer], None] | None = None
    ) -> None:
        """Run ``iterations`` more iterations (one traversal per position each)."""
        from checkraise.solvers._mccfr_kernels import merge, run_workers

        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 0:
            raise ConfigError(f"iterations={iterations!r}; expected a whole number >= 0")
        s = self.settings
        tree = self.game.tree
        tables = self.game.cards.kernel_tables()
        pool_deals = self.game.cards.deals
        if pool_deals:
            _, pool_b, pool_w = self.game.cards.pool
        else:
            pool_b = np.zeros((0, 2, 4), dtype=np.int64)
            pool_w = np.zeros(0, dtype=np.int64)
        end = self.iteration + iterations
        while self.iteration < end:
            stop = self._chunk_end(end)
            chunk = stop - self.iteration
            counts = np.full(self.threads, chunk // self.threads, dtype=np.int64)
            counts[: chunk % self.threads] += 1
            state = (
                np.random.SeedSequence([self.seed, self.iteration])
                .generate_state(self.threads, np.uint64)
                .astype(np.uint64)
            )
            t0 = time.perf_counter()
            self.nodes_met += run_workers(  # type: ignore[call-arg]
                counts,
                state,
                tree.kind,
                tree.player,
                tree.street,
                tree.committed,
                tree.first_child,
                tree.num_children,
                self.layout.base,
                self.layout.stride,
                self.regrets,
                self._dreg,
                self.sums,
                self._dcum,
                s.prune_from,
                s.prune_prob,
                s.prune_below,
                s.floor,
                *tables,
                self._river_table,
                pool_b,
                pool_w,
                self.iteration,
                self._log,
                self._log_len,
            )
            if self.threads > 1:
                merge(
                    self.regrets,
                    self._dreg,
                    self.sums,
                    self._dcum,
                    s.floor,
                    self._log,
                    self._log_len,
                )
            self._end_chunk(stop)
            self.seconds += time.perf_counter() - t0
            if progress is not None:
                progress(self)

    def average_strategy(self) -> F32:
        """The normalised average strategy, one row per information set (flat)."""
        from checkraise.solvers._mccfr_kernels import average_strategy

        lay = self.layout
        out = np.zeros(self.num_entries, dtype=np.float32)
        average_strategy(
            self.sums,
            self.regrets,
            lay.dec_base,
            lay.dec_stride,
            lay.dec_actions,
            lay.dec_buckets,
            out,
        )
        return out

    # -- files
    def header(self) -> dict[str, Any]:
        return {
            "game": dict(self.game.params),
            "settings": asdict(self.settings),
            "seed": self.seed,
            "threads": self.threads,
            "iteration": self.iteration,
            "nodes_met": self.nodes_met,
            "seconds": round(self.seconds, 3),
            "weight": self.weight,
            "entries": self.num_entries,
            "infosets": self.num_infosets,
            "layout": LAYOUT_VERSION,
        }

    def save(self, path: str | Path, command: str = "") -> Path:
        """Write a checkpoint (``.npz`` + JSON header, atomically) to resume from."""
        p = Path(path)
        header = dict(
            self.header(),
            format=CHECKPOINT_FORMAT,
            format_version=FORMAT_VERSION,
            command=command,
            saved=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        )
        _write(p, header, {"regrets": self.regrets, "sums": self.sums})
        return p

    @classmethod
    def load(cls, path: str | Path, threads: int | None = None) -> BlueprintTrainer:
        """Resume from a checkpoint; ``threads`` defaults to the checkpoint's."""
        header, arrays = _read(path, CHECKPOINT_FORMAT)
        try:
            game = game_from_dict(header["game"])
            settings = TrainSettings(**header["settings"])
            saved = {k: header[k] for k in ("seed", "threads", "iteration", "nodes_met")}
            if any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in saved.values()):
                raise BlueprintError(f"{saved}: expected whole numbers >= 0")
            seconds, weight = float(header["seconds"]), float(header["weight"])
        except (KeyError, TypeError, ValueError) as exc:  # ConfigError is a ValueError
            raise BlueprintError(f"{path}: the header does not describe a run: {exc}") from exc
        t = cls(
            game,
            seed=saved["seed"],
            threads=threads if threads is not None else max(1, saved["threads"]),
            settings=settings,
        )
        tables = (arrays.get("regrets"), arrays.get("sums"))
        if any(a is None or a.shape != (t.num_entries,) for a in tables):
            shapes = [None if a is None else a.shape for a in tables]
            raise BlueprintError(
                f"{path}: regrets and sums of shapes {shapes}; "
                f"the game needs {t.num_entries} entries each"
            )
        t.iteration = saved["iteration"]
        t.nodes_met = saved["nodes_met"]
        t.seconds = seconds
        t.weight = weight
        t.regrets[:] = arrays["regrets"]
        t.sums[:] = arrays["sums"]
        _to_layout(header, t.layout, [t.regrets, t.sums])
        return t

    def blueprint(self, command: str = "") -> Blueprint:
        """The average strategy as a :class:`Blueprint`."""
        return Blueprint(self.game, self.average_strategy(), dict(self.header(), command=command))


class Blueprint:
    """A trained strategy of abstract HUNL: ``strategy`` rows per (decision, bucket).

    Saved as ``.npz`` + JSON header with the probabilities in whole steps of each row:
    1/65535 (``uint16``, the default) or 1/255 (``uint8``, :data:`STEPS`), which keeps a
    shipped file small: with each row's last action left out (the steps the others
    leave), a large blueprint's file is about a third of the 1/65535 one.
    """

    def __init__(self, game: HoldemGame, strategy: F32, header: dict[str, Any]) -> None:
        self.game = game
        self.layout = make_layout(game)
        self.strategy = np.asarray(strategy, dtype=np.float32)
        self.header = header

    def _buckets_at(self, node: int) -> int:
        """The bucket count of decision ``node``'s street (a bad node is a ConfigError)."""
        tree = self.game.tree
        if not 0 <= node < tree.num_nodes:
            raise ConfigError(f"node {node}; expected 0..{tree.num_nodes - 1}")
        if tree.kind[node] != DECISION:
            raise ConfigError(f"node {node} ({tree.lines[node]!r}) is not a decision")
        return int(self.game.cards.table_sizes[tree.street[node]])

    def row(self, node: int, bucket: int) -> F32:
        """The action probabilities at betting node ``node`` for ``bucket``."""
        tree = self.game.tree
        # past the street's buckets lies another information set's row: refuse, not misread
        nb = self._buckets_at(node)
        if not 0 <= bucket < nb:
            raise ConfigError(f"bucket {bucket}; expected 0..{nb - 1} at node {node}")
        na = int(tree.num_children[node])
        base = int(self.layout.base[node]) + int(bucket) * int(self.layout.stride[node])
        row: F32 = self.strategy[base : base + na]
        return row

    def rows(self, node: int, buckets: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """The rows at ``node`` of many hands at once (``buckets``; -1 gives a zero row)."""
        nb = self._buckets_at(node)
        bad = buckets[(buckets < -1) | (buckets >= nb)]
        if bad.size:
            raise ConfigError(f"bucket {int(bad[0])}; expected -1..{nb - 1} at node {node}")
        na = int(self.game.tree.num_children[node])
        out = np.zeros((buckets.shape[0], na))
        live = buckets >= 0
        base = int(self.layout.base[node])
        stride = int(self.layout.stride[node])
        for k in range(na):
            out[live, k] = self.strategy[base + buckets[live] * stride + k]
        return out

    def save(self, path: str | Path, steps: int = 65535) -> Path:
        """Write the blueprint; each row in whole steps of ``1/steps`` (255 or 65535)."""
        if steps not in STEPS:
            raise ConfigError(f"steps={steps}; expected one of {', '.join(map(str, STEPS))}")
        p = Path(path)
        q = _quantise(self.strategy, self.layout, steps)
        # in 1/255 steps the last action of each row is left out (the steps the others
        # leave): the file is a third smaller
        implicit = steps == 255
        if implicit:
            keep = np.ones(q.shape[0], dtype=np.bool_)
            keep[self.layout.row_ends()[1]] = False
            q = q[keep]
        header = dict(
            self.header,
            steps=steps,
            implicit_last=implicit,
            layout=LAYOUT_VERSION,
            format=BLUEPRINT_FORMAT,
            format_version=FORMAT_VERSION,
            game=dict(self.game.params),
        )
        _write(p, header, {"strategy": q})
        return p

    @classmethod
    def load(cls, path: str | Path) -> Blueprint:
        from checkraise.solvers._mccfr_kernels import normalise_rows

        header, arrays = _read(path, BLUEPRINT_FORMAT)
        try:
            game = game_from_dict(header["game"])
        except (KeyError, TypeError, ValueError) as exc:  # ConfigError is a ValueError
            raise BlueprintError(f"{path}: the header does not describe a game: {exc}") from exc
        if "strategy" not in arrays:
            raise BlueprintError(f"{path}: no 'strategy' array; found {sorted(arrays)}")
        kind = arrays["strategy"].dtype
        if kind not in (np.uint8, np.uint16):
            raise BlueprintError(f"{path}: strategy is {kind}; expected uint8 or uint16 steps")
        stored = arrays["strategy"]
        if header.get("implicit_last"):
            stored = _with_last_actions(stored, make_layout(game), header, path)
        bp = cls(game, stored.astype(np.float32), header)
        lay = bp.layout
        if bp.strategy.shape[0] != lay.size:
            raise BlueprintError(
                f"{path}: strategy has {bp.strategy.shape[0]} entries; "
                f"the game in its header needs {lay.size}"
            )
        _to_layout(header, lay, [bp.strategy])
        normalise_rows(bp.strategy, lay.dec_base, lay.dec_stride, lay.dec_actions, lay.dec_buckets)
        return bp


def _with_last_actions(
    stored: npt.NDArray[np.unsignedinteger[Any]], layout: Layout, header: dict[str, Any],
    path: str | Path,
) -> npt.NDArray[np.int64]:
    """The whole table of a file saved without each row's last action (which is the
    steps the row's other actions leave)."""
    first, last = layout.row_ends()
    steps = header.get("steps")
    if header.get("layout") != LAYOUT_VERSION or steps not in STEPS:
        raise BlueprintError(f"{path}: rows without their last action need layout "
                             f"{LAYOUT_VERSION} and steps of {STEPS}")
    if stored.shape[0] != layout.size - last.shape[0]:
        raise BlueprintError(
            f"{path}: strategy has {stored.shape[0]} entries; the game in its header "
            f"needs {layout.size - last.shape[0]} without each row's last"
        )
    full = np.zeros(layout.size, dtype=np.int64)
    keep = np.ones(layout.size, dtype=np.bool_)
    keep[last] = False
    full[keep] = stored
    full[last] = steps - np.add.reduceat(full, first)
    if (full[last] < 0).any():
        raise BlueprintError(f"{path}: a row's steps add up to more than {steps}")
    return full


def _quantise(
    strategy: F32, layout: Layout, steps: int = 65535
) -> npt.NDArray[np.unsignedinteger[Any]]:
    """Rows in steps of 1/``steps`` that sum to exactly ``steps`` (largest remainders):
    each probability moves by less than one step, and a zero stays zero. Rounding each
    entry alone would leave rows off by up to half a step per action, and the rescaling
    on load would then move entries by more than a step."""
    x = np.asarray(strategy, dtype=np.float64)
    dtype = np.uint8 if steps <= 255 else np.uint16
    out: npt.NDArray[np.unsignedinteger[Any]] = np.zeros(x.shape[0], dtype=dtype)
    for na in np.unique(layout.dec_actions):
        ds = np.flatnonzero(layout.dec_actions == na)
        idx = np.concatenate([layout.entries(int(d)) for d in ds])
        rows = x[idx]
        total = rows.sum(axis=1, keepdims=True)
        rows = np.where(total > 0, rows / np.where(total > 0, total, 1.0), 1.0 / na) * steps
        low = np.floor(rows)
        missing = steps - low.sum(axis=1, keepdims=True)
        # rank of each entry's remainder within its row, largest first
        order = np.argsort(low - rows, axis=1, kind="stable")
        rank = np.empty_like(order)
        np.put_along_axis(rank, order, np.broadcast_to(np.arange(na), order.shape), axis=1)
        out[idx] = (low + (rank < missing)).astype(dtype)
    return out


def strategy_on_tree(game: HoldemGame, strategy: F32, tree: Any) -> npt.NDArray[np.float64]:
    """A flat strategy re-laid as rows of ``tree``'s information sets (a :class:`GameTree` of
    ``game``), for the exact best response and the tabular solvers' tools."""
    lay = make_layout(game)
    where = {line: n for n, line in enumerate(game.tree.lines) if game.tree.kind[n] == DECISION}
    probs = np.zeros(tree.legal.shape)
    for i, key in enumerate(tree.infoset_keys):
        _, bucket, line = key.split("|", 2)
        node = where[line]
        na = int(game.tree.num_children[node])
        base = int(lay.base[node]) + int(bucket) * int(lay.stride[node])
        probs[i, :na] = strategy[base : base + na]
    return probs
