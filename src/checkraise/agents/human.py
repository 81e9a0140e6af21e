"""A human seat: the table, the legal actions with amounts, and the showdown at the terminal.

The human is an agent like any other (:mod:`checkraise.agents.base`): ``act``
prints the table and asks for a move until the answer is legal, so a typo is
asked again, never fatal. Moves: ``f`` fold, ``c``/``k`` check or call,
``b 100`` bet, ``r 300`` raise to, ``a`` all-in, ``q`` quit, ``?`` help.
``end_hand`` prints the board, the cards shown and who won what.

Amounts are spoken the way card rooms and PokerStars speak them, per street:
"bet X" when nobody has bet on this street yet, "raise to X" where X is the
player's total for *this street* when facing a bet (preflop the blinds count as
bets), "call X" with the chips put in. The engine's raise amounts are ACPC
totals for the whole hand (antes excluded); :class:`StreetBets` converts between
the two, and only :func:`parse_move` and the engine see hand totals.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from checkraise.agents.base import BaseAgent
from checkraise.cards import format_cards
from checkraise.engine import Action, ActionKind
from checkraise.errors import ConfigError

if TYPE_CHECKING:
    from checkraise.engine import LegalActions, Observation, TableConfig

__all__ = ["HELP", "HumanAgent", "QuitGame", "StreetBets", "parse_move"]

HELP = (
    "moves: f = fold, c or k = check/call, b N = bet N, r N = raise to N "
    "(amounts count this street only, as in a card room), a = all-in, q = quit, ? = this help"
)

_STREETS = ("preflop", "flop", "turn", "river")


class QuitGame(Exception):
    """The human asked to leave the table."""


def _position(seat: int, n: int) -> str:
    if n == 2:
        return "BTN/SB" if seat == 0 else "BB"
    return {0: "SB", 1: "BB", n - 1: "BTN"}.get(seat, f"UTG+{seat - 2}" if seat > 2 else "UTG")


class StreetBets:
    """The chips of one hand replayed from the blinds through the public actions.

    Keeps each seat's hand total (antes excluded, as the engine's raise amounts
    count) and the level at the start of the current street, so an engine
    raise-to total ``T`` reads as ``T - base`` on this street.

    Parameters
    ----------
    config
        The hand's table configuration (stacks, blinds, ante).

    Examples
    --------
    >>> from checkraise.engine import Action, TableConfig
    >>> bets = StreetBets(TableConfig.nolimit(2, 1000, 10, 20))
    >>> bets.apply(0, 0, Action.raise_to(60)), bets.apply(1, 0, Action.call())
    ('raises to 60', 'calls 40')
    >>> bets.apply(1, 1, Action.raise_to(100)), bets.apply(0, 1, Action.raise_to(1000))
    ('bets 40', 'raises to 940, all-in')
    """

    def __init__(self, config: TableConfig) -> None:
        self.stack = [s - min(config.ante, s) for s in config.stacks]
        self.total = [min(b, s) for b, s in zip(config.blinds, self.stack, strict=True)]
        self.stack = [s - t for s, t in zip(self.stack, self.total, strict=True)]
        self.round = 0
        self.base = 0  # hand total of every live seat when this street began (0 preflop)

    @property
    def level(self) -> int:
        """The highest hand total so far (what a call matches)."""
        return max(self.total)

    @property
    def opened(self) -> bool:
        """Whether someone has bet on this street (preflop the blinds count)."""
        return self.level > self.base

    def street(self, hand_total: int) -> int:
        """A hand total as a total for this street."""
        return hand_total - self.base

    def enter(self, rnd: int) -> None:
        """Move on to betting round ``rnd`` (no-op if already there)."""
        if rnd != self.round:
            self.round, self.base = rnd, self.level

    def apply(self, seat: int, rnd: int, action: Action) -> str:
        """Apply one public action and say it in street amounts ("bets 200")."""
        self.enter(rnd)
        if action.kind is ActionKind.FOLD:
            return "folds"
        if action.kind is ActionKind.RAISE:
            pay = action.amount - self.total[seat]
            word = "raises to" if self.opened else "bets"
            text = f"{word} {self.street(action.amount)}"
        else:
            pay = min(self.level - self.total[seat], self.stack[seat])
            if pay <= 0:
                return "checks"
            text = f"calls {pay}"
        self.total[seat] += pay
        self.stack[seat] -= pay
        return text + (", all-in" if self.stack[seat] == 0 else "")


def parse_move(text: str, legal: LegalActions, base: int = 0, opened: bool = True) -> Action | str:
    """The action that ``text`` asks for, or a message saying why it is not legal.

    Typed amounts count this street only: ``b N`` bets N, ``r N`` raises to N
    (either word works either way); ``base`` is the seat's hand total when the
    street began (0 preflop) and turns them into the engine's hand totals.
    ``opened`` says whether there is a bet to raise (only the wording depends on it).

    Examples
    --------
    >>> from checkraise.engine import LegalActions
    >>> legal = LegalActions(True, False, 40, 80, 2000)
    >>> parse_move("r 120", legal)
    Action(kind=<ActionKind.RAISE: 'raise'>, amount=120)
    >>> parse_move("r 50", legal)
    'raise to must be between 80 and 2000, got 50'
    >>> parse_move("b 100", LegalActions(True, True, 0, 540, 2000), base=500, opened=False)
    Action(kind=<ActionKind.RAISE: 'raise'>, amount=600)
    >>> parse_move("x", legal).startswith("unknown move 'x'; moves: f = fold")
    True
    """
    words = text.strip().lower().replace("=", " ").split()
    if not words:
        return "type a move (? for help)"
    head, rest = words[0], words[1:]
    if head in ("q", "quit", "exit"):
        raise QuitGame
    if head in ("?", "h", "help"):
        return HELP
    if head in ("f", "fold"):
        if legal.call_amount == 0:
            return "nothing to call: check (c) instead of folding"
        if not legal.can_fold:
            return "folding is not allowed now"
        return Action.fold()
    if head in ("c", "k", "call", "check"):
        return Action.call()
    if head in ("a", "allin", "all-in", "shove"):
        if legal.max_raise_to is None:
            return Action.call()
        return Action.raise_to(legal.max_raise_to)
    if head[0] in "rb" and head.rstrip("0123456789") in ("r", "b", "raise", "bet"):
        amount_text = head.lstrip("raisebt") or (rest[0] if rest else "")
        if legal.min_raise_to is None or legal.max_raise_to is None:
            return "raising is not allowed now" if opened else "betting is not allowed now"
        low, high = legal.min_raise_to - base, legal.max_raise_to - base
        word, short = ("raise to", "r") if opened else ("bet", "b")
        if not amount_text.isdigit():
            return f"say how much, e.g. '{short} {low}' ({low}..{high})"
        amount = int(amount_text)
        if not low <= amount <= high:
            return f"{word} must be between {low} and {high}, got {amount}"
        return Action.raise_to(amount + base)
    return f"unknown move {text.strip()!r}; {HELP}"


class HumanAgent(BaseAgent):
    """Ask a person at the terminal for each move.

    Parameters
    ----------
    seed : int or None
        Unused (a person brings their own randomness); accepted for the registry.
    ask : callable
        ``ask(prompt) -> str`` reads one answer (default :func:`input`);
        end of input means quit.
    say : callable
        ``say(text)`` prints one line (default :func:`print`).
    """

    interactive = True

    def __init__(
        self,
        *,
        seed: int | None = None,
        ask: Callable[[str], str] | None = None,
        say: Callable[[str], None] | None = None,
    ) -> None:
        super().__init__(seed=seed)
        self.ask: Callable[[str], str] = ask if ask is not None else input
        self.say: Callable[[str], None] = say if say is not None else print
        self.names: list[str] | None = None
        self.seat = 0
        self._seen = 0

    def set_names(self, names: Sequence[str]) -> None:
        """Names of the players in engine seat order for the coming hand (for display)."""
        self.names = list(names)

    def _name(self, seat: int) -> str:
        if seat == self.seat:
            return "you"
        if self.names is not None and seat < len(self.names):
            return self.names[seat]
        return f"seat {seat}"

    def begin_hand(
        self, seat: int, config: TableConfig, hole_cards: tuple[int, ...], hand_number: int
    ) -> None:
        """Announce the hand, the seat and the cards."""
        self.seat = seat
        self._seen = 0
        n = config.num_players
        self.say("")
        self.say(
            f"=== Hand {hand_number + 1}: {n} players, you are {_position(seat, n)} "
            f"with {format_cards(hole_cards)} ==="
        )

    def _replay(self, observation: Observation) -> tuple[StreetBets, list[str]]:
        """The chips after every public action so far, and each action in words."""
        bets = StreetBets(observation.config)
        words: list[str] = []
        for seat, rnd, action in observation.history:
            text = bets.apply(seat, rnd, action)
            if seat == self.seat:  # "you raise to 120", not "you raises"
                verb, _, rest = text.partition(" ")
                text = f"{verb.removesuffix('s')} {rest}".rstrip()
            words.append(f"{self._name(seat)} {text}")
        bets.enter(observation.round)
        return bets, words

    def show_table(self, observation: Observation) -> None:
        """Print the seats, stacks, this street's bets, the board and the actions so far."""
        bets, _ = self._replay(observation)
        n = observation.config.num_players
        for s in range(n):
            state = "folded" if observation.folded[s] else (
                "all-in" if observation.all_in[s] else ""
            )
            mark = ">" if s == observation.current_player else " "
            bet = max(bets.street(bets.total[s]), 0)
            self.say(
                f" {mark} {_position(s, n):<7} {self._name(s):<16} stack {observation.stacks[s]:>6}"
                f"  bet {bet:>6}  {state}"
            )
        board = format_cards(observation.board) if observation.board else "-"
        self.say(f"   {_STREETS[min(observation.round, 3)]}: board {board}, pot {observation.pot}")
        news = self.narrate(observation, self._seen)
        if news:
            self.say("   since your last move: " + "; ".join(news))

    def narrate(self, observation: Observation, start: int = 0) -> list[str]:
        """Public actions from ``observation.history[start:]`` in words, street amounts.

        A new street is marked ``[flop]`` etc.; amounts read as at a card room:
        "Bob bets 200", "Ann raises to 600", "Bob calls 400".
        """
        _, words = self._replay(observation)
        out: list[str] = []
        last_round = observation.history[start - 1][1] if 0 < start <= len(words) else 0
        for (_, rnd, _), text in zip(observation.history[start:], words[start:], strict=True):
            if rnd != last_round:
                out.append(f"[{_STREETS[min(rnd, 3)]}]")
                last_round = rnd
            out.append(text)
        return out

    def act(self, observation: Observation) -> Action:
        """Show the table and the legal moves in street amounts, ask until the answer is legal."""
        legal = observation.legal
        if legal is None:
            raise ConfigError(f"human asked to act for seat {observation.seat} out of turn")
        self.show_table(observation)
        self.say(f"   your cards: {format_cards(observation.hole_cards)}")
        bets, _ = self._replay(observation)
        options = []
        if legal.call_amount > 0 and legal.can_fold:
            options.append("[f]old")
        options.append(f"[c]all {legal.call_amount}" if legal.call_amount else "[c]heck")
        if legal.min_raise_to is not None and legal.max_raise_to is not None:
            low, high = bets.street(legal.min_raise_to), bets.street(legal.max_raise_to)
            span = f"{low}..{high}" if low < high else f"{high}"
            options.append(f"[r]aise to {span}" if bets.opened else f"[b]et {span}")
            options.append(f"[a]ll-in {high}")
        options.append("[q]uit")
        prompt = "   " + ", ".join(options) + " > "
        while True:
            try:
                answer = self.ask(prompt)
            except EOFError:
                raise QuitGame from None
            move = parse_move(answer, legal, bets.base, bets.opened)
            if isinstance(move, Action):
                self._seen = len(observation.history) + 1
                return move
            self.say("   " + move)
    def end_hand(self, observation: Observation, payoffs: tuple[int | Fraction, ...]) -> None:
        """Print the last actions, the board, the showdown and each player's result."""
        news = self.narrate(observation, self._seen)
        if news:
            self.say("   then: " + "; ".join(news))
        if observation.board:
            self.say(f"   board: {format_cards(observation.board)}")
        shown = [(s, c) for s, c in enumerate(observation.shown) if c is not None]
        if shown:
            parts = [f"{self._name(s)} shows {format_cards(c)}" for s, c in shown]
            if not observation.folded[observation.seat]:
                parts.insert(0, f"you show {format_cards(observation.hole_cards)}")
            self.say("   showdown: " + ", ".join(parts))
        results = ", ".join(
            f"{self._name(s)} {'+' if p > 0 else ''}{p}" for s, p in enumerate(payoffs) if p
        )
        self.say(f"   result: {results or 'no chips moved'}")
