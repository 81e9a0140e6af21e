"""Text and JSON forms of a hand: ACPC betting/MATCHSTATE/STATE strings, JSON, PokerStars text.

The ACPC forms follow protocol 2.0.0 (``shared/ACPC.md``): rounds separated by
``/``, ``r<N>`` raise to a hand total (bare ``r`` in limit games), cards as rank
and suit letters. The PokerStars text follows the layout of PokerStars hand
histories (seat lines, ``*** HOLE CARDS ***``, ``raises X to Y``, ``*** SUMMARY ***``).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from checkraise.cards import format_card
from checkraise.engine.actions import Action, ActionEvent, ActionKind, DealEvent
from checkraise.engine.config import Betting, TableConfig
from checkraise.errors import ConfigError, FormatError

if TYPE_CHECKING:
    from checkraise.engine.state import State

__all__ = [
    "acpc_betting",
    "acpc_cards",
    "acpc_matchstate",
    "acpc_state_line",
    "format_chips",
    "from_json",
    "to_json",
    "to_pokerstars",
]

JSON_VERSION = 1


def acpc_betting(state: State) -> str:
    """The ACPC betting string of ``state``."""
    limit = state._cfg.betting is Betting.LIMIT
    parts: list[str] = []
    rnd = 0
    for e in state._history:
        if isinstance(e, ActionEvent):
            while rnd < e.round:
                parts.append("/")
                rnd += 1
            a = e.action
            parts.append("r" if limit and a.kind is ActionKind.RAISE else str(a))
    while rnd < state._round:
        parts.append("/")
        rnd += 1
    return "".join(parts)


def _cards_text(cards: Sequence[int]) -> str:
    return "".join(format_card(c) for c in cards)


def acpc_cards(state: State, seat: int | None) -> str:
    """Hole cards (of ``seat`` and shown seats, or all if ``seat`` is None) and the board."""
    cfg = state._cfg
    n, h = state._n, cfg.hole_cards
    shown = state.shown()
    cards = state._cards
    holes = "|".join(
        _cards_text(cards[i * h:(i + 1) * h]) if seat is None or i == seat or shown[i] else ""
        for i in range(n)
    )
    out = [holes]
    pos = n * h
    for r in range(state._round + 1):
        k = cfg.board_cards[r]
        if r > 0 or k:
            out.append("/" + _cards_text(cards[pos:pos + k]))
        pos += k
    return "".join(out)


def acpc_matchstate(state: State, seat: int, hand_number: int) -> str:
    """``MATCHSTATE`` line as the dealer sends it to ``seat``."""
    if not 0 <= seat < state._n:
        raise ConfigError(f"seat must be 0..{state._n - 1}, got {seat!r}")
    return f"MATCHSTATE:{seat}:{hand_number}:{acpc_betting(state)}:{acpc_cards(state, seat)}"


def format_chips(value: int | Fraction) -> str:
    """Chips as the ACPC dealer prints them: ints plainly, exact halves as ``.5``.

    Examples
    --------
    >>> format_chips(Fraction(13691, 2)), format_chips(-20000)
    ('6845.5', '-20000')
    """
    if isinstance(value, int) or value.denominator == 1:
        return str(int(value))
    text = f"{float(value):.6f}".rstrip("0")
    return text.rstrip(".")


def acpc_state_line(state: State, hand_number: int, names: Sequence[str]) -> str:
    """Dealer-log ``STATE`` line of a finished hand."""
    if len(names) != state._n:
        raise ConfigError(f"names must list {state._n} players, got {list(names)!r}")
    nets = "|".join(format_chips(v) for v in state.payoffs())
    return (f"STATE:{hand_number}:{acpc_betting(state)}:{acpc_cards(state, None)}:{nets}:"
            + "|".join(names))


def to_json(state: State) -> dict[str, Any]:
    """JSON-ready dict: config, every card of the deal, the actions."""
    acts = [str(e.action) for e in state._history if isinstance(e, ActionEvent)]
    return {
        "version": JSON_VERSION,
        "config": state._cfg.to_json(),
        "cards": list(state._cards),
        "actions": acts,
    }


def from_json(d: dict[str, Any]) -> State:
    """Rebuild a state from :func:`to_json` output."""
    from checkraise.engine.state import State

    if d.get("version") != JSON_VERSION:
        raise FormatError(f"unsupported hand JSON version {d.get('version')!r}, "
                         f"expected {JSON_VERSION}")
    try:
        cfg = TableConfig.from_json(d["config"])
        state = State(cfg, deck=d["cards"])
        actions = d["actions"]
    except KeyError as exc:
        raise FormatError(f"hand JSON lacks the field {exc.args[0]!r}") from None
    for text in actions:
        state.step(Action.parse(text))
    return state


_STREETS = ("FLOP", "TURN", "RIVER")


def to_pokerstars(state: State, hand_id: int, names: Sequence[str] | None, table: str,
                  date: str = "2000/01/01 00:00:00") -> str:
    """PokerStars-style hand history text of ``state``."""
    cfg = state._cfg
    n = state._n
    who = list(names) if names is not None else [f"Player{i + 1}" for i in range(n)]
    if len(who) != n:
        raise ConfigError(f"names must list {n} players, got {who!r}")
    sb = sorted(b for b in cfg.blinds if b)
    small, big = (sb[0], sb[-1]) if sb else (0, 0)
    game = "No Limit" if cfg.betting is Betting.NOLIMIT else "Limit"
    lines = [
        f"PokerStars Hand #{hand_id}: Hold'em {game} ({small}/{big}) - {date} ET",
        f"Table '{table}' {max(n, 2)}-max Seat #{cfg.button + 1} is the button",
    ]
    lines += [f"Seat {i + 1}: {who[i]} ({cfg.stacks[i]} in chips)" for i in range(n)]
    stack = list(cfg.stacks)
    if cfg.ante:
        for i in range(n):
            paid = min(cfg.ante, stack[i])
            stack[i] -= paid
            lines.append(f"{who[i]}: posts the ante {paid}")
    bet = [0] * n
    order = sorted(range(n), key=lambda i: (cfg.blinds[i], i))
    for i in order:
        b = min(cfg.blinds[i], stack[i])
        if b:
            stack[i] -= b
            bet[i] = b
            kind = "big blind" if cfg.blinds[i] == big and small != big else "small blind"
            lines.append(f"{who[i]}: posts {kind} {b}" + (" and is all-in" if not stack[i] else ""))
    lines.append("*** HOLE CARDS ***")
    for i, hc in enumerate(state.hole_cards):
        lines.append(f"Dealt to {who[i]} [{' '.join(format_card(c) for c in hc)}]")
    board: list[int] = []
    base = [0] * n
    street_max = max(bet)
    for e in state._history:
        if isinstance(e, DealEvent):
            prior = " ".join(format_card(c) for c in board)
            board += e.cards
            new = " ".join(format_card(c) for c in e.cards)
            name = _STREETS[min(e.round, 3) - 1] if e.round else "BOARD"
            shown_before = f" [{prior}]" if prior else ""
            lines.append(f"*** {name} ***{shown_before} [{new}]")
            base = [b + t for b, t in zip(base, bet, strict=True)]
            bet = [0] * n
            street_max = 0
            continue
        p, a = e.seat, e.action
        if a.kind is ActionKind.FOLD:
            lines.append(f"{who[p]}: folds")
        elif a.kind is ActionKind.CHECK_CALL:
            pay = min(street_max - bet[p], stack[p])
            if pay <= 0:
                lines.append(f"{who[p]}: checks")
            else:
                stack[p] -= pay
                bet[p] += pay
                tail = " and is all-in" if not stack[p] else ""
                lines.append(f"{who[p]}: calls {pay}{tail}")
        else:
            to_street = a.amount - base[p]
            pay = to_street - bet[p]
            stack[p] -= pay
            bet[p] = to_street
            tail = " and is all-in" if not stack[p] else ""
            if street_max == 0:
                lines.append(f"{who[p]}: bets {to_street}{tail}")
            else:
                lines.append(f"{who[p]}: raises {to_street - street_max} to {to_street}{tail}")
            street_max = to_street
    if state.is_terminal:
        lines += _pokerstars_summary(state, who, board)
    return "\n".join(lines) + "\n"


def _spaced(cards: Sequence[int]) -> str:
    return " ".join(format_card(c) for c in cards)


def _pokerstars_summary(state: State, who: list[str], board: list[int]) -> list[str]:
    n = state._n
    lines: list[str] = []
    unc = state.uncalled()
    if unc is not None:
        lines.append(f"Uncalled bet ({unc[1]}) returned to {who[unc[0]]}")
    shown = state.shown()
    if any(shown):
        lines.append("*** SHOW DOWN ***")
        for i, hc in enumerate(state.hole_cards):
            if shown[i]:
                lines.append(f"{who[i]}: shows [{' '.join(format_card(c) for c in hc)}]")
    win = state.winnings()
    for i in range(n):
        if win[i]:
            lines.append(f"{who[i]} collected {format_chips(win[i])} from pot")
    total = state.pot - (unc[1] if unc is not None else 0)
    lines.append("*** SUMMARY ***")
    lines.append(f"Total pot {total} | Rake 0")
    if board:
        lines.append(f"Board [{' '.join(format_card(c) for c in board)}]")
    button = state._cfg.button
    for i in range(n):
        tag = " (button)" if i == button else ""
        if state._folded[i]:
            what = "folded"
        elif win[i] and shown[i]:
            what = f"showed [{_spaced(state.hole_cards[i])}] and won ({format_chips(win[i])})"
        elif win[i]:
            what = f"collected ({format_chips(win[i])})"
        elif shown[i]:
            what = f"showed [{_spaced(state.hole_cards[i])}] and lost"
        else:
            what = "did not show"
        lines.append(f"Seat {i + 1}: {who[i]}{tag} {what}")
    return lines
