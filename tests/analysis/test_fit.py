"""Fitting the default model to real hands: a valid configuration that explains them better."""

from __future__ import annotations

from tests.shared_data import shared_data

from checkraise.analysis.fit import (
    _START,
    _START_THETA,
    collect_samples,
    fit_config,
    log_likelihood,
)
from checkraise.histories import parse_file, replay
from checkraise.opponents.model import (
    POSTFLOP_ACTIONS,
    PREFLOP_ACTIONS,
    STREETS,
    Interval,
    load_config,
)


def test_fit_improves_the_likelihood_of_the_hands_it_is_fitted_to() -> None:
    hands = parse_file(shared_data("pluribus", "pluribus_30.txt"))[:40]
    samples, counts = collect_samples(hands, flop_runouts=100)
    # Every Pluribus hand shows every player's cards: each action of the hand is a sample.
    actions = sum(len(replay(h, check_payout=False).observation(0).history) for h in hands)
    assert len(samples) == actions
    assert counts.hands == sum(h.num_players for h in hands)
    fitted = load_config(fit_config(samples))  # validates the written layout
    for si, street in enumerate(STREETS):
        mine = [s for s in samples if s.street == si]
        actions_of = PREFLOP_ACTIONS if si == 0 else POSTFLOP_ACTIONS
        start = {c: Interval(*_START[c], _START_THETA) for c in actions_of}
        total_fit = total_start = 0.0
        for bucket in ("2", "3", "4"):
            group = [s for s in mine if s.bucket == bucket]
            if not group:
                continue
            params = {c: fitted.intervals[(street, bucket, c)] for c in actions_of}
            total_fit += len(group) * log_likelihood(group, params)
            total_start += len(group) * log_likelihood(group, start)
        assert total_fit > total_start, street
