"""ACPC dealer logs as hand records: reader and writer.

A dealer log (the reference ``dealer`` of the Annual Computer Poker Competition,
protocol 2.0.0; ``shared/ACPC.md``) holds one ``STATE`` line per hand with the
betting, every hole card, the board and each seat's net. The line syntax is
parsed by :mod:`checkraise.protocol.matchstate` (shared with the protocol code);
this module turns each line into a :class:`HandRecord` by replaying it through the
engine with the log's game definition (ACPC rules, fractional odd-chip splits),
and checks the nets the dealer printed against the engine's payout.

The game definition is the ``.game`` file the log's header names (looked up next
to the log) unless one is given. The writer groups hands by table (seats, stacks,
blinds, betting) and writes one log and one game file per group. Hole cards that
a PokerStars history does not reveal are written as empty fields (the reference
dealer never does that; this reader accepts it).

Examples
--------
>>> from checkraise.protocol.gamedef import parse_gamedef
>>> game = parse_gamedef(EXAMPLE_GAME)
>>> hands = parse_log_text(EXAMPLE_LOG, game, source="x.log")
>>> [str(s.collected) for s in hands[0].seats]
['200', '0']
>>> format_state_line(hands[0])
'STATE:0:r250f:AsKd|2c2d:100|-100:A|B'
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Final

from checkraise.engine import Action, Betting, State, TableConfig
from checkraise.histories.record import HandAction, HandHistoryError, HandRecord, Move, PlayerSeat
from checkraise.protocol.gamedef import GameDef, load_gamedef, parse_gamedef
from checkraise.protocol.log import format_log_header
from checkraise.protocol.matchstate import StateLine, format_value, parse_state_line

__all__ = [
    "EXAMPLE_GAME",
    "EXAMPLE_LOG",
    "format_state_line",
    "game_of",
    "parse_log_file",
    "parse_log_text",
    "record_from_state",
    "write_logs",
]

EXAMPLE_GAME: Final = """GAMEDEF
nolimit
numPlayers = 2
numRounds = 4
stack = 1000 1000
blind = 50 100
firstPlayer = 1 2 2 2
numSuits = 4
numRanks = 13
numHoleCards = 2
numBoardCards = 0 3 1 1
END GAMEDEF
"""
EXAMPLE_LOG: Final = "# name/game/hands/seed doc x.game 1 0\nSTATE:0:r250f:AsKd|2c2d:100|-100:A|B\n"

_FOLD: Final = Action.fold()
_CALL: Final = Action.call()


def _header(text: str) -> tuple[str, str, str]:
    """(match name, game file, seed) from the ``# name/game/hands/seed`` comment."""
    for line in text.splitlines()[:10]:
        if line.startswith("# name/game/hands/seed "):
            parts = line.split()
            if len(parts) >= 6:
                return parts[2], parts[3], parts[5]
    return "", "", ""


def game_of(path: str | Path) -> GameDef:
    """The game definition named in the header of the log at ``path`` (looked up beside it)."""
    path = Path(path)
    _, game_name, _ = _header(path.read_text(encoding="utf-8"))
    if not game_name:
        raise HandHistoryError("no '# name/game/hands/seed' header naming the game file: give "
                               "the game definition explicitly", path.name, 1)
    game_path = path.parent / game_name
    if not game_path.exists():
        raise HandHistoryError(f"game file {game_name!r} named in the header is not beside the "
                               f"log", path.name, 1)
    return load_gamedef(game_path)


def parse_log_file(path: str | Path, game: GameDef | None = None) -> list[HandRecord]:
    """Read and replay every hand of a dealer log.

    Raises :class:`HandHistoryError` naming the file and line at the first bad hand.
    """
    path = Path(path)
    if game is None:
        game = game_of(path)
    return parse_log_text(path.read_text(encoding="utf-8"), game, source=path.name)


def parse_log_text(text: str, game: GameDef, source: str = "<log>") -> list[HandRecord]:
    """Read and replay every ``STATE`` line of dealer-log text."""
    match, _, seed = _header(text)
    config = game.to_table_config()
    hands = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line or line.startswith(("#", ";", "SCORE:")):
            continue
        try:
            # Without ``game`` the parser accepts empty hole cards (unknown in hands exported
            # from PokerStars); the replay checks the cards instead.
            state_line = parse_state_line(line)
        except ValueError as exc:
            raise HandHistoryError(str(exc), source, number) from None
        for cards in state_line.hole_cards:
            if len(cards) not in (0, game.num_hole_cards):
                raise HandHistoryError(f"hole cards {len(cards)} where the game deals "
                                       f"{game.num_hole_cards}", source, number)
        hands.append(record_from_state(state_line, config, match=match, seed=seed,
                                       source=source, line=number))
    return hands


def record_from_state(
    state_line: StateLine,
    config: TableConfig,
    *,
    match: str = "",
    seed: str = "",
    source: str = "<log>",
    line: int = 0,
) -> HandRecord:
    """Replay one ``STATE`` line on ``config`` and return it as a :class:`HandRecord`.

    Raises :class:`HandHistoryError` when the betting is illegal or the nets differ.
    """

    def fail(message: str) -> HandHistoryError:
        return HandHistoryError(f"hand {state_line.hand_number}: {message}", source, line)

    n = config.num_players
    if len(state_line.names) != n:
        raise fail(f"{len(state_line.names)} players, the game has {n}")
    board = tuple(c for group in state_line.board for c in group)
    try:
        state = State(config, hole_cards=[h or None for h in state_line.hole_cards],
                      board=board, seed=0)
    except ValueError as exc:
        raise fail(f"bad cards: {exc}") from None
    actions: list[HandAction] = []
    limit = config.betting is Betting.LIMIT
    street_in = list(state.contributions)
    high = max(street_in)
    for rnd, group in enumerate(state_line.betting):
        if rnd:
            street_in = [0] * n
            high = 0
        for act in group:
            seat = state.current_player
            if seat is None or state.round != rnd:
                raise fail(f"action {act} in round {rnd + 1} after that round's betting ended")
            before = state.contributions[seat]
            try:
                if act.kind == "f":
                    state.step(_FOLD)
                elif act.kind == "c":
                    state.step(_CALL)
                elif act.size is None and not limit:
                    raise fail("a no-limit raise needs a size (r<N>)")
                else:
                    state.step(Action.raise_to(act.size or 0))
            except ValueError as exc:
                if isinstance(exc, HandHistoryError):
                    raise
                raise fail(f"illegal action {act}: {exc}") from None
            added = state.contributions[seat] - before
            street_in[seat] += added
            if act.kind == "f":
                move = Move.FOLD
            elif act.kind == "c":
                move = Move.CALL if added else Move.CHECK
            else:
                move = Move.RAISE if high else Move.BET
                high = street_in[seat]
            actions.append(HandAction(seat, rnd, move, added, street_in[seat],
                                      state.stacks[seat] == 0))
        if not state.is_terminal and state.round == rnd and rnd < len(state_line.betting) - 1:
            raise fail(f"round {rnd + 1} ends in the log before its betting is over")
    if not state.is_terminal:
        raise fail("truncated hand: the betting is not over")
    payoffs = state.payoffs()
    for k, (mine, theirs) in enumerate(zip(payoffs, state_line.nets, strict=True)):
        if Fraction(mine) != theirs and format_value(mine) != format_value(theirs):
            raise fail(f"{state_line.names[k]} nets {format_value(theirs)} in the log but "
                       f"{format_value(mine)} on replay (difference "
                       f"{format_value(theirs - Fraction(mine))})")
    paid = state.winnings()
    back = state.uncalled()
    seats = tuple(
        PlayerSeat(
            name=state_line.names[k],
            table_seat=k + 1,
            stack=config.stacks[k],
            blind=min(config.blinds[k], config.stacks[k]),
            ante=min(config.ante, config.stacks[k]),
            hole_cards=tuple(state_line.hole_cards[k]),
            showed=bool(state.shown()[k]),
            collected=Fraction(paid[k]),
            uncalled=back[1] if back is not None and back[0] == k else 0,
        )
        for k in range(n)
    )
    blinds = sorted(b for b in config.blinds if b)
    return HandRecord(
        site="acpc",
        hand_id=f"{match}.{seed}.{state_line.hand_number}" if match else str(
            state_line.hand_number),
        table=match,
        started="",
        small_blind=blinds[0] if len(blinds) > 1 else 0,
        big_blind=blinds[-1] if blinds else 0,
        ante=config.ante,
        max_seats=n,
        button=config.button + 1,
        seats=seats,
        actions=tuple(actions),
        board=tuple(state.board),
        total_pot=sum((Fraction(p) for p in paid), Fraction(0)),
        betting=config.betting.value,
        first_player=config.first_player,
        raise_sizes=config.raise_sizes,
        max_raises=config.max_raises,
        rules=config.rules.value,
        source=source,
        line=line,
        action_lines=(line,) * len(actions),
    )


def _round_of(hand: HandRecord) -> int:
    # Rounds reached: the last with an action or with board cards dealt.
    last = max((a.street for a in hand.actions), default=0)
    dealt = sum(1 for size in (3, 4, 5) if len(hand.board) >= size)
    return max(last, dealt)


def _betting(hand: HandRecord) -> str:
    limit = hand.betting == "limit"
    totals = [s.blind for s in hand.seats]
    groups: list[list[str]] = [[] for _ in range(_round_of(hand) + 1)]
    for a in hand.actions:
        totals[a.seat] += a.amount
        if a.move is Move.FOLD:
            groups[a.street].append("f")
        elif a.move is Move.CHECK or a.move is Move.CALL:
            groups[a.street].append("c")
        else:
            groups[a.street].append("r" if limit else f"r{totals[a.seat]}")
    return "/".join("".join(g) for g in groups)


def _cards_field(hand: HandRecord) -> str:
    from checkraise.cards import format_card

    holes = "|".join("".join(format_card(c) for c in s.hole_cards) for s in hand.seats)
    b = [format_card(c) for c in hand.board]
    groups = ["".join(b[:3]), "".join(b[3:4]), "".join(b[4:5])][: _round_of(hand)]
    return holes + "".join("/" + g for g in groups)


def net_results(hand: HandRecord) -> tuple[Fraction, ...]:
    """Net chips per seat: collected plus uncalled bet returned minus chips put in.

    Examples
    --------
    >>> from checkraise.histories.pokerstars import EXAMPLE, parse_text
    >>> [str(x) for x in net_results(parse_text(EXAMPLE)[0])]
    ['-1', '-2', '3']
    """
    put = [s.blind + s.ante for s in hand.seats]
    for a in hand.actions:
        put[a.seat] += a.amount
    return tuple(s.collected + s.uncalled - put[k] for k, s in enumerate(hand.seats))


def format_state_line(hand: HandRecord, hand_number: int | None = None) -> str:
    """The dealer-log ``STATE`` line of ``hand``.

    Raises ``ValueError`` for hands an ACPC log cannot hold (antes, names with ``:``
    or ``|``).
    """
    if any(s.ante for s in hand.seats):
        raise HandHistoryError(f"hand #{hand.hand_id} has antes: ACPC logs have none")
    for s in hand.seats:
        if ":" in s.name or "|" in s.name:
            raise HandHistoryError(f"player name {s.name!r} cannot go in an ACPC log (':' or '|')")
    if hand_number is None:
        tail = hand.hand_id.rsplit(".", 1)[-1]
        hand_number = int(tail) if tail.isdigit() else 0
    nets = "|".join(format_value(v) for v in net_results(hand))
    names = "|".join(s.name for s in hand.seats)
    return f"STATE:{hand_number}:{_betting(hand)}:{_cards_field(hand)}:{nets}:{names}"


def game_for(hand: HandRecord) -> GameDef:
    """The ACPC game definition of the table ``hand`` was played on."""
    n = hand.num_players
    limit = hand.betting == "limit"
    lines = [
        "GAMEDEF",
        hand.betting,
        f"numPlayers = {n}",
        "numRounds = 4",
        "stack = " + " ".join(str(s.stack) for s in hand.seats),
        "blind = " + " ".join(str(s.blind) for s in hand.seats),
        "firstPlayer = " + " ".join(str(p + 1) for p in hand.first_player),
        "numSuits = 4",
        "numRanks = 13",
        "numHoleCards = 2",
        "numBoardCards = 0 3 1 1",
    ]
    if limit:
        lines.append("raiseSize = " + " ".join(map(str, hand.raise_sizes)))
    if hand.max_raises:
        lines.append("maxRaises = " + " ".join(map(str, hand.max_raises)))
    lines.append("END GAMEDEF")
    return parse_gamedef("\n".join(lines) + "\n")


def write_logs(hands: Sequence[HandRecord], out_dir: str | Path, stem: str = "hands") -> list[Path]:
    """Write ``hands`` as dealer logs under ``out_dir``: one log and game file per table.

    Returns the log paths. Hands are numbered by their hand number where it is a
    number, else in order.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    groups: dict[GameDef, list[HandRecord]] = {}
    for h in hands:
        groups.setdefault(game_for(h), []).append(h)
    paths = []
    for k, (game, members) in enumerate(groups.items()):
        name = f"{stem}-{k}" if len(groups) > 1 else stem
        (out / f"{name}.game").write_text(game.format(), encoding="utf-8")
        lines = [format_log_header(name, f"{name}.game", len(members), 0, 0, 0, 0)]
        lines.extend(format_state_line(h) + "\n" for h in members)
        path = out / f"{name}.log"
        path.write_text("".join(lines), encoding="utf-8")
        paths.append(path)
    return paths
