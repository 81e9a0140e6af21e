"""One hand of hold'em as a state machine: post, act, deal, settle; step and step back.

Betting follows the reference ACPC dealer (``project_acpc_server/game.c``, protocol
2.0.0, summarised in ``shared/ACPC.md``): the next actor is the next seat that
has neither folded nor gone all-in, a round ends once every such seat has acted
since the last raise, and when fewer than two seats can still bet the board is
run out. The ``casino`` rule set adds the card-room treatment of incomplete
all-in raises (as PokerKit's ``State`` does); see :mod:`checkraise.engine.config`.

State is kept in plain lists and ints; every action pushes one tuple on an undo
log so that :meth:`State.step_back` is O(1).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from checkraise.engine import _serialise, showdown
from checkraise.engine._setup import DECK, deal_cards, table_setup
from checkraise.engine.actions import (
    Action,
    ActionEvent,
    ActionKind,
    DealEvent,
    Event,
    IllegalActionError,
    LegalActions,
)
from checkraise.engine.config import TableConfig
from checkraise.engine.observation import Observation, make_observation
from checkraise.errors import ConfigError

__all__ = ["State"]

_RAISE = ActionKind.RAISE
_CALL = ActionKind.CHECK_CALL
_FOLD = ActionKind.FOLD
_CALL_ACTION = Action.call()
_FOLD_ACTION = Action.fold()
# The reference dealer refuses a raise when fewer than numPlayers action slots
# are left in a round (MAX_NUM_ACTIONS in game.h).
_ACPC_MAX_ACTIONS = 64
# Calls and folds are fully described by (round, seat): share one record each.
_CALL_EVENTS = [[ActionEvent(p, r, _CALL_ACTION) for p in range(10)] for r in range(8)]
_FOLD_EVENTS = [[ActionEvent(p, r, _FOLD_ACTION) for p in range(10)] for r in range(8)]


class State:
    """One hand at one table, from the blinds to the payout.

    Parameters
    ----------
    config
        The :class:`TableConfig`.
    seed, rng
        Randomness for the cards not given explicitly (``rng`` wins if both).
    deck
        Cards in dealing order: hole cards of seat 0, seat 1, ... then the board.
    hole_cards, board
        Known cards; a seat given ``()`` or ``None`` and the missing board cards
        are drawn from the rest of the deck.

    Examples
    --------
    >>> from checkraise.engine import TableConfig
    >>> s = State(TableConfig.nolimit(2, stacks=1000), seed=1)
    >>> s.current_player, s.legal_actions().min_raise_to
    (0, 200)
    >>> s.raise_to(300); s.fold()
    Action(kind=<ActionKind.RAISE: 'raise'>, amount=300)
    Action(kind=<ActionKind.FOLD: 'fold'>, amount=0)
    >>> s.is_terminal, s.payoffs()
    (True, (100, -100))
    >>> s.step_back(); s.current_player
    1
    """

    __slots__ = (
        "_acpc", "_acted", "_active", "_ante", "_bb", "_cards", "_cfg", "_contrib", "_cur",
        "_first", "_folded", "_history", "_max", "_minr", "_n", "_nacts", "_nboard", "_nlive",
        "_nolimit", "_nraises", "_pending", "_preflop_pending", "_result", "_round", "_shorts",
        "_stack", "_terminal", "_undo",
    )
    _n: int
    _nolimit: bool
    _acpc: bool
    _bb: int
    _max: int
    _active: int
    _first: list[int]
    _preflop_pending: int
    _cards: list[int]
    _stack: list[int]
    _contrib: list[int]
    _ante: list[int]
    _folded: list[bool]

    def __init__(
        self,
        config: TableConfig,
        *,
        seed: int | None = None,
        deck: Sequence[int] | None = None,
        hole_cards: Sequence[Sequence[int] | None] | None = None,
        board: Sequence[int] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        cfg = config
        setup = cfg.__dict__.get("_engine_setup")
        if setup is None:
            setup = table_setup(cfg)
        (n, self._nolimit, self._acpc, self._bb, stack, contrib, ante, self._max, self._active,
         self._first, self._preflop_pending, need) = setup
        self._cfg = cfg
        self._n = n
        if deck is None and hole_cards is None and board is None:
            self._cards = (rng if rng is not None else random.Random(seed)).sample(DECK, need)
        else:
            self._cards = deal_cards(cfg, seed, deck, hole_cards, board, rng)
        self._history: list[Event] = []
        self._undo: list[tuple[Any, ...]] = []
        self._result: showdown.Result | None = None
        self._folded = [False] * n
        self._stack = stack[:]
        self._ante = ante[:]
        self._contrib = contrib[:]
        self._nlive = n
        self._nboard = 0
        self._terminal = False
        self._begin_round(0)

    # ------------------------------------------------------------------ rounds

    def _begin_round(self, rnd: int) -> None:
        """Reset the per-round betting state and pick the first actor (or end the round)."""
        self._round = rnd
        self._nraises = 0
        self._nacts = 0
        self._acted = 0
        self._shorts = 0
        if self._acpc:
            self._minr = (self._max * 2 if self._max else 1) if rnd == 0 else self._max + self._bb
        else:
            self._minr = 0
        pending = self._preflop_pending if rnd == 0 else self._active
        self._pending = pending
        if pending:
            self._cur = self._next_pending(self._first[rnd] - 1)
        else:
            self._cur = -1
            self._end_round()

    def _next_pending(self, after: int) -> int:
        """The first seat after ``after`` (cyclically) with its bit set in ``_pending``, or -1."""
        pending = self._pending
        if not pending:
            return -1
        # Bit arithmetic instead of a walk round the table: the lowest pending seat above
        # ``after``, else the lowest pending seat overall (pending only holds seats < n).
        later = pending >> (after + 1) << (after + 1)
        if later:
            return (later & -later).bit_length() - 1
        return (pending & -pending).bit_length() - 1

    def _end_round(self) -> None:
        cfg = self._cfg
        rnd = self._round
        self._cur = -1
        if self._nlive == 1 or rnd + 1 >= cfg.num_rounds:
            self._terminal = True
        elif self._active.bit_count() >= 2:
            self._deal(rnd + 1)
            self._begin_round(rnd + 1)
        else:
            for r in range(rnd + 1, cfg.num_rounds):
                self._deal(r)
            self._round = cfg.num_rounds - 1
            self._terminal = True

    def _deal(self, rnd: int) -> None:
        k = self._cfg.board_cards[rnd]
        start = self._n * self._cfg.hole_cards + self._nboard
        self._nboard += k
        self._history.append(DealEvent(rnd, tuple(self._cards[start:start + k])))

    # ------------------------------------------------------------------ reading

    @property
    def config(self) -> TableConfig:
        """The table configuration."""
        return self._cfg

    @property
    def current_player(self) -> int | None:
        """Seat to act, or ``None`` when the hand is over."""
        return None if self._cur < 0 else self._cur

    @property
    def is_terminal(self) -> bool:
        """Whether the hand is over (one seat left, or the last round ended)."""
        return self._terminal

    @property
    def round(self) -> int:
        """Betting round: 0 preflop .. 3 river."""
        return self._round

    @property
    def board(self) -> tuple[int, ...]:
        """Board cards dealt so far."""
        start = self._n * self._cfg.hole_cards
        return tuple(self._cards[start:start + self._nboard])

    @property
    def hole_cards(self) -> tuple[tuple[int, ...], ...]:
        """Every seat's hole cards (all of them: use :meth:`observation` for one seat's view)."""
        h = self._cfg.hole_cards
        c = self._cards
        return tuple(tuple(c[i * h:(i + 1) * h]) for i in range(self._n))

    @property
    def stacks(self) -> tuple[int, ...]:
        """Chips behind each seat now (before the payout while the hand runs)."""
        return tuple(self._stack)

    @property
    def contributions(self) -> tuple[int, ...]:
        """Chips each seat has put in this hand, antes included."""
        return tuple(a + c for a, c in zip(self._ante, self._contrib, strict=True))

    @property
    def bets(self) -> tuple[int, ...]:
        """Chips each seat has put in this hand, antes excluded (what raise-to amounts count)."""
        return tuple(self._contrib)

    @property
    def folded(self) -> tuple[bool, ...]:
        """Which seats have folded."""
        return tuple(self._folded)

    @property
    def all_in(self) -> _AllInFlags:
        """Which seats have no chips behind (and have not folded).

        The tuple is also callable: ``state.all_in()`` goes all-in (see :meth:`go_all_in`).
        """
        flags = _AllInFlags(self.all_in_flags)
        flags._state = self
        return flags

    @property
    def all_in_flags(self) -> tuple[bool, ...]:
        """Which seats have no chips behind (and have not folded), as a plain tuple."""
        return tuple(s == 0 and not f for s, f in zip(self._stack, self._folded, strict=True))

    @property
    def pot(self) -> int:
        """All chips put in so far."""
        return sum(self._contrib) + sum(self._ante)

    @property
    def history(self) -> list[Event]:
        """Actions and deals so far (a copy)."""
        return list(self._history)

    @property
    def num_raises(self) -> int:
        """Raises made in the current round."""
        return self._nraises

    # ------------------------------------------------------------------ legality

    def _raise_range(self) -> tuple[int, int] | None:
        """(min, max) raise-to for the seat to act, or ``None`` when it may not raise."""
        p = self._cur
        c = self._contrib[p]
        s = self._stack[p]
        mx = self._max
        if s <= mx - c:
            return None
        cfg = self._cfg
        if cfg.max_raises and self._nraises >= cfg.max_raises[self._round]:
            return None
        total = c + s
        if self._acpc:
            if self._nacts + self._n > _ACPC_MAX_ACTIONS or self._active.bit_count() <= 1:
                return None
            if self._nolimit:
                lo = self._minr
                return (total if lo > total else lo, total)
        else:
            if mx - c < self._minr or (self._shorts and self._acted >> p & 1):
                return None
            st = self._stack
            fo = self._folded
            con = self._contrib
            for i in range(self._n):
                if i != p and not fo[i] and con[i] + st[i] > mx:
                    break
            else:
                return None
            if self._nolimit:
                lo = mx + (self._minr if self._minr > self._bb else self._bb)
                return (total if lo > total else lo, total)
        to = mx + cfg.raise_sizes[self._round]
        if to > total:
            to = total
        return (to, to)

    def legal_actions(self) -> LegalActions:
        """What the seat to act may do; raises :class:`IllegalActionError` if the hand is over.

        Examples
        --------
        >>> from checkraise.engine import TableConfig
        >>> State(TableConfig.nolimit(3, stacks=1000), seed=0).legal_actions()
        LegalActions(can_fold=True, can_check=False, call_amount=100, min_raise_to=200, \
max_raise_to=1000)
        """
        p = self._cur
        if p < 0:
            raise IllegalActionError("no legal actions: the hand is over")
        owe = self._max - self._contrib[p]
        s = self._stack[p]
        rr = self._raise_range()
        if rr is None:
            return LegalActions(owe > 0, owe <= 0, owe if owe < s else s, None, None)
        return LegalActions(owe > 0, owe <= 0, owe if owe < s else s, rr[0], rr[1])

    def verify_fold(self) -> None:
        """Raise :class:`IllegalActionError` unless the seat to act may fold."""
        p = self._cur
        if p < 0:
            raise IllegalActionError("illegal fold: the hand is over", _FOLD_ACTION)
        if self._contrib[p] >= self._max:
            raise IllegalActionError(
                f"illegal fold by seat {p}: nothing to call (check instead)", _FOLD_ACTION)

    def can_fold(self) -> bool:
        """Whether the seat to act may fold (only when facing a bet)."""
        p = self._cur
        return p >= 0 and self._contrib[p] < self._max

    def fold(self) -> Action:
        """Fold; return the action."""
        self.verify_fold()
        self._do_fold(self._cur)
        return _FOLD_ACTION

    def verify_check_call(self) -> None:
        """Raise :class:`IllegalActionError` unless someone is to act (calling is always legal)."""
        if self._cur < 0:
            raise IllegalActionError("illegal check/call: the hand is over", _CALL_ACTION)

    def can_check_call(self) -> bool:
        """Whether the seat to act may check or call (always, while the hand runs)."""
        return self._cur >= 0

    def check_call(self) -> Action:
        """Check, or call (all-in if the stack is short); return the action."""
        self.verify_check_call()
        self._do_call(self._cur)
        return _CALL_ACTION

    def verify_raise_to(self, amount: int) -> None:
        """Raise :class:`IllegalActionError` unless the seat to act may raise to ``amount``."""
        p = self._cur
        if p < 0:
            raise IllegalActionError(f"illegal raise to {amount}: the hand is over",
                                     Action(_RAISE, amount))
        rr = self._raise_range()
        if rr is None:
            raise IllegalActionError(
                f"illegal raise to {amount} by seat {p}: raising is not allowed now "
                f"(call {min(self._max - self._contrib[p], self._stack[p])} or fold)",
                Action(_RAISE, amount))
        if not self._nolimit and amount == 0:
            return
        if isinstance(amount, bool) or not isinstance(amount, int) or not rr[0] <= amount <= rr[1]:
            rng = f"{rr[0]}..{rr[1]}" if rr[0] != rr[1] else f"exactly {rr[0]}"
            raise IllegalActionError(
                f"illegal raise to {amount!r} by seat {p}: the raise-to amount must be {rng}",
                Action(_RAISE, amount if isinstance(amount, int) else 0))

    def can_raise_to(self, amount: int) -> bool:
        """Whether the seat to act may raise to ``amount``."""
        try:
            self.verify_raise_to(amount)
        except IllegalActionError:
            return False
        return True

    def raise_to(self, amount: int) -> Action:
        """Bet or raise to ``amount`` (total for the hand); return the action.

        In limit games ``amount`` 0 means the fixed raise.
        """
        self.verify_raise_to(amount)
        if amount == 0:
            rr = self._raise_range()
            assert rr is not None
            amount = rr[0]
        action = Action(_RAISE, amount)
        self._do_raise(self._cur, amount, action)
        return action

    def go_all_in(self) -> Action:
        """Raise to the largest amount allowed (all-in in no-limit), or call if raising is not.

        Also reachable as ``state.all_in()``.
        """
        if self._cur < 0:
            raise IllegalActionError("illegal all-in: the hand is over")
        rr = self._raise_range()
        if rr is None:
            return self.check_call()
        return self.raise_to(rr[1])

    def step(self, action: Action) -> None:
        """Apply ``action``; an illegal one raises :class:`IllegalActionError`, state unchanged."""
        kind = action.kind
        p = self._cur
        if kind is _CALL:
            if p < 0:
                self.verify_check_call()
            self._do_call(p)
        elif kind is _RAISE:
            amount = action.amount
            rr = self._raise_range() if p >= 0 else None
            if rr is None or not rr[0] <= amount <= rr[1]:
                if not self._nolimit and amount == 0 and rr is not None:
                    amount = rr[0]
                    action = Action(_RAISE, amount)
                else:
                    self.verify_raise_to(amount)
            self._do_raise(p, amount, action)
        elif kind is _FOLD:
            if p < 0 or self._contrib[p] >= self._max:
                self.verify_fold()
            self._do_fold(p)
        else:
            raise IllegalActionError(f"unknown action {action!r}")

    # ------------------------------------------------------------------ transitions

    def _push_undo(self, p: int) -> None:
        self._undo.append((
            p, self._stack[p], self._contrib[p], self._round, self._max, self._minr,
            self._shorts, self._acted, self._pending, self._active, self._nlive, self._cur,
            self._nraises, self._nacts, self._nboard, len(self._history), self._terminal,
        ))

    def _after_action(self, p: int) -> None:
        self._nacts += 1
        self._acted |= 1 << p
        if self._nlive == 1 or not self._pending:
            self._end_round()
        else:
            self._cur = self._next_pending(p)

    def _do_call(self, p: int) -> None:
        self._push_undo(p)
        c = self._contrib[p]
        owe = self._max - c
        if owe > 0:
            s = self._stack[p]
            if owe >= s:
                owe = s
                self._active &= ~(1 << p)
            self._stack[p] = s - owe
            self._contrib[p] = c + owe
        self._pending &= ~(1 << p)
        self._history.append(_CALL_EVENTS[self._round][p])
        self._after_action(p)

    def _do_fold(self, p: int) -> None:
        self._push_undo(p)
        self._folded[p] = True
        bit = ~(1 << p)
        self._active &= bit
        self._pending &= bit
        self._nlive -= 1
        self._history.append(_FOLD_EVENTS[self._round][p])
        self._after_action(p)

    def _do_raise(self, p: int, amount: int, action: Action) -> None:
        self._push_undo(p)
        mx = self._max
        pay = amount - self._contrib[p]
        s = self._stack[p] - pay
        self._stack[p] = s
        self._contrib[p] = amount
        bit = 1 << p
        if s == 0:
            self._active &= ~bit
        by = amount - mx
        if self._acpc:
            if self._nolimit and 2 * amount - mx > self._minr:
                self._minr = 2 * amount - mx
        else:
            fr = self._minr
            if by >= fr:
                self._acted = 0
                self._minr = fr = by
            if s:
                self._shorts = 0
            else:
                self._shorts += by
                if self._shorts >= fr:
                    self._shorts = 0
        self._max = amount
        self._nraises += 1
        self._pending = self._active & ~bit
        self._history.append(ActionEvent(p, self._round, action))
        self._after_action(p)

    def step_back(self) -> None:
        """Undo the last action together with the deals it triggered.

        Raises :class:`IllegalActionError` when no action has been taken.
        """
        if not self._undo:
            raise IllegalActionError("cannot step back: no action has been taken")
        (p, stack, contrib, self._round, self._max, self._minr, self._shorts, self._acted,
         self._pending, self._active, self._nlive, self._cur, self._nraises, self._nacts,
         self._nboard, hlen, self._terminal) = self._undo.pop()
        self._stack[p] = stack
        self._contrib[p] = contrib
        self._folded[p] = False
        del self._history[hlen:]
        self._result = None

    # ------------------------------------------------------------------ results

    def _settle(self) -> showdown.Result:
        if not self._terminal:
            raise IllegalActionError("the hand is not over: no results yet")
        res = self._result
        if res is None:
            res = self._result = showdown.settle(self)
        return res

    def payoffs(self) -> tuple[int | Fraction, ...]:
        """Net chips won (+) or lost (-) per seat; ``Fraction`` only for ACPC odd-chip splits."""
        return self._settle().payoffs

    def winnings(self) -> tuple[int | Fraction, ...]:
        """Chips collected from pots per seat (an uncalled bet returned is not counted)."""
        return self._settle().winnings

    def uncalled(self) -> tuple[int, int] | None:
        """``(seat, chips)`` of the uncalled bet returned at the end, if any."""
        return self._settle().uncalled

    def final_stacks(self) -> tuple[int | Fraction, ...]:
        """Each seat's stack after the payout."""
        return tuple(s + p for s, p in zip(self._cfg.stacks, self.payoffs(), strict=True))

    def shown(self) -> tuple[bool, ...]:
        """Which seats' hole cards are shown (at a showdown: every seat still in)."""
        if not self._terminal or self._nlive < 2:
            return (False,) * self._n
        return tuple(not f for f in self._folded)

    # ------------------------------------------------------------------ views, copies

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see: its own cards, the board, chips, actions and shown cards."""
        if not 0 <= seat < self._n:
            raise ConfigError(f"seat must be 0..{self._n - 1}, got {seat!r}")
        return make_observation(self, seat)

    def copy(self) -> State:
        """An independent copy (the undo log included)."""
        new = State.__new__(State)
        for name in State.__slots__:
            setattr(new, name, getattr(self, name))
        new._stack = self._stack[:]
        new._contrib = self._contrib[:]
        new._ante = self._ante[:]
        new._folded = self._folded[:]
        new._history = self._history[:]
        new._undo = self._undo[:]
        return new

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def _key(self) -> tuple[Any, ...]:
        return (self._cfg, self._cards, self._stack, self._contrib, self._ante, self._folded,
                self._round, self._max, self._minr, self._shorts, self._acted, self._pending,
                self._active, self._nlive, self._cur, self._nraises, self._nacts, self._nboard,
                self._terminal, self._history)

    def __repr__(self) -> str:
        return (f"State(round={self._round}, current_player={self.current_player}, "
                f"betting={self.acpc_betting()!r}, stacks={self._stack}, "
                f"contributions={list(self.contributions)})")

    # ------------------------------------------------------------------ serialisation

    def acpc_betting(self) -> str:
        """The ACPC betting string, e.g. ``"r300c/cr600c/"``."""
        return _serialise.acpc_betting(self)

    def acpc_cards(self, seat: int | None = None) -> str:
        """ACPC card string ``hole0|hole1/flop/turn``; ``seat`` None shows every seat."""
        return _serialise.acpc_cards(self, seat)

    def acpc_matchstate(self, seat: int, hand_number: int) -> str:
        """``MATCHSTATE:<seat>:<hand>:<betting>:<cards>`` as the dealer sends it to ``seat``."""
        return _serialise.acpc_matchstate(self, seat, hand_number)

    def acpc_state_line(self, hand_number: int, names: Sequence[str]) -> str:
        """``STATE:<hand>:<betting>:<cards>:<nets>:<names>`` as in a dealer log (terminal only)."""
        return _serialise.acpc_state_line(self, hand_number, names)

    def to_json(self) -> dict[str, Any]:
        """JSON form: config, cards and actions; :meth:`from_json` rebuilds the same state."""
        return _serialise.to_json(self)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> State:
        """Rebuild a state from :meth:`to_json` output by replaying its actions."""
        return _serialise.from_json(d)

    def to_pokerstars(self, hand_id: int = 1, names: Sequence[str] | None = None,
                      table: str = "checkraise") -> str:
        """A PokerStars-style text hand history (terminal or not)."""
        return _serialise.to_pokerstars(self, hand_id, names, table)


class _AllInFlags(tuple[bool, ...]):
    """``State.all_in``: per-seat all-in flags that, called, make the seat to act go all-in."""

    _state: State

    def __call__(self) -> Action:
        return self._state.go_all_in()
