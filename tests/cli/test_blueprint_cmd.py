"""``checkraise blueprint train`` on the tiny preset (stacks 400, a second or two a run)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from tests.cli_helpers import PNG_SIGNATURE
from tests.cli_helpers import bad_cli as _bad
from tests.cli_helpers import run_cli as _run

from checkraise.cli.main import main
from checkraise.solvers.blueprint import Blueprint, BlueprintTrainer
from checkraise.solvers.blueprint_run import RUN_FILES

# --no-river-table: building the river table of every class takes ~30 s
TINY = ["blueprint", "train", "--preset", "tiny", "--stack", "400", "--no-river-table"]




@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("bp") / "run"
    assert main([*TINY, "--iterations", "20000", "--seed", "3", "--out", str(out)]) == 0
    return out


def test_train_writes_the_four_files(run: Path) -> None:
    assert sorted(p.name for p in run.iterdir()) == sorted(RUN_FILES)
    assert (run / "progress.png").read_bytes().startswith(PNG_SIGNATURE)
    trainer = BlueprintTrainer.load(run / "checkpoint.npz")
    assert trainer.iteration == 20_000 and trainer.seed == 3 and trainer.threads == 1
    assert trainer.game.rules.stack == 400 and trainer.game.actions.name == "tiny"
    assert trainer.game.cards.buckets == (169, 200, 200, 200)  # the shipped abstraction
    bp = Blueprint.load(run / "blueprint.npz")
    assert np.abs(bp.strategy - trainer.average_strategy()).max() <= 1 / 65535
    assert bp.header["command"].startswith("checkraise blueprint train --out")
    rows = [json.loads(line) for line in (run / "progress.jsonl").read_text().splitlines()]
    assert rows[-1]["iteration"] == 20_000
    assert 0 < rows[-1]["touched"] <= rows[-1]["infosets"] == trainer.num_infosets


def test_refuses_to_overwrite_without_force(
    run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = {p.name: p.read_bytes() for p in run.iterdir()}
    line = _bad([*TINY, "--iterations", "100", "--out", str(run)], capsys)
    assert "holds results of an earlier `checkraise blueprint train`" in line
    assert "--force" in line
    # a bad option with --force is refused before the earlier run is removed
    line = _bad([*TINY, "--iterations", "100", "--preset", "huge", "--force", "--out",
                 str(run)], capsys)
    assert "unknown action abstraction 'huge'" in line
    line = _bad([*TINY, "--iterations", "100", "--stack", "50", "--force", "--out", str(run)],
                capsys)
    assert "stack=50" in line
    line = _bad([*TINY, "--iterations", "100", "--threads", "0", "--force", "--out", str(run)],
                capsys)
    assert "threads=0" in line
    assert {p.name: p.read_bytes() for p in run.iterdir()} == before
    # --force replaces it
    out = tmp_path / "again"
    assert main([*TINY, "--iterations", "300", "--out", str(out)]) == 0
    (out / "mine.txt").write_text("keep")
    code, _, err = _run([*TINY, "--iterations", "200", "--force", "--out", str(out)], capsys)
    assert code == 0, err
    assert BlueprintTrainer.load(out / "checkpoint.npz").iteration == 200
    assert (out / "mine.txt").read_text() == "keep"


def test_resume_continues_to_the_total(
    run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "resumed"
    code, _, err = _run([*TINY, "--iterations", "4000", "--seed", "3", "--out", str(out)],
                        capsys)
    assert code == 0, err
    code, text, err = _run([*TINY, "--iterations", "20000", "--resume", "--out", str(out),
                            "--json"], capsys)
    assert code == 0, err
    figures = json.loads(text)
    assert figures["iteration"] == 20_000 and figures["folder"] == str(out)
    resumed = BlueprintTrainer.load(out / "checkpoint.npz")
    whole = BlueprintTrainer.load(run / "checkpoint.npz")
    # 4,000 is a batch boundary (2,000 a batch), so the run is the uninterrupted one
    assert np.array_equal(resumed.regrets, whole.regrets)
    assert np.array_equal(resumed.sums, whole.sums)
    rows = (out / "progress.jsonl").read_text().splitlines()
    assert [json.loads(r)["iteration"] for r in rows] == [4_000, 20_000]


def test_resume_keeps_the_runs_threads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    whole, part = tmp_path / "whole", tmp_path / "part"
    two = [*TINY, "--threads", "2", "--seed", "5"]
    assert main([*two, "--iterations", "8000", "--out", str(whole)]) == 0
    assert main([*two, "--iterations", "4000", "--out", str(part)]) == 0
    code, _, err = _run([*TINY, "--iterations", "8000", "--resume", "--out", str(part)], capsys)
    assert code == 0, err
    resumed = BlueprintTrainer.load(part / "checkpoint.npz")
    assert resumed.threads == 2
    assert np.array_equal(resumed.regrets, BlueprintTrainer.load(whole / "checkpoint.npz").regrets)


def test_json_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, text, err = _run([*TINY, "--iterations", "500", "--out", str(tmp_path / "j"),
                            "--json"], capsys)
    assert code == 0, err
    figures = json.loads(text)
    assert {"iteration", "seconds", "touched", "infosets", "regret_proxy", "folder"} <= set(
        figures
    )
    assert figures["iteration"] == 500
    assert "checkpoint:" not in err  # --json: no progress lines


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        (["--hours", "0", "--out", "X"], "training time 0.0 s; expected > 0"),
        (["--iterations", "0", "--out", "X"], "iterations=0"),
        (["--out", "X"], "needs --hours or --iterations"),
        (["--iterations", "5", "--preset", "nope", "--out", "X"],
         "unknown action abstraction 'nope'"),
        (["--iterations", "5", "--resume", "--out", "X"], "--resume:"),
        (["--iterations", "5", "--backend", "cloud", "--out", "X"], "invalid --backend 'cloud'"),
        (["--iterations", "5", "--seed", "-1", "--out", "X"], "invalid --seed -1"),
        (["--iterations", "5", "--checkpoint-minutes", "0", "--out", "X"], "checkpoint every"),
    ],
)
def test_bad_values_exit_2_with_one_line(
    extra: list[str], named: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [*TINY, *[str(tmp_path / "out") if a == "X" else a for a in extra]]
    line = _bad(argv, capsys)
    assert named in line, line
    assert not (tmp_path / "out").exists()  # nothing written


def test_resume_of_a_damaged_checkpoint_touches_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "dmg"
    assert main([*TINY, "--iterations", "300", "--out", str(out)]) == 0
    capsys.readouterr()
    data = (out / "checkpoint.npz").read_bytes()
    (out / "checkpoint.npz").write_bytes(data[:-100])
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    line = _bad([*TINY, "--iterations", "600", "--resume", "--out", str(out)], capsys)
    assert str(out / "checkpoint.npz") in line
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, text, _ = _run(["blueprint", "train", "--help"], capsys)
    assert code == 0
    for flag in ("--preset", "--hours", "--iterations", "--resume", "--force", "--threads",
                 "--backend", "--json", "--out"):
        assert flag in text
    code, text, _ = _run(["blueprint", "--help"], capsys)
    assert code == 0 and "train" in text


# -- pack


def test_pack_writes_uint8_steps_within_one_step(
    run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "packed.npz"
    code, text, err = _run(["blueprint", "pack", str(run), "--out", str(out), "--json"], capsys)
    assert code == 0, err
    figures = json.loads(text)
    assert figures["steps"] == 255 and figures["bytes"] == out.stat().st_size
    assert figures["source"] == str(run / "blueprint.npz")
    source, packed = Blueprint.load(run / "blueprint.npz"), Blueprint.load(out)
    change = float(np.abs(packed.strategy - source.strategy).max())
    assert 0 < change < 1 / 255 and figures["max_error"] == pytest.approx(change)
    # the training command stays; the packing command is added
    assert packed.header["command"] == source.header["command"]
    assert packed.header["packed_by"].startswith("checkraise blueprint pack")
    with np.load(out) as z:
        assert z["strategy"].dtype == np.uint8
    # an existing --out is refused and left as it was; --force replaces it
    before = out.read_bytes()
    line = _bad(["blueprint", "pack", str(run), "--out", str(out), "--steps", "65535"], capsys)
    assert "exists" in line and "--force" in line
    assert out.read_bytes() == before
    code, _, err = _run(["blueprint", "pack", str(run), "--out", str(out), "--steps", "65535",
                         "--force"], capsys)
    assert code == 0, err
    assert np.abs(Blueprint.load(out).strategy - source.strategy).max() < 1e-6


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        (["--steps", "100"], "invalid --steps 100: expected one of 255, 65535"),
        (["--out", "/nonexistent/folder/bp.npz"], "folder /nonexistent/folder does not exist"),
    ],
)
def test_pack_refuses_bad_values(
    run: Path, extra: list[str], named: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = _bad(["blueprint", "pack", str(run), "--out", str(tmp_path / "p.npz"), *extra], capsys)
    assert named in line, line
    assert not (tmp_path / "p.npz").exists()
    line = _bad(["blueprint", "pack", str(tmp_path / "none"), "--out", str(tmp_path / "p.npz")],
                capsys)
    assert "no such file" in line


# -- show


def test_show_preflop_root_and_the_reach_behind_an_open(
    run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from checkraise.abstraction import Abstraction
    from checkraise.cards import parse_cards

    bp = Blueprint.load(run / "blueprint.npz")
    ab = Abstraction.load("default")
    tree = bp.game.tree
    code, out, err = _run(["blueprint", "show", str(run), "--out", str(tmp_path / "root.png"),
                           "--json"], capsys)
    assert code == 0, err
    data = json.loads(out)
    assert data["actor"] == 0 and data["line"] == ""
    labels = [tree.action_token(c) for c in tree.children(0)]
    assert data["actions"] == ["f" if t == "f" else t for t in labels]
    aa = next(r for r in data["classes"] if r["class"] == "AA")
    row = bp.row(0, ab.bucket(0, parse_cards("As Ah")))  # a preflop bucket per class
    assert [aa["strategy"][a] for a in data["actions"]] == pytest.approx(row.tolist(), abs=1e-6)
    assert sum(data["frequencies"].values()) == pytest.approx(1.0)
    assert (tmp_path / "root.png").read_bytes().startswith(PNG_SIGNATURE)
    # on the flop after the open to 200 (tiny's open, 2 big blinds) and the call, the big blind
    # acts first: his class weighs its combos times his probability of that call with it
    # (the grid shows the actor's own range, as the spot solver's does)
    code, out, err = _run(["blueprint", "show", str(run), "--line", "r200c", "--board", "2c3d4h",
                           "--out", str(tmp_path / "flop.png"), "--json"], capsys)
    assert code == 0, err
    data = json.loads(out)
    assert data["actor"] == 1 and data["line"] == "r200c/"
    node = tree.find("r200")
    k = [tree.action_token(c) for c in tree.children(node)].index("c")
    for name, text, combos in (("AA", "As Ah", 6), ("KQo", "Ks Qh", 12), ("T9s", "Ts 9s", 4)):
        got = next((r["combos"] for r in data["classes"] if r["class"] == name), 0.0)
        want = combos * float(bp.row(node, ab.bucket(0, parse_cards(text)))[k])
        assert got == pytest.approx(want, rel=1e-5, abs=1e-9)


@pytest.mark.parametrize(
    ("extra", "fragment"),
    [
        (["--line", "r200c"], "expected 3 distinct cards"),  # a flop line needs its board
        (["--line", "r200c", "--board", "AsKsKs"], "card Ks given twice"),
        (["--line", "r200c", "--board", "AsKs"], "expected 3 distinct cards"),
        (["--line", "r333"], "is not in the tiny betting tree"),
        (["--line", "f"], "ends the hand"),
    ],
)
def test_show_refuses_bad_lines_and_boards(
    run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], fragment: str
) -> None:
    line = _bad(["blueprint", "show", str(run), "--out", str(tmp_path / "x.png"), *extra], capsys)
    assert fragment in line
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("signum", ["SIGTERM", "SIGINT"])
def test_a_signal_stops_a_background_run_with_its_work_checkpointed(
    tmp_path: Path, signum: str
) -> None:
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "run"
    # start_new_session: like a job started with `nohup ... &`, no terminal to send Ctrl-C;
    # a background job of a shell also starts with SIGINT ignored, which the run undoes
    proc = subprocess.Popen(
        [sys.executable, "-m", "checkraise.cli.main", *TINY, "--iterations", "1000000000",
         "--checkpoint-minutes", "600", "--out", str(out)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not out.exists():
            time.sleep(0.2)  # the folder is made when training starts
        time.sleep(4)
        proc.send_signal(getattr(signal, signum))
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    trainer = BlueprintTrainer.load(out / "checkpoint.npz")
    assert trainer.iteration > 0
    assert Blueprint.load(out / "blueprint.npz").strategy.shape == (trainer.num_entries,)


def test_bad_ray_options_with_force_leave_the_earlier_run(
    run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import shutil

    pytest.importorskip("ray")  # the ray backend is an optional extra
    copy = tmp_path / "run"
    shutil.copytree(run, copy)
    before = {p.name: p.read_bytes() for p in copy.iterdir()}
    for extra, named in (
        (["--workers", "-1"], "-1"),
        (["--workers", "0"], "workers=0"),
        (["--address", " "], "invalid address"),
    ):
        line = _bad([*TINY, "--iterations", "100", "--backend", "ray", *extra, "--force",
                     "--out", str(copy)], capsys)
        assert named in line
    assert {p.name: p.read_bytes() for p in copy.iterdir()} == before


def test_the_blueprint_argument_help_names_every_shipped_blueprint() -> None:
    from checkraise.agents.blueprint import SHIPPED
    from checkraise.cli.blueprint_cmd import BLUEPRINT_HELP

    named = BLUEPRINT_HELP.rpartition(":")[2].rstrip(".").replace(" ", "").split(",")
    assert sorted(named) == sorted(SHIPPED)
