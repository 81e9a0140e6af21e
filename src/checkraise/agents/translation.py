"""Action translation: an opponent's bet that the abstraction lacks, mapped onto it.

Ganzfried & Sandholm (2013), "Action translation in extensive-form games with large
action spaces: axioms, paradoxes, and the pseudo-harmonic mapping" (IJCAI). With bet
sizes as fractions of the pot, an observed bet ``x`` between the abstraction's
neighbouring sizes ``A < x < B`` is read as ``A`` with probability

    f_A(x) = ((B - x) * (1 + A)) / ((B - A) * (1 + x))

and as ``B`` otherwise (the randomized mapping); the deterministic variant picks
``A`` when ``f_A(x) >= 1/2``. ``f_A(A) = 1`` and ``f_A(B) = 0``.
"""

from __future__ import annotations

import itertools
import math

from checkraise.errors import ConfigError

__all__ = ["TRANSLATIONS", "pseudo_harmonic", "translate"]

#: Names accepted by the ``blueprint`` bot's ``translation`` option.
TRANSLATIONS = ("pseudo-harmonic", "deterministic")


def pseudo_harmonic(a: float, b: float, x: float) -> float:
    """The probability of reading bet ``x`` as the smaller size ``a`` (sizes in pot fractions).

    Examples
    --------
    >>> pseudo_harmonic(0.5, 1.0, 0.75)   # (0.25 * 1.5) / (0.5 * 1.75)
    0.42857142857142855
    >>> pseudo_harmonic(0.5, 1.0, 0.5), pseudo_harmonic(0.5, 1.0, 1.0)
    (1.0, 0.0)
    >>> pseudo_harmonic(1.0, 0.5, 0.75)
    Traceback (most recent call last):
    ...
    checkraise.errors.ConfigError: pseudo-harmonic mapping needs 0 <= a < b, a <= x <= b; ...
    """
    if not (0.0 <= a < b and a <= x <= b) or not all(math.isfinite(v) for v in (a, b, x)):
        raise ConfigError(
            f"pseudo-harmonic mapping needs 0 <= a < b, a <= x <= b; got a={a}, b={b}, x={x}"
        )
    return ((b - x) * (1.0 + a)) / ((b - a) * (1.0 + x))


def translate(sizes: list[float], x: float, u: float, method: str = "pseudo-harmonic") -> int:
    """The index into strictly ascending ``sizes`` that bet ``x`` is read as (``u``: a draw).

    Below the smallest size reads as the smallest, above the largest as the largest.

    Examples
    --------
    >>> translate([0.5, 1.0, 30.0], 0.75, u=0.2), translate([0.5, 1.0, 30.0], 0.75, u=0.9)
    (0, 1)
    >>> translate([0.5, 1.0], 0.1, u=0.99), translate([0.5, 1.0], 4.0, u=0.0)
    (0, 1)
    """
    if method not in TRANSLATIONS:
        raise ConfigError(f"unknown translation {method!r}; expected one of {TRANSLATIONS}")
    if not sizes:
        raise ConfigError("translate: no sizes to map onto")
    if any(b <= a for a, b in itertools.pairwise(sizes)):
        raise ConfigError(f"translate: sizes={sizes!r}; expected strictly ascending sizes")
    if not math.isfinite(x):
        raise ConfigError(f"translate: bet x={x!r}; expected a finite pot fraction")
    if x <= sizes[0]:
        return 0
    for k in range(1, len(sizes)):
        if x <= sizes[k]:
            p_low = pseudo_harmonic(sizes[k - 1], sizes[k], x)
            if method == "deterministic":
                return k - 1 if p_low >= 0.5 else k
            return k - 1 if u < p_low else k
    return len(sizes) - 1
