"""All-in adjustment: a hand's result without the luck of the board cards still to come.

When the betting of a hand ends before the river with two seats still in (one of
them, or both, all-in), nobody has a decision left and the rest of the board alone
decides the pot. The *all-in adjusted* result replaces what the board did by what it
does on average: each seat's payoff expected over every way the board can be
completed from the cards nobody was dealt (hands of folded seats are out of the
deck too). Given everything the players saw and did, those completions are equally
likely, because no decision depended on cards not yet dealt; so the adjusted result
has the same expectation as the real one, for any agents, while the variance of the
runouts is gone. That variance dominates matches with many big all-ins before the
river (poker trackers report the same "all-in EV" win rate).

The payout of each outcome (either seat wins, or they tie) is the engine's own
settlement of the same betting (:func:`checkraise.engine.showdown.settle` with the
ranks given), so side pots, dead money, uncalled bets, odd chips and ACPC's exact
splits are those of the real game; the counts of the outcomes come from exact
enumeration (:func:`checkraise.equity.equity`), and the expectation is an exact
fraction. Hands with three or more seats still in keep their real result.
"""

from __future__ import annotations

from fractions import Fraction

from checkraise.engine import State
from checkraise.engine.actions import ActionEvent, DealEvent
from checkraise.engine.showdown import settle
from checkraise.errors import ConfigError

__all__ = ["allin_payoffs", "board_at_last_action"]


def board_at_last_action(state: State) -> int:
    """How many board cards were out when the last seat acted (all blinds all-in: 0)."""
    seen = 0
    board = 0
    for event in state.history:
        if isinstance(event, DealEvent):
            board += len(event.cards)
        elif isinstance(event, ActionEvent):
            seen = board
    return seen


def allin_payoffs(state: State) -> tuple[int | Fraction, ...] | None:
    """Each seat's payoff expected over the board cards dealt after the last decision.

    ``None`` when there is nothing to average: a fold ended the hand, the board was
    complete at the last decision, or three or more seats are still in (then the real
    payoffs stand). Exact: ``int`` or :class:`~fractions.Fraction`, summing to zero.

    Examples
    --------
    Aces against kings all-in before the flop for 1,000 chips each (the aces win
    1,388,072 of the 1,712,304 boards and tie 6,538):

    >>> from checkraise.cards import parse_cards
    >>> from checkraise.engine import TableConfig
    >>> s = State(TableConfig.nolimit(2, 1000, 50, 100), hole_cards=[parse_cards("AhAd"),
    ...           parse_cards("KsKc")], board=parse_cards("2c7dTs3h5s"))
    >>> _ = s.go_all_in(), s.check_call()
    >>> s.payoffs(), [round(float(v), 2) for v in allin_payoffs(s)]
    ((1000, -1000), [625.11, -625.11])
    """
    if not state.is_terminal:
        raise ConfigError("all-in adjustment needs a finished hand; this one is still in play")
    live = [i for i, folded in enumerate(state.folded) if not folded]
    cfg = state.config
    known = board_at_last_action(state)
    if len(live) != 2 or known >= len(state.board) or cfg.hole_cards != 2:
        return None
    from checkraise.equity import equity

    holes = state.hole_cards
    a, b = live
    dead = [c for i, hole in enumerate(holes) if i not in live for c in hole]
    res = equity([tuple(holes[a]), tuple(holes[b])], board=list(state.board[:known]),
                 dead=dead, method="exact")
    n = int(res.samples)
    wins_a, wins_b = round(float(res.win[0]) * n), round(float(res.win[1]) * n)
    ties = n - wins_a - wins_b
    outcomes = []
    for ra, rb, count in ((1, 0, wins_a), (0, 1, wins_b), (0, 0, ties)):
        ranks = [-1] * cfg.num_players
        ranks[a], ranks[b] = ra, rb
        outcomes.append((count, settle(state, ranks).payoffs))
    out: list[int | Fraction] = []
    for seat in range(cfg.num_players):
        value = Fraction(sum(count * Fraction(pay[seat]) for count, pay in outcomes), n)
        out.append(value.numerator if value.denominator == 1 else value)
    return tuple(out)
