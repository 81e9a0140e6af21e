"""Training data of the Leduc counterfactual value network (DeepStack's offline half).

A *situation* is a public state at the start of Leduc's second round (the board
card and the pot, which the first round's line fixes: 2, 6 or 10 chips) with a
range for each player over the six private cards. DeepStack (Moravcik et al. 2017,
supplement "Deep counterfactual value networks") draws the ranges by a recursive
random split of probability mass over the hands sorted by strength on the board,
so that ranges as skewed as real play makes them are common; the pot is drawn
uniformly from the pots the first round can leave.

Each situation is solved with the vectorised CFR+ solver on the round-2 public
tree, both root reaches set to the ranges, and the target is each player's
counterfactual best-response value of every card against the other's average
strategy (at an exact equilibrium these are the equilibrium values wherever a
card has weight; where it has none, what the card could win, which is what a
re-solving trunk must see to keep it out or bring it in). Values are pot-normalised:
``v_p[h] = cfv_p[h] * 120 / pot`` with the ranges summing to 1, 120 being the
chance weight of a second-round deal (6 * 5 * 4).

Data is written in ``.npz`` chunks of ``chunk_size`` situations, each seeded by
``(seed, chunk index)`` alone and written to a temporary name then renamed, so a
killed run resumes where it stopped and gives the same files as an uninterrupted
one; ``manifest.json`` records the settings a resumed run must match.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from checkraise.errors import ConfigError, FormatError
from checkraise.games.leduc import LeducPoker, LeducState
from checkraise.games.public_tree import PublicTree
from checkraise.nn._manifest import ChunkedSettings, check_manifest, read_manifest
from checkraise.solvers.vectorised import VectorisedCFRSolver

__all__ = [
    "INPUT_SIZE",
    "LINES",
    "NUM_CARDS",
    "OUTPUT_SIZE",
    "POTS",
    "DataSettings",
    "encode",
    "generate",
    "load_data",
    "random_range",
    "round_two_tree",
    "solve_situation",
]

FloatArray = npt.NDArray[np.float64]

NUM_CARDS = 6
#: The pot at the start of round 2 -> a first-round line that leaves it.
LINES: dict[int, tuple[int, ...]] = {2: (1, 1), 6: (2, 1), 10: (2, 2, 1)}
POTS: tuple[int, ...] = tuple(LINES)
_MAX_POT = 10.0
#: Chance weight of one deal of two private cards and a board (6 * 5 * 4).
DEAL_WEIGHT = 120.0
#: board one-hot, pot / 10, both ranges.
INPUT_SIZE = NUM_CARDS + 1 + 2 * NUM_CARDS
OUTPUT_SIZE = 2 * NUM_CARDS


def _strength(card: int, board: int) -> int:
    rank = card // 2
    return rank + 3 if rank == board // 2 else rank


@cache
def round_two_tree(board: int, pot: int) -> PublicTree:
    """The public tree of Leduc's second round on ``board`` after a first round
    that leaves ``pot`` chips in the middle (2, 6 or 10), in real Leduc's units."""
    if pot not in LINES:
        raise ConfigError(f"pot {pot!r}; expected one of {POTS}")
    if not 0 <= board < NUM_CARDS:
        raise ConfigError(f"board {board!r}; expected a card 0..{NUM_CARDS - 1}")
    cards = [c for c in range(NUM_CARDS) if c != board][:2]
    root = LeducState((cards[0], cards[1]), board, (LINES[pot], ()))
    return LeducPoker().public_tree(root)


def random_range(board: int, rng: np.random.Generator) -> FloatArray:
    """A random range over the cards ``board`` leaves, by DeepStack's recursive split.

    The possible cards are sorted by strength on the board (then by index); the
    mass 1 is split at a uniform random fraction between the weaker and the
    stronger half, and each half recursively.

    Examples
    --------
    >>> r = random_range(0, np.random.default_rng(1))
    >>> float(r[0]), bool(abs(r.sum() - 1.0) < 1e-12)
    (0.0, True)
    """
    cards = sorted((c for c in range(NUM_CARDS) if c != board),
                   key=lambda c: (_strength(c, board), c))
    result = np.zeros(NUM_CARDS)

    def split(items: list[int], mass: float) -> None:
        if len(items) == 1:
            result[items[0]] = mass
            return
        half = len(items) // 2
        share = float(rng.random())
        split(items[:half], mass * share)
        split(items[half:], mass * (1.0 - share))

    split(cards, 1.0)
    return result


def encode(board: int, pot: float, ranges: FloatArray) -> FloatArray:
    """The network input of one situation: board one-hot, pot / 10, both ranges."""
    x = np.zeros(INPUT_SIZE)
    x[board] = 1.0
    x[NUM_CARDS] = pot / _MAX_POT
    x[NUM_CARDS + 1 :] = np.asarray(ranges, dtype=np.float64).reshape(-1)
    return x


def solve_situation(board: int, pot: int, ranges: FloatArray, iterations: int) -> FloatArray:
    """Both players' pot-normalised counterfactual values (2, 6) of a situation.

    ``ranges`` (2, 6), each summing to 1 over the cards the board leaves, are the
    root reaches of a CFR+ solve of ``iterations`` iterations; each value is the
    card's counterfactual best response to the other player's average strategy,
    times 120 / pot.
    """
    tree = round_two_tree(board, pot)
    solver = VectorisedCFRSolver(tree, "cfr+", root_reach=np.asarray(ranges, dtype=np.float64))
    solver.iterate(iterations)
    values = np.stack([solver.node_best_response(p)[0] for p in range(2)])
    scaled: FloatArray = values * (DEAL_WEIGHT / pot)
    return scaled


@dataclass(frozen=True)
class DataSettings(ChunkedSettings):
    """What a data folder holds; a resumed run must ask for the same.

    Parameters
    ----------
    situations : int
        Situations in all.
    iterations : int
        CFR+ iterations per situation.
    seed : int
        Seed of the situations (chunk ``k`` uses ``(seed, k)``).
    chunk_size : int
        Situations per chunk file.
    """

    situations: int
    iterations: int
    seed: int
    chunk_size: int = 1000

    def __post_init__(self) -> None:
        self.check_counts("situations", "iterations", "chunk_size")


def chunk_path(folder: Path, index: int) -> Path:
    """The file of chunk ``index``."""
    return folder / f"chunk_{index:05d}.npz"


def _make_chunk(settings: DataSettings, index: int) -> dict[str, npt.NDArray[np.float64]]:
    rng = np.random.default_rng([settings.seed, index])
    n = settings.chunk_length(index)
    inputs = np.zeros((n, INPUT_SIZE))
    targets = np.zeros((n, OUTPUT_SIZE))
    for i in range(n):
        board = int(rng.integers(NUM_CARDS))
        pot = POTS[int(rng.integers(len(POTS)))]
        ranges = np.stack([random_range(board, rng), random_range(board, rng)])
        inputs[i] = encode(board, pot, ranges)
        targets[i] = solve_situation(board, pot, ranges, settings.iterations).reshape(-1)
    return {"inputs": inputs, "targets": targets}


def generate(
    folder: str | Path,
    settings: DataSettings,
    progress: Callable[[int, int], None] | None = None,
    stop_after: int | None = None,
) -> list[Path]:
    """Write the chunks of ``settings`` to ``folder``, skipping those already there.

    ``progress(done, total)`` is called after each chunk (situations); ``stop_after``
    chunks written in this call ends it early (tests use it as a kill). Returns the
    chunk files present afterwards.
    """
    out = Path(folder)
    if out.exists() and not out.is_dir():
        raise ConfigError(f"{out} is a file; expected a folder for the data chunks")
    check_manifest(out, asdict(settings), chunk_path, "data")
    written = 0
    done = 0
    for index in range(settings.chunks):
        path = chunk_path(out, index)
        if not path.exists():
            if stop_after is not None and written >= stop_after:
                break
            arrays = _make_chunk(settings, index)
            tmp = path.with_name(path.name + ".tmp")
            with open(tmp, "wb") as fh:
                np.savez(fh, inputs=arrays["inputs"], targets=arrays["targets"])
            tmp.replace(path)
            written += 1
        done += settings.chunk_length(index)
        if progress is not None:
            progress(done, settings.situations)
    return sorted(out.glob("chunk_*.npz"))


def load_data(folder: str | Path) -> tuple[FloatArray, FloatArray, DataSettings]:
    """``(inputs, targets, settings)`` of every chunk of a data folder."""
    out, settings = read_manifest(folder, DataSettings, "checkraise nn values generate", "data")
    inputs: list[FloatArray] = []
    targets: list[FloatArray] = []
    for index in range(settings.chunks):
        chunk = chunk_path(out, index)
        if not chunk.exists():
            continue
        try:
            with np.load(chunk, allow_pickle=False) as z:
                x, y = z["inputs"], z["targets"]
        except Exception as exc:  # zip, format and key errors alike
            raise FormatError(f"{chunk}: not a data chunk ({exc})") from exc
        if x.ndim != 2 or x.shape[1] != INPUT_SIZE or y.shape != (x.shape[0], OUTPUT_SIZE):
            raise FormatError(f"{chunk}: arrays of shapes {x.shape}, {y.shape}; expected "
                              f"(n, {INPUT_SIZE}) and (n, {OUTPUT_SIZE})")
        inputs.append(x)
        targets.append(y)
    if not inputs:
        raise FormatError(f"{out} holds no data chunks yet; run generate first")
    return np.concatenate(inputs), np.concatenate(targets), settings
