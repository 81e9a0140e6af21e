"""The expert knowledge base applied to a spot: features, matching rules, concrete actions.

:func:`advise` reads an :class:`~checkraise.engine.Observation` (the seat to act) and
returns :class:`Advice`: the spot's features, the knowledge-base entry that matched, its
reason, and the suggested actions as legal engine actions. Before the flop the entry is
the preflop table's (position, situation, stack band, hand class); after it the first
postflop rule whose conditions hold (:mod:`checkraise.agents.expert_kb` lists them).

Hand strength ``hs`` is the share of the opponent's possible hands (every two cards the
board and our hand leave) that our hand beats now, ties counted half: the "HS" of
Billings et al. (2002) without the potential. :func:`board_strengths` gives the same
measure for all 1,326 hands on a board at once (there without the card removal between
two hands), which the knowledge-base opponent model reads.

Examples
--------
>>> from checkraise.engine import State, TableConfig
>>> from checkraise.cards import parse_cards
>>> s = State(TableConfig.nolimit(2), hole_cards=[parse_cards("AsAh"), None], seed=1)
>>> advice = advise(s.observation(0))
>>> advice.entry, [str(a) for a in advice.actions]
('spot 1 entry 1', ['r250'])
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise.agents.expert_kb import (
    KnowledgeBase,
    PreflopChoice,
    load_knowledge_base,
    parse_action_token,
)
from checkraise.cards import CLASS_NAMES, COMBO_CARDS, COMBO_CLASS, COMBO_MASKS, combo_index
from checkraise.engine import Action, ActionKind
from checkraise.engine.observation import Observation
from checkraise.equity.strength import outs as equity_outs
from checkraise.equity.strength import pot_odds
from checkraise.errors import ConfigError
from checkraise.evaluator import CATEGORY_NAMES, category, evaluate_batch, evaluate_ints
from checkraise.nn.action_classes import LARGE_MIN, SMALL_MAX
from checkraise.opponents.categories import FLUSH_DRAW, STRAIGHT_DRAW, category_table

__all__ = [
    "Advice",
    "advise",
    "board_strengths",
    "board_texture",
    "facing_class",
    "postflop_features",
    "preflop_spot",
    "to_action",
]

STREET_NAMES = ("preflop", "flop", "turn", "river")
#: A raise that puts in this share of the chips behind or more is played all-in.
ALLIN_SHARE = 0.8
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Advice:
    """What the knowledge base says at one spot."""

    street: str
    features: dict[str, Any]
    entry: str
    """The entry that matched: ``spot 3 entry 1`` (preflop) or ``rule 5 (name)``."""
    reason: str
    tokens: tuple[str, ...]
    actions: tuple[Action, ...]
    """The suggestions as legal actions, deduplicated, in the knowledge base's order."""


def _legal(obs: Observation) -> None:
    if obs.legal is None:
        raise ConfigError(f"seat {obs.seat} is not to act; expected the observation of the "
                          "seat to act")
    if obs.config.num_players != 2:
        raise ConfigError(f"the expert bot plays heads-up; this table has "
                          f"{obs.config.num_players} seats")


def is_button(obs: Observation, seat: int | None = None) -> bool:
    """Whether ``seat`` (default: the observer) posts the small blind, the heads-up button."""
    seat = obs.seat if seat is None else seat
    blinds = obs.config.blinds
    if blinds[seat] != blinds[1 - seat]:
        return blinds[seat] < blinds[1 - seat]
    return obs.config.first_player[0] == seat


def preflop_spot(obs: Observation, kb: KnowledgeBase,
                 seat: int | None = None) -> tuple[str, str, str]:
    """(position, situation, stack band) of the seat to act before the flop."""
    seat = obs.seat if seat is None else seat
    big = max(max(obs.config.blinds), 1)
    band = kb.preflop.band(min(obs.config.stacks) / big)
    sizes = [a.amount for _s, rnd, a in obs.history if rnd == 0 and a.kind is ActionKind.RAISE]
    raises = len(sizes)
    # A small re-raise gives the odds of the raise before it: it counts one level lower.
    if raises >= 2 and sizes[-1] <= kb.preflop.small_reraise * sizes[-2]:
        raises -= 1
    situation = ("unopened", "raise", "reraise", "fourbet")[min(raises, 3)]
    if obs.legal is not None and obs.legal.call_amount > kb.preflop.commit_fraction * max(
            obs.stacks[seat], 1):
        situation = "fourbet"
    return ("button" if is_button(obs, seat) else "bigblind"), situation, band


def preflop_action(obs: Observation, kb: KnowledgeBase, choice: PreflopChoice) -> Action:
    """The legal action for a preflop table choice at ``obs``."""
    legal = obs.legal
    assert legal is not None
    if choice.action == "fold":
        return Action.fold() if legal.call_amount > 0 else Action.call()
    if choice.action == "call" or legal.min_raise_to is None or legal.max_raise_to is None:
        return Action.call()
    if choice.action == "allin":
        return Action.raise_to(legal.max_raise_to)
    put_in = obs.contributions[obs.seat]
    target = round(choice.size * max(obs.contributions))
    if target - put_in > kb.preflop.commit_fraction * (put_in + obs.stacks[obs.seat]):
        return Action.raise_to(legal.max_raise_to)
    return Action.raise_to(min(max(target, legal.min_raise_to), legal.max_raise_to))


def facing_class(obs: Observation) -> str:
    """The bet the seat to act faces, by the classes of :mod:`checkraise.nn.action_classes`.

    The opponent's last raise put in ``to_call`` above our chips; as a fraction of the
    pot after he would have called it (``pot - to_call``) it is that raise's class.
    """
    to_call = obs.to_call
    if to_call <= 0:
        return "none"
    opponent = 1 - obs.seat
    if obs.all_in[opponent]:
        return "all-in"
    fraction = to_call / max(obs.pot - to_call, 1)
    if fraction <= SMALL_MAX:
        return "raise-small"
    return "raise-medium" if fraction <= LARGE_MIN else "raise-large"


def board_texture(board: tuple[int, ...] | list[int]) -> str:
    """``paired``, ``monotone``, ``wet`` or ``dry`` (the first that applies; postflop.toml).

    Examples
    --------
    >>> from checkraise.cards import parse_cards
    >>> [board_texture(parse_cards(b)) for b in ("Kc7d2h", "Kc7c2h", "9h8d7s", "KhKd2c", "Ah7h2h")]
    ['dry', 'wet', 'wet', 'paired', 'monotone']
    """
    ranks = sorted({c // 4 for c in board})
    if len(ranks) < len(board):
        return "paired"
    suits = np.bincount([c % 4 for c in board], minlength=4)
    if suits.max() >= 3:
        return "monotone"
    low = ranks + ([-1] if 12 in ranks else [])
    connected = any(sum(1 for r in low if lo <= r < lo + 5) >= 3 for lo in range(-1, 9))
    return "wet" if suits.max() >= 2 or connected else "dry"


@lru_cache(maxsize=256)
def _board_ranks(board: tuple[int, ...]) -> npt.NDArray[np.int32]:
    cards = np.empty((len(COMBO_CARDS), 2 + len(board)), dtype=np.uint8)
    cards[:, :2] = COMBO_CARDS
    cards[:, 2:] = board
    live = (COMBO_MASKS & np.uint64(sum(1 << c for c in board))) == 0
    ranks = np.full(len(COMBO_CARDS), -1, dtype=np.int32)
    ranks[live] = evaluate_batch(cards[live])
    ranks.setflags(write=False)
    return ranks


@lru_cache(maxsize=256)
def _strengths(board: tuple[int, ...]) -> FloatArray:
    ranks = _board_ranks(board)
    live = ranks >= 0
    ordered = np.sort(ranks[live])
    hs = np.zeros(len(ranks))
    below = np.searchsorted(ordered, ranks[live], side="left")
    upto = np.searchsorted(ordered, ranks[live], side="right")
    hs[live] = (below + 0.5 * (upto - below - 1)) / max(len(ordered) - 1, 1)
    hs.setflags(write=False)
    return hs


def board_strengths(board: tuple[int, ...] | list[int]) -> FloatArray:
    """Hand strength of each of the 1,326 combos on ``board`` (3-5 cards; 0 for dead combos).

    Ties count half, and card removal between the two hands is ignored.
    """
    return _strengths(tuple(sorted(int(c) for c in board)))


def hand_strength_now(hole: tuple[int, ...], board: tuple[int, ...]) -> float:
    """Share of the opponent hands (without our cards and the board) that ``hole`` beats now."""
    key = tuple(sorted(int(c) for c in board))
    ranks = _board_ranks(key)
    ours = evaluate_ints([*hole, *board])
    blocked = (COMBO_MASKS & np.uint64((1 << int(hole[0])) | (1 << int(hole[1])))) != 0
    opp = ranks[(ranks >= 0) & ~blocked]
    if len(opp) == 0:
        return 0.5
    return float(((opp < ours).sum() + 0.5 * (opp == ours).sum()) / len(opp))


@lru_cache(maxsize=4096)
def _hand_features(hole: tuple[int, ...], board: tuple[int, ...]) -> tuple[str, int, int, float]:
    # The features of the cards alone: a search asks them at many betting states.
    made = CATEGORY_NAMES[category(evaluate_ints([*hole, *board]))]
    code = int(category_table(board)[combo_index(*hole)])
    num_outs = len(equity_outs(hole, board)) if len(board) < 5 else 0
    return made, code, num_outs, hand_strength_now(hole, board)


def postflop_features(obs: Observation) -> dict[str, Any]:
    """The features postflop rules read, for the seat to act in ``obs``."""
    hole = tuple(sorted(int(c) for c in obs.hole_cards))
    board = tuple(sorted(int(c) for c in obs.board))
    street = STREET_NAMES[min(obs.round, 3)]
    made, code, num_outs, hs = _hand_features(hole, board)
    to_call = obs.to_call
    odds = pot_odds(to_call, obs.pot) if to_call > 0 else 0.0
    unseen = 52 - len(board) - 2
    return {
        "street": street,
        "made": made,
        "hs": round(hs, 4),
        "outs": num_outs,
        "draw": code in (FLUSH_DRAW, STRAIGHT_DRAW),
        "texture": board_texture(board),
        "facing": facing_class(obs),
        "pot_odds": round(odds, 4),
        "hs_pays": hs >= odds,
        "draw_pays": len(board) < 5 and num_outs / unseen >= odds,
    }


def _matches(conditions: dict[str, Any], f: dict[str, Any]) -> bool:
    for key, want in conditions.items():
        if key == "streets" and f["street"] not in want:
            return False
        if key in ("facing", "made", "texture") and f[key] not in want:
            return False
        if key == "min_hs" and f["hs"] < want:
            return False
        if key == "max_hs" and f["hs"] > want:
            return False
        if key == "min_outs" and f["outs"] < want:
            return False
        if key == "max_outs" and f["outs"] > want:
            return False
        if key in ("draw", "hs_pays", "draw_pays") and bool(f[key]) != want:
            return False
    return True


def to_action(obs: Observation, token: str) -> Action | None:
    """The legal action for a postflop token (``bet:0.5`` ...), or ``None`` when not legal."""
    legal = obs.legal
    assert legal is not None
    kind, size = parse_action_token(token, "action")
    to_call = legal.call_amount
    if kind == "fold":
        return Action.fold() if to_call > 0 and legal.can_fold else None
    if kind == "check":
        return Action.call() if to_call == 0 else None
    if kind == "call":
        return Action.call()
    if legal.min_raise_to is None or legal.max_raise_to is None:
        return None
    if kind == "allin":
        return Action.raise_to(legal.max_raise_to)
    put_in = obs.contributions[obs.seat]
    target = put_in + to_call + round(size * (obs.pot + to_call))
    if target - put_in >= ALLIN_SHARE * obs.stacks[obs.seat]:
        return Action.raise_to(legal.max_raise_to)
    return Action.raise_to(min(max(target, legal.min_raise_to), legal.max_raise_to))


def _dedupe(actions: list[Action | None], tokens: tuple[str, ...]) -> tuple[tuple[str, ...],
                                                                           tuple[Action, ...]]:
    out: list[Action] = []
    kept: list[str] = []
    for token, action in zip(tokens, actions, strict=True):
        if action is not None and action not in out:
            out.append(action)
            kept.append(token)
    if not out:
        return ("call",), (Action.call(),)
    return tuple(kept), tuple(out)


def advise(obs: Observation, kb: KnowledgeBase | None = None) -> Advice:
    """The knowledge base's suggestions for the seat to act in ``obs`` (heads-up).

    Raises
    ------
    ConfigError
        When it is not the observer's turn or the table is not heads-up.
    """
    _legal(obs)
    kb = load_knowledge_base() if kb is None else kb
    if obs.round == 0:
        position, situation, band = preflop_spot(obs, kb)
        hand_class = int(COMBO_CLASS[combo_index(*obs.hole_cards)])
        choice = kb.preflop.action(position, situation, band, hand_class)
        action = preflop_action(obs, kb, choice)
        features = {"hand": CLASS_NAMES[hand_class], "position": position,
                    "situation": situation, "stacks": band}
        token = choice.action + (f":{choice.size:g}x" if choice.action == "raise" else "")
        return Advice("preflop", features, choice.entry, choice.reason, (token,), (action,))
    features = postflop_features(obs)
    for i, rule in enumerate(kb.postflop, start=1):
        if _matches(rule.conditions, features):
            tokens, actions = _dedupe([to_action(obs, t) for t in rule.actions], rule.actions)
            return Advice(features["street"], features, f"rule {i} ({rule.name})", rule.reason,
                          tokens, actions)
    raise AssertionError("the loader guarantees a last rule without conditions")
