"""What re-solving gains against the blueprint, in expectation over the hands.

``resolve`` plays its blueprint until the river, so against the ``blueprint`` bot a
match differs from blueprint self-play only in the river subgames. This script takes
the river starts of seeded blueprint self-play deals and, for each seat in turn as the
re-solving player, computes exactly (over both ranges, every hand pair) his expected
chips in the subgame when he plays the re-solved strategy of each variant and when he
plays the blueprint, the opponent playing the blueprint bot in both (its real actions
mapped onto the subgame's tree as in the safe gadget). The difference is the variant's
gain at that spot; averaged over deals (0 for deals that end before the river) and the
two seats, it is the gain per hand in mbb (a chip is 10 mbb at blinds 50/100). Far less
noisy than a duplicate match of the same length, which it complements, not replaces.

``--street turn`` does the same for depth-limited turn re-solving (``mode=depth``), one
variant per leaf evaluator (``depth/network``, ``depth/safe``, ``depth/model``): the
re-solving seat plays the turn subgame's strategy and then, like his opponent, the
blueprint on the river (its bets of 50, 100 and 250% of the pot and raises of 100%),
every river card dealt, against the blueprint playing the turn and river. The turn's
tree is the re-solve's own (bets of 50 and 100%, raises of 100%); the blueprint's turn
sizes are mapped onto it for both the opponent and the baseline. It is the turn
decision's worth with the river played by the blueprint: ``leaf=safe`` assumes just
that river, ``leaf=network`` a re-solved one, so the measure leans towards ``safe``.

``--opponent call`` (or ``fold``, ``raise``, ``none``) plays the turn test against one of
the four continuation strategies instead: the other seat is ``blueprint:bias=call``
from the first card, so each seat's deal is played out to the turn on its own, his range
there is tracked by the biased blueprint (what he really holds, while the re-solving bot
still tracks it as if he played the blueprint, as it does in play), and he plays the
biased blueprint on the turn and the river. The baseline is our blueprint's turn. This
is the issue's test of ``leaf=model`` against ``leaf=safe`` without the luck of the
cards: ``leaf=model`` plays with its posterior on the opponent's strategy fixed at
``--belief`` (default 0.99, the rest spread evenly; in a match it gets there from
uniform by Bayes within about 50 hands, ``benchmarks/posterior_from_match.py``).

Each deal's figures go to ``--out`` (JSON lines) as they are made; a rerun skips the
deals already there, so a killed run loses one deal at most.

Run: ``.venv/bin/python benchmarks/resolve_gain.py --deals 200 --seed 170001
--out runs/gain.jsonl [--variants unsafe,safe/cbv/resolve,...]``, and
``--street turn --variants depth/network,depth/safe --iterations 100``, ``--street turn
--opponent call --variants depth/model,depth/safe --iterations 100``; ``--pool
FILE...`` prints the summary of finished runs together (say, two seeds run side by side).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from checkraise.agents.blueprint import BIASES, BlueprintAgent
from checkraise.agents.range_tracking import track_ranges
from checkraise.agents.resolve import ResolveAgent
from checkraise.agents.subgame import (
    TURN_RAISE_CAP,
    TURN_SIZES,
    Subgame,
    _labels_and_sizes,
    _spot,
    blueprint_rows_for,
    blueprint_street,
    locked_solver,
    street_start,
)
from checkraise.engine import TableConfig
from checkraise.solvers.spot.config import BetSizes
from checkraise.solvers.spot.tree import DECISION

CONFIG = TableConfig.nolimit(2, stacks=20000)
VARIANTS = ("unsafe", "safe/cbv/resolve", "safe/cbv/maxmargin", "safe/blueprint/resolve")
TURN_VARIANTS = ("depth/network", "depth/safe")
#: Against one continuation strategy (``--opponent``): the issue's two leaf rules.
OPPONENT_VARIANTS = ("depth/model", "depth/safe")
#: The river of a turn evaluation: the ``small`` blueprint's sizes, so that its play maps
#: onto the tree as it is.
BLUEPRINT_RIVER = BetSizes(bet=(50.0, 100.0, 250.0), raise_=(100.0,), allin=True)


def expected_chips(sub: Subgame, ranges: Any, me: int, readers: Any, ours: bool) -> float:
    """``me``'s expected chips in the subgame: his re-solved strategy (``ours``) or the
    blueprint's, against the blueprint bot."""
    start = sub.start
    mine = 0 if me == start.oop_seat else 1
    blueprint = blueprint_rows_for(start, readers, (0, 1))

    def rows_for(tree: Any, node: int, line: list[str], actor: int, state: Any) -> Any:
        if actor == mine and ours:
            _, rows = sub.strategy(line)
            rows[rows.sum(axis=1) == 0, 0] = 1.0
            return rows
        return blueprint(tree, node, line, actor, state)

    reach = (ranges[start.oop_seat], ranges[1 - start.oop_seat])
    return locked_solver(sub.solver.spot, reach, start, rows_for).expected_values()[mine]


def turn_evaluation(start: Any, ranges: Any, readers: Any) -> Any:
    """A solver of the turn and the river from ``start``, both players locked to the
    blueprint bot: the re-solve's turn tree, the blueprint's river sizes."""
    _, bets, raises, raised = _labels_and_sizes(start)
    spot = _spot(start, bets, raises, max(TURN_RAISE_CAP, raised), TURN_SIZES, 2)
    sizes = list(spot.sizes)
    sizes[2] = (BLUEPRINT_RIVER, BLUEPRINT_RIVER)
    spot = replace(spot, sizes=tuple(sizes))
    reach = (ranges[start.oop_seat], ranges[1 - start.oop_seat])
    return locked_solver(spot, reach, start, blueprint_rows_for(start, readers, (0, 1)))


def lock_turn(solver: Any, sub: Subgame, mine: int) -> None:
    """Lock spot player ``mine``'s turn decisions of ``solver`` to ``sub``'s strategy."""
    tree = solver.tree
    stack: list[tuple[int, list[str]]] = [(0, [])]
    while stack:
        node, line = stack.pop()
        if tree.kind[node] != DECISION:
            continue  # the turn's betting is over (or the hand)
        labels = [tree.labels[c] for c in tree.children(node)]
        if int(tree.player[node]) == mine:
            names, rows = sub.strategy(line)
            assert list(names) == labels, (names, labels)
            rows[rows.sum(axis=1) == 0, 0] = 1.0
            solver.lock(" ".join(line), rows)
        children = zip(tree.children(node), labels, strict=True)
        stack.extend((c, [*line, label]) for c, label in children)


def turn_gains(deal: int, variants: list[str], iterations: int) -> dict[str, Any]:
    """The gain of each depth-limited variant at this deal's turn, per seat."""
    found = blueprint_street(deal, CONFIG, street=2)
    row: dict[str, Any] = {"deal": deal, "reached": found is not None}
    if found is None:
        return row
    obs, holes = found
    start = street_start(obs)
    row["pot"] = start.pot
    solver = None
    for me in (0, 1):
        bots = {}
        for variant in variants:
            mode, _, leaf = variant.partition("/")
            bot = ResolveAgent(mode=mode, leaf=leaf, iterations=iterations, seconds=1e9,
                               seed=deal)
            bot.begin_hand(me, CONFIG, holes[me], deal)
            bots[variant] = bot
        if solver is None:  # one evaluation for both seats: the ranges are public
            first = bots[variants[0]]
            solver = turn_evaluation(start, first.ranges(obs), first.readers)
            blueprint = solver.lock_state()
        mine = 0 if me == start.oop_seat else 1
        solver.restore_locks(blueprint)
        base = solver.expected_values()[mine]
        for variant, bot in bots.items():
            lock_turn(solver, bot.subgame(obs), mine)
            row[f"{variant}@{me}"] = solver.expected_values()[mine] - base
    return row


def belief_logs(opponent: str, belief: float) -> np.ndarray:
    """Log-weights of a continuation posterior with ``belief`` on ``opponent``'s
    strategy and the rest spread evenly over the other three."""
    weights = np.full(len(BIASES), (1.0 - belief) / (len(BIASES) - 1))
    weights[BIASES.index(opponent)] = belief
    logs: np.ndarray = np.log(weights)
    return logs


def _read(readers: tuple[BlueprintAgent, ...], obs: Any, index: int, action: Any) -> Any:
    """Range tracking's likelihood: the acting seat's reader's probability of ``action``."""
    return readers[obs.seat].read_probabilities(obs, action)


def turn_gains_against(deal: int, variants: list[str], iterations: int, opponent: str,
                       belief: float) -> dict[str, Any]:
    """The gain of each depth-limited variant at this deal's turn, per seat, against
    ``blueprint:bias=opponent`` (each seat's deal played out on its own)."""
    row: dict[str, Any] = {"deal": deal, "opponent": opponent, "belief": belief}
    seats = []
    for me in (0, 1):
        biases = ("none", opponent) if me == 0 else (opponent, "none")
        found = blueprint_street(deal, CONFIG, street=2, biases=biases)
        if found is None:
            continue
        seats.append(me)
        obs, holes = found
        start = street_start(obs)
        # seeded as the resolve bot seeds its readers (their translation draws read the
        # tree's off-blueprint sizes), so that against "none" this is the self-play test
        truth = tuple(BlueprintAgent(file="small", bias=biases[s], seed=deal + 1)
                      for s in range(2))
        for s, reader in enumerate(truth):
            reader.begin_hand(s, CONFIG, holes[s], deal)
        ranges = track_ranges(obs, partial(_read, truth))
        solver = turn_evaluation(start, ranges, truth)
        mine = 0 if me == start.oop_seat else 1
        base = solver.expected_values()[mine]
        row[f"pot@{me}"] = start.pot
        for variant in variants:
            mode, _, leaf = variant.partition("/")
            bot = ResolveAgent(mode=mode, leaf=leaf, iterations=iterations, seconds=1e9,
                               seed=deal)
            bot.begin_hand(me, CONFIG, holes[me], deal)
            if bot.posterior is not None:
                bot.posterior.log_weights = belief_logs(opponent, belief)
            lock_turn(solver, bot.subgame(obs), mine)
            row[f"{variant}@{me}"] = solver.expected_values()[mine] - base
    row["reached"] = bool(seats)
    return row


def deal_gains(deal: int, variants: list[str], iterations: int) -> dict[str, Any]:
    """The gain of each variant at this deal's river, per seat (empty: no river)."""
    found = blueprint_street(deal, CONFIG)
    row: dict[str, Any] = {"deal": deal, "reached": found is not None}
    if found is None:
        return row
    obs, holes = found
    for me in (0, 1):
        bot = ResolveAgent(seed=deal)
        bot.begin_hand(me, CONFIG, holes[me], deal)
        ranges = bot.ranges(obs)
        base = None
        for variant in variants:
            mode, _, rest = variant.partition("/")
            bound, _, gadget = rest.partition("/")
            gadget, _, warm = gadget.partition("+warm")
            sub = Subgame.solve(obs, ranges, me, mode, bot.readers, bound=bound or "cbv",
                                     gadget=gadget or "resolve", accuracy=0.5,
                                     warm=int(warm) if warm else 0,
                                     max_iterations=iterations, max_seconds=1e9)
            if base is None:
                base = expected_chips(sub, ranges, me, bot.readers, ours=False)
                row["pot"] = sub.start.pot
            row[f"{variant}@{me}"] = expected_chips(sub, ranges, me, bot.readers, True) - base
    return row


def _reached(row: dict[str, Any]) -> bool:
    """Whether the deal reached the street (files of river runs before the turn mode
    say ``river``)."""
    return bool(row.get("reached", row.get("river")))


def _has(row: dict[str, Any], variant: str) -> bool:
    """Whether the deal was run with ``variant``."""
    return f"{variant}@0" in row or f"{variant}@1" in row


def _seats_mean(row: dict[str, Any], variant: str) -> float:
    """The two seats' mean gain (chips); a seat whose hand ended before the street (only
    against ``--opponent``, where each seat's deal is played out on its own) gains 0."""
    return (float(row.get(f"{variant}@0", 0.0)) + float(row.get(f"{variant}@1", 0.0))) / 2.0


def summary(rows: list[dict[str, Any]], variants: list[str], street: str = "river") -> list[str]:
    """mbb per hand (mean over deals of the two seats' mean gain) with a 95% interval."""
    out = []
    for variant in variants:
        per_deal = np.array([
            _seats_mean(r, variant) if _reached(r) else 0.0
            for r in rows if not _reached(r) or _has(r, variant)
        ])
        if per_deal.size < 2:
            continue
        mbb = 10.0 * per_deal
        half = 1.96 * mbb.std(ddof=1) / np.sqrt(mbb.size)
        out.append(f"{variant:<24} {mbb.mean():+8.1f} ± {half:6.1f} mbb/hand over "
                   f"{mbb.size} deals ({sum(_reached(r) for r in rows)} reached the {street})")
    if len(variants) == 2:  # the two side by side, deal by deal
        a, b = variants
        diff = np.array([
            10.0 * (_seats_mean(r, a) - _seats_mean(r, b)) if _reached(r) else 0.0
            for r in rows if not _reached(r) or (_has(r, a) and _has(r, b))
        ])
        if diff.size >= 2:
            half = 1.96 * diff.std(ddof=1) / np.sqrt(diff.size)
            out.append(f"{a} minus {b}: {diff.mean():+8.1f} ± {half:6.1f} mbb/hand")
    return out


def read_rows(text: str) -> dict[int, dict[str, Any]]:
    """The deals of a run's file by number (a line torn by a kill is skipped)."""
    done: dict[int, dict[str, Any]] = {}
    for line in text.splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        done[int(row["deal"])] = row
    return done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=170001, help="first deal")
    parser.add_argument("--iterations", type=int, default=500, help="per re-solve")
    parser.add_argument("--street", choices=("river", "turn"), default="river")
    parser.add_argument("--variants", default=None,
                        help="mode[/bound[/gadget]] on the river, depth/leaf on the turn; "
                             "comma-separated")
    parser.add_argument("--opponent", choices=BIASES, default=None,
                        help="with --street turn: the opponent plays blueprint:bias=OPPONENT "
                             "(default: the blueprint, both seats from one self-play deal)")
    parser.add_argument("--belief", type=float, default=0.99,
                        help="with --opponent: leaf=model's posterior on his strategy")
    parser.add_argument("--out", type=Path, default=Path("resolve_gain.jsonl"))
    parser.add_argument("--pool", type=Path, nargs="+", default=None,
                        help="play nothing: the summary of every deal in these files")
    args = parser.parse_args()
    turn = args.street == "turn"
    default = TURN_VARIANTS if turn else VARIANTS
    if args.opponent is not None:
        default = OPPONENT_VARIANTS
    variants = (args.variants or ",".join(default)).split(",")
    if args.pool:
        try:
            pooled = [row for path in args.pool for row in read_rows(path.read_text()).values()]
        except OSError as exc:
            parser.error(f"--pool {exc.filename}: {exc.strerror}; expected a run's file")
        reached = [r for r in pooled if _reached(r)]
        missing = [v for v in variants if not any(_has(r, v) for r in reached)]
        if missing:  # else they would show as gaining nothing over the deals not reached
            held = sorted({k.rsplit("@", 1)[0] for r in reached for k in r
                           if "@" in k and not k.startswith("pot@")})
            parser.error(f"--variants {','.join(missing)}: no deal in the files that reached "
                         f"the {args.street} holds it; they hold {', '.join(held) or 'none'}")
        print("\n".join(summary(pooled, variants, args.street)))
        return
    if args.opponent is not None and not turn:
        parser.error(f"--opponent {args.opponent} with --street river; expected --street turn")
    if not 0.0 < args.belief < 1.0:
        parser.error(f"--belief {args.belief}; expected a probability strictly between 0 and 1")
    gains: Any = turn_gains if turn else deal_gains
    if args.opponent is not None:
        opponent, belief = args.opponent, args.belief

        def gains(deal: int, variants: list[str], iterations: int) -> dict[str, Any]:
            return turn_gains_against(deal, variants, iterations, opponent, belief)
    text = args.out.read_text() if args.out.exists() else ""
    done = read_rows(text)
    with args.out.open("a") as log:
        if text and not text.endswith("\n"):
            log.write("\n")  # end a line a kill cut short, so the next deal starts afresh
        for deal in range(args.seed, args.seed + args.deals):
            if deal in done:
                continue
            row = gains(deal, variants, args.iterations)
            done[deal] = row
            log.write(json.dumps(row) + "\n")
            log.flush()
            rows = [done[d] for d in sorted(done) if args.seed <= d < args.seed + args.deals]
            print(f"deal {deal}: " + "; ".join(summary(rows, variants, args.street)), flush=True)
    rows = [done[d] for d in sorted(done) if args.seed <= d < args.seed + args.deals]
    print("\n".join(summary(rows, variants, args.street)))


if __name__ == "__main__":
    main()
