"""LBR on Leduc hold'em, valued exactly, to check it against the exact best response.

The same rule as on hold'em (:func:`checkraise.lbr.core.best_choice`): at each of
its information sets LBR weighs the opponent's private card by Bayes (a uniform
deal times the policy's probability of every action the opponent took), takes its
win probability with check/call to the showdown (over the public card while it is
still to come) and the opponent's fold probability after a raise, and plays the best
of fold, check/call and raise. Its expected return against the policy is then
computed over every deal, so it can be compared exactly with
:func:`checkraise.solvers.best_response.best_response_value`: never above it, and
equal where the one-step choice is globally best (an always-calling opponent).
"""

from __future__ import annotations

from functools import cache

from checkraise.games.leduc import CALL, FOLD, RAISE, LeducPoker, LeducState
from checkraise.lbr.core import CALL_CHOICE, FOLD_CHOICE, best_choice
from checkraise.solvers.policy import Policy

__all__ = ["leduc_lbr_choices", "leduc_lbr_value"]

_BETS = (2.0, 4.0)
_CARDS = 6


def _contributions(rounds: tuple[tuple[int, ...], ...]) -> list[float]:
    contrib = [1.0, 1.0]
    for r, actions in enumerate(rounds):
        for i, action in enumerate(actions):
            actor = i % 2
            if action == CALL:
                contrib[actor] = max(contrib)
            elif action == RAISE:
                contrib[actor] = max(contrib) + _BETS[r]
    return contrib


def _outcome(mine: int, theirs: int, board: int) -> float:
    """1 win, 0.5 tie, 0 loss at the showdown."""
    def strength(card: int) -> int:
        return card // 2 + 3 if card // 2 == board // 2 else card // 2
    a, b = strength(mine), strength(theirs)
    return 1.0 if a > b else 0.5 if a == b else 0.0


def _replay_reach(policy: Policy, cards: tuple[int, int], board: int,
                  rounds: tuple[tuple[int, ...], ...], opponent: int) -> float:
    """Probability that the opponent, holding its card of ``cards``, took its actions."""
    state = LeducState(cards, -1, ((),))
    reach = 1.0
    for r, actions in enumerate(rounds):
        if r == 1:
            state = state.child(board)
        for action in actions:
            if state.current_player() == opponent:
                reach *= float(policy.row(state.information_set_key())[action])
            state = state.child(action)
    return reach


def leduc_lbr_choices(policy: Policy, player: int) -> dict[str, int]:
    """LBR's action (FOLD, CALL or RAISE) at every information set of ``player`` it reaches."""
    game = LeducPoker()
    opponent = 1 - player
    choices: dict[str, int] = {}

    @cache
    def choose(mine: int, board: int, rounds: tuple[tuple[int, ...], ...]) -> int:
        weights: dict[int, float] = {}
        for c in range(_CARDS):
            if c in (mine, board):
                continue
            cards = (mine, c) if player == 0 else (c, mine)
            weights[c] = _replay_reach(policy, cards, board, rounds, opponent)
        total = sum(weights.values())
        if total <= 0.0:
            return CALL  # unreachable against this policy; any choice has value 0
        if board >= 0:
            wp = sum(w * _outcome(mine, c, board) for c, w in weights.items()) / total
        else:
            wp = sum(
                w * sum(_outcome(mine, c, b) for b in range(_CARDS) if b not in (mine, c)) / 4.0
                for c, w in weights.items()
            ) / total
        contrib = _contributions(rounds)
        pot = sum(contrib)
        asked = max(contrib) - contrib[player]
        cards_any = (mine, next(iter(weights))) if player == 0 else (next(iter(weights)), mine)
        here = _at(cards_any, board, rounds)
        legal = here.legal_actions()
        options: list[tuple[float, float]] = []
        if RAISE in legal:
            fp = 0.0
            for c, w in weights.items():
                cards = (mine, c) if player == 0 else (c, mine)
                after = _at(cards, board, rounds).child(RAISE)
                fp += w * float(policy.row(after.information_set_key())[FOLD])
            options.append((_BETS[len(rounds) - 1], fp / total))
        k, _ = best_choice(wp, pot, asked, FOLD in legal, options)
        return FOLD if k == FOLD_CHOICE else CALL if k == CALL_CHOICE else RAISE

    def walk(state: LeducState) -> None:
        if state.is_terminal():
            return
        if state.is_chance_node():
            for c, _ in state.chance_outcomes():
                walk(state.child(c))
            return
        if state.current_player() == player:
            key = state.information_set_key()
            action = choose(state.cards[player], state.board, state.rounds)
            choices[key] = action
            walk(state.child(action))
            return
        for action in state.legal_actions():
            walk(state.child(action))

    walk(game.initial_state())
    return choices


def _at(cards: tuple[int, int], board: int, rounds: tuple[tuple[int, ...], ...]) -> LeducState:
    return LeducState(cards, board, rounds)


def leduc_lbr_value(policy: Policy, player: int) -> float:
    """``player``'s expected return when LBR plays that seat against ``policy``.

    Examples
    --------
    >>> from checkraise.games import build_tree
    >>> tree = build_tree(LeducPoker())
    >>> round(leduc_lbr_value(Policy.uniform(tree), 0), 4) > 0
    True
    """
    choices = leduc_lbr_choices(policy, player)

    def value(state: LeducState) -> float:
        if state.is_terminal():
            return float(state.returns()[player])
        if state.is_chance_node():
            return sum(p * value(state.child(c)) for c, p in state.chance_outcomes())
        key = state.information_set_key()
        if state.current_player() == player:
            return value(state.child(choices[key]))
        row = policy.row(key)
        return sum(float(row[a]) * value(state.child(a)) for a in state.legal_actions()
                   if row[a] > 0.0)

    return value(LeducPoker().initial_state())
