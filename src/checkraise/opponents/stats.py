"""Per-opponent statistics, updated online after each hand and kept per position.

The hand-reading design (Li, Jiang, Chen, Bao, Chinese Journal of Computers 40(12), 2017)
keeps a model of each opponent's habits. These are the counts behind it, per position
group (:class:`Position`: front, middle, rear, blinds), from the hands the observer saw:

* **entry rate** (VPIP), **preflop raise** (PFR) and **aggression** (the postflop
  aggression factor), as defined once in :mod:`checkraise.stats`;
* **fold to bet**: postflop folds when facing a bet, over the times he faced one;
* the **decision counts**: facing a bet, how often he folded, called or raised; not
  facing one, how often he checked or bet; each separately before and after the flop.
  Every decision counts, not only street summaries;
* the **situation counts** (:attr:`Counts.situations`) that the model's adaptation reads
  (:mod:`checkraise.opponents.model`): for each street, number of raises already made on
  it (0, 1, 2 or more: :attr:`~checkraise.opponents.actions.UnderstoodAction.raises`) and
  whether he faced a bet, how often he folded (or checked), called, and bet or raised
  (by size class after the flop).

Positions: the two blinds are ``blinds`` (heads-up only the big blind; the button-small
blind is ``rear``); the other seats, counted back from the button, are ``rear`` in the
last third, ``middle`` in the next and ``front`` in the rest (6-max: UTG front, HJ middle,
CO and BTN rear).

Examples
--------
>>> from checkraise.engine import Action, TableConfig
>>> cfg = TableConfig.nolimit(3, stacks=10_000)
>>> hist = [(2, 0, Action.raise_to(300)), (0, 0, Action.fold()), (1, 0, Action.call()),
...         (1, 1, Action.call()), (2, 1, Action.raise_to(500)), (1, 1, Action.fold())]
>>> book = StatsBook()
>>> book.update(cfg, hist, {0: "sb", 1: "bb", 2: "btn"})
>>> s = book["btn"].total()
>>> s.vpip, s.pfr, s.aggression
(1.0, 1.0, None)
>>> book["bb"].total().fold_to_bet
1.0
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum

from checkraise.engine import Action, TableConfig
from checkraise.errors import ConfigError
from checkraise.opponents.actions import ActionClass, UnderstoodAction, understand
from checkraise.stats import Act, aggression_factor, rate, tally_hand

__all__ = ["RESPONSES", "Counts", "PlayerStats", "Position", "Situation", "StatsBook",
           "position_group", "response", "situation"]

Situation = tuple[int, int, bool]
"""(street 0..3, raises already made on it capped at 2, facing a bet?)."""


def situation(action: UnderstoodAction) -> Situation:
    """The situation an action was taken in (the key of :attr:`Counts.situations`).

    Examples
    --------
    >>> from checkraise.opponents.actions import FACING_POSTFLOP
    >>> situation(UnderstoodAction(0, 2, ActionClass.CALL, FACING_POSTFLOP, 2, 300, 100,
    ...                            raises=3))
    (2, 2, True)
    """
    return (action.street, min(action.raises, 2), action.facing)


RESPONSES = 5
"""Responses counted per situation, weakest first: fold or check, call, and the raise
classes by size (preflop every raise is 2: only one raise class is on offer there)."""

_RESPONSE = {
    ActionClass.FOLD: 0, ActionClass.CHECK: 0, ActionClass.CALL: 1,
    ActionClass.RAISE: 2, ActionClass.THREE_BET: 2, ActionClass.FOUR_BET: 2,
    ActionClass.HALF: 2, ActionClass.THREE_QUARTER: 3, ActionClass.POT: 4,
}


def response(cls: ActionClass) -> int:
    """Index of an action in a situation's counts (:data:`RESPONSES`, weakest first).

    Examples
    --------
    >>> [response(c) for c in (ActionClass.CHECK, ActionClass.CALL, ActionClass.HALF,
    ...                        ActionClass.POT, ActionClass.THREE_BET)]
    [0, 1, 2, 4, 2]
    """
    return _RESPONSE[cls]


class Position(StrEnum):
    """Position groups the statistics are kept by."""

    FRONT = "front"
    MIDDLE = "middle"
    REAR = "rear"
    BLINDS = "blinds"


def position_group(seat: int, num_players: int) -> Position:
    """Position group of engine ``seat`` at a table of ``num_players`` (engine seat layout).

    Examples
    --------
    >>> [position_group(s, 6).value for s in range(6)]
    ['blinds', 'blinds', 'front', 'middle', 'rear', 'rear']
    >>> [position_group(s, 2).value for s in range(2)]
    ['rear', 'blinds']
    """
    if not 0 <= seat < num_players:
        raise ConfigError(f"seat {seat} is not at a table of {num_players} players")
    if num_players == 2:
        return Position.REAR if seat == 0 else Position.BLINDS
    if seat < 2:
        return Position.BLINDS
    others = num_players - 2
    back = num_players - 1 - seat  # 0 = button
    if 3 * back < others:
        return Position.REAR
    if 3 * back < 2 * others:
        return Position.MIDDLE
    return Position.FRONT


@dataclass
class Counts:
    """The raw counts of one player (in one position group, or summed)."""

    hands: int = 0
    vpip_hands: int = 0
    pfr_hands: int = 0
    post_aggr: int = 0
    post_calls: int = 0
    post_facing: int = 0
    post_fold_facing: int = 0
    pre_facing: int = 0
    pre_fold: int = 0
    pre_call: int = 0
    pre_raise: int = 0
    pre_open: int = 0
    pre_check: int = 0
    post_call_facing: int = 0
    post_raise_facing: int = 0
    post_open: int = 0
    post_check: int = 0
    situations: dict[Situation, list[int]] = field(default_factory=dict)
    """Per :data:`Situation`: how often he gave each response (:data:`RESPONSES`)."""

    def add(self, other: Counts) -> None:
        """Add ``other``'s counts to these."""
        for f in fields(self):
            if f.name != "situations":
                setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))
        for key, row in other.situations.items():
            mine = self.situations.setdefault(key, [0] * RESPONSES)
            for i, x in enumerate(row):
                mine[i] += x

    @property
    def vpip(self) -> float | None:
        """Entry rate: share of hands he put money in voluntarily preflop."""
        return rate(self.vpip_hands, self.hands)

    @property
    def pfr(self) -> float | None:
        """Share of hands he raised preflop."""
        return rate(self.pfr_hands, self.hands)

    @property
    def aggression(self) -> float | None:
        """Postflop (bets + raises) / calls; ``None`` without calls."""
        return aggression_factor(self.post_aggr, self.post_calls)

    @property
    def fold_to_bet(self) -> float | None:
        """Share of postflop bets faced that he folded to."""
        return self.post_fold_facing / self.post_facing if self.post_facing else None

    def record(self, acts: Iterable[UnderstoodAction]) -> None:
        """Count one hand's actions by this player."""
        self.hands += 1
        tracked: list[tuple[int, int, Act]] = []
        for a in acts:
            raising = a.cls not in (ActionClass.FOLD, ActionClass.CHECK, ActionClass.CALL)
            act = (Act.RAISE if a.facing else Act.BET) if raising else Act(a.cls.value)
            tracked.append((0, a.street, act))
            self.situations.setdefault(situation(a), [0] * RESPONSES)[response(a.cls)] += 1
            if a.street == 0:
                if a.facing:
                    self.pre_facing += 1
                    self.pre_fold += a.cls is ActionClass.FOLD
                    self.pre_call += a.cls is ActionClass.CALL
                    self.pre_raise += raising
                else:
                    self.pre_open += 1
                    self.pre_check += a.cls is ActionClass.CHECK
                continue
            if a.facing:
                self.post_facing += 1
                self.post_fold_facing += a.cls is ActionClass.FOLD
                self.post_call_facing += a.cls is ActionClass.CALL
                self.post_raise_facing += raising
            else:
                self.post_open += 1
                self.post_check += a.cls is ActionClass.CHECK
        t = tally_hand(tracked, 1)[0]
        self.vpip_hands += t.vpip
        self.pfr_hands += t.pfr
        self.post_aggr += t.postflop_bets + t.postflop_raises
        self.post_calls += t.postflop_calls


@dataclass
class PlayerStats:
    """One opponent's counts per position group."""

    by_position: dict[Position, Counts]

    @classmethod
    def empty(cls) -> PlayerStats:
        """No hands seen yet."""
        return cls({p: Counts() for p in Position})

    def total(self) -> Counts:
        """Counts summed over the positions."""
        out = Counts()
        for c in self.by_position.values():
            out.add(c)
        return out


class StatsBook:
    """Statistics of every player seen, keyed by an identity (a name, or a relative seat)."""

    def __init__(self) -> None:
        self.players: dict[str, PlayerStats] = {}

    def __getitem__(self, player: str) -> PlayerStats:
        if player not in self.players:
            self.players[player] = PlayerStats.empty()
        return self.players[player]

    def __contains__(self, player: object) -> bool:
        return player in self.players

    def update(
        self,
        config: TableConfig,
        history: Iterable[tuple[int, int, Action]],
        names: Mapping[int, str],
        actions: list[UnderstoodAction] | None = None,
    ) -> None:
        """Count one finished hand for every seat named in ``names`` (seat -> identity).

        ``actions`` may pass the hand's :func:`~checkraise.opponents.actions.understand`
        output when the caller already has it.
        """
        acts = understand(config, history) if actions is None else actions
        for seat, name in names.items():
            pos = position_group(seat, config.num_players)
            self[name].by_position[pos].record(a for a in acts if a.seat == seat)
