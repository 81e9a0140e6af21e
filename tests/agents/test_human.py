"""The human seat: parsing moves, re-asking on bad input, `checkraise play` on scripted stdin."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from checkraise.agents.human import HumanAgent, QuitGame, parse_move
from checkraise.cli.main import app
from checkraise.engine import Action, LegalActions, State, TableConfig

FACING = LegalActions(can_fold=True, can_check=False, call_amount=40, min_raise_to=80,
                      max_raise_to=2000)
FREE = LegalActions(can_fold=True, can_check=True, call_amount=0, min_raise_to=40,
                    max_raise_to=2000)


@pytest.mark.parametrize(
    "text, legal, expected",
    [
        ("f", FACING, Action.fold()),
        ("FOLD", FACING, Action.fold()),
        ("c", FACING, Action.call()),
        ("k", FREE, Action.call()),
        ("check", FREE, Action.call()),
        ("r 120", FACING, Action.raise_to(120)),
        ("r120", FACING, Action.raise_to(120)),
        ("raise 2000", FACING, Action.raise_to(2000)),
        ("b 40", FREE, Action.raise_to(40)),
        ("a", FACING, Action.raise_to(2000)),
        ("all-in", FACING, Action.raise_to(2000)),
    ],
)
def test_parse_move_accepts_the_documented_moves(
    text: str, legal: LegalActions, expected: Action
) -> None:
    assert parse_move(text, legal) == expected


@pytest.mark.parametrize(
    "text, legal, fragment",
    [
        ("", FACING, "type a move"),
        ("r 79", FACING, "between 80 and 2000, got 79"),
        ("r 2001", FACING, "between 80 and 2000"),
        ("r", FACING, "say how much"),
        ("r lots", FACING, "say how much"),
        ("f", FREE, "nothing to call"),
        ("dance", FACING, "unknown move 'dance'"),
        ("?", FACING, "moves: f = fold"),
    ],
)
def test_parse_move_explains_bad_input(text: str, legal: LegalActions, fragment: str) -> None:
    message = parse_move(text, legal)
    assert isinstance(message, str) and fragment in message


def test_raising_when_not_allowed_is_refused() -> None:
    closed = LegalActions(True, False, 50, None, None)
    assert parse_move("r 100", closed) == "raising is not allowed now"
    assert parse_move("a", closed) == Action.call()


def test_quit_raises_quitgame() -> None:
    with pytest.raises(QuitGame):
        parse_move("q", FACING)


def test_human_agent_reasks_until_legal_and_shows_the_table() -> None:
    answers = iter(["", "r 5", "x", "r 300"])
    lines: list[str] = []
    human = HumanAgent(ask=lambda prompt: lines.append(prompt) or next(answers), say=lines.append)
    state = State(TableConfig.nolimit(2), seed=1)
    human.begin_hand(0, state.config, state.hole_cards[0], 7)
    assert human.act(state.observation(0)) == Action.raise_to(300)
    text = "\n".join(lines)
    assert "Hand 8" in text and "BTN/SB" in text
    assert "[f]old, [c]all 50, [r]aise to 200..20000, [a]ll-in 20000, [q]uit" in text
    assert "between 200 and 20000, got 5" in text and "unknown move 'x'" in text
    assert text.count("[q]uit") == 4  # asked four times


def test_end_of_input_quits() -> None:
    def eof(prompt: str) -> str:
        raise EOFError

    human = HumanAgent(ask=eof, say=lambda s: None)
    state = State(TableConfig.nolimit(2), seed=1)
    with pytest.raises(QuitGame):
        human.act(state.observation(0))


def test_play_command_on_scripted_stdin() -> None:
    runner = CliRunner()
    # Heads-up against a calling station: a typo, an illegal raise, then call down.
    script = "oops\nr 1\n" + "c\n" * 40 + "q\n"
    result = runner.invoke(
        app, ["play", "--opponents", "call", "--seats", "2", "--seed", "5", "--hands", "5"],
        input=script,
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "unknown move 'oops'" in out
    assert "raise to must be between" in out
    assert "showdown:" in out and "result:" in out
    assert "=== Hand 1" in out
    assert "Tournament over after 5 hands" in out or "You left the table." in out


def test_play_command_quit() -> None:
    result = CliRunner().invoke(
        app, ["play", "--opponents", "random,call", "--seats", "3", "--seed", "1"], input="q\n"
    )
    assert result.exit_code == 0, result.output
    assert "You left the table." in result.output
    assert "random" in result.output and "call" in result.output
