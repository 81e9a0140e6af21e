"""How `checkraise` reports errors: one line for bad input, a traceback for our bugs."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from checkraise import evaluator
from checkraise.cli.main import main
from checkraise.errors import CheckraiseError


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().err


def test_bad_input_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _run(["eval", "As", "Kx", "Qs", "Js", "Ts"], capsys)
    assert code == 2
    assert err.startswith("checkraise: error: ") and "'Kx'" in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_missing_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _run(["hands", "import", str(tmp_path / "nope.txt"),
                      "--db", str(tmp_path / "h.sqlite")], capsys)
    assert code == 2 and "nope.txt" in err and "Traceback" not in err


@pytest.mark.parametrize(
    "exc",
    [ValueError("a plain ValueError is a bug of ours"), KeyError("seat"),
     ZeroDivisionError("division by zero"), OSError(errno.EBADF, "bad file descriptor")],
)
def test_an_unexpected_exception_is_reported_as_internal_with_its_traceback(
    exc: Exception, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(*args: object, **kwargs: object) -> int:
        raise exc

    monkeypatch.setattr(evaluator, "evaluate", broken)
    code, err = _run(["eval", "As", "Ks", "Qs", "Js", "Ts"], capsys)
    assert code == 1
    assert err.startswith("checkraise: internal error") and "please report" in err
    assert "Traceback (most recent call last)" in err and type(exc).__name__ in err


@pytest.mark.parametrize(
    "exc",
    [CheckraiseError("bad value 7: expected 1..5"), PermissionError(13, "Permission denied"),
     OSError(errno.ENOSPC, "No space left on device"), ConnectionRefusedError(111, "refused")],
)
def test_errors_of_input_or_machine_are_one_line(
    exc: Exception, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def failing(*args: object, **kwargs: object) -> int:
        raise exc

    monkeypatch.setattr(evaluator, "evaluate", failing)
    code, err = _run(["eval", "As", "Ks", "Qs", "Js", "Ts"], capsys)
    assert code == 2
    assert err == f"checkraise: error: {exc}\n"


@pytest.mark.parametrize(
    "argv",
    [["tune", "--sweeps", "1"], ["play"], ["equity", "AA", "KK", "--samples", "100"], ["demo"],
     ["solve", "kuhn", "--algo", "cs-cfr"], ["abstraction", "build"],
     ["match", "call", "call"], ["tournament", "-a", "call,call"],
     ["acpc", "client", "127.0.0.1", "5000"]],  # acpc dealer/match check 0..2**32-1 themselves
    ids=lambda argv: argv[0],
)
def test_a_negative_seed_is_refused_before_any_work(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    extra = ["--out", str(out / "x.npz")] if argv[0] == "abstraction" else (
        ["--out", str(out)] if argv[0] in ("tune", "demo", "play", "tournament") else [])
    code, err = _run([*argv, *extra, "--seed", "-1"], capsys)
    assert code == 2, err
    assert err == "checkraise: error: invalid --seed -1: expected 0 or more\n"
    assert not out.exists()


def test_library_seeds_are_checked_where_they_are_used() -> None:
    from checkraise.abstraction.build import BuildConfig
    from checkraise.equity import equity

    with pytest.raises(CheckraiseError, match="invalid seed -3"):
        BuildConfig(seed=-3)
    with pytest.raises(CheckraiseError, match="invalid seed -3"):
        equity(["AA", "KK"], method="mc", samples=100, seed=-3)
