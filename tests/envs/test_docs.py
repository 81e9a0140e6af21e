"""The README's environment section runs as written, and docs/envs.md matches the code."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

from checkraise.envs.config import EnvConfig
from checkraise.envs.encoding import FIELDS, ObservationLayout

ROOT = Path(__file__).resolve().parents[2]
TITLE = "## Reinforcement-learning environments"


def _section(text: str, title: str) -> str:
    section = text[text.index(title):]
    return section[: section.find("\n## ", 1)]


def test_the_readme_baseline_runs_and_prints_what_the_readme_says() -> None:
    section = _section((ROOT / "README.md").read_text(encoding="utf-8"), TITLE)
    code = section[section.index("```python\n") + 10:]
    code = code[: code.index("```")]
    claimed = re.search(r"It prints `([^`]+)`", section)
    assert claimed is not None
    out = io.StringIO()
    namespace: dict[str, object] = {"__name__": "readme_example"}
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), namespace)
    assert out.getvalue().strip() == claimed.group(1)
    before, after = namespace["before"], namespace["after"]
    assert isinstance(before, float) and isinstance(after, float)
    assert after > before + 0.5  # the point of the example: learning beats random play


def test_the_documented_layout_is_the_encoders() -> None:
    text = (ROOT / "docs" / "envs.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \| (\([^)]*\)) \|", _section(text, "## Observation"),
                      re.MULTILINE)
    assert [name for name, _ in rows] == list(FIELDS)
    layout = ObservationLayout(6, 7, 100)
    for name, shape in rows:
        spelled = shape.replace("H", "7").replace("n + 10", "16").replace("n", "6")
        assert eval(spelled) == layout.shapes[name], name  # e.g. "(4, 4, 13)", "(6,)"
    for n, rows_, size in ((2, 216, 2824), (6, 696, 11392)):  # the sizes the page quotes
        config = EnvConfig(num_players=n)
        assert config.history_rows == rows_
        assert ObservationLayout.of(config).size == size == 3 + 208 + 4 + 6 * n + 5 + rows_ * (
            n + 10)
        assert f"{rows_} rows of {n + 10} (a vector of {size:,}" in text or (
            f"{rows_} rows of {n + 10} ({size:,})" in text)
