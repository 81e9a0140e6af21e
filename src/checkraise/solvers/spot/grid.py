"""The strategy at a node as the 13×13 range grid players know from the commercial solvers.

Rows and columns are the ranks A..2: pairs on the diagonal, suited hands above it,
offsuit below. A class's strategy is the mean of its combos' strategies weighted by
the actor's reach at the node (his starting weight times the chance that his own
strategy takes the line), and so are its EV and equity; a class none of whose
combos reaches the node is left empty.

:func:`class_table` aggregates a :class:`~checkraise.solvers.spot.solver.NodeReport`
per class, :func:`grid_text` prints one 13×13 grid of percentages per action, and
:func:`save_strategy_png` draws the coloured chart: each cell split into bars, one
per action, as wide as the action's frequency and as tall as the share of the
class's combos that reach the node (matplotlib, Agg backend).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

import numpy as np
import numpy.typing as npt

from checkraise.cards import CLASS_NAMES, COMBO_CLASS, RANKS, format_card

if TYPE_CHECKING:
    from checkraise.solvers.spot.solver import NodeReport

__all__ = [
    "ClassRow",
    "ClassTable",
    "action_colours",
    "action_name",
    "board_text",
    "cell_of_class",
    "class_table",
    "grid_text",
    "save_strategy_png",
]

FloatArray = npt.NDArray[np.float64]
_ORDER = RANKS[::-1]  # row and column 0 = aces


def cell_of_class(name: str) -> tuple[int, int]:
    """Row and column of a class in the grid: suited above the diagonal, offsuit below.

    Examples
    --------
    >>> cell_of_class("AA"), cell_of_class("AKs"), cell_of_class("AKo"), cell_of_class("32o")
    ((0, 0), (0, 1), (1, 0), (12, 11))
    """
    hi, lo = _ORDER.index(name[0]), _ORDER.index(name[1])
    return (lo, hi) if name.endswith("o") else (hi, lo)


def _class_of_cell(row: int, col: int) -> str:
    if row == col:
        return _ORDER[row] * 2
    hi, lo = min(row, col), max(row, col)
    return _ORDER[hi] + _ORDER[lo] + ("s" if col > row else "o")


ClassRow = TypedDict(
    "ClassRow",
    {"class": str, "combos": float, "strategy": dict[str, float], "ev": float | None,
     "equity": float | None},
)
"""One hand class at a node: its reach (in combos), strategy, EV and equity."""


@dataclass(frozen=True)
class ClassTable:
    """A node's strategy, EV and equity per hand class.

    Attributes
    ----------
    labels : tuple of str
        The actions.
    names : tuple of str
        The 169 class names in :data:`checkraise.cards.CLASS_NAMES` order.
    reach : float array (169,)
        Summed reach of the class's combos at the node.
    share : float array (169,)
        ``reach`` divided by the class's number of combos (6, 4 or 12): how full
        the cell is drawn.
    strategy : float array (169, actions)
        Reach-weighted mean strategy; NaN where ``reach`` is 0.
    ev, equity : float arrays (169,)
        Reach-weighted means over the combos that have a value; NaN where none.
    """

    labels: tuple[str, ...]
    names: tuple[str, ...]
    reach: FloatArray
    share: FloatArray
    strategy: FloatArray
    ev: FloatArray
    equity: FloatArray

    def grid(self, values: FloatArray) -> FloatArray:
        """A per-class array (169,) laid out as the 13×13 grid."""
        out = np.full((13, 13), np.nan)
        for k, name in enumerate(self.names):
            out[cell_of_class(name)] = values[k]
        return out

    def rows(self) -> list[ClassRow]:
        """One row per class that reaches the node, in grid order (AA, AKs, ... 22)."""
        out: list[ClassRow] = []
        for row in range(13):
            for col in range(13):
                k = self.names.index(_class_of_cell(row, col))
                if self.reach[k] <= 0:
                    continue
                out.append({
                    "class": self.names[k],
                    "combos": float(self.reach[k]),
                    "strategy": {a: float(self.strategy[k, j]) for j, a in enumerate(self.labels)},
                    "ev": _finite(self.ev[k]),
                    "equity": _finite(self.equity[k]),
                })
        return out


def _finite(x: float) -> float | None:
    return float(x) if np.isfinite(x) else None


def _weighted(values: FloatArray, weight: FloatArray, classes: npt.NDArray[np.int64]
              ) -> FloatArray:
    ok = np.isfinite(values) & (weight > 0)
    num = np.bincount(classes[ok], (weight * np.where(ok, values, 0.0))[ok], minlength=169)
    den = np.bincount(classes[ok], weight[ok], minlength=169)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


def class_table(report: NodeReport) -> ClassTable:
    """Aggregate a node report per hand class (weights: the actor's reach at the node)."""
    classes = np.asarray(COMBO_CLASS[report.combos], np.int64)
    weight = np.asarray(report.reach, np.float64)
    reach = np.bincount(classes, weight, minlength=169).astype(np.float64)
    size = np.bincount(np.asarray(COMBO_CLASS, np.int64), minlength=169).astype(np.float64)
    strategy = np.stack([_weighted(report.strategy[:, j], weight, classes)
                         for j in range(len(report.labels))], axis=1)
    return ClassTable(
        labels=tuple(report.labels),
        names=tuple(CLASS_NAMES),
        reach=reach,
        share=np.minimum(reach / size, 1.0),
        strategy=strategy.reshape(169, len(report.labels)),
        ev=_weighted(report.ev, weight, classes),
        equity=_weighted(report.equity, weight, classes),
    )


def action_name(label: str) -> str:
    """Words for an action label.

    Examples
    --------
    >>> [action_name(a) for a in ("x", "c", "f", "b25", "r100")]
    ['check', 'call', 'fold', 'bet 25', 'raise to 100']
    """
    words = {"x": "check", "c": "call", "f": "fold"}
    if label in words:
        return words[label]
    match = re.fullmatch(r"([br])(\d+)", label)
    if match is None:
        return label
    return ("bet " if match[1] == "b" else "raise to ") + match[2]


def _blend(t: float) -> str:
    # Light salmon to dark red through a middle red, linear in RGB between the anchors.
    anchors = [(0xF4, 0xA5, 0x82), (0xD6, 0x60, 0x4D), (0x8B, 0x0A, 0x1F)]
    pos = t * (len(anchors) - 1)
    k = min(int(pos), len(anchors) - 2)
    u = pos - k
    rgb = [round(a + (b - a) * u) for a, b in zip(anchors[k], anchors[k + 1], strict=True)]
    return "#" + "".join(f"{v:02x}" for v in rgb)


def action_colours(labels: tuple[str, ...]) -> list[str]:
    """The usual solver palette: fold blue, check and call green, bets and raises red.

    Bets and raises darken with their size, so the biggest (often all-in) is the
    darkest.

    Examples
    --------
    >>> action_colours(("f", "c", "r100", "r300"))
    ['#4a7fd1', '#5aae61', '#f4a582', '#8b0a1f']
    >>> action_colours(("x", "b50"))
    ['#5aae61', '#d6604d']
    """
    sized = sorted((int(a[1:]), a) for a in labels if re.fullmatch(r"[br]\d+", a))
    shade = {a: _blend(0.5 if len(sized) == 1 else k / (len(sized) - 1))
             for k, (_, a) in enumerate(sized)}
    fixed = {"f": "#4a7fd1", "x": "#5aae61", "c": "#5aae61"}
    return [fixed.get(a, shade.get(a, "#999999")) for a in labels]


def grid_text(table: ClassTable) -> str:
    """One 13×13 grid per action: the percentage of each class that takes it (``.`` empty).

    Examples
    --------
    >>> import numpy as np
    >>> strat = np.full((169, 2), np.nan); strat[0] = [0.25, 0.75]
    >>> reach = np.zeros(169); reach[0] = 6.0
    >>> t = ClassTable(("x", "b50"), tuple(CLASS_NAMES), reach, reach / 6, strat,
    ...                np.zeros(169), np.zeros(169))
    >>> print(grid_text(t).splitlines()[2])
    A   25   .   .   .   .   .   .   .   .   .   .   .   .
    """
    blocks = []
    for j, label in enumerate(table.labels):
        grid = table.grid(table.strategy[:, j])
        lines = [f"{label} ({action_name(label)}): % of each class",
                 "  " + "".join(f"{r:>4}" for r in _ORDER)]
        for row in range(13):
            cells = "".join("   ." if not np.isfinite(x) else f"{100 * x:4.0f}"
                            for x in grid[row])
            lines.append(f"{_ORDER[row]} {cells}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def save_strategy_png(
    table: ClassTable,
    frequencies: FloatArray,
    path: Path,
    title: str,
) -> Path:
    """Draw the coloured strategy grid of ``table`` into a PNG at ``path``; return the path.

    Each cell is split left to right into bars, one per action, as wide as the
    class's frequency of that action. The bars' height is the class's weight at the
    node per combo, relative to the fullest class (which fills its cell): a class
    that the line has mostly left is drawn low. The number in a cell's corner is its
    weight in combos; the legend gives each action's share of the whole range
    (``frequencies``).
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch, Rectangle

    colours = action_colours(table.labels)
    fullest = float(table.share.max()) if table.share.size else 0.0
    fig, ax = plt.subplots(figsize=(8.6, 9.2))
    for row in range(13):
        for col in range(13):
            name = _class_of_cell(row, col)
            k = table.names.index(name)
            x0, y0 = col, 12 - row
            ax.add_patch(Rectangle((x0, y0), 1, 1, facecolor="#eeeeee", edgecolor="none"))
            if table.reach[k] > 0:
                height = float(table.share[k]) / fullest if fullest > 0 else 0.0
                left = float(x0)
                for j, width in enumerate(table.strategy[k]):
                    if width > 0:
                        ax.add_patch(Rectangle((left, y0), float(width), height,
                                               facecolor=colours[j], edgecolor="none"))
                        left += float(width)
            ax.add_patch(Rectangle((x0, y0), 1, 1, fill=False, edgecolor="white", linewidth=1.2))
            ink = "black" if table.reach[k] > 0 else "#9a9a9a"
            ax.text(x0 + 0.06, y0 + 0.92, name, ha="left", va="top", fontsize=7.5, color=ink,
                    fontweight="bold" if table.reach[k] > 0 else "normal")
            if table.reach[k] > 0:
                ax.text(x0 + 0.94, y0 + 0.92, f"{table.reach[k]:.2g}", ha="right", va="top",
                        fontsize=5.5, color="#333333")
    ax.set_xlim(0, 13)
    ax.set_ylim(0, 13)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(title, fontsize=11)
    handles = [Patch(facecolor=c, label=f"{action_name(a)}  {100 * float(f):.1f}%")
               for a, c, f in zip(table.labels, colours, frequencies, strict=True)]
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.01),
              ncol=min(4, len(handles)), frameon=False, fontsize=9,
              title="action: share of the range at this node (cell corner: combos; bar "
              "height: weight per combo, fullest class = 1)", title_fontsize=8.5)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def board_text(board: tuple[int, ...]) -> str:
    """``Qs Jh 2h 4d``."""
    return " ".join(format_card(c) for c in board)

