"""The ACPC protocol 2.0.0: game files, MATCHSTATE lines, a client for any agent, a dealer.

See ``shared/ACPC.md`` for the protocol and the reference dealer
(``project_acpc_server``, University of Alberta CPRG, 2011) whose behaviour this
package follows; :mod:`checkraise.protocol.dealer` lists where it is stricter.
"""

from __future__ import annotations

from checkraise.protocol.client import VERSION_LINE, ClientReport, play, run_client
from checkraise.protocol.deal import ReferenceDeck
from checkraise.protocol.dealer import Correction, Dealer, MatchResult, TimeLimits
from checkraise.protocol.errors import (
    ConnectionClosedError,
    GameDefError,
    LogExistsError,
    MatchAbortedError,
    MatchSetupError,
    ProtocolError,
    ResponseTimeoutError,
)
from checkraise.protocol.gamedef import GameDef, load_gamedef, parse_gamedef
from checkraise.protocol.log import DealerLog, parse_dealer_log
from checkraise.protocol.match import DuplicateResult, run_duplicate, run_match
from checkraise.protocol.matchstate import (
    BetAction,
    MatchState,
    ScoreLine,
    StateLine,
    format_matchstate,
    format_response,
    format_score_line,
    format_state_line,
    parse_action,
    parse_matchstate,
    parse_response,
    parse_score_line,
    parse_state_line,
)
from checkraise.protocol.standard import GameInferenceError, InferredGame, infer_gamedef
from checkraise.protocol.views import HandTracker, betting_of, matchstate_of

__all__ = [
    "VERSION_LINE",
    "BetAction",
    "ClientReport",
    "ConnectionClosedError",
    "Correction",
    "Dealer",
    "DealerLog",
    "DuplicateResult",
    "GameDef",
    "GameDefError",
    "GameInferenceError",
    "HandTracker",
    "InferredGame",
    "LogExistsError",
    "MatchAbortedError",
    "MatchResult",
    "MatchSetupError",
    "MatchState",
    "ProtocolError",
    "ReferenceDeck",
    "ResponseTimeoutError",
    "ScoreLine",
    "StateLine",
    "TimeLimits",
    "betting_of",
    "format_matchstate",
    "format_response",
    "format_score_line",
    "format_state_line",
    "infer_gamedef",
    "load_gamedef",
    "matchstate_of",
    "parse_action",
    "parse_dealer_log",
    "parse_gamedef",
    "parse_matchstate",
    "parse_response",
    "parse_score_line",
    "parse_state_line",
    "play",
    "run_client",
    "run_duplicate",
    "run_match",
]
