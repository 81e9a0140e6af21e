"""Luck adjustment: a hand's result without the luck of every board card.

The all-in adjustment (:mod:`checkraise.arena.allin`) removes the luck of the cards
dealt after the last decision. This one removes the luck of each board card, also
those dealt while there was betting still to come, with a control variate on chance
nodes. Whenever board cards are dealt with two or more seats still in, each of them is
charged what the cards changed of his *check-down value*: the contested pot times his
equity against the other seats' real hands (exact, over the completions of the board;
folded hands are out of the deck). Seat ``a`` then gets::

    payoff_a - sum over the deals k of pot_k * (equity_a after k - equity_a before k)

and, as the equities of the seats in sum to one, the seats' terms sum to zero. Given
everything before a deal, its cards are equally likely among those nobody holds, so
each term averages to exactly zero over them, whatever the players do next: the
adjusted result has the real one's expectation for any agents. The check-down value
does not have to be the true value of the position (side pots, odd chips and the
betting still to come are left out); the closer it is, the more variance goes. All-in
before the flop with no side pot, the terms add up to the all-in adjusted payoff (each
seat's share of the pot at its equity, less what it put in; up to odd chips); all-in later, to that
payoff less the terms of the cards dealt before.

Measured with ``benchmarks/paired_matches.py`` on two blueprints against ``heuristic``
(20,000 deals, seed 155002): the 95% interval of one blueprint's win rate goes from
±94 mbb/hand as dealt (±90 all-in adjusted) to ±79, and that of the two blueprints'
difference, deal by deal, from ±113 (±108) to ±95: 30% fewer deals for the same
precision. At six seats, where most flops are multiway, adjusting only the deals to
two seats (as this module first did) left the intervals as they were; with every deal
adjusted they narrow to between 0.63 and 0.43 of the real ones' width
(``checkraise match heuristic equity call raise heuristic equity -n 400 --seed 91``:
±3,083 as dealt, ±1,929 luck adjusted for ``heuristic``; ±4,368 and ±1,868 for
``equity``), 2.6 to 5.5 times fewer deals for the same precision. The equity of two
known hands before the flop comes from the shipped table of match-ups
(:mod:`checkraise.equity.pairs`); with folded hands out of the deck, or three or more
seats in, it is enumerated (about 40 ms), and the later streets' in microseconds.
"""

from __future__ import annotations

from functools import lru_cache

from checkraise.arena.allin import folded_cards, order_counts, order_ranks
from checkraise.engine import State
from checkraise.engine.actions import ActionEvent, DealEvent
from checkraise.errors import ConfigError

__all__ = ["luck_payoffs"]


def luck_payoffs(state: State) -> tuple[float, ...] | None:
    """Each seat's payoff with the luck of the board cards taken out (module docstring).

    ``None`` when no board card was dealt with two or more seats in (the real payoffs
    stand). The seats' figures sum to zero.

    Examples
    --------
    Aces against kings, all-in before the flop for 1,000 chips each: the same as the
    all-in adjusted payoff (the aces' equity is 0.8126):

    >>> from checkraise.cards import parse_cards
    >>> from checkraise.engine import TableConfig
    >>> s = State(TableConfig.nolimit(2, 1000, 50, 100), hole_cards=[parse_cards("AhAd"),
    ...           parse_cards("KsKc")], board=parse_cards("2c7dTs3h5s"))
    >>> _ = s.go_all_in(), s.check_call()
    >>> [round(v, 2) for v in luck_payoffs(s)]
    [625.11, -625.11]
    """
    if not state.is_terminal:
        raise ConfigError("luck adjustment needs a finished hand; this one is still in play")
    cfg = state.config
    if cfg.hole_cards != 2:
        return None
    holes = state.hole_cards
    replay = State(cfg, hole_cards=holes, board=state.board)
    correction = [0.0] * cfg.num_players
    adjusted = False
    dealt = 0
    for event in state.history:
        if isinstance(event, ActionEvent):
            replay.step(event.action)
            continue
        if not isinstance(event, DealEvent) or not event.cards:
            continue
        live = tuple(i for i, folded in enumerate(replay.folded) if not folded)
        before = state.board[:dealt]
        dealt += len(event.cards)
        if len(live) < 2:
            continue
        dead = folded_cards(holes, live)
        hands = tuple(tuple(holes[i]) for i in live)
        given = sorted((replay.contributions[i] for i in live), reverse=True)
        pot = replay.pot - (given[0] - given[1])  # an uncalled excess is not contested
        after = _equities(hands, tuple(state.board[:dealt]), dead)
        earlier = _equities(hands, tuple(before), dead)
        # the last seat's term is minus the others' (the equities sum to one): zero-sum
        # to the chip, and heads-up the same two numbers whichever seat is computed
        changes = [pot * (new - old) for new, old in zip(after[:-1], earlier[:-1], strict=True)]
        for seat, change in zip(live[:-1], changes, strict=True):
            correction[seat] += change
        correction[live[-1]] -= sum(changes)
        adjusted = True
    if not adjusted:
        return None
    return tuple(float(p) - c for p, c in zip(state.payoffs(), correction, strict=True))


def _equities(
    hands: tuple[tuple[int, ...], ...], board: tuple[int, ...], dead: tuple[int, ...]
) -> tuple[float, ...]:
    """Each hand's exact equity (wins plus its shares of ties) over the board's completions."""
    if len(hands) == 2 and not board and not dead:  # before the flop: the shipped table
        from checkraise.equity.pairs import pair_equity

        first = pair_equity(hands[0], hands[1])
        return first, 1.0 - first
    return _exact(hands, board, dead)


@lru_cache(maxsize=65536)
def _exact(
    hands: tuple[tuple[int, ...], ...], board: tuple[int, ...], dead: tuple[int, ...]
) -> tuple[float, ...]:
    if len(hands) == 2:
        from checkraise.equity import equity

        res = equity(list(hands), board=list(board), dead=list(dead), method="exact")
        return tuple(float(e) for e in res.equity)
    # Three or more: the same enumeration as the all-in adjustment's (cached there), each
    # order's pot shared by the hands that beat the most others.
    k = len(hands)
    shares = [0.0] * k
    orders = order_counts(hands, board, dead)
    for code, count in orders.items():
        beaten = order_ranks(code, k)
        top = max(beaten)
        winners = [i for i in range(k) if beaten[i] == top]
        for i in winners:
            shares[i] += count / len(winners)
    total = sum(orders.values())
    return tuple(share / total for share in shares)
