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


def test_archived_logs_count_only_when_asked_and_are_named_as_the_logs(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "rotation-1.log").write_text("")
    (logs / "rotation-0.log.gz").write_bytes(b"")
    (logs / "rotation-2.log.gzx").write_bytes(b"")  # neither a log nor its archive
    assert [p.name for p in match_logs(tmp_path, "log")] == ["rotation-1.log"]
    assert match_logs(tmp_path, "log", archived=True) == [logs / "rotation-0.log",
                                                          logs / "rotation-1.log"]
    (logs / "rotation-1.log").unlink()
    with pytest.raises(OutFolderError, match=r"no logs/rotation-\*\.log; expected"):
        match_logs(tmp_path, "log")
    with pytest.raises(OutFolderError, match=r"no logs/rotation-\*\.txt \(nor \.gz\)"):
        match_logs(tmp_path, "txt", archived=True)
    (logs / "rotation-0.log").write_text("")  # a log and its archive: one rotation
    assert match_logs(tmp_path, "log", archived=True) == [logs / "rotation-0.log"]
    (logs / "rotation-00.log").write_text("")  # another name for rotation 0
    with pytest.raises(OutFolderError, match=r"rotation-0.log and logs/rotation-00.log are "
                                             r"both rotation 0's; expected one log"):
        match_logs(tmp_path, "log")
