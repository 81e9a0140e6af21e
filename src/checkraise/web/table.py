"""One web table: a person in seat "you" against bots, hand after hand, with no web imports.

A :class:`WebTable` keeps the players in table order (player 0 is the person) and
moves them one engine seat back every hand, so the button goes round the table
(engine seats are positional: in ring games seat 0 posts the small blind and seat
``n - 1`` is the button; heads-up seat 0 is the button). Every hand starts from
the configured stacks, as at a cash table with automatic top-ups, and the session
result is the person's net in big blinds, hand by hand.

The bots are ordinary agents (:mod:`checkraise.agents.base`): they get
``begin_hand``/``end_hand`` and act on their own observation. The person's moves
come from :meth:`WebTable.act`, which the engine checks (an illegal move raises
:class:`~checkraise.engine.IllegalActionError` and changes nothing). After each
move the bots act until it is the person's turn again or the hand is over; every
change comes back as a *step* (a log line and the table as the person sees it),
so a page can show the bots' actions one by one at the pace it likes.

What the person sees is built from the engine's observation of his seat only
(:meth:`checkraise.engine.State.observation`): other players' hole cards appear
only once shown at the showdown.

Each table takes a seed: hand ``k``'s cards and every bot's random draws follow
from it, so the same seed and the same moves replay the same hands.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from checkraise.agents.base import call_begin_hand, call_end_hand, make_agent
from checkraise.agents.human import StreetBets
from checkraise.cards import format_card
from checkraise.engine import Action, ActionKind, IllegalActionError, State, TableConfig
from checkraise.errors import CheckraiseError, ConfigError

if TYPE_CHECKING:
    from checkraise.agents.base import Agent
    from checkraise.engine import Observation
    from checkraise.histories.record import HandRecord
    from checkraise.web.coach import Coach

__all__ = [
    "BIG_BLIND",
    "MAX_STACK_BB",
    "MIN_STACK_BB",
    "POT_FRACTIONS",
    "SMALL_BLIND",
    "WEB_BOTS",
    "TableError",
    "TableSettings",
    "WebTable",
    "hand_record",
]

SMALL_BLIND: Final = 50
BIG_BLIND: Final = 100
MIN_STACK_BB: Final = 10
MAX_STACK_BB: Final = 1000
# Bots a page may seat, by bare name only: options could name files on the server
# (``heuristic:profile=...``), which a browser has no business reading.
WEB_BOTS: Final = ("heuristic", "fold", "blueprint", "equity", "random", "call", "raise",
                   "checkfold", "allin")
HEADS_UP_ONLY: Final = ("blueprint",)
# Bet buttons, as fractions of the pot after calling.
POT_FRACTIONS: Final = ((1, 3), (1, 2), (2, 3), (1, 1))
STREETS: Final = ("preflop", "flop", "turn", "river")
YOU: Final = "you"


class TableError(CheckraiseError):
    """A table request that cannot be carried out now (no hand running, not your turn ...)."""


@dataclass(frozen=True)
class TableSettings:
    """What a table is made of: the bots in seats 1.., the stacks and the seed.

    Attributes
    ----------
    bots : tuple of str
        One bot name (from :data:`WEB_BOTS`) per other seat: 1 to 9 of them.
    stacks : tuple of int
        Chips of each player at the start of every hand, the person first.
    seed : int
        Seed of the cards and the bots' draws (0 .. 2**63 - 1).
    coach : bool
        Whether the person's view carries the hand-reading coach's advice
        (:mod:`checkraise.web.coach`) at his turn.

    Examples
    --------
    >>> s = TableSettings.from_dict({"bots": ["call", "random"], "stack_bb": 50, "seed": 3})
    >>> s.seats, s.stacks
    (3, (5000, 5000, 5000))
    """

    bots: tuple[str, ...]
    stacks: tuple[int, ...]
    seed: int
    coach: bool = False

    def __post_init__(self) -> None:
        if not 1 <= len(self.bots) <= 9:
            raise ConfigError(f"{len(self.bots)} bots; expected 1 to 9 (2 to 10 seats)")
        for bot in self.bots:
            if bot not in WEB_BOTS:
                raise ConfigError(f"unknown bot {bot!r}; expected one of {', '.join(WEB_BOTS)}")
            if bot in HEADS_UP_ONLY and self.seats != 2:
                raise ConfigError(f"the {bot} bot plays heads-up only; this table has "
                                  f"{self.seats} seats")
        if len(self.stacks) != self.seats:
            raise ConfigError(f"{len(self.stacks)} stacks for {self.seats} seats; expected one "
                              "per seat")
        low, high = MIN_STACK_BB * BIG_BLIND, MAX_STACK_BB * BIG_BLIND
        for stack in self.stacks:
            if isinstance(stack, bool) or not isinstance(stack, int) or not low <= stack <= high:
                raise ConfigError(f"stack {stack!r}; expected whole chips {low}..{high} "
                                  f"({MIN_STACK_BB} to {MAX_STACK_BB} big blinds of {BIG_BLIND})")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or not (
                0 <= self.seed < 2**63):
            raise ConfigError(f"seed {self.seed!r}; expected an int 0 .. 2**63 - 1")
        if not isinstance(self.coach, bool):
            raise ConfigError(f"coach {self.coach!r}; expected true or false")

    @property
    def seats(self) -> int:
        """Players at the table, the person included."""
        return len(self.bots) + 1

    @classmethod
    def from_dict(cls, data: dict[str, Any], seed: int | None = None) -> TableSettings:
        """Settings from a page's request: bots, stack_bb or stacks_bb, seed, coach.

        ``stack_bb`` gives every player the same stack; ``stacks_bb`` one per player,
        the person first. A missing ``seed`` takes ``seed`` (or a random one).
        """
        bots = data.get("bots")
        if not isinstance(bots, list) or not all(isinstance(b, str) for b in bots):
            raise ConfigError(f"bots {bots!r}; expected a list of bot names")
        stacks_bb = data.get("stacks_bb")
        if stacks_bb is None:
            stacks_bb = [data.get("stack_bb", 100)] * (len(bots) + 1)
        if not isinstance(stacks_bb, list):
            raise ConfigError(f"stacks_bb {stacks_bb!r}; expected a list of big blinds")
        for value in stacks_bb:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ConfigError(f"stack {value!r}; expected a number of big blinds")
        given = data.get("seed")
        if given is None or given == "":
            given = seed if seed is not None else random.SystemRandom().randrange(2**31)
        return cls(tuple(bots), tuple(round(v * BIG_BLIND) for v in stacks_bb), given,
                   data.get("coach", False))


def _derived_seed(seed: int, *keys: int) -> int:
    return int(np.random.SeedSequence([seed, *keys]).generate_state(1, np.uint64)[0] >> 1)


def _position_labels(n: int) -> tuple[str, ...]:
    from checkraise.histories.stats import position_names

    return ("BTN/SB", "BB") if n == 2 else position_names(n)


def _you(said: str) -> str:
    """A move said of a bot ("raises to 300") said of the person ("raise to 300")."""
    verb, _, rest = said.partition(" ")
    verb = {"loses": "lose", "raises": "raise"}.get(verb, verb.removesuffix("s"))
    return f"{verb} {rest}".rstrip()


def _chips(value: int | Fraction) -> int | float:
    return int(value) if Fraction(value).denominator == 1 else float(value)


class WebTable:
    """A table of one person and bots; see the module docstring.

    Parameters
    ----------
    table_id
        The table's name in messages.
    settings
        Bots, stacks and seed.
    on_hand
        Called with every finished hand as a
        :class:`~checkraise.histories.record.HandRecord` (to store it).
    hand_prefix
        Start of the stored hands' ids (``<prefix>.<hand number>``), unique per table.

    Examples
    --------
    >>> table = WebTable("t1", TableSettings(("call",), (10000, 10000), seed=7))
    >>> steps = table.deal()
    >>> view = steps[-1]["view"]
    >>> view["players"][0]["name"], len(view["players"][0]["cards"]), view["players"][1]["cards"]
    ('you', 2, None)
    """

    def __init__(
        self,
        table_id: str,
        settings: TableSettings,
        on_hand: Callable[[HandRecord], None] | None = None,
        hand_prefix: str = "",
    ) -> None:
        self.table_id = table_id
        self.settings = settings
        self.names = (YOU, *(f"{bot}#{k}" for k, bot in enumerate(settings.bots, start=1)))
        self.bots: list[Agent] = [make_agent(bot, seed=_derived_seed(settings.seed, 1, k))
                                  for k, bot in enumerate(settings.bots, start=1)]
        self._on_hand = on_hand
        self._prefix = hand_prefix or table_id
        self.hands_played = 0
        self.results_bb: list[float] = []  # the person's net per finished hand
        self.state: State | None = None
        self._bets: StreetBets | None = None
        self._seats: tuple[int, ...] = ()  # engine seat of each player this hand
        self._log: list[str] = []
        self.coach: Coach | None = None
        if settings.coach:
            from checkraise.web.coach import Coach

            self.coach = Coach(_derived_seed(settings.seed, 2))
        self._advice: tuple[int, dict[str, Any]] | None = None  # (history length, advice)

    # ----------------------------------------------------------------- seats
    def seat_of(self, player: int, hand_number: int | None = None) -> int:
        """Engine seat of ``player`` in hand ``hand_number`` (default: the current one)."""
        k = self.hands_played if hand_number is None else hand_number
        return (player - k) % self.settings.seats

    @property
    def running(self) -> bool:
        """Whether a hand is being played."""
        return self.state is not None and not self.state.is_terminal

    @property
    def your_turn(self) -> bool:
        """Whether the hand waits for the person."""
        return self.running and self.state is not None and (
            self.state.current_player == self._seats[0])

    # ----------------------------------------------------------------- play
    def deal(self) -> list[dict[str, Any]]:
        """Start the next hand; the bots act up to the person's turn. Returns the steps."""
        if self.running:
            raise TableError(f"hand {self.hands_played + 1} is still being played: finish it "
                             "before dealing the next")
        if self.state is not None:
            self.hands_played += 1
        n = self.settings.seats
        k = self.hands_played
        self._seats = tuple(self.seat_of(p, k) for p in range(n))
        stacks = [0] * n
        for p, seat in enumerate(self._seats):
            stacks[seat] = self.settings.stacks[p]
        config = TableConfig.nolimit(n, stacks=stacks, small_blind=SMALL_BLIND,
                                     big_blind=BIG_BLIND)
        self.state = State(config, rng=random.Random(_derived_seed(self.settings.seed, 0, k)))
        self._bets = StreetBets(config)
        self._log = []
        for p in range(1, n):
            seat = self._seats[p]
            call_begin_hand(self.bots[p - 1], seat, config, tuple(self.state.hole_cards[seat]), k)
        if self.coach is not None:
            self.coach.begin_hand(self._seats[0], config,
                                  tuple(self.state.hole_cards[self._seats[0]]), k)
        labels = _position_labels(n)
        you = labels[self._seats[0]]
        dealt = " ".join(format_card(c) for c in self.state.hole_cards[self._seats[0]])
        steps = [self._step(f"hand {k + 1} (seed {self.settings.seed}): you are {you}, "
                            f"dealt {dealt}")]
        steps += self._run_bots()
        return steps

    def act(self, kind: str, to: int | None = None) -> list[dict[str, Any]]:
        """The person's move: ``fold``, ``check``, ``call`` or ``raise`` (to ``to``, a hand total).

        Raises :class:`TableError` when it is not the person's turn and
        :class:`~checkraise.engine.IllegalActionError` for a move the rules forbid
        now; either way nothing changes.
        """
        if not self.your_turn or self.state is None:
            raise TableError("it is not your turn" if self.running
                             else "no hand is being played: deal one first")
        legal = self.state.legal_actions()
        if kind == "fold":
            action = Action.fold()
            self.state.verify_fold()
        elif kind in ("check", "call"):
            if kind == "check" and legal.call_amount > 0:
                raise IllegalActionError(f"illegal check: {legal.call_amount} to call (call or "
                                         "fold)")
            if kind == "call" and legal.call_amount == 0:
                raise IllegalActionError("illegal call: nothing to call (check instead)")
            action = Action.call()
        elif kind == "raise":
            if isinstance(to, bool) or not isinstance(to, int):
                raise IllegalActionError(f"raise to {to!r}: expected a whole number of chips")
            self.state.verify_raise_to(to)
            action = Action.raise_to(to)
        else:
            raise TableError(f"unknown move {kind!r}; expected fold, check, call or raise")
        steps = [self._apply(0, action)]
        steps += self._run_bots()
        return steps

    def _apply(self, player: int, action: Action) -> dict[str, Any]:
        state, bets = self.state, self._bets
        assert state is not None and bets is not None
        seat = self._seats[player]
        rnd, board_before = state.round, len(state.board)
        state.step(action)
        said = bets.apply(seat, rnd, action)
        text = f"{self.names[player]} {_you(said) if player == 0 else said}"
        if len(state.board) > board_before:
            text += f"; {STREETS[state.round]}: " + " ".join(
                format_card(c) for c in state.board)
        if state.is_terminal:
            text += self._finish()
        return self._step(text)

    def _run_bots(self) -> list[dict[str, Any]]:
        state = self.state
        assert state is not None
        steps: list[dict[str, Any]] = []
        while not state.is_terminal and state.current_player != self._seats[0]:
            seat = state.current_player
            assert seat is not None
            player = self._seats.index(seat)
            action = self.bots[player - 1].act(state.observation(seat))
            if action.kind is ActionKind.RAISE and not state.can_raise_to(action.amount):
                raise TableError(f"bot {self.names[player]} chose an illegal raise to "
                                 f"{action.amount}")  # pragma: no cover - a bug of that bot
            steps.append(self._apply(player, action))
        return steps

    def _finish(self) -> str:
        """Close the hand: the bots' ``end_hand``, the session result, the database."""
        state = self.state
        assert state is not None
        payoffs = state.payoffs()
        for p in range(1, self.settings.seats):
            seat = self._seats[p]
            call_end_hand(self.bots[p - 1], state.observation(seat), payoffs)
        if self.coach is not None:
            self.coach.end_hand(state.observation(self._seats[0]), payoffs)
        mine = Fraction(payoffs[self._seats[0]])
        self.results_bb.append(float(mine / BIG_BLIND))
        winners = [f"{self.names[p]} {_you(word) if p == 0 else word} {abs(_chips(payoffs[s]))}"
                   for p, s in enumerate(self._seats) if payoffs[s] != 0
                   for word in ["wins" if payoffs[s] > 0 else "loses"]]
        text = "; ".join(winners)
        if self._on_hand is not None:
            hand_id = f"{self._prefix}.{self.hands_played + 1}"
            self._on_hand(hand_record(state, self._engine_names(), hand_id,
                                      table=f"web {self.settings.seed}"))
        return (" — " if text else "") + text

    def _engine_names(self) -> list[str]:
        names = [""] * self.settings.seats
        for p, seat in enumerate(self._seats):
            names[seat] = self.names[p]
        return names

    # ----------------------------------------------------------------- views
    def _step(self, text: str) -> dict[str, Any]:
        self._log.append(text)
        return {"log": list(self._log), "view": self.view()}

    def view(self) -> dict[str, Any]:
        """The table as the person sees it (JSON-ready); see the module docstring."""
        n = self.settings.seats
        session = {"hands": len(self.results_bb), "net_bb": round(sum(self.results_bb), 2),
                   "chart": [round(x, 2) for x in np.cumsum(self.results_bb).tolist()]}
        base: dict[str, Any] = {
            "table": self.table_id, "seed": self.settings.seed, "big_blind": BIG_BLIND,
            "session": session, "log": list(self._log),
        }
        state, bets = self.state, self._bets
        if state is None or bets is None:
            players = [{"name": self.names[p], "stack": self.settings.stacks[p]}
                       for p in range(n)]
            return {**base, "hand": 0, "players": players, "board": [], "pot": 0,
                    "street": None, "legal": None, "over": True, "result": None}
        obs = state.observation(self._seats[0])
        bets.enter(obs.round)
        labels = _position_labels(n)
        payoffs = state.payoffs() if obs.is_terminal else None
        players = []
        for p, seat in enumerate(self._seats):
            cards = obs.hole_cards if p == 0 else obs.shown[seat]
            players.append({
                "name": self.names[p],
                "position": labels[seat],
                "button": seat == obs.config.button,
                "stack": obs.stacks[seat],
                "bet": max(0, bets.total[seat] - bets.base) if not obs.is_terminal else 0,
                "folded": obs.folded[seat],
                "all_in": obs.all_in[seat],
                "acting": obs.current_player == seat,
                "cards": None if cards is None else [format_card(c) for c in cards],
                "net": None if payoffs is None else _chips(payoffs[seat]),
            })
        return {
            **base,
            "hand": self.hands_played + 1,
            "players": players,
            "board": [format_card(c) for c in obs.board],
            "pot": obs.pot,
            "street": STREETS[min(obs.round, 3)],
            "legal": _legal_view(obs, bets.base) if obs.legal is not None else None,
            "coach": self._coach_view(obs),
            "over": obs.is_terminal,
            "result": None if payoffs is None else {
                "you": _chips(payoffs[self._seats[0]]),
                "you_bb": float(Fraction(payoffs[self._seats[0]]) / BIG_BLIND),
            },
        }


    def _coach_view(self, obs: Observation) -> dict[str, Any] | None:
        """The coach's advice at the person's turn (computed once per decision)."""
        if self.coach is None or obs.legal is None:
            return None
        key = len(obs.history)
        if self._advice is None or self._advice[0] != key:
            names = {seat: self.names[p] for p, seat in enumerate(self._seats)}
            self._advice = (key, self.coach.advice(obs, names))
        return self._advice[1]


def _legal_view(obs: Observation, base: int) -> dict[str, Any]:
    """The person's choices: amounts as hand totals (``to``) and this street's (``base``)."""
    legal = obs.legal
    assert legal is not None
    presets: list[dict[str, Any]] = []
    low, high = legal.min_raise_to, legal.max_raise_to
    if low is not None and high is not None:
        # The minimum, then the pot fractions strictly between it and all-in, then all-in.
        presets.append({"label": "min", "to": low})
        level = max(obs.contributions)
        for num, den in POT_FRACTIONS:
            to = level + (obs.pot + legal.call_amount) * num // den
            if low < to < high:
                presets.append({"label": "pot" if num == den else f"{num}/{den} pot", "to": to})
        if high > low:
            presets.append({"label": "all-in", "to": high})
    return {
        "fold": legal.call_amount > 0,
        "check": legal.call_amount == 0,
        "call": legal.call_amount,
        "min_to": legal.min_raise_to,
        "max_to": legal.max_raise_to,
        "base": base,
        "opened": max(obs.contributions) > base,
        "presets": presets,
    }


def hand_record(state: State, names: Sequence[str], hand_id: str, table: str) -> HandRecord:
    """A finished hand as the hand database stores it (the arena's logs' way).

    The hand goes through its ACPC ``STATE`` line and the histories reader, which
    replays it and checks the payout, so it is stored exactly as ``hands import``
    would store the same hand read from a log.
    """
    from dataclasses import replace

    from checkraise.arena.table import log_names
    from checkraise.histories.acpc_log import record_from_state
    from checkraise.protocol.matchstate import parse_state_line

    line = state.acpc_state_line(0, log_names(names))
    record = record_from_state(parse_state_line(line), state.config)
    return replace(record, site="web", hand_id=hand_id, table=table, source="checkraise serve")
