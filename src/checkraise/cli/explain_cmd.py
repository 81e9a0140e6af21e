"""``checkraise explain``: what the expert bot's knowledge base suggests at a spot, and why."""

from __future__ import annotations

import json

import typer

from checkraise.cli.app import app

# The agents and the evaluator are imported inside the command, so that `--help` stays light.


@app.command("explain")
def explain_command(
    hole: str = typer.Argument(..., help="Our two hole cards, e.g. AhKh."),
    board: str = typer.Option("", "--board", help="Board cards so far, e.g. 'Qh Jh 2c'."),
    betting: str = typer.Option(
        "", "--betting",
        help="The hand's actions in ACPC form, streets split by '/': f, c, r<total for the "
             "hand>, e.g. 'r250c/r400'. We are the seat to act after them.",
    ),
    stack: int = typer.Option(20_000, "--stack", help="Chips per seat at the start of the hand."),
    blinds: str = typer.Option("50/100", "--blinds", help="Small/big blind."),
    as_json: bool = typer.Option(False, "--json", help="Print machine-readable JSON."),
) -> None:
    """Show the expert knowledge base's suggestions for a heads-up spot, with their reasons.

    Seat 0 is the button (small blind, first to act before the flop); the seat to act
    after --betting holds HOLE. Preflop the answer is the table's entry (position,
    situation, stack band); after the flop the first postflop rule that matches, with
    the features it read (made hand, strength, outs, texture, the bet faced, pot odds).
    """
    from checkraise.agents.expert_rules import advise
    from checkraise.cards import format_cards, parse_cards
    from checkraise.cli._options import parse_blinds
    from checkraise.engine import Action, State, TableConfig
    from checkraise.errors import ConfigError
    from checkraise.protocol.matchstate import parse_betting

    small, big = parse_blinds(blinds)
    if stack <= 0:
        raise ConfigError(f"--stack {stack}: expected a positive number of chips")
    config = TableConfig.nolimit(2, stacks=stack, small_blind=small, big_blind=big)
    ours = parse_cards(hole)
    if len(ours) != 2:
        raise ConfigError(f"hole cards {hole!r}: expected two cards, e.g. AhKh")
    cards = parse_cards(board) if board.strip() else []
    if len(cards) not in (0, 3, 4, 5) or set(cards) & set(ours):
        raise ConfigError(f"--board {board!r}: expected 0, 3, 4 or 5 cards, none of them "
                          f"in {format_cards(ours)}")
    actions = [Action.parse(str(a)) for group in parse_betting(betting) for a in group] \
        if betting.strip() else []
    probe = State(config, hole_cards=[None, None], board=cards, seed=0)
    for action in actions:
        probe.step(action)
    if probe.is_terminal:
        raise ConfigError(f"--betting {betting!r} ends the hand; expected a spot with a seat "
                          "to act")
    needed = sum(config.board_cards[:probe.round + 1])
    if len(cards) != needed:
        raise ConfigError(f"--board {board!r} has {len(cards)} cards; the betting reaches "
                          f"{('the preflop', 'the flop', 'the turn', 'the river')[probe.round]}, "
                          f"which has {needed}")
    seat = probe.current_player
    assert seat is not None
    holes: list[list[int] | None] = [None, None]
    holes[seat] = ours
    state = State(config, hole_cards=holes, board=cards, seed=0)
    for action in actions:
        state.step(action)
    obs = state.observation(seat)
    advice = advise(obs)
    suggestions = [{"token": t, "action": str(a)}
                   for t, a in zip(advice.tokens, advice.actions, strict=True)]
    if as_json:
        print(json.dumps({
            "hole": format_cards(ours), "board": format_cards(cards), "street": advice.street,
            "seat": seat, "pot": obs.pot, "to_call": obs.to_call, "entry": advice.entry,
            "reason": advice.reason, "features": advice.features, "suggestions": suggestions,
        }))
        return
    where = "button" if seat == 0 else "big blind"
    print(f"{format_cards(ours)} on {format_cards(cards) or '-'} ({advice.street}), {where} to "
          f"act, pot {obs.pot}, to call {obs.to_call}")
    print("features: " + ", ".join(f"{k}={v}" for k, v in advice.features.items()))
    print(f"{advice.entry}: {advice.reason}")
    print("suggestions: " + ", ".join(f"{s['token']} ({s['action']})" for s in suggestions))
