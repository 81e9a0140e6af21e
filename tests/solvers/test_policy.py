"""Policy arrays: validation, re-indexing, and the .npz + JSON file format."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from checkraise.games import build_tree, load_game
from checkraise.solvers import Policy, PolicyFileError, VectorisedCFRSolver, exploitability


def test_round_trip_keeps_everything(tmp_path: Path) -> None:
    tree = build_tree(load_game("leduc"))
    policy = Policy.random(tree, np.random.default_rng(0))
    policy = Policy(policy.keys, policy.probs, policy.legal, "leduc", {}, {"algorithm": "x"})
    loaded = Policy.load(policy.save(tmp_path / "p.npz"))
    assert loaded.keys == policy.keys
    assert np.array_equal(loaded.probs, policy.probs)
    assert np.array_equal(loaded.legal, policy.legal)
    assert loaded.meta == {"algorithm": "x"}
    assert exploitability(tree, loaded) == exploitability(tree, policy)


def test_file_holds_no_pickles(tmp_path: Path) -> None:
    tree = build_tree(load_game("kuhn"))
    path = Policy.uniform(tree).save(tmp_path / "p.npz")
    with np.load(path, allow_pickle=False) as data:
        header = json.loads(bytes(data["header"]).decode())
        assert header["keys"] == list(tree.infoset_keys)
        assert all(data[name].dtype != object for name in data.files)


def test_pickled_or_foreign_files_are_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.npz"
    np.savez(bad, header=np.array([{"format": "x"}], dtype=object), probs=np.zeros((1, 2)))
    with pytest.raises(PolicyFileError, match=r"bad\.npz"):
        Policy.load(bad)
    other = tmp_path / "other.npz"
    buffer = io.BytesIO()
    np.save(buffer, np.frombuffer(json.dumps({"format": "else"}).encode(), dtype=np.uint8))
    with zipfile.ZipFile(other, "w") as archive:
        archive.writestr("header.npy", buffer.getvalue())
        archive.writestr("probs.npy", buffer.getvalue())
        archive.writestr("legal.npy", buffer.getvalue())
    with pytest.raises(PolicyFileError, match="not a checkraise policy"):
        Policy.load(other)
    with pytest.raises(PolicyFileError, match=r"missing\.npz"):
        Policy.load(tmp_path / "missing.npz")


def test_rows_are_validated() -> None:
    tree = build_tree(load_game("kuhn"))
    probs = Policy.uniform(tree).probs.copy()
    probs[0] = [0.7, 0.7]
    with pytest.raises(ValueError, match=r"sums to 1\.4"):
        Policy.from_tree(tree, probs)


def test_vectorised_policy_maps_onto_the_history_tree() -> None:
    game = load_game("leduc")
    tree = build_tree(game)
    policy = VectorisedCFRSolver(game).average_policy()
    assert set(policy.keys) == set(tree.infoset_keys) and policy.keys != tree.infoset_keys
    assert np.allclose(policy.on_tree(tree), Policy.uniform(tree).probs)
    with pytest.raises(ValueError, match="policy is for leduc"):
        policy.on_tree(build_tree(load_game("kuhn")))
    with pytest.raises(ValueError, match="unknown information set 'nope'"):
        policy.row("nope")
