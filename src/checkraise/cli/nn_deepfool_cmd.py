"""``checkraise nn deepfool pretrain|train``: the six-max DeepFool bot's training.

``pretrain`` fits the policy network to the rule agent's self-play; ``train`` runs
Monte Carlo CFR with the network (the fast phase on the rule agent first), with
checkpoints every round and ``--resume``. Torch is imported by ``nn/`` only, when a command runs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from checkraise.cli._options import ADDRESS_HELP, BACKEND_HELP, check_seed, command_line
from checkraise.cli.nn_cmd import nn_app

__all__ = ["deepfool_app"]

deepfool_app = typer.Typer(
    name="deepfool",
    help="The six-max DeepFool bot: pretraining on a rule agent, then MCCFR with the network.",
    no_args_is_help=True,
)
nn_app.add_typer(deepfool_app, name="deepfool")


def _bar(as_json: bool) -> Any:
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from checkraise.cli._progress import progress_bar

    return progress_bar(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), label="deepfool", unit="", disable=as_json)


@deepfool_app.command("pretrain")
def pretrain(
    ctx: typer.Context,
    out: Path = typer.Option(..., "--out", help="Folder for pretrained.npz, curves, summary."),
    hands: int = typer.Option(2000, "--hands", help="Hands of rule self-play to fit."),
    heldout: int = typer.Option(200, "--heldout", help="Held-out hands (own seeds)."),
    steps: int = typer.Option(3000, "--steps", help="Adam steps."),
    batch_size: int = typer.Option(256, "--batch-size", help="Minibatch size."),
    lr: float = typer.Option(1e-3, "--lr", help="Learning rate."),
    seed: int = typer.Option(0, "--seed", callback=check_seed, help="Seed of everything."),
    samples: int = typer.Option(200, "--samples", help="Monte Carlo deals per win probability."),
    hidden: int = typer.Option(96, "--hidden", help="Hidden units per layer."),
    workers: int = typer.Option(0, "--workers", help="Processes (0 = one per core)."),
    backend: str = typer.Option("local", "--backend", help=BACKEND_HELP),
    address: str | None = typer.Option(None, "--address", help=ADDRESS_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
) -> None:
    """Fit the network to the rule agent's decisions; report held-out agreement."""
    from checkraise.cli._options import open_backend
    from checkraise.nn.deepfool_pretrain import PretrainConfig, run_pretrain

    cfg = PretrainConfig(hands=hands, heldout_hands=heldout, steps=steps,
                         batch_size=batch_size, lr=lr, seed=seed or 0, samples=samples,
                         hidden=hidden)
    command = command_line(ctx)
    with open_backend(backend, workers, address) as be, _bar(as_json) as bar:
        tasks: dict[str, Any] = {}

        def on_progress(name: str, done: int, total: int) -> None:
            if name not in tasks:
                tasks[name] = bar.add_task(name, total=total)
            bar.update(tasks[name], completed=done)

        summary = run_pretrain(cfg, out, be, command=command, on_progress=on_progress)
    summary.pop("curve")
    if as_json:
        print(json.dumps(summary))
    else:
        print(f"pretrained: {out / 'pretrained.npz'}  held-out agreement "
              f"{summary['heldout_agreement']:.3f} (majority class "
              f"{summary['majority_baseline']:.3f}), KL {summary['heldout_kl']:.3f} on "
              f"{summary['heldout_decisions']} decisions")


@deepfool_app.command("train")
def train(
    ctx: typer.Context,
    out: Path = typer.Option(..., "--out", help="Folder for the checkpoint, deepfool.npz, log."),
    init: Path | None = typer.Option(
        None, "--init", help="Network to start from (pretrained.npz); default: random weights."
    ),
    rounds: int = typer.Option(20, "--rounds", help="Rounds (traversals, then a fit)."),
    fast_rounds: int = typer.Option(2, "--fast-rounds", help="First rounds on the rule agent."),
    traversals: int = typer.Option(400, "--traversals", help="Traversals per round."),
    items: int = typer.Option(4, "--items", help="Work items per round (fixes the seeds)."),
    expand_depth: int = typer.Option(
        2, "--expand-depth", help="Traverser decisions expanded per path (later ones sampled)."
    ),
    buffer: int = typer.Option(60_000, "--buffer", help="Most recent labels kept for fitting."),
    target: str = typer.Option(
        "policy", "--target",
        help="policy: fit the policy network to regret-matched labels (DeepFool); regret: "
             "fit a regret network to the sampled regrets (Deep CFR style; no --init).",
    ),
    steps: int = typer.Option(300, "--steps", help="Adam steps per round."),
    lr: float = typer.Option(3e-4, "--lr", help="Learning rate."),
    seed: int = typer.Option(0, "--seed", callback=check_seed, help="Seed of everything."),
    resume: bool = typer.Option(False, "--resume", help="Continue the run in --out."),
    workers: int = typer.Option(0, "--workers", help="Processes (0 = one per core)."),
    backend: str = typer.Option("local", "--backend", help=BACKEND_HELP),
    address: str | None = typer.Option(None, "--address", help=ADDRESS_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print the last round as JSON."),
) -> None:
    """Monte Carlo CFR with the policy network; checkpoint after every round."""
    from checkraise.cli._options import open_backend
    from checkraise.errors import ConfigError
    from checkraise.nn.deepfool_train import CHECKPOINT, TrainConfig, run_train

    cfg = TrainConfig(rounds=rounds, fast_rounds=fast_rounds, traversals=traversals,
                      items=items, expand_depth=expand_depth, buffer=buffer, steps=steps,
                      lr=lr, seed=seed or 0, target=target)
    if init is not None and not init.is_file():
        raise ConfigError(f"--init {init}: no such file; expected a network (pretrained.npz)")
    if resume and not (out / CHECKPOINT).exists():
        raise ConfigError(f"--resume: {out / CHECKPOINT} does not exist; expected an earlier run")
    if not resume and (out / CHECKPOINT).exists():
        raise ConfigError(f"{out / CHECKPOINT} exists: pass --resume to continue that run, "
                          "or another --out")
    command = command_line(ctx)
    with open_backend(backend, workers, address) as be, _bar(as_json) as bar:
        task = bar.add_task("round", total=traversals)

        def on_progress(rnd: int, done: int, total: int) -> None:
            bar.update(task, description=f"round {rnd + 1}/{cfg.rounds}", completed=done,
                       total=total)

        def on_round(row: dict[str, Any]) -> None:
            if not as_json:
                bar.console.print(
                    f"round {row['round']} ({row['phase']}): {row['traversals_per_s']:.1f} "
                    f"traversals/s, {row['labels']} labels, fresh KL {row['fresh_kl']:.3f}, "
                    f"fit KL {row['fit_kl']:.3f}")

        last = run_train(cfg, out, be, init=init, command=command, resume=resume,
                         on_progress=on_progress, on_round=on_round)
    if as_json:
        print(json.dumps(last))
    else:
        print(f"deepfool: {out / 'deepfool.npz'}")
