"""``checkraise lbr``: local best response against an agent, in mbb/game with a 95% CI."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import typer

from checkraise.cli._options import (
    ADDRESS_HELP,
    BACKEND_HELP,
    OptionError,
    check_seed,
    check_workers,
    open_backend,
)
from checkraise.cli._progress import hands_progress
from checkraise.cli.app import app

__all__ = ["lbr_command"]

LBR_FILES = ("run.json", "blocks.jsonl", "results.json")
"""What ``checkraise lbr --out`` writes: the run's options, its blocks as they finish,
and the result."""


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
    out: Path | None = typer.Option(
        None, "--out", help="Folder for run.json, blocks.jsonl (each block of deals as it "
        "finishes) and results.json."),
    resume: bool = typer.Option(
        False, "--resume", help="Go on with the run in --out (the same options; --hands may "
        "grow, or shrink to read a figure from the blocks finished so far): the blocks it "
        "finished are not played again."),
    force: bool = typer.Option(False, "--force", help="Replace an earlier run in --out."),
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
    run = {"agent": agent, "hands": hands, "actions": settings.actions.value,
           "streets": sorted(settings.streets), "seed": seed, "block": block,
           "mirror": mirror}
    if out is not None:
        _claim(out, run, resume=resume, force=force)
    elif resume:
        raise OptionError("--resume needs --out: the folder of the run to go on with")
    per_deal = 4 if mirror else 2
    total = per_deal * ((hands + per_deal - 1) // per_deal)
    runner = open_backend(backend, workers, address)
    with runner, hands_progress(total, f"lbr {settings.label}", enabled=not as_json) as advance:
        result = run_lbr(agent, hands, settings, seed=seed, backend=runner, block=block,
                         mirror=mirror, on_progress=advance,
                         journal=None if out is None else out / "blocks.jsonl")
    data = result.to_json()
    if out is not None:
        (out / "results.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
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


def _claim(out: Path, run: dict[str, Any], *, resume: bool, force: bool) -> None:
    """Make ``out`` ready for this run (see ``--out``, ``--resume``, ``--force``)."""
    from checkraise.arena.outfolder import OutFolderError, claim_out_folder

    if resume and force:
        raise OptionError("--resume keeps the run in --out, --force replaces it: choose one")
    if resume:
        try:
            earlier = json.loads((out / "run.json").read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise OutFolderError(f"cannot resume {out}: no readable run.json ({exc!r}); "
                                 "expected the --out of an earlier checkraise lbr") from None
        # more (or fewer) hands: the blocks of the deals both cover are kept
        differ = [k for k in run if k != "hands" and earlier.get(k) != run[k]]
        if differ:
            diff = ", ".join(f"{k} {earlier.get(k)!r} there, {run[k]!r} here" for k in differ)
            raise OutFolderError(f"cannot resume {out}: its run differs ({diff})")
        (out / "run.json").write_text(json.dumps(run) + "\n", encoding="utf-8")
        return
    if (out / "run.json").is_file() and not force:
        raise OutFolderError(f"--out {out} holds an earlier checkraise lbr run: --resume goes "
                             "on with it, --force replaces it")
    claim_out_folder(out, LBR_FILES, re.compile(r"(?!)"), force=force, command="lbr")
    out.mkdir(parents=True, exist_ok=True)
    (out / "run.json").write_text(json.dumps(run) + "\n", encoding="utf-8")
