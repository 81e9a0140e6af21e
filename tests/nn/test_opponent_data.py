"""The decision writer: deterministic per seed, resumable, and its tables replay to the planes."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from checkraise.analysis.opponent_data import (
    GenerationConfig,
    chunk_path,
    decisions_from_hands,
    generate,
    generate_chunk,
    load_decisions,
)
from checkraise.engine import Action, State
from checkraise.errors import ConfigError
from checkraise.histories.database import load_hands, open_database
from checkraise.histories.importer import import_files
from checkraise.nn.action_classes import action_class, representative
from checkraise.nn.opponent_planes import action_table, encode, scalars_of
from checkraise.protocol.gamedef import load_gamedef
from tests.shared_data import NL2_GAME, NL2_LOG_HEAD

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


def test_hand_histories_give_their_decisions_through_the_database() -> None:
    db = open_database(":memory:")
    [report] = import_files(db, [NL2_LOG_HEAD], game=load_gamedef(NL2_GAME))
    assert report.ok and report.hands == 21
    ds, skipped = decisions_from_hands(list(load_hands(db)))
    # the oracle: the betting strings of the log's STATE lines, action by action
    betting = [line.split(":")[2] for line in NL2_LOG_HEAD.read_text().splitlines()
               if line.startswith("STATE:")]
    kinds = [m[0] for b in betting for m in re.findall(r"(f|c|r\d+)", b)]
    assert skipped == 0 and len(ds) == len(kinds)
    want = [0 if k == "f" else 1 if k == "c" else 2 for k in kinds]
    assert [min(int(x), 2) for x in ds.label] == want
    assert set(ds.names) == {"Alice", "Bob"} and ds.start == 20000
    assert np.all(ds.mask >> ds.label.astype(np.uint8) & 1)
