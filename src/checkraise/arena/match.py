"""Heads-up duplicate matches: which of two agents is better, in mbb/hand with a 95% interval.

A heads-up match is the two-player case of :mod:`checkraise.arena.ring`: every
deal is played twice with the seats swapped (the duplicate format of the Annual
Computer Poker Competition), stacks reset each hand (200 big blinds by default,
blinds 50/100 as in the ACPC no-limit events), and the result is agent A's win
rate in milli-big-blinds per hand with its 95% confidence interval over deals.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from checkraise.agents.base import is_interactive, split_agent_specs
from checkraise.arena.ring import RingConfig, RingResult, play_ring
from checkraise.backend import Backend, Progress
from checkraise.engine import RuleSet
from checkraise.errors import CheckraiseError

__all__ = ["InteractiveAgentError", "play_match", "refuse_interactive", "summary_line"]


class InteractiveAgentError(CheckraiseError):
    """An agent that needs a person at the terminal, where no one can answer it."""


def refuse_interactive(specs: Sequence[str], command: str) -> None:
    """Raise :class:`InteractiveAgentError` if a spec builds the human (terminal) agent.

    Matches and tournaments run their agents in worker processes or client
    subprocesses without a terminal, where the human seat can only quit; it has
    its own command, ``checkraise play``.

    Examples
    --------
    >>> refuse_interactive(["call", "random"], "match")
    >>> refuse_interactive(["call", "human"], "match")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    checkraise.arena.match.InteractiveAgentError: agent 'human' cannot play in ... `checkraise play`
    """
    for spec in split_agent_specs(list(specs)):
        if is_interactive(spec):
            raise InteractiveAgentError(
                f"agent {spec!r} cannot play in `checkraise {command}`: the human seat plays "
                "only in `checkraise play`"
            )


def play_match(
    agent_a: str,
    agent_b: str,
    *,
    hands: int,
    seed: int,
    stack: int = 20000,
    small_blind: int = 50,
    big_blind: int = 100,
    rules: RuleSet = RuleSet.CASINO,
    duplicate: bool = True,
    workers: int | None = None,
    backend: Backend | None = None,
    log_dir: Path | None = None,
    progress: Progress | None = None,
) -> RingResult:
    """Play ``agent_a`` against ``agent_b`` for ``hands`` deals (each twice in duplicate).

    Examples
    --------
    >>> res = play_match("call", "call", hands=50, seed=1, workers=1)
    >>> res.mbb(0).mean, res.mbb(0).half_width
    (0.0, 0.0)
    """
    config = RingConfig(
        (agent_a, agent_b), hands, stack, small_blind, big_blind, RuleSet(rules), duplicate
    )
    return play_ring(
        config, seed, workers=workers, backend=backend, log_dir=log_dir, progress=progress
    )


def summary_line(result: RingResult) -> str:
    """One line: each player's win rate in mbb/hand with its 95% interval.

    Examples
    --------
    >>> print(summary_line(play_match("call", "call", hands=10, seed=1, workers=1)))
    call: 0.0 ± 0.0 mbb/hand, call#2: 0.0 ± 0.0 mbb/hand (10 deals x 2 seatings)
    """
    parts = [f"{label}: {result.mbb(i)} mbb/hand" for i, label in enumerate(result.labels)]
    cfg = result.config
    return ", ".join(parts) + f" ({cfg.hands} deals x {cfg.num_rotations} seatings)"
