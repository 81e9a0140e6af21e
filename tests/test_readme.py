"""The README's tour runs as written: every command of its ``sh`` block exits 0.

The commands run from a folder laid out like a fresh clone (``examples/`` of this
repository, and ``../shared`` beside it holding the shared data, as in CI), through
the CLI's ``main()`` in this process; a line ending in ``&`` runs in a background
process, as the shell would run it. ``*`` is expanded as the shell expands it, and
``play`` reads a quit from its input. One liberty: the two fixed ports of the
dealer/client example become free ports, so that the test never meets a busy one.
"""

from __future__ import annotations

import glob
import io
import os
import shlex
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from checkraise.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
SHARED = ROOT / ".." / "shared"


def tour_commands(text: str, title: str = "## A short tour") -> list[tuple[list[str], bool]]:
    """``(argv after 'checkraise', in background)`` for each command of a section's sh block."""
    section = text[text.index(title):]
    section = section[: section.find("\n## ", 1)]
    block = section[section.index("```sh\n") + 6:]
    block = block[: block.index("```")]
    commands = []
    for line in block.replace("\\\n", " ").splitlines():
        words = shlex.split(line, comments=True)
        if not words:
            continue
        background = words[-1] == "&"
        if background:
            words = words[:-1]
        assert words[0] == "checkraise", line
        commands.append((words[1:], background))
    return commands


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _expand(words: list[str], ports: dict[str, str]) -> list[str]:
    out: list[str] = []
    for word in words:
        if "*" in word:
            matches = sorted(glob.glob(word))
            assert matches, f"{word} matches no file"
            out += matches
        else:
            out.append(ports.get(word, word))
    return out


def test_tour_parses_into_checkraise_commands() -> None:
    commands = tour_commands(README.read_text(encoding="utf-8"))
    assert len(commands) >= 15
    names = {words[0] for words, _ in commands}
    assert {"eval", "equity", "match", "tournament", "play", "solve", "acpc", "hands",
            "predict", "predict-eval", "tune"} <= names
    # No placeholders left (GAMEFILE, HANDFILE, HOST, PORT, N, S, bad.json).
    for words, _ in commands:
        for word in words:
            assert not (word.isupper() and len(word) > 1 and word.isalpha()), words
            assert word != "bad.json"


@pytest.mark.slow
def test_every_tour_command_runs_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (SHARED / "data" / "pluribus").is_dir(), (
        f"the shared data is missing at {SHARED.resolve()}: the README's tour reads it")
    clone = tmp_path / "checkraise"
    clone.mkdir()
    (clone / "examples").symlink_to(ROOT / "examples")
    (tmp_path / "shared").symlink_to(SHARED.resolve())
    monkeypatch.chdir(clone)
    ports = {"18791": str(_free_port()), "18792": str(_free_port())}
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(ROOT / "src"), *filter(None, [os.environ.get("PYTHONPATH")])]))
    background: list[tuple[list[str], subprocess.Popen[str]]] = []
    try:
        for words, in_background in tour_commands(README.read_text(encoding="utf-8")):
            argv = _expand(words, ports)
            if in_background:
                proc = subprocess.Popen(
                    [sys.executable, "-m", "checkraise.cli.main", *argv], cwd=clone, env=env,
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                background.append((argv, proc))
                if argv[:2] == ["acpc", "dealer"]:
                    # As the README says: the dealer prints its ports once it listens.
                    assert proc.stdout is not None
                    assert proc.stdout.readline().split() == list(ports.values())
                continue
            if argv[0] == "play":
                monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
            status = main(argv)
            captured = capsys.readouterr()
            assert status == 0, (argv, captured.err[-2000:])
        for argv, proc in background:
            _, err = proc.communicate(timeout=300)
            assert proc.returncode == 0, (argv, err[-2000:])
    finally:
        for _, proc in background:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
    # What the tour says it makes is there.
    made = clone / "out"
    assert (made / "t1" / "report.md").is_file()
    assert (made / "kuhn" / "exploitability.png").is_file()
    assert (made / "tune" / "profile.json").is_file()
    assert (made / "stats" / "winnings.png").is_file()
    assert list((made / "ranges").glob("range-*.png"))
    db = sqlite3.connect(made / "hands.sqlite")
    assert db.execute("SELECT COUNT(*) FROM hands").fetchone()[0] == 4930
    db.close()
    assert (clone / "acpc-out" / "hosted.log").is_file()


def test_spot_section_runs_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    commands = tour_commands(README.read_text(encoding="utf-8"), "## Solve a postflop spot")
    assert [words[:2] for words, _ in commands] == [
        ["spot", "example"], ["spot", "solve"], ["spot", "show"], ["spot", "solve"]]
    for words, _ in commands:
        status = main(words)
        captured = capsys.readouterr()
        assert status == 0, (words, captured.err[-2000:])
    assert (tmp_path / "out" / "spot" / "solution.npz").is_file()
    assert (tmp_path / "out" / "spot" / "strategy-b25-c-7c.png").is_file()


def test_blueprint_section_runs_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    title = "## The heads-up no-limit blueprint"
    commands = tour_commands(README.read_text(encoding="utf-8"), title)
    assert [words[:2] for words, _ in commands] == [
        ["blueprint", "show"], ["blueprint", "show"], ["match", "blueprint"],
        ["match", "blueprint:adapt=true"], ["blueprint", "train"],
        ["match", "blueprint:file=out/bp"]]
    for words, _ in commands:
        status = main(words)
        captured = capsys.readouterr()
        assert status == 0, (words, captured.err[-2000:])
    assert (tmp_path / "out" / "bb_vs_open.png").is_file()
    assert (tmp_path / "blueprint_r250c.png").is_file()
    assert (tmp_path / "out" / "bp" / "blueprint.npz").is_file()


def test_resolve_section_runs_as_written(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    commands = tour_commands(README.read_text(encoding="utf-8"),
                             "## Re-solving during play: the `resolve` bot")
    assert [words[:2] for words, _ in commands] == [["match", "resolve:mode=unsafe"],
                                                    ["match", "resolve:mode=safe,gadget=maxmargin,"
                                                     "iterations=200"]]
    for words, _ in commands:
        assert main([*words, "--workers", "1"]) == 0, words


def test_browser_section_serves_as_written(tmp_path: Path) -> None:
    """``serve`` runs until stopped: it is started on a free port, asked for the table, stopped."""
    import time
    import urllib.request

    commands = tour_commands(README.read_text(encoding="utf-8"), "## Play in the browser")
    assert [words[0] for words, _ in commands] == ["serve"]
    (tmp_path / "out").mkdir()  # where the sections above put their results
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(ROOT / "src"), *filter(None, [os.environ.get("PYTHONPATH")])]))
    for words, _ in commands:
        port = _free_port()
        proc = subprocess.Popen(
            [sys.executable, "-m", "checkraise.cli.main", *words, "--port", str(port)],
            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert proc.stdout is not None
            assert proc.stdout.readline().startswith(f"serving on http://127.0.0.1:{port}/")
            deadline = time.monotonic() + 30
            while True:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
                        assert "table.js" in r.read().decode()
                    break
                except OSError:
                    assert proc.poll() is None and time.monotonic() < deadline
                    time.sleep(0.1)
        finally:
            proc.terminate()
            _, err = proc.communicate(timeout=30)
        assert "Traceback" not in err, err
    assert (tmp_path / "out" / "web-hands.sqlite").is_file()
