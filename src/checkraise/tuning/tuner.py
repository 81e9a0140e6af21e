"""Self-play tuning of heuristic profiles: coordinate-wise annealing, iterated best response.

The tuner improves one of the 44 parameters at a time with the others fixed:

* **Coordinate-wise simulated annealing.** For parameter ``i`` it runs ``steps``
  annealing steps (Kirkpatrick, Gelatt and Vecchi, *Optimization by simulated
  annealing*, Science 1983): propose ``value + width * N(0, 1)``, with the width and the
  temperature shrinking linearly over the steps, and accept when the candidate's gain
  ``delta`` over the incumbent is positive or with probability ``exp(delta / T)``. As
  annealing keeps the best state rather than the last, the chain's end point must then
  beat the parameter's starting value on fresh deals, or the parameter goes back
  (a ``revert`` line in the log).
* **Duplicate comparison with a trimmed mean.** ``delta`` is measured on the same deals
  for candidate and incumbent, each playing the current *opponent* in duplicate (every
  deal twice, seats swapped; :mod:`checkraise.tuning.selfplay`): the per-deal difference
  is grouped into ``batches`` batches and their trimmed mean (the ``trim`` share cut off
  at each end) is the gain in mbb/hand. Cutting the extreme batches removes the few
  all-in pots that would otherwise decide a comparison.
* **Iterated best response.** After a sweep over all parameters the opponent is
  replaced by the improved profile and the next sweep starts (Brown's fictitious play
  idea in its simplest, best-response-to-the-last form).

At ``seats`` > 2 the comparison is a ring game instead
(:mod:`checkraise.tuning.ringplay`): the candidate, or the incumbent, sits in one seat
against ``seats - 1`` copies of the opponent, in every seat in turn on the same deal,
and a deal's gain is divided by the number of seats.

Deals come from a pool valued once (:class:`~checkraise.tuning.selfplay.DealPool`, or
:class:`~checkraise.tuning.ringplay.RingPool` at a ring table); each
step draws its own deals from the pool with a generator seeded by ``(seed, sweep,
parameter, step)``, so a run depends only on its seed and a resumed run equals an
uninterrupted one.

The log (``tune_log.jsonl``) holds a ``start`` line (settings, seed, both profiles), an
``accept`` line for every accepted change, a ``revert`` line when a parameter's annealing
is undone, a ``param_done`` line after each parameter
and a ``sweep_done`` line (with the new opponent) after each sweep; :func:`tune` with
``resume=True`` replays it and continues after the last finished parameter.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from checkraise.agents.profiles import PARAMETER_NAMES, Profile, ValueScale
from checkraise.arena.stats import Estimate
from checkraise.backend import Backend
from checkraise.errors import CheckraiseError
from checkraise.tuning._blocks import POOL_BLOCK
from checkraise.tuning.ringplay import RingPool, ring_chips, ring_match
from checkraise.tuning.selfplay import DealPool, duplicate_chips, duplicate_match

__all__ = [
    "LOG_FILE",
    "PROFILE_FILE",
    "TuneConfig",
    "TuneError",
    "TuneResult",
    "match",
    "proposal_width",
    "trimmed_mean",
    "tune",
]

LOG_FILE = "tune_log.jsonl"
PROFILE_FILE = "profile.json"
# Smallest proposal width of a cubic coefficient per street, in big blinds: later
# streets play bigger pots, so their amounts move in bigger steps.
_COEF_UNIT = (1.0, 2.0, 4.0, 6.0)
_CUT_WIDTH = 0.1
_CUT_GAP = 1e-3


Pool = DealPool | RingPool


class TuneError(CheckraiseError):
    """Bad tuner settings, or a log that cannot be resumed with these settings."""


def _chips(
    a: Profile, b: Profile, pool: Pool, index: npt.NDArray[np.int64] | None = None
) -> npt.NDArray[np.float64]:
    """``a``'s chips against ``b`` per deal, summed over the deal's seatings."""
    if isinstance(pool, RingPool):
        return ring_chips(a, b, pool, index)
    return duplicate_chips(a, b, pool, index)


def _seatings(pool: Pool) -> int:
    return pool.seats if isinstance(pool, RingPool) else 2


def match(a: Profile, b: Profile, pool: Pool) -> Estimate:
    """``a``'s win rate against ``b`` on ``pool`` in mbb/hand (heads-up or ring)."""
    if isinstance(pool, RingPool):
        return ring_match(a, b, pool)
    return duplicate_match(a, b, pool)


@dataclass(frozen=True)
class TuneConfig:
    """Settings of a tuning run.

    Parameters
    ----------
    sweeps
        Passes over the parameters; the opponent is replaced after each.
    steps
        Annealing steps per parameter per sweep.
    batches, batch_size
        Each comparison plays ``batches * batch_size`` duplicate deals.
    trim
        Share of batches cut off at each end before averaging (0 <= trim < 0.5).
    temperature
        Starting temperature in mbb/hand (0: accept only improvements).
    pool, samples
        Deals valued up front, and the Monte Carlo deals per value (the bot's ``samples``).
    stack, small_blind, big_blind
        Stakes of every hand.
    params
        Names or shell patterns (``"flop.*"``) of the parameters to tune; all by default.
    seats
        Players at the table: 2 plays heads-up duplicate, 3..10 ring games in which the
        tuned profile meets ``seats - 1`` copies of the opponent.
    """

    sweeps: int = 3
    steps: int = 6
    batches: int = 10
    batch_size: int = 5000
    trim: float = 0.1
    temperature: float = 1.0
    pool: int = 100_000
    samples: int = 1000
    stack: int = 20000
    small_blind: int = 50
    big_blind: int = 100
    params: tuple[str, ...] = ()
    seats: int = 2

    def __post_init__(self) -> None:
        if isinstance(self.seats, bool) or not isinstance(self.seats, int) or not (
            2 <= self.seats <= 10
        ):
            raise TuneError(f"invalid seats {self.seats!r}: expected 2..10 players")
        for name in ("sweeps", "steps", "batches", "batch_size", "pool", "samples"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise TuneError(f"invalid {name} {value!r}: expected a positive integer")
        if not 0.0 <= self.trim < 0.5:
            raise TuneError(f"invalid trim {self.trim!r}: expected 0 <= trim < 0.5")
        if not self.temperature >= 0.0 or math.isinf(self.temperature):
            raise TuneError(f"invalid temperature {self.temperature!r}: expected >= 0")
        object.__setattr__(self, "params", tuple(self.params))
        if not self.indices():
            raise TuneError(
                f"params {list(self.params)!r} match no parameter: expected names such as "
                f"'{PARAMETER_NAMES[0]}' or patterns such as 'river.*'"
            )

    def indices(self) -> list[int]:
        """Indices (in :data:`PARAMETER_NAMES` order) of the parameters to tune."""
        if not self.params:
            return list(range(len(PARAMETER_NAMES)))
        return [
            i for i, name in enumerate(PARAMETER_NAMES)
            if any(fnmatchcase(name, pat) for pat in self.params)
        ]

    @property
    def total_steps(self) -> int:
        """Annealing steps in the whole run."""
        return self.sweeps * len(self.indices()) * self.steps

    def to_json(self) -> dict[str, Any]:
        """Plain-JSON form."""
        d = asdict(self)
        d["params"] = list(self.params)
        if self.seats == 2:
            # Heads-up logs written before ring tuning existed must still resume.
            del d["seats"]
        return d

    def make_pool(self, size: int, seed: int, backend: Backend | None = None) -> Pool:
        """``size`` deals from ``seed`` at this table size, samples and stakes.

        Blocks of deals are valued as work items of ``backend`` (default: in this
        process); the pool does not depend on it.
        """
        if self.seats == 2:
            return DealPool.generate(
                size, seed, self.samples, self.stack, self.small_blind, self.big_blind,
                backend=backend,
            )
        return RingPool.generate(
            size, self.seats, seed, self.samples, self.stack, self.small_blind, self.big_blind,
            backend=backend,
        )


@dataclass
class TuneResult:
    """The tuned profile, the log of accepted changes and a held-out check."""

    profile: Profile
    start: Profile
    accepted: list[dict[str, Any]]
    steps_run: int
    resumed_steps: int
    before: Estimate | None = None
    after: Estimate | None = None
    files: list[Path] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """Plain-JSON summary."""
        return {
            "profile": self.profile.to_dict(),
            "accepted": len(self.accepted),
            "steps_run": self.steps_run,
            "resumed_steps": self.resumed_steps,
            "tuned_vs_start_mbb": self.after.to_json() if self.after else None,
            "start_vs_start_mbb": self.before.to_json() if self.before else None,
            "files": [str(f) for f in self.files],
        }


def trimmed_mean(x: Sequence[float] | npt.NDArray[np.float64], trim: float) -> float:
    """Mean after cutting ``floor(trim * n)`` values off each end of the sorted sample.

    Examples
    --------
    >>> trimmed_mean([1.0, 2.0, 3.0, 100.0], 0.25)
    2.5
    """
    a = np.sort(np.asarray(x, dtype=np.float64))
    k = int(trim * a.size)
    return float(a[k : a.size - k].mean())


def proposal_width(profile: Profile, index: int) -> float:
    """Starting proposal width of parameter ``index``: 0.1 for cut points, else a share of it.

    A coefficient moves by a quarter of its size, but at least one street-sized unit
    (1, 2, 4, 6 big blinds from preflop to river).

    Examples
    --------
    >>> from checkraise.agents.profiles import default_profile
    >>> proposal_width(default_profile(), 0)
    0.1
    """
    street, pos = divmod(index, 11)
    if pos < 3:
        return _CUT_WIDTH
    return max(0.25 * abs(profile.values[index]), _COEF_UNIT[street])


def _bounds(profile: Profile, index: int) -> tuple[float, float]:
    street, pos = divmod(index, 11)
    if pos >= 3:
        return -1000.0, 1000.0
    cuts = profile.values[11 * street : 11 * street + 3]
    lo = -1.0 if pos == 0 else cuts[pos - 1] + _CUT_GAP
    hi = 1.0 if pos == 2 else cuts[pos + 1] - _CUT_GAP
    return lo, hi


def _candidate(profile: Profile, index: int, width: float, gen: np.random.Generator) -> Profile:
    lo, hi = _bounds(profile, index)
    value = float(np.clip(profile.values[index] + width * gen.standard_normal(), lo, hi))
    return profile.replace(index, round(value, 4))


def _gain(
    cand: Profile, inc: Profile, opponent: Profile, pool: Pool, cfg: TuneConfig,
    gen: np.random.Generator,
) -> float:
    idx = gen.integers(0, len(pool), size=cfg.batches * cfg.batch_size)
    diff = _chips(cand, opponent, pool, idx) - _chips(inc, opponent, pool, idx)
    per_batch = diff.reshape(cfg.batches, cfg.batch_size).mean(axis=1) / _seatings(pool)
    return trimmed_mean(per_batch, cfg.trim) * 1000.0 / pool.big_blind


def _anneal(
    inc: Profile, index: int, sweep: int, opp: Profile, pool: Pool, config: TuneConfig,
    seed: int, write: Callable[[dict[str, Any]], None], accepted: list[dict[str, Any]],
) -> Profile:
    """Anneal parameter ``index`` of ``inc`` against ``opp``; keep the result only if it wins."""
    before = inc
    width0 = proposal_width(inc, index)
    for step in range(config.steps):
        gen = _step_rng(seed, sweep, index, step)
        cool = 1.0 - step / config.steps
        cand = _candidate(inc, index, width0 * (0.25 + 0.75 * cool), gen)
        if cand.values[index] == inc.values[index]:
            continue
        delta = _gain(cand, inc, opp, pool, config, gen)
        temp = config.temperature * cool
        if delta > 0 or (temp > 0 and gen.random() < math.exp(delta / temp)):
            ev = {
                "event": "accept", "sweep": sweep, "index": index, "step": step,
                "param": PARAMETER_NAMES[index], "old": inc.values[index],
                "new": cand.values[index], "gain_mbb": round(delta, 3),
            }
            inc = cand
            accepted.append(ev)
            write(ev)
    if inc.values[index] != before.values[index]:
        # The chain may have drifted downhill at high temperature: the end point must beat
        # the starting value on fresh deals, else the parameter goes back.
        check = _gain(inc, before, opp, pool, config, _step_rng(seed, sweep, index, config.steps))
        if check < 0:
            write({"event": "revert", "sweep": sweep, "index": index,
                   "param": PARAMETER_NAMES[index], "value": before.values[index],
                   "gain_mbb": round(check, 3)})
            inc = before
    return inc


def _step_rng(seed: int, sweep: int, index: int, step: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(sweep, index, step)))


def _read_log(path: Path) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            events.append(json.loads(line))
        except json.JSONDecodeError:
            break  # a line cut short by an interruption ends the usable log
    return events


def _replay(
    events: list[dict[str, Any]], header: dict[str, Any], path: Path, scale: ValueScale,
    opp_scale: ValueScale,
) -> tuple[Profile, Profile, set[tuple[int, int]], set[int], list[dict[str, Any]],
           list[dict[str, Any]]]:
    """Incumbent, opponent, finished parameters and sweeps, accepted changes, kept events."""
    if not events or events[0].get("event") != "start":
        raise TuneError(f"cannot resume from {path}: it does not start with a 'start' line")
    first = events[0]
    for key in ("config", "seed", "profile", "opponent", "value", "pool_block"):
        if first.get(key) != header.get(key):
            raise TuneError(
                f"cannot resume from {path}: its {key} is {first.get(key)!r}, expected "
                f"{header.get(key)!r} (same settings, seed and profiles as the logged run)"
            )
    inc = Profile.from_vector(first["profile"], "tuned", scale)
    opp = Profile.from_vector(first["opponent"], "opponent", opp_scale)
    done: set[tuple[int, int]] = set()
    swept: set[int] = set()
    accepted: list[dict[str, Any]] = []
    kept = [first]
    pending: list[dict[str, Any]] = []
    for ev in events[1:]:
        kind = ev.get("event")
        if kind in ("accept", "revert"):
            pending.append(ev)
        elif kind == "param_done":
            for acc in pending:
                value = acc["new"] if acc["event"] == "accept" else acc["value"]
                inc = inc.replace(int(acc["index"]), float(value))
            accepted.extend(acc for acc in pending if acc["event"] == "accept")
            kept.extend(pending)
            pending = []
            if inc.values[int(ev["index"])] != float(ev["value"]):
                raise TuneError(f"cannot resume from {path}: the log contradicts itself")
            done.add((int(ev["sweep"]), int(ev["index"])))
            kept.append(ev)
        elif kind == "sweep_done":
            # Iterated best response: the next opponent is the tuned profile.
            opp = Profile.from_vector(ev["profile"], "opponent", scale)
            swept.add(int(ev["sweep"]))
            kept.append(ev)
    return inc, opp, done, swept, accepted, kept


def tune(
    start: Profile,
    config: TuneConfig,
    seed: int,
    *,
    opponent: Profile | None = None,
    out: Path | None = None,
    resume: bool = False,
    check_deals: int = 0,
    backend: Backend | None = None,
    progress: Callable[[int], None] | None = None,
) -> TuneResult:
    """Tune ``start`` by coordinate-wise annealing and iterated best response.

    Parameters
    ----------
    start
        The profile to improve (also the first opponent unless ``opponent`` is given).
    config, seed
        Settings (:class:`TuneConfig`) and the master seed.
    out
        Folder for ``tune_log.jsonl`` and the final ``profile.json`` (nothing written if None).
    resume
        Continue the run logged in ``out`` (same settings, seed and profiles).
    check_deals
        If positive, play the tuned profile against ``start`` on that many held-out
        deals (a separate pool) and report the win rates before (``start`` against
        itself: zero) and after.
    backend
        Where the deal pools are valued, in blocks of deals (default: in this process);
        the annealing itself is sequential and runs here. The run does not depend on it.
    progress
        Called with the number of annealing steps just done.

    Examples
    --------
    >>> from checkraise.agents.profiles import default_profile
    >>> cfg = TuneConfig(sweeps=1, steps=2, batches=4, batch_size=20, pool=300, samples=50,
    ...                  params=("river.x",))
    >>> res = tune(default_profile(), cfg, seed=1)
    >>> res.steps_run, res.profile.values[:33] == default_profile().values[:33]
    (2, True)
    """
    opponent = start if opponent is None else opponent
    header = {
        "event": "start",
        "config": config.to_json(),
        "seed": seed,
        "profile": list(start.values),
        "opponent": list(opponent.values),
    }
    if start.pot_share or opponent.pot_share:
        # Logs of win-minus-lose runs keep their old header, so they still resume.
        header["value"] = [str(start.value), str(opponent.value)]
    if config.pool > POOL_BLOCK:
        # Pools larger than one block are valued block by block since pools became work
        # items: a log of a larger pool valued whole must not resume on different deals.
        header["pool_block"] = POOL_BLOCK
    inc, opp = start.renamed("tuned"), opponent
    done: set[tuple[int, int]] = set()
    swept: set[int] = set()
    accepted: list[dict[str, Any]] = []
    log: IO[str] | None = None
    log_path = out / LOG_FILE if out is not None else None
    if resume and (log_path is None or not log_path.exists()):
        raise TuneError(f"cannot resume: no {LOG_FILE} in {out}")
    if out is not None and log_path is not None:
        out.mkdir(parents=True, exist_ok=True)
        kept = [header]
        if resume:
            inc, opp, done, swept, accepted, kept = _replay(
                _read_log(log_path), header, log_path, start.value, opponent.value
            )
        with open(log_path, "w", encoding="utf-8") as f:
            for ev in kept:
                f.write(json.dumps(ev) + "\n")
        log = open(log_path, "a", encoding="utf-8")  # noqa: SIM115
    pool = config.make_pool(config.pool, seed, backend)
    indices = config.indices()
    resumed_steps = len(done) * config.steps
    if progress is not None and resumed_steps:
        progress(resumed_steps)
    steps_run = 0

    def write(ev: dict[str, Any]) -> None:
        if log is not None:
            log.write(json.dumps(ev) + "\n")
            log.flush()

    try:
        for sweep in range(config.sweeps):
            if sweep in swept:
                continue
            for index in indices:
                if (sweep, index) in done:
                    continue
                inc = _anneal(inc, index, sweep, opp, pool, config, seed, write, accepted)
                steps_run += config.steps
                if progress is not None:
                    progress(config.steps)
                write({"event": "param_done", "sweep": sweep, "index": index,
                       "param": PARAMETER_NAMES[index], "value": inc.values[index]})
            vs = match(inc, opp, pool)
            opp = inc.renamed("opponent")
            write({"event": "sweep_done", "sweep": sweep, "profile": list(inc.values),
                   "vs_previous_opponent_mbb": vs.to_json()})
    finally:
        if log is not None:
            log.close()
    result = TuneResult(inc.renamed("tuned"), start, accepted, steps_run, resumed_steps)
    if check_deals > 0:
        held_out = config.make_pool(check_deals, seed + 1_000_003, backend)
        result.before = match(start, start, held_out)
        result.after = match(result.profile, start, held_out)
    if out is not None:
        result.files = [log_path] if log_path is not None else []
        result.files.append(result.profile.save(out / PROFILE_FILE))
    return result


