"""Running the CLI in-process in tests: its exit status and what it printed."""

from __future__ import annotations

import pytest

from checkraise.cli.main import main

#: The first bytes of every PNG file.
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``(exit status, stdout, stderr)`` of ``checkraise ARGV``."""
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def bad_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run a command that must fail on its input: exit 2 and one line on stderr (returned)."""
    code, _, err = run_cli(argv, capsys)
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("checkraise: error: "), err
    return lines[0]
