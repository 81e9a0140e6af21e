"""The artefact file every trained thing is saved as: ``.npz`` arrays plus a JSON header.

One array of the archive holds the header, the UTF-8 bytes of a JSON object that
says what the file is (``format``, ``format_version``), how it was made, and a
SHA-256 per array (``checksums``), so that a damaged or edited file is refused rather
than silently used. Nothing is pickled: files are read with ``allow_pickle=False``.
Writes go to a temporary file that then replaces the target, so a job killed while
writing leaves the previous file whole.

Blueprints (:mod:`checkraise.solvers.blueprint`) and networks (:mod:`checkraise.nn.io`)
are written and read here; each names its own error type and header key.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise.errors import CheckraiseError

__all__ = ["checksums", "read_npz", "write_npz"]


def checksums(arrays: dict[str, npt.NDArray[Any]]) -> dict[str, str]:
    """SHA-256 of each array's bytes (C order)."""
    return {
        k: hashlib.sha256(np.ascontiguousarray(v).tobytes()).hexdigest() for k, v in arrays.items()
    }


def write_npz(
    path: Path,
    header: dict[str, Any],
    arrays: dict[str, npt.NDArray[Any]],
    *,
    header_key: str = "header",
    compressed: bool = True,
) -> None:
    """Write ``arrays`` and ``header`` (with their checksums added) to ``path`` atomically."""
    text = json.dumps(dict(header, checksums=checksums(arrays)))
    tmp = path.with_name(path.name + ".tmp")
    payload: dict[str, Any] = dict(arrays)
    payload[header_key] = np.frombuffer(text.encode(), dtype=np.uint8)
    with open(tmp, "wb") as fh:
        (np.savez_compressed if compressed else np.savez)(fh, **payload)
    tmp.replace(path)


def read_npz(
    path: str | Path,
    fmt: str,
    version: int,
    error: type[CheckraiseError],
    *,
    header_key: str = "header",
) -> tuple[dict[str, Any], dict[str, npt.NDArray[Any]]]:
    """``(header, arrays)`` of a file of format ``fmt`` and ``version``, checksums verified.

    Anything wrong with the file raises ``error`` naming the file and the problem;
    ``FileNotFoundError`` passes through.
    """
    p = Path(path)
    try:
        with np.load(p, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
    except FileNotFoundError:
        raise
    except Exception as exc:  # zipfile, zlib, numpy format and pickle refusals alike
        raise error(f"{p}: not a readable .npz file ({exc})") from exc
    try:
        header = json.loads(arrays.pop(header_key).tobytes().decode())
    except (KeyError, ValueError) as exc:
        raise error(f"{p}: no JSON header") from exc
    if not isinstance(header, dict):
        raise error(f"{p}: the header is not a JSON object ({type(header).__name__})")
    if header.get("format") != fmt or header.get("format_version") != version:
        raise error(
            f"{p}: format {header.get('format')!r} version "
            f"{header.get('format_version')!r}; expected {fmt!r} {version}"
        )
    sums = checksums(arrays)
    for k, v in header.get("checksums", {}).items():
        if sums.get(k) != v:
            raise error(f"{p}: array {k!r} does not match its checksum (damaged or edited)")
    missing = sorted(set(header.get("checksums", {})) - set(arrays))
    if missing:
        raise error(f"{p}: arrays {missing} named in the header are missing")
    return header, arrays
