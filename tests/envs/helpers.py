"""Reading observations back by the layout of docs/envs.md, independently of the encoder."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt


def field_slices(n: int, rows: int) -> dict[str, slice]:
    """The flat vector's fields as docs/envs.md lists them (sizes written out by hand)."""
    sizes = [("layout", 3), ("cards", 4 * 52), ("street", 4), ("seat", n), ("to_act", n),
             ("stacks", n), ("bets", n), ("folded", n), ("all_in", n), ("pot", 1),
             ("to_call", 1), ("raise_range", 2), ("history_length", 1),
             ("history", rows * (n + 10))]
    out, start = {}, 0
    for name, size in sizes:
        out[name] = slice(start, start + size)
        start += size
    return out


def vector_of(observation: Any) -> npt.NDArray[np.float32]:
    """The flat vector inside a PettingZoo observation (vector form)."""
    vector = observation["observation"] if isinstance(observation, dict) else observation
    return np.asarray(vector)


def plane_cards(vector: npt.NDArray[np.float32], plane: int) -> list[int]:
    """Cards set in card plane ``plane`` (0 hole, 1 flop, 2 turn, 3 river)."""
    planes = vector[3:3 + 208].reshape(4, 4, 13)
    suits, ranks = np.nonzero(planes[plane])
    return sorted(int(4 * r + s) for s, r in zip(suits, ranks, strict=True))
