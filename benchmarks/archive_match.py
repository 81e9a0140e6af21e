"""Keep a finished match in the repository: its results and gzipped logs, checked.

A long match runs in a folder outside the repository (``--out DIR``), which a machine
reset loses; ``docs/results/README.md`` says why and where its parts are kept. This
copies ``DIR/results.json``, ``DIR/report.md`` and ``DIR/logs/match.json`` to
``ARCHIVE`` and gzips the journals and hand logs into ``ARCHIVE/logs``, then checks that
the archive's journals recover to the figures ``results.json`` reports (as
``tests/arena/test_archived_results.py`` does in CI) before it puts the archive in
place: a copy that went wrong leaves nothing behind.

Run::

    .venv/bin/python benchmarks/archive_match.py runs/s49/unsafe_fold_431104 \\
        docs/results/issue16/unsafe_fold_431104

``DIR`` is a match that finished, was stopped by ``--stop-at`` or was recovered
(``checkraise match --recover``): it holds ``results.json``. ``ARCHIVE`` must not exist.
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

from checkraise.arena.journal import MATCH_FILE, RECOVERED_SAME, JournalError, recover


def _results(folder: Path) -> dict[str, Any]:
    path = folder / "results.json"
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SystemExit(f"{path}: {exc.strerror}; expected the --out folder of a finished, "
                         "stopped or recovered checkraise match") from None
    except ValueError as exc:
        raise SystemExit(f"{path}: {exc}; expected the results of checkraise match") from None
    if data.get("seed") is None:
        raise SystemExit(f"{path}: a pooled result (match --pool); expected one match, "
                         "whose parts are archived one by one")
    return data


def write_archive(folder: Path, archive: Path) -> dict[str, Any]:
    """Archive ``folder`` as ``archive`` (checked before it is put in place); what it
    holds."""
    results = _results(folder)
    logs = folder / "logs"
    sources = sorted([*logs.glob("rotation-*.jsonl"), *logs.glob("rotation-*.log")])
    if not (logs / MATCH_FILE).is_file() or not sources:
        raise SystemExit(f"{logs}: no {MATCH_FILE} or no rotation journals; expected the "
                         "logs of a checkraise match played with --out")
    if archive.exists():
        raise SystemExit(f"{archive} exists; expected a new folder (an archive is written "
                         "once)")
    archive.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{archive.name}-", dir=archive.parent))
    staging.chmod(0o755)  # mkdtemp's folder is the owner's only
    try:
        (staging / "logs").mkdir()
        for name in ("results.json", "report.md"):
            if (folder / name).is_file():
                shutil.copy2(folder / name, staging / name)
        shutil.copy2(logs / MATCH_FILE, staging / "logs" / MATCH_FILE)
        for source in sources:
            with source.open("rb") as f, gzip.GzipFile(
                    staging / "logs" / f"{source.name}.gz", "wb", compresslevel=9,
                    mtime=0) as out:
                shutil.copyfileobj(f, out)
        try:
            rebuilt = recover(staging / "logs")[0].to_json()
        except JournalError as exc:
            raise SystemExit(f"the archive of {folder} does not recover ({exc}); nothing "
                             "was written") from None
        differ = [key for key in RECOVERED_SAME if rebuilt.get(key) != results.get(key)]
        if differ:
            raise SystemExit(f"the archive of {folder} recovers to other figures than its "
                             f"results.json ({', '.join(differ)}); expected the same; "
                             "nothing was written")
        staging.rename(archive)
    finally:
        if staging.exists():
            shutil.rmtree(staging)
    files = sorted(p for p in archive.rglob("*") if p.is_file())
    return {"archive": str(archive), "deals": results["config"]["hands"],
            "files": [str(p.relative_to(archive)) for p in files],
            "bytes": sum(p.stat().st_size for p in files)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="the match's --out folder")
    parser.add_argument("archive", type=Path, help="the archive folder to write (new)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    done = write_archive(args.folder, args.archive)
    if args.json:
        print(json.dumps(done))
        return
    print(f"{done['archive']}: {done['deals']:,} deals, {len(done['files'])} files, "
          f"{done['bytes'] / 1024:,.0f} kB; its journals recover to its results.json")


if __name__ == "__main__":
    main()
