"""Abstract heads-up no-limit hold'em: the rules, the action abstraction, the betting tree.

The full game is ACPC heads-up no-limit (stacks 20,000, blinds 50/100, the small
blind on the button acting first preflop and last after it; reverse blinds in the
ACPC game files). Its action abstraction keeps, per street and per raise depth, a
few bet and raise sizes (pot fractions; preflop raise-to totals in big blinds),
all-in whenever a raise is legal, and a cap on sized raises per street. Minimum
raises follow the reference ACPC dealer exactly, as the engine's ``acpc`` rules do:
the first raise preflop is to at least twice the big blind, a bet after the flop is
at least the big blind, and a raise is at least as large as the last raise
(``to >= 2 * to_last - to_before``); a short stack may go all-in for less.

The abstract betting tree is small (thousands of nodes) and is built once into flat
arrays (:class:`BettingTree`) with no cards in it: the Monte Carlo trainer samples the
cards and reads buckets, so information sets are met, never enumerated. Positions:
0 is the button (small blind), 1 the big blind.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise.errors import ConfigError, one_of

__all__ = [
    "CALL",
    "DECISION",
    "FOLD",
    "PRESETS",
    "RAISE",
    "SHOWDOWN",
    "STREET_NAMES",
    "ActionAbstraction",
    "BettingTree",
    "HoldemRules",
    "build_betting_tree",
    "load_actions",
]

STREET_NAMES = ("preflop", "flop", "turn", "river")

#: Node kinds of :class:`BettingTree`.
DECISION = 0
FOLD = 1
SHOWDOWN = 2
#: Action kinds (``BettingTree.act_kind`` of the node an action leads to).
FOLD_ACTION = 0
CALL = 1
RAISE = 2

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class HoldemRules:
    """Stacks and blinds of heads-up no-limit (ACPC's by default).

    Examples
    --------
    >>> HoldemRules().stack, HoldemRules().big_blind
    (20000, 100)
    >>> HoldemRules(stack=50)
    Traceback (most recent call last):
    ...
    checkraise.errors.ConfigError: stack=50; expected at least the big blind 100
    """

    stack: int = 20000
    small_blind: int = 50
    big_blind: int = 100

    def __post_init__(self) -> None:
        for name in ("stack", "small_blind", "big_blind"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ConfigError(f"{name}={value!r}; expected a whole number of chips >= 1")
        if self.small_blind > self.big_blind:
            raise ConfigError(
                f"small_blind={self.small_blind}; expected at most the big blind {self.big_blind}"
            )
        if self.stack < self.big_blind:
            raise ConfigError(
                f"stack={self.stack}; expected at least the big blind {self.big_blind}"
            )

    def to_dict(self) -> dict[str, int]:
        return {"stack": self.stack, "small_blind": self.small_blind, "big_blind": self.big_blind}


def _size_rows(name: str, rows: Any) -> tuple[tuple[float, ...], ...]:
    """Validate one street's sizes: a list (per raise depth) of lists of positive numbers."""
    if not isinstance(rows, (list, tuple)) or not rows:
        raise ConfigError(
            f"{name}={rows!r}; expected a non-empty list of size lists per raise depth"
        )
    out = []
    for depth, row in enumerate(rows):
        if not isinstance(row, (list, tuple)):
            raise ConfigError(f"{name}[{depth}]={row!r}; expected a list of sizes")
        sizes = []
        for x in row:
            if (
                isinstance(x, bool)
                or not isinstance(x, (int, float))
                or not math.isfinite(x)
                or x <= 0
            ):
                raise ConfigError(f"{name}[{depth}] has size {x!r}; expected a number > 0")
            sizes.append(float(x))
        if len(set(sizes)) != len(sizes):
            raise ConfigError(f"{name}[{depth}]={row!r}; expected distinct sizes")
        out.append(tuple(sorted(sizes)))
    return tuple(out)


@dataclass(frozen=True)
class ActionAbstraction:
    """Which bets and raises the abstract game allows.

    ``sizes[street][depth]`` lists the sized raises at raise depth ``depth`` (the
    number of bets and raises already made in the street, the big blind not counted;
    depths past the list reuse its last row): preflop as raise-to totals in big
    blinds, after the flop as fractions of the pot after calling (``to = max + f *
    (pot + to_call)``). Sizes below the minimum raise become the minimum raise, sizes
    at or above the stack become all-in. All-in is available whenever a raise is
    legal; ``raise_cap[street]`` caps the sized raises (past it: fold, call, all-in).

    Examples
    --------
    >>> a = PRESETS["fcpa"]
    >>> a.sizes[1], a.raise_cap
    (((1.0,),), (4, 4, 4, 4))
    >>> ActionAbstraction("x", sizes=(((2.0,),),) * 3, raise_cap=(1, 1, 1, 1))
    Traceback (most recent call last):
    ...
    checkraise.errors.ConfigError: sizes has 3 streets; expected 4 (preflop, flop, turn, river)
    """

    name: str
    sizes: tuple[tuple[tuple[float, ...], ...], ...]
    raise_cap: tuple[int, int, int, int]

    def __post_init__(self) -> None:
        if not isinstance(self.sizes, (list, tuple)) or len(self.sizes) != 4:
            n = len(self.sizes) if isinstance(self.sizes, (list, tuple)) else self.sizes
            raise ConfigError(f"sizes has {n} streets; expected 4 (preflop, flop, turn, river)")
        rows = tuple(_size_rows(f"sizes.{STREET_NAMES[s]}", r) for s, r in enumerate(self.sizes))
        object.__setattr__(self, "sizes", rows)
        cap = self.raise_cap
        if (
            not isinstance(cap, (list, tuple))
            or len(cap) != 4
            or any(isinstance(c, bool) or not isinstance(c, int) or c < 0 or c > 8 for c in cap)
        ):
            raise ConfigError(f"raise_cap={cap!r}; expected 4 whole numbers 0..8 (one per street)")
        object.__setattr__(self, "raise_cap", tuple(cap))

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "sizes": {
                STREET_NAMES[s]: [list(r) for r in rows] for s, rows in enumerate(self.sizes)
            },
            "raise_cap": list(self.raise_cap),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ActionAbstraction:
        """Read the form :meth:`to_dict` writes (``sizes`` keyed by street name)."""
        if not isinstance(d, Mapping):
            raise ConfigError(f"action abstraction {d!r}; expected a mapping")
        unknown = set(d) - {"name", "sizes", "raise_cap"}
        if unknown:
            raise ConfigError(
                f"unknown action-abstraction field {sorted(unknown)[0]!r}; "
                f"expected one of {one_of(['name', 'sizes', 'raise_cap'])}"
            )
        sizes = d.get("sizes")
        if not isinstance(sizes, Mapping) or set(sizes) != set(STREET_NAMES):
            raise ConfigError(f"sizes={sizes!r}; expected a table with keys {one_of(STREET_NAMES)}")
        return cls(
            name=str(d.get("name", "custom")),
            sizes=tuple(sizes[s] for s in STREET_NAMES),
            # passed as read: __post_init__ names a bad value as the file wrote it
            raise_cap=d.get("raise_cap", (3, 3, 3, 3)),
        )


#: Named action abstractions: ``tiny`` for tests, ``fcpa`` (fold, call, pot, all-in:
#: OpenSpiel's ``bettingAbstraction=fcpa``, for the benchmark), ``small`` (the shipped
#: blueprint), ``large`` (for users with a day of cores).
PRESETS: dict[str, ActionAbstraction] = {
    "tiny": ActionAbstraction(
        "tiny", sizes=(((2.0,),), ((1.0,),), ((1.0,),), ((1.0,),)), raise_cap=(1, 1, 1, 1)
    ),
    # pot raises: preflop along the main line open to 3, 3-bet to 9, 4-bet to 27 big blinds
    "fcpa": ActionAbstraction(
        "fcpa",
        sizes=(((3.0,), (9.0,), (27.0,), (81.0,)),) + (((1.0,),),) * 3,
        raise_cap=(4, 4, 4, 4),
    ),
    # overbets (1.5 pot on the flop and turn, 2.5 on the river) keep big real bets from
    # being read as all-in: the first `small` (largest bet = pot) read 14-31% of the
    # heuristic bot's flop-to-river bets as all-in, though none was
    "small": ActionAbstraction(
        "small",
        sizes=(
            ((2.5, 4.0), (9.0,), (22.0,)),
            ((0.5, 1.5), (1.0,)),
            ((0.5, 1.5), (1.0,)),
            ((0.5, 1.0, 2.5), (1.0,)),
        ),
        raise_cap=(3, 2, 2, 2),
    ),
    "large": ActionAbstraction(
        "large",
        sizes=(
            ((2.0, 2.5, 3.0, 4.0), (7.0, 9.0, 12.0), (20.0, 25.0), (50.0,)),
            ((0.33, 0.5, 0.75, 1.0), (0.5, 1.0), (1.0,)),
            ((0.5, 0.75, 1.0, 1.5), (0.75, 1.25)),
            ((0.5, 0.75, 1.0, 1.5), (0.75, 1.25)),
        ),
        raise_cap=(4, 3, 3, 3),
    ),
}


def load_actions(spec: str | Mapping[str, Any] | ActionAbstraction) -> ActionAbstraction:
    """An action abstraction from a preset name, a JSON file path or its dict form."""
    if isinstance(spec, ActionAbstraction):
        return spec
    if isinstance(spec, Mapping):
        return ActionAbstraction.from_dict(spec)
    key = str(spec).strip().lower()
    if key in PRESETS:
        return PRESETS[key]
    if key.endswith(".json"):
        try:
            with open(spec, encoding="utf-8") as fh:
                data = json.load(fh)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"action abstraction file {spec!r} is not JSON: {exc}") from exc
        return ActionAbstraction.from_dict(data)
    raise ConfigError(
        f"unknown action abstraction {spec!r}; expected one of {one_of(PRESETS)} or a .json file"
    )


@dataclass
class _Bet:
    """The betting state while the tree is built (mutable, copied per child)."""

    street: int
    committed: list[int]
    to_act: int
    pending: int  # bit set of the positions still to act this street
    raises: int  # bets and raises made this street (the big blind not counted)
    min_to: int  # the ACPC dealer's minimum raise-to
    line: str

    def copy(self) -> _Bet:
        return _Bet(
            self.street,
            list(self.committed),
            self.to_act,
            self.pending,
            self.raises,
            self.min_to,
            self.line,
        )


@dataclass(frozen=True)
class BettingTree:
    """The abstract betting tree, breadth-first, children contiguous (node 0 = root).

    Per node: ``kind`` (:data:`DECISION`, :data:`FOLD`, :data:`SHOWDOWN`), ``player``
    (the position to act; at a fold node the position that folded), ``street``,
    ``committed`` (chips each position has put in, ACPC hand totals), ``first_child``
    and ``num_children``, ``parent``, and the action that led to it: ``act_kind``
    (:data:`FOLD_ACTION`, :data:`CALL`, :data:`RAISE`) and ``act_to`` (the acting
    position's total after it). ``decision`` numbers the decision nodes densely
    (-1 elsewhere); ``lines`` holds each node's ACPC betting string (``r250c/``).
    """

    rules: HoldemRules
    actions: ActionAbstraction
    kind: IntArray
    player: IntArray
    street: IntArray
    committed: IntArray
    parent: IntArray
    first_child: IntArray
    num_children: IntArray
    act_kind: IntArray
    act_to: IntArray
    decision: IntArray
    decision_nodes: IntArray
    lines: tuple[str, ...] = field(repr=False)

    @property
    def num_nodes(self) -> int:
        return int(self.kind.shape[0])

    @property
    def num_decisions(self) -> int:
        return int(self.decision_nodes.shape[0])

    @property
    def max_actions(self) -> int:
        return int(self.num_children.max())

    def children(self, node: int) -> range:
        start = int(self.first_child[node])
        return range(start, start + int(self.num_children[node]))

    def action_token(self, node: int) -> str:
        """The ACPC token of the action that led to ``node`` (``f``, ``c`` or ``r<to>``)."""
        kind = int(self.act_kind[node])
        return "f" if kind == FOLD_ACTION else "c" if kind == CALL else f"r{int(self.act_to[node])}"

    def find(self, line: str) -> int:
        """The node reached by an ACPC betting string of the abstract game.

        Examples
        --------
        >>> tree = build_betting_tree(PRESETS["fcpa"])
        >>> tree.lines[tree.find("r300c/")]
        'r300c/'
        >>> tree.find("r250")
        Traceback (most recent call last):
        ...
        checkraise.errors.ConfigError: 'r250' is not in the fcpa betting tree: at 'r250' ...
        """
        node = 0
        done = ""
        for token in _tokens(line):
            if token == "/":
                if not done.endswith("/") and self.kind[node] == DECISION:
                    done += "/"
                    if self.lines[node] == done:
                        continue
                raise ConfigError(
                    f"{line!r} is not in the {self.actions.name} betting tree at {done!r}"
                )
            if self.kind[node] != DECISION:
                raise ConfigError(
                    f"{line!r} is not in the {self.actions.name} betting tree: "
                    f"the hand is over at {done!r}"
                )
            options = {self.action_token(c): c for c in self.children(node)}
            if token not in options:
                raise ConfigError(
                    f"{line!r} is not in the {self.actions.name} betting tree: "
                    f"at {done + token!r} expected one of {one_of(options)}"
                )
            node = options[token]
            done += token
        return node


def _tokens(line: str) -> list[str]:
    out: list[str] = []
    i = 0
    text = line.strip()
    while i < len(text):
        ch = text[i]
        if ch in "fc/":
            out.append(ch)
            i += 1
        elif ch == "r":
            j = i + 1
            while j < len(text) and text[j].isdigit():
                j += 1
            if j == i + 1:
                raise ConfigError(f"betting line {line!r}: 'r' at offset {i} needs an amount")
            out.append(text[i:j])
            i = j
        elif ch == " ":
            i += 1
        else:
            raise ConfigError(
                f"betting line {line!r}: unexpected {ch!r} at offset {i}; "
                "expected 'f', 'c', 'r<amount>' or '/'"
            )
    return out


def _raise_targets(rules: HoldemRules, actions: ActionAbstraction, b: _Bet) -> list[int]:
    """Raise-to totals available to the position to act, all-in last (empty if none)."""
    p = b.to_act
    mx = max(b.committed)
    stack = rules.stack
    if stack <= mx or b.committed[1 - p] >= stack:
        return []
    targets: set[int] = set()
    if b.raises < actions.raise_cap[b.street]:
        rows = actions.sizes[b.street]
        pot = b.committed[0] + b.committed[1]
        to_call = mx - b.committed[p]
        for f in rows[min(b.raises, len(rows) - 1)]:
            to = round(f * rules.big_blind) if b.street == 0 else mx + round(f * (pot + to_call))
            to = max(to, b.min_to)
            if to < stack:
                targets.add(to)
    return [*sorted(targets), stack]


def _children(
    rules: HoldemRules, actions: ActionAbstraction, b: _Bet
) -> list[tuple[int, int, Any]]:
    """``(act_kind, act_to, next)`` per action; ``next`` is a :class:`_Bet` or a terminal kind."""
    p = b.to_act
    mx = max(b.committed)
    out: list[tuple[int, int, Any]] = []
    if b.committed[p] < mx:
        out.append((FOLD_ACTION, 0, FOLD))
    # check or call
    c = b.copy()
    c.committed[p] = mx
    c.pending &= ~(1 << p)
    c.line += "c"
    if c.pending:
        c.to_act = 1 - p
        out.append((CALL, mx, c))
    elif mx >= rules.stack or b.street == 3:
        out.append((CALL, mx, SHOWDOWN))
    else:
        c.street += 1
        c.to_act = 1
        c.pending = 3
        c.raises = 0
        c.min_to = mx + rules.big_blind
        c.line += "/"
        out.append((CALL, mx, c))
    for to in _raise_targets(rules, actions, b):
        r = b.copy()
        r.committed[p] = to
        r.pending = 1 << (1 - p)
        r.raises += 1
        r.min_to = max(r.min_to, 2 * to - mx)
        r.to_act = 1 - p
        r.line += f"r{to}"
        out.append((RAISE, to, r))
    return out


def build_betting_tree(
    actions: ActionAbstraction | str, rules: HoldemRules | None = None
) -> BettingTree:
    """Every abstract betting sequence of heads-up no-limit under ``actions``.

    Examples
    --------
    >>> tree = build_betting_tree("tiny", HoldemRules(stack=400))
    >>> [tree.lines[c] for c in tree.children(0)]
    ['f', 'c', 'r200', 'r400']
    """
    acts = load_actions(actions)
    rules = rules if rules is not None else HoldemRules()
    sb, bb = rules.small_blind, rules.big_blind
    root = _Bet(street=0, committed=[sb, bb], to_act=0, pending=3, raises=0, min_to=2 * bb, line="")
    kind, player, street, committed, parent = [DECISION], [0], [0], [[sb, bb]], [-1]
    act_kind, act_to, lines = [-1], [0], [""]
    first_child: list[int] = []
    num_children: list[int] = []
    states: list[Any] = [root]
    i = 0
    while i < len(states):
        b = states[i]
        if not isinstance(b, _Bet):
            first_child.append(-1)
            num_children.append(0)
            i += 1
            continue
        kids = _children(rules, acts, b)
        first_child.append(len(states))
        num_children.append(len(kids))
        for ak, to, nxt in kids:
            states.append(nxt)
            parent.append(i)
            act_kind.append(ak)
            act_to.append(to)
            if isinstance(nxt, _Bet):
                kind.append(DECISION)
                player.append(nxt.to_act)
                street.append(nxt.street)
                committed.append(list(nxt.committed))
                lines.append(nxt.line)
            else:
                kind.append(nxt)
                p = b.to_act
                player.append(p if nxt == FOLD else -1)
                street.append(b.street)
                cm = list(b.committed)
                if nxt == SHOWDOWN:
                    cm[p] = to
                committed.append(cm)
                lines.append(b.line + ("f" if nxt == FOLD else "c"))
        i += 1
    kind_a = np.asarray(kind, dtype=np.int64)
    decision = np.full(kind_a.shape[0], -1, dtype=np.int64)
    decision_nodes = np.flatnonzero(kind_a == DECISION).astype(np.int64)
    decision[decision_nodes] = np.arange(decision_nodes.shape[0])
    return BettingTree(
        rules=rules,
        actions=acts,
        kind=kind_a,
        player=np.asarray(player, dtype=np.int64),
        street=np.asarray(street, dtype=np.int64),
        committed=np.asarray(committed, dtype=np.int64).reshape(-1, 2),
        parent=np.asarray(parent, dtype=np.int64),
        first_child=np.asarray(first_child, dtype=np.int64),
        num_children=np.asarray(num_children, dtype=np.int64),
        act_kind=np.asarray(act_kind, dtype=np.int64),
        act_to=np.asarray(act_to, dtype=np.int64),
        decision=decision,
        decision_nodes=decision_nodes,
        lines=tuple(lines),
    )
