"""A postflop spot as a ``games/`` game: the slow, independent twin of the spot solver.

Built from the rules in the spot's documentation, not from ``solvers/spot/tree.py``:
chance deals OOP's hand, then IP's hand from those that do not share a card with it
(so each pair of hands comes with probability proportional to the product of their
weights), then the betting of each street, a chance node dealing every card still
in the deck for the turn and the river, and a showdown ranked by the naive
evaluator of ``tests/naive.py``. The tabular solvers and the exact best response
of :mod:`checkraise.solvers` then solve it like Kuhn or Leduc poker.

Actions are integers: ``0`` fold, ``1`` check or call, ``2 + t`` bet or raise to a
street total of ``t`` chips. Returns are zero-sum: the spot solver's values (the
winner gets the starting pot plus what the other put in, the loser loses what he
put in) minus half the starting pot.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cache, cached_property

from checkraise.cards import COMBO_CARDS, format_card
from checkraise.games.base import CHANCE, TERMINAL, Game, IllegalActionError, State
from checkraise.ranges import Range
from tests.naive import naive_rank

FOLD = 0
CALL = 1
BET = 2  # + street total


@cache
def _rank(board: tuple[int, ...], hand: tuple[int, int]) -> tuple[int, ...]:
    return naive_rank([*board, *hand])


@dataclass(frozen=True)
class SpotGameState(State):
    """One history: hands dealt, board, and the betting state of the street."""

    game: SpotGame = field(repr=False, compare=False)
    board: tuple[int, ...]
    street_pot: int  # chips in the middle when the street started
    behind: int  # each player's chips behind when the street started
    hands: tuple[int, ...] = ()  # combo indices, OOP's then IP's
    bets: tuple[int, int] = (0, 0)  # street totals
    last_raise: int = 0
    raises: int = 0
    to_act: int = 0
    dealing: bool = False  # a turn or river card comes next
    folded: int = -1
    showdown: bool = False
    line: tuple[str, ...] = ()  # the public actions and cards, as the solver spells them

    # ------------------------------------------------------------ the rules
    def current_player(self) -> int:
        if len(self.hands) < 2 or self.dealing:
            return CHANCE
        if self.folded >= 0 or self.showdown:
            return TERMINAL
        return self.to_act

    def _cards(self, hand: int) -> tuple[int, int]:
        a, b = COMBO_CARDS[hand]
        return int(a), int(b)

    def _dead(self) -> set[int]:
        dead = set(self.board)
        for hand in self.hands:
            dead.update(self._cards(hand))
        return dead

    def _raise_totals(self) -> list[int]:
        """Street totals the actor may bet or raise to."""
        g = self.game
        actor = self.to_act
        mine, theirs = self.bets[actor], self.bets[1 - actor]
        facing = theirs - mine
        if theirs >= self.behind or (facing > 0 and self.raises >= g.raise_cap):
            return []
        pot = self.street_pot + self.bets[0] + self.bets[1]
        if theirs == 0:
            wanted = [round(pct / 100 * pot) for pct in g.bet_sizes]
        else:
            wanted = [theirs + round(pct / 100 * (pot + facing)) for pct in g.raise_sizes]
        least = theirs + max(self.last_raise, g.big_blind)
        totals = {self._allin_if_short(min(max(t, least), self.behind)) for t in wanted}
        if g.allin:
            totals.add(self.behind)
        return sorted(totals)

    def _allin_if_short(self, total: int) -> int:
        """All-in when the call would leave less than the threshold times the pot behind."""
        pot_once_called = self.street_pot + 2 * total
        if self.behind - total < self.game.allin_threshold * pot_once_called:
            return self.behind
        return total

    def legal_actions(self) -> list[int]:
        player = self.current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        facing = self.bets[1 - player] > self.bets[player]
        first = [FOLD, CALL] if facing else [CALL]
        return first + [BET + t for t in self._raise_totals()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.current_player() != CHANCE:
            return []
        g = self.game
        if not self.hands:
            total = sum(g.oop[h] * g.compatible_mass(h) for h in g.oop)
            return [(h, g.oop[h] * g.compatible_mass(h) / total) for h in g.oop
                    if g.compatible_mass(h) > 0]
        if len(self.hands) == 1:
            mine = set(self._cards(self.hands[0]))
            live = {o: w for o, w in g.ip.items() if not mine & set(self._cards(o))}
            total = sum(live.values())
            return [(o, w / total) for o, w in live.items()]
        left = [c for c in range(52) if c not in self._dead()]
        return [(c, 1.0 / len(left)) for c in left]

    def information_set_key(self, player: int | None = None) -> str:
        seat = self.current_player() if player is None else player
        return f"{seat}|{self.hands[seat]}|{' '.join(self.line)}"

    def _committed(self, player: int) -> int:
        """Chips ``player`` put in since the spot started."""
        return (self.street_pot - self.game.pot) // 2 + self.bets[player]

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        pot = self.game.pot
        if self.folded >= 0:
            loser = self.folded
        else:
            rank = [_rank(self.board, self._cards(h)) for h in self.hands]
            loser = -1 if rank[0] == rank[1] else (0 if rank[0] < rank[1] else 1)
        if loser < 0:
            return [0.0, 0.0]
        out = [0.0, 0.0]
        out[loser] = -self._committed(loser) - pot / 2
        out[1 - loser] = pot / 2 + self._committed(loser)
        return out

    def child(self, action: int) -> SpotGameState:
        if self.dealing:
            if action in self._dead() or not 0 <= action < 52:
                raise IllegalActionError(f"card {action!r} cannot be dealt in {self!r}")
        else:
            self.check_action(action)
        if len(self.hands) < 2:
            return replace(self, hands=(*self.hands, action))
        if self.dealing:
            dealt = replace(self, board=(*self.board, action), dealing=False,
                            line=(*self.line, format_card(action)))
            # Nobody has chips left: the board runs out without betting.
            return dealt._close_street() if dealt.behind == 0 else dealt
        actor = self.to_act
        mine, theirs = self.bets[actor], self.bets[1 - actor]
        if action == FOLD:
            return replace(self, folded=actor, line=(*self.line, "f"))
        if action == CALL:
            if theirs > mine:
                bets = (theirs, theirs)
                return replace(self, bets=bets, line=(*self.line, "c"))._close_street()
            if actor == 1:
                return replace(self, line=(*self.line, "x"))._close_street()
            return replace(self, to_act=1, line=(*self.line, "x"))
        total = action - BET
        bets = (total, theirs) if actor == 0 else (theirs, total)
        return replace(
            self, bets=bets, last_raise=max(self.last_raise, total - theirs),
            raises=self.raises + (1 if theirs > 0 else 0), to_act=1 - actor,
            line=(*self.line, f"{'r' if theirs > 0 else 'b'}{total}"),
        )

    def _close_street(self) -> SpotGameState:
        """Both players have put in the same: showdown on the river, else the next card."""
        if len(self.board) == 5:
            return replace(self, showdown=True)
        put = self.bets[0]
        return replace(self, street_pot=self.street_pot + 2 * put, behind=self.behind - put,
                       bets=(0, 0), last_raise=0, raises=0, to_act=0, dealing=True)


class SpotGame(Game):
    """A heads-up postflop spot with one list of sizes for every street and player.

    Parameters
    ----------
    board : tuple of int
        Three to five cards.
    pot, stack : int
        Chips in the pot and behind each player when the spot starts.
    oop_range, ip_range : str
        Ranges in :mod:`checkraise.ranges` notation.
    bet_sizes, raise_sizes : tuple of float
        % of the pot (a raise first calls, then adds this % of the pot).
    allin : bool
        Whether all-in is always an action.
    raise_cap : int
        Raises per street after the first bet.
    big_blind : int
        The smallest bet and raise.
    allin_threshold : float
        A bet or raise that would leave less than this fraction of the pot (once
        called) behind is all-in.
    """

    name = "spot_oracle"

    def __init__(self, board: tuple[int, ...], pot: int, stack: int, oop_range: str,
                 ip_range: str, bet_sizes: tuple[float, ...], raise_sizes: tuple[float, ...],
                 allin: bool, raise_cap: int = 3, big_blind: int = 1,
                 allin_threshold: float = 0.0) -> None:
        self.board = board
        self.pot = pot
        self.stack = stack
        self.bet_sizes = bet_sizes
        self.raise_sizes = raise_sizes
        self.allin = allin
        self.raise_cap = raise_cap
        self.big_blind = big_blind
        self.allin_threshold = allin_threshold
        on_board = set(board)
        self.oop = self._hands(oop_range, on_board)
        self.ip = self._hands(ip_range, on_board)

    @staticmethod
    def _hands(text: str, on_board: set[int]) -> dict[int, float]:
        weights = Range(text).weights
        return {h: float(weights[h]) for h in range(1326)
                if weights[h] > 0 and not on_board & {int(c) for c in COMBO_CARDS[h]}}

    @cached_property
    def _mass(self) -> dict[int, float]:
        out = {}
        for h in self.oop:
            mine = {int(c) for c in COMBO_CARDS[h]}
            out[h] = sum(w for o, w in self.ip.items()
                         if not mine & {int(c) for c in COMBO_CARDS[o]})
        return out

    def compatible_mass(self, hand: int) -> float:
        """IP's weight that can be dealt beside OOP's ``hand``."""
        return self._mass[hand]

    @property
    def num_players(self) -> int:
        return 2

    @property
    def num_distinct_actions(self) -> int:
        return BET + self.stack + 1

    def initial_state(self) -> SpotGameState:
        return SpotGameState(self, self.board, self.pot, self.stack)

    def action_name(self, action: int) -> str:
        return ("fold", "check/call")[action] if action < BET else f"to {action - BET}"

    def label(self, action: int, facing: bool) -> str:
        """The spot solver's label of ``action``."""
        if action == FOLD:
            return "f"
        if action == CALL:
            return "c" if facing else "x"
        return f"{'r' if facing else 'b'}{action - BET}"
