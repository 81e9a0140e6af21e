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

import importlib
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise._npzfile import read_npz, write_npz
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
        "dtypes": {k: str(v.dtype) for k, v in arrays.items()},
    }
    p = Path(path)
    try:
        write_npz(p, header, arrays, header_key=_HEADER, compressed=False)
    except TypeError as exc:
        raise ModelFileError(f"the header is not JSON-serialisable: {exc}") from exc
    return p


def load_model(
    path: str | Path, kind: str | None = None
) -> tuple[dict[str, Any], dict[str, npt.NDArray[Any]]]:
    """``(header, arrays)`` of a file written by :func:`save_model`.

    Raises :class:`ModelFileError` when the file is not such a file, is of another
    ``kind`` than asked for, or an array does not match its checksum.
    ``FileNotFoundError`` passes through.
    """
    header, arrays = read_npz(path, MODEL_FORMAT, FORMAT_VERSION, ModelFileError,
                              header_key=_HEADER)
    if kind is not None and header.get("kind") != kind:
        raise ModelFileError(f"{path}: a {header.get('kind')!r} model; expected {kind!r}")
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
