"""LBR against an agent: hands, duplicate deals, seeded work items and the mbb/game figure.

Every deal (two hole-card pairs and a board, the cards staying with the seats) is
played twice, LBR in seat 0 and then in seat 1, heads-up no-limit under the
engine's ACPC rules (stacks 20,000, blinds 50/100 as in Lisý & Bowling 2017). The
unit of the 95% interval is one deal (the mean of its two hands), as in the arena's
duplicate evaluation. Deal ``i`` takes its cards, the agent's seed and LBR's Monte
Carlo seed from ``SeedSequence([seed, i])``, so results depend neither on the number
of workers nor on how the deals are cut into work items.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise.agents.base import Agent, call_begin_hand, call_end_hand, make_agent
from checkraise.agents.probabilities import action_probabilities, update_range
from checkraise.arena.luck import luck_payoffs
from checkraise.arena.stats import Estimate, mbb_per_hand
from checkraise.backend import Backend, Progress, resolve_backend
from checkraise.cards import NUM_COMBOS
from checkraise.engine import Action, State, TableConfig
from checkraise.errors import CheckraiseError, ConfigError
from checkraise.lbr.core import LBRSettings, choose, live_weights

__all__ = [
    "Deal",
    "DealResult",
    "ItemResult",
    "LBRItem",
    "LBRResult",
    "draw_deal",
    "lbr_config",
    "load_blocks",
    "make_items",
    "play_deal",
    "play_hand",
    "run_item",
    "run_lbr",
]

FloatArray = npt.NDArray[np.float64]

STACK = 20_000
SMALL_BLIND = 50
BIG_BLIND = 100
DEFAULT_BLOCK = 25


def lbr_config(stack: int = STACK, small_blind: int = SMALL_BLIND,
               big_blind: int = BIG_BLIND) -> TableConfig:
    """Heads-up no-limit, ACPC rules; the paper's stacks and blinds by default."""
    return TableConfig.nolimit(2, stacks=stack, small_blind=small_blind, big_blind=big_blind,
                               rules="acpc")


@dataclass(frozen=True)
class Deal:
    """Hole cards of seat 0 and seat 1 and the five board cards."""

    holes: tuple[tuple[int, int], tuple[int, int]]
    board: tuple[int, int, int, int, int]

    def swapped(self) -> Deal:
        """The same cards with the two seats' hole cards exchanged."""
        return Deal((self.holes[1], self.holes[0]), self.board)


def draw_deal(rng: np.random.Generator) -> Deal:
    """Nine distinct cards drawn from ``rng``."""
    c = [int(x) for x in rng.choice(52, size=9, replace=False)]
    return Deal(((c[0], c[1]), (c[2], c[3])), (c[4], c[5], c[6], c[7], c[8]))


@dataclass
class _Tally:
    """What a hand teaches besides its chips (merged over hands and items)."""

    inexact: set[str] = field(default_factory=set)
    range_resets: int = 0
    lbr_decisions: int = 0
    last_range: FloatArray | None = None


def _chips(x: int | Fraction) -> float:
    return float(x)


def play_hand(
    agent: Agent,
    deal: Deal,
    lbr_seat: int,
    settings: LBRSettings,
    config: TableConfig,
    *,
    rng: np.random.Generator,
    hand_number: int = 0,
    tally: _Tally | None = None,
    luck: list[float] | None = None,
) -> float:
    """Play one hand of LBR (in ``lbr_seat``) against ``agent``; LBR's chips won (and,
    appended to ``luck`` when given, the same luck adjusted: :mod:`checkraise.arena.luck`;
    neither player sees a card before it is dealt, so it has the same expectation)."""
    t = tally if tally is not None else _Tally()
    seat = 1 - lbr_seat
    state = State(config, hole_cards=deal.holes, board=deal.board)
    agent_hole = deal.holes[seat]
    hand_args = (seat, config, agent_hole, hand_number)
    call_begin_hand(agent, seat, config, agent_hole, hand_number)
    weights: FloatArray = np.ones(NUM_COMBOS)

    def fold_probability(raise_to: int) -> FloatArray:
        after = state.copy()
        after.step(Action.raise_to(raise_to))
        hap = action_probabilities(agent, after.observation(seat), begin_hand_args=hand_args)
        if not hap.exact:
            t.inexact.add(hap.note)
        fold = Action.fold()
        if fold not in hap.actions:
            return np.zeros(NUM_COMBOS)
        column: FloatArray = hap.probs[:, hap.actions.index(fold)]
        return column

    while not state.is_terminal:
        if state.current_player == seat:
            observation = state.observation(seat)
            hap = action_probabilities(agent, observation, begin_hand_args=hand_args)
            if not hap.exact:
                t.inexact.add(hap.note)
            action = agent.act(observation)
            try:
                updated = update_range(weights, hap, action)
            except CheckraiseError:  # no hand at all takes it
                updated = np.zeros(NUM_COMBOS)
            if updated.sum() > 0.0:
                weights = updated
            else:
                # The action had no probability under the queried strategy (a stochastic
                # agent queried by one draw per hand): keep the range and count it.
                t.range_resets += 1
            state.step(action)
        else:
            if state.round in settings.streets:
                t.lbr_decisions += 1
                known = (*deal.holes[lbr_seat], *state.board)
                if live_weights(weights, known).sum() <= 0.0:
                    # Only an inexact (one draw per hand) range can lose every hand
                    # that fits the cards; start again from the uniform range.
                    weights = np.ones(NUM_COMBOS)
                    t.range_resets += 1
            action, _ = choose(state, lbr_seat, weights, settings, fold_probability, rng=rng)
            state.step(action)
    t.last_range = weights
    call_end_hand(agent, state.observation(seat), state.payoffs())
    chips = _chips(state.payoffs()[lbr_seat])
    if luck is not None:
        adjusted = luck_payoffs(state)
        luck.append(chips if adjusted is None else adjusted[lbr_seat])
    return chips


@dataclass(frozen=True)
class DealResult:
    """LBR's chips in seat 0 and in seat 1 of one deal (and the same luck adjusted)."""

    seat0: float
    seat1: float
    luck0: float = 0.0
    luck1: float = 0.0

    @property
    def mean(self) -> float:
        """Chips per hand over the two seats."""
        return (self.seat0 + self.seat1) / 2.0

    @property
    def mean_luck(self) -> float:
        """Luck-adjusted chips per hand over the two seats."""
        return (self.luck0 + self.luck1) / 2.0


def _deal_rngs(seed: int, index: int) -> tuple[np.random.Generator, int]:
    cards, agent = np.random.SeedSequence([seed, index]).spawn(2)
    return np.random.default_rng(cards), int(agent.generate_state(1)[0])


def play_deal(
    agent_spec: str,
    deal: Deal,
    settings: LBRSettings,
    *,
    seed: int,
    config: TableConfig | None = None,
    tally: _Tally | None = None,
) -> DealResult:
    """Both seats of ``deal``: a fresh agent seeded ``seed`` plays seat 1, then seat 0."""
    cfg = config if config is not None else lbr_config()
    agent = make_agent(agent_spec, seed=seed)
    lbr_rng = np.random.default_rng(np.random.SeedSequence([seed, 1]))
    luck: list[float] = []
    r0 = play_hand(agent, deal, 0, settings, cfg, rng=lbr_rng, hand_number=0, tally=tally,
                   luck=luck)
    r1 = play_hand(agent, deal, 1, settings, cfg, rng=lbr_rng, hand_number=1, tally=tally,
                   luck=luck)
    return DealResult(r0, r1, luck[0], luck[1])


@dataclass(frozen=True)
class LBRItem:
    """A block of deals: plain data, so any backend can ship it to a worker."""

    agent: str
    actions: str
    streets: tuple[int, ...]
    seed: int
    first: int
    count: int
    preflop_samples: int = 1000
    mirror: bool = False
    stack: int = STACK
    small_blind: int = SMALL_BLIND
    big_blind: int = BIG_BLIND


@dataclass(frozen=True)
class ItemResult:
    """Per-deal results of one item, and what the item learnt about the agent."""

    deals: tuple[DealResult, ...]
    inexact: tuple[str, ...]
    range_resets: int
    lbr_decisions: int


def run_item(item: LBRItem, progress: Progress) -> ItemResult:
    """Play deals ``first .. first + count - 1`` of ``item`` (module level: workers call it)."""
    settings = LBRSettings(item.actions, frozenset(item.streets), item.preflop_samples)  # type: ignore[arg-type]
    cfg = lbr_config(item.stack, item.small_blind, item.big_blind)
    tally = _Tally()
    out = []
    for i in range(item.first, item.first + item.count):
        cards, agent_seed = _deal_rngs(item.seed, i)
        deal = draw_deal(cards)
        out.append(play_deal(item.agent, deal, settings, seed=agent_seed, config=cfg,
                             tally=tally))
        progress(2)
        if item.mirror:
            out.append(play_deal(item.agent, deal.swapped(), settings, seed=agent_seed,
                                 config=cfg, tally=tally))
            progress(2)
    return ItemResult(tuple(out), tuple(sorted(tally.inexact)), tally.range_resets,
                      tally.lbr_decisions)


def make_items(agent: str, hands: int, settings: LBRSettings, *, seed: int,
               block: int = DEFAULT_BLOCK, mirror: bool = False) -> list[LBRItem]:
    """Work items covering ``ceil(hands / 2)`` deals in blocks of ``block`` deals.

    With ``mirror`` each drawn deal is also played with the hole cards swapped, so a
    drawn deal gives four hands and ``ceil(hands / 4)`` are drawn.
    """
    if hands < 2:
        raise ConfigError(f"invalid hands {hands!r}: expected at least 2 (one deal, both seats)")
    if block < 1:
        raise ConfigError(f"invalid block {block!r}: expected at least 1 deal per work item")
    per_deal = 4 if mirror else 2
    deals = (hands + per_deal - 1) // per_deal
    return [
        LBRItem(agent, settings.actions.value, tuple(sorted(settings.streets)), seed, first,
                min(block, deals - first), settings.preflop_samples, mirror)
        for first in range(0, deals, block)
    ]


@dataclass(frozen=True)
class LBRResult:
    """LBR's winnings against one agent."""

    agent: str
    settings: LBRSettings
    seed: int
    mbb_per_game: Estimate
    mbb_per_game_luck: Estimate
    seat_mbb: tuple[float, float]
    hands: int
    deals: int
    exact: bool
    notes: tuple[str, ...]
    range_resets: int
    lbr_decisions: int

    def to_json(self) -> dict[str, Any]:
        """Plain JSON: ``mbb_per_game`` as ``{mean, ci95_low, ci95_high, n}`` and the rest."""
        e = self.mbb_per_game.to_json()
        lucky = self.mbb_per_game_luck.to_json()
        return {
            "agent": self.agent,
            "actions": self.settings.actions.value,
            "streets": sorted(self.settings.streets),
            "seed": self.seed,
            "mbb_per_game": {"mean": e["mean"], "ci95_low": e["ci95_low"],
                             "ci95_high": e["ci95_high"], "n": self.hands},
            "mbb_per_game_luck_adjusted": {"mean": lucky["mean"], "ci95_low": lucky["ci95_low"],
                                           "ci95_high": lucky["ci95_high"], "n": self.hands},
            "deals": self.deals,
            "seat_mbb": list(self.seat_mbb),
            "range_tracking_exact": self.exact,
            "notes": list(self.notes),
            "range_resets": self.range_resets,
            "lbr_decisions": self.lbr_decisions,
        }


class _BlockJournal:
    """Appends finished blocks to a JSON-lines file (``None``: writes nothing), each
    line flushed at once."""

    def __init__(self, path: Path | None) -> None:
        self._file = None if path is None else open(path, "a+", encoding="utf-8")  # noqa: SIM115
        if self._file is not None and self._file.tell() > 0:
            self._file.seek(self._file.tell() - 1)
            if self._file.read(1) != "\n":  # a line cut short by a kill: end it there
                self._file.write("\n")

    def write(self, item: LBRItem, result: ItemResult) -> None:
        if self._file is None:
            return
        row = {"item": asdict(item), "deals": [[d.seat0, d.seat1, d.luck0, d.luck1]
                                               for d in result.deals],
               "inexact": list(result.inexact), "range_resets": result.range_resets,
               "lbr_decisions": result.lbr_decisions}
        self._file.write(json.dumps(row) + "\n")
        self._file.flush()

    def __enter__(self) -> _BlockJournal:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._file is not None:
            self._file.close()


def load_blocks(path: Path, items: list[LBRItem]) -> dict[int, ItemResult]:
    """The results in ``path`` of the blocks among ``items`` (by index); a line cut
    short, or of another run's block, is left out (that block is played again)."""
    index = {json.dumps(asdict(item), sort_keys=True): i for i, item in enumerate(items)}
    done: dict[int, ItemResult] = {}
    if not path.exists():
        return done
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
            i = index.get(json.dumps(row["item"], sort_keys=True))
            deals = tuple(DealResult(*(float(x) for x in d)) for d in row["deals"])
            if i is None or len(deals) != items[i].count * (2 if items[i].mirror else 1):
                continue
            done[i] = ItemResult(deals, tuple(str(n) for n in row["inexact"]),
                                 int(row["range_resets"]), int(row["lbr_decisions"]))
        except (ValueError, KeyError, TypeError):
            continue
    return done


def run_lbr(
    agent: str,
    hands: int,
    settings: LBRSettings,
    *,
    seed: int,
    workers: int = 1,
    backend: Backend | None = None,
    block: int = DEFAULT_BLOCK,
    mirror: bool = False,
    on_progress: Callable[[int], None] | None = None,
    journal: Path | None = None,
) -> LBRResult:
    """LBR against ``agent`` over ``ceil(hands / 2)`` duplicate deals; mbb/game with its 95% CI.

    ``mirror`` also plays every deal with the two hole-card pairs exchanged (four
    hands per drawn deal): where both players would check a hand down, its
    showdown luck then cancels exactly; the interval's unit is then the drawn deal.

    ``journal`` (a JSON-lines file) gets each block of deals as it finishes, and the
    blocks already in it are not played again: a killed run goes on where it
    stopped, and ends with the result of an uninterrupted one (the deals are seeded
    one by one).
    """
    make_agent(agent, seed=0)  # a bad spec fails here, before any worker starts
    items = make_items(agent, hands, settings, seed=seed, block=block, mirror=mirror)
    results: dict[int, ItemResult] = {}
    if journal is not None:
        results.update(load_blocks(journal, items))
        if on_progress is not None and results:
            on_progress(sum((4 if mirror else 2) * items[i].count for i in results))
    todo = [i for i in range(len(items)) if i not in results]
    with _BlockJournal(journal) as log:

        def keep(k: int, result: ItemResult) -> None:
            results[todo[k]] = result
            log.write(items[todo[k]], result)

        resolve_backend(backend, workers).run(run_item, [items[i] for i in todo], keep,
                                              on_progress)
    ordered = [results[i] for i in range(len(items))]
    deals = [d for r in ordered for d in r.deals]
    notes = sorted({n for r in ordered for n in r.inexact})
    cfg = lbr_config()
    s0 = float(np.mean([d.seat0 for d in deals])) * 1000.0 / cfg.big_blind
    s1 = float(np.mean([d.seat1 for d in deals])) * 1000.0 / cfg.big_blind
    units = [d.mean for d in deals]
    lucky = [d.mean_luck for d in deals]
    if mirror:  # a deal and its mirror image are one unit: they share the board
        units = [(units[k] + units[k + 1]) / 2.0 for k in range(0, len(units), 2)]
        lucky = [(lucky[k] + lucky[k + 1]) / 2.0 for k in range(0, len(lucky), 2)]
    return LBRResult(
        agent, settings, seed, mbb_per_hand(units, cfg.big_blind),
        mbb_per_hand(lucky, cfg.big_blind), (s0, s1),
        2 * len(deals), len(units), not notes, tuple(notes),
        sum(r.range_resets for r in ordered), sum(r.lbr_decisions for r in ordered),
    )
