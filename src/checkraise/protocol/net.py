"""Line-oriented TCP plumbing for the ACPC protocol: every read has a deadline.

Lines end in ``\\r\\n`` on the wire (a bare ``\\n`` is accepted on input). A read
never blocks past its deadline, a line longer than the limit or one that is not
ASCII is a protocol error, and end of file is :class:`ConnectionClosedError`, so
neither side of a match can hang on the other.
"""

from __future__ import annotations

import contextlib
import socket
import time
from typing import Final

from checkraise.protocol.errors import (
    ConnectionClosedError,
    MatchSetupError,
    ProtocolError,
    ResponseTimeoutError,
)

__all__ = ["MAX_LINE_BYTES", "LineChannel", "check_host", "check_port", "connect", "listen"]

# The reference implementation's MAX_LINE_LEN is 5000 bytes.
MAX_LINE_BYTES: Final = 5000


class LineChannel:
    """A connected socket read and written one protocol line at a time."""

    def __init__(self, sock: socket.socket, *, peer: str = "peer") -> None:
        self.sock = sock
        self.peer = peer
        self._buffer = b""
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def send_line(self, line: str, *, timeout: float = 10.0) -> None:
        """Send ``line`` plus ``\\r\\n``; a dead or stalled peer raises, never blocks."""
        self.sock.settimeout(timeout)
        try:
            self.sock.sendall(line.encode("ascii") + b"\r\n")
        except TimeoutError:
            msg = f"{self.peer} did not take a line within {timeout:g} s"
            raise ResponseTimeoutError(msg) from None
        except OSError as exc:
            raise ConnectionClosedError(f"{self.peer} closed the connection ({exc})") from None

    def read_line(self, timeout: float | None) -> str:
        """The next line without its ending; ``timeout`` in seconds (``None``: wait forever)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                raw, self._buffer = self._buffer[:end], self._buffer[end + 1 :]
                return self._decode(raw.removesuffix(b"\r"))
            if len(self._buffer) > MAX_LINE_BYTES:
                raise ProtocolError(
                    f"{self.peer} sent a line longer than {MAX_LINE_BYTES} bytes: "
                    f"{self._buffer[:60]!r}..."
                )
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                raise ResponseTimeoutError(
                    f"{self.peer} sent no complete line within {timeout:g} s"
                    + (f" (partial: {self._buffer[:60]!r})" if self._buffer else "")
                )
            self.sock.settimeout(remaining)
            try:
                chunk = self.sock.recv(4096)
            except TimeoutError:
                continue
            except OSError as exc:
                raise ConnectionClosedError(f"{self.peer} closed the connection ({exc})") from None
            if not chunk:
                partial = f" in the middle of a line {self._buffer[:60]!r}" if self._buffer else ""
                raise ConnectionClosedError(f"{self.peer} closed the connection{partial}")
            self._buffer += chunk

    def _decode(self, raw: bytes) -> str:
        try:
            return raw.decode("ascii")
        except UnicodeDecodeError:
            msg = f"{self.peer} sent a line that is not ASCII: {raw[:60]!r}"
            raise ProtocolError(msg) from None

    def close(self) -> None:
        """Close the socket (idempotent)."""
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()


def check_port(port: int, *, any_free: bool = False) -> int:
    """``port`` if it is a TCP port number (1..65535; 0 too when ``any_free``), else raise.

    Examples
    --------
    >>> check_port(18791)
    18791
    >>> check_port(99999)
    Traceback (most recent call last):
    ...
    checkraise.protocol.errors.MatchSetupError: invalid port 99999: expected 1..65535
    """
    low = 0 if any_free else 1
    if isinstance(port, bool) or not isinstance(port, int) or not low <= port <= 65535:
        hint = " (0: any free port)" if any_free else ""
        raise MatchSetupError(f"invalid port {port!r}: expected {low}..65535{hint}")
    return port


def check_host(host: str) -> str:
    """``host`` if it is a name or address that resolves, else raise naming it.

    Examples
    --------
    >>> check_host("127.0.0.1")
    '127.0.0.1'
    >>> check_host("bad host")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    checkraise.protocol.errors.MatchSetupError: invalid host 'bad host': expected a host name...
    """
    if not host or host != host.strip() or any(ch.isspace() for ch in host):
        raise MatchSetupError(f"invalid host {host!r}: expected a host name or IP address")
    try:
        socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise MatchSetupError(f"unknown host {host!r}: {exc}") from None
    return host


def connect(host: str, port: int, *, timeout: float = 10.0, peer: str = "server") -> LineChannel:
    """Open a TCP connection to ``host:port`` within ``timeout`` seconds."""
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except OSError as exc:
        raise ConnectionClosedError(f"cannot connect to {host}:{port}: {exc}") from None
    return LineChannel(sock, peer=peer)


def listen(host: str = "127.0.0.1", port: int = 0) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: any free port, read it back)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise ConnectionClosedError(f"cannot listen on {host}:{port}: {exc}") from None
    sock.listen(1)
    return sock
