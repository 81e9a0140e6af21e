"""Differential test of ``acpc`` mode against OpenSpiel's ``universal_poker``.

``universal_poker`` runs the ACPC reference dealer's own game code
(``project_acpc_server/game.c``) behind OpenSpiel's game API, so it is an
independent oracle for the dealer's rules: who acts, when folding is allowed,
the minimum and maximum raise (no-limit, per-seat stacks) or the capped fixed
raise (limit), and the exact returns, fractional splits included.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pyspiel
import pytest

from checkraise.engine import Action, Betting, RuleSet, State, TableConfig


def _random_table(rng: random.Random) -> TableConfig:
    n = rng.randint(2, 6)
    bb = rng.choice([2, 10, 50])
    sb = bb // 2
    if n == 2 and rng.random() < 0.5:
        blinds, first = (bb, sb), (1, 0, 0, 0)  # the ACPC reverse-blinds layout
    else:
        base = TableConfig.nolimit(n)
        blinds = (sb, bb) + (0,) * (n - 2)
        first = base.first_player
    if n <= 4 and rng.random() < 0.25:
        # (universal_poker fails to load limit games of 5+ seats.)
        # Limit games have no stacks in ACPC: the dealer uses INT32_MAX.
        return TableConfig(num_players=n, stacks=(2**31 - 1,) * n, blinds=blinds,
                           first_player=first, betting=Betting.LIMIT, rules=RuleSet.ACPC,
                           raise_sizes=(bb, bb, 2 * bb, 2 * bb), max_raises=(3, 4, 4, 4))
    stacks = tuple(rng.randint(bb, 60 * bb) for _ in range(n))
    return TableConfig(num_players=n, stacks=stacks, blinds=blinds, first_player=first,
                       rules=RuleSet.ACPC)


def _universal_poker(cfg: TableConfig) -> pyspiel.Game:
    ints = lambda xs: " ".join(str(x) for x in xs)  # noqa: E731
    params = [
        f"betting={cfg.betting}",
        f"numPlayers={cfg.num_players}",
        f"numRounds={cfg.num_rounds}",
        f"blind={ints(cfg.blinds)}",
        f"firstPlayer={ints(p + 1 for p in cfg.first_player)}",
        "numSuits=4",
        "numRanks=13",
        f"numHoleCards={cfg.hole_cards}",
        f"numBoardCards={ints(cfg.board_cards)}",
    ]
    if cfg.betting is Betting.LIMIT:
        params += [f"raiseSize={ints(cfg.raise_sizes)}", f"maxRaises={ints(cfg.max_raises)}"]
    else:
        params += [f"stack={ints(cfg.stacks)}", "bettingAbstraction=fullgame"]
    return pyspiel.load_game(f"universal_poker({','.join(params)})")


def _play(seed: int) -> tuple[bool, bool]:
    """Play one hand in both; return (limit game?, fractional payoff?)."""
    rng = random.Random(seed)
    cfg = _random_table(rng)
    s = State(cfg, rng=rng)
    os_state = _universal_poker(cfg).new_initial_state()
    deal = list(s._cards)
    dealt = 0
    limit = cfg.betting is Betting.LIMIT
    taken: list[str] = []
    while True:
        while os_state.is_chance_node():
            os_state.apply_action(deal[dealt])
            dealt += 1
        if os_state.is_terminal():
            break
        p = s.current_player
        assert p == os_state.current_player(), (seed, taken)
        la = s.legal_actions()
        legal = os_state.legal_actions()
        assert (0 in legal) == la.can_fold, (seed, taken, legal[:3])
        raises = [a for a in legal if a >= 2]
        if limit:
            assert bool(raises) == (la.min_raise_to is not None), (seed, taken)
        elif raises:
            assert (la.min_raise_to, la.max_raise_to) == (raises[0], raises[-1]), (seed, taken)
            assert len(raises) == raises[-1] - raises[0] + 1
        else:
            assert la.min_raise_to is None, (seed, taken, la)
        u = rng.random()
        if la.can_fold and u < 0.15:
            action, os_action = Action.fold(), 0
        elif la.min_raise_to is not None and la.max_raise_to is not None and u < 0.5:
            to = rng.randint(la.min_raise_to, la.max_raise_to) if rng.random() < 0.7 \
                else la.max_raise_to
            action, os_action = Action.raise_to(to), (2 if limit else to)
        else:
            action, os_action = Action.call(), 1
        taken.append(str(action))
        s.step(action)
        os_state.apply_action(os_action)
    assert s.is_terminal, (seed, taken)
    want = tuple(Fraction(r).limit_denominator(1000) for r in os_state.returns())
    assert s.payoffs() == want, (seed, taken, s.payoffs(), want)
    return limit, any(type(v) is Fraction for v in s.payoffs())


@pytest.mark.parametrize("chunk", range(8))
def test_acpc_mode_agrees_with_universal_poker(chunk: int) -> None:
    results = [_play(seed) for seed in range(chunk * 625, (chunk + 1) * 625)]
    assert sum(limit for limit, _ in results) > 50
    assert any(frac for _, frac in results)  # odd-chip splits in exact fractions
