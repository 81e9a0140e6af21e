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
