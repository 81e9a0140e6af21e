"""``checkraise abstraction build|show|bucket``: card abstractions of the 52-card game.

Heavy imports (numpy, numba kernels, matplotlib) happen inside the commands so that
``checkraise --help`` stays fast.
"""

from __future__ import annotations

import json
import resource
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import typer

from checkraise.cli._options import check_seed
from checkraise.cli.app import app

__all__ = ["abstraction_app"]

abstraction_app = typer.Typer(
    name="abstraction",
    help="Card abstractions: build, inspect and query buckets of hands.",
    no_args_is_help=True,
)
app.add_typer(abstraction_app, name="abstraction")

FILE_HELP = "Abstraction file (.npz); the word 'default' means the one shipped in the package."


def _peak_mb() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return own / 1024.0  # Linux reports kilobytes


@abstraction_app.command("build")
def build_command(
    buckets: str = typer.Option(
        "169,200,200,200", "--buckets", help="Buckets of preflop,flop,turn,river."
    ),
    method: str = typer.Option("emd", "--method", help="Flop/turn clustering: ehs or emd."),
    seed: int = typer.Option(
        1, "--seed", callback=check_seed,
        help="Seed of the k-means sampling and seeding."
    ),
    out: Path = typer.Option(..., "--out", help="Abstraction file to write (.npz)."),
    work: Path = typer.Option(
        Path(".checkraise-features"),
        "--work",
        help="Folder for the exact feature tables (~0.9 GB); a rerun resumes from it.",
    ),
    bins: int = typer.Option(32, "--bins", help="Bins of the equity histograms."),
    sample: int = typer.Option(200_000, "--sample", help="Rows for EMD k-means++ and Lloyd."),
) -> None:
    """Build an abstraction: exact features, clustering, assignment of every class.

    Prints the time and peak memory at the end, and the quality statistics.
    """
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    from checkraise.abstraction.build import BuildConfig, Method, build_abstraction, parse_buckets
    from checkraise.cli._progress import progress_bar
    from checkraise.errors import CheckraiseError

    counts = parse_buckets(buckets)
    if method not in {m.value for m in Method}:
        raise CheckraiseError(f"unknown method {method!r}; expected 'ehs' or 'emd'")
    if out.parent and not out.parent.exists():
        raise CheckraiseError(f"folder {str(out.parent)!r} of --out does not exist")
    config = BuildConfig(counts, Method(method), seed, bins, sample)
    command = shlex.join(["checkraise", "abstraction", "build", *sys.argv[3:]]) if (
        len(sys.argv) > 2 and sys.argv[1:3] == ["abstraction", "build"]
    ) else shlex.join(
        ["checkraise", "abstraction", "build", "--buckets", buckets, "--method", method,
         "--seed", str(seed), "--bins", str(bins), "--sample", str(sample), "--out", str(out)]
    )  # fmt: skip
    console = Console(stderr=True)
    t0 = time.perf_counter()
    tasks: dict[str, Any] = {}
    with progress_bar(
        TextColumn("{task.description:18s}"), BarColumn(), MofNCompleteColumn(),
        TimeElapsedColumn(), label="abstraction", unit="", console=console,
    ) as bar:  # fmt: skip

        def progress(phase: str, done: int, total: int) -> None:
            if phase not in tasks:
                tasks[phase] = bar.add_task(phase, total=total)
            bar.update(tasks[phase], completed=done)

        ab = build_abstraction(config, work, command=command, progress=progress)
    ab.save(out)
    seconds = time.perf_counter() - t0
    print(f"wrote {out} in {seconds:.1f} s, peak memory {_peak_mb():.0f} MB")
    _print_quality(ab.header["quality"])


def _print_quality(quality: dict[str, dict[str, float]]) -> None:
    print("mean within-bucket EHS std and EMD (equity units): built vs equal-count EHS baseline")
    print("street    EHS std built  baseline    EMD built  baseline")
    for street, q in quality.items():
        emd = f"{q['emd_mean']:9.4f}  {q['baseline_emd_mean']:8.4f}" if "emd_mean" in q else ""
        print(f"{street:8s} {q['ehs_std']:14.4f} {q['baseline_ehs_std']:9.4f}   {emd}")


@abstraction_app.command("show")
def show_command(
    file: str = typer.Argument(..., help=FILE_HELP),
    out: Path | None = typer.Option(
        None, "--out", help="PNG to write (default: <file stem>_buckets.png here)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print machine-readable JSON."),
) -> None:
    """Print bucket sizes and quality; draw each bucket's EHS range (and EMD centroids)."""
    from checkraise.abstraction.abstraction import STREETS, Abstraction, resolve_path
    from checkraise.abstraction.plot import plot_abstraction

    ab = Abstraction.load(file)
    png = out if out is not None else Path(f"{resolve_path(file).stem}_buckets.png")
    summary: dict[str, Any] = {
        "file": str(resolve_path(file)),
        "header": {k: v for k, v in ab.header.items() if k != "checksums"},
        "sizes": {},
        "png": str(png),
    }
    for street in STREETS:
        sizes = ab.arrays.get(f"{street}_size")
        if sizes is not None:
            summary["sizes"][street] = [int(s) for s in sizes]
    plot_abstraction(ab, png)
    if as_json:
        print(json.dumps(summary))
        return
    h = ab.header
    print(f"{summary['file']}: method {h['method']}, seed {h['seed']}, buckets "
          + "/".join(str(n) for n in h['buckets'].values()) + " (preflop/flop/turn/river)")
    print(f"built by: {h.get('command', '?')}")
    for street, sizes in summary["sizes"].items():
        nz = [s for s in sizes if s > 0]
        print(
            f"{street:8s} {len(sizes):4d} buckets ({len(nz)} non-empty), classes per bucket "
            f"min {min(nz)} median {sorted(nz)[len(nz) // 2]} max {max(nz)}"
        )
    _print_quality(h["quality"])
    print(f"wrote {png}")


@abstraction_app.command("bucket")
def bucket_command(
    file: str = typer.Argument(..., help=FILE_HELP),
    hole: str = typer.Argument(..., help="Two hole cards, e.g. AsKd."),
    board: str = typer.Argument("", help="0, 3, 4 or 5 board cards, e.g. Qh7c2s."),
    as_json: bool = typer.Option(False, "--json", help="Print machine-readable JSON."),
) -> None:
    """Print the street, isomorphism index, bucket and exact features of a hand."""
    from checkraise.abstraction._iso_kernels import index_cards
    from checkraise.abstraction.abstraction import STREETS, Abstraction
    from checkraise.abstraction.features import hand_features
    from checkraise.cards import format_cards, parse_cards
    from checkraise.errors import CheckraiseError

    h = parse_cards(hole)
    b = parse_cards(board) if board else []
    if len(h) != 2:
        raise CheckraiseError(f"hole cards {hole!r} hold {len(h)} cards; expected 2, e.g. AsKd")
    if len(b) not in (0, 3, 4, 5):
        raise CheckraiseError(f"board {board!r} holds {len(b)} cards; expected 0, 3, 4 or 5")
    if set(h) & set(b):
        raise CheckraiseError(f"hole {hole!r} and board {board!r} share a card")
    ab = Abstraction.load(file)
    street = {0: 0, 3: 1, 4: 2, 5: 3}[len(b)]
    import numpy as np

    index = int(index_cards(street, np.asarray([*h, *b], dtype=np.uint8)))
    bucket = ab.bucket(street, h, b)
    features: dict[str, Any]
    if street == 0:
        features = {
            "ehs": float(ab.arrays["preflop_ehs"][index]),
            "ehs2": float(ab.arrays["preflop_ehs2"][index]),
            "hist": [int(v) for v in ab.arrays["preflop_hist"][index]],
        }
    else:
        features = hand_features(h, b, int(ab.header["bins"]))
    record = {
        "street": STREETS[street],
        "hole": format_cards(h),
        "board": format_cards(b),
        "index": index,
        "bucket": bucket,
        "buckets": ab.buckets[street],
        **features,
    }
    if as_json:
        print(json.dumps(record))
        return
    print(
        f"{STREETS[street]} {record['hole']} | {record['board'] or '-'}: index {index}, "
        f"bucket {bucket} of {ab.buckets[street]}"
    )
    for key, value in features.items():
        print(f"  {key}: {value:.6f}" if isinstance(value, float) else f"  {key}: {value}")
