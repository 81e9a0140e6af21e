"""``checkraise equity`` and ``checkraise range`` end to end, against published figures."""

from __future__ import annotations

import json
import math
from itertools import combinations

import pytest

from checkraise.cli import equity_cmd
from checkraise.cli.main import main

BOARDS = 1_712_304  # C(48, 5): the preflop runouts of two known hands

# AdAc against KhKs, every runout: 1,388,072 wins, 317,694 losses and 6,538 ties for the
# aces (GNU poker-eval's hcmp2, quoted at brainwagon.org/2005/04/09/texas-holdem-trivia).
AA_WINS, KK_WINS, TIES = 1_388_072, 317_694, 6_538


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[str, str]:
    assert main(list(argv)) == 0
    out = capsys.readouterr()
    return out.out, out.err


def test_equity_json_matches_published_counts(capsys: pytest.CaptureFixture[str]) -> None:
    out, err = _run(capsys, "equity", "AdAc", "KhKs", "--json")
    assert err == ""
    data = json.loads(out)
    assert set(data) == {"board", "dead", "method", "samples", "players"}
    assert (data["board"], data["dead"], data["method"]) == ("", "", "exact")
    assert data["samples"] == BOARDS == AA_WINS + KK_WINS + TIES
    aces, kings = data["players"]
    assert set(aces) == {"player", "equity", "win", "tie", "stderr"}
    assert (aces["player"], kings["player"]) == ("AdAc", "KhKs")
    assert aces["win"] == pytest.approx(AA_WINS / BOARDS, rel=1e-12)
    assert kings["win"] == pytest.approx(KK_WINS / BOARDS, rel=1e-12)
    assert aces["tie"] == kings["tie"] == pytest.approx(TIES / BOARDS, rel=1e-12)
    assert aces["equity"] == pytest.approx((AA_WINS + TIES / 2) / BOARDS, rel=1e-12)
    assert kings["equity"] == pytest.approx((KK_WINS + TIES / 2) / BOARDS, rel=1e-12)
    assert aces["stderr"] == kings["stderr"] == 0.0


def test_equity_table_shows_the_published_percentages(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out, _ = _run(capsys, "equity", "AdAc", "KhKs")
    assert f"exact equity, {BOARDS:,} boards enumerated" in " ".join(out.split())
    rows = {line.split()[1]: line for line in out.splitlines() if "│ " in line}
    for hand, wins in (("AdAc", AA_WINS), ("KhKs", KK_WINS)):
        cells = rows[hand].replace("│", " ").split()
        want = [(wins + TIES / 2) / BOARDS, wins / BOARDS, TIES / BOARDS]
        assert cells == [hand] + [f"{100 * p:.3f}" for p in want]


def test_aces_against_kings_by_shared_suits(capsys: pytest.CaptureFixture[str]) -> None:
    # Kevin Gong, "Calling Pre-Flop All-In with KK or AK" (kevingong.com/Math/KKPreflop.html,
    # 2007): AA is an 82.6 % favourite when the kings have the same two suits, 81.9 % with
    # one suit shared, 81.3 % with none, and 81.9 % with the suits unknown. (He quotes the
    # last as 81.946031 %; an exhaustive eval7 enumeration of the three cases gives
    # 81.946050 %, so only the one-decimal figures are used here.)
    def aces(*hands: str) -> float:
        data = json.loads(_run(capsys, "equity", *hands, "--exact", "--json")[0])
        assert data["method"] == "exact"
        return float(data["players"][0]["equity"])

    same, one, none = aces("AsAh", "KsKh"), aces("AsAh", "KsKd"), aces("AsAh", "KdKc")
    assert [round(100 * e, 1) for e in (same, one, none)] == [82.6, 81.9, 81.3]
    assert none == pytest.approx((AA_WINS + TIES / 2) / BOARDS, rel=1e-12)
    # Of the 36 pairings, 6 share both suits, 6 none and 24 one; every pairing has the same
    # number of runouts, so the range's equity is their average.
    both = aces("AA", "KK")
    assert round(100 * both, 1) == 81.9
    assert both == pytest.approx((same + none + 4 * one) / 6, rel=1e-12)


def test_monte_carlo_json_against_published_equity(capsys: pytest.CaptureFixture[str]) -> None:
    # AA against one random hand: 0.8520371 (exhaustive, jazbo.com/poker/huholdem.html).
    n = 200_000
    out, _ = _run(capsys, "equity", "AhAd", "--players", "2", "--samples", str(n), "--json")
    data = json.loads(out)
    assert data["method"] == "mc" and data["samples"] == n
    aces = data["players"][0]
    bound = math.sqrt(0.8520371 * (1 - 0.8520371) / n)  # shares lie in [0, 1]
    assert 0.9 * bound < aces["stderr"] <= bound * 1.01
    assert abs(aces["equity"] - 0.8520371) < 4.5 * bound
    # The same seed gives the same deals, a different one different deals.
    again, _ = _run(capsys, "equity", "AhAd", "--players", "2", "--samples", str(n), "--json")
    other, _ = _run(
        capsys, "equity", "AhAd", "--players", "2", "--samples", str(n), "--seed", "1", "--json"
    )
    assert json.loads(again) == data and json.loads(other) != data


def test_random_players_are_symmetric(capsys: pytest.CaptureFixture[str]) -> None:
    n = 60_000
    argv = ["equity", "AhAd", "--players", "4", "--samples", str(n), "--seed", "2", "--json"]
    data = json.loads(_run(capsys, *argv)[0])
    players = data["players"]
    assert [p["player"] for p in players] == ["AhAd", "random", "random", "random"]
    assert sum(p["equity"] for p in players) == pytest.approx(1.0, abs=1e-12)
    # The three random hands are exchangeable: equal equities up to sampling error.
    eq = [p["equity"] for p in players[1:]]
    se = max(p["stderr"] for p in players[1:])
    assert max(eq) - min(eq) < 4.5 * math.sqrt(2) * se
    assert all(p["win"] + p["tie"] <= 1.0 for p in players)


def test_long_exact_enumeration_shows_estimate_and_bar(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Quick enumerations stay quiet on stderr; a long one (here: any) first says how many
    # boards and how long, then draws a bar that ends full.
    out, err = _run(capsys, "equity", "AsKs", "QhQd", "--board", "2c7d9h", "--exact")
    assert err == ""
    monkeypatch.setattr(equity_cmd, "BAR_SECONDS", 0.0)
    boards = math.comb(52 - 4 - 3, 2)
    out2, err = _run(capsys, "equity", "AsKs", "QhQd", "--board", "2c7d9h", "--exact")
    assert out2 == out
    assert err.startswith(f"exact enumeration: {boards:,} boards, about ")
    assert "on one core" in err and f"{boards}/{boards}" in err
    # JSON output stays machine-readable: no estimate, no bar.
    _, err = _run(capsys, "equity", "AsKs", "QhQd", "--board", "2c7d9h", "--exact", "--json")
    assert err == ""


def test_hopeless_monte_carlo_says_it_enumerated(capsys: pytest.CaptureFixture[str]) -> None:
    # All the weight on AsAh, which AsKs always blocks: 1 deal in ~8,000 fits together.
    argv = ["equity", "AsKs", "random:0.0000001,AsAh", "--board", "2c7d9h", "--samples", "5000"]
    out, err = _run(capsys, *argv)
    assert "exact equity, 1,081 boards enumerated" in " ".join(out.split())
    assert err.startswith("checkraise: note: the ranges collide in almost every deal")
    # Preflop the enumeration is too big: an error that says why, exit 2.
    assert main([*argv[:3], "--samples", "5000"]) == 2
    err = capsys.readouterr().err
    assert "Monte Carlo gave up" in err and "acceptance 0.0001" in err


def _combo_names(ranks: str, suited: bool | None) -> set[str]:
    names = set()
    for a, b in combinations("shdc", 2) if ranks[0] == ranks[1] else (
        (x, y) for x in "shdc" for y in "shdc"
    ):
        if suited is None or (a == b) == suited:
            names.add(f"{ranks[0]}{a}{ranks[1]}{b}")
    return names


def test_range_command(capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(_run(capsys, "range", "QQ+,AKs", "--json")[0])
    want = _combo_names("AA", None) | _combo_names("KK", None) | _combo_names("QQ", None)
    want |= _combo_names("AK", True)
    assert {h["hand"] for h in data["hands"]} == want and len(want) == 22
    assert all(h["weight"] == 1.0 for h in data["hands"])
    assert data["combos"] == 22 and data["weighted_combos"] == 22.0
    assert data["percent"] == pytest.approx(100 * 22 / 1326)
    assert data["range"] == "QQ+,AKs"
    out, _ = _run(capsys, "range", "AA,KK:0.5", "--board", "As")
    assert out.splitlines()[0].endswith("  (9 combos, 6 weighted, 0.45% of hands)")
    listed = set(" ".join(out.splitlines()[1:]).split())
    assert listed == {"AhAd", "AhAc", "AdAc"} | {f"{h}:0.5" for h in _combo_names("KK", None)}


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["range", "QQ+,AKx"], "invalid range token 'AKx'"),
        (["range", ""], "no hands given"),
        (["range", " , "], "no hands given"),
        (["equity", "AsKs", "AsQd"], "As"),
        (["equity", "AsKs", "QQ", "--board", "2c3c4c5c6c7c"], "got 6"),
        (["equity", "AsKs", "QQ", "--board", "2d3c"], "invalid board '2d 3c'"),
        (["equity", "AsKs", ""], "holds no hand"),
        (["equity", "AsKs", "QQ", "--exact", "--samples", "10"], "exclude each other"),
        (["equity", "AsKs", "QQ", "--players", "1"], "fewer than the 2 given"),
        (["equity", "AsKs", "QQ", "--samples", "1"], "at least 2"),
    ],
)
def test_bad_input_exits_2(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    out = capsys.readouterr()
    assert out.out == ""
    lines = out.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("checkraise: error:")
    assert says in lines[0]
