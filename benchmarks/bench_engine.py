"""Engine speed: random legal hands per second (ours vs PokerKit) and one step + step_back.

Both engines play complete hands of no-limit hold'em (deal, random legal actions,
showdown, payout) in the same process; the random policy is the same: fold 20%
when facing a bet, raise 30% (min, max or in between), else check/call.
Rates are per second of this process's CPU time (one core), so that other load on
the machine does not distort them; both engines are measured the same way.
Run: ``.venv/bin/python benchmarks/bench_engine.py [--seconds S]``.
"""

from __future__ import annotations

import argparse
import random
import time
import warnings

from pokerkit import Automation, NoLimitTexasHoldem

from checkraise.engine import Action, State, TableConfig

_CALL = Action.call()
_FOLD = Action.fold()


def ours(num_players: int, seconds: float, seed: int = 0) -> float:
    """Hands per second of random legal play through the public API."""
    cfg = TableConfig.nolimit(num_players, stacks=20000, small_blind=50, big_blind=100)
    rng = random.Random(seed)
    rand = rng.random
    hands = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        for _ in range(200):
            s = State(cfg, rng=rng)
            while not s.is_terminal:
                la = s.legal_actions()
                u = rand()
                if la.can_fold and u < 0.2:
                    s.step(_FOLD)
                elif la.min_raise_to is not None and u < 0.5:
                    lo, hi = la.min_raise_to, la.max_raise_to
                    assert hi is not None  # with a raise allowed, so is its largest size
                    v = rand()
                    s.step(Action.raise_to(lo if v < 0.5 else hi if v < 0.6 else
                                           rng.randint(lo, hi)))
                else:
                    s.step(_CALL)
            s.payoffs()
        hands += 200
        now = time.process_time()
        if now >= deadline:
            return hands / (now - start)


_AUTOMATIONS = (
    Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING, Automation.HOLE_DEALING, Automation.BOARD_DEALING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING,
)


def pokerkit(num_players: int, seconds: float, seed: int = 0) -> float:
    """Hands per second of the same random play in PokerKit."""
    rng = random.Random(seed)
    rand = rng.random
    hands = 0
    start = time.process_time()
    deadline = start + seconds
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        while True:
            s = NoLimitTexasHoldem.create_state(_AUTOMATIONS, True, 0, (50, 100), 100,
                                                20000, num_players)
            while s.status:
                u = rand()
                lo = s.min_completion_betting_or_raising_to_amount
                if s.can_fold() and u < 0.2:
                    s.fold()
                elif lo is not None and u < 0.5:
                    hi = s.max_completion_betting_or_raising_to_amount
                    assert hi is not None
                    v = rand()
                    s.complete_bet_or_raise_to(lo if v < 0.5 else hi if v < 0.6 else
                                               rng.randint(lo, hi))
                else:
                    s.check_or_call()
            hands += 1
            now = time.process_time()
            if now >= deadline:
                return hands / (now - start)


def step_back_cost(repeats: int = 200_000) -> float:
    """Microseconds for one step (a call that deals the flop) plus its step_back."""
    s = State(TableConfig.nolimit(6, stacks=20000), seed=1)
    for _ in range(5):
        s.step(_CALL)  # five seats call: the big blind's check will end the round
    step, back = s.step, s.step_back
    start = time.process_time()
    for _ in range(repeats):
        step(_CALL)
        back()
    return (time.process_time() - start) / repeats * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    args = parser.parse_args()
    State(TableConfig.nolimit(2), seed=0).step(_FOLD)
    ours(2, 0.2)  # warm up: loads the evaluator
    print(f"{'players':>7} {'checkraise hands/s':>19} {'pokerkit hands/s':>17} {'ratio':>7}")
    for n in (2, 6):
        a = ours(n, args.seconds)
        b = pokerkit(n, args.seconds)
        print(f"{n:>7} {a:>19,.0f} {b:>17,.0f} {a / b:>6.1f}x")
    print(f"step + step_back (6 players, call that deals the flop): {step_back_cost():.2f} us")


if __name__ == "__main__":
    main()
