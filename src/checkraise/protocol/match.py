"""Run whole ACPC matches on loopback: our dealer in this process, each client a subprocess.

A duplicate match plays the same seed again with the players moved round the
table, so that each player gets each seat's cards once; heads-up that is the
original match plus the one with the two seats swapped. Luck in the cards then
cancels out of the sum (the usual variance reduction of the ACPC competitions).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from checkraise.agents.base import make_agent
from checkraise.protocol.dealer import Correction, Dealer, MatchResult, TimeLimits
from checkraise.protocol.errors import MatchAbortedError, MatchSetupError
from checkraise.protocol.gamedef import load_gamedef
from checkraise.protocol.log import check_new_log, open_new_log

__all__ = ["DuplicateResult", "client_command", "duplicate_log_paths", "player_names", "rotate",
           "run_duplicate", "run_match"]


def rotate(items: Sequence[Any], shift: int) -> list[Any]:
    """``items`` moved ``shift`` seats round the table: seat ``s`` gets ``items[(s + shift) % n]``.

    Examples
    --------
    >>> rotate(["A", "B", "C"], 1)
    ['B', 'C', 'A']
    """
    n = len(items)
    return [items[(s + shift) % n] for s in range(n)]


def player_names(agents: Sequence[str]) -> list[str]:
    """Log names for agents: the agent name, numbered where names repeat.

    Examples
    --------
    >>> player_names(["random", "call", "random"])
    ['random1', 'call', 'random3']
    """
    return [f"{a}{i + 1}" if list(agents).count(a) > 1 else a for i, a in enumerate(agents)]


def client_command(
    host: str, port: int, agent: str, seed: int, game_file: Path, *, timeout: float
) -> list[str]:
    """The command line that starts one of our clients as a subprocess."""
    return [
        sys.executable, "-m", "checkraise.cli.main", "acpc", "client", host, str(port),
        "--agent", agent, "--seed", str(seed), "--game", str(game_file),
        "--timeout", f"{timeout:g}", "--quiet",
    ]


def run_match(
    game_file: Path,
    *,
    num_hands: int,
    agents: Sequence[str],
    seed: int,
    names: Sequence[str] | None = None,
    shift: int = 0,
    match_name: str = "match",
    log_path: Path | None = None,
    limits: TimeLimits | None = None,
    client_timeout: float = 60.0,
    on_hand: Callable[[int], None] | None = None,
    force: bool = False,
    lenient: bool = False,
    on_correction: Callable[[Correction], None] | None = None,
) -> MatchResult:
    """Play ``num_hands`` hands between ``agents`` (one client process each) on 127.0.0.1.

    ``shift`` moves the players round the table (1 heads-up: seats swapped). Each
    player's agent seed depends on the match seed and the player, not on its seat,
    so a shifted match is the duplicate of the unshifted one. A client that exits
    with an error makes this raise :class:`MatchAbortedError` with its message.

    Everything is checked (game, agents, hands, seed, names, an existing log at
    ``log_path``, which is never overwritten unless ``force``) before the log is
    opened, so a refused match leaves every file as it was. ``lenient`` and
    ``on_correction`` are the :class:`Dealer`'s.
    """
    game = load_gamedef(game_file)
    names = list(names) if names is not None else player_names(agents)
    if len(agents) != game.num_players or len(names) != game.num_players:
        raise MatchSetupError(
            f"the game seats {game.num_players} players, got agents {list(agents)}"
        )
    for spec in set(agents):
        make_agent(spec, seed=0)  # an unknown agent fails here, not in a client process
    player_seeds = [seed * 1000 + 101 * (i + 1) for i in range(len(agents))]
    seat_agents = rotate(list(agents), shift)
    seat_names = rotate(names, shift)
    seat_seeds = rotate(player_seeds, shift)
    dealer = Dealer(
        game, num_hands=num_hands, seed=seed, names=seat_names, match_name=match_name,
        game_name=str(game_file), limits=limits, on_hand=on_hand, lenient=lenient,
        on_correction=on_correction,
    )
    log = open_new_log(log_path, force=force) if log_path is not None else None
    dealer.log = log
    procs: list[subprocess.Popen[str]] = []
    try:
        ports = dealer.bind()
        for port, agent, agent_seed in zip(ports, seat_agents, seat_seeds, strict=True):
            cmd = client_command("127.0.0.1", port, agent, agent_seed, game_file,
                                 timeout=client_timeout)
            procs.append(subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                                          stderr=subprocess.PIPE, text=True))
        try:
            result = dealer.run()
        except MatchAbortedError as exc:
            detail = _client_errors(procs, seat_names)
            raise MatchAbortedError(f"{exc}{detail}", seat=exc.seat, line=exc.line) from None
        errors = _client_errors(procs, seat_names)
        if errors:
            raise MatchAbortedError(f"match finished but a client failed:{errors}")
        return result
    finally:
        dealer.close()
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
            proc.wait(timeout=10)
        if log is not None:
            log.close()


def _client_errors(procs: Sequence[subprocess.Popen[str]], names: Sequence[str]) -> str:
    lines = []
    for seat, proc in enumerate(procs):
        try:
            _, err = proc.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
        if proc.returncode:
            last = (err or "").strip().splitlines()
            lines.append(f"\n  client of seat {seat} ({names[seat]}) exited with status "
                         f"{proc.returncode}: {last[-1] if last else '(no message)'}")
    return "".join(lines)


@dataclass
class DuplicateResult:
    """Both (all) halves of a duplicate match and each player's summed result."""

    names: list[str]
    halves: list[MatchResult]
    totals: list[Fraction]
    hands: int

    def per_hand(self) -> list[float]:
        """Each player's mean result per hand over all halves, in chips."""
        return [float(t) / self.hands for t in self.totals]


def run_duplicate(
    game_file: Path,
    *,
    num_hands: int,
    agents: Sequence[str],
    seed: int,
    out: Path | None = None,
    match_name: str = "match",
    **kwargs: Any,
) -> DuplicateResult:
    """Play the match once per seat shift with the same seed and add up each player's result.

    Heads-up this is the match and the match with the seats swapped. Logs go to
    ``out/<match_name>.log``, ``out/<match_name>.swap.log`` (more players:
    ``.shift<k>.log``).
    """
    names = player_names(agents)
    n = len(agents)
    halves = []
    totals = [Fraction(0)] * n
    suffixes = _suffixes(n)
    if out is not None:
        # Refuse before the first half is played, not between the halves.
        for path in duplicate_log_paths(out, match_name, n):
            check_new_log(path, force=bool(kwargs.get("force", False)))
    for shift, suffix in enumerate(suffixes):
        log_path = out / f"{match_name}{suffix}.log" if out is not None else None
        result = run_match(
            game_file, num_hands=num_hands, agents=agents, seed=seed, names=names,
            shift=shift, match_name=match_name + suffix, log_path=log_path, **kwargs,
        )
        halves.append(result)
        for seat, name in enumerate(result.names):
            totals[names.index(name)] += result.totals[seat]
    return DuplicateResult(names, halves, totals, num_hands * n)


def _suffixes(n: int) -> list[str]:
    return ["" if k == 0 else (".swap" if n == 2 else f".shift{k}") for k in range(n)]


def duplicate_log_paths(out: Path, match_name: str, num_players: int) -> list[Path]:
    """The logs :func:`run_duplicate` writes, in the order of the seat shifts.

    Examples
    --------
    >>> [p.name for p in duplicate_log_paths(Path("out"), "m", 2)]
    ['m.log', 'm.swap.log']
    """
    return [out / f"{match_name}{suffix}.log" for suffix in _suffixes(num_players)]
