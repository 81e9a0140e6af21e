"""The tuner: trimmed means, the log, resuming, and that it improves a bad profile."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from checkraise.agents.profiles import (
    PARAMETER_NAMES,
    Profile,
    ValueScale,
    default_profile,
    load_profile,
)
from checkraise.cli.main import main
from checkraise.tuning import DealPool, TuneConfig, TuneError, duplicate_match, trimmed_mean, tune
from checkraise.tuning.tuner import LOG_FILE, PROFILE_FILE

TINY = TuneConfig(
    sweeps=2, steps=3, batches=4, batch_size=40, trim=0.25, temperature=1.0,
    pool=400, samples=60, params=("preflop.x", "flop.x", "river.p0"),
)


def bad_profile() -> Profile:
    """Tight and passive: gives up below v = 0.2, pays at most 3 big blinds, rarely raises."""
    d = default_profile().to_dict()
    for street in ("preflop", "flop", "turn", "river"):
        d[street].update(x=0.2, y=0.8, z=0.95, p=[3.0, 0.0, 0.0, 0.0])
    return Profile.from_dict(d, "bad")


def test_trimmed_mean_cuts_each_end() -> None:
    assert trimmed_mean([5.0, -100.0, 1.0, 2.0, 3.0, 4.0, 6.0, 900.0], 0.125) == 3.5
    assert trimmed_mean([1.0, 2.0, 3.0], 0.0) == 2.0
    with pytest.raises(TuneError, match="trim"):
        TuneConfig(batches=4, trim=0.5)
    with pytest.raises(TuneError, match="match no parameter"):
        TuneConfig(params=("nosuch.*",))


def test_log_replays_to_the_final_profile_and_only_chosen_params_move(tmp_path: Path) -> None:
    res = tune(bad_profile(), TINY, seed=3, out=tmp_path)
    chosen = {PARAMETER_NAMES.index(n) for n in TINY.params}
    for i, (a, b) in enumerate(zip(bad_profile().values, res.profile.values, strict=True)):
        if i not in chosen:
            assert a == b
    events = [json.loads(line) for line in (tmp_path / LOG_FILE).read_text().splitlines()]
    assert events[0]["event"] == "start"
    replayed = bad_profile()
    for ev in events:
        if ev["event"] == "accept":
            assert ev["old"] == replayed.values[ev["index"]]
            replayed = replayed.replace(ev["index"], ev["new"])
        elif ev["event"] == "revert":
            assert ev["gain_mbb"] < 0
            replayed = replayed.replace(ev["index"], ev["value"])
    assert replayed.values == res.profile.values
    assert load_profile(tmp_path / PROFILE_FILE).values == res.profile.values
    assert sum(ev["event"] == "sweep_done" for ev in events) == TINY.sweeps
    assert res.steps_run == TINY.total_steps == 18


def test_resuming_a_cut_log_gives_the_uninterrupted_run(tmp_path: Path) -> None:
    full = tune(bad_profile(), TINY, seed=3, out=tmp_path / "full")
    lines = (tmp_path / "full" / LOG_FILE).read_text().splitlines()
    # Cut after the fourth finished parameter (inside the second sweep), plus a torn line.
    done = [i for i, line in enumerate(lines) if '"param_done"' in line]
    cut = tmp_path / "cut"
    cut.mkdir()
    (cut / LOG_FILE).write_text("\n".join(lines[: done[3] + 1]) + '\n{"event": "acc')
    resumed = tune(bad_profile(), TINY, seed=3, out=cut, resume=True)
    assert resumed.profile.values == full.profile.values
    assert resumed.resumed_steps == 4 * TINY.steps
    assert (cut / LOG_FILE).read_text() == (tmp_path / "full" / LOG_FILE).read_text()
    with pytest.raises(TuneError, match="seed"):
        tune(bad_profile(), TINY, seed=4, out=cut, resume=True)


def test_greedy_tuning_accepts_only_gains_and_is_reproducible() -> None:
    cfg = TuneConfig(sweeps=1, steps=3, batches=4, batch_size=40, trim=0.25, temperature=0.0,
                     pool=400, samples=60, params=("*.x",))
    a = tune(bad_profile(), cfg, seed=8)
    assert all(ev["gain_mbb"] > 0 for ev in a.accepted) and a.accepted
    assert tune(bad_profile(), cfg, seed=8).profile == a.profile


def test_a_short_run_from_a_bad_profile_beats_it_on_held_out_deals() -> None:
    """Sign test: the tuned profile wins against the bad start with the 95% CI above zero."""
    cfg = TuneConfig(sweeps=1, steps=4, batches=4, batch_size=100, trim=0.25, temperature=0.0,
                     pool=2000, samples=100, params=("*.x",))
    res = tune(bad_profile(), cfg, seed=2, check_deals=600)
    assert res.before is not None and res.before.mean == 0.0
    assert res.after is not None and res.after.low > 0, res.after
    held = DealPool.generate(600, seed=77, samples=100)
    assert duplicate_match(res.profile, bad_profile(), held).low > 0


def test_tune_command_writes_the_profile_and_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    argv = ["tune", "--out", str(out), "--sweeps", "1", "--steps", "2", "--batches", "4",
            "--batch-size", "30", "--trim", "0.25", "--pool", "300", "--samples", "50",
            "--params", "river.x", "--check-deals", "200", "--seed", "1", "--json"]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["steps_run"] == 2 and summary["tuned_vs_start_mbb"]["n"] == 200
    prof = load_profile(out / PROFILE_FILE)
    assert prof.values[:33] == default_profile().values[:33]
    assert main([*argv[:-1], "--resume"]) == 0
    assert "2 steps resumed" in capsys.readouterr().out
    assert main(["tune", "--out", str(out), "--trim", "0.7"]) == 2
    assert "invalid trim 0.7" in capsys.readouterr().err
    assert np.isfinite(prof.values).all()


RING = TuneConfig(
    sweeps=1, steps=4, batches=4, batch_size=100, trim=0.25, temperature=0.0,
    pool=500, samples=40, params=("*.x",), seats=6,
)


def loose_profile() -> Profile:
    """Plays every hand at a ring table and pays up to 30 big blinds with it."""
    d = default_profile().to_dict()
    for street in ("preflop", "flop", "turn", "river"):
        d[street].update(x=-0.95, y=0.8, z=0.95, p=[30.0, 0.0, 0.0, 0.0])
    return Profile.from_dict(d, "loose")


def test_six_seat_tuning_is_reproducible_for_a_seed_and_improves_a_loose_profile(
    tmp_path: Path,
) -> None:
    a = tune(loose_profile(), RING, seed=5, out=tmp_path / "a", check_deals=400)
    b = tune(loose_profile(), RING, seed=5, out=tmp_path / "b")
    assert a.profile == b.profile and a.accepted and a.accepted == b.accepted
    assert (tmp_path / "a" / LOG_FILE).read_text() == (tmp_path / "b" / LOG_FILE).read_text()
    assert all(ev["gain_mbb"] > 0 for ev in a.accepted)
    # The held-out check is a 6-seat ring match: the tuned profile beats the loose one.
    assert a.after is not None and a.after.n == 400 and a.after.low > 0, a.after
    head = json.loads((tmp_path / "a" / LOG_FILE).read_text().splitlines()[0])
    assert head["config"]["seats"] == 6
    assert tune(loose_profile(), RING, seed=6).profile != a.profile
    resumed = tune(loose_profile(), RING, seed=5, out=tmp_path / "a", resume=True)
    assert resumed.profile == a.profile and resumed.resumed_steps == RING.total_steps


def test_heads_up_config_json_is_unchanged_and_bad_seats_are_refused() -> None:
    # Logs written before --seats existed have no "seats" key and must still resume.
    assert "seats" not in TINY.to_json()
    for seats in (1, 11, True):
        with pytest.raises(TuneError, match="invalid seats"):
            TuneConfig(seats=seats)


def test_tune_command_takes_the_table_size(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ring"
    argv = ["tune", "--out", str(out), "--sweeps", "1", "--steps", "1", "--batches", "4",
            "--batch-size", "20", "--pool", "100", "--samples", "30", "--params", "river.x",
            "--check-deals", "50", "--seed", "1", "--seats", "4", "--json"]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["tuned_vs_start_mbb"]["n"] == 50
    head = json.loads((out / LOG_FILE).read_text().splitlines()[0])
    assert head["config"]["seats"] == 4
    assert main([*argv[:-2], "11"]) == 2
    assert "invalid seats 11: expected 2..10 players" in capsys.readouterr().err


def test_a_pot_share_profile_stays_pot_share_through_tuning_and_resume(tmp_path: Path) -> None:
    start = Profile.from_vector(loose_profile().values, "loose", ValueScale.POT_SHARE)
    res = tune(start, RING, seed=5, out=tmp_path / "a")
    assert res.profile.pot_share and load_profile(tmp_path / "a" / PROFILE_FILE).pot_share
    # The scale changes the play: the same numbers read as win-minus-lose tune elsewhere.
    assert res.profile.values != tune(loose_profile(), RING, seed=5).profile.values
    resumed = tune(start, RING, seed=5, out=tmp_path / "a", resume=True)
    assert resumed.profile == res.profile and resumed.profile.pot_share
    # A log written for one scale does not resume a run of the other.
    with pytest.raises(TuneError, match="value"):
        tune(loose_profile(), RING, seed=5, out=tmp_path / "a", resume=True)


def test_a_log_of_a_pool_valued_whole_does_not_resume_on_block_valued_deals(
    tmp_path: Path,
) -> None:
    # Pools larger than one block (5,000 deals) are valued block by block; a log written
    # before that (no "pool_block" in its start line) was played on other deals.
    cfg = TuneConfig(sweeps=1, steps=1, batches=2, batch_size=20, pool=5001, samples=5,
                     params=("river.x",))
    tune(default_profile(), cfg, seed=1, out=tmp_path)
    log = tmp_path / LOG_FILE
    lines = log.read_text().splitlines()
    start = json.loads(lines[0])
    assert start["pool_block"] == 5000
    del start["pool_block"]
    log.write_text("\n".join([json.dumps(start), *lines[1:]]) + "\n")
    with pytest.raises(TuneError, match="pool_block"):
        tune(default_profile(), cfg, seed=1, out=tmp_path, resume=True)
    # A pool of one block is valued as before: its log has no such mark.
    small = TuneConfig(sweeps=1, steps=1, batches=2, batch_size=20, pool=5000, samples=5,
                       params=("river.x",))
    tune(default_profile(), small, seed=1, out=tmp_path / "small")
    assert "pool_block" not in json.loads((tmp_path / "small" / LOG_FILE).read_text()
                                          .splitlines()[0])
