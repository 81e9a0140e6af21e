"""The hand-reading bot (``handreader``, alias ``fold``): read hands, act on the win rate.

The design of Li, Jiang, Chen and Bao, "Game in multiplayer no-limit Texas Hold'em based
on hands prediction", Chinese Journal of Computers 40(12), 2017:

1. **Predict.** Each opponent still in the hand gets a distribution over his 1,326
   possible combos from his actions so far (:mod:`checkraise.opponents.predict`: the
   default model's ``P(action | hand)`` per street, Bayes' rule), adapted to what he has
   been seen to do in each situation (:meth:`~checkraise.opponents.model.DFModel.adaptation`:
   his observed frequencies cut his range sorted by strength, so a player who raises
   every hand says nothing by raising and one who raises rarely shows the top), as far
   as the hands he showed down bear the cut out (:mod:`checkraise.opponents.evidence`:
   a player who mixes stays read mostly by the default model).
   The agent sees no names, so an opponent is identified by where he sits relative to
   it and the table size (exact heads-up and in arenas that keep the seating order,
   such as tournaments and rotated ring games).
2. **Win rate (Algorithm 1).** ``samples`` (500) Monte Carlo deals, each opponent's combo
   drawn from his predicted distribution, the rest of the board random
   (:func:`checkraise.opponents._kernels.win_rate`); the win rate ``W`` is our expected
   share of the pot at showdown.
3. **Decision (Algorithm 2).** With ``k`` opponents in the hand and fair share
   ``f = 1 / (k + 1)`` the thresholds are ``T_call = call × f``,
   ``T_half = f + half × (1 - f)``, ``T_pot = f + pot × (1 - f)``: fewer players give
   higher thresholds. In tournament mode (survival first: the paper's tournaments rank
   players by the hands they survive) each is raised by ``tighten``, and no call or
   fold-equity raise risks more than ``commit`` (a third) of the chips behind without
   ``W ≥ max(T_pot, pot odds + overbet_margin)``. Once the bot has lost all its chips
   (the format's one rebuy is then used: the next bust is elimination) its last life is
   tighter still: ``last_tighten`` more and ``commit`` at most ``last_commit``. The agent
   switches to tournament mode by itself when chips carry over from hand to hand
   (``mode="auto"``). In order:

   * tournament mode: a call of more than ``commit`` × our chips needs
     ``W ≥ max(T_pot, pot odds + overbet_margin)``, else fold;

   * special case: facing a huge overbet (the bet to call exceeds ``overbet`` × the rest
     of the pot) call only with ``W ≥ max(T_call, pot odds) + overbet_margin``, else
     fold: the other rules below do not apply (the paper calls only with ``W ≥ T_pot``;
     with ranges read from the player's own frequencies the pot odds with a margin lose
     less to players who overbet or move all-in with anything);
   * preflop with under 10 big blinds: all-in with ``W ≥ T_call`` (and not below the pot
     odds), otherwise check or fold;
   * ``W ≥ T_pot``: raise the pot; ``W ≥ T_half``: raise half the pot;
   * **fold equity** (our addition to the paper's rules, on the same predicted ranges):
     for a raise of half the pot and of the pot, the model gives each opponent's chance
     to fold (his observed rates in the situation the raise puts him in, cut on his
     predicted range) and the range that goes on, and Algorithm 1 our win rate ``W_c``
     against it. With ``F`` the chance that all fold, the raise is worth
     ``F × pot + (1 - F) × (W_c × pot if called - chips we add)``; raise when the better
     size beats checking (``W × pot``) or the best of calling and folding by more than
     ``bluff_margin`` × pot;
   * ``W ≥ max(T_call, pot odds)``: call (check when free);
   * preflop with over 80 big blinds: call a speculative hand (pair up to nines, suited
     connector or one-gapper, suited ace) when the call is at most 1/20 of the stack;
   * on the flop or turn, a drawing hand (8+ outs by the outs rule ``P1 - P0 ≥ 0.6
     (1 - P0)``, :func:`checkraise.equity.outs`) calls on implied odds: when the chance
     to hit on the next card times (pot + call + what is left of the pot-sized bets we
     can still win, capped by the stacks) covers the call;
   * otherwise check or fold.

Examples
--------
>>> from checkraise.engine import State, TableConfig
>>> state = State(TableConfig.nolimit(2), seed=3)
>>> bot = HandReadingAgent(seed=1)
>>> bot.begin_hand(0, state.config, state.hole_cards[0], 0)
>>> bot.act(state.observation(state.current_player)).kind.value in ("fold", "call", "raise")
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from checkraise.agents.base import AgentSpecError, BaseAgent
from checkraise.cards import COMBO_CARDS, card_rank, card_suit, combo_index
from checkraise.engine import Action
from checkraise.equity.core import rng_state
from checkraise.errors import ConfigError
from checkraise.opponents import _kernels as K
from checkraise.opponents.actions import (
    FACING_POSTFLOP,
    PREFLOP_RAISES,
    ActionClass,
    UnderstoodAction,
    understand,
)
from checkraise.opponents.evidence import CutEvidence
from checkraise.opponents.model import Adaptation, DFModel
from checkraise.opponents.predict import consistent, predict_from_actions, showdown_evidence
from checkraise.opponents.pwin import pwin_table
from checkraise.opponents.stats import StatsBook

if TYPE_CHECKING:
    from checkraise.engine import LegalActions, Observation, TableConfig

__all__ = ["Decision", "HandReadingAgent", "Response", "decide", "is_speculative"]

_COMBOS = COMBO_CARDS.astype(np.int64)
FloatArray = npt.NDArray[np.float64]
SHORT_STACK_BB = 10
DEEP_STACK_BB = 80
DRAW_OUTS = 8


def is_speculative(c0: int, c1: int) -> bool:
    """Small or middle pair (up to 99), suited connector or one-gapper, or suited ace.

    Examples
    --------
    >>> from checkraise.cards import parse_cards
    >>> [is_speculative(*parse_cards(h)) for h in ("5c5d", "8h7h", "Ad4d", "KcQd")]
    [True, True, True, False]
    """
    r0, r1 = card_rank(c0), card_rank(c1)
    if r0 == r1:
        return r0 <= 7
    if card_suit(c0) != card_suit(c1):
        return False
    hi, lo = max(r0, r1), min(r0, r1)
    return hi == 12 or hi - lo <= 2


@dataclass(frozen=True)
class Response:
    """The opponents' predicted answer to a raise to ``raise_to``.

    ``fold`` is the probability that all of them fold, ``win`` our win rate against the
    hands that go on, ``called_pot`` the pot once they have called.
    """

    raise_to: int
    fold: float
    win: float
    called_pot: int

    def value(self, pot: int, mine: int) -> float:
        """Expected chips back from the pot minus what the raise adds (the pot they fold)."""
        added = self.raise_to - mine
        return self.fold * pot + (1.0 - self.fold) * (self.win * self.called_pot - added)


@dataclass(frozen=True)
class Decision:
    """What :func:`decide` chose and why (``reason`` names the rule that fired)."""

    action: Action
    reason: str


def _raise_to(legal: LegalActions, mine: int, to_call: int, pot: int, fraction: float) -> int:
    assert legal.min_raise_to is not None and legal.max_raise_to is not None
    target = mine + to_call + round(fraction * (pot + to_call))
    return min(max(target, legal.min_raise_to), legal.max_raise_to)


def _passive(legal: LegalActions, reason: str) -> Decision:
    if legal.call_amount == 0 or not legal.can_fold:
        return Decision(Action.call(), reason)
    return Decision(Action.fold(), reason)


def decide(
    win: float,
    opponents: int,
    legal: LegalActions,
    *,
    street: int,
    pot: int,
    mine: int,
    stack: int,
    big_blind: int,
    call: float = 0.7,
    half: float = 0.1,
    pot_raise: float = 0.3,
    tighten: float = 0.0,
    overbet: float = 2.0,
    overbet_margin: float = 0.05,
    speculative: bool = False,
    draw_outs: int = 0,
    responses: Mapping[float, Response] | None = None,
    bluff_margin: float = 0.05,
    commit: float = 0.0,
) -> Decision:
    """Algorithm 2: the action for win rate ``win`` against ``opponents`` players.

    ``pot`` is the pot before our action, ``mine`` our contribution so far, ``stack``
    our chips behind, ``speculative`` whether the hand is a speculative preflop hand and
    ``draw_outs`` its outs (computed by the caller only when they matter). ``responses``
    are the predicted answers to our raises by pot fraction (:meth:`HandReadingAgent.responses`,
    for the fold-equity rule) and ``commit`` the tournament mode's share of the stack
    (0: cash mode).

    Examples
    --------
    >>> from checkraise.engine import LegalActions
    >>> legal = LegalActions(True, False, 100, 300, 10_000)
    >>> decide(0.9, 1, legal, street=1, pot=300, mine=200, stack=10_000, big_blind=100).reason
    'raise pot'
    >>> decide(0.1, 1, legal, street=1, pot=300, mine=200, stack=10_000, big_blind=100).reason
    'fold'
    """
    fair = 1.0 / (opponents + 1)
    t_call = call * fair + tighten
    t_half = fair + half * (1.0 - fair) + tighten
    t_pot = fair + pot_raise * (1.0 - fair) + tighten
    to_call = legal.call_amount
    can_raise = legal.min_raise_to is not None and legal.max_raise_to is not None
    odds = to_call / (pot + to_call) if to_call else 0.0
    total_bb = (stack + mine) / big_blind
    if commit > 0 and to_call > commit * stack:
        if win >= max(t_pot, odds + overbet_margin):
            return Decision(Action.call(), "call risking the stack")
        return _passive(legal, "fold: stack at risk")
    if to_call > 0 and to_call > overbet * max(pot - to_call, 1):
        if win >= max(t_call, odds) + overbet_margin:
            return Decision(Action.call(), "call huge overbet")
        return _passive(legal, "fold to huge overbet")
    if street == 0 and total_bb < SHORT_STACK_BB:
        if win >= max(t_call, odds):
            if can_raise:
                assert legal.max_raise_to is not None
                return Decision(Action.raise_to(legal.max_raise_to), "short stack all-in")
            return Decision(Action.call(), "short stack call all-in")
        return _passive(legal, "short stack fold")
    if can_raise and win >= t_pot:
        return Decision(Action.raise_to(_raise_to(legal, mine, to_call, pot, 1.0)), "raise pot")
    if can_raise and win >= t_half:
        return Decision(Action.raise_to(_raise_to(legal, mine, to_call, pot, 0.5)),
                        "raise half pot")
    if commit > 0 and responses:
        responses = {f: r for f, r in responses.items() if r.raise_to - mine <= commit * stack}
    if can_raise and responses:
        stay = win * pot if to_call == 0 else max(0.0, win * (pot + to_call) - to_call)
        best = max(responses.values(), key=lambda r: r.value(pot, mine))
        if best.value(pot, mine) > stay + bluff_margin * pot:
            return Decision(Action.raise_to(best.raise_to), "raise on fold equity")
    if to_call == 0:
        return Decision(Action.call(), "check")
    if win >= max(t_call, odds) or (win >= t_half and not can_raise):
        return Decision(Action.call(), "call")
    if street == 0 and total_bb > DEEP_STACK_BB and speculative and to_call * 20 <= stack:
        return Decision(Action.call(), "deep stack speculative call")
    if street in (1, 2) and draw_outs >= DRAW_OUTS:
        unseen = 52 - 2 - (3 if street == 1 else 4)
        hit = draw_outs / unseen
        implied = min(stack - to_call, pot + to_call)
        if hit * (pot + to_call + max(implied, 0)) >= to_call:
            return Decision(Action.call(), f"draw with {draw_outs} outs on implied odds")
    return _passive(legal, "fold")


class HandReadingAgent(BaseAgent):
    """The hand-reading bot (module docstring). Registered as ``handreader`` (alias ``fold``).

    Parameters
    ----------
    seed : int or None
        Seed of the Monte Carlo deals.
    samples : int
        Monte Carlo deals per decision (Algorithm 1's N).
    mode : str
        ``"cash"``, ``"tournament"`` (thresholds raised by ``tighten``, the ``commit``
        rule: survival first) or ``"auto"``: tournament mode from the first hand whose
        seats start with different stacks or whose table is smaller than the last one
        (chips carried over, players out), cash mode until then.
    call, half, pot : float
        Threshold parameters of :func:`decide`.
    tighten : float
        Added to every threshold in tournament mode.
    overbet, overbet_margin : float
        A bet above ``overbet`` times the rest of the pot is a huge overbet, called only
        with a win rate ``overbet_margin`` above the call threshold and the pot odds.
    adapt : bool
        Read each opponent's actions through his observed frequencies.
    model : str
        Path of a model configuration JSON (empty: the shipped default).
    flop_runouts : int
        Turn-river runouts for the flop P_win table (0: all 1,081).
    fold_equity : int
        The fold-equity raise is considered with at most this many opponents in the hand
        (0: never).
    bluff_margin : float
        How much (in pots) a fold-equity raise must gain over checking, calling or folding.
    commit : float
        Tournament mode: the share of our chips behind that a call or a fold-equity raise
        may risk without ``W ≥ max(T_pot, pot odds + overbet_margin)``.
    last_tighten, last_commit : float
        Tournament mode, once we have busted (the rebuy is gone: one more bust is out):
        ``last_tighten`` more on every threshold and ``commit`` at most ``last_commit``.

    The defaults were tuned by duplicate matches against the ``heuristic`` bot (seeds 201
    and 202, 2,000 deals each) and by tournaments against the built-in bots (seeds 502,
    601 and 602, 20 to 80 repetitions; ``last_tighten`` and ``last_commit`` on seeds 701
    and 702, 40 repetitions).
    """

    def __init__(
        self,
        *,
        seed: int | None = None,
        samples: int = 500,
        mode: str = "auto",
        call: float = 0.7,
        half: float = 0.1,
        pot: float = 0.3,
        tighten: float = 0.05,
        overbet: float = 2.0,
        overbet_margin: float = 0.05,
        adapt: bool = True,
        model: str = "",
        flop_runouts: int = 150,
        fold_equity: int = 1,
        bluff_margin: float = 0.05,
        commit: float = 0.33,
        last_tighten: float = 0.1,
        last_commit: float = 0.1,
    ) -> None:
        super().__init__(seed=seed)
        if mode not in ("auto", "cash", "tournament"):
            raise AgentSpecError(
                f"invalid mode {mode!r}: expected 'auto', 'cash' or 'tournament'")
        if samples < 1 or flop_runouts < 0 or overbet <= 0:
            raise AgentSpecError(
                f"invalid fold-agent options samples={samples!r}, flop_runouts={flop_runouts!r}"
                f", overbet={overbet!r}: expected samples >= 1, flop_runouts >= 0, overbet > 0"
            )
        self.samples = int(samples)
        self.mode = mode
        self.tournament = mode == "tournament"
        self.thresholds = (float(call), float(half), float(pot))
        self.tournament_tighten = float(tighten)
        self.overbet = float(overbet)
        self.overbet_margin = float(overbet_margin)
        self.adapt = bool(adapt)
        self.model = DFModel(model or None)
        self.flop_runouts = int(flop_runouts) or None
        self.fold_equity = int(fold_equity)
        self.bluff_margin = float(bluff_margin)
        self.commit = float(commit)
        self.last_tighten = float(last_tighten)
        self.last_commit = float(last_commit)
        self.busts = 0
        self._acts: list[UnderstoodAction] = []
        self.book = StatsBook()
        self.evidence: dict[str, CutEvidence] = {}
        self.seat = 0
        self.last_win: float | None = None
        self.last_reason = ""
        self.last_prediction: dict[int, npt.NDArray[np.float64]] = {}
        self._adaptations: dict[int, Adaptation] = {}
        self._outs: dict[tuple[int, ...], int] = {}
        self._table_size = 0

    @property
    def tighten(self) -> float:
        """What is added to every threshold now (0 in cash mode)."""
        if not self.tournament:
            return 0.0
        return self.tournament_tighten + (self.last_tighten if self.busts else 0.0)

    @property
    def commit_now(self) -> float:
        """The ``commit`` share now: 0 in cash mode, ``last_commit`` once we have busted."""
        if not self.tournament:
            return 0.0
        return min(self.commit, self.last_commit) if self.busts else self.commit

    @staticmethod
    def _key(seat: int, n: int, me: int) -> str:
        return f"{n}:{(seat - me) % n}"

    def begin_hand(
        self, seat: int, config: TableConfig, hole_cards: tuple[int, ...], hand_number: int
    ) -> None:
        """Remember our seat; compute each opponent's adaptation for this hand.

        In ``auto`` mode, switch to tournament mode for good once the seats start a hand
        with different stacks or the table has shrunk.
        """
        self.seat = seat
        n = config.num_players
        if hand_number == 0:
            self.busts = 0
        if self.mode == "auto" and (len(set(config.stacks)) > 1 or n < self._table_size):
            self.tournament = True
        self._table_size = n
        self._outs = {}
        self._adaptations = {}
        if self.adapt:
            for s in range(n):
                key = self._key(s, n, seat)
                if s != seat and key in self.book:
                    self._adaptations[s] = self.model.adaptation(self.book[key].total(),
                                                                 self.evidence.get(key))

    def end_hand(self, observation: Observation, payoffs: tuple[int | Fraction, ...]) -> None:
        """Count the hand in each opponent's statistics; weigh his cut by his shown cards."""
        n = observation.config.num_players
        me = observation.seat
        names = {s: self._key(s, n, me) for s in range(n) if s != me}
        acts = understand(observation.config, observation.history)
        # Busting once uses the rebuy (in the paper's format): the next bust is the end.
        if observation.config.stacks[me] + payoffs[me] <= 0:
            self.busts += 1
        if self.adapt:
            hole = tuple(int(c) for c in observation.hole_cards)
            board = tuple(int(c) for c in observation.board)
            for s, cards in enumerate(observation.shown):
                adaptation = self._adaptations.get(s)
                if cards is None or s == me or adaptation is None:
                    continue
                ev = self.evidence.setdefault(names[s], CutEvidence())
                for parts in showdown_evidence(
                        acts, board, s, combo_index(int(cards[0]), int(cards[1])), adaptation,
                        known=hole, model=self.model, flop_runouts=self.flop_runouts):
                    ev.add(*parts)
        self.book.update(observation.config, observation.history, names, acts)

    def win_rate(self, observation: Observation) -> float:
        """Algorithm 1: our pot share against the opponents' predicted hands."""
        seat = observation.seat
        hole = tuple(int(c) for c in observation.hole_cards)
        board = tuple(int(c) for c in observation.board)
        opponents = [s for s, f in enumerate(observation.folded) if s != seat and not f]
        if not opponents:
            return 1.0
        acts = understand(observation.config, observation.history)
        preds = predict_from_actions(
            acts, board, opponents, known=hole, model=self.model,
            adaptations=self._adaptations, flop_runouts=self.flop_runouts,
            last_street=observation.round,
        )
        dists = {}
        for s in opponents:
            w = preds[s].final
            dists[s] = w if w.sum() > 0 else consistent(hole + board)
        self.last_prediction = {s: preds[s].final for s in opponents}
        self._acts = acts
        return self._monte_carlo(hole, board, list(dists.values()))

    def _monte_carlo(
        self, hole: tuple[int, ...], board: tuple[int, ...], dists: list[FloatArray]
    ) -> float:
        cdf = np.ascontiguousarray(np.array([np.cumsum(w) for w in dists]))
        _, share, done = K.win_rate(
            hole[0], hole[1], np.array(board, dtype=np.int64), cdf, _COMBOS, self.samples,
            rng_state(self.rng),
        )
        return share / done if done else 1.0 / (len(dists) + 1)

    def responses(self, observation: Observation, fractions: tuple[float, ...] = (0.5, 1.0)
                  ) -> dict[float, Response]:
        """The opponents' predicted answers to our raises of ``fractions`` of the pot.

        Call after :meth:`win_rate` on the same observation. For each opponent the model
        gives every combo's probability of folding to the raise (his observed rates in the
        situation he would face, :meth:`~checkraise.opponents.model.DFModel.likelihood`);
        weighted by his predicted distribution that is his chance to fold, and the rest is
        the range that goes on, which our win rate is estimated against.
        """
        legal = observation.legal
        assert legal is not None and legal.min_raise_to is not None
        seat = observation.seat
        config = observation.config
        street = min(observation.round, 3)
        hole = tuple(int(c) for c in observation.hole_cards)
        board = tuple(int(c) for c in observation.board)
        mine = max(observation.contributions[seat] - config.ante, 0)
        opponents = list(self.last_prediction)
        players = len(opponents) + 1
        raised = sum(1 for a in self._acts if a.street == street
                     and a.cls not in (ActionClass.FOLD, ActionClass.CHECK, ActionClass.CALL))
        choices = FACING_POSTFLOP if street else (
            ActionClass.FOLD, ActionClass.CALL, PREFLOP_RAISES[min(raised + 1, 2)])
        pwin = pwin_table(board, self.flop_runouts)
        out: dict[float, Response] = {}
        for fraction in fractions:
            target = _raise_to(legal, mine, legal.call_amount, observation.pot, fraction)
            if target in (r.raise_to for r in out.values()):
                continue
            fold = 1.0
            going_on = []
            called = observation.pot + target - mine
            for s in opponents:
                theirs = max(observation.contributions[s] - config.ante, 0)
                owed = min(target - theirs, observation.stacks[s])
                called += owed
                facing = UnderstoodAction(s, street, ActionClass.FOLD, choices, players,
                                          observation.pot + target - mine, owed,
                                          raises=raised + 1)
                w = self.last_prediction[s]
                # His folding *rate* is read from his counts whatever his noise: the
                # weight only says which hands fold, so here the cut counts in full.
                p_fold = np.nan_to_num(self.model.likelihood_parts(
                    facing, pwin, self._adaptations.get(s), prior=w)[1], nan=0.0)
                mass = float(w.sum())
                f = float((w * p_fold).sum()) / mass if mass > 0 else 0.0
                fold *= f
                rest = w * (1.0 - p_fold)
                going_on.append(rest if rest.sum() > 0 else w)
            win = self._monte_carlo(hole, board, going_on)
            out[fraction] = Response(target, fold, win, called)
        return out

    def _draw_outs(self, hole: tuple[int, ...], board: tuple[int, ...]) -> int:
        key = hole + board
        if key not in self._outs:
            from checkraise.equity import outs

            self._outs[key] = len(outs(list(hole), list(board)))
        return self._outs[key]

    def act(self, observation: Observation) -> Action:
        """Predict, estimate the win rate, and decide (module docstring)."""
        legal = observation.legal
        if legal is None:
            raise ConfigError(
                f"agent asked to act for seat {observation.seat} but it is not that seat's turn"
            )
        win = self.win_rate(observation)
        seat = observation.seat
        config = observation.config
        opponents = sum(1 for s, f in enumerate(observation.folded) if s != seat and not f)
        call, half, pot = self.thresholds
        mine = max(observation.contributions[seat] - config.ante, 0)
        hole = tuple(int(c) for c in observation.hole_cards)
        board = tuple(int(c) for c in observation.board)
        street = min(observation.round, 3)
        to_call = legal.call_amount
        fair = 1.0 / (opponents + 1)
        can_bluff = (opponents <= self.fold_equity
                     and legal.min_raise_to is not None and legal.max_raise_to is not None
                     and win < fair + half * (1.0 - fair) + self.tighten
                     and not (street == 0 and (observation.stacks[seat] + mine)
                              < SHORT_STACK_BB * max(config.blinds))
                     and not (to_call > self.overbet * max(observation.pot - to_call, 1)))
        needs_draw = (street in (1, 2) and to_call > 0
                      and win < max(call * fair + self.tighten,
                                    to_call / (observation.pot + to_call)))
        decision = decide(
            win, opponents, legal, street=street, pot=observation.pot, mine=mine,
            stack=observation.stacks[seat], big_blind=max(config.blinds), call=call, half=half,
            pot_raise=pot, tighten=self.tighten, overbet=self.overbet,
            overbet_margin=self.overbet_margin,
            commit=self.commit_now,
            speculative=street == 0 and is_speculative(hole[0], hole[1]),
            draw_outs=self._draw_outs(hole, board) if needs_draw else 0,
            responses=self.responses(observation) if can_bluff else None,
            bluff_margin=self.bluff_margin,
        )
        self.last_win = win
        self.last_reason = decision.reason
        return decision.action
