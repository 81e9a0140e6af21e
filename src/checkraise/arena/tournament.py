"""Seeded tournaments in the format of the hand-reading paper's experiments.

Format: 2–8 players at one table, at most 600 hands, blinds fixed at 20/40,
2,000 starting chips and one rebuy of 2,000 chips, taken automatically when a
player's stack reaches zero; a player is out when both are gone and the table
shrinks. Players are ranked by hands survived (hands dealt in), then by chips at
the end; players who bust in the same hand are separated by their stack at the
start of that hand (the usual tournament rule), and exact ties share the mean
rank. A repetition is one such tournament; metrics over ``R`` repetitions are in
:func:`summarize`.

Seating: players sit in a random circular order, the button starts on the last
of them and moves to the next player still in after each hand. Engine seats are
positional (:mod:`checkraise.engine`): with 3+ players seat 0 is the player left
of the button, heads-up seat 0 is the button.

Randomness: repetition ``r`` uses ``SeedSequence(seed, spawn_key=(r, ...))`` for
its seating, its decks (one per hand number) and each agent's seed, so a
repetition's result is the same whatever process runs it and in whatever order.

Chip volatility ``F = Σ (C_k − C_{k−1})²`` counts the chips won or lost in each
hand a player was dealt in; a rebuy is not a chip swing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from checkraise.agents.base import Agent, make_agent, split_agent_specs
from checkraise.arena.ring import agent_labels, deal_deck, seed_int
from checkraise.arena.stats import (
    ActionCounts,
    estimate,
    rank_summary,
    ratio_mbb_per_hand,
    shared_ranks,
)
from checkraise.arena.table import HandLog, log_numbers, play_hand
from checkraise.backend import Progress
from checkraise.engine import TableConfig
from checkraise.errors import ConfigError

__all__ = [
    "PlayerOutcome",
    "TournamentConfig",
    "TournamentResult",
    "paired_ranks",
    "play_tournament",
    "summarize",
]


@dataclass(frozen=True)
class TournamentConfig:
    """Agents and the rules of a tournament (defaults: the paper's format)."""

    agents: tuple[str, ...]
    max_hands: int = 600
    small_blind: int = 20
    big_blind: int = 40
    starting_chips: int = 2000
    rebuys: int = 1
    rebuy_chips: int = 2000
    names: tuple[str, ...] = ()
    """Players' names in logs and reports (default: labels made from the agent specs)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "agents", tuple(split_agent_specs(list(self.agents))))
        object.__setattr__(self, "names", tuple(self.names))
        if not 2 <= len(self.agents) <= 10:
            raise ConfigError(
                f"invalid number of agents {len(self.agents)}: expected 2..10 (the paper uses 2..8)"
            )
        if self.names and len(self.names) != len(self.agents):
            raise ConfigError(
                f"invalid names {list(self.names)}: expected one per agent ({len(self.agents)})"
            )
        for spec in set(self.agents):
            make_agent(spec, seed=0)  # fail before playing on an unknown agent or option
        for name in ("max_hands", "starting_chips", "rebuy_chips"):
            if getattr(self, name) < 1:
                raise ConfigError(f"invalid {name} {getattr(self, name)!r}: expected at least 1")
        if self.rebuys < 0:
            raise ConfigError(f"invalid rebuys {self.rebuys!r}: expected 0 or more")
        TableConfig.nolimit(2, self.starting_chips, self.small_blind, self.big_blind)

    @property
    def labels(self) -> list[str]:
        """Display names of the players."""
        return list(self.names) if self.names else agent_labels(self.agents)

    def to_json(self) -> dict[str, Any]:
        """Plain-JSON form."""
        return {
            "agents": list(self.agents),
            "max_hands": self.max_hands,
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "starting_chips": self.starting_chips,
            "rebuys": self.rebuys,
            "rebuy_chips": self.rebuy_chips,
            **({"names": list(self.names)} if self.names else {}),
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> TournamentConfig:
        """Inverse of :meth:`to_json`."""
        return cls(
            agents=tuple(d["agents"]),
            max_hands=int(d["max_hands"]),
            small_blind=int(d["small_blind"]),
            big_blind=int(d["big_blind"]),
            starting_chips=int(d["starting_chips"]),
            rebuys=int(d["rebuys"]),
            rebuy_chips=int(d["rebuy_chips"]),
            names=tuple(str(n) for n in d.get("names", ())),
        )


@dataclass
class PlayerOutcome:
    """One player's result in one tournament.

    ``stacks[k]`` is the stack after the ``k``-th hand (``stacks[0]`` the start),
    rebuys included, ``0`` once out; ``net_chips`` is the chips won in play;
    ``eliminated_at`` is the count of hands played when the player went out
    (the 1-based number of that hand; logs number hands from 0, as the ACPC does).
    """

    rank: float
    hands_survived: int
    chips: int
    rebuys_used: int
    eliminated_at: int | None
    net_chips: int
    volatility: int
    stacks: list[int]
    actions: ActionCounts = field(default_factory=ActionCounts)

    def to_json(self) -> dict[str, Any]:
        """Plain-JSON form."""
        return {
            "rank": self.rank,
            "hands_survived": self.hands_survived,
            "chips": self.chips,
            "rebuys_used": self.rebuys_used,
            "eliminated_at": self.eliminated_at,
            "net_chips": self.net_chips,
            "volatility": self.volatility,
            "stacks": self.stacks,
            "actions": self.actions.to_json(),
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> PlayerOutcome:
        """Inverse of :meth:`to_json`."""
        return cls(
            rank=float(d["rank"]),
            hands_survived=int(d["hands_survived"]),
            chips=int(d["chips"]),
            rebuys_used=int(d["rebuys_used"]),
            eliminated_at=None if d["eliminated_at"] is None else int(d["eliminated_at"]),
            net_chips=int(d["net_chips"]),
            volatility=int(d["volatility"]),
            stacks=[int(x) for x in d["stacks"]],
            actions=ActionCounts.from_json(d["actions"]),
        )


@dataclass
class TournamentResult:
    """One repetition: players in the order of the config's agents."""

    repetition: int
    hands_played: int
    seating: list[int]
    players: list[PlayerOutcome]

    def to_json(self) -> dict[str, Any]:
        """Plain-JSON form (one line of ``results.jsonl``)."""
        return {
            "repetition": self.repetition,
            "hands_played": self.hands_played,
            "seating": self.seating,
            "players": [p.to_json() for p in self.players],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> TournamentResult:
        """Inverse of :meth:`to_json`."""
        return cls(
            repetition=int(d["repetition"]),
            hands_played=int(d["hands_played"]),
            seating=[int(x) for x in d["seating"]],
            players=[PlayerOutcome.from_json(p) for p in d["players"]],
        )


HandHook = Callable[[int, list[int]], None]
"""Called before each hand with the 0-based hand number and the player index in each engine seat."""


def play_tournament(
    config: TournamentConfig,
    seed: int,
    repetition: int = 0,
    *,
    agents: Sequence[Agent] | None = None,
    seating: Sequence[int] | None = None,
    log_dir: Path | None = None,
    on_hand: HandHook | None = None,
    progress: Progress | None = None,
) -> TournamentResult:
    """Play one tournament (see the module docstring for the rules).

    Parameters
    ----------
    config
        Agents and rules.
    seed, repetition
        Master seed and repetition number; together they fix every card and choice.
    agents
        Ready agents to use instead of building them from ``config.agents``
        (e.g. with a human seat).
    seating
        Circular table order of player indices (default: a seeded permutation).
    log_dir
        Folder for ``rep-NNNN.log`` (ACPC) and ``rep-NNNN.txt`` (PokerStars).
    on_hand
        Called before each hand (see :data:`HandHook`).
    progress
        Called with the number of hands played, now and then.

    Examples
    --------
    >>> cfg = TournamentConfig(("allin", "checkfold"), max_hands=10)
    >>> res = play_tournament(cfg, seed=1, seating=[0, 1])
    >>> [p.chips for p in res.players], [p.rank for p in res.players]
    ([2300, 1700], [1.0, 2.0])
    """
    n = len(config.agents)
    if agents is None:
        agents = [
            make_agent(spec, seed=seed_int(seed, repetition, 1, i))
            for i, spec in enumerate(config.agents)
        ]
    elif len(agents) != n:
        raise ConfigError(f"{len(agents)} agents given for {n} players: expected one per player")
    if seating is None:
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(repetition, 2)))
        order = [int(p) for p in rng.permutation(n)]
    else:
        order = [int(p) for p in seating]
        if sorted(order) != list(range(n)):
            raise ConfigError(f"invalid seating {order!r}: expected a permutation of 0..{n - 1}")
    labels = config.labels
    stacks = [config.starting_chips] * n
    rebuys = [0] * n
    out_at: list[int | None] = [None] * n
    dealt = [0] * n
    start_of_last = [config.starting_chips] * n
    traces = [[config.starting_chips] for _ in range(n)]
    actions = [ActionCounts() for _ in range(n)]
    swings = [0] * n
    button = n - 1
    played = 0
    first = log_numbers("tournament", seed, labels, repetition, config.max_hands)
    with HandLog(log_dir, f"rep-{repetition:04d}", table=f"tournament {repetition}",
                 first=first) as log:
        for k in range(1, config.max_hands + 1):
            alive = [pos for pos in range(n) if out_at[order[pos]] is None]
            if len(alive) < 2:
                break
            if k > 1:
                button = next(p % n for p in range(button + 1, button + n + 1) if p % n in alive)
            b = alive.index(button)
            m = len(alive)
            first = b if m == 2 else b + 1
            player_at = [order[alive[(first + j) % m]] for j in range(m)]
            if on_hand is not None:
                on_hand(k - 1, player_at)
            table = TableConfig.nolimit(
                m, tuple(stacks[p] for p in player_at), config.small_blind, config.big_blind
            )
            names = [labels[p] for p in player_at]
            hand = play_hand(
                [agents[p] for p in player_at], table, deal_deck(seed, repetition, 0, k), k - 1,
                names,
            )
            log.write(hand, names)
            played = k
            for seat, p in enumerate(player_at):
                start_of_last[p] = stacks[p]
                won = int(hand.payoffs[seat])
                swings[p] += won * won
                stacks[p] += won
                dealt[p] += 1
                actions[p].record_hand(hand.decisions[seat])
                if stacks[p] == 0:
                    if rebuys[p] < config.rebuys:
                        rebuys[p] += 1
                        stacks[p] = config.rebuy_chips
                    else:
                        out_at[p] = k
            for p in range(n):
                traces[p].append(stacks[p])
            if progress is not None and k % 50 == 0:
                progress(50)
    if progress is not None and played % 50:
        progress(played % 50)
    # The stack at the start of the last hand separates only players who busted together.
    ranks = shared_ranks(
        [(dealt[p], stacks[p], start_of_last[p] if stacks[p] == 0 else 0) for p in range(n)]
    )
    players = []
    for p in range(n):
        net = stacks[p] - config.starting_chips - rebuys[p] * config.rebuy_chips
        players.append(
            PlayerOutcome(
                rank=ranks[p],
                hands_survived=dealt[p],
                chips=stacks[p],
                rebuys_used=rebuys[p],
                eliminated_at=out_at[p],
                net_chips=net,
                volatility=swings[p],
                stacks=traces[p],
                actions=actions[p],
            )
        )
    return TournamentResult(repetition, played, order, players)


def summarize(config: TournamentConfig, results: Sequence[TournamentResult]) -> dict[str, Any]:
    """Metrics per agent over repetitions, as plain JSON.

    Per player: mean rank (with 95% interval), win rate (share of first places),
    rank distribution, hands survived, chips remaining, chip volatility, win rate
    in mbb/hand (net chips over all repetitions per hand dealt in, with a
    ratio-estimator interval) and action frequencies; ``paired_ranks``, every two
    players' rank difference over the same tournaments (:func:`paired_ranks`); plus
    ``chip_trend``, the
    mean stack after each hand number (a finished tournament's stacks carry
    forward to ``max_hands``).

    Examples
    --------
    >>> cfg = TournamentConfig(("allin", "checkfold"), max_hands=10)
    >>> s = summarize(cfg, [play_tournament(cfg, seed=1, repetition=r) for r in range(2)])
    >>> [p["win_rate"] for p in s["players"]]
    [1.0, 0.0]
    """
    if not results:
        raise ConfigError("no tournament results to summarize: expected at least one repetition")
    results = sorted(results, key=lambda r: r.repetition)
    n = len(config.agents)
    ranks = rank_summary([[p.rank for p in r.players] for r in results], n)
    players = []
    trend = np.zeros((n, config.max_hands + 1))
    for i, label in enumerate(config.labels):
        outcomes = [r.players[i] for r in results]
        actions = ActionCounts()
        for o in outcomes:
            actions.add(o.actions)
            stacks = np.asarray(o.stacks, dtype=np.float64)
            trend[i, : len(stacks)] += stacks
            trend[i, len(stacks) :] += stacks[-1]
        players.append(
            {
                "name": label,
                "spec": config.agents[i],
                **ranks[i],
                "hands_survived": estimate([o.hands_survived for o in outcomes]).to_json(),
                "chips_remaining": estimate([o.chips for o in outcomes]).to_json(),
                "volatility": estimate([o.volatility for o in outcomes]).to_json(),
                "mbb_per_hand": ratio_mbb_per_hand(
                    [o.net_chips for o in outcomes], [o.hands_survived for o in outcomes],
                    config.big_blind,
                ).to_json(),
                "rebuys_used": float(np.mean([o.rebuys_used for o in outcomes])),
                "actions": actions.to_json(),
            }
        )
    trend /= len(results)
    return {
        "kind": "tournament",
        "config": config.to_json(),
        "repetitions": len(results),
        "hands_played": estimate([r.hands_played for r in results]).to_json(),
        "players": players,
        "paired_ranks": paired_ranks([[p.rank for p in r.players] for r in results]),
        "chip_trend": [[round(float(x), 3) for x in row] for row in trend],
    }


def paired_ranks(ranks: Sequence[Sequence[float]]) -> list[list[dict[str, Any] | None]]:
    """Rank differences between every two players over the same tournaments.

    ``out[i][j]`` is the estimate (mean and 95% interval) of player ``i``'s rank less
    player ``j``'s, one sample per repetition: negative when ``i`` places ahead. Two
    players' mean ranks come from the same deals and seatings, so their difference
    varies far less than either mean; this is the interval that says whether one
    placed ahead of the other. The diagonal is None.

    Examples
    --------
    >>> d = paired_ranks([[1, 2, 3], [2, 1, 3], [1, 3, 2]])
    >>> d[0][1]["mean"], d[1][0]["mean"], d[0][0]
    (-0.6666666666666666, 0.6666666666666666, None)
    """
    x = np.asarray(ranks, dtype=np.float64)
    n = x.shape[1]
    return [[None if i == j else estimate(x[:, i] - x[:, j]).to_json() for j in range(n)]
            for i in range(n)]
