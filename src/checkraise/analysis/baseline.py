"""Our hand reading against the paper's Markov baseline, in a fair fight on held-out files.

The hand-reading paper (Li, Jiang, Chen and Bao, Chinese Journal of Computers 40(12),
2017) reports that its predictions name a player's hand category more often than a Markov
model of categories (Li Ruobin 2013) does: +3.4, +8.5 and +14.1 percentage points on the
flop, turn and river, +6.65 on average. :func:`compare` measures the same margin on hand
histories that show every player's cards:

* the files are split into folds by name order (file ``i`` in fold ``i mod k``; with 2
  folds the first fold is the 1st, 3rd, ... file, the half the shipped model was fitted
  on) or given as one explicit training set;
* per fold, on the training files only, the default model's intervals are fitted
  (:func:`~checkraise.analysis.fit.fit_config`, the same fit as the shipped model's) and
  the Markov model is fitted (:func:`~checkraise.analysis.markov.fit`);
* both are scored on the fold's held-out files (:func:`~checkraise.analysis.prediction.
  evaluate_hands`): top-Z accuracy (Z = 1, 2, 3) over the categories of each street's
  board, for the uniform prior, the Markov model, the model and the adapted model;
* the folds are pooled (every player of every held-out hand counts once) and the margin
  of ours over Markov is given in percentage points, per street and Z and as means over
  the flop, turn and river and over all four streets.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from checkraise.analysis.fit import collect_samples, fit_config
from checkraise.analysis.markov import Trail, fit, trails_from_hands
from checkraise.analysis.prediction import (
    CATEGORY_PREDICTORS,
    STREET_LABELS,
    TopZ,
    evaluate_hands,
)
from checkraise.errors import ConfigError
from checkraise.histories import HandRecord, read_hands
from checkraise.opponents.model import DFModel

__all__ = ["PAPER_MARGINS", "BaselineReport", "Fold", "compare", "save_figure", "split_folds"]

PAPER_MARGINS: Final = {"flop": 3.4, "turn": 8.5, "river": 14.1, "mean": 6.65}
"""The paper's margins over the Markov model, in percentage points."""
POSTFLOP: Final = ("flop", "turn", "river")


@dataclass(frozen=True)
class Fold:
    """One fold: the files trained and tested on, the hands and players scored."""

    train: tuple[str, ...]
    test: tuple[str, ...]
    hands: int
    players: int


@dataclass
class BaselineReport:
    """Pooled category scores per street and predictor, and the folds they come from."""

    folds: list[Fold] = field(default_factory=list)
    scores: dict[str, dict[str, TopZ]] = field(default_factory=lambda: {
        s: {p: TopZ() for p in CATEGORY_PREDICTORS} for s in STREET_LABELS})
    command: str = ""

    def rows(self) -> list[dict[str, Any]]:
        """One row per (street, predictor): n and the top-1/2/3 accuracies."""
        return [{"street": s, "predictor": p, **self.scores[s][p].means()}
                for s in STREET_LABELS for p in CATEGORY_PREDICTORS]

    def margins(self, ours: str = "model") -> dict[str, dict[str, float]]:
        """``ours`` minus Markov in percentage points: per street, ``postflop`` and ``all``.

        Keys of each entry: ``top1``, ``top2``, ``top3``. ``postflop`` is the mean of the
        flop, turn and river, ``all`` the mean of the four streets.
        """
        out: dict[str, dict[str, float]] = {}
        for s in STREET_LABELS:
            a = self.scores[s][ours].means()
            b = self.scores[s]["markov"].means()
            out[s] = {z: 100.0 * (a[z] - b[z]) for z in ("top1", "top2", "top3")}
        for name, streets in (("postflop", POSTFLOP), ("all", STREET_LABELS)):
            out[name] = {z: sum(out[s][z] for s in streets) / len(streets)
                         for z in ("top1", "top2", "top3")}
        return out

    def to_json(self) -> dict[str, Any]:
        """The report for ``--json`` and ``baseline.json``."""
        return {
            "command": self.command,
            "hands": sum(f.hands for f in self.folds),
            "players": sum(f.players for f in self.folds),
            "folds": [{"train": list(f.train), "test": list(f.test), "hands": f.hands,
                       "players": f.players} for f in self.folds],
            "rows": self.rows(),
            "margin_model": self.margins("model"),
            "margin_adapted": self.margins("adapted"),
            "paper_margin": PAPER_MARGINS,
        }


def split_folds(files: Sequence[Path], folds: int) -> list[tuple[list[Path], list[Path]]]:
    """``(train, test)`` per fold: sorted by name, file ``i`` is tested in fold ``i mod k``.

    Examples
    --------
    >>> [[p.name for p in test] for _, test in split_folds([Path("b"), Path("a"), Path("c")], 2)]
    [['a', 'c'], ['b']]
    """
    ordered = sorted(files, key=lambda p: (p.name, str(p)))
    if len({p.resolve() for p in ordered}) != len(ordered):
        raise ConfigError("a file is given twice: expected distinct files")
    if not 2 <= folds <= len(ordered):
        raise ConfigError(f"--folds {folds} over {len(ordered)} files: expected 2.."
                          f"{len(ordered)} (at least one file per fold)")
    out = []
    for k in range(folds):
        test = ordered[k::folds]
        out.append(([p for p in ordered if p not in test], test))
    return out


def compare(
    files: Sequence[Path],
    *,
    folds: int = 2,
    train: Sequence[Path] = (),
    limit: int = 0,
    flop_runouts: int | None = None,
    seed: int = 0,
    smoothing: float = 0.5,
    out: Path | None = None,
    command: str = "",
    progress: Callable[[str, int, int], None] | None = None,
    read: Callable[[Path], list[HandRecord]] = read_hands,
) -> BaselineReport:
    """Cross-validate our reading against the Markov baseline (module docstring).

    Parameters
    ----------
    files
        Hand histories showing every player's cards (the players scored must show theirs).
    folds
        Number of folds over ``files``; ignored when ``train`` is given.
    train
        Train on these files and test on ``files`` (one fold; the two must not overlap).
    limit
        Read at most this many hands of each file (0: all).
    flop_runouts, seed, smoothing
        Passed to the P_win tables, and to the Markov fit.
    out
        Folder for each fold's fitted models (``model_fold{k}.json``, ``markov_fold{k}.json``).
    progress
        ``progress(stage, done, total)`` as files are read and folds are scored.
    """
    files = list(files)
    if train:
        overlap = {p.resolve() for p in train} & {p.resolve() for p in files}
        if overlap:
            raise ConfigError(f"--train and the files scored share {sorted(map(str, overlap))}: "
                              "expected held-out files")
        splits = [(list(train), files)]
    else:
        splits = split_folds(files, folds)
    every = sorted({p for tr, te in splits for p in (*tr, *te)}, key=lambda p: (p.name, str(p)))
    hands: dict[Path, list[HandRecord]] = {}
    samples: dict[Path, list[Any]] = {}
    trails: dict[Path, list[Trail]] = {}
    trained = {p for tr, _ in splits for p in tr}
    for i, path in enumerate(every):
        hands[path] = read(path)[: limit or None]
        if path in trained:
            samples[path] = collect_samples(hands[path], flop_runouts)[0]
            trails[path] = trails_from_hands(hands[path])
        if progress is not None:
            progress("reading", i + 1, len(every))
    report = BaselineReport(command=command)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    for k, (tr, te) in enumerate(splits):
        names = ", ".join(p.name for p in tr)
        n_train = sum(len(hands[p]) for p in tr)
        config = fit_config([s for p in tr for s in samples[p]], description=(
            f"Fitted by checkraise.analysis.fit on {n_train} hands ({names}) for fold {k} of "
            f"{command or 'checkraise.analysis.baseline.compare'}"))
        markov = fit([t for p in tr for t in trails[p]], seed=seed, smoothing=smoothing,
                     command=command)
        if out is not None:
            (out / f"model_fold{k}.json").write_text(json.dumps(config, indent=1) + "\n")
            markov.save(out / f"markov_fold{k}.json")
        result = evaluate_hands([h for p in te for h in hands[p]], model=DFModel(config),
                                flop_runouts=flop_runouts, markov=markov)
        assert result.categories is not None
        for s in STREET_LABELS:
            for p in CATEGORY_PREDICTORS:
                report.scores[s][p].merge(result.categories[s][p])
        report.folds.append(Fold(tuple(p.name for p in tr), tuple(p.name for p in te),
                                 result.hands, result.players))
        if progress is not None:
            progress("scoring", k + 1, len(splits))
    return report


def save_figure(report: BaselineReport, path: Path) -> Path:
    """The accuracies per street and Z as grouped bars (the layout of the paper's Figure 7)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    colours = {"uniform": "#b0b0b0", "markov": "#d95f02", "model": "#1b9e77",
               "adapted": "#7570b3"}
    fig, axes = plt.subplots(1, 3, figsize=(13, 4.2), sharey=True)
    width = 0.2
    margins = report.margins("model")
    for z, ax in enumerate(axes):
        key = f"top{z + 1}"
        for j, name in enumerate(CATEGORY_PREDICTORS):
            values = [100 * report.scores[s][name].means()[key] for s in STREET_LABELS]
            xs = [i + (j - 1.5) * width for i in range(len(STREET_LABELS))]
            ax.bar(xs, values, width, label=name, color=colours[name])
        for i, s in enumerate(STREET_LABELS):
            top = max(100 * report.scores[s][p].means()[key] for p in CATEGORY_PREDICTORS)
            ax.annotate(f"{margins[s][key]:+.1f}", (i, top + 1), ha="center", fontsize=8)
        ax.set_xticks(range(len(STREET_LABELS)), STREET_LABELS)
        ax.set_title(f"top-{z + 1} accuracy (labels: model - Markov)")
        ax.set_ylim(0, 105)
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_ylabel("% of players")
    axes[0].legend(loc="upper left", fontsize=8)
    players = sum(f.players for f in report.folds)
    fig.suptitle(f"Hand categories predicted on held-out hands: {len(report.folds)} folds, "
                 f"{players} players; mean margin flop-river top-1 "
                 f"{margins['postflop']['top1']:+.2f} points (paper +6.65)")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
