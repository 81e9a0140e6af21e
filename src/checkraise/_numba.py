"""The one place where numba's compilation flags are set.

Kernels import :func:`njit` from here rather than from numba, so that caching,
fastmath and the typing seen by mypy are decided once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba

F = TypeVar("F", bound=Callable[..., Any])

__all__ = ["njit", "parallel_njit", "prange"]

prange = numba.prange


def njit(func: F) -> F:
    """Compile ``func`` in nopython mode with an on-disk cache."""
    return cast(F, numba.njit(cache=True, nogil=True)(func))


def parallel_njit(func: F) -> F:
    """Like :func:`njit` but allowing ``prange`` loops."""
    return cast(F, numba.njit(cache=True, nogil=True, parallel=True)(func))
