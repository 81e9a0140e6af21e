"""Between engine states and ACPC views: betting strings, per-seat MATCHSTATEs, a hand tracker.

The visibility rule is the reference dealer's (``printPlayerHoleCards`` in
``project_acpc_server/game.c``): a seat sees its own hole cards, and the cards of
every seat that did not fold once the hand has ended in a showdown. A board
group is shown for every round reached; a hand that ends with everyone all-in
has reached the last round.

:class:`HandTracker` is the client's half: it keeps an engine state in step with
the server's messages, rebuilding it from the cards it knows and replaying the
actions, and rejects any message that cannot follow the previous one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from checkraise.engine import Action, ActionEvent, ActionKind, State, TableConfig
from checkraise.protocol.errors import ProtocolError
from checkraise.protocol.gamedef import GameDef
from checkraise.protocol.matchstate import BetAction, MatchState, format_matchstate

__all__ = [
    "HandTracker",
    "bet_action",
    "betting_of",
    "engine_action",
    "matchstate_of",
]


def bet_action(action: Action, *, limit: bool) -> BetAction:
    """The protocol form of an engine action (a bare ``r`` in limit games)."""
    if action.kind is ActionKind.FOLD:
        return BetAction("f")
    if action.kind is ActionKind.CHECK_CALL:
        return BetAction("c")
    return BetAction("r", None if limit else action.amount)


def engine_action(bet: BetAction, state: State) -> Action:
    """The engine form of a protocol action in ``state`` (a limit ``r``: the fixed raise)."""
    if bet.kind == "f":
        return Action.fold()
    if bet.kind == "c":
        return Action.call()
    if bet.size is not None:
        return Action.raise_to(bet.size)
    legal = state.legal_actions()
    # A limit raise has one legal total; with no raise allowed, 0 lets the engine say why.
    return Action.raise_to(legal.min_raise_to if legal.min_raise_to is not None else 0)


def _rounds_reached(state: State) -> int:
    last_round = state.round
    for event in state.history:
        if isinstance(event, ActionEvent):
            last_round = max(last_round, event.round)
    return last_round + 1


def betting_of(state: State, *, limit: bool) -> tuple[tuple[BetAction, ...], ...]:
    """The betting of ``state`` grouped by round, one group per round reached."""
    groups: list[list[BetAction]] = [[] for _ in range(_rounds_reached(state))]
    for event in state.history:
        if isinstance(event, ActionEvent):
            groups[event.round].append(bet_action(event.action, limit=limit))
    return tuple(tuple(g) for g in groups)


def _board_groups(board: Sequence[int], counts: Sequence[int], rounds: int) -> tuple[
    tuple[int, ...], ...
]:
    groups: list[tuple[int, ...]] = []
    start = 0
    for r in range(rounds):
        groups.append(tuple(board[start : start + counts[r]]))
        start += counts[r]
    return tuple(groups)


def _same_cards(old: MatchState, new: MatchState) -> bool:
    return old.hole_cards == new.hole_cards and old.board_cards == new.board_cards


def _showdown(state: State) -> bool:
    return state.is_terminal and sum(not f for f in state.folded) >= 2


def matchstate_of(state: State, position: int, hand_number: int, game: GameDef) -> MatchState:
    """What the dealer sends to ``position`` for ``state`` (hidden cards left out)."""
    betting = betting_of(state, limit=game.is_limit)
    showdown = _showdown(state)
    holes = tuple(
        tuple(cards) if seat == position or (showdown and not state.folded[seat]) else ()
        for seat, cards in enumerate(state.hole_cards)
    )
    board = _board_groups(state.board, game.num_board_cards, len(betting))
    return MatchState(position, hand_number, betting, holes, board)


_Fail = Callable[[str], ProtocolError]


@dataclass
class _Hand:
    number: int
    position: int
    last: MatchState
    state: State


class HandTracker:
    """Follows one seat's view of a match, message by message, with an engine state.

    :meth:`update` takes each parsed MATCHSTATE and returns the engine state at that
    point; it raises :class:`ProtocolError` for a message that cannot follow the
    previous one (a new hand before the last ended, betting that is not an
    extension, changed cards, an action the rules forbid, ...).
    """

    def __init__(self, game: GameDef, config: TableConfig | None = None) -> None:
        self.game = game
        self.config = config if config is not None else game.to_table_config()
        self.hand: _Hand | None = None
        self.finished_hands = 0

    @property
    def state(self) -> State | None:
        """The engine state after the last message (``None`` before the first)."""
        return self.hand.state if self.hand else None

    def update(self, ms: MatchState, line: str | None = None) -> State:
        """Bring the engine in step with ``ms``; ``line`` is the text, for error messages."""
        where = line if line is not None else format_matchstate(ms)

        def bad(msg: str) -> ProtocolError:
            return ProtocolError(f"impossible server message {where!r}: {msg}")

        prev = self.hand
        if prev is not None and ms.hand_number != prev.number:
            if not prev.state.is_terminal:
                raise bad(f"hand {ms.hand_number} starts before hand {prev.number} ended")
            if ms.hand_number < prev.number:
                raise bad(f"hand number goes back from {prev.number} to {ms.hand_number}")
            prev = None
        if prev is not None:
            if prev.state.is_terminal:
                raise bad(f"hand {prev.number} already ended")
            self._check_extends(prev.last, ms, bad)
        if prev is not None and _same_cards(prev.last, ms):
            state = self._advance(prev.state, prev.last, ms, bad)
        else:
            state = self._rebuild(ms, bad)
        if state.is_terminal:
            hidden = [
                s for s in range(ms.num_players) if not state.folded[s] and not ms.hole_cards[s]
            ]
            if _showdown(state) and hidden:
                raise bad(f"the hand ended in a showdown but seat {hidden[0]}'s cards are hidden")
            self.finished_hands += 1
        self.hand = _Hand(ms.hand_number, ms.position, ms, state)
        return state

    @staticmethod
    def _check_extends(old: MatchState, ms: MatchState, bad: _Fail) -> None:
        if ms.position != old.position:
            raise bad(f"position changed from {old.position} to {ms.position} within a hand")
        if ms.own_cards != old.own_cards:
            raise bad("the viewing seat's hole cards changed within the hand")
        if len(ms.actions) <= len(old.actions) or ms.actions[: len(old.actions)] != old.actions:
            raise bad(f"the betting does not extend the previous state {format_matchstate(old)!r}")
        if ms.board_cards[: len(old.board_cards)] != old.board_cards:
            raise bad("the board changed within the hand")

    def _rebuild(self, ms: MatchState, bad: _Fail) -> State:
        # Cards nobody has seen yet are drawn by the engine; they are replaced by the real
        # ones (a rebuild) as soon as a message shows them.
        holes = [tuple(cards) for cards in ms.hole_cards]
        try:
            state = State(self.config, seed=0, hole_cards=holes, board=ms.board_cards)
        except ValueError as exc:
            raise bad(f"the engine rejects its cards: {exc}") from None
        return self._replay(state, ms, 0, bad)

    def _advance(self, state: State, old: MatchState, ms: MatchState, bad: _Fail) -> State:
        return self._replay(state.copy(), ms, len(old.actions), bad)

    def _replay(self, state: State, ms: MatchState, start: int, bad: _Fail) -> State:
        actions = ms.actions
        for i in range(start, len(actions)):
            bet = actions[i]
            if state.is_terminal:
                raise bad(f"action {i + 1} ({bet}) comes after the hand ended")
            try:
                state.step(engine_action(bet, state))
            except ValueError as exc:
                raise bad(f"action {i + 1} ({bet}) is illegal: {exc}") from None
        expected = betting_of(state, limit=self.game.is_limit)
        if expected != ms.betting:
            shown = "/".join("".join(str(a) for a in g) for g in expected)
            raise bad(f"round boundaries do not match the rules (expected betting {shown!r})")
        return state
