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

ROOT = Path(__file__).resolve().parents[2]


def _run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), *args],
                          capture_output=True, text=True, check=False)


def _match(out: Path, agents: list[str], deals: int, seed: int) -> None:
    done = CliRunner().invoke(app, ["match", *agents, "-n", str(deals), "--seed", str(seed),
                                    "--rules", "acpc", "--workers", "2", "--out", str(out)])
    assert done.exit_code == 0, done.output


def _kept(tmp_path: Path, seed: int = 41) -> Path:
    """A 30-deal match played with a worker per seating, archived (gzipped logs)."""
    _match(tmp_path / f"m{seed}", ["random", "call"], 30, seed)
    archived = _run("archive_match.py", str(tmp_path / f"m{seed}"), str(tmp_path / f"kept{seed}"))
    assert archived.returncode == 0, archived.stderr
    return tmp_path / f"kept{seed}"


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines(keepends=True)


def test_a_replay_matches_and_an_edit_is_found_where_it_was_made(tmp_path: Path) -> None:
    kept = _kept(tmp_path)
    done = _run("replay_check.py", str(kept), "--deals", "12", "--out", str(tmp_path / "r"),
                "--code", str(ROOT / "src"), "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["same"] and report["seed"] == 41
    assert [(r["deals"], r["journal_same"], r["state_same"], r["first_difference"])
            for r in report["seatings"]] == [(12, 12, 12, None)] * 2

    edited = tmp_path / "edited"
    shutil.copytree(tmp_path / "r", edited)
    journal = edited / "logs" / "rotation-1.jsonl"
    lines = _lines(journal)
    record = json.loads(lines[7])
    record["payoffs"] = [record["payoffs"][0] + 1, record["payoffs"][1] - 1]
    lines[7] = json.dumps(record) + "\n"
    journal.write_text("".join(lines))
    log = edited / "logs" / "rotation-0.log"
    lines = _lines(log)
    states = [i for i, line in enumerate(lines) if line.startswith("STATE:")]
    lines[states[3]] = lines[states[3]].replace("STATE:", "STATE:9", 1)  # the hand id only
    lines[states[5]] = lines[states[5]].replace("|", "|X", 1)  # a hole card: a real change
    log.write_text("".join(lines))
    done = _run("replay_check.py", str(kept), "--replayed", str(edited), "--json")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert not report["same"]
    assert [(r["journal_same"], r["state_same"], r["first_difference"])
            for r in report["seatings"]] == [(12, 11, 5), (11, 12, 7)]
    first, second = report["seatings"]
    assert "|X" in first["replayed_state"] and "|X" not in first["kept_state"]
    assert first["replayed_record"] == first["kept_record"]
    assert second["replayed_record"]["payoffs"] != second["kept_record"]["payoffs"]
    assert second["replayed_state"] == second["kept_state"]
    shown = _run("replay_check.py", str(kept), "--replayed", str(edited))
    assert shown.returncode == 1 and "deal 7 differs first" in shown.stdout


def test_bad_input_is_named_and_plays_nothing(tmp_path: Path) -> None:
    kept = _kept(tmp_path)
    other = _kept(tmp_path, seed=42)
    assert _run("replay_check.py", str(other), "--deals", "4", "--out",
                str(tmp_path / "r")).returncode == 0
    assert _run("replay_check.py", str(kept), "--deals", "12", "--out",
                str(tmp_path / "r12")).returncode == 0
    _match(tmp_path / "swapped", ["call", "random"], 4, 41)
    short = tmp_path / "short"  # a kept match whose second seating holds 10 deals whole
    shutil.copytree(tmp_path / "m41", short)
    journal = short / "logs" / "rotation-1.jsonl"
    lines = _lines(journal)
    journal.write_text("".join(lines[:10]) + lines[10][:20])
    torn = tmp_path / "torn"  # a replay killed while it wrote its last record
    shutil.copytree(tmp_path / "r", torn)
    lines = _lines(torn / "logs" / "rotation-0.jsonl")
    (torn / "logs" / "rotation-0.jsonl").write_text("".join(lines[:3]) + lines[3][:15])
    broken = tmp_path / "broken"  # an archive whose hand log is not gzip data
    shutil.copytree(kept, broken)
    (broken / "logs" / "rotation-0.log.gz").write_bytes(b"not gzip")
    x = str(tmp_path / "x")
    for args, message in [
        ((str(kept), "--replayed", str(tmp_path / "r")), "seed 42 where"),
        ((str(other), "--replayed", str(tmp_path / "swapped")), "agents ['call', 'random']"),
        ((str(other), "--replayed", str(torn)), "holds 3 whole journal records and 4 hands"),
        ((str(short), "--deals", "11", "--out", x), "holds 10 deals in every seating"),
        ((str(short), "--replayed", str(tmp_path / "r12")),
         "seating 1 holds 10 deals whole; expected at least the replay's 12"),
        ((str(broken), "--deals", "4", "--out", x), "rotation-0.log"),
        ((str(kept), "--deals", "0", "--out", x), "--deals 0: expected"),
        ((str(kept), "--deals", "4", "--out", str(tmp_path / "r")), "exists; expected a new"),
        ((str(kept), "--deals", "4", "--out", x, "--code", str(tmp_path)),
         "no checkraise/__init__.py"),
        ((str(tmp_path / "none"), "--deals", "4", "--out", x),
         "no match.json in " + str(tmp_path / "none" / "logs")),
    ]:
        done = _run("replay_check.py", *args)
        assert done.returncode == 2 and message in done.stderr, (args, done.stderr)
    assert not (tmp_path / "x").exists()
