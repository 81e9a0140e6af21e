"""A killed match keeps the deals it finished: the journals and `checkraise match --recover`.

The oracle is the match itself: the first ``k`` deals of a match are the whole of a
``k``-deal match with the same seed (the cards depend on the seed and the deal, the
agents' seeds on their role), so what is recovered from a cut-short match must equal,
figure for figure, a match of that many deals played from scratch.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from checkraise.arena.journal import JournalError, recover
from checkraise.arena.ring import RingConfig, play_ring
from checkraise.cli.main import main


def _cut(path: Path, hands: int, torn: bool) -> None:
    """Keep the first ``hands`` lines of a journal, and half of the next (``torn``)."""
    lines = path.read_text().splitlines(keepends=True)
    kept = "".join(lines[:hands]) + (lines[hands][: len(lines[hands]) // 2] if torn else "")
    path.write_text(kept)


@pytest.mark.parametrize("agents", [("random", "call"), ("random", "raise", "call")])
def test_a_cut_match_recovers_as_the_match_of_the_deals_it_finished(
    tmp_path: Path, agents: tuple[str, ...]
) -> None:
    config = RingConfig(agents, hands=40, stack=2000, small_blind=10, big_blind=20)
    whole = play_ring(config, seed=11, workers=1, log_dir=tmp_path)
    assert recover(tmp_path)[0].to_json() == whole.to_json()  # nothing cut: all of it
    _cut(tmp_path / "rotation-0.jsonl", 31, torn=True)
    _cut(tmp_path / "rotation-1.jsonl", 23, torn=False)
    result, planned = recover(tmp_path)
    first = play_ring(RingConfig(agents, hands=23, stack=2000, small_blind=10, big_blind=20),
                      seed=11, workers=1)
    assert planned == 40 and result.config.hands == 23
    assert result.to_json() == first.to_json()
    assert result.adjusted_hands + result.luck_hands > 0  # the adjusted figures came back too
    assert result.deal_luck == first.deal_luck and result.deal_chips == first.deal_chips


def test_a_match_killed_mid_way_is_recovered_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "m"
    command = [str(Path(sys.executable).parent / "checkraise"), "match", "random", "call",
               "-n", "100000",
               "--seed", "5", "--workers", "2", "--out", str(out), "--json"]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        journals = [out / "logs" / f"rotation-{r}.jsonl" for r in range(2)]
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None and not all(
            p.exists() and p.read_text().count("\n") >= 30 for p in journals
        ):
            time.sleep(0.2)
        assert proc.poll() is None, "the match ended before it was killed"
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the match and its worker processes
        proc.wait()
    assert not (out / "results.json").exists()
    # playing into its folder again is refused, and points at --recover
    assert main(["match", "random", "call", "-n", "5", "--out", str(out)]) == 2
    assert "--recover" in capsys.readouterr().err
    assert main(["match", "--out", str(out), "--recover", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    deals = data["partial"]["deals"]
    assert deals >= 30 and data["partial"]["planned"] == 100000
    for r in range(2):  # the hand logs were on disk hand by hand too
        states = (out / "logs" / f"rotation-{r}.log").read_text().count("STATE:")
        assert states >= deals
    assert main(["match", "random", "call", "-n", str(deals), "--seed", "5", "--workers", "1",
                 "--json"]) == 0
    fresh = json.loads(capsys.readouterr().out)
    assert data["players"] == fresh["players"]
    assert json.loads((out / "results.json").read_text())["partial"]["deals"] == deals
    assert f"the first {deals} of the 100000 deals" in (out / "report.md").read_text()


def test_recover_refuses_what_it_cannot_recover(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    done = tmp_path / "done"
    assert main(["match", "call", "call", "-n", "5", "--workers", "1", "--out", str(done)]) == 0
    capsys.readouterr()
    for args, message in [
        (["--recover"], "--recover needs --out"),
        (["call", "call", "--recover", "--out", str(done)], "--recover takes no agents"),
        (["--recover", "--out", str(done)], "that match finished"),
        (["--recover", "--out", str(tmp_path / "none")], "no match.json in"),
        ([], "no agents"),
    ]:
        assert main(["match", *args]) == 2, args
        assert message in capsys.readouterr().err, args
    # a match killed before any deal was finished in both seatings
    (done / "results.json").unlink()
    (done / "logs" / "rotation-1.jsonl").write_text("")
    before = sorted(p.name for p in done.iterdir())
    assert main(["match", "--recover", "--out", str(done)]) == 2
    assert "no deal was finished in every seating" in capsys.readouterr().err
    assert sorted(p.name for p in done.iterdir()) == before  # nothing written
    with pytest.raises(JournalError, match="expected what checkraise match writes there"):
        (done / "logs" / "match.json").write_text("{}")
        recover(done / "logs")
    # --force replaces the killed match, journals and all
    assert main(["match", "call", "call", "-n", "3", "--workers", "1", "--force",
                 "--out", str(done)]) == 0
    assert (done / "logs" / "rotation-1.jsonl").read_text().count("\n") == 3
