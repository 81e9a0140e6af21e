"""How good the hold'em river (or turn) value network is, measured two ways.

:func:`evaluate_river`: on river (turn) situations the network never saw, the mean absolute
error of every hand's share of the pot, weighted by how much the hand counts in the
players' expected values (``r(h) m(h)``), beside two baselines: the *check-down*
share (the hand's showdown equity against the opponent's range, as if neither bet)
and the *bucket oracle* (each hand given the exact mean share of its bucket: the error
that bucketing alone costs, the floor of any bucketed network).

:func:`evaluate_depth_limited`: random spots a street before the network's (turn spots
for a river network, flop spots for a turn network) solved twice by the spot solver,
exactly (to the end of the hand) and depth-limited with the network at the end of the
street (:class:`~checkraise.nn.river_values.RiverLeafValues`); the gap between the two
root values (% of the pot) and between the first decision's strategies.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise.cards import NUM_COMBOS
from checkraise.errors import ConfigError
from checkraise.nn.river_data import POT, TURN_SIZES, load_situations, random_range
from checkraise.nn.river_values import (
    RiverLeafValues,
    RiverValueFunction,
    board_buckets,
    bucket_targets,
    compatible_mass,
)

__all__ = ["TURN_SIZES", "checkdown_shares", "evaluate_depth_limited", "evaluate_river"]

FloatArray = npt.NDArray[np.float64]



def checkdown_shares(board: tuple[int, ...], ranges: FloatArray) -> FloatArray:
    """Each player's showdown equity per combo against the other's range ``(2, 1326)``
    (0 where the board clashes): the share of the pot if neither player bet. On a
    four-card board, the equity over every river card (each pair of hands weighted by
    the cards it leaves).

    Examples
    --------
    >>> from checkraise.cards import parse_cards, combo_index
    >>> board = tuple(parse_cards("As Kd 7h 7c 2s"))
    >>> r = np.zeros((2, 1326))
    >>> r[0, combo_index(*parse_cards("Ah Ac"))] = 1.0
    >>> r[1, combo_index(*parse_cards("Kh Kc"))] = 1.0
    >>> e = checkdown_shares(board, r)
    >>> aa, kk = combo_index(*parse_cards("Ah Ac")), combo_index(*parse_cards("Kh Kc"))
    >>> float(e[0, aa]), float(e[1, kk])
    (1.0, 0.0)
    """
    rivers = [board] if len(board) == 5 else [
        (*board, c) for c in range(52) if c not in board]
    top = np.zeros((2, NUM_COMBOS))
    bottom = np.zeros((2, NUM_COMBOS))
    for full in rivers:
        t, b = _showdown_sums(full, ranges)
        top += t
        bottom += b
    out: FloatArray = np.where(bottom > 0, top / np.where(bottom > 0, bottom, 1.0), 0.0)
    return out


def _showdown_sums(board: tuple[int, ...], ranges: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Per player and combo on a river ``board``: the opponent weight it beats (ties
    half) and the opponent weight compatible with it."""
    from checkraise.cards import COMBO_CARDS
    from checkraise.nn.river_data import _strengths

    s = _strengths(board)
    live = np.flatnonzero(s >= 0)
    a = COMBO_CARDS[live, 0].astype(np.int64)
    b = COMBO_CARDS[live, 1].astype(np.int64)
    clash = ((a[:, None] == a[None, :]) | (a[:, None] == b[None, :])
             | (b[:, None] == a[None, :]) | (b[:, None] == b[None, :]))
    strength = s[live]
    score = 0.5 * (1.0 + np.sign(strength[:, None] - strength[None, :]))
    top = np.zeros((2, NUM_COMBOS))
    bottom = np.zeros((2, NUM_COMBOS))
    for p in range(2):
        w = np.where(clash, 0.0, np.asarray(ranges[1 - p], np.float64)[live][None, :])
        bottom[p, live] = w.sum(axis=1)
        top[p, live] = (w * score).sum(axis=1)
    return top, bottom


def evaluate_river(function: RiverValueFunction, data: str | Path,
                   checkdown_sample: int = 50) -> dict[str, Any]:
    """Errors per hand on the situations of ``data`` (see the module docstring).

    The check-down baseline is computed on the first ``checkdown_sample`` situations
    (it is a slow pairwise loop), the other two on all; with fewer, the network's error
    on those same situations is reported as well.
    """
    situations, settings = load_situations(data)
    if settings.street != function.street:
        raise ConfigError(f"{data} holds {settings.street} situations; the network "
                          f"{function.path} is a {function.street} network")
    n = int(situations["spr"].shape[0])
    num = function.buckets
    errors = {"network": 0.0, "bucket oracle (exact bucket means)": 0.0}
    weight_total = 0.0
    cd_err = cd_weight = net_err = 0.0
    for i in range(n):
        board = tuple(int(c) for c in situations["boards"][i])
        ranges = situations["ranges"][i].astype(np.float64)
        truth = np.nan_to_num(situations["shares"][i].astype(np.float64))
        buckets = board_buckets(board, function.abstraction)
        live = buckets >= 0
        m = np.stack([compatible_mass(ranges[1]), compatible_mass(ranges[0])])
        w = ranges * m * live
        pred = function.shares(board, float(situations["spr"][i]), ranges)
        oracle_b = bucket_targets(buckets, ranges[None], truth[None], num)[0].reshape(2, num)
        oracle = np.where(live, oracle_b[:, np.maximum(buckets, 0)], 0.0)
        errors["network"] += float((w * np.abs(pred - truth)).sum())
        errors["bucket oracle (exact bucket means)"] += float((w * np.abs(oracle - truth)).sum())
        weight_total += float(w.sum())
        if i < checkdown_sample:
            cd = checkdown_shares(board, ranges)
            cd_err += float((w * np.abs(cd - truth)).sum())
            net_err += float((w * np.abs(pred - truth)).sum())
            cd_weight += float(w.sum())
    out = {k: v / weight_total for k, v in errors.items()}
    k = min(n, checkdown_sample)
    out[f"check-down equity ({k} situations)"] = cd_err / max(cd_weight, 1e-300)
    if k < n:  # the network on the check-down's situations too: the like-for-like figure
        out[f"network on those {k} situations"] = net_err / max(cd_weight, 1e-300)
    return {"situations": n, "errors": out}


#: Seed stream of the spots of each street (the turn's as before flop spots existed).
_SPOT_STREAM = {4: 0x7475, 3: 0x666C}


def _spot(rng: np.random.Generator, cards: int) -> tuple[Any, FloatArray]:
    from checkraise.cards import format_cards
    from checkraise.nn.river_data import _strengths
    from checkraise.solvers.spot import Spot

    board = tuple(int(c) for c in rng.choice(52, size=cards, replace=False))
    spr = float(np.exp(rng.uniform(np.log(0.5), np.log(6.0))))
    s = _strengths(board)
    ranges = np.stack([random_range(board, rng, s), random_range(board, rng, s)])
    sizes = {k: TURN_SIZES[k] for k in ("bet", "raise", "allin")}
    spot = Spot.from_dict({
        "board": format_cards(board), "pot": POT, "stack": round(spr * POT), "big_blind": 10,
        "ranges": {"oop": "any", "ip": "any"}, "sizes": sizes,
        "raise_cap": TURN_SIZES["raise_cap"], "allin_threshold": TURN_SIZES["allin_threshold"],
    })
    return spot, ranges


def evaluate_depth_limited(function: RiverValueFunction, spots: int, seed: int,
                           accuracy: float = 1.0, max_iterations: int = 300,
                           progress: Callable[[], None] | None = None) -> dict[str, Any]:
    """Depth-limited (network) against exact solves of ``spots`` random spots of the
    street before the network's (bets of :data:`TURN_SIZES`, 0.5 to 6 pots behind)."""
    from checkraise.solvers.spot import SpotSolver

    cards = function.cards - 1
    rng = np.random.default_rng([seed, _SPOT_STREAM[cards]])
    gaps: list[float] = []
    tv: list[float] = []
    seconds = {"exact": 0.0, "depth_limited": 0.0}
    iterations = {"exact": 0, "depth_limited": 0}
    for _ in range(spots):
        spot, ranges = _spot(rng, cards)
        values = {}
        first = {}
        for name in ("exact", "depth_limited"):
            leaves = (RiverLeafValues(function, spot.board) if name == "depth_limited"
                      else None)
            solver = SpotSolver(spot, reach=(ranges[0], ranges[1]), precision="float32",
                                leaf_values=leaves)
            start = time.perf_counter()
            solver.solve(accuracy=accuracy, max_iterations=max_iterations)
            seconds[name] += time.perf_counter() - start
            iterations[name] += solver.iteration
            values[name] = solver.expected_values()[0]
            _, rows = solver.strategy_at("")
            first[name] = (rows, solver.initial_reach[0])
        gaps.append(100.0 * abs(values["exact"] - values["depth_limited"]) / spot.pot)
        (a, reach), (b, _) = first["exact"], first["depth_limited"]
        tv.append(float((reach * 0.5 * np.abs(a - b).sum(axis=1)).sum() / reach.sum()))
        if progress is not None:
            progress()
    return {"street": ("flop", "turn")[cards - 3], "spots": spots, "seed": seed,
            "value_gap_pct": float(np.mean(gaps)),
            "value_gap_max_pct": float(np.max(gaps)), "strategy_gap": float(np.mean(tv)),
            "seconds": seconds, "iterations": iterations, "accuracy_pct": accuracy,
            "sizes": TURN_SIZES}
