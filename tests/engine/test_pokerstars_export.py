"""The engine's PokerStars text export is read back by the histories package.

Random hands (2-6 seats, uneven stacks, antes) are written with
``State.to_pokerstars``, parsed by :mod:`checkraise.histories.pokerstars` (an
independent reader written against real PokerStars files) and replayed: the
parsed seats, cards and payouts must match the original hand.
"""

from __future__ import annotations

import random

from checkraise.engine import State, TableConfig
from checkraise.histories.pokerstars import parse_text
from checkraise.histories.replay import replay


def _random_hand(rng: random.Random, seed: int) -> State:
    n = rng.randint(2, 6)
    stacks = tuple(rng.randint(100, 3000) for _ in range(n))
    cfg = TableConfig.nolimit(n, stacks=stacks, small_blind=5, big_blind=10,
                              ante=rng.choice([0, 0, 2]))
    s = State(cfg, seed=seed)
    while not s.is_terminal:
        la = s.legal_actions()
        u = rng.random()
        if la.can_fold and u < 0.2:
            s.fold()
        elif la.min_raise_to is not None and la.max_raise_to is not None and u < 0.5:
            s.raise_to(rng.randint(la.min_raise_to, la.max_raise_to))
        else:
            s.check_call()
    return s


def test_export_parses_and_replays() -> None:
    rng = random.Random(2024)
    for seed in range(200):
        s = _random_hand(rng, seed)
        names = [f"p{k}" for k in range(s.config.num_players)]
        text = s.to_pokerstars(hand_id=seed + 1, names=names)
        # PokerStars writes "SHOW DOWN"; the shared Pluribus files (and so the
        # histories reader) spell it "SHOWDOWN".
        record = parse_text(text.replace("*** SHOW DOWN ***", "*** SHOWDOWN ***"))[0]
        assert [seat.name for seat in record.seats] == names
        again = replay(record)
        assert again.payoffs() == s.payoffs(), text
        assert again.board == s.board or not any(s.shown())
