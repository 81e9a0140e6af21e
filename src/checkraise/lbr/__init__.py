"""Local best response (Lisý & Bowling 2017): how exploitable a heads-up agent is, in mbb/game.

:mod:`checkraise.lbr.core` holds the settings and LBR's one-step choice,
:mod:`checkraise.lbr.play` plays it against an agent over seeded duplicate deals
(as seeded work items on a :mod:`checkraise.backend`: local processes or Ray), and
:mod:`checkraise.lbr.leduc` is the same rule on Leduc hold'em, valued exactly, to
compare with the exact best response.
"""

from __future__ import annotations

from checkraise.lbr.core import ActionSet, LBRSettings, parse_streets, win_probability
from checkraise.lbr.play import Deal, LBRResult, play_deal, run_lbr

__all__ = [
    "ActionSet",
    "Deal",
    "LBRResult",
    "LBRSettings",
    "parse_streets",
    "play_deal",
    "run_lbr",
    "win_probability",
]
