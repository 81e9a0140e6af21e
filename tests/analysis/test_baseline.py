"""predict-eval --baseline markov: folds, the fair fight, and the category scores it prints."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from tests.shared_data import PLURIBUS_SAMPLE, shared_data

from checkraise.analysis.baseline import split_folds
from checkraise.analysis.markov import MarkovModel
from checkraise.analysis.prediction import evaluate_hands
from checkraise.cli.main import main
from checkraise.errors import ConfigError
from checkraise.histories import parse_file, replay
from checkraise.opponents.categories import hand_category


def test_folds_alternate_by_name() -> None:
    files = [Path(f"p_{n}.txt") for n in (3, 1, 4, 2, 5)]
    splits = split_folds(files, 2)
    assert [[p.name for p in te] for _, te in splits] == [["p_1.txt", "p_3.txt", "p_5.txt"],
                                                          ["p_2.txt", "p_4.txt"]]
    for train, test in splits:
        assert sorted(train + test) == sorted(files) and not set(train) & set(test)
    with pytest.raises(ConfigError, match=r"--folds 6 over 5 files: expected 2\.\.5"):
        split_folds(files, 6)
    with pytest.raises(ConfigError, match="--folds 1"):
        split_folds(files, 1)


def _scored_players(hands: list) -> list[tuple[tuple[int, int], tuple[int, ...], set[int]]]:  # type: ignore[type-arg]
    """(hole cards, board, streets acted on) of every player evaluate_hands scores."""
    out = []
    for hand in hands:
        history = replay(hand, check_payout=False).observation(0).history
        for seat, player in enumerate(hand.seats):
            acted = {rnd for s, rnd, _ in history if s == seat}
            if max(acted, default=0) >= 1:
                out.append((tuple(player.hole_cards), tuple(hand.board), acted))
    return out


def _paper_shaped(first: int, then: int) -> MarkovModel:
    """A Markov model sure of ``first`` preflop and of ``then`` on every later street."""
    initial = np.eye(4)[first]
    trans = (np.tile(np.eye(11)[then], (4, 1)), np.tile(np.eye(11)[then], (11, 1)),
             np.tile(np.eye(11)[then], (11, 1)))
    emissions = tuple(np.full((k, 9), 1 / 9) for k in (4, 11, 11, 11))
    return MarkovModel(initial, trans, emissions)


def test_category_scores_against_a_count_by_hand() -> None:
    hands = parse_file(PLURIBUS_SAMPLE)
    result = evaluate_hands(hands, markov=_paper_shaped(3, 1), flop_runouts=50)
    assert result.categories is not None
    players = _scored_players(hands)
    for street, name in enumerate(("preflop", "flop", "turn", "river")):
        mine = [(hole, board[: (0, 3, 4, 5)[street]]) for hole, board, acted in players
                if street in acted]
        cats = [hand_category(hole, board) for hole, board in mine]
        scores = {p: t.means() for p, t in result.categories[name].items()}
        assert {s["n"] for s in scores.values()} == {len(mine)}
        if not mine:
            continue
        # The Markov model above always names big pair preflop, pair after: top-1 is
        # the share of those; its top-2 adds the lowest-numbered other category.
        sure = 3 if street == 0 else 1
        assert scores["markov"]["top1"] == pytest.approx(np.mean([c == sure for c in cats]))
        if street == 0:
            # Uniform preflop: small high card (1,088 combos) > big high card (160) >
            # small pair (48) > big pair (30), the same on any board.
            assert scores["uniform"]["top1"] == pytest.approx(np.mean([c == 0 for c in cats]))
            assert scores["uniform"]["top2"] == pytest.approx(np.mean([c <= 1 for c in cats]))
            assert scores["uniform"]["top3"] == pytest.approx(np.mean([c <= 2 for c in cats]))
            assert scores["markov"]["top2"] == pytest.approx(np.mean([c in (0, 3)
                                                                      for c in cats]))


def test_a_markov_model_of_another_shape_is_refused() -> None:
    small = MarkovModel(np.array([1.0]), (np.array([[1.0]]),), (np.ones((1, 9)) / 9,) * 2)
    with pytest.raises(ConfigError, match=r"states \(1, 1\).*expected the paper's"):
        evaluate_hands(parse_file(PLURIBUS_SAMPLE), markov=small)


def test_cli_cross_validates_with_models_fitted_on_the_training_files_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = shared_data("pluribus", "pluribus_30.txt"), shared_data("pluribus", "pluribus_99.txt")
    out = tmp_path / "cv"
    assert main(["predict-eval", str(b), str(a), "--baseline", "markov", "--limit", "15",
                 "--flop-runouts", "50", "--out", str(out), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(f["train"], f["test"]) for f in data["folds"]] == [
        (["pluribus_99.txt"], ["pluribus_30.txt"]), (["pluribus_30.txt"], ["pluribus_99.txt"])]
    assert data["hands"] == 30
    rows = {(r["street"], r["predictor"]): r for r in data["rows"]}
    for street in ("preflop", "flop", "turn", "river"):
        ns = {rows[(street, p)]["n"] for p in ("uniform", "markov", "model", "adapted")}
        assert len(ns) == 1
        for z in ("top1", "top2", "top3"):
            want = 100 * (rows[(street, "model")][z] - rows[(street, "markov")][z])
            assert data["margin_model"][street][z] == pytest.approx(want)
            assert rows[(street, "markov")][z] <= rows[(street, "markov")]["top3"]
    assert rows[("flop", "model")]["n"] == data["players"] > 0
    # Fold 0 trained on pluribus_99 only: 15 hands of 6 players, every card known.
    markov = MarkovModel.load(out / "markov_fold0.json")
    assert markov.header["trails"] == markov.header["labelled"] == 90
    assert markov.header["command"].startswith("checkraise predict-eval ")
    assert "--baseline markov" in markov.header["command"]
    described = json.loads((out / "model_fold0.json").read_text())["description"]
    assert "(pluribus_99.txt)" in described and "15 hands" in described
    assert (out / "baseline.png").stat().st_size > 10_000
    assert json.loads((out / "baseline.json").read_text())["rows"] == data["rows"]


def test_cli_text_table_with_a_training_glob(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = shared_data("pluribus")
    assert main(["predict-eval", str(folder / "pluribus_99.txt"), "--baseline", "markov",
                 "--train", str(folder / "pluribus_3*.txt"), "--limit", "10",
                 "--flop-runouts", "50"]) == 0
    text = capsys.readouterr().out
    assert text.lstrip().startswith("10 held-out hands")
    assert "1 fold(s)" in text
    assert "mean flop-river" in text and "(paper +6.65)" in text


@pytest.mark.parametrize(("extra", "message"), [
    (["--baseline", "hmm"], "--baseline 'hmm': expected markov"),
    (["--baseline", "markov", "--model", "x.json"], "--model with --baseline markov"),
    (["--baseline", "markov", "--folds", "1"], "--folds 1 over 2 files"),
    (["--train", "A"], "--train needs --baseline markov"),
    (["--baseline", "markov", "--train", "A"], "share"),
    (["--baseline", "markov", "--train", "nothing*.txt"], "matches no file"),
    (["--baseline", "markov", "--train", "C", "--folds", "3"], "--folds with --train"),
])
def test_cli_refuses_bad_options(
    extra: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    a = str(shared_data("pluribus", "pluribus_30.txt"))
    b = str(shared_data("pluribus", "pluribus_99.txt"))
    c = str(shared_data("pluribus", "pluribus_32.txt"))
    args = [{"A": a, "C": c}.get(x, x) for x in extra]
    assert main(["predict-eval", a, b, *args]) == 2
    assert message in capsys.readouterr().err
