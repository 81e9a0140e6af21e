"""The manifest of a folder of seeded data chunks, shared by the value networks' data.

A folder of chunks (chunk ``k`` depends on the settings' seed and ``k`` alone) holds a
``manifest.json`` of the settings that made it. A run may resume it, or grow it to
more situations, only with the same other settings; a short last chunk is then made
again whole.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from checkraise.errors import ConfigError, FormatError

__all__ = ["MANIFEST", "ChunkedSettings", "check_manifest", "read_manifest"]

MANIFEST = "manifest.json"

T = TypeVar("T")


def check_manifest(folder: Path, wanted: dict[str, Any], chunk_path: Callable[[Path, int], Path],
                   what: str) -> None:
    """Refuse ``folder`` if it holds chunks of other settings than ``wanted`` (which has
    ``situations`` and ``chunk_size``); else write ``wanted`` as its manifest.

    A folder made with fewer situations grows (its short last chunk is removed, to be
    made whole); one with more is refused: a folder only grows.
    """
    path = folder / MANIFEST
    if path.exists():
        try:
            found = json.loads(path.read_text())
        except ValueError as exc:
            raise FormatError(f"{path}: not JSON ({exc})") from exc
        fixed = {k: v for k, v in wanted.items() if k != "situations"}
        if {k: v for k, v in found.items() if k != "situations"} != fixed:
            others = ", ".join(k for k in fixed if k != "chunk_size")
            raise ConfigError(
                f"{folder} holds {what} made with {found}; asked for {wanted} (use another "
                f"folder, or the same {others} and chunk size to resume)"
            )
        if int(found.get("situations", 0)) > int(wanted["situations"]):
            raise ConfigError(
                f"{folder} holds {found['situations']} situations; asked for "
                f"{wanted['situations']} (a folder only grows; use another folder)"
            )
        size = int(wanted["chunk_size"])
        last = chunk_path(folder, int(found["situations"]) // size)
        if int(found["situations"]) % size and last.exists():
            last.unlink()
    folder.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(wanted, indent=2) + "\n")
    tmp.replace(path)


def read_manifest(folder: str | Path, settings: Callable[..., T], command: str,
                  what: str) -> tuple[Path, T]:
    """``(folder, settings)`` of a chunk folder that ``command`` wrote, read from its
    manifest by the ``settings`` class; one clear error if it is not such a folder."""
    out = Path(folder)
    if not out.is_dir():
        raise ConfigError(f"{what} folder {out} does not exist; expected the --out of "
                          f"'{command}'")
    path = out / MANIFEST
    if not path.exists():
        raise FormatError(f"{out} has no {MANIFEST}; expected a folder written by '{command}'")
    try:
        return out, settings(**json.loads(path.read_text()))
    except (ValueError, TypeError) as exc:
        raise FormatError(f"{path}: not a {what} manifest ({exc})") from exc


class ChunkedSettings:
    """What the settings dataclasses of chunked data share (``situations``,
    ``chunk_size`` and ``seed`` fields): checks of whole numbers and chunk arithmetic."""

    situations: int
    chunk_size: int
    seed: int

    def check_counts(self, *names: str) -> None:
        """Refuse any of ``names`` below 1, and a seed below 0, naming the value."""
        for name in names:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ConfigError(f"{name}={value!r}; expected a whole number >= 1")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise ConfigError(f"seed={self.seed!r}; expected a whole number >= 0")

    @property
    def chunks(self) -> int:
        """Number of chunk files."""
        return -(-self.situations // self.chunk_size)

    def chunk_length(self, index: int) -> int:
        """Situations in chunk ``index`` (the last may be short)."""
        return min(self.chunk_size, self.situations - index * self.chunk_size)
