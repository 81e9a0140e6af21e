"""One pairing played on several seeds, pooled into one result: ``arena.journal.pool``
and ``checkraise match --pool``.

Two oracles. The deals: the pooled result's per-deal chips (as dealt, all-in and luck
adjusted) are those of the matches it joins, in order, as the matches themselves
returned them in the process that played them (a cut match's: the first deals, which
are the whole of a match that long, see ``test_journal.py``). The figures: each pooled
win rate and interval follows from the parts' own means, standard deviations and deal
counts (the pooled sample variance), not from the per-deal rows.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from statistics import NormalDist

import pytest

from checkraise.arena.journal import JournalError, pool
from checkraise.arena.ring import MatchPart, RingConfig, RingResult, play_ring
from checkraise.cli.main import main

_KEYS = ("mbb_per_hand", "mbb_per_hand_allin_adjusted", "mbb_per_hand_luck_adjusted")


def _config(agents: tuple[str, ...], hands: int, stack: int = 2000) -> RingConfig:
    return RingConfig(agents, hands=hands, stack=stack, small_blind=10, big_blind=20)


def _pooled(parts: list[tuple[float, float, int]]) -> tuple[float, float]:
    """Mean and 95% half-width over all the deals from each part's (mean, sd, n)."""
    n = sum(k for _, _, k in parts)
    mean = sum(m * k for m, _, k in parts) / n
    ss = sum((k - 1) * sd**2 + k * (m - mean) ** 2 for m, sd, k in parts)
    return mean, NormalDist().inv_cdf(0.975) * math.sqrt(ss / (n - 1)) / math.sqrt(n)


def _figures(result: RingResult, player: int, key: str) -> tuple[float, float, int]:
    est = result.to_json()["players"][player][key]
    return est["mean"], est["sd"], est["n"]


@pytest.mark.parametrize("agents", [("random", "call"), ("random", "raise", "call")])
def test_pooled_deals_are_the_parts_deals_and_the_figures_follow(
    tmp_path: Path, agents: tuple[str, ...]
) -> None:
    first = play_ring(_config(agents, 40), seed=11, workers=1, log_dir=tmp_path / "a")
    second = play_ring(_config(agents, 70), seed=12, workers=1, log_dir=tmp_path / "b")
    pooled = pool([tmp_path / "a", tmp_path / "b"])
    assert pooled.config == _config(agents, 110)
    assert pooled.parts == (MatchPart(11, 40, 40), MatchPart(12, 70, 70))
    assert pooled.deal_chips == first.deal_chips + second.deal_chips
    assert pooled.deal_adjusted == first.deal_adjusted + second.deal_adjusted
    assert pooled.deal_luck == first.deal_luck + second.deal_luck
    assert pooled.luck_hands == first.luck_hands + second.luck_hands > 0
    assert pooled.adjusted_hands == first.adjusted_hands + second.adjusted_hands
    for i in range(len(agents)):
        assert pooled.total_chips(i) == first.total_chips(i) + second.total_chips(i)
        decisions = [r.actions[i].to_json()["decisions"] for r in (pooled, first, second)]
        assert decisions[0] == decisions[1] + decisions[2] > 0
        for key in _KEYS:
            mean, half = _pooled([_figures(first, i, key), _figures(second, i, key)])
            est = pooled.to_json()["players"][i][key]
            assert est["mean"] == pytest.approx(mean, abs=1e-9)
            assert est["half_width"] == pytest.approx(half, rel=1e-9)
    data = pooled.to_json()
    assert data["seed"] is None and data["hands_played"] == 110 * len(agents)
    assert data["pooled"] == [{"seed": 11, "deals": 40, "planned": 40},
                              {"seed": 12, "deals": 70, "planned": 70}]


def test_a_cut_match_adds_the_deals_it_finished(tmp_path: Path) -> None:
    agents = ("random", "call")
    first = play_ring(_config(agents, 30), seed=21, workers=1, log_dir=tmp_path / "a")
    second = play_ring(_config(agents, 50), seed=22, workers=1, log_dir=tmp_path / "b")
    journal = tmp_path / "b" / "rotation-1.jsonl"
    journal.write_text("".join(journal.read_text().splitlines(keepends=True)[:17]))
    pooled = pool([tmp_path / "b", tmp_path / "a"])  # in the order given
    assert pooled.parts == (MatchPart(22, 17, 50), MatchPart(21, 30, 30))
    assert pooled.deal_chips == second.deal_chips[:17] + first.deal_chips
    assert pooled.deal_luck == second.deal_luck[:17] + first.deal_luck


def test_pool_refuses_matches_it_cannot_join(tmp_path: Path) -> None:
    agents = ("random", "call")
    play_ring(_config(agents, 5), seed=1, workers=1, log_dir=tmp_path / "a")
    play_ring(_config(agents, 8), seed=1, workers=1, log_dir=tmp_path / "same_seed")
    play_ring(_config(("call", "random"), 5), seed=2, workers=1, log_dir=tmp_path / "swapped")
    play_ring(_config(agents, 5, stack=3000), seed=3, workers=1, log_dir=tmp_path / "deep")
    for folders, message in [
        ([], "no match folders to pool"),
        (["a", "same_seed"], "both played seed 1: its deals would count twice"),
        (["a", "deep", "a"], "a given twice"),
        (["a", "swapped"], "agents ['call', 'random'] where .*a has ['random', 'call']"),
        (["a", "deep"], "stack 3000 where .*a has 2000"),
        (["a", "none"], "no match.json in"),
    ]:
        with pytest.raises(JournalError, match=message.replace("[", r"\[")):
            pool([tmp_path / f for f in folders])


def test_match_pool_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folders = [tmp_path / "a", tmp_path / "b"]
    for folder, seed, deals in zip(folders, (5, 6), (20, 30), strict=True):
        assert main(["match", "random", "call", "-n", str(deals), "--seed", str(seed),
                     "--workers", "1", "--out", str(folder), "--json"]) == 0
    capsys.readouterr()
    before = [(f / "results.json").read_text() for f in folders]
    out = tmp_path / "pooled"
    assert main(["match", "--pool", str(folders[0]), "--pool", str(folders[1]),
                 "--out", str(out), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == pool([f / "logs" for f in folders]).to_json()
    assert json.loads((out / "results.json").read_text()) == data
    assert "pooled from seed 5 (20 deals), seed 6 (30 deals)" in (out / "report.md").read_text()
    assert main(["match", "--pool", str(folders[0]), "--pool", str(folders[1])]) == 0
    assert "pooled: 30 deals of seed 6 (30 planned)" in capsys.readouterr().out
    for args, message in [
        (["random", "call", "--pool", str(folders[0])], "--pool takes no agents"),
        (["--pool", str(folders[0]), "--recover", "--out", str(out)], "--pool and --recover"),
        (["--pool", str(folders[0]), "--pool", str(folders[1]), "--out", str(folders[1])],
         "is one of the --pool folders"),
        (["--pool", str(folders[0]), "--pool", str(folders[0])], "given twice"),
        (["--pool", str(folders[0]), "--out", str(out)], "holds"),  # an earlier run's report
        # settings of a match to play mean nothing to a pool: refused, not ignored
        (["--pool", str(folders[0]), "--pool", str(folders[1]), "--seed", "9", "-n", "4"],
         "--hands, --seed with --pool; expected none of them: the matches' own"),
        (["--pool", str(folders[0]), "--pool", str(folders[1]), "--no-duplicate"],
         "--no-duplicate with --pool"),
    ]:
        assert main(["match", *args]) == 2, args
        assert message in capsys.readouterr().err, args
    assert [(f / "results.json").read_text() for f in folders] == before  # left as they were
