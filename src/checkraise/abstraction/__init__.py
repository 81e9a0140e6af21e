"""Card abstraction for the full 52-card game.

- :mod:`.isomorphism`: suit isomorphism, a dense index of each hand's class per
  street and its canonical cards (Waugh 2013); numba kernels in
  :mod:`._iso_kernels`.
- :mod:`.features`: exact EHS, E[HS], E[HS^2] and next-street equity histograms of
  every class; :mod:`.clustering`: exact 1-D k-means and EMD k-means;
  :mod:`.build` and :mod:`.abstraction`: the :class:`Abstraction` file and lookups.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from checkraise._lazy import lazy_names

if TYPE_CHECKING:
    from checkraise.abstraction.abstraction import Abstraction, AbstractionFileError
    from checkraise.abstraction.build import BuildConfig, Method, build_abstraction
    from checkraise.abstraction.features import hand_features, river_ehs
    from checkraise.abstraction.isomorphism import (
        BOARD_CARDS,
        STREETS,
        HandIndexError,
        IndexRangeError,
        StreetError,
        hand_from_index,
        hand_index,
        index_batch,
        index_size,
        unindex_batch,
    )

# Public names are imported on first use (PEP 562): loading a shipped abstraction and
# looking up buckets need neither the feature kernels nor the builder.
_LAZY: dict[str, str] = {
    **dict.fromkeys(("Abstraction", "AbstractionFileError"), "checkraise.abstraction.abstraction"),
    **dict.fromkeys(("BuildConfig", "Method", "build_abstraction"), "checkraise.abstraction.build"),
    **dict.fromkeys(("hand_features", "river_ehs"), "checkraise.abstraction.features"),
    **dict.fromkeys(
        ("BOARD_CARDS", "STREETS", "HandIndexError", "IndexRangeError", "StreetError",
         "hand_from_index", "hand_index", "index_batch", "index_size", "unindex_batch"),
        "checkraise.abstraction.isomorphism",
    ),
}


__getattr__, __dir__ = lazy_names(__name__, _LAZY)


__all__ = [
    "BOARD_CARDS",
    "STREETS",
    "Abstraction",
    "AbstractionFileError",
    "BuildConfig",
    "HandIndexError",
    "IndexRangeError",
    "Method",
    "StreetError",
    "build_abstraction",
    "hand_features",
    "hand_from_index",
    "hand_index",
    "index_batch",
    "index_size",
    "river_ehs",
    "unindex_batch",
]
