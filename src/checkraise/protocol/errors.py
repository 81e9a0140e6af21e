"""Errors raised by the ACPC protocol layer.

All are ``ValueError`` subclasses (through :class:`checkraise.errors.CheckraiseError`),
so the command line reports them as one line on stderr with exit status 2.
"""

from __future__ import annotations

from checkraise.errors import CheckraiseError

__all__ = [
    "ConnectionClosedError",
    "GameDefError",
    "LogExistsError",
    "MatchAbortedError",
    "MatchSetupError",
    "ProtocolError",
    "ResponseTimeoutError",
]


class ProtocolError(CheckraiseError):
    """A line that does not follow the ACPC protocol, or states that cannot follow each other."""


class GameDefError(ProtocolError):
    """A game definition file that cannot be read; the message names the line."""


class ConnectionClosedError(ProtocolError):
    """The peer closed the connection."""


class ResponseTimeoutError(ProtocolError):
    """The peer did not send a complete line in time."""


class MatchAbortedError(ProtocolError):
    """The dealer stopped a match because a seat misbehaved; the message names seat and line."""

    def __init__(self, message: str, *, seat: int | None = None, line: str | None = None) -> None:
        super().__init__(message)
        self.seat = seat
        self.line = line


class MatchSetupError(ProtocolError):
    """A match that cannot start as asked (hands, seed, names, host, ports, time limits)."""


class LogExistsError(ProtocolError):
    """A dealer log would overwrite the log of an earlier match (pass ``force`` to allow it)."""
