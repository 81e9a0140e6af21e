"""The :class:`Abstraction` object: buckets of every street, saved as one ``.npz`` file.

The file is a plain ``.npz`` (zip of ``.npy`` arrays, loaded with pickling disabled)
whose ``header`` array holds UTF-8 JSON: format and version, bucket counts per street,
method, seed, the producing command, and a SHA-256 checksum of every other array.

Preflop, flop and turn buckets are tables over the suit-isomorphism classes. The river
table (123 million classes) is not stored: a river bucket is the hand's exact EHS
numerator (wins * 2 + ties over the 990 opponent hands) cut at stored thresholds, which
costs one pass over the opponent hands per lookup.
"""

from __future__ import annotations

import hashlib
import json
import os
import zipfile
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise.abstraction.isomorphism import check_deal
from checkraise.errors import CheckraiseError, one_of

__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "STREETS",
    "Abstraction",
    "AbstractionFileError",
    "resolve_path",
]

FORMAT_NAME = "checkraise-abstraction"
FORMAT_VERSION = 1
STREETS = ("preflop", "flop", "turn", "river")
TABLE_SIZES = {"preflop": 169, "flop": 1_286_792, "turn": 13_960_050}
BOARD_CARDS = {"preflop": 0, "flop": 3, "turn": 4, "river": 5}
DEFAULT_FILE = "abstraction_default.npz"
REQUIRED = ("preflop_buckets", "flop_buckets", "turn_buckets", "river_thresholds")


class AbstractionFileError(CheckraiseError):
    """An abstraction file is missing, malformed, of another version or corrupt."""


def resolve_path(name: str | Path) -> Path:
    """The file named ``name``; the word ``default`` means the one shipped in the package."""
    if str(name) == "default":
        return Path(str(resources.files("checkraise.data").joinpath(DEFAULT_FILE)))
    return Path(name)


def _digest(arr: npt.NDArray[Any]) -> str:
    return hashlib.sha256(np.ascontiguousarray(arr).tobytes()).hexdigest()


def _street_number(street: str | int) -> int:
    if isinstance(street, (int, np.integer)) and not isinstance(street, bool) and 0 <= street < 4:
        return int(street)
    if isinstance(street, str) and street in STREETS:
        return STREETS.index(street)
    raise CheckraiseError(f"unknown street {street!r}: expected {one_of(STREETS)}, or 0..3")


@dataclass(frozen=True)
class Abstraction:
    """Bucket tables of the four streets plus the header that describes them.

    ``arrays`` holds at least ``preflop_buckets`` (169), ``flop_buckets`` (1,286,792),
    ``turn_buckets`` (13,960,050), all ``uint16``, and ``river_thresholds`` (``int64``,
    one per river bucket after the first, on the 0..1980 scale); build statistics and
    centroids may ride along.
    """

    header: dict[str, Any]
    arrays: dict[str, npt.NDArray[Any]] = field(repr=False)

    def __post_init__(self) -> None:
        for name in REQUIRED:
            if name not in self.arrays:
                raise AbstractionFileError(f"abstraction lacks the array {name!r}")
        for street, size in TABLE_SIZES.items():
            got = self.arrays[f"{street}_buckets"].shape
            if got != (size,):
                raise AbstractionFileError(f"{street}_buckets has shape {got}; expected ({size},)")

    @property
    def buckets(self) -> tuple[int, int, int, int]:
        """Number of buckets of preflop, flop, turn and river."""
        b = self.header["buckets"]
        return (int(b["preflop"]), int(b["flop"]), int(b["turn"]), int(b["river"]))

    def tables(
        self,
    ) -> tuple[
        npt.NDArray[np.uint16],
        npt.NDArray[np.uint16],
        npt.NDArray[np.uint16],
        npt.NDArray[np.int64],
    ]:
        """The arguments after ``cards`` of the numba kernel
        :func:`checkraise.abstraction._table_kernels.lookup_bucket`."""
        a = self.arrays
        return (a["preflop_buckets"], a["flop_buckets"], a["turn_buckets"], a["river_thresholds"])

    def bucket(self, street: str | int, hole: Sequence[int], board: Sequence[int] = ()) -> int:
        """Bucket of ``hole`` on ``board`` (0, 3, 4 or 5 cards as ``street`` says).

        Examples
        --------
        >>> from checkraise.cards import parse_cards
        >>> ab = Abstraction.load("default")
        >>> ab.bucket("preflop", parse_cards("As Ad")) == ab.bucket(0, parse_cards("Ah Ac"))
        True
        """
        from checkraise.abstraction._table_kernels import lookup_bucket

        cards = check_deal(_street_number(street), hole, board)
        return int(lookup_bucket(np.asarray(cards, dtype=np.uint8), *self.tables()))

    def save(self, path: str | Path) -> None:
        """Write the abstraction to ``path`` (an ``.npz`` file), checksums included."""
        arrays = {k: np.ascontiguousarray(v) for k, v in self.arrays.items()}
        # Bucket tables go to disk as uint8 where they fit: half the shipped size.
        for name in ("flop_buckets", "turn_buckets", "preflop_buckets"):
            if arrays[name].size and int(arrays[name].max()) < 256:
                arrays[name] = arrays[name].astype(np.uint8)
        header = dict(self.header)
        header["format"] = FORMAT_NAME
        header["format_version"] = FORMAT_VERSION
        header["checksums"] = {k: _digest(v) for k, v in sorted(arrays.items())}
        blob = np.frombuffer(json.dumps(header, indent=1).encode(), dtype=np.uint8)
        # Written beside the target and renamed: a build killed while writing leaves the
        # earlier file (or none), never a truncated archive under the final name.
        target = Path(path)
        partial = target.with_name(target.name + ".partial")
        try:
            with open(partial, "wb") as fh:
                np.savez_compressed(fh, header=blob, **arrays)  # type: ignore[arg-type]
            os.replace(partial, target)
        finally:
            partial.unlink(missing_ok=True)

    @classmethod
    def load(cls, path: str | Path) -> Abstraction:
        """Read and verify an abstraction file; ``"default"`` is the one shipped.

        Raises :class:`AbstractionFileError` naming the problem when the file is
        missing, not an abstraction, of another format version, or fails a checksum.
        """
        p = resolve_path(path)
        if p.is_dir():
            raise AbstractionFileError(f"abstraction file {str(p)!r} is a folder")
        if not p.is_file():
            raise AbstractionFileError(f"abstraction file {str(p)!r} does not exist")
        try:
            with np.load(p, allow_pickle=False) as npz:
                arrays = {k: npz[k] for k in npz.files}
        except (OSError, ValueError, EOFError, zipfile.BadZipFile, zlib.error) as exc:
            # A truncated or damaged archive (BadZipFile, zlib) is the file's fault too.
            # np.load takes any non-zip file for a pickle, which it refuses to read.
            why = "not an .npz archive" if "pickled" in str(exc) else str(exc)
            raise AbstractionFileError(
                f"{str(p)!r} is not a readable .npz abstraction file ({why})"
            ) from None
        if "header" not in arrays:
            raise AbstractionFileError(f"{str(p)!r} has no header array; not an abstraction")
        try:
            header = json.loads(arrays.pop("header").tobytes().decode())
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise AbstractionFileError(f"{str(p)!r} has a malformed header ({exc})") from None
        if not isinstance(header, dict) or header.get("format") != FORMAT_NAME:
            raise AbstractionFileError(f"{str(p)!r} is not a {FORMAT_NAME} file")
        if header.get("format_version") != FORMAT_VERSION:
            raise AbstractionFileError(
                f"{str(p)!r} has format version {header.get('format_version')!r}; "
                f"expected {FORMAT_VERSION}"
            )
        sums = header.get("checksums", {})
        for name, arr in arrays.items():
            if sums.get(name) != _digest(arr):
                raise AbstractionFileError(
                    f"{str(p)!r}: checksum mismatch for array {name!r} (file corrupt or edited)"
                )
        for name in ("flop_buckets", "turn_buckets", "preflop_buckets"):
            if name in arrays:
                arrays[name] = arrays[name].astype(np.uint16)
        return cls(header, arrays)
