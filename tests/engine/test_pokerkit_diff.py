"""Differential test against PokerKit: 2,000 random casino-rules hands, 2-10 seats.

The hands are played by ``benchmarks/pokerkit_diff.py`` (the same script runs
100,000 hands outside the suite). At every decision the seat to act, the call
amount, whether folding is allowed and the minimum and maximum raise must agree;
at the end our stacks must equal an independent pot-by-pot model and PokerKit's
stacks that model's merged-ties variant (the one rule where we differ on purpose,
odd chips when tied players share several side pots, pinned by a hand-worked case).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from checkraise.cards import parse_cards
from checkraise.engine import Action, State, TableConfig
from tests.engine import pot_model
from tests.engine.pokerkit_diff import Deal, play

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "pokerkit_diff.py"
CHUNKS = 4
PER_CHUNK = 500


@pytest.fixture(scope="module")
def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_pokerkit_diff", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_hands_agree_with_pokerkit(script: ModuleType, chunk: int) -> None:
    s = script.run(PER_CHUNK, seed=chunk)
    assert s.mismatches == []
    # The tables are drawn so that every size, antes, all-ins and side pots are common.
    assert set(s.seats) == set(range(2, 11))
    assert s.antes > PER_CHUNK // 5
    assert s.all_in > PER_CHUNK // 2
    assert s.side_pots > PER_CHUNK // 4
    assert s.showdowns > PER_CHUNK // 2


def test_script_prints_counts_and_mismatches(
    script: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    assert script.main(["--hands", "40", "--seed", "7", "--progress", "20"]) == 0
    out = capsys.readouterr().out
    assert "40 / 40 hands  0 mismatches" in out
    assert "hands played          40\n" in out
    assert "mismatches            0" in out
    with pytest.raises(SystemExit):
        script.main(["--hands", "0"])


def test_script_reports_a_disagreement(
    script: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A model that moves one chip must show up as a mismatch naming the hand's seed.
    real = pot_model.final_stacks

    def off_by_one(*args: object, **kw: object) -> tuple[int, ...]:
        stacks = real(*args, **kw)  # type: ignore[arg-type]
        return (stacks[0] + 1, *stacks[1:])

    monkeypatch.setattr(pot_model, "final_stacks", off_by_one)
    s = script.run(3, seed=0)
    assert [seed for seed, _ in s.mismatches] == [0, 1, 2]
    assert script.main(["--hands", "1", "--progress", "0"]) == 1


def _side_pot_tie() -> Deal:
    # Seat 2 is all-in for 7 with the worst hand; seats 1 and 3 tie with the same
    # straight and share a 29-chip main pot and a 29-chip side pot.
    cfg = TableConfig.nolimit(5, stacks=(100, 100, 7, 100, 100), small_blind=1, big_blind=2)
    cards = parse_cards("7d8d Th3c 5h6h Td4c 9c9d AcKdQhJs2c")
    acts = ["r7", "c", "c", "f", "c", "r10", "c", "c", "r20", "c", "f", "c", "c"]
    return Deal(cfg, cards=tuple(cards), actions=tuple(Action.parse(a) for a in acts))


def test_tied_side_pots_split_separately() -> None:
    deal = _side_pot_tie()
    s = State(deal.config, deck=deal.cards)
    for a in deal.actions or ():
        s.step(a)
    assert s.is_terminal
    # Main pot 7*4 + 1 dead = 29, side pot 3*3 + 10*2 = 29: each splits 15/14 with the
    # odd chip to seat 1, the first winner left of the button (seat 4).
    assert s.winnings() == (0, 30, 0, 28, 0)
    assert s.payoffs() == (-1, 10, -7, 8, -10)


def test_pokerkit_merges_tied_side_pots() -> None:
    # PokerKit kills seat 2's losing hand, merges both pots into one of 58 chips and
    # splits it 29/29. Regression case for the one rule where we differ on purpose.
    out = play(_side_pot_tie())
    assert out.engine_stacks == (99, 110, 0, 108, 90)
    assert out.pokerkit_stacks == (99, 109, 0, 109, 90)
    assert out.odd_chip_difference


def test_pot_model_by_hand() -> None:
    # The same hand worked through the model: seats 0 and 4 folded after putting in
    # 1 and 10, seat 2 is all-in for 7, seats 1 and 3 put in 20 each and tie.
    totals = [1, 20, 7, 20, 10]
    folded = [True, False, False, False, True]
    ranks = [0, 9, 1, 9, 0]
    assert pot_model.pot_list(totals, [not f for f in folded]) == [(29, (1, 2, 3)), (29, (1, 3))]
    assert pot_model.winnings(totals, folded, ranks, button=4) == [0, 30, 0, 28, 0]
    assert pot_model.winnings(totals, folded, ranks, button=4, merge_tied=True) == [0, 29, 0, 29, 0]
