"""The Markov baseline: forward algorithm against brute force, fits recover their model."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest
from tests.shared_data import PLURIBUS_SAMPLE

from checkraise.analysis.markov import (
    OBSERVATIONS,
    MarkovModel,
    MarkovModelError,
    Trail,
    fit,
    trails_from_hands,
)
from checkraise.histories import parse_file
from checkraise.opponents.categories import hand_category


def _random_model(states: tuple[int, ...], symbols: int, seed: int) -> MarkovModel:
    rng = np.random.default_rng(seed)
    return MarkovModel(
        rng.dirichlet(np.ones(states[0])),
        tuple(rng.dirichlet(np.ones(b), size=a) for a, b in itertools.pairwise(states)),
        tuple(rng.dirichlet(np.ones(symbols), size=k) for k in states),
    )


def _brute_force(m: MarkovModel, obs: list[int | None]) -> list[np.ndarray]:
    """P(state_s | obs_0..s) by summing over every sequence of states."""
    out = []
    for s in range(len(obs)):
        post = np.zeros(m.states[s])
        for seq in itertools.product(*(range(k) for k in m.states[: s + 1])):
            p = m.initial[seq[0]]
            for t, c in enumerate(seq):
                if t:
                    p *= m.transitions[t - 1][seq[t - 1], c]
                if obs[t] is not None:
                    p *= m.emissions[t][c, obs[t]]
            post[seq[-1]] += p
        out.append(post / post.sum())
    return out


@pytest.mark.parametrize("obs", [[0], [2, 1, 0], [1, None, 2], [None, None, None], [0, 0, 1]])
def test_forward_equals_brute_force_enumeration(obs: list[int | None]) -> None:
    m = _random_model((2, 3, 3), 3, seed=5)
    for got, want in zip(m.filter(obs), _brute_force(m, obs), strict=True):
        assert got == pytest.approx(want, abs=1e-12)


def _max_error(a: MarkovModel, b: MarkovModel) -> float:
    pairs = [(a.initial, b.initial), *zip(a.transitions, b.transitions, strict=True),
             *zip(a.emissions, b.emissions, strict=True)]
    return max(float(np.max(np.abs(x - y))) for x, y in pairs)


def test_fit_recovers_a_model_from_its_samples() -> None:
    truth = _random_model((3, 4, 4), 4, seed=11)
    trails = truth.sample(20_000, seed=1)
    fitted = fit(trails, states=(3, 4, 4), symbols=4, smoothing=0.0)
    assert _max_error(fitted, truth) < 0.03
    assert fitted.header["iterations"] == 1 and fitted.header["labelled"] == 20_000
    by_hand = np.mean([
        math.log(fitted.initial[t.categories[0]])
        + sum(math.log(fitted.transitions[s][t.categories[s], t.categories[s + 1]])
              for s in range(2))
        + sum(math.log(fitted.emissions[s][t.categories[s], t.observations[s]])
              for s in range(3))
        for t in trails])
    assert fitted.header["log_likelihood"] == pytest.approx(by_hand, rel=1e-12)
    # A far model would have been no better than a random one.
    assert _max_error(_random_model((3, 4, 4), 4, seed=12), truth) > 0.2


def test_baum_welch_recovers_it_with_most_categories_hidden() -> None:
    truth = _random_model((3, 4, 4), 4, seed=11)
    trails = truth.sample(20_000, seed=2)
    hidden = [Trail((None,) * len(t.categories), t.observations) if k % 4 else t
              for k, t in enumerate(trails)]  # three in four hidden
    fitted = fit(hidden, states=(3, 4, 4), symbols=4, smoothing=0.0, seed=3, tol=1e-8)
    assert fitted.header["labelled"] == 5_000
    assert _max_error(fitted, truth) < 0.06
    history = fitted.header["log_likelihood_history"]
    assert len(history) > 2
    assert all(b >= a - 1e-10 for a, b in itertools.pairwise(history))  # EM never goes down
    # Seeded: the same seed gives the same model.
    again = fit(hidden, states=(3, 4, 4), symbols=4, smoothing=0.0, seed=3, tol=1e-8)
    assert _max_error(again, fitted) == 0.0


def test_smoothing_leaves_unseen_states_and_symbols_impossible() -> None:
    trails = [Trail((0, 1), (0, 2)), Trail((1, 1), (1, 2))]
    m = fit(trails, states=(2, 3), symbols=3, smoothing=1.0)
    assert m.transitions[0][:, [0, 2]].tolist() == [[0.0, 0.0], [0.0, 0.0]]
    assert m.emissions[1][:, :2].sum() == 0.0
    assert m.emissions[0][0].tolist() == pytest.approx([2 / 3, 1 / 3, 0.0])  # (1+1, 0+1, -)


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    m = fit(_random_model((4, 11, 11, 11), len(OBSERVATIONS), 3).sample(500, seed=4),
            seed=7, command="checkraise predict-eval x --baseline markov")
    path = m.save(tmp_path / "markov.json")
    data = json.loads(path.read_text())
    assert data["header"]["format"] == "checkraise.markov" and data["header"]["version"] == 1
    assert data["header"]["seed"] == 7 and data["header"]["command"].startswith("checkraise")
    assert data["categories"][1][9:] == ["flush draw", "straight draw"]
    back = MarkovModel.load(path)
    assert _max_error(back, m) == 0.0 and back.header == m.header


@pytest.mark.parametrize(("edit", "message"), [
    (lambda d: d["header"].update(version=2), "expected 'checkraise.markov' version 1"),
    (lambda d: d["initial"].append(0.0), r"transitions\[0\] has shape \(2, 2\): expected \(3, 2\)"),
    (lambda d: d["emissions"][1][0].__setitem__(0, 5.0), r"emissions\[1\] has a row summing"),
    (lambda d: d["transitions"][0][0].__setitem__(0, -0.5), "negative"),
    (lambda d: d.pop("emissions"), "'emissions' is missing"),
])
def test_damaged_files_are_refused(tmp_path: Path, edit, message: str) -> None:  # type: ignore[no-untyped-def]
    data = _random_model((2, 2), 2, seed=1).to_json()
    edit(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(MarkovModelError, match=message):
        MarkovModel.load(path)


def test_trails_of_real_hands() -> None:
    from checkraise.engine import ActionKind
    from checkraise.histories import replay

    hands = parse_file(PLURIBUS_SAMPLE)
    trails = iter(trails_from_hands(hands))
    lengths = set()
    for hand in hands:
        history = replay(hand, check_payout=False).observation(0).history
        dealt = (0, 3, 4, 5).index(len(hand.board)) + 1
        for seat, player in enumerate(hand.seats):
            t = next(trails)
            folds = [rnd for s, rnd, a in history if s == seat and a.kind is ActionKind.FOLD]
            assert len(t.categories) == len(t.observations) == (folds[0] + 1 if folds else dealt)
            lengths.add(len(t.categories))
            for s, c in enumerate(t.categories):
                board = tuple(hand.board[: (0, 3, 4, 5)[s]])
                assert c == hand_category(player.hole_cards, board)
            acted = {rnd for s, rnd, _ in history if s == seat}
            assert {s for s, o in enumerate(t.observations) if o is not None} == acted
    assert next(trails, None) is None
    assert {1, 2} <= lengths


@pytest.mark.parametrize(("trail", "message"), [
    (Trail((0, 5), (0, 1)), "category 5 on street 1, expected 0..2"),
    (Trail((0, 1), (0, 7)), "observation 7 on street 1, expected 0..2"),
    (Trail((0,), (0, 1)), "1 categories and 2 observations"),
])
def test_bad_trails_are_refused(trail: Trail, message: str) -> None:
    with pytest.raises(MarkovModelError, match=message):
        fit([trail], states=(2, 3), symbols=3)


def test_filter_refuses_unknown_symbols() -> None:
    model = MarkovModel.from_json(_random_model((4, 11, 11, 11), 9, 1).to_json())
    with pytest.raises(MarkovModelError, match=r"observation 9 on street 0: expected None or 0"):
        model.filter([9])
