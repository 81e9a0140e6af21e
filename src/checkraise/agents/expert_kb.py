"""The expert bot's knowledge base: two TOML files of poker rules, loaded and validated.

The expert-knowledge system of the Northeastern University heads-up bot (third in the
2018 Chinese university computer-games championship) proposes its own actions from a
knowledge base and searches only among them. Ours is data, not code:

* ``data/expert/preflop.toml`` — for each position (button or big blind), situation
  (unopened, facing a raise, a re-raise, a four-bet or more) and stack band (short,
  medium, deep, in big blinds) an action and size for each of the 169 hand classes;
* ``data/expert/postflop.toml`` — ordered rules on the made hand, hand strength, outs
  (the equity module's rule), board texture, pot odds and the bet faced (by the classes
  of :mod:`checkraise.nn.action_classes`), each with its suggested actions and a reason;
  and the tiers of the knowledge-base opponent model.

Every file comment says what its fields mean. :func:`load_knowledge_base` checks the
files and raises :class:`KnowledgeBaseError` naming the file, the entry and what was
expected. The features of a spot and the matching are in
:mod:`checkraise.agents.expert_rules`.

Examples
--------
>>> kb = load_knowledge_base()
>>> kb.preflop.action("button", "unopened", "deep", "AA").action
'raise'
>>> kb.postflop[-1].conditions
{}
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from checkraise.cards import CLASS_NAMES, COMBO_CLASS
from checkraise.errors import CheckraiseError
from checkraise.evaluator import CATEGORY_NAMES
from checkraise.nn.action_classes import ACTION_CLASSES
from checkraise.ranges import Range, RangeError

__all__ = [
    "BANDS",
    "FACING",
    "POSITIONS",
    "PREFLOP_ACTIONS",
    "SITUATIONS",
    "STREETS",
    "TEXTURES",
    "KnowledgeBase",
    "KnowledgeBaseError",
    "OpponentTier",
    "PostflopRule",
    "PreflopChoice",
    "PreflopTable",
    "load_knowledge_base",
    "parse_action_token",
]

POSITIONS: Final = ("button", "bigblind")
SITUATIONS: Final = ("unopened", "raise", "reraise", "fourbet")
BANDS: Final = ("short", "medium", "deep")
PREFLOP_ACTIONS: Final = ("fold", "call", "raise", "allin")
STREETS: Final = ("flop", "turn", "river")
FACING: Final = ("none", "raise-small", "raise-medium", "raise-large", "all-in")
TEXTURES: Final = ("dry", "wet", "paired", "monotone")

_LIST_CONDITIONS: Final = {
    "streets": STREETS, "facing": FACING, "made": tuple(CATEGORY_NAMES), "texture": TEXTURES,
}
_NUMBER_CONDITIONS: Final = ("min_hs", "max_hs", "min_outs", "max_outs")
_BOOL_CONDITIONS: Final = ("draw", "hs_pays", "draw_pays")
_NUM_CLASSES: Final = 169


class KnowledgeBaseError(CheckraiseError):
    """A knowledge-base file that does not hold what the expert bot expects."""


@dataclass(frozen=True)
class PreflopChoice:
    """What the preflop table says for one hand class in one spot."""

    action: str
    size: float
    reason: str
    entry: str
    """Where it comes from: ``spot 3 entry 2`` or ``spot 3 default``."""


@dataclass(frozen=True)
class PreflopTable:
    """The 169 hand classes by (position, situation, stack band)."""

    stack_bands: tuple[float, float]
    commit_fraction: float
    small_reraise: float
    spots: dict[tuple[str, str, str], tuple[PreflopChoice, ...]] = field(repr=False)

    def band(self, stack_bb: float) -> str:
        """The stack band of an effective stack of ``stack_bb`` big blinds."""
        if stack_bb <= self.stack_bands[0]:
            return "short"
        return "medium" if stack_bb <= self.stack_bands[1] else "deep"

    def action(self, position: str, situation: str, band: str, hand: str | int) -> PreflopChoice:
        """The choice for ``hand`` (a class name such as ``AKs`` or its index 0..168)."""
        index = CLASS_NAMES.index(hand) if isinstance(hand, str) else int(hand)
        return self.spots[(position, situation, band)][index]


@dataclass(frozen=True)
class PostflopRule:
    """One postflop rule: conditions, suggested action tokens and the reason."""

    name: str
    conditions: dict[str, Any]
    actions: tuple[str, ...]
    reason: str


@dataclass(frozen=True)
class OpponentTier:
    """One tier of the knowledge-base opponent model (see postflop.toml)."""

    name: str
    min_hs: float
    draw: bool | None
    unbet: npt.NDArray[np.float64]
    facing: npt.NDArray[np.float64]
    facing_large: npt.NDArray[np.float64]


@dataclass(frozen=True)
class KnowledgeBase:
    """The loaded knowledge base: preflop table, postflop rules, opponent tiers."""

    preflop: PreflopTable
    postflop: tuple[PostflopRule, ...]
    preflop_trust: float
    tiers: tuple[OpponentTier, ...]


def parse_action_token(token: str, where: str) -> tuple[str, float]:
    """``"bet:0.5"`` -> ``("bet", 0.5)``; raises :class:`KnowledgeBaseError` naming ``where``.

    Examples
    --------
    >>> parse_action_token("raise:0.75", "rule 1"), parse_action_token("call", "rule 1")
    (('raise', 0.75), ('call', 0.0))
    """
    kind, colon, size = token.partition(":")
    if kind in ("fold", "check", "call", "allin") and not colon:
        return kind, 0.0
    if kind in ("bet", "raise") and colon:
        try:
            value = float(size)
        except ValueError:
            value = -1.0
        if 0.0 < value <= 10.0:
            return kind, value
    raise KnowledgeBaseError(
        f"{where}: action {token!r}; expected fold, check, call, allin, bet:F or raise:F "
        "with F a pot fraction in (0, 10]"
    )


def _fail(file: str, where: str, message: str) -> KnowledgeBaseError:
    return KnowledgeBaseError(f"{file}: {where}: {message}")


def _keys(file: str, where: str, table: dict[str, Any], allowed: set[str],
          required: set[str]) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise _fail(file, where, f"unknown key {unknown[0]!r}; expected {sorted(allowed)}")
    missing = sorted(required - set(table))
    if missing:
        raise _fail(file, where, f"missing key {missing[0]!r}")


def _read(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise KnowledgeBaseError(f"{path.name}: not valid TOML: {exc}") from exc


def _load_preflop(path: Path) -> PreflopTable:
    file = path.name
    data = _read(path)
    _keys(file, "top level", data, {"meta", "spot"}, {"meta", "spot"})
    meta = data["meta"]
    _keys(file, "[meta]", meta, {"stack_bands", "commit_fraction", "small_reraise"},
          {"stack_bands", "commit_fraction", "small_reraise"})
    bands = meta["stack_bands"]
    if (not isinstance(bands, list) or len(bands) != 2
            or not all(isinstance(b, int | float) for b in bands) or not 0 < bands[0] < bands[1]):
        raise _fail(file, "[meta] stack_bands", f"{bands!r}; expected two increasing "
                    "positive numbers of big blinds")
    commit = meta["commit_fraction"]
    if not isinstance(commit, int | float) or not 0 < commit <= 1:
        raise _fail(file, "[meta] commit_fraction", f"{commit!r}; expected a number in (0, 1]")
    small = meta["small_reraise"]
    if isinstance(small, bool) or not isinstance(small, int | float) or not 1 <= small <= 10:
        raise _fail(file, "[meta] small_reraise", f"{small!r}; expected a number in [1, 10]")
    spots: dict[tuple[str, str, str], tuple[PreflopChoice, ...]] = {}
    for i, spot in enumerate(data["spot"], start=1):
        where = f"spot {i}"
        _keys(file, where, spot, {"position", "situation", "stacks", "default", "entry"},
              {"position", "situation", "stacks", "default"})
        for key, options in (("position", POSITIONS), ("situation", SITUATIONS)):
            if spot[key] not in options:
                raise _fail(file, f"{where} {key}", f"{spot[key]!r}; expected one of {options}")
        stacks = spot["stacks"]
        if not isinstance(stacks, list) or not stacks or any(s not in BANDS for s in stacks):
            raise _fail(file, f"{where} stacks", f"{stacks!r}; expected a list of {BANDS}")
        if spot["default"] not in ("fold", "call"):
            raise _fail(file, f"{where} default", f"{spot['default']!r}; expected fold or call")
        default = PreflopChoice(spot["default"], 0.0,
                                f"not in any of this spot's ranges: {spot['default']}",
                                f"{where} default")
        row: list[PreflopChoice | None] = [None] * _NUM_CLASSES
        for j, entry in enumerate(spot.get("entry", []), start=1):
            ewhere = f"{where} entry {j}"
            choice, classes = _preflop_entry(file, ewhere, entry)
            for c in classes:
                previous = row[c]
                if previous is not None:
                    raise _fail(file, ewhere, f"hand {CLASS_NAMES[c]} is already in "
                                f"{previous.entry}; expected each hand once per spot")
                row[c] = choice
        filled = tuple(default if c is None else c for c in row)
        for band in stacks:
            spot_key = (str(spot["position"]), str(spot["situation"]), str(band))
            if spot_key in spots:
                raise _fail(file, where, f"{spot_key} is covered twice; expected one spot each")
            spots[spot_key] = filled
    for position in POSITIONS:
        for situation in SITUATIONS:
            for band in BANDS:
                if (position, situation, band) not in spots:
                    raise _fail(file, "spots", f"no spot for position={position}, situation="
                                f"{situation}, stacks={band}; expected every combination")
    return PreflopTable((float(bands[0]), float(bands[1])), float(commit), float(small), spots)


def _preflop_entry(file: str, where: str, entry: dict[str, Any]) -> tuple[PreflopChoice, list[int]]:
    _keys(file, where, entry, {"action", "size", "hands", "reason"}, {"action", "hands", "reason"})
    action = entry["action"]
    if action not in PREFLOP_ACTIONS:
        raise _fail(file, f"{where} action", f"{action!r}; expected one of {PREFLOP_ACTIONS}")
    size = entry.get("size")
    if action == "raise":
        if not isinstance(size, int | float) or not 1.0 < size <= 20.0:
            raise _fail(file, f"{where} size", f"{size!r}; a raise needs a size in (1, 20] "
                        "(times the largest bet so far)")
    elif size is not None:
        raise _fail(file, f"{where} size", f"only a raise takes a size, not {action!r}")
    if not isinstance(entry["reason"], str) or not entry["reason"].strip():
        raise _fail(file, f"{where} reason", "expected a non-empty text")
    try:
        weights = Range(str(entry["hands"])).weights
    except RangeError as exc:
        raise _fail(file, f"{where} hands", f"{exc}") from exc
    classes = sorted({int(c) for c in COMBO_CLASS[weights > 0]})
    if not classes:
        raise _fail(file, f"{where} hands", f"{entry['hands']!r} names no hand")
    return PreflopChoice(action, float(size or 0.0), entry["reason"].strip(), where), classes


def _load_rule(file: str, where: str, rule: dict[str, Any]) -> PostflopRule:
    allowed = {"name", "actions", "reason", *_LIST_CONDITIONS, *_NUMBER_CONDITIONS,
               *_BOOL_CONDITIONS}
    _keys(file, where, rule, allowed, {"name", "actions", "reason"})
    where = f"{where} ({rule['name']})"
    conditions: dict[str, Any] = {}
    for key, options in _LIST_CONDITIONS.items():
        if key in rule:
            values = rule[key]
            if not isinstance(values, list) or not values or any(v not in options for v in values):
                raise _fail(file, f"{where} {key}", f"{values!r}; expected a list of {options}")
            conditions[key] = frozenset(values)
    for key in _NUMBER_CONDITIONS:
        if key in rule:
            value = rule[key]
            top = 1.0 if key.endswith("hs") else 47.0
            if isinstance(value, bool) or not isinstance(value, int | float) \
                    or not 0 <= value <= top:
                raise _fail(file, f"{where} {key}", f"{value!r}; expected a number in 0..{top:g}")
            conditions[key] = float(value)
    for key in _BOOL_CONDITIONS:
        if key in rule:
            if not isinstance(rule[key], bool):
                raise _fail(file, f"{where} {key}", f"{rule[key]!r}; expected true or false")
            conditions[key] = rule[key]
    actions = rule["actions"]
    if not isinstance(actions, list) or not actions:
        raise _fail(file, f"{where} actions", f"{actions!r}; expected a non-empty list")
    for token in actions:
        parse_action_token(str(token), f"{file}: {where}")
    if not isinstance(rule["reason"], str) or not rule["reason"].strip():
        raise _fail(file, f"{where} reason", "expected a non-empty text")
    return PostflopRule(str(rule["name"]), conditions, tuple(str(a) for a in actions),
                        rule["reason"].strip())


def _row(file: str, where: str, values: Any) -> npt.NDArray[np.float64]:
    if (not isinstance(values, list) or len(values) != len(ACTION_CLASSES)
            or not all(isinstance(v, int | float) and v >= 0 for v in values)
            or sum(values) <= 0):
        raise _fail(file, where, f"{values!r}; expected {len(ACTION_CLASSES)} non-negative "
                    f"probabilities of {ACTION_CLASSES} with a positive sum")
    row: npt.NDArray[np.float64] = np.asarray(values, dtype=np.float64)
    return row / float(row.sum())


def _load_postflop(path: Path) -> tuple[tuple[PostflopRule, ...], float, tuple[OpponentTier, ...]]:
    file = path.name
    data = _read(path)
    _keys(file, "top level", data, {"rule", "opponent"}, {"rule", "opponent"})
    rules = tuple(_load_rule(file, f"rule {i}", r) for i, r in enumerate(data["rule"], start=1))
    if rules[-1].conditions:
        raise _fail(file, f"rule {len(rules)} ({rules[-1].name})",
                    "the last rule has conditions; expected a last rule without any, "
                    "so that every spot gets an answer")
    opponent = data["opponent"]
    _keys(file, "[opponent]", opponent, {"preflop_trust", "tier"}, {"preflop_trust", "tier"})
    trust = opponent["preflop_trust"]
    if isinstance(trust, bool) or not isinstance(trust, int | float) or not 0 < trust <= 1:
        raise _fail(file, "[opponent] preflop_trust", f"{trust!r}; expected a number in (0, 1]")
    tiers = []
    for i, tier in enumerate(opponent["tier"], start=1):
        where = f"opponent tier {i}"
        _keys(file, where, tier, {"name", "min_hs", "draw", "unbet", "facing", "facing_large"},
              {"name", "unbet", "facing", "facing_large"})
        min_hs = tier.get("min_hs", 0.0)
        if isinstance(min_hs, bool) or not isinstance(min_hs, int | float) \
                or not 0 <= min_hs <= 1:
            raise _fail(file, f"{where} min_hs", f"{min_hs!r}; expected a number in 0..1")
        draw = tier.get("draw")
        if draw is not None and not isinstance(draw, bool):
            raise _fail(file, f"{where} draw", f"{draw!r}; expected true or false")
        unbet = _row(file, f"{where} unbet", tier["unbet"])
        if unbet[0] > 0:
            raise _fail(file, f"{where} unbet", "folds with nothing to call; expected 0 first")
        tiers.append(OpponentTier(str(tier["name"]), float(min_hs), draw, unbet,
                                  _row(file, f"{where} facing", tier["facing"]),
                                  _row(file, f"{where} facing_large", tier["facing_large"])))
    if not tiers or tiers[-1].min_hs > 0 or tiers[-1].draw is not None:
        raise _fail(file, f"opponent tier {len(tiers)}", "expected a last tier without "
                    "conditions, so that every hand gets a row")
    return rules, float(trust), tuple(tiers)


def load_knowledge_base(preflop: str | Path | None = None,
                        postflop: str | Path | None = None) -> KnowledgeBase:
    """Load and check the knowledge base (default: the files shipped in ``data/expert``).

    Raises
    ------
    KnowledgeBaseError
        Naming the file, the entry and what was expected.
    """
    if preflop is None and postflop is None:
        return _default()
    return _load(_path(preflop, "preflop.toml"), _path(postflop, "postflop.toml"))


def _path(given: str | Path | None, name: str) -> Path:
    if given is not None:
        return Path(given)
    return Path(str(resources.files("checkraise") / "data" / "expert" / name))


def _load(preflop: Path, postflop: Path) -> KnowledgeBase:
    table = _load_preflop(preflop)
    rules, trust, tiers = _load_postflop(postflop)
    return KnowledgeBase(table, rules, trust, tiers)


@lru_cache(maxsize=1)
def _default() -> KnowledgeBase:
    return _load(_path(None, "preflop.toml"), _path(None, "postflop.toml"))
