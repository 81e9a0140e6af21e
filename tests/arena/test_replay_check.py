"""``benchmarks/replay_check.py``: a replay of a kept match's first deals is compared
with them seating by seating. The oracles are the match's own seed (a replay on the
same code must give the same deals) and edits made by hand at known deals (the check
must point at them and nowhere else)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from checkraise.cli.main import app

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCHMARKS / script), *args],
                          capture_output=True, text=True, check=False)


def _kept(tmp_path: Path, seed: int = 41) -> Path:
    """A 30-deal match played with a worker per seating, archived (gzipped logs)."""
    out = tmp_path / f"m{seed}"
    done = CliRunner().invoke(app, ["match", "random", "call", "-n", "30", "--seed", str(seed),
                                    "--rules", "acpc", "--workers", "2", "--out", str(out)])
    assert done.exit_code == 0, done.output
    archived = _run("archive_match.py", str(out), str(tmp_path / f"kept{seed}"))
    assert archived.returncode == 0, archived.stderr
    return tmp_path / f"kept{seed}"


def _edit(path: Path, line: int, old: str, new: str) -> None:
    lines = path.read_text().splitlines(keepends=True)
    assert old in lines[line], lines[line]
    lines[line] = lines[line].replace(old, new, 1)
    path.write_text("".join(lines))


def test_a_replay_matches_and_an_edit_is_found_where_it_was_made(tmp_path: Path) -> None:
    kept = _kept(tmp_path)
    done = _run("replay_check.py", str(kept), "--deals", "12", "--out",
                str(tmp_path / "r"), "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["same"] and report["seed"] == 41
    assert [(r["deals"], r["journal_same"], r["state_same"], r["first_difference"])
            for r in report["seatings"]] == [(12, 12, 12, None)] * 2

    edited = tmp_path / "edited"
    shutil.copytree(tmp_path / "r", edited)
    _edit(edited / "logs" / "rotation-1.jsonl", 7, '"payoffs": [', '"payoffs": [1')
    states = [i for i, line in enumerate((edited / "logs" / "rotation-0.log").read_text()
                                         .splitlines()) if line.startswith("STATE:")]
    _edit(edited / "logs" / "rotation-0.log", states[3], ":", ":9")  # in the hand id only
    _edit(edited / "logs" / "rotation-0.log", states[5], "|", "|X")  # a card: a real change
    done = _run("replay_check.py", str(kept), "--replayed", str(edited), "--json")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert not report["same"]
    assert [(r["journal_same"], r["state_same"], r["first_difference"])
            for r in report["seatings"]] == [(12, 11, 5), (11, 12, 7)]
    assert "|X" in report["seatings"][0]["replayed_state"]
    assert "|X" not in report["seatings"][0]["kept_state"]


def test_bad_input_is_named_and_plays_nothing(tmp_path: Path) -> None:
    kept = _kept(tmp_path)
    other = _kept(tmp_path, seed=42)
    replay = _run("replay_check.py", str(other), "--deals", "4", "--out", str(tmp_path / "r"))
    assert replay.returncode == 0, replay.stderr
    for args, message in [
        ((str(kept), "--replayed", str(tmp_path / "r")),
         "is not a replay of"),
        ((str(kept), "--deals", "31", "--out", str(tmp_path / "x")),
         "--deals 31: "),
        ((str(kept), "--deals", "0", "--out", str(tmp_path / "x")), "--deals 0: expected"),
        ((str(kept), "--deals", "4", "--out", str(tmp_path / "r")), "exists; expected a new"),
        ((str(tmp_path / "none"), "--deals", "4", "--out", str(tmp_path / "x")),
         "no match.json in " + str(tmp_path / "none" / "logs")),
    ]:
        done = _run("replay_check.py", *args)
        assert done.returncode == 2 and message in done.stderr, (args, done.stderr)
    assert not (tmp_path / "x").exists()
