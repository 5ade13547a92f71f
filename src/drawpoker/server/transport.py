"""Connections before they are requests: uvicorn's HTTP and websocket protocols
with a cap on open connections per client address and in all, and a deadline
for a request's headers (``drawpoker serve`` uses them).

An ASGI middleware sees a request only once its headers are complete, so it
cannot see a client that opens connections and sends its headers a byte at a
time ("slowloris"): each such connection holds a file descriptor for ever.
Here a connection is refused (``503``, then closed) when its address already
holds ``per_address`` connections or the server ``total``, and closed when a
request's headers are not complete ``header_timeout`` seconds after its first
byte (or after the connection opened). uvicorn's own keep-alive timeout closes
a connection idle between requests.

A connection upgraded to a websocket keeps counting against its address until
it closes. Two changes to uvicorn's websocket protocol make a message cheaper:
the application may write whole text frames straight to the socket (the
``drawpoker.frames`` ASGI extension, ``FrameWriter``: no ASGI message, no
coroutine per send), and reading pauses only when ``READ_AHEAD`` messages wait
for the application (uvicorn pauses after each one, two system calls a message).
"""

from __future__ import annotations

import asyncio
import struct
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Protocol

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.utils import get_remote_addr
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

from drawpoker.server.limits import address_key

FRAMES = "drawpoker.frames"  # the ASGI extension: a ``FrameWriter`` for the socket
READ_AHEAD = 4  # messages received and not yet taken by the application before reading pauses


class FrameWriter(Protocol):
    def write_text(self, data: bytes) -> int | None:
        """Send ``data`` (UTF-8) as one text frame now; the bytes the socket still
        has to send, or None if the connection is closing (nothing was written)."""
        ...


def text_frame(data: bytes) -> bytes:
    """One final, unmasked text frame (RFC 6455, 5.2) carrying ``data``."""
    size = len(data)
    if size < 126:
        return struct.pack("!BB", 0x81, size) + data
    if size < 65_536:
        return struct.pack("!BBH", 0x81, 126, size) + data
    return struct.pack("!BBQ", 0x81, 127, size) + data


@dataclass
class ConnectionLimits:
    """Open connections per address and in all; which addresses are exempt from
    the per-address cap (a reverse proxy, a trusted bot host)."""

    per_address: int = 256
    total: int = 10_000
    header_timeout: float = 10.0
    trusted: frozenset[str] = frozenset()
    by_address: Counter[str] = field(default_factory=Counter)
    open: dict[asyncio.BaseTransport, str] = field(default_factory=dict)
    refused: int = 0

    def admit(self, transport: asyncio.BaseTransport, host: str | None) -> str | None:
        """Count a new connection (None), or say why it is refused."""
        if len(self.open) >= self.total:
            self.refused += 1
            return "the server is at its connection limit; try again shortly"
        address = address_key(host)
        if address not in self.trusted and self.by_address[address] >= self.per_address:
            self.refused += 1
            return "too many connections from your address"
        self.open[transport] = address
        self.by_address[address] += 1
        return None

    def release(self, transport: asyncio.BaseTransport) -> None:
        address = self.open.pop(transport, None)
        if address is not None:
            self.by_address[address] -= 1
            if not self.by_address[address]:
                del self.by_address[address]


def _busy(reason: str) -> bytes:
    body = (reason + "\n").encode()
    head = (
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
        f"content-length: {len(body)}\r\nretry-after: 5\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + body


def protocols(
    limits: ConnectionLimits,
) -> tuple[type[H11Protocol], type[WebSocketsSansIOProtocol]]:
    """uvicorn's ``http`` and ``ws`` protocol classes bound to ``limits``."""

    class GuardedH11Protocol(H11Protocol):
        _header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            client = get_remote_addr(transport)
            reason = limits.admit(transport, client[0] if client else None)
            if reason is not None:
                transport.write(_busy(reason))
                transport.close()
                return
            self._start_header_timer()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_header_timer()
            limits.release(self.transport)
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.transport.is_closing():
                self._stop_header_timer()
            elif self.conn.their_state is h11.IDLE:
                if self._header_timer is None:
                    self._start_header_timer()  # the first bytes of a next request
            else:
                self._stop_header_timer()  # the headers are complete

        def _start_header_timer(self) -> None:
            self._header_timer = self.loop.call_later(limits.header_timeout, self._headers_late)

        def _stop_header_timer(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _headers_late(self) -> None:
            self._header_timer = None
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self.transport.close()

    class GuardedWebSocketProtocol(WebSocketsSansIOProtocol):
        def connection_lost(self, exc: Exception | None) -> None:
            limits.release(self.transport)
            super().connection_lost(exc)

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope = getattr(self, "scope", None)
            if scope is not None:  # (the application's task has not started yet)
                scope["extensions"][FRAMES] = self

        def write_text(self, data: bytes) -> int | None:
            if self.close_sent or self.conn.state is not State.OPEN:
                return None
            transport = self.transport
            if transport.is_closing():
                return None
            transport.write(text_frame(data))
            return transport.get_write_buffer_size()

        def send_receive_event_to_app(self) -> None:
            paused = self.read_paused
            self.read_paused = True  # so that uvicorn does not pause reading ...
            super().send_receive_event_to_app()
            self.read_paused = paused  # ... unless the application falls behind
            if not paused and self.queue.qsize() >= READ_AHEAD:
                self.read_paused = True
                self.transport.pause_reading()

    return GuardedH11Protocol, GuardedWebSocketProtocol
