"""``checkraise lbr``: the JSON figure, the text report and errors on bad options."""

from __future__ import annotations

import json

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
