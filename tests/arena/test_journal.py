"""A killed match keeps the deals it finished: the journals and `checkraise match --recover`.

The oracle is the match itself: the first ``k`` deals of a match are the whole of a
``k``-deal match with the same seed (the cards depend on the seed and the deal, the
agents' seeds on their role), so what is recovered from a cut-short match must equal,
figure for figure, a match of that many deals played from scratch.
"""

from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import sys
import time
import zlib
from dataclasses import replace
from pathlib import Path

import pytest

from checkraise.agents import base
from checkraise.agents.base import register_agent
from checkraise.agents.baselines import CallAgent
from checkraise.arena.journal import (
    JournalError,
    Pace,
    RotationFailedError,
    read_log,
    recover,
)
from checkraise.arena.ring import PACE_SLACK, RingConfig, play_ring, seed_int
from checkraise.backend import WorkItemError
from checkraise.cli.main import main
from checkraise.engine import TableConfig


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


def test_an_archived_match_with_gzipped_journals_recovers_as_played(tmp_path: Path) -> None:
    config = RingConfig(("random", "call"), hands=30, stack=2000, small_blind=10,
                        big_blind=20)
    whole = play_ring(config, seed=13, workers=1, log_dir=tmp_path)
    for r in (0, 1):  # archive: each journal gzipped beside where it was, then removed
        journal = tmp_path / f"rotation-{r}.jsonl"
        with gzip.open(journal.with_name(journal.name + ".gz"), "wt") as f:
            f.write(journal.read_text()[: None if r else -40])  # rotation 0 torn at the end
        journal.unlink()
    result, planned = recover(tmp_path)
    first = play_ring(replace(config, hands=29), seed=13, workers=1)
    assert planned == 30 and result.to_json() == first.to_json() != whole.to_json()
    assert result.deal_luck == first.deal_luck and result.deal_chips == first.deal_chips


def test_an_archive_cut_short_recovers_like_a_journal_torn_at_the_same_place(
    tmp_path: Path,
) -> None:
    config = RingConfig(("random", "call"), hands=30, stack=2000, small_blind=10,
                        big_blind=20)
    play_ring(config, seed=13, workers=1, log_dir=tmp_path)
    torn = tmp_path / "torn"
    torn.mkdir()
    for r in (0, 1):
        journal = tmp_path / f"rotation-{r}.jsonl"
        text = journal.read_bytes()
        packed = gzip.compress(text)
        # the copy of rotation 0's archive stopped part-way; rotation 1's is whole
        (tmp_path / f"{journal.name}.gz").write_bytes(packed[: len(packed) * 2 // 3]
                                                      if r == 0 else packed)
        journal.unlink()
        # the oracle: the plain journal holding the same bytes as the cut archive does
        held = zlib.decompressobj(wbits=31).decompress(packed[: len(packed) * 2 // 3])
        (torn / journal.name).write_bytes(held if r == 0 else text)
    (torn / "match.json").write_bytes((tmp_path / "match.json").read_bytes())
    got, planned = recover(tmp_path)
    want, _ = recover(torn)
    assert 0 < got.config.hands < 30 and planned == 30
    assert got.to_json() == want.to_json() and got.deal_luck == want.deal_luck
    # a whole archive in two members, then zeros (a copy padded by a crash): as gzip reads it
    text = (torn / "rotation-1.jsonl").read_bytes()
    half = text.index(b"\n", len(text) // 2) + 1
    (tmp_path / "rotation-1.jsonl.gz").write_bytes(
        gzip.compress(text[:half]) + gzip.compress(text[half:]) + bytes(512))
    assert read_log(tmp_path / "rotation-1.jsonl") == gzip.decompress(
        (tmp_path / "rotation-1.jsonl.gz").read_bytes()).decode()


def test_an_archive_that_is_not_gzip_or_a_missing_log_is_named(tmp_path: Path) -> None:
    config = RingConfig(("random", "call"), hands=5, stack=2000, small_blind=10,
                        big_blind=20)
    play_ring(config, seed=13, workers=1, log_dir=tmp_path)
    journal = tmp_path / "rotation-0.jsonl"
    journal.with_name(journal.name + ".gz").write_bytes(journal.read_bytes())  # not packed
    journal.unlink()
    with pytest.raises(JournalError, match=r"rotation-0\.jsonl\.gz: .*expected a gzipped log"):
        recover(tmp_path)
    with pytest.raises(FileNotFoundError, match=r"nor its archive rotation-9\.log\.gz"):
        read_log(tmp_path / "rotation-9.log")


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
    finished = [p.read_text().count("\n") for p in journals]  # kept level by the pace
    assert abs(finished[0] - finished[1]) <= PACE_SLACK + 1
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
        (["--recover", "--out", str(done), "--rules", "acpc", "--workers", "2"],
         "--rules, --workers with --recover; expected none of them"),
        (["--recover", "--out", str(done), "--force"], "--force with --recover"),
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


def test_pace_waits_for_the_hands_of_the_other_rotations(tmp_path: Path) -> None:
    journals = [tmp_path / f"rotation-{r}.jsonl" for r in (1, 2)]
    journals[0].write_text("a\n" * 3)
    journals[1].write_text("b\n" * 5 + "torn")  # a torn line is no finished hand
    looks: list[int] = []

    def sleep(_: float) -> None:  # each look, rotation 1 finishes one hand more
        looks.append(1)
        with open(journals[0], "a") as f:
            f.write("a\n")

    pace = Pace(tmp_path, 0, 3, slack=2, sleep=sleep)
    pace.wait(5)  # needs 3 of each: there already
    assert looks == []
    pace.wait(7)  # needs 5: rotation 1 has 3; rotation 2 has 5, not counting the torn line
    assert len(looks) == 2 and pace.finished(1) == 5 and pace.finished(2) == 5
    with open(journals[1], "a") as f:
        f.write("\n")
    pace.wait(8)  # needs 6: one more look for rotation 1, and rotation 2's line is whole
    assert len(looks) == 3 and pace.finished(1) == 6 and pace.finished(2) == 6
    (tmp_path / "rotation-2.failed").write_text("ValueError('boom')\n")
    with pytest.raises(RotationFailedError, match=r"rotation 2 .*ValueError\('boom'\).*hand 9"):
        pace.wait(9)
    with pytest.raises(JournalError, match="invalid slack -1"):
        Pace(tmp_path, 0, 3, slack=-1)


class _Lagging(CallAgent):
    """Calls; slowly when seeded ``slow`` (one role), and otherwise records in ``folder``
    how far its own rotation (1) runs ahead of rotation 0's journal at each hand."""

    def __init__(self, *, seed: int | None = None, folder: str = "", slow: int = 0,
                 fail: int = -1) -> None:
        super().__init__(seed=seed)
        self.folder, self.slow, self.fail = Path(folder), slow, fail

    def begin_hand(self, seat: int, config: TableConfig, hole_cards: tuple[int, ...],
                   hand_number: int) -> None:
        if self.seed == self.slow:
            if hand_number == self.fail:
                raise RuntimeError(f"failed at hand {hand_number}")
            time.sleep(0.02)
            return
        journal = self.folder / "rotation-0.jsonl"
        done = journal.read_text().count("\n") if journal.exists() else 0
        with open(self.folder / "leads.txt", "a") as f:
            f.write(f"{hand_number - done}\n")


@pytest.fixture
def lagging():
    register_agent("test-lagging", _Lagging)
    try:
        yield f"test-lagging:slow={seed_int(7, 1, 0)}"  # player 0's seed in rotation 0
    finally:
        base._FACTORIES.pop("test-lagging", None)


def test_rotations_played_at_once_stay_level_and_play_the_same(
    tmp_path: Path, lagging: str
) -> None:
    config = RingConfig((f"{lagging},folder={tmp_path}", "call"), hands=80)
    paced = play_ring(config, seed=7, workers=2, log_dir=tmp_path)
    leads = [int(v) for v in (tmp_path / "leads.txt").read_text().split()]
    assert len(leads) == 80  # one per hand of rotation 1, which has no sleep
    assert max(leads) <= PACE_SLACK  # without the pace it finishes while rotation 0 sleeps
    alone = play_ring(config, seed=7, workers=1)  # one after another: nothing to wait for
    assert paced.to_json() == alone.to_json()


def test_a_failed_rotation_stops_the_rotations_waiting_for_it(
    tmp_path: Path, lagging: str
) -> None:
    config = RingConfig((f"{lagging},folder={tmp_path},fail=5", "call"), hands=5000)
    with pytest.raises(WorkItemError, match="failed at hand 5"):
        play_ring(config, seed=7, workers=2, log_dir=tmp_path)
    assert "failed at hand 5" in (tmp_path / "rotation-0.failed").read_text()
    assert (tmp_path / "rotation-0.jsonl").read_text().count("\n") == 5
    # rotation 1 stopped within the pace's reach (hands 0 to 5 + slack), not at 5,000
    assert (tmp_path / "rotation-1.jsonl").read_text().count("\n") <= 5 + PACE_SLACK + 1
    assert "rotation 0 of the match" in (tmp_path / "rotation-1.failed").read_text()
