"""Ring games between n agents with seat rotation, played in duplicate.

Duplicate poker (as in the Annual Computer Poker Competition's evaluation)
replays every deal with the players moved over the seats so that each player
holds each seat's cards once; summing a player's result over the seatings
removes most of the luck of the cards. Here a match of ``hands`` deals between
``n`` agents is played ``n`` times (*rotations*). In rotation ``r`` player ``i``
has role ``k = (i + r) mod n`` and sits in engine seat ``(k - h) mod n`` at hand
``h``, so the button moves one seat per hand and, over the rotations, every
player plays every role against the same sequence of decks.

Bookkeeping that makes the duplicate exact: the decks depend only on the master
seed and the hand number, and an agent's own random seed depends on its *role*,
not on the player. Two copies of the same agent therefore play the same
decisions in swapped seats and a player's result summed over the rotations is
exactly zero (chips are summed as ``int`` or :class:`~fractions.Fraction`,
never as floats). Each rotation starts with fresh agents, so agents that learn
over a match learn from the same hands in every rotation.

The per-deal results (a player's chips summed over the rotations, divided by
the number of rotations) are independent units; their mean is the win rate,
reported in mbb/hand with a 95% confidence interval (:mod:`checkraise.arena.stats`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from checkraise.agents.base import Agent, make_agent, split_agent_specs
from checkraise.arena.allin import allin_payoffs
from checkraise.arena.journal import Journal, Pace, mark_failed, write_match_file
from checkraise.arena.luck import luck_payoffs
from checkraise.arena.stats import ActionCounts, Estimate, mbb_per_hand
from checkraise.arena.table import HandLog, log_numbers, play_hand
from checkraise.backend import Backend, LocalBackend, Progress, resolve_backend
from checkraise.engine import RuleSet, TableConfig
from checkraise.errors import ConfigError

__all__ = [
    "PACE_SLACK",
    "MatchPart",
    "RingConfig",
    "RingResult",
    "agent_labels",
    "combine_rotations",
    "deal_deck",
    "play_ring",
    "play_rotation",
    "seed_int",
]


#: How many hands a rotation may run ahead of the others when a match logged to a
#: folder runs all its rotations at once (:class:`~checkraise.arena.journal.Pace`).
PACE_SLACK = 20


def seed_int(seed: int, *key: int) -> int:
    """A 63-bit integer seed derived from ``seed`` and a spawn key (SeedSequence).

    Examples
    --------
    >>> seed_int(1, 0, 3) == seed_int(1, 0, 3) != seed_int(1, 0, 4)
    True
    """
    ss = np.random.SeedSequence(seed, spawn_key=key)
    return int(ss.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))


def deal_deck(seed: int, *key: int) -> list[int]:
    """A shuffled 52-card deck from ``seed`` and a spawn key.

    Examples
    --------
    >>> sorted(deal_deck(5, 0, 1)) == list(range(52))
    True
    """
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key))
    return [int(c) for c in rng.permutation(52)]


def agent_labels(specs: Sequence[str]) -> list[str]:
    """Display names for agents: the spec, with ``#2``, ``#3`` … for repeats.

    Examples
    --------
    >>> agent_labels(["call", "random", "call"])
    ['call', 'random', 'call#2']
    """
    seen: dict[str, int] = {}
    out = []
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        out.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return out


@dataclass(frozen=True)
class RingConfig:
    """A match: agents, number of deals, stakes and whether to play in duplicate.

    Parameters
    ----------
    agents
        Agent specs (2..10), see :func:`checkraise.agents.make_agent`.
    hands
        Deals per rotation.
    stack, small_blind, big_blind
        Every hand starts with ``stack`` chips per seat (a cash game with
        stacks reset each hand, as in the ACPC).
    rules
        Engine rule set.
    duplicate
        Play all ``n`` rotations (else only rotation 0).
    """

    agents: tuple[str, ...]
    hands: int
    stack: int = 20000
    small_blind: int = 50
    big_blind: int = 100
    rules: RuleSet = RuleSet.CASINO
    duplicate: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "agents", tuple(split_agent_specs(list(self.agents))))
        if not 2 <= len(self.agents) <= 10:
            raise ConfigError(f"invalid number of agents {len(self.agents)}: expected 2..10")
        for spec in set(self.agents):
            make_agent(spec, seed=0)  # fail before playing on an unknown agent or option
        if self.hands < 1:
            raise ConfigError(f"invalid hands {self.hands!r}: expected at least 1")
        if self.stack < 1:
            raise ConfigError(f"invalid stack {self.stack!r}: expected at least 1 chip")
        # Validates the blinds.
        TableConfig.nolimit(len(self.agents), self.stack, self.small_blind, self.big_blind)

    @property
    def num_rotations(self) -> int:
        """How many seatings each deal is played in."""
        return len(self.agents) if self.duplicate else 1

    def table(self) -> TableConfig:
        """The table configuration of every hand."""
        return TableConfig.nolimit(
            len(self.agents), self.stack, self.small_blind, self.big_blind, rules=self.rules
        )

    def to_json(self) -> dict[str, Any]:
        """Plain-JSON form."""
        return {
            "agents": list(self.agents),
            "hands": self.hands,
            "stack": self.stack,
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "rules": str(self.rules),
            "duplicate": self.duplicate,
        }


@dataclass
class RotationResult:
    """Chips per hand per player (``payoffs[h][i]``), the same all-in adjusted
    (:mod:`checkraise.arena.allin`) and luck adjusted (:mod:`checkraise.arena.luck`;
    each the real result where nothing is adjusted), and decision counts of one
    rotation."""

    rotation: int
    payoffs: list[list[int | Fraction]]
    actions: list[ActionCounts]
    adjusted: list[list[int | Fraction]] = field(default_factory=list)
    adjusted_hands: int = 0
    luck: list[list[float]] = field(default_factory=list)
    luck_hands: int = 0


@dataclass(frozen=True)
class _RotationTask:
    config: RingConfig
    seed: int
    rotation: int
    log_dir: str | None
    pace: int | None = None


def play_rotation(
    config: RingConfig,
    seed: int,
    rotation: int,
    *,
    log_dir: Path | None = None,
    progress: Progress | None = None,
    pace: int | None = None,
) -> RotationResult:
    """Play all hands of one rotation (see the module docstring for the seating).

    With ``log_dir`` each hand is journaled as it ends; with ``pace`` too, the
    rotation runs at most ``pace`` hands ahead of the other rotations' journals
    (:class:`~checkraise.arena.journal.Pace`: only when they all run at once).

    Examples
    --------
    >>> cfg = RingConfig(("call", "call", "call"), hands=3)
    >>> r = play_rotation(cfg, seed=1, rotation=0)
    >>> [sum(row) for row in r.payoffs]
    [0, 0, 0]
    """
    n = len(config.agents)
    table = config.table()
    labels = agent_labels(config.agents)
    roles = [(i + rotation) % n for i in range(n)]
    agents: list[Agent] = [
        make_agent(spec, seed=seed_int(seed, 1, roles[i])) for i, spec in enumerate(config.agents)
    ]
    payoffs: list[list[int | Fraction]] = []
    adjusted: list[list[int | Fraction]] = []
    adjusted_hands = 0
    luck: list[list[float]] = []
    luck_hands = 0
    actions = [ActionCounts() for _ in range(n)]
    first = log_numbers("ring", seed, labels, rotation, config.hands)
    pacer = None
    if pace is not None:
        if log_dir is None:
            raise ConfigError("pace needs log_dir: the rotations are kept level by their "
                              "journals")
        pacer = Pace(log_dir, rotation, config.num_rotations, pace)
    try:
        with HandLog(log_dir, f"rotation-{rotation}", table=f"match rotation {rotation}",
                     first=first) as log, Journal(log_dir, rotation) as journal:
            for h in range(config.hands):
                if pacer is not None:
                    pacer.wait(h)
                seat_of = [(roles[i] - h) % n for i in range(n)]
                player_at = [0] * n
                for i, s in enumerate(seat_of):
                    player_at[s] = i
                names = [labels[p] for p in player_at]
                hand = play_hand(
                    [agents[p] for p in player_at], table, deal_deck(seed, 0, h), h, names
                )
                log.write(hand, names)
                payoffs.append([hand.payoffs[seat_of[i]] for i in range(n)])
                expected = allin_payoffs(hand.state)
                allin_row = None if expected is None else [expected[seat_of[i]] for i in range(n)]
                adjusted.append(payoffs[-1] if allin_row is None else allin_row)
                adjusted_hands += allin_row is not None
                lucky = luck_payoffs(hand.state)
                luck_row = None if lucky is None else [lucky[seat_of[i]] for i in range(n)]
                luck.append([float(v) for v in payoffs[-1]] if luck_row is None else luck_row)
                luck_hands += luck_row is not None
                decisions = [hand.decisions[seat_of[i]] for i in range(n)]
                for i in range(n):
                    actions[i].record_hand(decisions[i])
                journal.write(h, payoffs[-1], allin_row, luck_row, decisions)
                # Every hand: a backend's reporter sends them on in batches (every 0.2 s),
                # and a caller that stops on the clock (match --stop-at) hears of each.
                if progress is not None:
                    progress(1)
    except Exception as exc:  # the other rotations stop instead of waiting for it
        mark_failed(log_dir, rotation, exc)
        raise
    return RotationResult(rotation, payoffs, actions, adjusted, adjusted_hands, luck, luck_hands)


def _run_rotation(task: _RotationTask, progress: Progress) -> RotationResult:
    return play_rotation(
        task.config, task.seed, task.rotation,
        log_dir=Path(task.log_dir) if task.log_dir else None, progress=progress,
        pace=task.pace,
    )


@dataclass(frozen=True)
class MatchPart:
    """One match of those a pooled result is made of (:func:`checkraise.arena.journal.pool`):
    its seed, the deals it adds (those finished in every seating) and the deals it was
    to play."""

    seed: int
    deals: int
    planned: int


@dataclass
class RingResult:
    """Outcome of a (duplicate) ring match.

    Attributes
    ----------
    config, seed
        What was played.
    labels
        Display name of each player.
    deal_chips
        ``deal_chips[h][i]``: player ``i``'s chips won on deal ``h`` summed over the rotations.
    actions
        Decision counts per player, all rotations together.
    deal_adjusted
        The same as ``deal_chips``, all-in adjusted (:mod:`checkraise.arena.allin`).
    adjusted_hands
        How many hands (over all rotations) the adjustment changed the board luck of.
    deal_luck, luck_hands
        The same, luck adjusted (:mod:`checkraise.arena.luck`), and how many hands that
        changed.
    parts
        Empty for one match; for matches pooled by :func:`checkraise.arena.journal.pool`,
        each one's seed and deals, in the order of the deals (``seed`` is then the
        first's).
    """

    config: RingConfig
    seed: int
    labels: list[str]
    deal_chips: list[list[int | Fraction]]
    actions: list[ActionCounts] = field(default_factory=list)
    deal_adjusted: list[list[int | Fraction]] = field(default_factory=list)
    adjusted_hands: int = 0
    deal_luck: list[list[float]] = field(default_factory=list)
    luck_hands: int = 0
    parts: tuple[MatchPart, ...] = ()

    def total_chips(self, player: int) -> int | Fraction:
        """Player's chips won over every hand of every rotation (exact)."""
        return sum((row[player] for row in self.deal_chips), start=0)

    def mbb(self, player: int, *, adjusted: bool = False, luck: bool = False) -> Estimate:
        """Player's win rate in mbb/hand with its 95% interval over deals (``adjusted``:
        all-in adjusted, ``luck``: luck adjusted; the same expectation with less luck)."""
        k = self.config.num_rotations
        if adjusted and luck:
            raise ConfigError("adjusted=True and luck=True; expected one kind of figure")
        rows: Sequence[Sequence[int | Fraction | float]] = (
            self.deal_luck if luck else self.deal_adjusted if adjusted else self.deal_chips
        )
        if (adjusted or luck) and not rows:
            kind = "luck" if luck else "all-in"
            raise ConfigError(f"this result holds no {kind} adjusted chips (made before they "
                              "were recorded)")
        per_hand = [float(Fraction(row[player]) / k) for row in rows]
        return mbb_per_hand(per_hand, self.config.big_blind)

    def to_json(self) -> dict[str, Any]:
        """Summary as plain JSON (per player: chips, mbb/hand with CI, action stats)."""
        players = []
        for i, label in enumerate(self.labels):
            total = self.total_chips(i)
            players.append(
                {
                    "name": label,
                    "spec": self.config.agents[i],
                    "total_chips": float(total) if isinstance(total, Fraction) else total,
                    "mbb_per_hand": self.mbb(i).to_json(),
                    "mbb_per_hand_allin_adjusted": (
                        self.mbb(i, adjusted=True).to_json() if self.deal_adjusted else None
                    ),
                    "mbb_per_hand_luck_adjusted": (
                        self.mbb(i, luck=True).to_json() if self.deal_luck else None
                    ),
                    "actions": self.actions[i].to_json() if self.actions else None,
                }
            )
        data: dict[str, Any] = {
            "kind": "duplicate match" if self.config.duplicate else "match",
            "config": self.config.to_json(),
            "seed": None if self.parts else self.seed,
            "rotations": self.config.num_rotations,
            "hands_played": self.config.hands * self.config.num_rotations,
            "allin_adjusted_hands": self.adjusted_hands,
            "luck_adjusted_hands": self.luck_hands,
            "players": players,
        }
        if self.parts:
            data["pooled"] = [
                {"seed": p.seed, "deals": p.deals, "planned": p.planned} for p in self.parts
            ]
        return data


def play_ring(
    config: RingConfig,
    seed: int,
    *,
    workers: int | None = None,
    backend: Backend | None = None,
    log_dir: Path | None = None,
    progress: Progress | None = None,
) -> RingResult:
    """Play a (duplicate) match; each rotation is one work item of ``backend``.

    ``backend`` defaults to local processes, ``workers`` of them (default: one per
    core). The result depends on neither. With ``log_dir`` every hand is journaled
    as it ends; if local processes then play all the rotations at once, they are
    kept within :data:`PACE_SLACK` hands of each other
    (:class:`~checkraise.arena.journal.Pace`), so that a match killed part-way keeps
    nearly all the hands it played as whole deals (``checkraise match --recover``).

    Examples
    --------
    >>> res = play_ring(RingConfig(("call", "call"), hands=20), seed=3, workers=1)
    >>> res.total_chips(0), res.mbb(0).mean
    (0, 0.0)
    """
    runner = resolve_backend(backend, workers)
    rotations = config.num_rotations
    together = isinstance(runner, LocalBackend) and runner.workers >= rotations > 1
    pace = PACE_SLACK if log_dir is not None and together else None
    tasks = [
        _RotationTask(config, seed, r, str(log_dir) if log_dir else None, pace)
        for r in range(rotations)
    ]
    results: dict[int, RotationResult] = {}
    if log_dir is not None:
        write_match_file(log_dir, config, seed)
    runner.run(
        _run_rotation, tasks, on_result=results.__setitem__, on_progress=progress
    )
    return combine_rotations(config, seed, results)


def combine_rotations(config: RingConfig, seed: int,
                      results: dict[int, RotationResult]) -> RingResult:
    """The match of ``config`` from its rotations' results (each ``config.hands`` long)."""
    n = len(config.agents)
    deal_chips: list[list[int | Fraction]] = [[0] * n for _ in range(config.hands)]
    deal_adjusted: list[list[int | Fraction]] = [[0] * n for _ in range(config.hands)]
    deal_luck: list[list[float]] = [[0.0] * n for _ in range(config.hands)]
    actions = [ActionCounts() for _ in range(n)]
    adjusted_hands = luck_hands = 0
    for r in sorted(results):
        res = results[r]
        adjusted_hands += res.adjusted_hands
        luck_hands += res.luck_hands
        for h, (row, adj, lucky) in enumerate(
            zip(res.payoffs, res.adjusted, res.luck, strict=True)
        ):
            for i in range(n):
                deal_chips[h][i] += row[i]
                deal_adjusted[h][i] += adj[i]
                deal_luck[h][i] += lucky[i]
        for i in range(n):
            actions[i].add(res.actions[i])
    return RingResult(config, seed, agent_labels(config.agents), deal_chips, actions,
                      deal_adjusted, adjusted_hands, deal_luck, luck_hands)
