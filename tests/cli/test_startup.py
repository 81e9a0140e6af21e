"""Start-up and help of the ``checkraise`` command: light imports, readable help, --version."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from checkraise.cli.main import COMMAND_MODULES, app, main

ROOT = Path(__file__).resolve().parents[2]

# Modules that only commands doing real work may load: numba's JIT, the evaluator's
# tables (built at import), the equity and solver kernels, matplotlib and rich.
HEAVY = (
    "numba",
    "llvmlite",
    "scipy",
    "matplotlib",
    "rich",
    "checkraise.evaluator",
    "checkraise.ranges",
    "checkraise.games",
    "checkraise.evaluator._tables",
    "checkraise.equity",
    "checkraise.solvers",
    "checkraise.arena",
    "checkraise.protocol",
    "checkraise.opponents",
    "checkraise.tuning",
    "checkraise.histories",
    "checkraise.abstraction.abstraction",
    "checkraise.abstraction.features",
    "ray",
    "checkraise.backend",
    "starlette",
    "uvicorn",
    "checkraise.web",
)


def _commands() -> list[list[str]]:
    """Every command path, e.g. ``["eval"]`` and ``["acpc", "dealer"]``."""
    out: list[list[str]] = []
    for info in app.registered_commands:
        assert info.name is not None
        out.append([info.name])
    for group in app.registered_groups:
        assert group.name is not None and group.typer_instance is not None
        out.append([group.name])
        for info in group.typer_instance.registered_commands:
            assert info.name is not None
            out.append([group.name, info.name])
    return out


def _loaded_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``code``."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    script = code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env=env, timeout=120, check=True)
    return set(json.loads(run.stdout.strip().splitlines()[-1]))


def test_loading_an_abstraction_needs_neither_the_features_nor_the_builder() -> None:
    loaded = _loaded_after("import checkraise.abstraction as a\na.Abstraction.load('default')")
    assert "checkraise.abstraction.abstraction" in loaded
    assert not loaded & {"checkraise.abstraction.features", "checkraise.abstraction.build",
                         "checkraise.abstraction.clustering"}


def test_importing_the_cli_loads_no_heavy_module() -> None:
    loaded = _loaded_after("import checkraise.cli.main")
    assert "checkraise.cli.eval_cmd" in loaded  # the commands did register
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))


@pytest.mark.parametrize("module", COMMAND_MODULES)
def test_every_command_module_imports_on_its_own(module: str) -> None:
    # each in a fresh interpreter, first: a command module that imports another one
    # (demo takes tournament's standings) must not meet it half-initialised
    assert module in _loaded_after(f"import {module}")


def test_help_of_every_command_loads_no_heavy_module() -> None:
    paths = [[], *_commands()]
    code = (
        "import contextlib, io\n"
        "from checkraise.cli.main import main\n"
        f"for path in {paths!r}:\n"
        "    with contextlib.redirect_stdout(io.StringIO()):\n"
        "        assert main([*path, '--help']) == 0, path\n"
    )
    loaded = _loaded_after(code)
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))


def test_help_loads_not_even_numpy() -> None:
    # --help then costs what the peer of benchmarks/bench_startup.py costs. A help text
    # computed at import (a list of names) must not import the library to get it.
    loaded = _loaded_after(
        "import contextlib, io\n"
        "from checkraise.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    assert main(['--help']) == 0\n"
    )
    assert "numpy" not in loaded
    assert "checkraise.engine.state" not in loaded


def test_import_checkraise_is_light_and_names_load_on_use() -> None:
    loaded = _loaded_after("import checkraise")
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))
    loaded = _loaded_after(
        "from checkraise import evaluate, Range\n"
        "assert evaluate('As Ks Qs Js Ts 2c 3d') == 7462\n"
        "assert Range('AA').weighted_combos == 6"
    )
    assert "numba" in loaded


def test_public_names_resolve() -> None:
    import checkraise

    for name in checkraise.__all__:
        assert getattr(checkraise, name) is not None, name
        assert name in dir(checkraise)
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        _ = checkraise.nonsense


def test_written_out_names_match_the_library() -> None:
    from checkraise.cli import solve_cmd
    from checkraise.games import GAME_NAMES
    from checkraise.solvers import ALGORITHMS

    assert solve_cmd.ALGORITHM_NAMES == ALGORITHMS
    assert solve_cmd.GAME_NAMES == GAME_NAMES
    from checkraise.cli import blueprint_cmd
    from checkraise.games.holdem import PRESETS

    assert tuple(PRESETS) == blueprint_cmd.PRESET_NAMES


def test_play_help_lists_every_agent_but_the_human() -> None:
    from checkraise.agents.base import agent_help
    from checkraise.cli import play_cmd

    assert agent_help().replace("human, ", "") == play_cmd.OPPONENT_NAMES


def _help(path: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main([*path, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Usage: checkraise")
    return out


# One word alone on a line (a wrapped sentence's last word, a "[required]" pushed down),
# other than a section title ("Options:") or an option without help ("--x").
LONE_WORD = re.compile(r"^\s*(?!-)\S+(?<!:)\s*$")


@pytest.mark.parametrize("path", [[], *_commands()], ids=lambda p: " ".join(p) or "checkraise")
def test_help_reads_well_at_100_columns(
    path: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    text = _help(path, capsys)
    assert "<bool>" not in text
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 100
    lone = [line for line in lines if LONE_WORD.match(line)]
    assert not lone, lone


def test_flags_read_as_name_and_help(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    text = _help(["equity"], capsys)
    assert re.search(r"^  --json +Print machine-readable JSON\.$", text, re.MULTILINE)
    assert re.search(r"^  --exact +Enumerate every deal\.$", text, re.MULTILINE)


def test_help_uses_the_terminal_width(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The tune command's description is one paragraph of three source lines: the help
    # rewraps it to the terminal, so a wide terminal shows it on fewer, longer lines.
    widths = {}
    for columns in (60, 120):
        monkeypatch.setenv("COLUMNS", str(columns))
        lines = _help(["tune"], capsys).splitlines()
        start = next(k for k, line in enumerate(lines) if line.startswith("  One parameter"))
        para = lines[start : lines.index("", start)]
        widths[columns] = (len(para), max(len(line) for line in para))
        assert widths[columns][1] <= columns
    assert widths[120][0] < widths[60][0]
    assert widths[120][1] > 60


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    expected = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"checkraise {expected}\n"
