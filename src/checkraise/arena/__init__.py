"""Arenas: where agents play and are measured.

- :mod:`~checkraise.arena.match` — heads-up duplicate matches (mbb/hand, 95% CI);
- :mod:`~checkraise.arena.ring` — n-player ring games over all seat rotations;
- :mod:`~checkraise.arena.tournament` — the hand-reading paper's tournament format;
- :mod:`~checkraise.arena.series` — many repetitions in parallel, resumable;
- :mod:`~checkraise.arena.stats` and :mod:`~checkraise.arena.report` — figures and reports.
"""

from __future__ import annotations

from checkraise.arena.match import InteractiveAgentError, play_match, refuse_interactive
from checkraise.arena.ring import RingConfig, RingResult, play_ring
from checkraise.arena.series import (
    OutFolderError,
    ResumeError,
    SeriesResult,
    check_out_folder,
    run_tournaments,
)
from checkraise.arena.table import AgentError, HandLog, PlayedHand, play_hand
from checkraise.arena.tournament import (
    TournamentConfig,
    TournamentResult,
    play_tournament,
    summarize,
)

__all__ = [
    "AgentError",
    "HandLog",
    "InteractiveAgentError",
    "OutFolderError",
    "PlayedHand",
    "ResumeError",
    "RingConfig",
    "RingResult",
    "SeriesResult",
    "TournamentConfig",
    "TournamentResult",
    "check_out_folder",
    "play_hand",
    "play_match",
    "play_ring",
    "play_tournament",
    "refuse_interactive",
    "run_tournaments",
    "summarize",
]
