"""A slow, obviously correct model of the casino showdown, independent of the engine.

The differential test against PokerKit needs a referee for the few hands in which
PokerKit and the engine end one chip apart (PokerKit merges tied side pots before
splitting them). This model is that referee. It is written from the README's
"Rule sets" section, not from ``checkraise.engine.showdown``, and imports nothing
from the engine:

1. Every distinct total that some seat put in (antes and blinds included) cuts a
   layer: the layer between two totals holds what each seat put in between them.
2. A layer may be won by the seats that did not fold and put in at least its top.
   The top layer that only one seat reached is his uncalled bet and goes back to him.
3. Consecutive layers contested by the same seats are one pot (a folded seat's
   total cuts a layer but not a pot); each pot is split on its own.
4. In each pot the best rank wins; tied winners share it in equal whole chips and
   the odd chips go to the first winner left of the button.

``merge_tied=True`` gives PokerKit's variant instead: first drop every hand that
wins no pot, then form the pots again among the hands left (so tied side pots
merge) and split each once.
"""

from __future__ import annotations

from collections.abc import Sequence


def pot_list(totals: Sequence[int], live: Sequence[bool]) -> list[tuple[int, tuple[int, ...]]]:
    """Pots as ``(chips, seats that may win them)``, main pot first.

    >>> pot_list([100, 300, 300], [True, True, True])
    [(300, (0, 1, 2)), (400, (1, 2))]
    >>> pot_list([100, 500, 50], [True, True, False])
    [(250, (0, 1)), (400, (1,))]
    """
    out: list[tuple[int, tuple[int, ...]]] = []
    below = 0
    for top in sorted(set(totals) - {0}):
        chips = sum(max(0, min(t, top) - below) for t in totals)
        able = tuple(i for i, t in enumerate(totals) if live[i] and t >= top)
        if not able:
            raise AssertionError(f"nobody still in reached the layer up to {top}: {totals}")
        if out and out[-1][1] == able:
            chips += out.pop()[0]
        out.append((chips, able))
        below = top
    return out


def winnings(
    totals: Sequence[int],
    folded: Sequence[bool],
    ranks: Sequence[int],
    button: int,
    merge_tied: bool = False,
) -> list[int]:
    """Chips each seat takes from the pots (its own uncalled bet included).

    ``ranks[i]`` is seat ``i``'s hand rank (higher wins; ignored for folded seats);
    ``button`` is the button's seat.

    >>> winnings([10, 10, 10], [False, False, False], [5, 5, 1], button=2)
    [15, 15, 0]
    >>> winnings([11, 11, 11], [False, False, False], [5, 5, 1], button=0)
    [16, 17, 0]
    """
    n = len(totals)
    live = [not f for f in folded]
    if merge_tied:
        won_any = {i for _, able in pot_list(totals, live) for i in _best(able, ranks)}
        live = [i in won_any for i in range(n)]
    out = [0] * n
    for chips, able in pot_list(totals, live):
        best = sorted(_best(able, ranks), key=lambda i: (i - button - 1) % n)
        share, odd = divmod(chips, len(best))
        for i in best:
            out[i] += share
        out[best[0]] += odd
    return out


def final_stacks(
    stacks: Sequence[int],
    totals: Sequence[int],
    folded: Sequence[bool],
    ranks: Sequence[int],
    button: int,
    merge_tied: bool = False,
) -> tuple[int, ...]:
    """Stacks after the hand: what each seat had, less what it put in, plus what it won."""
    won = winnings(totals, folded, ranks, button, merge_tied)
    return tuple(s - t + w for s, t, w in zip(stacks, totals, won, strict=True))


def _best(able: tuple[int, ...], ranks: Sequence[int]) -> list[int]:
    top = max(ranks[i] for i in able)
    return [i for i in able if ranks[i] == top]
