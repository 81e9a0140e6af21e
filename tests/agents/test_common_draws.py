"""``draws=hand``: every random draw of the blueprint and ``resolve`` bots from the seed,
the hand number and the decision alone (common random numbers).

What it is for: ``resolve`` plays its blueprint before the streets it re-solves, so with
the same seed the two must play those streets alike in every hand, whatever happened in
the hands before; then a duplicate match between them is exactly 0 on every deal over
before the river. With the default ``stream`` draws the first river that goes
differently shifts every later draw, which the last test shows.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from checkraise.agents import make_agent
from checkraise.agents.base import AgentSpecError
from checkraise.agents.blueprint import hand_uniform, pick
from checkraise.agents.probabilities import HandActionProbabilities
from checkraise.arena.ring import RingConfig, RingResult, play_ring
from checkraise.cards import COMBO_CARDS, combo_index, parse_cards
from checkraise.cli.main import main
from checkraise.engine import RuleSet, State, TableConfig
from checkraise.errors import ConfigError

_RESOLVE = "resolve:mode=unsafe,iterations=10,seconds=30"


def _betting(folder: Path, rotation: int) -> list[str]:
    """Each hand's betting (ACPC ``STATE`` field) in a rotation's log."""
    text = (folder / f"rotation-{rotation}.log").read_text()
    return [line.split(":")[2] for line in text.splitlines() if line.startswith("STATE:")]


def _before_river(betting: str) -> list[str]:
    return betting.split("/")[:3]


def _river_action(betting: str) -> bool:
    """Whether anyone acted on the river (an all-in before it logs as ``r20000c///``)."""
    streets = betting.split("/")
    return len(streets) >= 4 and streets[3] != ""


def _match(tmp_path: Path, agents: tuple[str, str], name: str) -> tuple[RingResult, Path]:
    config = RingConfig(agents, hands=24, rules=RuleSet.ACPC)
    folder = tmp_path / name
    return play_ring(config, seed=17, workers=1, log_dir=folder), folder


def test_pick_draws_each_index_with_its_probability() -> None:
    p = np.array([0.2, 0.0, 0.5, 0.3, 0.0])
    u = np.arange(100_000) / 100_000  # a uniform grid: the shares come out exactly
    counts = np.bincount([pick(p, x) for x in u], minlength=5)
    assert counts.tolist() == [20_000, 0, 50_000, 30_000, 0]
    assert pick(p, np.nextafter(1.0, 0.0)) == 3  # the top of [0, 1): not a zero weight


_CONFIG = TableConfig.nolimit(2, 20_000, 50, 100, rules=RuleSet.ACPC)


def _mixed_hand() -> tuple[tuple[int, int], HandActionProbabilities]:
    """A hand the blueprint mixes on the button's first decision (two actions of 15% or
    more), and the blueprint's probabilities there."""
    bot = make_agent("blueprint:file=small", seed=0)
    state = State(_CONFIG, hole_cards=[parse_cards("2c2d"), parse_cards("3c3d")])
    bot.begin_hand(0, _CONFIG, tuple(parse_cards("2c2d")), 0)
    probs = bot.action_probabilities(state.observation(0))
    for i, row in enumerate(probs.probs):
        if (row >= 0.15).sum() >= 2 and not set(COMBO_CARDS[i]) & {0, 1, 4, 5}:
            return (int(COMBO_CARDS[i][0]), int(COMBO_CARDS[i][1])), probs
    raise AssertionError("the blueprint mixes no hand there")


def _first_action(bot, hole: tuple[int, int], hand: int) -> str:
    state = State(_CONFIG, hole_cards=[hole, tuple(parse_cards("2c2d"))])
    bot.begin_hand(0, _CONFIG, hole, hand)
    action = bot.act(state.observation(0))
    return f"{action.kind.name}{action.amount or ''}"


def test_pick_refuses_weights_that_are_no_distribution() -> None:
    for bad in ([0.5, float("nan")], [0.7, -0.2, 0.5], [0.0, 0.0], []):
        with pytest.raises(ConfigError, match="expected finite weights >= 0 with a positive"):
            pick(bad, 0.5)


def test_stream_draws_take_one_number_a_decision_from_the_session_s_generator() -> None:
    # the default: one generator seeded by the bot's seed, one uniform per decision
    # (numpy's choice with p draws one), whatever the hand number; hand draws take none
    hole, _ = _mixed_hand()
    for draws, per_decision in (("stream", 1), ("hand", 0)):
        bot = make_agent(f"blueprint:file=small,draws={draws}", seed=8)
        twin = np.random.default_rng(8)
        for hand in (5, 0, 99, 3):
            _first_action(bot, hole, hand)
            twin.random(per_decision)
            assert bot.rng.bit_generator.state == twin.bit_generator.state, (draws, hand)


def test_hand_draws_play_the_blueprint_s_probabilities() -> None:
    # one decision in 3,000 different hands: the shares of the actions drawn against
    # the blueprint's own probabilities for that hand
    hole, probs = _mixed_hand()
    bot = make_agent("blueprint:file=small,draws=hand", seed=5)
    counts: dict[str, int] = {}
    for hand in range(3000):
        key = _first_action(bot, hole, hand)
        counts[key] = counts.get(key, 0) + 1
    row = probs.probs[combo_index(*hole)]
    expected = {f"{a.kind.name}{a.amount or ''}": float(p)
                for a, p in zip(probs.actions, row, strict=True)}
    assert set(counts) <= {k for k, p in expected.items() if p > 0}
    for key, p in expected.items():
        # 4.5 binomial standard errors: a wrong sampler is off by far more
        assert abs(counts.get(key, 0) / 3000 - p) <= 4.5 * np.sqrt(p * (1 - p) / 3000) + 1e-9


def test_a_hand_s_draws_do_not_depend_on_the_hands_before() -> None:
    # a bot that played hands 0..k-1 first and a fresh one play hand k alike, for 40
    # hands k; with stream draws they do not (the fresh one's generator is at its start)
    hole, _ = _mixed_hand()
    for draws, alike in (("hand", True), ("stream", False)):
        played = make_agent(f"blueprint:file=small,draws={draws}", seed=3)
        same = []
        for hand in range(40):
            fresh = make_agent(f"blueprint:file=small,draws={draws}", seed=3)
            same.append(_first_action(played, hole, hand) == _first_action(fresh, hole, hand))
        assert all(same) is alike, draws


def test_resolve_plays_its_blueprint_until_it_re_solves(tmp_path: Path) -> None:
    result, folder = _match(
        tmp_path, (f"{_RESOLVE},draws=hand", "blueprint:file=small,draws=hand"), "hand"
    )
    first, second = _betting(folder, 0), _betting(folder, 1)
    assert len(first) == len(second) == 24
    rivers = 0
    for deal, (a, b) in enumerate(zip(first, second, strict=True)):
        assert _before_river(a) == _before_river(b), deal
        if not any(_river_action(x) for x in (a, b)):  # nobody acted on a river
            assert result.deal_chips[deal] == [0, 0], deal
        else:
            rivers += 1
    assert rivers >= 3  # the re-solves were played, and some deals did differ
    assert any(row != [0, 0] for row in result.deal_chips)


def test_stream_draws_lose_step_after_a_river(tmp_path: Path) -> None:
    # the same match with the default draws: resolve's river draws do not come from its
    # blueprint's generator, so the two seatings stop playing alike before the river
    _, folder = _match(tmp_path, (_RESOLVE, "blueprint:file=small"), "stream")
    first, second = _betting(folder, 0), _betting(folder, 1)
    assert any(_before_river(a) != _before_river(b) for a, b in zip(first, second,
                                                                    strict=True))


def test_draws_takes_only_its_values() -> None:
    for spec in ("blueprint:file=small,draws=deal", f"{_RESOLVE},draws=deal"):
        with pytest.raises(AgentSpecError, match="draws='deal'; expected one of stream or hand"):
            make_agent(spec)
    assert hand_uniform(1, 2, 3, 4) != hand_uniform(1, 2, 3, 5)


def test_the_benchmark_finds_every_deal_in_step(tmp_path: Path) -> None:
    out = tmp_path / "m"
    assert main(["match", f"{_RESOLVE},draws=hand", "blueprint:file=small,draws=hand",
                 "-n", "16", "--seed", "3", "--rules", "acpc", "--workers", "1",
                 "--out", str(out), "--json"]) == 0
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "common_draws.py"
    done = subprocess.run([sys.executable, str(script), str(out), "--json"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["deals"] == figures["in_step"] == 16
    assert figures["in_step_reached_river"] == figures["reached_river"] > 0
    assert figures["sd_not_in_step"] is None  # no deal out of step to measure
    for r in (0, 1):  # archived: the hand logs gzipped, the plain ones gone
        log = out / "logs" / f"rotation-{r}.log"
        with gzip.open(log.with_name(log.name + ".gz"), "wt") as f:
            f.write(log.read_text())
        log.unlink()
    again = subprocess.run([sys.executable, str(script), str(out), "--json"],
                           capture_output=True, text=True, check=False)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout) == figures
    archive = out / "logs" / "rotation-1.log.gz"
    archive.write_text("STATE:not packed\n")  # an archive that is not gzip data
    bad = subprocess.run([sys.executable, str(script), str(out)], capture_output=True,
                         text=True, check=False)
    assert bad.returncode != 0 and "rotation-1.log.gz: " in bad.stderr
    assert "expected a gzipped log" in bad.stderr
    archive.unlink()  # neither the log nor its archive
    gone = subprocess.run([sys.executable, str(script), str(out)], capture_output=True,
                          text=True, check=False)
    assert gone.returncode != 0
    assert "rotation-1.log: no such file, nor its archive rotation-1.log.gz" in gone.stderr
