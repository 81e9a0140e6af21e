"""The human seat: parsing moves, re-asking on bad input, `checkraise play` on scripted stdin."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from checkraise.agents.human import HumanAgent, QuitGame, parse_move
from checkraise.arena.outfolder import OutFolderError
from checkraise.arena.table import log_numbers
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


def _ask_once(answer: str) -> tuple[HumanAgent, list[str]]:
    # One answer, then end of input: a refused answer quits instead of asking forever.
    answers = iter([answer])
    lines: list[str] = []

    def ask(prompt: str) -> str:
        lines.append(prompt)
        for text in answers:
            return text
        raise EOFError

    return HumanAgent(ask=ask, say=lines.append), lines


def _three_handed(ante: int = 0) -> State:
    # 20/40 blinds, 2000 chips: BTN (seat 2) opens to 120, SB and BB call: 120 in each, antes apart.
    state = State(TableConfig.nolimit(3, 2000, 20, 40, ante=ante), seed=3)
    state.step(Action.raise_to(120))
    state.step(Action.call())
    state.step(Action.call())
    return state


def test_facing_a_flop_raise_amounts_are_this_streets() -> None:
    # Flop: SB bets 200 (hand total 320), BB raises to 600 (hand total 720). BTN has 120 in
    # from preflop and 1880 behind: call 600; the minimum re-raise adds the last raise (400)
    # to 600, so "raise to 1000" on this street; all-in is 1880 on this street.
    state = _three_handed()
    state.step(Action.raise_to(320))
    state.step(Action.raise_to(720))
    human, lines = _ask_once("r 1000")
    human.set_names(["Sam", "Bea", "Ann"])
    human.begin_hand(2, state.config, state.hole_cards[2], 0)
    assert human.act(state.observation(2)) == Action.raise_to(1120)
    text = "\n".join(lines)
    assert "[f]old, [c]all 600, [r]aise to 1000..1880, [a]ll-in 1880, [q]uit" in text
    assert ("you raise to 120; Sam calls 100; Bea calls 80; [flop]; Sam bets 200; "
            "Bea raises to 600") in text
    assert "BB      Bea              stack   1280  bet    600" in text
    legal = state.legal_actions()
    assert parse_move("r 999", legal, 120) == "raise to must be between 1000 and 1880, got 999"


def test_unopened_street_offers_a_bet_and_antes_do_not_count() -> None:
    # With a 10-chip ante each seat has 1990 behind the ante; 120 went in preflop, so the
    # flop bet runs from the big blind (40) to 1870.
    state = _three_handed(ante=10)
    human, lines = _ask_once("b 300")
    human.begin_hand(0, state.config, state.hole_cards[0], 0)
    assert human.act(state.observation(0)) == Action.raise_to(420)
    text = "\n".join(lines)
    assert "[c]heck, [b]et 40..1870, [a]ll-in 1870, [q]uit" in text
    assert "BTN raises to 120" not in text and "seat 2 raises to 120" in text
    assert parse_move("b 30", state.legal_actions(), 120, opened=False) == (
        "bet must be between 40 and 1870, got 30"
    )


def test_narration_of_calls_and_all_ins_in_street_amounts() -> None:
    # Heads-up 10/20, stacks 1000 and 300: SB/BTN raises to 60, BB calls 40; flop: BB bets
    # 40, BTN shoves 940 (its whole stack), BB calls what it has left (200).
    state = State(TableConfig.nolimit(2, (1000, 300), 10, 20), seed=1)
    for action in (Action.raise_to(60), Action.call(), Action.raise_to(100),
                   Action.raise_to(1000), Action.call()):
        state.step(action)
    human = HumanAgent(say=lambda s: None)
    human.begin_hand(0, state.config, state.hole_cards[0], 0)
    assert human.narrate(state.observation(0)) == [
        "you raise to 60", "seat 1 calls 40", "[flop]", "seat 1 bets 40",
        "you raise to 940, all-in", "seat 1 calls 200, all-in",
    ]


def _play(tmp_path: Path, *args: str, script: str) -> str:
    result = CliRunner().invoke(app, ["play", *args, "--out", str(tmp_path)], input=script)
    assert result.exit_code == 0, result.output
    return result.output


def test_play_logs_use_the_chosen_name(tmp_path: Path) -> None:
    _play(tmp_path, "--opponents", "call", "--seats", "2", "--seed", "5", "--hands", "3",
          "--name", "Ann Lee", script="c\n" * 40)
    lines = (tmp_path / "logs" / "rep-0000.log").read_text().splitlines()
    assert len(lines) == 3
    assert all(line.rsplit(":", 1)[1] in ("Ann_Lee|call", "call|Ann_Lee") for line in lines)
    text = (tmp_path / "logs" / "rep-0000.txt").read_text()
    assert "Ann_Lee" in text and "human" not in text


@pytest.mark.parametrize("name", ["", "  ", "call"])
def test_play_refuses_a_name_that_is_empty_or_a_bots(name: str) -> None:
    result = CliRunner().invoke(app, ["play", "--opponents", "call", "--seats", "2",
                                      "--name", name], input="q\n")
    assert result.exit_code != 0 and "invalid --name" in str(result.exception)


def test_play_says_who_rebuys_and_who_is_out(tmp_path: Path) -> None:
    # Everyone shoves every hand: chips change hands fast. An independent model of the rules
    # (2000 chips, one rebuy of 2000, out when both are gone) replayed over the hand log's
    # net results must announce exactly the rebuys and busts that play printed.
    out = _play(tmp_path, "--opponents", "allin", "--seats", "4", "--seed", "11", "--hands",
                "40", "--name", "Ann", script="a\n" * 400)
    stacks: dict[str, int] = {}
    rebought: set[str] = set()
    expected: list[str] = []
    lines = (tmp_path / "logs" / "rep-0000.log").read_text().splitlines()
    for k, line in enumerate(lines, start=1):
        fields = line.split(":")
        names, nets = fields[-1].split("|"), [int(x) for x in fields[-2].split("|")]
        for who, net in zip(names, nets, strict=True):
            stacks[who] = stacks.get(who, 2000) + net
            if stacks[who] == 0:
                person = "you" if who == "Ann" else who
                if who in rebought:
                    expected.append(f"*** {person} {'are' if who == 'Ann' else 'is'} "
                                    f"out after hand {k}")
                else:
                    rebought.add(who)
                    stacks[who] = 2000
                    expected.append(f"*** {person} rebuy{'' if who == 'Ann' else 's'} "
                                    "2000 chips (no rebuys left)")
    said = [line for line in out.splitlines() if line.startswith("***")]
    assert sorted(said) == sorted(expected) and len(said) >= 4
    assert "out after" in out and "rebuys 2000" in out


def test_play_standings_print_places_not_floats(tmp_path: Path) -> None:
    out = _play(tmp_path, "--opponents", "allin", "--seats", "3", "--seed", "2", "--hands",
                "40", script="a\n" * 400)
    standings = out.split("Tournament over after", 1)[1].splitlines()[1:]
    assert [line.split()[0] for line in standings] == ["1st", "2nd", "3rd"]
    assert ".0." not in out


def test_quitting_at_the_first_prompt_leaves_no_empty_logs(tmp_path: Path) -> None:
    out = _play(tmp_path, "--opponents", "call", "--seats", "3", "--seed", "1", script="q\n")
    assert "You left the table." in out
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == []


def test_quitting_in_hand_two_logs_hand_one_only(tmp_path: Path) -> None:
    # Heads-up: fold the first hand at once, then quit in the second.
    _play(tmp_path, "--opponents", "call", "--seats", "2", "--seed", "1", script="f\nq\n")
    lines = (tmp_path / "logs" / "rep-0000.log").read_text().splitlines()
    # the repetition's first hand (numbered from the repetition's first log number)
    first = log_numbers("tournament", 1, ["you", "call"], 0, 600)
    assert len(lines) == 1 and lines[0].startswith(f"STATE:{first}:")


def test_street_bets_replay_matches_the_engine_on_random_hands() -> None:
    # Random hands with antes, uneven stacks and all-ins: at every decision the replayed
    # chips must equal the engine's (hand totals without antes, stacks, the call amount),
    # and whoever opens a street has exactly the street's base in.
    import random

    from checkraise.agents.human import StreetBets

    rng = random.Random(7)
    for _ in range(300):
        n = rng.randint(2, 6)
        stacks = [rng.choice([15, 60, 200, 1000, 5000]) for _ in range(n)]
        state = State(TableConfig.nolimit(n, stacks, 10, 20, ante=rng.choice([0, 0, 5])),
                      seed=rng.randrange(10**6))
        while not state.is_terminal:
            obs = state.observation(state.current_player)
            bets = StreetBets(state.config)
            for seat, rnd, action in obs.history:
                bets.apply(seat, rnd, action)
            bets.enter(obs.round)
            assert bets.total == list(state.bets)
            assert tuple(bets.stack) == state.stacks
            legal = state.legal_actions()
            me = state.current_player
            assert legal.call_amount == min(bets.level - bets.total[me], bets.stack[me])
            assert bets.total[me] >= bets.base  # whoever acts matched the last street
            if obs.round > 0 and all(rnd < obs.round for _, rnd, _ in obs.history):
                assert bets.total[me] == bets.base and not bets.opened
            choice = rng.random()
            if legal.min_raise_to is not None and choice < 0.3:
                state.step(Action.raise_to(rng.randint(legal.min_raise_to, legal.max_raise_to)))
            elif legal.can_fold and legal.call_amount and choice > 0.85:
                state.step(Action.fold())
            else:
                state.step(Action.call())


def test_play_out_keeps_an_earlier_session_unless_forced(tmp_path: Path) -> None:
    script = "c\n" * 40 + "q\n"
    _play(tmp_path, "--opponents", "call", "--seats", "2", "--seed", "3", "--hands", "2",
          script=script)
    logs = sorted((tmp_path / "logs").iterdir())
    assert logs and all(p.stat().st_size > 0 for p in logs)
    before = [p.read_bytes() for p in logs]
    again = CliRunner().invoke(app, ["play", "--opponents", "call", "--seats", "2", "--seed", "4",
                                     "--out", str(tmp_path)], input=script)
    assert isinstance(again.exception, OutFolderError) and "--force" in str(again.exception)
    assert [p.read_bytes() for p in logs] == before
    _play(tmp_path, "--opponents", "call", "--seats", "2", "--seed", "4", "--hands", "2",
          "--force", script=script)
    assert [p.read_bytes() for p in sorted((tmp_path / "logs").iterdir())] != before
