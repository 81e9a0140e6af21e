"""River subgames for the ``resolve`` bot: the spot, the blueprint in it, and the re-solve.

A subgame starts where the river's betting starts, from both players' ranges there
(range tracking, :mod:`checkraise.agents.range_tracking`), and is solved by the spot
solver on exact cards with finer bet sizes than the blueprint's, plus every size
actually bet or raised on this river so far: an opponent's off-tree bet is *added to
the subgame* and solved against, not translated (nested subgame solving, Brown &
Sandholm 2017).

Two ways to solve it (``mode``):

``unsafe``
    Both ranges as if they were common knowledge; the opponent may play anything.
``safe``
    Burch, Johanson & Bowling's (2014) CFR-D re-solving gadget on the spot solver's
    :class:`~checkraise.solvers.spot.Gadget`: hand by hand, the opponent may take his
    *counterfactual best-response value* against the blueprint in this subgame instead
    of entering it ("Resolve" in Brown & Sandholm 2017). Those values come from the same
    tree with our decisions locked to what the blueprint bot would play there (its
    real actions mapped to the nearest action of the tree) and the opponent
    best-responding; re-solving can then only lower what any opponent hand gets.

Positions follow the spot solver: player 0 is OOP (the big blind heads-up), player 1
IP (the button). Chips are the solver's: values from the start of the river.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from checkraise.cards import NUM_COMBOS
from checkraise.errors import ConfigError, one_of
from checkraise.games.holdem import STREET_NAMES

if TYPE_CHECKING:
    from checkraise.agents.blueprint import BlueprintAgent
    from checkraise.engine import Action, Observation, State, TableConfig
    from checkraise.solvers.spot import SpotSolver
    from checkraise.solvers.spot.solver import LeafValues
    from checkraise.solvers.spot.tree import SpotTree

__all__ = ["BOUNDS", "GADGETS", "MODES", "SUBGAME_SIZES", "TURN_SIZES", "StreetStart",
           "Subgame",
           "blueprint_rows_for", "blueprint_street", "locked_solver", "street_start"]

FloatArray = npt.NDArray[np.float64]
MODES = ("unsafe", "safe")
BOUNDS = ("cbv", "blueprint")
#: The safe mode's gadget: Burch et al.'s CFR-D ("resolve") or Maxmargin.
GADGETS = ("resolve", "maxmargin")
#: Bet sizes (% of the pot) and raise sizes (% of the pot after calling) of a subgame,
#: both players; the blueprint's river has bets 50/100/250 and raises 100.
SUBGAME_SIZES = {"bet": (33.0, 50.0, 75.0, 100.0, 150.0, 250.0), "raise": (60.0, 100.0)}
#: Sizes of a depth-limited turn (and flop) subgame: fewer than the river's, since every
#: line that ends the street is a leaf the value function is asked about at every
#: iteration.
TURN_SIZES = {"bet": (50.0, 100.0), "raise": (100.0,)}
RAISE_CAP = 3
TURN_RAISE_CAP = 2


@dataclass(frozen=True)
class StreetStart:
    """The current street's starting point and what was done on it so far."""

    state: State  # an engine state at the street's start (stand-in hole cards)
    board: tuple[int, ...]
    pot: int  # chips in the middle, antes included
    base: tuple[int, int]  # each seat's raise-to chips at the start (antes out)
    stack: int  # the effective stack behind
    oop_seat: int  # the engine seat of spot player 0
    actions: tuple[tuple[int, Action], ...]  # (seat, action) on this street so far


def street_start(observation: Observation, street: int | None = None) -> StreetStart:
    """Replay ``observation``'s history up to the first action of its current street (or
    of an earlier ``street``), with the actions of that street."""
    from checkraise.engine import State

    street = observation.round if street is None else street
    if not 0 <= street <= observation.round:
        raise ConfigError(f"street {street!r}; expected 0..{observation.round} for this hand")
    cfg = observation.config
    board = tuple(observation.board[: street + 2 if street else 0])
    state = State(cfg, hole_cards=[None, None], board=board, seed=0)
    history = observation.history
    i = 0
    while i < len(history) and history[i][1] < street:
        state.step(history[i][2])
        i += 1
    start = state.copy()
    contrib = state.contributions
    base = _street_base(state)
    stack = min(cfg.stacks[s] - contrib[s] for s in range(2))
    oop = 1 - cfg.button
    actions = tuple((seat, action) for seat, rnd, action in history[i:] if rnd == street)
    return StreetStart(start, board, int(sum(contrib)), base, int(stack), oop, actions)


def blueprint_street(deal: int, config: TableConfig | None = None, street: int = 3,
                     biases: tuple[str, str] = ("none", "none"),
                     ) -> tuple[Observation, tuple[tuple[int, ...], ...]] | None:
    """The first decision on ``street`` (default the river) of the shipped ``small``
    blueprint (``resolve``'s) playing itself on ``deal`` (cards and bots seeded by it)
    and both hands; None if the hand ends before. ``biases``: each seat's ``bias``
    (:class:`~checkraise.agents.blueprint.BlueprintAgent`), so that a seat can play
    one of the continuation strategies instead."""
    from checkraise.agents.blueprint import BlueprintAgent
    from checkraise.engine import State, TableConfig

    cfg = config or TableConfig.nolimit(2, stacks=20000)
    bots = [BlueprintAgent(file="small", bias=biases[s], seed=deal + s) for s in range(2)]
    state = State(cfg, seed=deal)
    for s in range(2):
        bots[s].begin_hand(s, cfg, state.hole_cards[s], deal)
    while not state.is_terminal and state.round < street:
        p = state.current_player
        assert p is not None
        state.step(bots[p].act(state.observation(p)))
    if state.is_terminal or state.current_player is None or state.round != street:
        return None
    return state.observation(state.current_player), state.hole_cards


def _labels_and_sizes(start: StreetStart) -> tuple[list[str], list[list[float]], list[list[float]],
                                                   int]:
    """The spot-tree labels of the street's actions, the sizes they need, and the raises."""
    from checkraise.engine import ActionKind

    totals = [0, 0]  # street totals per spot player
    labels: list[str] = []
    bets: list[list[float]] = [[], []]
    raises: list[list[float]] = [[], []]
    raised = 0
    for seat, action in start.actions:
        p = 0 if seat == start.oop_seat else 1
        mine, theirs = totals[p], totals[1 - p]
        if action.kind == ActionKind.FOLD:
            labels.append("f")
            continue
        if action.kind == ActionKind.CHECK_CALL:
            labels.append("c" if theirs > mine else "x")
            totals[p] = theirs
            continue
        total = int(action.amount) - start.base[seat]
        pot = start.pot + totals[0] + totals[1]
        if theirs == 0:
            bets[p].append(100.0 * total / pot)
            labels.append(f"b{total}")
        else:
            facing = theirs - mine
            raises[p].append(100.0 * (total - theirs) / (pot + facing))
            labels.append(f"r{total}")
            raised += 1
        totals[p] = total
    return labels, bets, raises, raised


def _label_action(label: str, base: int, observation: Observation) -> Action:
    """The engine action of a spot-tree label for the seat whose raise-to base is ``base``."""
    from checkraise.engine import Action

    if label == "f":
        return Action.fold()
    if label in ("x", "c"):
        return Action.call()
    to = base + int(label[1:])
    legal = observation.legal
    if legal is not None and legal.min_raise_to is not None and legal.max_raise_to is not None:
        to = min(max(to, legal.min_raise_to), legal.max_raise_to)
    return Action.raise_to(to)


@dataclass
class Subgame:
    """One street's subgame of one hand: the re-solved strategies and how it was made.

    A river subgame runs to the end of the hand; a turn subgame is depth-limited: it
    ends where the turn's betting does, and ``leaf_values`` (a river value network's
    :class:`~checkraise.nn.river_values.RiverLeafValues`) values the rest.

    Build it with :meth:`solve`; :meth:`strategy` gives an actor's strategy at a line.
    """

    start: StreetStart
    mode: str
    solver: SpotSolver
    line_prefix: tuple[str, ...]
    exploitability: float  # % of the pot, of the re-solved strategies in the subgame
    seconds: float
    gadget_values: FloatArray | None = None
    blueprint_value: float | None = field(default=None)  # opponent's bound, chips per hand

    @classmethod
    def solve(
        cls,
        observation: Observation,
        ranges: tuple[FloatArray, FloatArray],
        me: int,
        mode: str,
        readers: tuple[BlueprintAgent, BlueprintAgent] | None = None,
        *,
        bound: str = "cbv",
        gadget: str = "resolve",
        warm: int = 0,
        sizes: dict[str, tuple[float, ...]] | None = None,
        accuracy: float = 0.5,
        max_seconds: float = 5.0,
        max_iterations: int = 2000,
        leaf_values: LeafValues | None = None,
        leaf_choices: tuple[int, int] | None = None,
    ) -> Subgame:
        """Re-solve the street of ``observation`` for ``me`` (an engine seat).

        On the river the subgame runs to the end of the hand. On the turn (or the flop)
        it needs ``leaf_values`` and ends with the street's betting (depth-limited
        solving, only ``unsafe``: the safe gadget's bounds would need the blueprint's
        values of the streets after); ``leaf_choices`` (spot player, k) gives that player
        a choice between ``k`` leaves at each end of the turn (continuation strategies).

        ``ranges`` are both engine seats' weights at the start of the river. ``safe``
        needs ``readers``: a :class:`BlueprintAgent` per engine seat, sitting in that
        seat (they give the blueprint the opponent's alternative values are measured
        against). ``bound`` is that alternative: ``cbv``, his best-response value
        against our blueprint (the sound choice), or ``blueprint``, his value when both
        play the blueprint (Brown & Sandholm's "Estimate": tighter, so the re-solve must
        beat the blueprint's own play hand by hand, but not safe against a best response).
        ``gadget`` is ``resolve`` (the CFR-D gadget: every margin kept >= 0) or
        ``maxmargin`` (the smallest margin made as large as it can be).
        """
        import time

        from checkraise.solvers.spot import Gadget, SpotSolver

        if mode not in MODES:
            raise ConfigError(f"mode={mode!r}; expected one of {one_of(MODES)}")
        if bound not in BOUNDS:
            raise ConfigError(f"bound={bound!r}; expected one of {one_of(BOUNDS)}")
        if gadget not in GADGETS:
            raise ConfigError(f"gadget={gadget!r}; expected one of {one_of(GADGETS)}")
        street = observation.round
        name = STREET_NAMES[street]
        if street in (1, 2) and leaf_values is None:
            raise ConfigError(f"a {name} subgame is depth-limited: it needs leaf values")
        if street in (1, 2) and mode != "unsafe":
            raise ConfigError(f"mode={mode!r} on the {name}; depth-limited subgames are unsafe")
        if street not in (1, 2, 3) or (street == 3 and leaf_values is not None):
            raise ConfigError(
                f"a subgame needs a river observation, or a flop or turn one with leaf "
                f"values; got round {street}"
            )
        started = time.perf_counter()
        start = street_start(observation)
        labels, bets, raises, raised = _labels_and_sizes(start)
        default = SUBGAME_SIZES if street == 3 else TURN_SIZES
        cap = RAISE_CAP if street == 3 else TURN_RAISE_CAP
        spot = _spot(start, bets, raises, max(cap, raised), sizes or default, street)
        oop = start.oop_seat
        reach = (np.asarray(ranges[oop], np.float64), np.asarray(ranges[1 - oop], np.float64))
        mine = 0 if me == oop else 1
        bounds: Gadget | None = None
        values = None
        cbv = None
        if mode == "safe":
            if readers is None:
                raise ConfigError("safe re-solving needs the blueprint agents of both seats")
            values, cbv = _blueprint_values(spot, reach, mine, start, readers, bound)
            bounds = Gadget(1 - mine, values, maxmargin=gadget == "maxmargin")
        solver = SpotSolver(spot, reach=reach, gadget=bounds, precision="float32",
                            leaf_values=leaf_values, leaf_choices=leaf_choices)
        if warm and bounds is not None:
            # Iterate without the gadget first and keep only the regrets: CFR then
            # starts the gadget's game from the unsafe solution and settles, among the
            # strategies the gadget allows, near it rather than anywhere. The average
            # strategy is the gadget phase's alone, so its guarantee is untouched. Each
            # phase takes at most a third of the time left.
            solver.gadget = None
            _iterate(solver, warm, (max_seconds - (time.perf_counter() - started)) / 3)
            solver.gadget = bounds
            for cum in solver.cum:
                cum[:] = 0.0
            # as many with the gadget before the accuracy is checked
            _iterate(solver, warm, (max_seconds - (time.perf_counter() - started)) / 2)
        # the solver begins no 10-iteration step it would not finish in time; a tenth
        # stays in hand for the rest of the decision
        left = max(0.05, 0.9 * (max_seconds - (time.perf_counter() - started)))
        expl = solver.solve(accuracy=accuracy, max_iterations=max_iterations, max_seconds=left)
        return cls(start, mode, solver, tuple(labels), float(expl),
                   time.perf_counter() - started, values, cbv)

    def strategy(self, labels: tuple[str, ...] | list[str], combo: int | None = None,
                 ) -> tuple[tuple[str, ...], FloatArray]:
        """The actor's labels and strategy after ``labels`` on this river.

        With ``combo`` the row of that hand; otherwise a ``(1326, actions)`` array with
        zero rows for hands outside the actor's range.
        """
        line = " ".join(labels)
        names, rows = self.solver.strategy_at(line)
        actor = int(self.solver.tree.player[self.solver.tree.find(line)])
        combos = self.solver.combos[actor]
        out = np.zeros((NUM_COMBOS, len(names)))
        out[combos] = rows
        if combo is None:
            return names, out
        return names, out[combo][None, :]

    def ranges_after(self, labels: list[str]) -> tuple[FloatArray, FloatArray]:
        """Both engine seats' ranges (1,326 weights) after ``labels`` of this street: the
        subgame's starting ranges times each actor's average strategy along the line."""
        solver = self.solver
        reach = [np.zeros(NUM_COMBOS), np.zeros(NUM_COMBOS)]
        for p in range(2):
            reach[p][solver.combos[p]] = solver.initial_reach[p]
        for k, label in enumerate(labels):
            line = " ".join(labels[:k])
            names, rows = solver.strategy_at(line)
            if label not in names:
                raise ConfigError(f"line {' '.join(labels)!r} leaves the subgame at {label!r}")
            actor = int(solver.tree.player[solver.tree.find(line)])
            reach[actor][solver.combos[actor]] *= rows[:, names.index(label)]
        oop = self.start.oop_seat
        return (reach[0], reach[1]) if oop == 0 else (reach[1], reach[0])

    def fits(self, labels: list[str]) -> bool:
        """Whether the tree holds this line of the street's actions."""
        try:
            self.solver.tree.find(" ".join(labels))
        except Exception:  # a CheckraiseError naming the missing action
            return False
        return True


def _iterate(solver: SpotSolver, iterations: int, seconds: float) -> None:
    """``iterations`` more iterations, in tens, stopping early after ``seconds``."""
    import time

    until = time.perf_counter() + seconds
    done = 0
    while done < iterations and time.perf_counter() < until:
        step = min(10, iterations - done)
        solver.iterate(step)
        done += step


def _spot(start: StreetStart, bets: list[list[float]], raises: list[list[float]], cap: int,
          sizes: dict[str, tuple[float, ...]], street: int = 3) -> Any:
    from checkraise.cards import format_cards
    from checkraise.solvers.spot import Spot
    from checkraise.solvers.spot.config import BetSizes

    here = tuple(
        BetSizes(bet=tuple(sizes["bet"]) + tuple(bets[p]),
                 raise_=tuple(sizes["raise"]) + tuple(raises[p]), allin=True)
        for p in range(2)
    )
    spot = Spot.from_dict({
        "board": format_cards(start.board), "pot": start.pot, "stack": max(1, start.stack),
        "big_blind": start.state.config.big_blind, "raise_cap": cap, "allin_threshold": 0.0,
        "ranges": {"oop": "any", "ip": "any"},
    })
    from dataclasses import replace

    per_street = list(spot.sizes)
    per_street[street - 1] = (here[0], here[1])  # sizes are per street: flop, turn, river
    return replace(spot, sizes=tuple(per_street))


RowsFor = Callable[["SpotTree", int, list[str], int, "State"], "FloatArray | None"]
"""``(tree, node, line, actor, state) -> rows`` of a decision node to lock (None: leave it)."""


def locked_solver(spot: Any, reach: tuple[FloatArray, FloatArray], start: StreetStart,
                  rows_for: RowsFor) -> SpotSolver:
    """A solver of ``spot`` from ``reach`` whose decision nodes are locked to ``rows_for``.

    ``rows_for`` gets the tree, each decision node, its line of labels (with the card of
    each later street, as :meth:`~checkraise.solvers.spot.SpotSolver.lock` reads lines),
    its actor (spot player) and an engine state at the node (stand-in hole cards, the
    line's board), and returns the actor's ``(1326, actions)`` strategy there, or None to
    leave the node to the solver. A spot that runs past its street is walked through
    every card that can come.
    """
    from checkraise.cards import format_cards
    from checkraise.engine import State
    from checkraise.solvers.spot import SpotSolver
    from checkraise.solvers.spot.tree import CHANCE, DECISION

    solver = SpotSolver(spot, reach=reach, precision="float64", isomorphism=False)
    tree = solver.tree
    cfg = start.state.config
    seats = (start.oop_seat, 1 - start.oop_seat)
    Entry = tuple[int, list[str], State, tuple[int, ...], tuple[int, int]]
    stack: list[Entry] = [(0, [], start.state.copy(), start.board, start.base)]
    while stack:
        node, line, state, board, base = stack.pop()
        if tree.kind[node] == CHANCE:
            # the next street from every card not on the board: the hand replayed on it
            history = [action for _, _, action in state.observation(0).history]
            for card in range(52):
                if card in board:
                    continue
                dealt = (*board, card)
                nxt = State(cfg, hole_cards=[None, None], board=dealt, seed=0)
                for action in history:
                    nxt.step(action)
                stack.append((int(tree.child_start[node]), [*line, format_cards((card,))],
                              nxt, dealt, _street_base(nxt)))
            continue
        if tree.kind[node] != DECISION:
            continue
        actor = int(tree.player[node])
        seat = seats[actor]
        rows = rows_for(tree, node, line, actor, state)
        if rows is not None:
            solver.lock(" ".join(line), rows)
        for child in tree.children(node):
            label = tree.labels[child]
            nxt = state.copy()
            nxt.step(_label_action(label, base[seat], nxt.observation(seat)))
            stack.append((child, [*line, label], nxt, board, base))
    return solver


def _street_base(state: State) -> tuple[int, int]:
    """Each seat's raise-to chips (antes out) of a state at its street's start."""
    cfg = state.config
    contrib = state.contributions
    return (contrib[0] - min(cfg.ante, cfg.stacks[0]), contrib[1] - min(cfg.ante, cfg.stacks[1]))


def blueprint_rows_for(start: StreetStart, readers: tuple[BlueprintAgent, BlueprintAgent],
                       players: tuple[int, ...]) -> RowsFor:
    """``rows_for`` of :func:`locked_solver`: the blueprint bot's play for ``players``
    (spot players; ``readers`` by engine seat)."""
    seats = (start.oop_seat, 1 - start.oop_seat)

    def rows_for(tree: SpotTree, node: int, line: list[str], actor: int,
                 state: State) -> FloatArray | None:
        if actor not in players:
            return None
        seat = seats[actor]
        obs = state.observation(seat)
        base = start.base if obs.round == start.state.round else street_start(obs).base
        return _blueprint_rows(readers[seat], obs, tree, node, base[seat])

    return rows_for


def _blueprint_values(spot: Any, reach: tuple[FloatArray, FloatArray], mine: int,
                      start: StreetStart, readers: tuple[BlueprintAgent, BlueprintAgent],
                      bound: str) -> tuple[FloatArray, float]:
    """The opponent's value per combo (chips) and over his range against our blueprint:
    best-responding (``cbv``) or playing the blueprint too (``blueprint``)."""
    from checkraise.solvers.spot import _kernels as K

    players = (mine,) if bound == "cbv" else (0, 1)
    solver = locked_solver(spot, reach, start, blueprint_rows_for(start, readers, players))
    mode = K.MODE_BEST_RESPONSE if bound == "cbv" else K.MODE_AVERAGE
    values = solver.root_values(mode)[1 - mine]
    other = 1 - mine
    mass = solver.root_mass(other)
    out = np.zeros(NUM_COMBOS)
    with np.errstate(invalid="ignore", divide="ignore"):
        out[solver.combos[other]] = np.where(mass > 0, values / np.where(mass > 0, mass, 1), 0.0)
    total = float(np.dot(solver.initial_reach[other], values))
    weight = float(np.dot(solver.initial_reach[other], mass))
    return out, (total / weight if weight > 0 else 0.0)


def _blueprint_rows(blueprint: BlueprintAgent, obs: Observation, tree: Any, node: int,
                    base: int) -> FloatArray:
    """The blueprint bot's strategy at ``obs`` over the children of spot ``node``, per combo."""
    from checkraise.engine import ActionKind

    children = list(tree.children(node))
    labels = [tree.labels[c] for c in children]
    totals = [int(lab[1:]) if lab[0] in "br" else -1 for lab in labels]
    hap = blueprint.action_probabilities(obs)
    rows = np.zeros((NUM_COMBOS, len(children)))
    for k, action in enumerate(hap.actions):
        if action.kind == ActionKind.FOLD:
            j = labels.index("f") if "f" in labels else labels.index("x")
        elif action.kind == ActionKind.CHECK_CALL:
            j = labels.index("c") if "c" in labels else labels.index("x")
        else:
            total = int(action.amount) - base
            sized = [i for i, t in enumerate(totals) if t >= 0]
            if not sized:
                j = labels.index("c") if "c" in labels else labels.index("x")
            else:
                j = min(sized, key=lambda i: abs(np.log(totals[i] / max(total, 1))))
        rows[:, j] += hap.probs[:, k]
    dead = rows.sum(axis=1) == 0
    rows[dead, 0] = 1.0  # hands the board removes: never read, but rows must add up to 1
    return rows
