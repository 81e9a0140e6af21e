"""``checkraise abstraction bucket|show|build`` through the CLI's main()."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checkraise.cards import parse_cards
from checkraise.cli.main import main
from tests.naive import naive_next_street, naive_river_ehs


def test_bucket_json_river(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["abstraction", "bucket", "default", "AsKd", "Qh7c2s3d5h", "--json"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["street"] == "river"
    assert 0 <= rec["bucket"] < 200
    want = naive_river_ehs(parse_cards("As Kd"), parse_cards("Qh 7c 2s 3d 5h"))
    assert rec["ehs"] == float(want)
    assert isinstance(rec["index"], int)


def test_bucket_json_turn_features(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["abstraction", "bucket", "default", "7h7d", "Qh7c2s3d", "--json"]) == 0
    rec = json.loads(capsys.readouterr().out)
    ehs, ehs2, hist = naive_next_street(parse_cards("7h 7d"), parse_cards("Qh 7c 2s 3d"), 32)
    assert rec["street"] == "turn"
    assert rec["ehs"] == float(ehs)
    assert rec["ehs2"] == float(ehs2)
    assert rec["hist"] == hist


def test_bucket_text_preflop(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["abstraction", "bucket", "default", "AsKd"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("preflop As Kd | -: index")
    assert "ehs: 0.65" in out  # AKo against a random hand: 65.3 %


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["bucket", "default", "AsKx", ""], "Kx"),
        (["bucket", "default", "AsKd", "Qh7c"], "expected 0, 3, 4 or 5"),
        (["bucket", "default", "AsKd", "AsQh7c"], "share a card"),
        (["bucket", "no-such-file.npz", "AsKd"], "does not exist"),
        (["build", "--buckets", "169,200", "--out", "x.npz"], "expected 4"),
        (["build", "--method", "kmeans", "--out", "x.npz"], "unknown method 'kmeans'"),
        (["build", "--sample", "50", "--out", "x.npz"], "sample 50 is smaller"),
        (["build", "--bins", "1", "--out", "x.npz"], "bins 1 out of range"),
        (["build", "--out", "no/such/dir/x.npz"], "does not exist"),
    ],
)
def test_bad_input_exits_2(args: list[str], named: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["abstraction", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("checkraise: error:")
    assert named in err


def test_show_json_and_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    png = tmp_path / "b.png"
    assert main(["abstraction", "show", "default", "--out", str(png), "--json"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert png.stat().st_size > 10_000
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    sizes = rec["sizes"]
    assert sum(sizes["preflop"]) == 169
    assert sum(sizes["flop"]) == 1_286_792
    assert sum(sizes["turn"]) == 13_960_050
    assert sum(sizes["river"]) == 123_156_254
    q = rec["header"]["quality"]
    assert set(q) == {"preflop", "flop", "turn", "river"}
    assert q["turn"]["emd_mean"] < q["turn"]["baseline_emd_mean"]


def test_a_foreign_work_index_is_named_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (work / "features.json").write_text("not json")
    code = main(["abstraction", "build", "--out", str(tmp_path / "a.npz"), "--work", str(work)])
    err = capsys.readouterr().err
    assert code == 2 and "features.json is not the feature index" in err
    assert sorted(p.name for p in work.iterdir()) == ["features.json"]
    assert not (tmp_path / "a.npz").exists()
