"""A match folder's hand logs, found in rotation order."""

from __future__ import annotations

from pathlib import Path

import pytest

from checkraise.arena.outfolder import OutFolderError, match_logs


def test_match_logs_come_in_rotation_order_and_by_format(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    for k in (10, 2, 0, 1):
        (logs / f"rotation-{k}.log").write_text("")
        (logs / f"rotation-{k}.txt").write_text("")
    (logs / "rotation-x.log").write_text("")  # not a rotation's
    assert [p.name for p in match_logs(tmp_path, "log")] == [
        "rotation-0.log", "rotation-1.log", "rotation-2.log", "rotation-10.log"]
    assert [p.name for p in match_logs(tmp_path, "txt")][-1] == "rotation-10.txt"
    with pytest.raises(OutFolderError, match=r"no logs/rotation-\*\.log; expected the --out"):
        match_logs(tmp_path / "elsewhere", "log")
