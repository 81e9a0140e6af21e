"""Play one random hand in the engine (casino rules) and in PokerKit side by side.

PokerKit (uoftcprg/pokerkit) is an independent implementation of the same
card-room rules. At every decision both must offer the same seat, call amount,
fold permission and minimum/maximum raise. At the end the engine's stacks must
equal those of ``tests/engine/pot_model.py``, a pot-by-pot model that shares no
code with the engine, fed with what PokerKit says each seat put in and with
eval7's hand ranks; PokerKit's stacks must equal the same model's
``merge_tied`` variant (they differ from ours only by odd chips of tied side
pots). Seat mapping: ring games use the same order (seat 0 small blind); heads-up
PokerKit puts the big blind at index 0, so engine seat ``s`` is PokerKit ``1 - s``.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import eval7
from pokerkit import Automation, NoLimitTexasHoldem, StandardHighHand

from checkraise.cards import format_card
from checkraise.engine import Action, State, TableConfig
from tests.engine import pot_model

_AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PULLING,  # not CHIPS_PUSHING: play() reads the stacks before it
)


@dataclass(frozen=True)
class Deal:
    """A table, and either a seed for the cards and the choices or the cards and actions."""

    config: TableConfig
    seed: int = 0
    cards: tuple[int, ...] | None = None
    actions: tuple[Action, ...] | None = None


@dataclass(frozen=True)
class Outcome:
    """What happened in one hand played by both engines."""

    actions: tuple[Action, ...]
    pots: int  # pots that two or more seats could win (a side pot if 2 or more)
    all_in: bool
    pokerkit_stacks: tuple[int, ...]
    engine_stacks: tuple[int, ...]
    showdown: bool = False

    @property
    def odd_chip_difference(self) -> bool:
        """PokerKit's merged split of tied side pots moved an odd chip (see pot_model)."""
        return self.pokerkit_stacks != self.engine_stacks


def random_deal(seed: int) -> Deal:
    """A table of 2..10 seats with stacks chosen so that all-ins and side pots are common."""
    rng = random.Random(seed)
    n = rng.randint(2, 10)
    bb = rng.choice([2, 10, 100])
    sb = max(1, bb // 2)
    ante = 0 if rng.random() < 0.7 else rng.randint(1, max(1, bb // 2))
    stacks = []
    for _ in range(n):
        u = rng.random()
        if u < 0.08:
            stacks.append(rng.randint(1, 2 * bb))
        elif u < 0.5:
            stacks.append(rng.randint(2 * bb, 20 * bb))
        else:
            stacks.append(rng.randint(20 * bb, 200 * bb))
    cfg = TableConfig.nolimit(n, stacks=tuple(stacks), small_blind=sb, big_blind=bb, ante=ante)
    return Deal(cfg, seed)


def _pk_state(cfg: TableConfig, order: list[int]) -> object:
    sb, bb = cfg.blinds[0], cfg.blinds[1]
    return NoLimitTexasHoldem.create_state(
        _AUTOMATIONS, True, cfg.ante, (sb, bb), bb,
        tuple(cfg.stacks[s] for s in order), cfg.num_players,
    )


def play(deal: Deal) -> Outcome:
    """Play the hand in both engines and assert that they agree at every step."""
    cfg = deal.config
    n = cfg.num_players
    order = [1, 0] if n == 2 else list(range(n))  # PokerKit index -> engine seat
    seat_of = order
    pk_of = [order.index(s) for s in range(n)]
    rng = random.Random(deal.seed ^ 0x5EED)
    s = State(cfg, deck=deal.cards) if deal.cards is not None else State(cfg, rng=rng)
    actions = deal.actions
    with warnings.catch_warnings(), _memoized_pokerkit_hands():
        warnings.simplefilter("ignore")
        pk = _pk_state(cfg, order)
        for i in range(n):
            pk.deal_hole("".join(format_card(c) for c in s.hole_cards[seat_of[i]]))
        board = s._cards[2 * n:2 * n + 5]
        dealt = 0
        taken: list[Action] = []
        folded = [False] * n
        while True:
            while pk.can_deal_board():
                k = 3 if dealt == 0 else 1
                pk.deal_board("".join(format_card(c) for c in board[dealt:dealt + k]))
                dealt += k
            cur = s.current_player
            pk_cur = pk.actor_index
            assert (None if pk_cur is None else seat_of[pk_cur]) == cur, (taken, pk_cur, cur)
            if cur is None:
                break
            la = s.legal_actions()
            base = s.bets[cur] - pk.bets[pk_of[cur]]  # chips put in before this street
            assert pk.checking_or_calling_amount == la.call_amount, (taken, la)
            assert pk.can_fold() == la.can_fold, (taken, la)
            pk_min = pk.min_completion_betting_or_raising_to_amount
            pk_max = pk.max_completion_betting_or_raising_to_amount
            got = (la.min_raise_to, la.max_raise_to)
            want = (None, None) if pk_min is None else (pk_min + base, pk_max + base)
            assert got == want, (taken, got, want)
            action = actions[len(taken)] if actions is not None else _choose(rng, la)
            taken.append(action)
            s.step(action)
            if action.kind == "fold":
                folded[cur] = True
                pk.fold()
            elif action.kind == "call":
                pk.check_or_call()
            else:
                pk.complete_bet_or_raise_to(action.amount - base)
        assert s.is_terminal, taken
        # Chips pushing is left manual so that the stacks can be read here, with every
        # bet collected and nothing paid out yet: what PokerKit says each seat put in.
        put_in = [cfg.stacks[seat] - pk.stacks[pk_of[seat]] for seat in range(n)]
        while pk.can_push_chips():
            pk.push_chips()
        assert not pk.status, taken
    final = tuple(pk.stacks[pk_of[seat]] for seat in range(n))
    mine = tuple(int(v) for v in s.final_stacks())
    ranks = _eval7_ranks(s, folded)
    button = 0 if n == 2 else n - 1  # TableConfig.nolimit's seat layout
    model = pot_model.final_stacks(cfg.stacks, put_in, folded, ranks, button)
    assert mine == model, (taken, mine, model)
    merged = pot_model.final_stacks(cfg.stacks, put_in, folded, ranks, button, merge_tied=True)
    assert final == merged, (taken, final, merged)
    assert sum(s.payoffs()) == 0
    contested = [p for p in pot_model.pot_list(put_in, [not f for f in folded]) if len(p[1]) > 1]
    return Outcome(tuple(taken), len(contested), any(s.all_in_flags), final, mine,
                   showdown=sum(not f for f in folded) > 1)


def _eval7_ranks(s: State, folded: list[bool]) -> list[int]:
    # eval7 ranks the hands, not our evaluator: the model must not share code with us.
    board = [eval7.Card(format_card(c)) for c in s.board]
    return [-1 if f else eval7.evaluate([eval7.Card(format_card(c)) for c in h] + board)
            for f, h in zip(folded, s.hole_cards, strict=True)]


@contextmanager
def _memoized_pokerkit_hands() -> Iterator[None]:
    # PokerKit re-ranks the same hole+board many times per showdown (hand killing,
    # mucking, each pot); ranking is a pure function, so a per-hand cache changes
    # nothing but the run time (about 4x faster here).
    had_own = "from_game" in StandardHighHand.__dict__
    saved = StandardHighHand.__dict__.get("from_game")
    original = StandardHighHand.from_game.__func__
    cache: dict[tuple[object, ...], object] = {}

    def from_game(cls: type, hole_cards: object, board_cards: object = ()) -> object:
        key = (tuple(hole_cards), tuple(board_cards))  # type: ignore[call-overload]
        hand = cache.get(key)
        if hand is None:
            hand = cache[key] = original(cls, key[0], key[1])
        return hand

    def entry(hand: Any) -> object:
        memo = hand.__dict__.get("_memo_entry")
        if memo is None:
            memo = hand.__dict__["_memo_entry"] = hand.lookup.get_entry(hand.cards)
        return memo

    StandardHighHand.from_game = classmethod(from_game)
    StandardHighHand.entry = property(entry)
    try:
        yield
    finally:
        del StandardHighHand.entry
        if had_own:
            StandardHighHand.from_game = saved
        else:
            del StandardHighHand.from_game


def _choose(rng: random.Random, la: object) -> Action:
    assert hasattr(la, "can_fold")
    u = rng.random()
    if la.can_fold and u < 0.2:
        return Action.fold()
    if la.min_raise_to is not None and u < 0.55:
        lo, hi = la.min_raise_to, la.max_raise_to
        v = rng.random()
        amount = lo if v < 0.4 else hi if v < 0.6 else rng.randint(lo, hi)
        return Action.raise_to(amount)
    return Action.call()
