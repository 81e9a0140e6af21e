"""Picture of an abstraction: what each bucket means in EHS, and EMD centroid histograms."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from checkraise.abstraction.abstraction import STREETS, Abstraction

__all__ = ["plot_abstraction"]


def plot_abstraction(ab: Abstraction, path: Path, centroids_shown: int = 6) -> None:
    """Write a PNG: per street, the EHS range (min..max, dot at the mean) of every
    bucket ordered by mean EHS; for EMD streets, a few centroid histograms."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    emd_streets = [s for s in STREETS if f"{s}_centroids" in ab.arrays]
    rows = 4 + len(emd_streets)
    fig, axes = plt.subplots(rows, 1, figsize=(10, 2.4 * rows))
    for ax, street in zip(axes[:4], STREETS, strict=True):
        lo = ab.arrays.get(f"{street}_min")
        hi = ab.arrays.get(f"{street}_max")
        mean = ab.arrays.get(f"{street}_mean")
        if lo is None or hi is None or mean is None:
            ax.set_title(f"{street}: no statistics stored")
            continue
        keep = np.isfinite(mean)
        order = np.argsort(mean[keep], kind="stable")
        x = np.arange(order.size)
        ax.vlines(x, lo[keep][order], hi[keep][order], linewidth=1.0)
        ax.plot(x, mean[keep][order], ".", markersize=3)
        ax.set_ylim(0, 1)
        ax.set_ylabel("EHS")
        ax.set_title(f"{street}: EHS range of each of {order.size} buckets (by mean EHS)")
    for ax, street in zip(axes[4:], emd_streets, strict=True):
        cdf = ab.arrays[f"{street}_centroids"]
        pdf = np.diff(cdf, axis=1, prepend=0.0)
        bins = pdf.shape[1]
        centres = (np.arange(bins) + 0.5) / bins
        means = (pdf * centres).sum(axis=1)
        picks = np.argsort(means)[np.linspace(0, len(means) - 1, centroids_shown).astype(int)]
        for c in picks:
            ax.step(centres, pdf[c], where="mid", label=f"bucket {c}")
        ax.set_xlim(0, 1)
        ax.set_xlabel("next-street equity")
        ax.set_title(f"{street}: centroid histograms of {centroids_shown} EMD buckets")
        ax.legend(fontsize=7, ncol=3)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
