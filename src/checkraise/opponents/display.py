"""Pictures of a predicted hand distribution: the top combos and the 13×13 class grid.

The grid is the usual range chart: row and column are the ranks A..2, pairs on the
diagonal, suited hands above it and offsuit below. A cell holds the probability mass of
its class (6 combos for a pair, 4 suited, 12 offsuit); :func:`grid_text` draws each
cell's mass *per combo*, relative to the densest cell, with a ten-step ramp
(`` .:-=+*#%@``), so that a class is dark when its combos are likely one by one.

Examples
--------
>>> import numpy as np
>>> from checkraise.cards import class_combos
>>> w = np.zeros(1326); w[class_combos("AA")] = 1.0; w /= w.sum()
>>> grid = class_grid(w)
>>> round(float(grid[0, 0]), 9), round(float(grid.sum()), 9)
(1.0, 1.0)
>>> top_combos(w, 2)[0][1]
0.16666666666666666
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from checkraise.cards import COMBO_CARDS, RANKS, card_rank, card_suit, format_card

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "COLORBAR_LABEL",
    "RAMP",
    "class_grid",
    "combo_text",
    "grid_figure",
    "grid_text",
    "save_grid_png",
    "top_combos",
]

FloatArray = npt.NDArray[np.float64]
RAMP = " .:-=+*#%@"


def combo_text(index: int) -> str:
    """A combo as text, higher card first (``"AsKd"``).

    Examples
    --------
    >>> combo_text(1325)
    'AsAh'
    """
    a, b = (int(c) for c in COMBO_CARDS[index])
    return format_card(max(a, b)) + format_card(min(a, b))


def top_combos(dist: FloatArray, n: int = 20) -> list[tuple[str, float]]:
    """The ``n`` most probable combos and their probabilities (ties by combo index)."""
    order = np.lexsort((np.arange(len(dist)), -dist))[:n]
    return [(combo_text(int(i)), float(dist[i])) for i in order if dist[i] > 0]


def _cell(index: int) -> tuple[int, int]:
    a, b = (int(c) for c in COMBO_CARDS[index])
    ra, rb = 12 - card_rank(a), 12 - card_rank(b)  # row 0 = aces
    hi, lo = min(ra, rb), max(ra, rb)
    if card_suit(a) == card_suit(b):
        return hi, lo  # suited: above the diagonal
    return lo, hi  # offsuit (and pairs on the diagonal)


_CELLS = np.array([_cell(i) for i in range(len(COMBO_CARDS))], dtype=np.int64)
_CELL_SIZE = np.zeros((13, 13))
np.add.at(_CELL_SIZE, (_CELLS[:, 0], _CELLS[:, 1]), 1.0)


def class_grid(dist: FloatArray) -> FloatArray:
    """Probability mass of each of the 169 classes as a 13×13 array (row 0 = aces)."""
    grid = np.zeros((13, 13))
    np.add.at(grid, (_CELLS[:, 0], _CELLS[:, 1]), np.asarray(dist, dtype=np.float64))
    return grid


def grid_text(dist: FloatArray) -> str:
    """The grid picture: a header of ranks, then one line per rank with a ramp character per cell.

    Examples
    --------
    >>> print(grid_text(np.full(1326, 1 / 1326)).splitlines()[1])
    A @@@@@@@@@@@@@
    """
    density = class_grid(dist) / _CELL_SIZE
    top = float(density.max())
    scaled = density / top if top > 0 else density
    order = RANKS[::-1]
    lines = ["  " + order]
    for r in range(13):
        row = "".join(RAMP[min(int(x * (len(RAMP) - 1) + 0.5), len(RAMP) - 1)]
                      for x in scaled[r])
        lines.append(f"{order[r]} {row}")
    return "\n".join(lines)


COLORBAR_LABEL = "probability of each combo in the class (%)"


def grid_figure(dist: FloatArray, title: str) -> Figure:
    """The 13×13 range chart of ``dist`` as a matplotlib figure, with its colour bar.

    Cells are shaded by probability per combo, as in :func:`grid_text`, on the
    scale of the colour bar beside the grid (percent, from 0 to the densest cell),
    and labelled with the class name and its share of the whole distribution in
    percent.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    mass = class_grid(dist)
    density = 100 * mass / _CELL_SIZE
    order = RANKS[::-1]
    fig, ax = plt.subplots(figsize=(8.5, 7.5))
    top = float(density.max())
    image = ax.imshow(density, cmap="Blues", vmin=0.0, vmax=max(top, 1e-12))
    for r in range(13):
        for c in range(13):
            name = order[min(r, c)] + order[max(r, c)] + ("" if r == c else "s" if c > r else "o")
            dark = top > 0 and density[r, c] > 0.6 * top
            ax.text(c, r, f"{name}\n{100 * mass[r, c]:.1f}", ha="center", va="center",
                    fontsize=6.5, color="white" if dark else "black")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_xlabel("in each cell: the class and its share of the range (%)")
    ax.set_title(title)
    fig.colorbar(image, ax=ax, fraction=0.046, pad=0.03, label=COLORBAR_LABEL)
    fig.tight_layout()
    return fig


def save_grid_png(dist: FloatArray, path: Path, title: str) -> Path:
    """Draw :func:`grid_figure` of ``dist`` into a PNG at ``path``; return the path."""
    import matplotlib.pyplot as plt

    fig = grid_figure(dist, title)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
