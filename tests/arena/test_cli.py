"""`checkraise match` and `checkraise tournament` from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checkraise.cli.main import main


def test_match_json_and_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "m"
    code = main(["match", "call", "call", "--hands", "30", "--seed", "1", "--workers", "1",
                 "--json", "--out", str(out)])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rotations"] == 2 and data["hands_played"] == 60
    assert [p["name"] for p in data["players"]] == ["call", "call#2"]
    assert data["players"][0]["mbb_per_hand"]["mean"] == 0.0
    for name in ("results.json", "report.md", "mbb.png", "logs/rotation-0.log",
                 "logs/rotation-1.txt"):
        assert (out / name).stat().st_size > 0
    assert "| call | 0.0 | [0.0, 0.0] | 0 |" in (out / "report.md").read_text()


def test_match_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "raise", "checkfold", "--hands", "20", "--workers", "1",
                 "--blinds", "5/10", "--stack", "1000", "--no-duplicate"]) == 0
    text = capsys.readouterr().out
    # checkfold folds to every raise: it loses its blinds, 5 or 10 a hand, 7.5 on average.
    assert "checkfold" in text and "-750.0 mbb/hand" in text and "x 1 seatings" in text


def test_tournament_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tournament", "--agents", "allin,checkfold", "--repeat", "2", "--hands", "20",
                 "--workers", "1", "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["repetitions"] == 2
    shover, folder = data["players"]
    assert shover["win_rate"] == 1.0 and folder["chips_remaining"]["mean"] == 2000 - 600


def test_tournament_report_and_resume(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["tournament", "-a", "random,call", "-a", "raise", "--repeat", "2", "--hands", "30",
            "--workers", "1", "--out", str(tmp_path), "--no-logs"]
    assert main(args) == 0
    assert "report:" in capsys.readouterr().out
    report = (tmp_path / "report.md").read_text()
    assert "## Rank distribution" in report and "| raise |" in report
    assert main([*args, "--resume", "--repeat", "3"]) == 0
    assert "(2 resumed)" in capsys.readouterr().out
    assert len((tmp_path / "results.jsonl").read_text().splitlines()) == 3


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["match", "call", "nosuchbot", "--hands", "5"], "unknown agent 'nosuchbot'"),
        (["match", "call", "call", "--blinds", "50-100"], "invalid blinds '50-100'"),
        (["match", "call", "--hands", "5"], "invalid number of agents 1"),
        (["tournament", "-a", "call,call", "--resume"], "--resume needs --out"),
        (["tournament", "-a", "call,random:pfold=x"], "agent 'random:pfold=x' could not be built"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    argv: list[str], fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1


def test_demo_runs_a_short_tournament(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--out", str(tmp_path), "--repeat", "2", "--hands", "40",
                 "--workers", "1", "--heads-up", "20"]) == 0
    out = capsys.readouterr().out
    assert "straight flush" in out and f"report: {tmp_path / 'report.md'}" in out
    assert "blueprint: " in out and "(20 deals x 2 seatings)" in out  # the shipped blueprint
    data = json.loads((tmp_path / "results.json").read_text())
    assert [p["name"] for p in data["players"]] == [
        "handreader", "deepfool", "heuristic", "equity", "call", "random"
    ]
    assert (tmp_path / "chip_trend.png").stat().st_size > 0


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["tournament", "-a", "call,call", "--repeat", "-1"], "invalid --repeat -1"),
        (["tournament", "-a", "call,call", "--repeat", "0"], "invalid --repeat 0"),
        (["tournament", "-a", "call,call", "--workers", "-1"], "invalid --workers -1"),
        (["tournament", "-a", "call,call", "--hands", "-5"], "invalid max_hands -5"),
        (["tournament", "-a", "call,call", "--chips", "0"], "invalid starting_chips 0"),
        (["tournament", "-a", "call,call", "--rebuys", "-1"], "invalid rebuys -1"),
        (["tournament", "-a", "call,call", "--blinds", "40/20"], "blind"),
        (["tournament", "-a", "human,call"], "the human seat plays only in `checkraise play`"),
        (["tournament", "-a", "call,call", "--out", "x", "--resume", "--force"], "choose one"),
        (["match", "call", "call", "--hands", "-5"], "invalid hands -5"),
        (["match", "call", "call", "--workers", "-2"], "invalid --workers -2"),
        (["match", "call", "call", "--stack", "0"], "invalid stack 0"),
        (["match", "human", "call"], "the human seat plays only in `checkraise play`"),
        (["match", "call", "call", "--seed", "-1"], "invalid --seed -1"),
        (["tournament", "-a", "call,call", "--seed", "-1"], "invalid --seed -1"),
    ],
)
def test_bad_options_fail_before_any_output(
    argv: list[str], fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    # One line on stderr and nothing else: no progress bar was drawn first.
    assert fragment in captured.err and captured.err.count("\n") == 1, captured.err
    assert captured.out == ""


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_tournament_out_folder_is_never_mixed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    base = ["tournament", "-a", "call,checkfold", "--hands", "20", "--workers", "1",
            "--out", str(out), "--json"]
    assert main([*base, "--repeat", "3"]) == 0
    (out / "notes.txt").write_text("mine")  # a user's own file in the run's folder
    first = _snapshot(out)
    assert "logs/rep-0002.log" in first
    for argv, fragment in [
        ([*base, "--repeat", "3", "--seed", "9"], "another configuration or seed"),
        ([*base, "--repeat", "2"], "this configuration and seed"),
        ([*base, "--repeat", "2", "--resume"], "finished repetition(s) up to 2"),
        ([*base, "--repeat", "2", "--seed", "9", "--resume"], "cannot resume"),
    ]:
        capsys.readouterr()
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert fragment in err and err.count("\n") == 1, err
        assert _snapshot(out) == first  # refused: every byte as it was
    capsys.readouterr()
    assert main([*base, "--repeat", "2", "--force"]) == 0
    after = _snapshot(out)
    # The earlier run's files are replaced; its third repetition's logs do not linger.
    assert "logs/rep-0002.log" not in after and "logs/rep-0001.txt" in after
    assert after["notes.txt"] == b"mine"
    assert len((out / "results.jsonl").read_text().splitlines()) == 2


def test_tournament_refuses_a_non_empty_folder_that_is_not_a_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "report.md").write_text("my own report")
    for extra in ([], ["--force"], ["--resume"]):
        assert main(["tournament", "-a", "call,call", "--hands", "10", "--workers", "1",
                     "--out", str(tmp_path), *extra]) == 2
        err = capsys.readouterr().err
        assert "holds no tournament run" in err and err.count("\n") == 1, err
    assert _snapshot(tmp_path) == {"report.md": b"my own report"}


def test_match_out_keeps_an_earlier_match_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = ["match", "call", "raise", "--hands", "10", "--workers", "1", "--json",
           "--out", str(tmp_path)]
    assert main([*run, "--seed", "1"]) == 0
    (tmp_path / "notes.txt").write_text("mine")
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    capsys.readouterr()
    assert main([*run, "--seed", "2"]) == 2
    err = capsys.readouterr().err
    assert "holds results of an earlier `checkraise match`" in err and "--force" in err
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before
    assert main([*run, "--seed", "2", "--force"]) == 0
    second = json.loads(capsys.readouterr().out)
    assert json.loads((tmp_path / "results.json").read_text()) == second
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_a_whole_match_and_tournament_import_with_every_hand(tmp_path: Path) -> None:
    # Every rotation (repetition) deals its hands from 0; numbered from 0 in the logs,
    # the database (keyed by hand number) kept one rotation's hands and called the rest
    # "already present". Each part now has numbers of its own, in both log formats.
    from checkraise.histories.database import open_database
    from checkraise.histories.importer import import_files
    from checkraise.protocol.gamedef import parse_gamedef
    from checkraise.protocol.standard import STANDARD_GAMES

    match, tour = tmp_path / "m", tmp_path / "t"
    assert main(["match", "call", "raise", "--hands", "15", "--seed", "4", "--workers", "1",
                 "--out", str(match)]) == 0
    assert main(["tournament", "-a", "call,raise,checkfold", "--repeat", "3", "--hands", "12",
                 "--seed", "4", "--workers", "1", "--out", str(tour)]) == 0
    game = parse_gamedef(STANDARD_GAMES[(2, "nolimit")])  # the match's table: 20,000, 50/100
    for pattern in ("rotation-*.txt", "rotation-*.log"):
        db = open_database(tmp_path / f"{pattern[-3:]}.db")
        files = sorted((match / "logs").glob(pattern))
        reports = import_files(db, files, game=game)
        assert [r.error for r in reports] == [None, None]
        assert [r.added for r in reports] == [15, 15]
        # the same files again add nothing
        assert sum(r.added for r in import_files(db, files, game=game)) == 0
    db = open_database(tmp_path / "tour.db")
    reports = import_files(db, sorted((tour / "logs").glob("rep-*.txt")))
    assert len(reports) == 3
    assert sum(r.added for r in reports) == sum(r.hands for r in reports) > 0
    # another session (another seed) into the same database keeps all its hands too
    other = tmp_path / "t2"
    assert main(["tournament", "-a", "call,raise,checkfold", "--repeat", "2", "--hands", "12",
                 "--seed", "5", "--workers", "1", "--out", str(other)]) == 0
    reports = import_files(db, sorted((other / "logs").glob("rep-*.txt")))
    assert sum(r.added for r in reports) == sum(r.hands for r in reports) > 0
