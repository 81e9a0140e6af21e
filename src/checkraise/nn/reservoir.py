"""Reservoir buffers: a uniform sample of everything ever offered, in fixed arrays.

Deep CFR (Brown et al. 2019) keeps its advantage and strategy samples in reservoirs
so that the networks fit the average over all iterations, not the latest ones. A
:class:`Reservoir` pre-allocates its arrays (the information set's row in the
tensor table, the target vector, the iteration) and fills them by Algorithm R
(Vitter 1985) through the same kernel the traversals use
(:func:`checkraise.nn._deep_cfr_kernels.reservoir_slot`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise.errors import ConfigError

__all__ = ["Reservoir"]


class Reservoir:
    """A reservoir of ``(row, target[width], iteration)`` samples with ``capacity`` slots.

    Parameters
    ----------
    capacity : int
        Slots (>= 1).
    width : int
        Length of each target vector.

    Examples
    --------
    >>> r = Reservoir(2, 1)
    >>> rng = np.array([7], dtype=np.uint64)
    >>> for i in range(5):
    ...     _ = r.offer(i, np.array([float(i)], dtype=np.float32), 1, rng)
    >>> len(r), r.offered
    (2, 5)
    """

    def __init__(self, capacity: int, width: int) -> None:
        if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 1:
            raise ConfigError(f"reservoir capacity={capacity!r}; expected a whole number >= 1")
        if isinstance(width, bool) or not isinstance(width, int) or width < 1:
            raise ConfigError(f"reservoir width={width!r}; expected a whole number >= 1")
        self.info = np.zeros(capacity, dtype=np.int32)
        self.target = np.zeros((capacity, width), dtype=np.float32)
        self.iteration = np.zeros(capacity, dtype=np.float32)
        self.count = np.zeros(1, dtype=np.int64)

    @property
    def capacity(self) -> int:
        return int(self.info.shape[0])

    @property
    def offered(self) -> int:
        """Items offered so far (kept or not)."""
        return int(self.count[0])

    def __len__(self) -> int:
        return min(self.offered, self.capacity)

    def offer(
        self, row: int, target: npt.NDArray[np.float32], iteration: int, rng: npt.NDArray[Any]
    ) -> bool:
        """Offer one sample; return whether it was kept. ``rng`` is a splitmix64 state."""
        from checkraise.nn._deep_cfr_kernels import reservoir_slot

        slot = reservoir_slot(self.count, self.capacity, rng)
        if slot < 0:
            return False
        self.info[slot] = row
        self.target[slot] = target
        self.iteration[slot] = iteration
        return True

    def arrays(self) -> dict[str, npt.NDArray[Any]]:
        """The buffer as plain arrays (for a checkpoint)."""
        return {"info": self.info, "target": self.target, "iteration": self.iteration,
                "count": self.count}

    @classmethod
    def from_arrays(cls, arrays: dict[str, npt.NDArray[Any]]) -> Reservoir:
        """The buffer that :meth:`arrays` gave."""
        info = np.asarray(arrays["info"], dtype=np.int32)
        target = np.asarray(arrays["target"], dtype=np.float32)
        out = cls(int(info.shape[0]), int(target.shape[1]))
        out.info[:] = info
        out.target[:] = target
        out.iteration[:] = np.asarray(arrays["iteration"], dtype=np.float32)
        out.count[:] = np.asarray(arrays["count"], dtype=np.int64)
        return out
