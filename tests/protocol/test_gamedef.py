"""Game definition files: the five real files, Kuhn and Leduc, and errors that name the line."""

from __future__ import annotations

import doctest
import importlib

import pytest

from checkraise.engine import Betting, RuleSet
from checkraise.protocol import GameDef, GameDefError, load_gamedef, parse_gamedef
from tests.protocol.harness import DATA
from tests.shared_data import shared_data

GAME_FILES = sorted(p.name for p in DATA.glob("*.game"))


def test_all_five_files_load_and_round_trip() -> None:
    shared_data("acpc")  # fails on CI, skips locally, with the path, when the folder is missing
    assert len(GAME_FILES) == 5
    for name in GAME_FILES:
        game = load_gamedef(DATA / name)
        assert parse_gamedef(game.format()) == game


def test_values_read_from_the_files() -> None:
    nl2 = load_gamedef(DATA / "holdem.nolimit.2p.reverse_blinds.game")
    assert (nl2.betting, nl2.num_players, nl2.num_rounds) == ("nolimit", 2, 4)
    assert nl2.stacks == (20000, 20000) and nl2.blinds == (100, 50)
    assert nl2.first_player == (1, 0, 0, 0)  # 1-based "2 1 1 1" in the file
    assert nl2.num_board_cards == (0, 3, 1, 1) and nl2.max_raises is None
    l3 = load_gamedef(DATA / "holdem.limit.3p.game")
    assert l3.is_limit and l3.stacks is None and l3.stack(2) == 2**31 - 1
    assert l3.raise_sizes == (10, 10, 20, 20) and l3.max_raises == (3, 4, 4, 4)
    assert l3.blinds == (5, 10, 0) and l3.first_player == (2, 0, 0, 0)
    kuhn = load_gamedef(DATA / "kuhn.limit.3p.game")
    assert (kuhn.num_suits, kuhn.num_ranks, kuhn.num_hole_cards) == (1, 4, 1)
    assert kuhn.deck_size == 4 and kuhn.num_board_cards == (0,)


def test_table_config_of_holdem_games() -> None:
    cfg = load_gamedef(DATA / "holdem.nolimit.3p.game").to_table_config()
    assert cfg.rules is RuleSet.ACPC and cfg.betting is Betting.NOLIMIT
    assert cfg.blinds == (50, 100, 0) and cfg.stacks == (20000,) * 3
    assert cfg.first_player == (2, 0, 0, 0) and cfg.button == 2
    lim = load_gamedef(DATA / "holdem.limit.2p.reverse_blinds.game").to_table_config()
    assert lim.betting is Betting.LIMIT and lim.raise_sizes == (10, 10, 20, 20)
    assert lim.max_raises == (3, 4, 4, 4) and lim.first_player == (1, 0, 0, 0)


LEDUC = """# Leduc hold'em, two players
GAMEDEF
limit
numPlayers = 2
numRounds = 2
blind = 1 1
raiseSize = 2 4
firstPlayer = 1 1
maxRaises = 2 2
numSuits = 2
numRanks = 3
numHoleCards = 1
numBoardCards = 0 1
END GAMEDEF
"""


def test_kuhn_and_leduc_are_expressible_but_not_playable_by_the_engine() -> None:
    leduc = parse_gamedef(LEDUC)
    assert leduc.deck_size == 6 and leduc.raise_sizes == (2, 4)
    # Deck order of the reference dealer: suits from the top, ranks from the top.
    assert leduc.deck() == (4 * 10 + 2, 4 * 11 + 2, 4 * 12 + 2, 4 * 10 + 3, 4 * 11 + 3, 4 * 12 + 3)
    for game in (leduc, load_gamedef(DATA / "kuhn.limit.3p.game")):
        with pytest.raises(GameDefError, match="52-card deck"):
            game.to_table_config()


def test_keys_are_case_insensitive_and_comments_are_skipped() -> None:
    text = LEDUC.replace("numPlayers = 2", "NUMPLAYERS=2   # two seats").replace(
        "limit\n", "LIMIT\n\n# betting above\n", 1
    )
    assert parse_gamedef(text) == parse_gamedef(LEDUC)


@pytest.mark.parametrize(
    ("old", "new", "line", "message"),
    [
        ("numRounds = 2", "numRound = 2", 5, "unknown key 'numRound'"),
        ("numRounds = 2", "bogus", 5, "unknown key 'bogus'"),
        ("blind = 1 1", "blind = 1 x", 6, "integer values"),
        ("blind = 1 1", "blind = 1", 6, "blind needs 2 values"),
        ("blind = 1 1", "blind = ", 6, "integer values"),
        ("raiseSize = 2 4", "raiseSize = 2 4 8", 7, "raiseSize needs 2 values"),
        ("firstPlayer = 1 1", "firstPlayer = 1 3", 8, "firstPlayer values must be 1..2"),
        ("firstPlayer = 1 1", "firstPlayer = 0 1", 8, "firstPlayer values must be 1..2"),
        ("maxRaises = 2 2", "maxRaises = 2 300", 9, "0..255"),
        ("numPlayers = 2", "numPlayers = 2 3", 4, "takes one value"),
        ("numPlayers = 2", "numPlayers = 11", 4, "numPlayers must be 2..10"),
        ("numSuits = 2", "numSuits = 5", 10, "numSuits must be 1..4"),
        ("numHoleCards = 1", "numHoleCards = 4", 12, "numHoleCards must be 1..3"),
        ("numBoardCards = 0 1", "numBoardCards = 0 7", 13, "cards are dealt but the deck"),
        ("numRanks = 3", "numRanks = 3\nnumRanks = 3", 12, "given twice"),
        ("END GAMEDEF", "END GAMEDEF\nlimit", 15, "after END GAMEDEF"),
    ],
)
def test_errors_name_the_line(old: str, new: str, line: int, message: str) -> None:
    text = LEDUC.replace(old, new)
    with pytest.raises(GameDefError, match=message) as info:
        parse_gamedef(text, source="leduc.game")
    assert f"leduc.game:{line}:" in str(info.value)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("END GAMEDEF", "", "no END GAMEDEF"),
        ("numSuits = 2", "", "missing key numSuits"),
        ("raiseSize = 2 4", "", "limit game without raiseSize"),
        ("GAMEDEF\n", "", "expected GAMEDEF first"),
    ],
)
def test_missing_parts_are_errors(old: str, new: str, message: str) -> None:
    with pytest.raises(GameDefError, match=message):
        parse_gamedef(LEDUC.replace(old, new, 1))


def test_stack_below_blind_names_the_stack_line() -> None:
    text = (DATA / "holdem.nolimit.2p.reverse_blinds.game").read_text()
    with pytest.raises(GameDefError, match=r"x.game:5: .*stack of seat 0 is 10"):
        parse_gamedef(text.replace("stack = 20000 20000", "stack = 10 20000"), source="x.game")


def test_unreadable_file(tmp_path: object) -> None:
    with pytest.raises(GameDefError, match="cannot read game file"):
        load_gamedef("/nonexistent/x.game")


def test_gamedef_validates_direct_construction() -> None:
    with pytest.raises(GameDefError, match="numRounds"):
        GameDef("limit", 2, 0, (1, 1), (), 4, 13, 2, ())


@pytest.mark.parametrize(
    "module",
    ["gamedef", "matchstate", "log", "deal", "match"],
)
def test_docstring_examples(module: str) -> None:
    mod = importlib.import_module(f"checkraise.protocol.{module}")
    result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
