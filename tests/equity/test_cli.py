from __future__ import annotations

import json

import pytest

from checkraise.cli.main import main


def test_equity_command_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["equity", "AsKs", "QhQd", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["method"] == "exact" and out["samples"] == 1_712_304
    assert out["players"][0]["equity"] == pytest.approx(0.46214, abs=1e-5)


def test_equity_command_table_and_players(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["equity", "AsKs", "QQ+,AKs", "--board", "Td9d6h"]) == 0
    assert "QQ+,AKs" in capsys.readouterr().out
    args = ["equity", "AhAd", "--players", "4", "--samples", "5000", "--seed", "2", "--json"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert [p["player"] for p in out["players"]] == ["AhAd", "random", "random", "random"]
    assert sum(p["equity"] for p in out["players"]) == pytest.approx(1.0)


def test_range_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["range", "QQ+,AKs", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["combos"] == 22 and out["percent"] == pytest.approx(100 * 22 / 1326)
    assert main(["range", "AA", "--board", "As"]) == 0
    assert "3 combos" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [
        ["range", "QQ+,AKx"],
        ["range", ""],
        ["range", " , "],
        ["equity", "AsKs", "QQ", "--board", "2d3c"],
        ["equity", "AsKs", ""],
        ["equity", "AsKs", "AsQd"],
        ["equity", "AsKs", "QQ", "--board", "2c3c4c5c6c7c"],
        ["equity", "AsKs", "QQ", "--exact", "--samples", "10"],
    ],
)
def test_bad_input_exits_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert capsys.readouterr().err.startswith("checkraise: error:")
