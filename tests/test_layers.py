"""The layer rule of docs/architecture.md: lower layers never import higher ones."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "checkraise"

# Height of each top-level module or package in the layer diagram.
LAYER = {
    "cards": 0, "ranges": 0, "errors": 0, "_numba": 0, "stats": 0, "_lazy": 0, "_npzfile": 0,
    "evaluator": 1, "backend": 1,
    "equity": 2,
    "engine": 3,
    "games": 4, "solvers": 4, "abstraction": 4,
    "nn": 4.5,  # networks and training loops: games and solvers below, agents above
    "agents": 5, "opponents": 5,
    "arena": 6, "protocol": 6, "histories": 6, "tuning": 6, "analysis": 6, "lbr": 6,
    "envs": 6,  # RL environments: the engine below, our agents as opponents
    "web": 7,
    "cli": 7,
}
IMPORT = re.compile(r"^\s*(?:from|import)\s+checkraise\.(\w+)", re.MULTILINE)
NO_NUMBA = ("engine", "protocol", "histories", "cli")


def _modules() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py") if p.parent != SRC or p.stem != "__init__")


def test_every_top_level_module_has_a_layer() -> None:
    tops = {p.relative_to(SRC).parts[0].removesuffix(".py") for p in _modules()}
    assert tops <= set(LAYER), sorted(tops - set(LAYER))


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_no_module_imports_a_higher_layer(path: Path) -> None:
    top = path.relative_to(SRC).parts[0].removesuffix(".py")
    text = path.read_text(encoding="utf-8")
    higher = [m for m in IMPORT.findall(text) if LAYER.get(m, -1) > LAYER[top]]
    assert not higher, f"{path.relative_to(SRC)} ({top}) imports higher layers {higher}"
    if top != "nn":  # PyTorch (the optional extra) is imported by the neural layer only
        assert not re.search(r"^\s*(?:from|import)\s+torch\b", text, re.MULTILINE)
    if top != "envs":  # gymnasium and pettingzoo (the extra envs) are for the environments only
        assert not re.search(r"^\s*(?:from|import)\s+(?:gymnasium|pettingzoo)\b", text,
                             re.MULTILINE)
    if top in NO_NUMBA:
        assert not re.search(r"^\s*(?:from|import)\s+numba\b", text, re.MULTILINE)
