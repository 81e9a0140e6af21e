"""A human seat: the table, the legal actions with amounts, and the showdown at the terminal.

The human is an agent like any other (:mod:`checkraise.agents.base`): ``act``
prints the table and asks for a move until the answer is legal, so a typo is
asked again, never fatal. Moves: ``f`` fold, ``c``/``k`` check or call,
``r 300`` raise (or bet) to a total of 300 for the hand, ``a`` all-in, ``q`` quit,
``?`` help. ``end_hand`` prints the board, the cards shown and who won what.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from checkraise.agents.base import BaseAgent
from checkraise.cards import format_cards
from checkraise.engine import Action, ActionKind

if TYPE_CHECKING:
    from checkraise.engine import LegalActions, Observation, TableConfig

__all__ = ["HELP", "HumanAgent", "QuitGame", "parse_move"]

HELP = (
    "moves: f = fold, c or k = check/call, r N = raise (or bet) to a total of N this hand, "
    "a = all-in, q = quit, ? = this help"
)

_STREETS = ("preflop", "flop", "turn", "river")


class QuitGame(Exception):
    """The human asked to leave the table."""


def _position(seat: int, n: int) -> str:
    if n == 2:
        return "BTN/SB" if seat == 0 else "BB"
    return {0: "SB", 1: "BB", n - 1: "BTN"}.get(seat, f"UTG+{seat - 2}" if seat > 2 else "UTG")


def parse_move(text: str, legal: LegalActions) -> Action | str:
    """The action that ``text`` asks for, or a message saying why it is not legal.

    Examples
    --------
    >>> from checkraise.engine import LegalActions
    >>> legal = LegalActions(True, False, 40, 80, 2000)
    >>> parse_move("r 120", legal)
    Action(kind=<ActionKind.RAISE: 'raise'>, amount=120)
    >>> parse_move("r 50", legal)
    'raise to must be between 80 and 2000, got 50'
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
            return "raising is not allowed now"
        if not amount_text.isdigit():
            return (
                f"say how much to raise to, e.g. 'r {legal.min_raise_to}' "
                f"({legal.min_raise_to}..{legal.max_raise_to})"
            )
        amount = int(amount_text)
        if not legal.min_raise_to <= amount <= legal.max_raise_to:
            return (
                f"raise to must be between {legal.min_raise_to} and {legal.max_raise_to}, "
                f"got {amount}"
            )
        return Action.raise_to(amount)
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

    def show_table(self, observation: Observation) -> None:
        """Print the seats, stacks, chips in, the board and the actions so far."""
        n = observation.config.num_players
        for s in range(n):
            state = "folded" if observation.folded[s] else (
                "all-in" if observation.all_in[s] else ""
            )
            mark = ">" if s == observation.current_player else " "
            self.say(
                f" {mark} {_position(s, n):<7} {self._name(s):<16} stack {observation.stacks[s]:>6}"
                f"  in pot {observation.contributions[s]:>6}  {state}"
            )
        board = format_cards(observation.board) if observation.board else "-"
        self.say(f"   {_STREETS[min(observation.round, 3)]}: board {board}, pot {observation.pot}")
        news = self.narrate(observation, self._seen)
        if news:
            self.say("   since your last move: " + "; ".join(news))

    def narrate(self, observation: Observation, start: int = 0) -> list[str]:
        """Public actions from ``observation.history[start:]`` in words ("Bob raises to 120")."""
        config = observation.config
        contributed = list(config.blinds)
        level = max(contributed)
        words: list[str] = []
        current_round = 0
        for i, (seat, rnd, action) in enumerate(observation.history):
            if rnd != current_round:
                current_round, level = rnd, max(contributed)
                if i >= start:
                    words.append(f"[{_STREETS[min(rnd, 3)]}]")
            if action.kind is ActionKind.FOLD:
                text = "folds"
            elif action.kind is ActionKind.RAISE:
                text = f"raises to {action.amount}"
                contributed[seat] = level = action.amount
            elif contributed[seat] < level:
                text = f"calls {level - contributed[seat]}"
                contributed[seat] = level
            else:
                text = "checks"
            if i >= start:
                words.append(f"{self._name(seat)} {text}")
        return words

    def act(self, observation: Observation) -> Action:
        """Show the table and the legal moves, ask until the answer is legal."""
        legal = observation.legal
        if legal is None:
            raise ValueError(f"human asked to act for seat {observation.seat} out of turn")
        self.show_table(observation)
        self.say(f"   your cards: {format_cards(observation.hole_cards)}")
        options = []
        if legal.call_amount > 0 and legal.can_fold:
            options.append("[f]old")
        options.append(f"[c]all {legal.call_amount}" if legal.call_amount else "[c]heck")
        if legal.min_raise_to is not None and legal.max_raise_to is not None:
            options.append(f"[r]aise to {legal.min_raise_to}..{legal.max_raise_to}")
            options.append(f"[a]ll-in {legal.max_raise_to}")
        options.append("[q]uit")
        prompt = "   " + ", ".join(options) + " > "
        while True:
            try:
                answer = self.ask(prompt)
            except EOFError:
                raise QuitGame from None
            move = parse_move(answer, legal)
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
