"""Saving and loading networks: a JSON header and the weights as arrays, no pickle.

A file is an ``.npz`` archive (numpy's zip of ``.npy`` arrays): one array per entry
of the module's ``state_dict``, stored under the entry's name, and ``__header__``,
the UTF-8 bytes of a JSON object. The header says what the file is (``format``,
``format_version``), how to rebuild the network (``architecture``, free-form for the
model that wrote it), where it came from (``command``), and a SHA-256 per array so
that a damaged or edited file is refused instead of silently loaded. Writes go to a
temporary file that replaces the target, so a killed job leaves the previous file
whole.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise.errors import CheckraiseError

__all__ = ["FORMAT_VERSION", "MODEL_FORMAT", "ModelFileError", "load_into", "load_model",
           "require_torch", "save_model"]

MODEL_FORMAT = "checkraise-model"
FORMAT_VERSION = 1
_HEADER = "__header__"


class ModelFileError(CheckraiseError):
    """A model file that is missing its header, damaged, or of another format."""


def require_torch() -> ModuleType:
    """The ``torch`` module, or one clear error naming the extra to install."""
    try:
        return importlib.import_module("torch")
    except ImportError as exc:
        raise CheckraiseError(
            "this needs PyTorch, which is not installed; install the extra: "
            "pip install torch==2.13.0 'checkraise[nn]'"
        ) from exc


def _sha(arrays: dict[str, npt.NDArray[Any]]) -> dict[str, str]:
    return {
        k: hashlib.sha256(np.ascontiguousarray(v).tobytes()).hexdigest() for k, v in arrays.items()
    }


def save_model(
    path: str | Path,
    state: dict[str, Any],
    architecture: dict[str, Any],
    *,
    kind: str,
    command: str = "",
    extra: dict[str, Any] | None = None,
) -> Path:
    """Write ``state`` (a ``state_dict``: names -> tensors or arrays) to ``path``.

    Parameters
    ----------
    path : str or Path
        The file to write (``.npz`` is the convention).
    state : dict
        The module's ``state_dict()``; tensors are copied to CPU numpy arrays.
    architecture : dict
        JSON-serialisable description from which the model rebuilds itself.
    kind : str
        Which model wrote the file (e.g. ``"deep-cfr-policy"``); checked on load.
    command : str
        The command that reproduces the file.
    extra : dict, optional
        Further JSON-serialisable facts (training figures, seed).
    """
    arrays: dict[str, npt.NDArray[Any]] = {}
    for name, value in state.items():
        if name == _HEADER:
            raise ModelFileError(f"state entry {name!r} clashes with the header's name")
        arr = value.detach().cpu().numpy() if hasattr(value, "detach") else np.asarray(value)
        arrays[name] = np.ascontiguousarray(arr)
    header = {
        "format": MODEL_FORMAT,
        "format_version": FORMAT_VERSION,
        "kind": kind,
        "architecture": architecture,
        "command": command,
        **(extra or {}),
        "checksums": _sha(arrays),
        "dtypes": {k: str(v.dtype) for k, v in arrays.items()},
    }
    try:
        text = json.dumps(header)
    except TypeError as exc:
        raise ModelFileError(f"the header is not JSON-serialisable: {exc}") from exc
    p = Path(path)
    tmp = p.with_name(p.name + ".tmp")
    with open(tmp, "wb") as fh:
        payload: dict[str, Any] = dict(arrays)
        payload[_HEADER] = np.frombuffer(text.encode(), dtype=np.uint8)
        np.savez(fh, **payload)
    tmp.replace(p)
    return p


def load_model(
    path: str | Path, kind: str | None = None
) -> tuple[dict[str, Any], dict[str, npt.NDArray[Any]]]:
    """``(header, arrays)`` of a file written by :func:`save_model`.

    Raises :class:`ModelFileError` when the file is not such a file, is of another
    ``kind`` than asked for, or an array does not match its checksum.
    ``FileNotFoundError`` passes through.
    """
    p = Path(path)
    try:
        with np.load(p, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
    except FileNotFoundError:
        raise
    except Exception as exc:  # zipfile, zlib, numpy format and pickle refusals alike
        raise ModelFileError(f"{p}: not a readable .npz model file ({exc})") from exc
    try:
        header = json.loads(arrays.pop(_HEADER).tobytes().decode())
    except (KeyError, ValueError) as exc:
        raise ModelFileError(f"{p}: no JSON header; expected a file written by save_model") \
            from exc
    if not isinstance(header, dict):
        raise ModelFileError(f"{p}: the header is not a JSON object")
    if header.get("format") != MODEL_FORMAT or header.get("format_version") != FORMAT_VERSION:
        raise ModelFileError(
            f"{p}: format {header.get('format')!r} version {header.get('format_version')!r}; "
            f"expected {MODEL_FORMAT!r} {FORMAT_VERSION}"
        )
    if kind is not None and header.get("kind") != kind:
        raise ModelFileError(f"{p}: a {header.get('kind')!r} model; expected {kind!r}")
    sums = _sha(arrays)
    for k, v in header.get("checksums", {}).items():
        if sums.get(k) != v:
            raise ModelFileError(f"{p}: array {k!r} does not match its checksum "
                                 "(damaged or edited)")
    missing = sorted(set(header.get("checksums", {})) - set(arrays))
    if missing:
        raise ModelFileError(f"{p}: arrays {missing} named in the header are missing")
    return header, arrays


def load_into(module: Any, arrays: dict[str, npt.NDArray[Any]], path: str | Path = "") -> None:
    """Copy ``arrays`` into ``module`` (a ``torch.nn.Module``) by name, strictly.

    A missing, extra or misshapen weight is a :class:`ModelFileError` naming it: the
    file was written for another architecture than its header describes.
    """
    torch = require_torch()
    own = module.state_dict()
    missing = sorted(set(own) - set(arrays))
    extra = sorted(set(arrays) - set(own))
    if missing or extra:
        raise ModelFileError(f"{path}: weights missing {missing}, unexpected {extra}")
    for name, value in own.items():
        if tuple(value.shape) != arrays[name].shape:
            raise ModelFileError(
                f"{path}: weight {name!r} has shape {arrays[name].shape}; "
                f"the architecture needs {tuple(value.shape)}"
            )
    module.load_state_dict({k: torch.from_numpy(np.array(v)) for k, v in arrays.items()})
