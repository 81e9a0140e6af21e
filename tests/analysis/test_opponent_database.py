"""Chunks made through the hand database: the same arrays as the direct route, each hand once."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from checkraise.analysis.opponent_data import (
    GenerationConfig,
    chunk_path,
    generate,
    missing_chunks,
)
from checkraise.errors import ConfigError
from checkraise.histories.database import load_hands, open_database

# Specs with ':' and ',' check the player names of the hand histories.
FAST = GenerationConfig(seed=3, chunks=2, hands_per_chunk=25,
                        pool=("random:pfold=0.2,pcall=0.6,praise=0.2", "call", "raise",
                              "checkfold"), weights=(1, 1, 1, 1))


def _arrays(folder: Path, i: int) -> dict[str, np.ndarray]:
    with np.load(chunk_path(folder, i)) as z:
        return {k: z[k] for k in z.files}


def _count(db: sqlite3.Connection, table: str) -> int:
    return int(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])


def _same_chunks(a: Path, b: Path, chunks: int) -> None:
    for i in range(chunks):
        x, y = _arrays(a, i), _arrays(b, i)
        assert list(x) == list(y), i
        for k in x:
            assert x[k].dtype == y[k].dtype and np.array_equal(x[k], y[k]), (i, k)


def test_the_database_route_gives_the_chunks_of_the_direct_route(tmp_path: Path) -> None:
    assert generate(tmp_path / "direct", FAST) == 2
    db = open_database(tmp_path / "h.sqlite")
    assert generate(tmp_path / "db", FAST, db=db) == 2
    _same_chunks(tmp_path / "direct", tmp_path / "db", 2)
    assert _count(db, "hands") == 50
    # one stored action per decision: the decisions are the stored hands' actions
    labels = sum(len(_arrays(tmp_path / "db", i)["label"]) for i in range(2))
    assert _count(db, "actions") == labels
    hands = list(load_hands(db))
    assert hands[0].hand_id == f"{FAST.match_name()}.3.0"
    assert hands[-1].hand_id == f"{FAST.match_name()}.3.49"
    names = {s.name for h in hands for s in h.seats}
    assert names == set(FAST.player_names())
    assert "random_pfold=0.2_pcall=0.6_praise=0.2" in names
    # who sat where is read back from the database: each hand's players are its seats
    bots = np.concatenate([_arrays(tmp_path / "db", i)["hand_bots"] for i in range(2)])
    assert [[FAST.player_names()[b] for b in row] for row in bots.tolist()] == [
        [s.name for s in h.seats] for h in hands]


def test_resuming_stores_each_hand_once_and_fills_a_new_database(tmp_path: Path) -> None:
    out = tmp_path / "data"
    db = open_database(tmp_path / "h.sqlite")
    generate(out, FAST, db=db)
    first = _arrays(out, 1)
    chunk_path(out, 1).unlink()
    (out / "chunk_00001.npz.tmp").write_bytes(b"half a file from a killed run")
    done: list[int] = []
    assert generate(out, FAST, lambda i, n: done.append(i), db=db) == 1
    assert done == [1] and _count(db, "hands") == 50 and _count(db, "seats") == 100
    again = _arrays(out, 1)
    assert all(np.array_equal(first[k], again[k]) for k in first)
    assert generate(out, FAST, db=db) == 0
    more = dataclasses.replace(FAST, chunks=3)
    assert missing_chunks(out, more, db) == [2]
    assert generate(out, more, db=db) == 1 and _count(db, "hands") == 75
    # a complete folder and a new database: the chunks are made again, the same
    fresh = open_database(tmp_path / "new.sqlite")
    assert missing_chunks(out, more, fresh) == [0, 1, 2] and missing_chunks(out, more) == []
    assert generate(out, more, db=fresh) == 3 and _count(fresh, "hands") == 75
    assert all(np.array_equal(first[k], v) for k, v in _arrays(out, 1).items())


def test_other_hands_under_the_same_keys_are_refused(tmp_path: Path) -> None:
    db = open_database(tmp_path / "h.sqlite")
    generate(tmp_path / "a", FAST, db=db)
    db.execute("UPDATE players SET name = 'someone' WHERE name = 'call'")
    chunk_path(tmp_path / "a", 0).unlink()
    with pytest.raises(ConfigError, match=r"holds hand 'opponent-\w+\.3\.\d+' other than"):
        generate(tmp_path / "a", FAST, db=db)
    assert not chunk_path(tmp_path / "a", 0).exists()


def test_pool_names_that_collide_in_hand_histories_are_refused(tmp_path: Path) -> None:
    cfg = dataclasses.replace(FAST, pool=("random:pfold=0.5", "random_pfold=0.5"),
                              weights=(1, 1))
    db = open_database(":memory:")
    with pytest.raises(ConfigError, match="expected distinct names"):
        generate(tmp_path, cfg, db=db)
    assert _count(db, "hands") == 0
    assert FAST.match_name() != dataclasses.replace(FAST, seed=4).match_name()
    assert FAST.match_name() == dataclasses.replace(FAST, chunks=9).match_name()
