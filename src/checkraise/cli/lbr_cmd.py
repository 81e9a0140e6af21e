"""``checkraise lbr``: local best response against an agent, in mbb/game with a 95% CI."""

from __future__ import annotations

import json

import typer

from checkraise.cli._options import ADDRESS_HELP, BACKEND_HELP, check_seed, open_backend
from checkraise.cli._progress import hands_progress
from checkraise.cli.main import app
from checkraise.cli.match_cmd import OptionError, check_workers

__all__ = ["lbr_command"]


@app.command("lbr")
def lbr_command(
    agent: str = typer.Argument(..., help="The agent spec to measure, e.g. heuristic"),
    hands: int = typer.Option(1000, "--hands", "-n", help="Hands (each deal is played in both "
                                                        "seats, so hands/2 deals)."),
    actions: str = typer.Option("fcpa", "--actions", help="LBR's actions: fc (fold/call), "
                                "fcpa (+ pot raise, all-in) or 56 (56 raise sizes)."),
    streets: str = typer.Option("turn,river", "--streets", help="Streets where LBR may bet "
                                "(all, or names such as turn,river); it checks/calls elsewhere."),
    seed: int = typer.Option(0, "--seed", callback=check_seed,
                             help="Master seed: same seed, same cards, same result."),
    workers: int = typer.Option(
        0, "--workers", help="Processes, or Ray tasks at once (0 = one per core / cluster CPU)."
    ),
    backend: str = typer.Option("local", "--backend", help=BACKEND_HELP),
    address: str | None = typer.Option(None, "--address", help=ADDRESS_HELP),
    block: int = typer.Option(25, "--block", help="Deals per work item."),
    mirror: bool = typer.Option(False, "--mirror", help="Also play every deal with the hole "
                                "cards swapped (four hands per deal; cancels check-down luck)."),
    as_json: bool = typer.Option(False, "--json", help="Print machine-readable JSON."),
) -> None:
    """Measure how exploitable a heads-up agent is with local best response (LBR).

    LBR (Lisý & Bowling 2017) tracks the agent's range from its per-hand action
    probabilities and, at each of its decisions, plays the action with the best
    value assuming check/call to the showdown. Heads-up no-limit, ACPC rules,
    stacks 20,000, blinds 50/100; every deal is played in both seats. The result is
    LBR's win rate in mbb/game: a lower bound on the agent's exploitability.
    """
    from checkraise.agents.base import make_agent
    from checkraise.arena.match import refuse_interactive
    from checkraise.lbr import LBRSettings, parse_streets, run_lbr

    check_workers(workers)
    refuse_interactive([agent], "lbr")
    make_agent(agent, seed=0)  # an unknown agent or option fails before the progress bar
    if hands < 2:
        raise OptionError(f"invalid --hands {hands}: expected at least 2 (one deal, both seats)")
    if block < 1:
        raise OptionError(f"invalid --block {block}: expected at least 1")
    settings = LBRSettings(actions, parse_streets(streets))  # type: ignore[arg-type]
    per_deal = 4 if mirror else 2
    total = per_deal * ((hands + per_deal - 1) // per_deal)
    runner = open_backend(backend, workers, address)
    with runner, hands_progress(total, f"lbr {settings.label}", enabled=not as_json) as advance:
        result = run_lbr(agent, hands, settings, seed=seed, backend=runner, block=block,
                         mirror=mirror, on_progress=advance)
    data = result.to_json()
    if as_json:
        print(json.dumps(data))
        return
    e = result.mbb_per_game
    print(f"LBR {settings.label} vs {agent}: {e.mean:.1f} mbb/game   "
          f"95% CI [{e.low:.1f}, {e.high:.1f}]   ({result.hands} hands, seed {seed})")
    e = result.mbb_per_game_luck
    print(f"  luck adjusted (the luck of every board card taken out): {e.mean:.1f} mbb/game   "
          f"95% CI [{e.low:.1f}, {e.high:.1f}]")
    print(f"  LBR in seat 0 (small blind): {result.seat_mbb[0]:.1f}   "
          f"seat 1 (big blind): {result.seat_mbb[1]:.1f} mbb/game")
    for note in result.notes:
        print(f"  note: the agent's range is approximate: {note}")
