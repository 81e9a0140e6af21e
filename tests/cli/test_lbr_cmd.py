"""``checkraise lbr``: the JSON figure, the text report and errors on bad options."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checkraise.cli.main import main


def test_json_reports_the_exact_always_fold_figure(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["lbr", "checkfold", "--hands", "20", "--actions", "fcpa", "--streets", "turn,river",
            "--seed", "4", "--workers", "1", "--json"]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["mbb_per_game"] == {"mean": 750.0, "ci95_low": 750.0, "ci95_high": 750.0,
                                    "n": 20}
    assert data["range_tracking_exact"] is True


def test_text_output_names_the_setting(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lbr", "checkfold", "--hands", "8", "--actions", "fc", "--streets", "all",
                 "--mirror", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "LBR fc@all vs checkfold: 250.0 mbb/game" in out


@pytest.mark.parametrize(("args", "message"), [
    (["--actions", "fcx"], "'fcx'"),
    (["--streets", "turn,rivers"], "'rivers'"),
    (["--hands", "1"], "--hands 1"),
    (["--workers", "-1"], "--workers -1"),
    (["--block", "0"], "--block 0"),
])
def test_bad_options_exit_2_with_the_value(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["lbr", "checkfold", *args]) == 2
    assert message in capsys.readouterr().err


def test_unknown_and_interactive_agents_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lbr", "nosuchbot", "--hands", "2"]) == 2
    assert "nosuchbot" in capsys.readouterr().err
    assert main(["lbr", "human", "--hands", "2"]) == 2


def _lbr(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["lbr", "call", "--block", "10", "--seed", "3", "--workers", "1", "--json",
                 *args]) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


def test_a_killed_run_resumes_to_the_uninterrupted_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    whole = _lbr(capsys, "-n", "200")
    out = tmp_path / "lbr"
    assert _lbr(capsys, "-n", "120", "--out", str(out)) == _lbr(capsys, "-n", "120")
    blocks = out / "blocks.jsonl"
    lines = blocks.read_text().splitlines(keepends=True)
    assert len(lines) == 6 and json.loads((out / "results.json").read_text())["deals"] == 60
    # killed with four blocks written and the fifth cut short
    blocks.write_text("".join(lines[:4]) + lines[4][:40])
    assert _lbr(capsys, "-n", "120", "--out", str(out), "--resume")["mbb_per_game"] == \
        json.loads((out / "results.json").read_text())["mbb_per_game"]
    # the cut line was ended, not joined to the next: 4 kept, 1 cut, 2 played again
    lines = blocks.read_text().splitlines()
    assert len(lines) == 7 and sum(1 for line in lines if line.startswith('{"item"')) == 7
    json.loads(lines[-1])
    # more hands: only the new blocks are played, and the result is the longer run's
    assert _lbr(capsys, "-n", "200", "--out", str(out), "--resume") == whole
    assert len(blocks.read_text().splitlines()) == 7 + 4
    # fewer: the shorter run's figure from the blocks already there, none played
    assert _lbr(capsys, "-n", "80", "--out", str(out), "--resume") == _lbr(capsys, "-n", "80")
    assert len(blocks.read_text().splitlines()) == 7 + 4


def test_an_lbr_folder_is_resumed_only_by_the_same_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "lbr"
    _lbr(capsys, "-n", "20", "--out", str(out))
    before = (out / "blocks.jsonl").read_text()
    for args, message in [
        (["-n", "20", "--out", str(out)], "--resume goes on with it"),
        (["-n", "20", "--out", str(out), "--resume", "--seed", "4"],
         "its run differs (seed 3 there, 4 here)"),
        (["-n", "20", "--out", str(out), "--resume", "--force"], "choose one"),
        (["-n", "20", "--resume"], "--resume needs --out"),
        (["-n", "20", "--out", str(tmp_path / "none"), "--resume"], "no readable run.json"),
    ]:
        assert main(["lbr", "call", "--block", "10", "--seed", "3", "--workers", "1",
                     *args]) == 2, args
        assert message in capsys.readouterr().err, args
    assert (out / "blocks.jsonl").read_text() == before
    assert _lbr(capsys, "-n", "20", "--out", str(out), "--force")["deals"] == 10
