"""``benchmarks/archive_match.py``: a match kept in the repository, checked before it
is put in place. The oracles are the match's own files (the gzipped logs must unpack
to them byte for byte) and its ``results.json`` (the archive must recover to it)."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from checkraise.arena.journal import recover
from checkraise.cli.main import app

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "archive_match.py"


def _match(out: Path, seed: int) -> None:
    done = CliRunner().invoke(app, ["match", "random", "call", "-n", "40", "--seed", str(seed),
                                    "--workers", "1", "--out", str(out)])
    assert done.exit_code == 0, done.output


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, check=False)


def test_an_archive_holds_the_match_and_recovers_to_its_results(tmp_path: Path) -> None:
    _match(tmp_path / "m", 31)
    done = _run(str(tmp_path / "m"), str(tmp_path / "kept" / "m31"), "--json")
    assert done.returncode == 0, done.stderr
    archive = tmp_path / "kept" / "m31"
    assert json.loads(done.stdout)["deals"] == 40
    logs = tmp_path / "m" / "logs"
    for name in ("rotation-0.jsonl", "rotation-1.jsonl", "rotation-0.log", "rotation-1.log"):
        packed = archive / "logs" / f"{name}.gz"
        assert gzip.decompress(packed.read_bytes()) == (logs / name).read_bytes()
    assert not list((archive / "logs").glob("*.jsonl")) and not list(archive.glob("*.txt"))
    reported = json.loads((archive / "results.json").read_text())
    assert recover(archive / "logs")[0].to_json()["players"] == reported["players"]
    assert sorted(p.name for p in (tmp_path / "kept").iterdir()) == ["m31"]  # no staging


def test_a_bad_copy_or_a_bad_folder_leaves_nothing(tmp_path: Path) -> None:
    _match(tmp_path / "m", 32)
    _match(tmp_path / "n", 33)
    results = tmp_path / "m" / "results.json"
    data = json.loads(results.read_text())
    data["players"][0]["total_chips"] += 1  # what the journals no longer give
    results.write_text(json.dumps(data))
    pooled = CliRunner().invoke(app, ["match", "--pool", str(tmp_path / "n"), "--pool",
                                      str(tmp_path / "m"), "--out", str(tmp_path / "p")])
    assert pooled.exit_code == 0, pooled.output
    kept = tmp_path / "kept"
    for args, message in [
        ((str(tmp_path / "m"), str(kept / "a")),
         "recovers to other figures than its results.json (players)"),
        ((str(tmp_path / "none"), str(kept / "b")), "none/results.json"),
        ((str(tmp_path / "p"), str(kept / "c")), "a pooled result (match --pool)"),
        ((str(tmp_path / "n"), str(tmp_path / "m")), "exists; expected a new folder"),
    ]:
        done = _run(*args)
        assert done.returncode != 0 and message in done.stderr, (args, done.stderr)
    assert not kept.exists() or not list(kept.iterdir())  # no archive, no staging left
