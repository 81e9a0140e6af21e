"""The decision writer: deterministic per seed, resumable, and its tables replay to the planes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from checkraise.analysis.opponent_data import (
    GenerationConfig,
    chunk_path,
    generate,
    generate_chunk,
    load_decisions,
)
from checkraise.engine import Action, State
from checkraise.errors import ConfigError
from checkraise.nn.action_classes import action_class, representative
from checkraise.nn.opponent_planes import action_table, encode, scalars_of

FAST = GenerationConfig(seed=3, chunks=2, hands_per_chunk=25,
                        pool=("random", "call", "raise", "checkfold"), weights=(1, 1, 1, 1))


def _arrays(folder: Path, i: int) -> dict[str, np.ndarray]:
    with np.load(chunk_path(folder, i)) as z:
        return {k: z[k] for k in z.files}


def test_chunks_are_deterministic_per_seed() -> None:
    a = generate_chunk(FAST, 1)
    b = generate_chunk(FAST, 1)
    other = generate_chunk(GenerationConfig(**{**FAST.__dict__, "seed": 4}), 1)
    assert all(np.array_equal(a[k], b[k]) for k in a)
    assert not np.array_equal(a["hole"], other["hole"])


def test_resume_writes_only_missing_chunks_and_the_same_bytes(tmp_path: Path) -> None:
    assert generate(tmp_path, FAST) == 2
    first = _arrays(tmp_path, 1)
    chunk_path(tmp_path, 1).unlink()
    (tmp_path / "chunk_00001.npz.tmp").write_bytes(b"half a file from a killed run")
    done: list[int] = []
    assert generate(tmp_path, FAST, lambda i, n: done.append(i)) == 1
    assert done == [1]
    again = _arrays(tmp_path, 1)
    assert all(np.array_equal(first[k], again[k]) for k in first)
    more = GenerationConfig(**{**FAST.__dict__, "chunks": 3})
    assert generate(tmp_path, more) == 1  # extending a folder is allowed
    with pytest.raises(ConfigError, match="seed"):
        generate(tmp_path, GenerationConfig(**{**FAST.__dict__, "seed": 9}))


def test_stored_decisions_replay_to_the_same_planes(tmp_path: Path) -> None:
    generate(tmp_path, FAST)
    ds = load_decisions(tmp_path)
    z = _arrays(tmp_path, 0)
    assert len(ds) == len(z["label"]) + len(_arrays(tmp_path, 1)["label"])
    checked = 0
    for h in range(FAST.hands_per_chunk):
        ids = np.flatnonzero(z["hand"] == h)
        rows = z["actions"][z["offsets"][h]:z["offsets"][h + 1]]
        state = State(FAST.table(), deck=list(range(52)))
        for j, i in enumerate(ids):
            seat = int(ds.seat[i])
            obs = state.observation(seat)
            assert np.array_equal(ds.history(int(i)), action_table(obs))
            assert np.allclose(ds.scalars[i], scalars_of(obs))
            assert ds.mask[i] == sum(1 << k for k in range(6)
                                     if representative(obs, k) is not None)
            planes = ds.planes([int(i)])[0]
            enc = encode(obs, tuple(int(c) for c in ds.hole[i]))
            # the stand-in deck has other cards: compare everything but the card planes
            assert np.array_equal(planes[4:], enc[4:])
            chips = int(rows[j, 3])
            cls = int(rows[j, 2])
            action = (Action.fold() if cls == 0 else Action.call() if cls == 1
                      else Action.raise_to(obs.contributions[seat] + chips))
            assert action_class(obs, action) == cls == ds.label[i]
            assert ds.mask[i] >> cls & 1
            state.step(action)
            checked += 1
        assert state.is_terminal
    assert checked == len(z["label"])


def test_bad_settings_are_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="at least two bots"):
        GenerationConfig(pool=("call",), weights=(1,))
    with pytest.raises(ConfigError, match="names a bot twice"):
        GenerationConfig(pool=("call", "call"), weights=(1, 1))
    generate(tmp_path, FAST)
    with pytest.raises(ConfigError, match="3 chunks asked"):
        load_decisions(tmp_path, 3)
