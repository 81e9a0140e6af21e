"""The hand-log readers of ``benchmarks/`` read an archived match (its logs gzipped,
``benchmarks/archive_match.py``) as they read the match's own folder: the oracle is
their output on the folder the archive was made from."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from checkraise.cli.main import app

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCHMARKS / script), *args],
                          capture_output=True, text=True, check=False)


def _match_and_archive(tmp_path: Path, name: str, agents: tuple[str, str], seed: int
                       ) -> tuple[Path, Path]:
    folder, archive = tmp_path / name, tmp_path / "kept" / name
    done = CliRunner().invoke(app, ["match", *agents, "-n", "30", "--seed", str(seed),
                                    "--workers", "1", "--out", str(folder)])
    assert done.exit_code == 0, done.output
    kept = _run("archive_match.py", str(folder), str(archive))
    assert kept.returncode == 0, kept.stderr
    assert not list((archive / "logs").glob("*.log"))  # only the gzipped ones
    return folder, archive


def test_match_lines_and_paired_matches_read_an_archive_as_its_folder(tmp_path: Path) -> None:
    a, a_kept = _match_and_archive(tmp_path, "a", ("random", "call"), 41)
    b, b_kept = _match_and_archive(tmp_path, "b", ("raise", "call"), 41)
    plain = _run("match_lines.py", str(a), "--agent", "random", "--json")
    kept = _run("match_lines.py", str(a_kept), "--agent", "random", "--json")
    assert plain.returncode == 0 and kept.returncode == 0, plain.stderr + kept.stderr
    assert json.loads(kept.stdout) == json.loads(plain.stdout)
    plain = _run("paired_matches.py", str(a), str(b), "--json")
    kept = _run("paired_matches.py", str(a_kept), str(b_kept), "--json")
    assert plain.returncode == 0 and kept.returncode == 0, plain.stderr + kept.stderr
    assert json.loads(kept.stdout) == json.loads(plain.stdout)
    (a_kept / "logs" / "rotation-0.log.gz").write_bytes(b"not gzip data")
    bad = _run("match_lines.py", str(a_kept), "--agent", "random")
    assert bad.returncode != 0 and "rotation-0.log.gz" in bad.stderr


def test_match_lines_counts_only_the_deals_results_json_counts(tmp_path: Path) -> None:
    # a match stopped with --stop-at (or recovered) counts the deals every rotation
    # finished; a rotation's log may go on past them, and those hands do not count
    folder, _ = _match_and_archive(tmp_path, "a", ("random", "call"), 43)
    results = json.loads((folder / "results.json").read_text())
    results["config"]["hands"] = 20
    (folder / "results.json").write_text(json.dumps(results))
    chips = 0.0
    for r in range(2):
        text = (folder / "logs" / f"rotation-{r}.log").read_text()
        for line in [t for t in text.splitlines() if t.startswith("STATE:")][:20]:
            fields = line.split(":")
            chips += float(fields[4].split("|")[fields[5].split("|").index("random")])
    done = _run("match_lines.py", str(folder), "--agent", "random", "--json")
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got["hands"] == 40
    assert abs(got["mbb_per_hand"] - 1000 * chips / 100 / 40) < 1e-6
    results["config"]["hands"] = 31  # more deals than the logs hold
    (folder / "results.json").write_text(json.dumps(results))
    short = _run("match_lines.py", str(folder), "--agent", "random")
    assert short.returncode != 0 and "31 deals" in short.stderr
