"""Replay a recorded hand through the engine and check what the record says was paid.

Every hand a reader produces goes through :func:`replay`: the table is rebuilt
(:func:`table_config`), each action is applied to a :class:`checkraise.engine.State`
in turn, and the record must agree with the rules at every step: the right player
acts, a call is for the amount owed, a raise is legal, the hand is over when the
record ends, and the chips each player collected (and any uncalled bet returned)
are exactly what the engine pays. The first disagreement raises
:class:`~checkraise.histories.record.HandHistoryError` naming the file, the line
and the difference.

A record's raise amounts are per street (PokerStars' ``raises X to Y``); the
engine's are totals for the hand (the ACPC convention), so the replay adds what
each seat put in on earlier streets.

Rake: when the record shows a rake, the engine's pots (which know no rake) must
exceed the collected amounts by exactly the rake, no player collecting more than
the engine pays him.

Examples
--------
>>> from checkraise.histories.pokerstars import EXAMPLE, parse_text
>>> state = replay(parse_text(EXAMPLE)[0])
>>> state.winnings(), state.uncalled()
((0, 0, 5), (2, 4))
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final

from checkraise.cards import format_card
from checkraise.engine import Action, Betting, RuleSet, State, TableConfig
from checkraise.histories.record import STREET_NAMES, ZERO, HandHistoryError, HandRecord, Move

__all__ = ["replay", "table_config"]

_FOLD: Final = Action.fold()
_CALL: Final = Action.call()
# Raise actions are immutable; the same amounts recur from hand to hand.
_RAISES: dict[int, Action] = {}


_CONFIGS: dict[tuple[object, ...], TableConfig] = {}


def table_config(hand: HandRecord) -> TableConfig:
    """The engine table on which ``hand`` was played.

    Examples
    --------
    >>> from checkraise.histories.pokerstars import EXAMPLE, parse_text
    >>> table_config(parse_text(EXAMPLE)[0]).blinds
    (1, 2, 0)
    """
    n = hand.num_players
    first = hand.first_player or ((0, 1, 1, 1) if n == 2 else (2 % n, 0, 0, 0))
    stacks = tuple([s.stack for s in hand.seats])
    blinds = tuple([s.blind for s in hand.seats])
    # Tables repeat from hand to hand; building (and validating) one costs more than a replay.
    key = (stacks, blinds, first, hand.ante, hand.betting, hand.rules, hand.raise_sizes,
           hand.max_raises)
    config = _CONFIGS.get(key)
    if config is None:
        if len(_CONFIGS) > 4096:
            _CONFIGS.clear()
        config = _CONFIGS[key] = _new_config(hand, stacks, blinds, first)
    return config


def _new_config(
    hand: HandRecord, stacks: tuple[int, ...], blinds: tuple[int, ...], first: tuple[int, ...]
) -> TableConfig:
    n = hand.num_players
    limit = hand.betting == "limit"
    try:
        return TableConfig(
            num_players=n,
            stacks=stacks,
            blinds=blinds,
            first_player=first,
            ante=hand.ante,
            betting=Betting.LIMIT if limit else Betting.NOLIMIT,
            rules=RuleSet(hand.rules),
            raise_sizes=hand.raise_sizes if limit else (),
            max_raises=hand.max_raises,
        )
    except ValueError as exc:
        raise HandHistoryError(f"hand #{hand.hand_id}: impossible table: {exc}", hand.source,
                               hand.line) from None


def _deck(hand: HandRecord) -> list[int]:
    """Dealing order for the engine: known cards in place, unknown ones the lowest unused."""
    known: list[int] = []
    for s in hand.seats:
        if len(s.hole_cards) != 2:
            break
        known += s.hole_cards
    else:
        # Every hole card known (the common case): only the undealt board is filled in,
        # with the same lowest unused cards as below.
        known += hand.board
        missing = 5 - len(hand.board)
        if missing > 0:
            used = set(known)
            card = 0
            while missing:
                if card not in used:
                    known.append(card)
                    missing -= 1
                card += 1
        return known
    known = [c for s in hand.seats for c in s.hole_cards]
    known.extend(hand.board)
    used = set(known)
    spare = iter([c for c in range(52) if c not in used])
    deck: list[int] = []
    for s in hand.seats:
        deck.extend(s.hole_cards if len(s.hole_cards) == 2 else (next(spare), next(spare)))
    deck.extend(hand.board)
    deck.extend(spare)
    return deck


def _fmt(value: int | Fraction) -> str:
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else str(float(value))


def replay(hand: HandRecord, *, check_payout: bool = True) -> State:
    """Replay ``hand`` through the engine; return the terminal state.

    Parameters
    ----------
    hand
        The record.
    check_payout
        Also compare the collected amounts and uncalled bet with the engine's.

    Raises
    ------
    HandHistoryError
        At the first action, amount or payout that the rules contradict.

    Examples
    --------
    >>> from checkraise.histories.pokerstars import EXAMPLE, parse_text
    >>> replay(parse_text(EXAMPLE)[0]).payoffs()
    (-1, -2, 3)
    """
    source = hand.source
    seats = hand.seats
    n = len(seats)
    ante = hand.ante
    for s in seats:
        if s.ante != (ante if ante < s.stack else s.stack):
            raise HandHistoryError(
                f"hand #{hand.hand_id}: {s.name} posts an ante of {s.ante}, expected "
                f"{min(hand.ante, s.stack)}", source, hand.line)
    config = table_config(hand)
    try:
        state = State(config, deck=_deck(hand))
    except ValueError as exc:
        raise HandHistoryError(f"hand #{hand.hand_id}: bad cards: {exc}", source,
                               hand.line) from None
    base = [0] * n
    street = 0
    step = state.step
    lines = hand.action_lines or (hand.line,) * len(hand.actions)
    fold, check, call = Move.FOLD, Move.CHECK, Move.CALL
    for (seat, a_street, move, amount, a_to, _), line in zip(hand.actions, lines, strict=True):
        current = state.current_player
        if current is None:
            raise HandHistoryError(
                f"{seats[seat].name} acts ({move.value}) after the betting is over",
                source, line)
        if state.round != street:
            street = state.round
            base = list(state.bets)  # antes excluded, as raise-to amounts count
        if a_street != street:
            raise HandHistoryError(
                f"{seats[seat].name} acts on the {STREET_NAMES[a_street]} but the betting "
                f"is on the {STREET_NAMES[street]}", source, line)
        if seat != current:
            raise HandHistoryError(
                f"{seats[seat].name} acts out of turn: it is {seats[current].name}'s turn",
                source, line)
        try:
            if move is fold:
                step(_FOLD)
            elif move is check or move is call:
                bets = state.bets
                owe = max(bets) - bets[seat]
                behind = state.stacks[seat]
                if owe > behind:
                    owe = behind
                if owe != amount:
                    what = "checks" if move is check else f"calls {amount}"
                    raise HandHistoryError(
                        f"impossible amount: {seats[seat].name} {what} but the call is {owe}",
                        source, line)
                step(_CALL)
            else:
                to = base[seat] + a_to
                action = _RAISES.get(to)
                if action is None:
                    if len(_RAISES) > 65536:
                        _RAISES.clear()
                    action = _RAISES[to] = Action.raise_to(to)
                step(action)
        except HandHistoryError:
            raise
        except ValueError as exc:
            raise HandHistoryError(f"{seats[seat].name}: {exc}", source, line) from None
    if not state.is_terminal:
        who = state.current_player
        name = seats[who].name if who is not None else "nobody"
        raise HandHistoryError(
            f"truncated hand #{hand.hand_id}: the betting is not over ({name} is to act)",
            source, (lines[-1] if lines else hand.line))
    dealt = state.board
    if len(hand.board) > len(dealt) or tuple(dealt[: len(hand.board)]) != hand.board:
        raise HandHistoryError(
            f"hand #{hand.hand_id}: board {' '.join(map(format_card, hand.board))} does not "
            f"fit the betting ({len(dealt)} board cards are dealt)", source, hand.line)
    if check_payout:
        _check_payout(hand, state)
    return state


def _check_payout(hand: HandRecord, state: State) -> None:
    seats = hand.seats
    paid = state.winnings()
    back = state.uncalled()
    returned = [0] * len(seats)
    if back is not None:
        returned[back[0]] = back[1]
    for k, s in enumerate(seats):
        if s.uncalled != returned[k]:
            raise HandHistoryError(
                f"hand #{hand.hand_id}: {s.name} gets an uncalled bet of {s.uncalled} back, "
                f"the engine returns {returned[k]} (difference {s.uncalled - returned[k]})",
                hand.source, hand.line)
    if hand.rake == 0:
        for k, s in enumerate(seats):
            c = s.collected
            p = paid[k]
            if c is ZERO and p == 0:  # most seats: the reader's shared zero
                continue
            # Whole amounts compare as ints: Fraction's own comparison is far slower.
            if c.numerator != p if c.denominator == 1 and type(p) is int else c != p:
                raise HandHistoryError(
                    f"hand #{hand.hand_id}: {s.name} collected {_fmt(s.collected)} but the "
                    f"engine pays {_fmt(paid[k])} (difference {_fmt(s.collected - paid[k])})",
                    hand.source, hand.line)
        return
    total = sum(Fraction(p) for p in paid)
    collected = sum(s.collected for s in seats)
    if collected + hand.rake != total:
        raise HandHistoryError(
            f"hand #{hand.hand_id}: collected {_fmt(collected)} plus rake {_fmt(hand.rake)} "
            f"differs from the engine's pots of {_fmt(total)} (difference "
            f"{_fmt(collected + hand.rake - total)})", hand.source, hand.line)
    for k, s in enumerate(seats):
        if s.collected > paid[k] or (s.collected > 0) != (paid[k] > 0):
            raise HandHistoryError(
                f"hand #{hand.hand_id}: {s.name} collected {_fmt(s.collected)} but the engine "
                f"pays {_fmt(paid[k])} before rake", hand.source, hand.line)
