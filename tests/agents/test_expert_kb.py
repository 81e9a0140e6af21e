"""The expert knowledge base: loader on good and bad files, rules on hand-built spots."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from checkraise.agents.expert_kb import KnowledgeBaseError, load_knowledge_base
from checkraise.agents.expert_rules import advise, board_texture
from checkraise.cards import parse_cards
from checkraise.engine import Action, State, TableConfig
from checkraise.engine.actions import ActionEvent

DATA = Path(load_knowledge_base.__code__.co_filename).parents[1] / "data" / "expert"
PREFLOP = (DATA / "preflop.toml").read_text()
POSTFLOP = (DATA / "postflop.toml").read_text()


def _write(tmp_path: Path, preflop: str = PREFLOP, postflop: str = POSTFLOP) -> tuple[Path, Path]:
    pre, post = tmp_path / "preflop.toml", tmp_path / "postflop.toml"
    pre.write_text(preflop)
    post.write_text(postflop)
    return pre, post


def test_the_shipped_files_load_and_cover_every_spot() -> None:
    kb = load_knowledge_base()
    assert len(kb.preflop.spots) == 2 * 4 * 3
    assert all(len(row) == 169 for row in kb.preflop.spots.values())
    assert kb.postflop[-1].conditions == {}
    assert all(rule.reason for rule in kb.postflop)


def test_the_same_files_given_by_path_load_alike(tmp_path: Path) -> None:
    kb = load_knowledge_base(*_write(tmp_path))
    assert kb.preflop.spots == load_knowledge_base().preflop.spots


@pytest.mark.parametrize(("old", "new", "message"), [
    ('action = "raise"\nsize = 2.5', 'action = "shove"\nsize = 2.5',
     "preflop.toml: spot 1 entry 1 action: 'shove'; expected one of"),
    ('size = 2.5', 'size = 0.5', "preflop.toml: spot 1 entry 1 size: 0.5; a raise needs"),
    ('hands = "TT+, AQ+, A5s-A4s"', 'hands = "TT+, AQ+, A5s-A4s, 22"',
     "preflop.toml: spot 3 entry 2: hand 22 is already in spot 3 entry 1"),
    ('hands = "QQ+, AK, A5s"', 'hands = "QQ+, AK, A5x"', "preflop.toml: spot 4 entry 1 hands"),
    ('stacks = ["medium", "deep"]\ndefault = "fold"', 'stacks = ["deep"]\ndefault = "fold"',
     "no spot for position=button, situation=unopened, stacks=medium"),
    ('position = "bigblind"\nsituation = "unopened"', 'position = "bigblind"\nsituation = "limp"',
     "spot 7 situation: 'limp'; expected one of"),
    ('commit_fraction = 0.4', 'commit_fraction = 4', "[meta] commit_fraction: 4"),
    ('small_reraise = 2.2', 'small_reraise = 0.5', "[meta] small_reraise: 0.5; expected"),
])
def test_bad_preflop_entries_are_named(tmp_path: Path, old: str, new: str, message: str) -> None:
    assert old in PREFLOP
    with pytest.raises(KnowledgeBaseError, match=re.escape(message)):
        load_knowledge_base(*_write(tmp_path, preflop=PREFLOP.replace(old, new, 1)))


@pytest.mark.parametrize(("old", "new", "message"), [
    ('facing = ["none"]\nmin_hs = 0.97', 'facing = ["bet"]\nmin_hs = 0.97',
     "postflop.toml: rule 1 (nuts-unbet) facing: ['bet']; expected a list of"),
    ('actions = ["bet:0.75", "bet:0.5", "check"]', 'actions = ["bet:big", "check"]',
     "rule 1 (nuts-unbet): action 'bet:big'; expected fold, check, call"),
    ('min_hs = 0.85\nactions = ["bet:0.66"', 'min_hs = 1.85\nactions = ["bet:0.66"',
     "rule 2 (value-unbet) min_hs: 1.85; expected a number in 0..1"),
    ('name = "weak-facing"\n', 'name = "weak-facing"\nmax_outs = 3\n',
     "rule 16 (weak-facing): the last rule has conditions"),
    ('name = "draw-unbet"\n', 'name = "draw-unbet"\nwhen = "always"\n',
     "rule 4: unknown key 'when'"),
    ('unbet = [0.0, 0.30, 0.20, 0.30, 0.15, 0.05]', 'unbet = [0.1, 0.30, 0.20, 0.30, 0.15, 0.05]',
     "opponent tier 1 unbet: folds with nothing to call"),
    ('facing = [0.0, 0.45, 0.10, 0.25, 0.10, 0.10]', 'facing = [0.0, 0.45, 0.10]',
     "opponent tier 1 facing: [0.0, 0.45, 0.1]; expected 6 non-negative"),
])
def test_bad_postflop_entries_are_named(tmp_path: Path, old: str, new: str, message: str) -> None:
    assert old in POSTFLOP
    with pytest.raises(KnowledgeBaseError, match=re.escape(message)):
        load_knowledge_base(*_write(tmp_path, postflop=POSTFLOP.replace(old, new, 1)))


def test_a_file_that_is_not_toml_is_named(tmp_path: Path) -> None:
    with pytest.raises(KnowledgeBaseError, match=r"postflop\.toml: not valid TOML"):
        load_knowledge_base(*_write(tmp_path, postflop="[[rule]\nname = 1"))


# ----------------------------------------------------------------- rules on hand-built spots

def _preflop(hole: str, actions: tuple[Action, ...] = (), stacks: int = 20_000) -> State:
    state = State(TableConfig.nolimit(2, stacks=stacks), hole_cards=[parse_cards(hole), None],
                  seed=1)
    for action in actions:
        state.step(action)
    return state


def _hero(state: State, hole: str, seat: int) -> State:
    holes: list[list[int] | None] = [None, None]
    holes[seat] = parse_cards(hole)
    fresh = State(state.config, hole_cards=holes, seed=2)
    for event in state.history:
        if isinstance(event, ActionEvent):
            fresh.step(event.action)
    return fresh


def test_aces_open_on_the_button_and_seven_deuce_folds() -> None:
    # 200 big blinds deep, first to act on the button: AA is the best hand (raise to 2.5 bb),
    # 72o the worst (fold; the small blind's 50 chips are already gone).
    aces = advise(_preflop("AsAh").observation(0))
    assert [str(a) for a in aces.actions] == ["r250"] and aces.features["situation"] == "unopened"
    trash = advise(_preflop("7c2d").observation(0))
    assert [str(a) for a in trash.actions] == ["f"]


def test_big_blind_checks_trash_after_a_limp_and_folds_it_to_a_raise() -> None:
    # Checking is free, so a limp never makes the big blind fold; a raise does.
    limped = _hero(_preflop("7c2d", (Action.call(),)), "7c2d", 1)
    assert [str(a) for a in advise(limped.observation(1)).actions] == ["c"]
    raised = _hero(_preflop("7c2d", (Action.raise_to(250),)), "7c2d", 1)
    assert [str(a) for a in advise(raised.observation(1)).actions] == ["f"]


def test_facing_an_all_in_counts_as_a_four_bet_whatever_came_before() -> None:
    # An all-in commits our whole stack: only the top of the range continues.
    shove = _preflop("AsAh", (Action.raise_to(20_000),))
    kings = _hero(shove, "KsKh", 1)
    advice = advise(kings.observation(1))
    assert advice.features["situation"] == "fourbet"
    assert [str(a) for a in advice.actions] == ["c"]  # all-in = call: he has no chips left
    nine_four = advise(_hero(shove, "9c4d", 1).observation(1))
    assert [str(a) for a in nine_four.actions] == ["f"]


def test_a_min_re_raise_is_faced_like_the_raise_before_it() -> None:
    # Button opens to 250, the big blind re-raises the minimum to 400: calling 150 to win
    # 800 needs 16% equity, the price of a first raise, so K8o calls as it would there;
    # a re-raise to 750 (three times) is a real three-bet, and K8o folds to it.
    small = _hero(_preflop("Kc8d", (Action.raise_to(250), Action.raise_to(400))), "Kc8d", 0)
    advice = advise(small.observation(0))
    assert advice.features["situation"] == "raise" and advice.actions == (Action.call(),)
    big = _hero(_preflop("Kc8d", (Action.raise_to(250), Action.raise_to(750))), "Kc8d", 0)
    advice = advise(big.observation(0))
    assert advice.features["situation"] == "reraise" and advice.actions == (Action.fold(),)


def test_short_stacks_push_or_fold() -> None:
    # 15 big blinds: A5o shoves (A-x is ahead of a calling range often enough).
    state = _preflop("Ac5d", stacks=1_500)
    advice = advise(state.observation(0))
    assert advice.features["stacks"] == "short"
    assert [str(a) for a in advice.actions] == ["r1500"]


def _postflop_spot(hole: str, board: str, bet_to: int | None) -> State:
    """Pot of 600 (raised to 300, called); the big blind bets to ``bet_to`` or checks."""
    state = State(TableConfig.nolimit(2), hole_cards=[parse_cards(hole), None],
                  board=parse_cards(board), seed=3)
    state.step(Action.raise_to(300))
    state.step(Action.call())
    state.step(Action.raise_to(bet_to) if bet_to else Action.call())
    return state


def test_the_nuts_bets_for_value() -> None:
    # A royal flush on the flop beats every hand: the rule for the top of all ranges.
    advice = advise(_postflop_spot("AhKh", "QhJhTh", None).observation(0))
    assert advice.entry == "rule 1 (nuts-unbet)" and advice.features["hs"] == 1.0
    assert advice.actions[0] == Action.raise_to(300 + 450)  # three quarters of the 600 pot


def test_air_folds_to_a_pot_sized_bet() -> None:
    # 7-2 on A-K-Q rainbow: no pair, no draw, and a pot-sized bet asks for a third of the pot.
    advice = advise(_postflop_spot("7c2d", "AsKhQd", 900).observation(0))
    assert advice.features["facing"] == "raise-medium"
    assert advice.entry == "rule 16 (weak-facing)" and advice.actions == (Action.fold(),)


def test_a_flush_draw_calls_a_small_bet_and_folds_to_a_big_one() -> None:
    # Nine hearts make the flush: 9/47 = 19% to hit on the turn. A quarter-pot bet asks for
    # 150 / 900 = 17% of the pot (the draw pays); three pots ask for 1800 / 4200 = 43% (no).
    small = advise(_postflop_spot("9h8h", "Kh4h2c", 450).observation(0))
    assert small.features["draw"] and small.features["outs"] >= 9
    assert small.features["draw_pays"] and small.entry == "rule 14 (draw-priced-in)"
    assert small.actions == (Action.call(), Action.fold())
    big = advise(_postflop_spot("9h8h", "Kh4h2c", 2100).observation(0))
    assert not big.features["draw_pays"] and big.actions == (Action.fold(),)


def test_board_textures() -> None:
    assert [board_texture(parse_cards(b)) for b in ("Ks7d2c", "QhJd9s", "8c8d3h", "Th6h2h")] == \
        ["dry", "wet", "paired", "monotone"]
