"""Tournament bookkeeping: blinds, rebuys, elimination, ranking, table shrinking, logs."""

from __future__ import annotations

from pathlib import Path

import pytest

from checkraise.arena.report import tournament_markdown
from checkraise.arena.tournament import (
    TournamentConfig,
    paired_ranks,
    play_tournament,
    summarize,
)
from checkraise.histories.pokerstars import parse_file


def test_scripted_heads_up_folder_is_eliminated_when_computed_by_hand() -> None:
    # allin shoves every hand, checkfold folds to every bet: the folder loses its blind
    # each hand, 20 as button/small blind and 40 as big blind, whatever the cards.
    # 1,800 chips = 30 orbits of 60: broke after hand 60, rebuys 1,800, broke after 120.
    cfg = TournamentConfig(("allin", "checkfold"), starting_chips=1800, rebuy_chips=1800)
    res = play_tournament(cfg, seed=3, seating=[0, 1])
    shover, folder = res.players
    assert res.hands_played == 120
    assert folder.eliminated_at == 120 and folder.rebuys_used == 1 and folder.chips == 0
    assert shover.eliminated_at is None and shover.rebuys_used == 0 and shover.chips == 5400
    assert (shover.rank, folder.rank) == (1.0, 2.0)
    assert shover.hands_survived == folder.hands_survived == 120
    assert folder.net_chips == -3600 and shover.net_chips == 3600
    # The folder is the button (small blind) in odd hands: stacks 1780, 1740, 1720, ...
    assert folder.stacks[:5] == [1800, 1780, 1740, 1720, 1680]
    assert folder.stacks[60] == 1800 and folder.stacks[59] == 40  # rebuy after hand 60
    assert folder.volatility == 60 * (20**2 + 40**2)
    assert folder.actions.to_json()["fold_pct"] == 100.0


def test_scripted_heads_up_folder_survives_the_hand_limit() -> None:
    cfg = TournamentConfig(("checkfold", "allin"), max_hands=100, starting_chips=1800,
                           rebuy_chips=1800)
    res = play_tournament(cfg, seed=3, seating=[1, 0])
    folder, shover = res.players
    # Hands 61..100 after the rebuy: 20 orbits of 60 chips.
    assert res.hands_played == 100
    assert folder.eliminated_at is None and folder.chips == 1800 - 20 * 60
    assert folder.rebuys_used == 1 and folder.hands_survived == 100
    assert (shover.rank, folder.rank) == (1.0, 2.0)
    assert shover.chips + folder.chips == 2 * 1800 + 1800


def test_three_handed_folders_lose_exactly_their_blinds() -> None:
    # Button, small blind and big blind each come round once every three hands, so in
    # 30 hands each folder pays 10 small and 10 big blinds and the shover collects them.
    cfg = TournamentConfig(("checkfold", "allin", "checkfold"), max_hands=30)
    res = play_tournament(cfg, seed=8)
    assert [p.chips for p in res.players] == [2000 - 600, 2000 + 1200, 2000 - 600]
    assert [p.rank for p in res.players] == [2.5, 1.0, 2.5]  # equal chips share the rank


def _conserved(res: object, cfg: TournamentConfig) -> None:
    players = res.players  # type: ignore[attr-defined]
    n = len(players)
    base = n * cfg.starting_chips
    totals = [sum(p.stacks[k] for p in players) for k in range(len(players[0].stacks))]
    extra = [t - base for t in totals]
    assert all(x % cfg.rebuy_chips == 0 for x in extra)
    assert extra == sorted(extra)  # only rebuys add chips
    assert extra[-1] == cfg.rebuy_chips * sum(p.rebuys_used for p in players)
    assert sum(p.net_chips for p in players) == 0


def test_six_handed_bookkeeping_shrinking_table_and_logs(tmp_path: Path) -> None:
    cfg = TournamentConfig(("random", "allin", "call", "random", "raise", "checkfold"),
                           max_hands=200)
    for rep in range(3):
        res = play_tournament(cfg, seed=5, repetition=rep, log_dir=tmp_path)
        _conserved(res, cfg)
        for p in res.players:
            if p.eliminated_at is not None:
                assert p.hands_survived == p.eliminated_at and p.chips == 0
                assert p.rebuys_used == cfg.rebuys
                assert set(p.stacks[p.eliminated_at :]) == {0}
            else:
                assert p.hands_survived == res.hands_played
        alive = [p for p in res.players if p.eliminated_at is None]
        assert len(alive) >= 1 and (len(alive) == 1 or res.hands_played == 200)
        # Ranks: survivors first; among the eliminated, later elimination ranks higher.
        out = sorted((p for p in res.players if p.eliminated_at), key=lambda p: p.rank)
        assert [p.eliminated_at for p in out] == sorted((p.eliminated_at for p in out),
                                                        reverse=True)
        assert max(p.rank for p in alive) < min((p.rank for p in out), default=99)

        # Logs: one ACPC STATE line and one PokerStars hand per hand, only live players.
        names = cfg.labels
        lines = (tmp_path / f"rep-{rep:04d}.log").read_text().splitlines()
        assert len(lines) == res.hands_played
        # The hands are numbered consecutively from the repetition's first log number.
        first = int(lines[0].split(":")[1])
        for k, line in enumerate(lines):
            fields = line.split(":")
            hand, seated = int(fields[1]) - first, fields[-1].split("|")
            assert hand == k
            for i, p in enumerate(res.players):
                gone = p.eliminated_at is not None and hand >= p.eliminated_at  # 0-based
                assert (names[i] in seated) != gone
        # The PokerStars text reads back with the histories parser and replays to the
        # same chips as the tournament's bookkeeping.
        stars = parse_file(tmp_path / f"rep-{rep:04d}.txt")
        assert len(stars) == res.hands_played
        net = [0] * len(names)
        for record in stars:
            for seat in record.seats:
                put = sum(a.amount for a in record.actions if record.seats[a.seat] is seat)
                put += seat.blind + seat.ante - seat.uncalled
                net[names.index(seat.name)] += seat.collected - put
        assert net == [p.net_chips for p in res.players]


def test_same_seed_same_tournament_and_different_seed_differs() -> None:
    cfg = TournamentConfig(("random", "random", "call", "raise"), max_hands=80)
    a = play_tournament(cfg, seed=11, repetition=2)
    b = play_tournament(cfg, seed=11, repetition=2)
    c = play_tournament(cfg, seed=11, repetition=3)
    assert a.to_json() == b.to_json()
    assert a.to_json() != c.to_json()


def test_summary_metrics() -> None:
    cfg = TournamentConfig(("allin", "checkfold"), max_hands=40)
    results = [play_tournament(cfg, seed=1, repetition=r) for r in range(4)]
    s = summarize(cfg, results)
    shover, folder = s["players"]
    assert shover["win_rate"] == 1.0 and folder["win_rate"] == 0.0
    assert shover["rank_counts"] == [4.0, 0.0]
    assert folder["chips_remaining"]["mean"] == 2000 - 20 * 60
    assert folder["mbb_per_hand"]["mean"] == pytest.approx(-1000 * 30 / 40)
    assert shover["mbb_per_hand"]["mean"] == pytest.approx(1000 * 30 / 40)
    assert s["chip_trend"][1][0] == 2000 and s["chip_trend"][1][40] == 800
    assert len(s["chip_trend"][0]) == 41


def test_paired_rank_differences_by_hand() -> None:
    # Ranks of three players in four tournaments (a tie shares 1.5).
    ranks = [[1, 2, 3], [2, 1, 3], [1.5, 1.5, 3], [3, 1, 2]]
    d = paired_ranks(ranks)
    # player 0 less player 1: -1, 1, 0, 2 -> mean 0.5, sd sqrt(5/3), 95%: 1.96 sd / 2
    assert d[0][1]["mean"] == pytest.approx(0.5)
    assert d[0][1]["half_width"] == pytest.approx(1.959964 * (5 / 3) ** 0.5 / 2, rel=1e-5)
    assert d[1][0]["mean"] == pytest.approx(-0.5)
    # player 2 less player 0: 2, 1, 1.5, -1 -> 0.875
    assert d[2][0]["mean"] == pytest.approx(0.875)
    assert d[1][1] is None


def test_summary_and_report_give_paired_ranks() -> None:
    cfg = TournamentConfig(("allin", "checkfold", "call"), max_hands=30)
    results = [play_tournament(cfg, seed=2, repetition=r) for r in range(3)]
    s = summarize(cfg, results)
    by_hand = [[p.rank for p in r.players] for r in results]
    for i in range(3):
        for j in range(3):
            if i != j:
                expected = sum(row[i] - row[j] for row in by_hand) / 3
                assert s["paired_ranks"][i][j]["mean"] == pytest.approx(expected)
    text = tournament_markdown(s, seed=2)
    assert "## Paired rank differences" in text


def test_config_validation() -> None:
    with pytest.raises(ValueError, match="number of agents 1"):
        TournamentConfig(("call",))
    with pytest.raises(ValueError, match="invalid starting_chips 0"):
        TournamentConfig(("call", "call"), starting_chips=0)
    with pytest.raises(ValueError, match="invalid seating"):
        play_tournament(TournamentConfig(("call", "call")), seed=1, seating=[0, 0])
