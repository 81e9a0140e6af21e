"""Training data of the hold'em river (and turn) value networks: DeepStack's offline half.

A *situation* is the start of a river's betting: the five board cards, the stack
behind as a multiple of the pot, and each player's range over the 1,326 combos. A
*turn* situation (``street="turn"``) is the same at the start of the turn's betting,
four board cards; it is solved exactly, turn and river, with :data:`TURN_SIZES`, so
its shares count every river card to come (DeepStack's turn network was trained on
turn games solved to the end as well).
DeepStack (Moravcik et al. 2017, supplement "Deep counterfactual value networks")
draws ranges by a recursive random split of probability mass over the hands sorted
by strength on the board, so that ranges as skewed as real play makes them are
common; we draw them the same way (:func:`random_range`), each combo then floored at
a trace of weight so that every hand the board allows gets a value.

Each situation is solved by the spot solver (:mod:`checkraise.solvers.spot`) on exact
cards with the subgame sizes of :data:`RIVER_SIZES`, to ``accuracy`` % of the pot;
the target of each hand is its counterfactual best-response value against the other
player's average strategy (at an equilibrium, its equilibrium value), divided by the
opponent's weight compatible with the hand and by the pot: the *share of the pot* the
hand wins from the start of the river on, bets it wins and loses included (between
``-spr`` and ``1 + spr``). Equilibrium shares satisfy the zero-sum identity
``sum_h r0(h) m0(h) e0(h) + sum_o r1(o) m1(o) e1(o) = M`` (``m`` the compatible
opponent weight, ``M`` the weight of the compatible pairs): the pot goes to someone.
Best-response shares exceed it by twice the exploitability reached (at most 0.6 %
of ``M`` at the default 0.3 % of the pot, stored per situation as ``exploitability``),
as DeepStack's own targets (best responses of a re-solve) do.

Data are written in ``.npz`` chunks of raw situations (board, spr, both ranges and
both players' shares per combo, float32), each seeded by ``(seed, chunk index)``
alone and written under a temporary name then renamed, so a killed run resumes where
it stopped and gives the same files as an uninterrupted one; ``manifest.json`` holds
the settings a resumed run must match. :mod:`checkraise.nn.river_values` turns them
into the network's bucketed inputs and targets.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise.cards import COMBO_CARDS, NUM_COMBOS
from checkraise.errors import ConfigError, FormatError
from checkraise.nn._manifest import ChunkedSettings, check_manifest, read_manifest

__all__ = [
    "POT",
    "RIVER_SIZES",
    "STREET_CARDS",
    "TURN_SIZES",
    "RiverDataSettings",
    "generate",
    "load_situations",
    "random_range",
    "random_situation",
    "solve_river",
]

FloatArray = npt.NDArray[np.float64]

#: Bet sizes (% of the pot), raise sizes (% of the pot after calling) and the raise
#: cap of the river subgames the data are solved with (both players alike).
RIVER_SIZES: dict[str, Any] = {"bet": [33, 75, 150], "raise": [100], "allin": True,
                               "raise_cap": 2, "allin_threshold": 0.67}
#: Sizes of turn situations, turn and river alike (and of the turn and flop spots
#: that :func:`checkraise.nn.river_eval.evaluate_depth_limited` solves).
TURN_SIZES: dict[str, Any] = {"bet": [50, 100], "raise": [100], "allin": True,
                              "raise_cap": 1, "allin_threshold": 0.67}
#: Board cards at the start of each street a value network is trained for.
STREET_CARDS = {"turn": 4, "river": 5}
#: Chips in the pot of every solved situation (values are shares of it: scale-free).
POT = 1000
_BIG_BLIND = 10
#: Weight every combo the board allows keeps in a drawn range (a trace: it changes
#: no value measurably but gives every hand a counterfactual value).
RANGE_FLOOR = 1e-6
SPR_RANGE = (0.05, 30.0)
_KEYS = ("boards", "spr", "ranges", "shares")


def _live_combos(board: tuple[int, ...]) -> npt.NDArray[np.bool_]:
    mask = 0
    for c in board:
        mask |= 1 << c
    a = COMBO_CARDS[:, 0].astype(np.int64)
    b = COMBO_CARDS[:, 1].astype(np.int64)
    live: npt.NDArray[np.bool_] = (((mask >> a) & 1) == 0) & (((mask >> b) & 1) == 0)
    return live


def _strengths(board: tuple[int, ...]) -> npt.NDArray[np.int64]:
    from checkraise.evaluator import evaluate

    live = _live_combos(board)
    out = np.full(NUM_COMBOS, -1, dtype=np.int64)
    for i in np.flatnonzero(live):
        out[i] = int(evaluate([*board, int(COMBO_CARDS[i, 0]), int(COMBO_CARDS[i, 1])]))
    return out


def random_range(board: tuple[int, ...], rng: np.random.Generator,
                 strengths: npt.NDArray[np.int64] | None = None) -> FloatArray:
    """A random range over the combos ``board`` allows, by DeepStack's recursive split.

    The combos are sorted by strength on the board (then by index); the mass 1 is
    split at a uniform random fraction between the weaker and the stronger half, and
    each half recursively; then every allowed combo is floored at
    :data:`RANGE_FLOOR` and the range renormalised to sum to 1.

    Examples
    --------
    >>> from checkraise.cards import parse_cards
    >>> r = random_range(tuple(parse_cards("As Kd 7h 7c 2s")), np.random.default_rng(1))
    >>> int((r > 0).sum()), bool(abs(r.sum() - 1.0) < 1e-12)
    (1081, True)
    """
    s = _strengths(board) if strengths is None else strengths
    live = np.flatnonzero(s >= 0)
    order = live[np.lexsort((live, s[live]))]
    out = np.zeros(NUM_COMBOS)
    # iterative split over (start, stop, mass) of the sorted list
    stack = [(0, order.size, 1.0)]
    while stack:
        lo, hi, mass = stack.pop()
        if hi - lo == 1:
            out[order[lo]] = mass
            continue
        mid = (lo + hi) // 2
        share = float(rng.random())
        stack.append((mid, hi, mass * (1.0 - share)))
        stack.append((lo, mid, mass * share))
    out[live] += RANGE_FLOOR
    total: float = float(out.sum())
    return out / total


def random_situation(rng: np.random.Generator, cards: int = 5,
                     ) -> tuple[tuple[int, ...], float, FloatArray]:
    """``(board, spr, ranges[2, 1326])``: a random river (``cards=4``: turn) situation.

    The board is ``cards`` random cards; the stack behind over the pot, ``spr``, is
    log-uniform on :data:`SPR_RANGE`; both ranges come from :func:`random_range`.
    """
    board = tuple(int(c) for c in rng.choice(52, size=cards, replace=False))
    lo, hi = SPR_RANGE
    spr = float(np.exp(rng.uniform(np.log(lo), np.log(hi))))
    s = _strengths(board)
    ranges = np.stack([random_range(board, rng, s), random_range(board, rng, s)])
    return board, spr, ranges


def solve_river(board: tuple[int, ...], spr: float, ranges: FloatArray, accuracy: float,
                max_iterations: int) -> tuple[FloatArray, float, int]:
    """Each player's share of the pot per combo (``[2, 1326]``, NaN where the board
    clashes), the exploitability reached (% of the pot) and the iterations.

    The river (a four-card ``board``: the turn and the river) is solved from
    ``ranges`` (root reach) with :data:`RIVER_SIZES` (:data:`TURN_SIZES`), pot
    :data:`POT` and ``round(spr * POT)`` chips behind (at least 1), by discounted
    CFR to ``accuracy`` % of the pot or ``max_iterations``.
    """
    from checkraise.cards import format_cards
    from checkraise.solvers.spot import Spot, SpotSolver
    from checkraise.solvers.spot import _kernels as K

    config = TURN_SIZES if len(board) == 4 else RIVER_SIZES
    sizes = {k: config[k] for k in ("bet", "raise", "allin")}
    spot = Spot.from_dict({
        "board": format_cards(board), "pot": POT, "stack": max(1, round(spr * POT)),
        "big_blind": _BIG_BLIND, "ranges": {"oop": "any", "ip": "any"}, "sizes": sizes,
        "raise_cap": config["raise_cap"], "allin_threshold": config["allin_threshold"],
    })
    solver = SpotSolver(spot, reach=(ranges[0], ranges[1]), precision="float64")
    expl = solver.solve(accuracy=accuracy, max_iterations=max_iterations)
    values = solver.root_values(K.MODE_BEST_RESPONSE)
    shares = np.full((2, NUM_COMBOS), np.nan)
    for p in range(2):
        mass = solver.root_mass(p)
        with np.errstate(invalid="ignore", divide="ignore"):
            shares[p, solver.combos[p]] = np.where(mass > 0, values[p] / (mass * POT), 0.0)
    return shares, float(expl), int(solver.iteration)


@dataclass(frozen=True)
class RiverDataSettings(ChunkedSettings):
    """What a river (or turn) data folder holds; a resumed run must ask for the same.

    Parameters
    ----------
    situations : int
        Situations in all.
    seed : int
        Seed of the situations (chunk ``k`` uses ``(seed, k)``).
    accuracy : float
        Exploitability each solve stops at, % of the pot.
    max_iterations : int
        Iterations a solve stops at if the accuracy is not reached.
    chunk_size : int
        Situations per chunk file.
    street : str
        ``river`` (five board cards) or ``turn`` (four, solved turn and river).
    """

    situations: int
    seed: int
    accuracy: float = 0.3
    max_iterations: int = 400
    chunk_size: int = 100
    street: str = "river"

    def __post_init__(self) -> None:
        self.check_counts("situations", "max_iterations", "chunk_size")
        if not (isinstance(self.accuracy, (int, float)) and self.accuracy > 0):
            raise ConfigError(f"accuracy={self.accuracy!r}; expected a % of the pot > 0")
        if self.street not in STREET_CARDS:
            raise ConfigError(f"street={self.street!r}; expected one of "
                              f"{', '.join(STREET_CARDS)}")

    @property
    def cards(self) -> int:
        """Board cards of each situation."""
        return STREET_CARDS[self.street]

    def manifest(self) -> dict[str, Any]:
        """The settings as the folder's manifest: river folders omit ``street`` (those
        written before turn data existed have none, and must still resume)."""
        out = asdict(self)
        if self.street == "river":
            del out["street"]
        return out


@dataclass(frozen=True)
class _ChunkItem:
    settings: RiverDataSettings
    index: int

    @property
    def seed(self) -> int:
        return self.settings.seed * 1_000_003 + self.index


def make_chunk(settings: RiverDataSettings, index: int,
               progress: Callable[[int], None] | None = None) -> dict[str, npt.NDArray[Any]]:
    """The arrays of chunk ``index`` (depends on ``(settings.seed, index)`` alone)."""
    rng = np.random.default_rng([settings.seed, index])
    n = settings.chunk_length(index)
    boards = np.zeros((n, settings.cards), np.int8)
    spr = np.zeros(n, np.float32)
    ranges = np.zeros((n, 2, NUM_COMBOS), np.float32)
    shares = np.zeros((n, 2, NUM_COMBOS), np.float32)
    expl = np.zeros(n, np.float32)
    for i in range(n):
        board, s, r = random_situation(rng, settings.cards)
        v, e, _ = solve_river(board, s, r, settings.accuracy, settings.max_iterations)
        boards[i], spr[i], ranges[i], shares[i], expl[i] = board, s, r, v, e
        if progress is not None:
            progress(1)
    return {"boards": boards, "spr": spr, "ranges": ranges, "shares": shares,
            "exploitability": expl}


def _chunk_work(item: _ChunkItem, progress: Callable[[int], None]) -> dict[str, Any]:
    return make_chunk(item.settings, item.index, progress)


def chunk_path(folder: Path, index: int, street: str = "river") -> Path:
    """The file of chunk ``index`` (``river_00000.npz``, ``turn_00000.npz``, ...)."""
    return folder / f"{street}_{index:05d}.npz"


def generate(
    folder: str | Path,
    settings: RiverDataSettings,
    workers: int | None = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Write the missing chunks of ``settings`` to ``folder``; the situations written.

    Chunks run as seeded work items on the execution backend (each one's file is
    written by this process, under a temporary name then renamed), so the files do not
    depend on the backend or the number of workers; ``progress(n)`` gets solved
    situations as they finish.
    """
    from checkraise.backend import make_backend

    out = Path(folder)
    if out.exists() and not out.is_dir():
        raise ConfigError(f"{out} is a file; expected a folder for the {settings.street} data")

    def path_of(folder: Path, index: int) -> Path:
        return chunk_path(folder, index, settings.street)

    check_manifest(out, settings.manifest(), path_of, f"{settings.street} data")
    todo = [_ChunkItem(settings, i) for i in range(settings.chunks)
            if not path_of(out, i).exists()]
    written = [0]

    def save(k: int, arrays: dict[str, Any]) -> None:
        path = path_of(out, todo[k].index)
        tmp = path.with_name(path.name + ".tmp")
        with open(tmp, "wb") as fh:
            np.savez(fh, **arrays)
        tmp.replace(path)
        written[0] += int(arrays["spr"].shape[0])

    with make_backend(backend, workers=workers, address=address) as runner:
        runner.run(_chunk_work, todo, save, progress)
    return written[0]


def load_situations(folder: str | Path) -> tuple[dict[str, npt.NDArray[Any]], RiverDataSettings]:
    """Every chunk of a river (or turn) data folder, concatenated, and its settings."""
    out, settings = read_manifest(folder, RiverDataSettings, "checkraise nn river generate",
                                  "river data")
    parts: dict[str, list[npt.NDArray[Any]]] = {k: [] for k in (*_KEYS, "exploitability")}
    for index in range(settings.chunks):
        chunk = chunk_path(out, index, settings.street)
        if not chunk.exists():
            continue
        try:
            with np.load(chunk, allow_pickle=False) as z:
                arrays = {k: z[k] for k in parts}
        except Exception as exc:  # zip, format and key errors alike
            raise FormatError(f"{chunk}: not a {settings.street} data chunk ({exc})") from exc
        n, cards = arrays["spr"].shape[0], settings.cards
        if arrays["ranges"].shape != (n, 2, NUM_COMBOS) or arrays["boards"].shape != (n, cards):
            raise FormatError(f"{chunk}: arrays of shapes {arrays['boards'].shape}, "
                              f"{arrays['ranges'].shape}; expected (n, {cards}), (n, 2, 1326)")
        for k, v in arrays.items():
            parts[k].append(v)
    if not parts["spr"]:
        raise FormatError(f"{out} holds no {settings.street} chunks yet; run generate first")
    return {k: np.concatenate(v) for k, v in parts.items()}, settings
