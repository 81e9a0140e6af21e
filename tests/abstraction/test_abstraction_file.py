"""The Abstraction object: file round trip, header checks, bucket lookups."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from checkraise.abstraction._iso_kernels import index_cards
from checkraise.abstraction._table_kernels import board_river_buckets, lookup_bucket
from checkraise.abstraction.abstraction import Abstraction, AbstractionFileError
from checkraise.abstraction.build import parse_buckets
from checkraise.cards import parse_cards
from checkraise.errors import CheckraiseError
from tests.naive import SUIT_PERMUTATIONS, naive_river_ehs

THRESHOLDS = np.array([500, 990, 1500], dtype=np.int64)  # four river buckets


def _tiny() -> Abstraction:
    arrays = {
        "preflop_buckets": (np.arange(169) % 7).astype(np.uint16),
        "flop_buckets": (np.arange(1_286_792) % 11).astype(np.uint16),
        "turn_buckets": np.zeros(13_960_050, dtype=np.uint16),
        "river_thresholds": THRESHOLDS,
    }
    arrays["turn_buckets"][::1000] = 300  # above 255: stored as uint16
    header = {
        "buckets": {"preflop": 7, "flop": 11, "turn": 301, "river": 4},
        "method": "ehs", "seed": 1, "bins": 8, "command": "test", "quality": {},
    }  # fmt: skip
    return Abstraction(header, arrays)


@pytest.fixture(scope="module")
def tiny_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ab") / "tiny.npz"
    _tiny().save(path)
    return path


def test_round_trip(tiny_file: Path) -> None:
    ab = Abstraction.load(tiny_file)
    ref = _tiny()
    for name, arr in ref.arrays.items():
        assert np.array_equal(ab.arrays[name], arr), name
        assert ab.arrays[name].dtype == arr.dtype
    assert ab.buckets == (7, 11, 301, 4)
    assert ab.header["format"] == "checkraise-abstraction"
    assert set(ab.header["checksums"]) == {*ref.arrays}


def test_bucket_reads_tables_and_river_rule(tiny_file: Path) -> None:
    ab = Abstraction.load(tiny_file)
    rng = np.random.default_rng(3)
    for _ in range(20):
        cards = [int(c) for c in rng.choice(52, 7, replace=False)]
        hole, board = cards[:2], cards[2:]
        flop = ab.bucket("flop", hole, board[:3])
        assert flop == index_cards(1, np.array(cards[:5], dtype=np.uint8)) % 11
        v = naive_river_ehs(hole, board) * 1980
        assert v.denominator == 1
        want = int(np.searchsorted(THRESHOLDS, int(v), side="right"))
        assert ab.bucket("river", hole, board) == want
        assert ab.bucket(3, hole, board) == lookup_bucket(np.array(cards, np.uint8), *ab.tables())
        # a suit permutation of the hand has the same bucket on every street
        perm = SUIT_PERMUTATIONS[int(rng.integers(24))]
        image = [4 * (c >> 2) + perm[c & 3] for c in cards]
        for street, n in ((0, 0), (1, 3), (2, 4), (3, 5)):
            assert ab.bucket(street, image[:2], image[2 : 2 + n]) == ab.bucket(
                street, hole, board[:n]
            )


def _rewrite(src: Path, dst: Path, change: dict[str, np.ndarray], header_edit: dict) -> None:
    with np.load(src) as npz:
        arrays = {k: npz[k] for k in npz.files}
    header = json.loads(arrays.pop("header").tobytes())
    header.update(header_edit)
    arrays.update(change)
    blob = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
    np.savez(dst, header=blob, **arrays)


def test_bad_checksum_is_a_clear_error(tiny_file: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.npz"
    pre = (np.arange(169) % 7).astype(np.uint8)
    pre[5] = 6 - pre[5]
    _rewrite(tiny_file, bad, {"preflop_buckets": pre}, {})
    with pytest.raises(AbstractionFileError, match="checksum mismatch for array 'preflop_buckets'"):
        Abstraction.load(bad)


def test_other_version_and_foreign_files(tiny_file: Path, tmp_path: Path) -> None:
    newer = tmp_path / "newer.npz"
    _rewrite(tiny_file, newer, {}, {"format_version": 99})
    with pytest.raises(AbstractionFileError, match="format version 99"):
        Abstraction.load(newer)
    foreign = tmp_path / "foreign.npz"
    np.savez(foreign, x=np.arange(3))
    with pytest.raises(AbstractionFileError, match="no header"):
        Abstraction.load(foreign)
    text = tmp_path / "text.npz"
    text.write_text("hello")
    with pytest.raises(AbstractionFileError, match=r"abstraction file \(not an \.npz archive\)"):
        Abstraction.load(text)
    with pytest.raises(AbstractionFileError, match="does not exist"):
        Abstraction.load(tmp_path / "missing.npz")


def test_missing_or_misshapen_arrays() -> None:
    ref = _tiny()
    arrays = dict(ref.arrays)
    del arrays["river_thresholds"]
    with pytest.raises(AbstractionFileError, match="river_thresholds"):
        Abstraction(ref.header, arrays)
    arrays = dict(ref.arrays, flop_buckets=np.zeros(10, dtype=np.uint16))
    with pytest.raises(AbstractionFileError, match=r"flop_buckets has shape \(10,\)"):
        Abstraction(ref.header, arrays)


def test_bucket_rejects_bad_hands() -> None:
    ab = _tiny()
    with pytest.raises(CheckraiseError, match="for the flop: expected 3 cards, got 2"):
        ab.bucket("flop", [1, 2], [3, 4])
    with pytest.raises(CheckraiseError, match="card 2d given twice"):  # cards as text
        ab.bucket("turn", [1, 1], [3, 4, 5, 6])
    with pytest.raises(CheckraiseError, match="unknown street"):
        ab.bucket("showdown", [1, 2], [])


@pytest.mark.parametrize(
    ("text", "named"),
    [("169,200,200", "3 entries"), ("169,a,2,2", "not four"), ("170,2,2,2", "preflop bucket")],
)
def test_parse_buckets_errors(text: str, named: str) -> None:
    with pytest.raises(CheckraiseError, match=named):
        parse_buckets(text)


def test_default_abstraction_ships_and_answers() -> None:
    ab = Abstraction.load("default")
    assert ab.buckets == (169, 200, 200, 200)
    assert "checkraise abstraction build" in ab.header["command"]
    aces = ab.bucket("preflop", parse_cards("As Ah"))
    assert aces == ab.bucket("preflop", parse_cards("Ac Ad"))
    # river: the exact EHS numerator cut at the stored thresholds
    hole, board = parse_cards("As Kd"), parse_cards("Qh 7c 2s 3d 5h")
    v = naive_river_ehs(hole, board) * 1980
    want = int(np.searchsorted(ab.arrays["river_thresholds"], int(v), side="right"))
    assert ab.bucket("river", hole, board) == want
    assert Fraction(v).denominator == 1


def test_board_river_buckets_equal_single_lookups() -> None:
    ab = _tiny()
    rng = np.random.default_rng(4)
    board = np.sort(rng.choice(52, 5, replace=False)).astype(np.uint8)
    out = np.zeros((52, 52), dtype=np.int16)
    board_river_buckets(board, THRESHOLDS, out)
    live = [c for c in range(52) if c not in board]
    for a in live:
        assert out[a, a] == -1
        for b in live:
            if a < b:
                want = ab.bucket("river", [a, b], board.tolist())
                assert out[a, b] == out[b, a] == want
    assert (out[board, :] == -1).all()


@pytest.mark.parametrize(("street", "n_board"), [("flop", 3), ("turn", 4)])
def test_default_tables_agree_with_features_of_the_hand(street: str, n_board: int) -> None:
    # The stored bucket of a hand must be the EMD-nearest centroid of the hand's own
    # next-street histogram computed on the fly: this ties the shipped table to the
    # current indexer (a changed class order would break it) and to the features.
    from checkraise.abstraction.clustering import emd
    from checkraise.abstraction.features import hand_features

    ab = Abstraction.load("default")
    cdf = ab.arrays[f"{street}_centroids"].astype(np.float64)
    centroids = np.diff(cdf, axis=1, prepend=0.0)
    rng = np.random.default_rng(21)
    for _ in range(15):
        cards = [int(c) for c in rng.choice(52, 2 + n_board, replace=False)]
        hist = hand_features(cards[:2], cards[2:], int(ab.header["bins"]))["hist"]
        assert isinstance(hist, list)
        d = [emd(hist, c) for c in centroids]
        assert d[ab.bucket(street, cards[:2], cards[2:])] == pytest.approx(min(d), abs=1e-5)


def test_truncated_or_damaged_files_are_named_errors(tiny_file: Path, tmp_path: Path) -> None:
    data = tiny_file.read_bytes()
    truncated = tmp_path / "truncated.npz"
    truncated.write_bytes(data[: len(data) // 2])
    with pytest.raises(AbstractionFileError, match=r"truncated\.npz"):
        Abstraction.load(truncated)
    damaged = bytearray(data)
    # Flip bytes inside the compressed members (past the first local header).
    for i in range(len(data) // 3, len(data) // 3 + 64):
        damaged[i] ^= 0xFF
    broken = tmp_path / "damaged.npz"
    broken.write_bytes(bytes(damaged))
    with pytest.raises(AbstractionFileError, match=r"damaged\.npz"):
        Abstraction.load(broken)
    with pytest.raises(AbstractionFileError, match="is a folder"):
        Abstraction.load(tmp_path)


def test_a_save_that_fails_leaves_the_earlier_file(
    tiny_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "ab.npz"
    path.write_bytes(tiny_file.read_bytes())

    def disk_full(fh: object, **arrays: object) -> None:
        fh.write(b"PK\x03\x04 half an archive")  # type: ignore[attr-defined]
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(np, "savez_compressed", disk_full)
    with pytest.raises(OSError, match="No space"):
        Abstraction.load(tiny_file).save(path)
    assert path.read_bytes() == tiny_file.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ab.npz"]
