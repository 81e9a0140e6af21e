"""The neural layer: everything that needs PyTorch (the optional extra ``nn``).

Nothing outside this package imports torch, and this package imports it only when
a name is first used, so ``import checkraise`` and the CLI's ``--help`` stay light
on an install without the extra. :func:`require_torch` gives the one clear error
when the extra is missing.

Models are saved by :func:`save_model` as ``.npz`` files holding a JSON header (the
architecture, the command that made them) and the weights as plain arrays; they are
never pickled (:func:`load_model` reads them with ``allow_pickle=False``).
"""

from __future__ import annotations

from checkraise._lazy import lazy_names

__all__ = ["ModelFileError", "load_into", "load_model", "require_torch", "save_model"]

__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "ModelFileError": "checkraise.nn.io",
        "load_into": "checkraise.nn.io",
        "load_model": "checkraise.nn.io",
        "require_torch": "checkraise.nn.io",
        "save_model": "checkraise.nn.io",
    },
)
