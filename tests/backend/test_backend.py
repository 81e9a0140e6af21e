"""The backend contract: results by item index whatever the backend and worker count,
progress totals, a failing item reported with its index and seed while finished items
are kept, clear errors for bad settings, and an interrupt that stops local workers."""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from checkraise.backend import (
    Backend,
    LocalBackend,
    Progress,
    WorkItemError,
    make_backend,
)
from checkraise.errors import ConfigError

pytestmark = pytest.mark.xdist_group("ray")


@dataclass(frozen=True)
class Draw:
    seed: int
    size: int
    fail: bool = False


def draw(item: Draw, progress: Progress) -> list[float]:
    """The item's seeded numbers; one progress unit per number, in two reports."""
    if item.fail:
        raise ArithmeticError(f"item with seed {item.seed} refuses")
    values = np.random.default_rng(item.seed).random(item.size)
    progress(item.size // 2)
    progress(item.size - item.size // 2)
    return [float(v) for v in values]


SIZES = (3, 1, 4, 1, 5, 9, 2, 6, 5)
ITEMS = [Draw(seed, size) for seed, size in zip(range(11, 20), SIZES, strict=True)]


def _backends(request: pytest.FixtureRequest) -> Backend:
    if request.param == "ray":
        return request.getfixturevalue("ray_backend")  # type: ignore[no-any-return]
    return LocalBackend(int(request.param.split("-")[1]))


@pytest.fixture(params=["local-1", "local-2", "ray"])
def backend(request: pytest.FixtureRequest) -> Backend:
    return _backends(request)


def test_results_by_index_equal_the_items_run_alone(backend: Backend) -> None:
    got: dict[int, list[float]] = {}
    units: list[int] = []
    backend.run(draw, ITEMS, got.__setitem__, units.append)
    # The oracle: each item run by itself in this process, from its own seed.
    assert got == {i: draw(item, lambda n: None) for i, item in enumerate(ITEMS)}
    assert sum(units) == sum(item.size for item in ITEMS)
    assert backend.map(draw, ITEMS) == [got[i] for i in range(len(ITEMS))]


@dataclass(frozen=True)
class Ticks:
    seed: int


def tick(item: Ticks, progress: Progress) -> int:
    """Reports one unit every 0.05 s for 0.5 s: some go out while the item runs."""
    for _ in range(10):
        time.sleep(0.05)
        progress(1)
    return item.seed


def test_progress_sent_while_items_run_adds_up_exactly(backend: Backend) -> None:
    units: list[int] = []
    assert backend.map(tick, [Ticks(s) for s in range(4)], units.append) == [0, 1, 2, 3]
    assert sum(units) == 40
    if not isinstance(backend, LocalBackend) or backend.workers > 1:
        # From other processes the units come in batches, some before the results.
        assert len(units) < 40


def test_a_failing_item_is_reported_with_its_index_and_seed_and_others_are_kept(
    backend: Backend,
) -> None:
    items = [*ITEMS[:4], Draw(99, 2, fail=True), *ITEMS[4:]]
    got: dict[int, list[float]] = {}
    with pytest.raises(WorkItemError) as info:
        backend.run(draw, items, got.__setitem__)
    err = info.value
    assert (err.index, err.seed) == (4, 99)
    assert isinstance(err.cause, ArithmeticError)
    assert "work item 4 (seed 99) failed: ArithmeticError: item with seed 99 refuses" in str(err)
    # Every item handed out before the failing one finished and reached on_result,
    # with its right result; the failing one did not.
    assert set(range(4)) <= set(got) and 4 not in got
    for i, values in got.items():
        assert values == draw(items[i], lambda n: None)


def test_no_items_no_calls(backend: Backend) -> None:
    backend.run(draw, [], lambda i, r: pytest.fail("no item, no result"))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("spark",), "unknown backend 'spark': expected local or ray"),
        (("local", 0), "invalid workers 0: expected at least 1"),
        (("ray", -2), "invalid workers -2: expected at least 1"),
        (("local", True), "invalid workers True"),
        (("local", 2, "auto"), "an address ('auto') is only for the ray backend"),
    ],
)
def test_bad_settings_are_config_errors(args: tuple[object, ...], message: str) -> None:
    with pytest.raises(ConfigError) as info:
        make_backend(*args)  # type: ignore[arg-type]
    assert message in str(info.value)


def test_ray_missing_says_which_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails
    with pytest.raises(ConfigError, match=r"install checkraise\[distributed\]"):
        make_backend("ray", workers=2)


@dataclass(frozen=True)
class Nap:
    seed: int
    folder: str
    seconds: float


def nap(item: Nap, progress: Progress) -> int:
    folder = Path(item.folder)
    (folder / f"started-{item.seed}").write_text(str(os.getpid()))
    time.sleep(item.seconds)
    (folder / f"finished-{item.seed}").write_text("")
    return item.seed


def test_an_interrupt_stops_the_local_workers_at_once(tmp_path: Path) -> None:
    # Item 0 ends at once; item 1 would sleep a minute. The interrupt (raised where the
    # parent handles item 0's result, as Ctrl-C would be) must not wait for item 1.
    items = [Nap(0, str(tmp_path), 0.0), Nap(1, str(tmp_path), 60.0)]

    def interrupt(i: int, result: int) -> None:
        while not (tmp_path / "started-1").exists():
            time.sleep(0.05)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        LocalBackend(2).run(nap, items, interrupt)
    assert not (tmp_path / "finished-1").exists()
    pid = int((tmp_path / "started-1").read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def crash(item: Draw, progress: Progress) -> list[float]:
    if item.fail:
        os._exit(3)  # the worker process dies, as on a segfault or the OOM killer
    return draw(item, progress)


def test_a_worker_that_dies_is_reported_not_waited_for(ray_backend: Backend) -> None:
    items = [*ITEMS[:3], Draw(77, 2, fail=True)]
    with pytest.raises(WorkItemError) as info:
        ray_backend.run(crash, items, lambda i, r: None)
    assert (info.value.index, info.value.seed) == (3, 77)
    # Local processes: the pool breaks, and the error names an item that was running.
    with pytest.raises(WorkItemError, match="BrokenProcessPool"):
        LocalBackend(2).run(crash, items, lambda i, r: None)


@dataclass(frozen=True)
class Threads:
    seed: int = 0


def torch_threads(item: Threads, progress: Progress) -> int:
    """The number of threads torch's operators use in the process that runs the item."""
    import torch

    return int(torch.get_num_threads())


def test_local_workers_run_torch_on_one_thread_each(monkeypatch: pytest.MonkeyPatch) -> None:
    # Two workers on two cores: each one's torch pool must be one thread, not one per
    # core (whether torch was imported before the workers started or after).
    import torch

    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    before = torch.get_num_threads()
    got: dict[int, int] = {}
    LocalBackend(workers=2).run(torch_threads, [Threads(0), Threads(1)], got.__setitem__)
    assert got == {0: 1, 1: 1}
    assert torch.get_num_threads() == before  # the parent keeps its own pool
    # the environment wins
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    got.clear()
    LocalBackend(workers=2).run(torch_threads, [Threads(0), Threads(1)], got.__setitem__)
    assert got == {0: before, 1: before}
