"""The guard in front of the application (ASGI middleware): what every request
and websocket passes before the room does any work for it.

HTTP requests:

- at most ``max_requests_per_address`` in flight per client address, and
  ``max_requests_per_account`` per account on ``/api/`` (429 beyond);
- a state-changing request (POST, PUT, PATCH, DELETE) from another site is
  refused (403): an ``Origin`` header must name this site, ``null`` is refused,
  and ``Sec-Fetch-Site: cross-site`` or ``same-site`` is refused; its body, if
  any, must be JSON (415 otherwise: an HTML form or a ``text/plain`` POST
  cannot send JSON without the browser asking first, and nothing answers
  that question here);
- a body is capped as it streams in: an announced length over ``max_body`` is
  refused before reading a byte, a chunked one as soon as it passes the cap
  (413, and the connection is closed), and it must arrive within
  ``body_timeout`` seconds (408);
- every answer carries a Content-Security-Policy (scripts, style sheets and
  connections from this site only, no framing), ``nosniff``, a referrer policy
  and friends; ``/api/`` answers are not stored by caches.

Websockets:

- an ``Origin`` that is not this site is refused; without an ``Origin`` (a
  program, not a browser page), the session cookie alone is refused: a program
  sends its token on purpose (``?token=`` or ``Authorization: Bearer``);
- at most ``max_websockets_per_address`` and ``max_websockets_per_account``
  open at once (429 before the handshake completes);
- a message over ``max_ws_message`` bytes closes the connection (1009).

Counts are per client address as ``limits.address_key`` keys it; addresses in
``trusted`` (``drawpoker serve --trust``) have no per-address cap.
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from dataclasses import dataclass
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from drawpoker.server.limits import address_key
from drawpoker.server.rest import COOKIE, MAX_BODY, account_of, encode_json, explicit_token

UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_FORM_TYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data", "text/plain"})
MAX_WS_MESSAGE = 131_072  # bytes: larger closes the websocket (1009); the protocol refuses > 4,096
_HOST_RE = re.compile(r"[A-Za-z0-9.\-]+(:\d{1,5})?|\[[0-9A-Fa-f:.]+\](:\d{1,5})?")


@dataclass(frozen=True, slots=True)
class GuardPolicy:
    """The guard's limits; ``docs/security.md`` gives each one's reason."""

    max_body: int = MAX_BODY
    body_timeout: float = 10.0
    max_ws_message: int = MAX_WS_MESSAGE
    max_requests_per_address: int = 64
    max_requests_per_account: int = 16
    max_websockets_per_address: int = 128
    max_websockets_per_account: int = 8
    allowed_origins: frozenset[str] = (
        frozenset()
    )  # other origins allowed, e.g. https://play.example
    trusted: frozenset[str] = frozenset()  # address keys without per-address caps


class _Refused(Exception):
    """A request refused while its body is read (answered by the guard)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _headers(scope: Scope) -> dict[str, str]:
    """The request's headers, lower-cased names, the last of repeated ones."""
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}


def _netloc(scheme: str, host: str) -> str:
    """``host[:port]`` lower-cased, without the scheme's default port."""
    host = host.lower()
    default = ":443" if scheme in ("https", "wss") else ":80"
    return host[: -len(default)] if host.endswith(default) else host


def same_site_origin(origin: str, host: str, scheme: str, allowed: frozenset[str]) -> bool:
    """Whether an ``Origin`` header names this server (its ``Host``) or an allowed
    origin. An ``http`` page may not speak for an ``https`` server."""
    if origin.lower() in allowed:
        return True
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.netloc or not host:
        return False
    if parts.scheme == "http" and scheme in ("https", "wss"):
        return False
    return _netloc(parts.scheme, parts.netloc) == _netloc(scheme, host)


def csp(host: str) -> str:
    """The Content-Security-Policy: everything from this site only, no inline
    script, never in a frame. Style attributes are allowed (the table places its
    seats with them); style elements and sheets come from this site only
    (``style-src-elem``; browsers without it fall back to ``style-src``)."""
    sockets = f" ws://{host} wss://{host}" if _HOST_RE.fullmatch(host) else ""
    return (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "style-src-elem 'self'; style-src-attr 'unsafe-inline'; img-src 'self' data:; "
        f"font-src 'self'; connect-src 'self'{sockets}; manifest-src 'self'; "
        "worker-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
        "frame-ancestors 'none'"
    )


def security_headers(host: str, path: str, scheme: str) -> list[tuple[bytes, bytes]]:
    out = [
        (b"content-security-policy", csp(host).encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"x-frame-options", b"DENY"),
        (b"referrer-policy", b"no-referrer"),
        (b"cross-origin-opener-policy", b"same-origin"),
        (b"cross-origin-resource-policy", b"same-origin"),
        (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=()"),
    ]
    if path.startswith("/api/"):
        out.append((b"cache-control", b"no-store"))
    if scheme == "https":
        out.append((b"strict-transport-security", b"max-age=31536000"))
    return out


def _json_answer(status: int, message: str, retry_after: int | None = None) -> list[Message]:
    body = encode_json({"error": message})
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]
    if retry_after is not None:
        headers.append((b"retry-after", str(retry_after).encode()))
    return [
        {"type": "http.response.start", "status": status, "headers": headers},
        {"type": "http.response.body", "body": body},
    ]


class Guard:
    """ASGI middleware: see the module's description."""

    def __init__(self, app: ASGIApp, policy: GuardPolicy | None = None) -> None:
        self.app = app
        self.policy = policy or GuardPolicy()
        self.requests: Counter[str] = Counter()  # in flight, per address and per account
        self.websockets: Counter[str] = Counter()  # open, per address and per account

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    # ------------------------------------------------------------------ HTTP

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        policy = self.policy
        headers = _headers(scope)
        host = headers.get("host", "")
        extra = security_headers(host, scope["path"], scope.get("scheme", "http"))
        started = False

        async def send_guarded(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                present = {k.lower() for k, _ in message.get("headers", [])}
                more = [(k, v) for k, v in extra if k not in present]
                message = {**message, "headers": [*message.get("headers", []), *more]}
            await send(message)

        async def answer(status: int, message: str, retry_after: int | None = None) -> None:
            for part in _json_answer(status, message, retry_after):
                await send_guarded(part)

        client = scope.get("client")
        address = address_key(client[0] if client else None)
        counted = [] if address in policy.trusted else [f"a:{address}"]
        for key in counted:
            if self.requests[key] >= policy.max_requests_per_address:
                await answer(429, "too many requests at once from your address", 1)
                return
        problem = self._refusal(scope, headers, host)
        if problem is not None:
            await answer(*problem)
            return
        if scope["path"].startswith("/api/") and (
            explicit_token(HTTPConnection(scope)) or COOKIE in _cookies(headers)
        ):
            account = await account_of(HTTPConnection(scope))
            if account is not None:
                key = f"u:{account.id}"
                if self.requests[key] >= policy.max_requests_per_account:
                    await answer(429, "too many requests at once for your account", 1)
                    return
                counted.append(key)
        for key in counted:
            self.requests[key] += 1
        try:
            await self.app(scope, self._body_reader(receive), send_guarded)
        except _Refused as refusal:
            if started:
                raise
            await answer(refusal.status, refusal.message)
        finally:
            for key in counted:
                self.requests[key] -= 1
                if not self.requests[key]:
                    del self.requests[key]

    def _refusal(self, scope: Scope, headers: dict[str, str], host: str) -> tuple[int, str] | None:
        """Why a request is refused before the application sees it (None: it is not)."""
        length = headers.get("content-length")
        if length is not None:
            if not length.isdigit() or len(length) > 18:
                return 400, "the Content-Length header is not a number"
            if int(length) > self.policy.max_body:
                return 413, f"request body too large (the limit is {self.policy.max_body} bytes)"
        if scope["method"] not in UNSAFE:
            return None
        origin = headers.get("origin")
        if origin is not None:
            if not same_site_origin(
                origin, host, scope.get("scheme", "http"), self.policy.allowed_origins
            ):
                return 403, "cross-origin request refused: this site's own pages only"
        elif headers.get("sec-fetch-site") in ("cross-site", "same-site"):
            return 403, "cross-origin request refused: this site's own pages only"
        media = headers.get("content-type", "").split(";", 1)[0].strip().lower()
        has_body = (length is not None and length != "0") or "transfer-encoding" in headers
        if media in _FORM_TYPES or (
            has_body and not (media == "application/json" or media.endswith("+json"))
        ):
            return 415, "the body must be JSON (Content-Type: application/json)"
        return None

    def _body_reader(self, receive: Receive) -> Receive:
        """``receive`` that counts the body's bytes and watches the clock until the
        body is complete (then it only passes messages on: a response may wait for
        the client to go away)."""
        limit = self.policy.max_body
        deadline = asyncio.get_running_loop().time() + self.policy.body_timeout
        size = 0
        complete = False

        async def reader() -> Message:
            nonlocal size, complete
            if complete:
                return await receive()
            remaining = deadline - asyncio.get_running_loop().time()
            try:
                async with asyncio.timeout(max(remaining, 0.001)):
                    message = await receive()
            except TimeoutError:
                raise _Refused(408, "the request body came too slowly") from None
            if message["type"] == "http.request":
                size += len(message.get("body", b""))
                if size > limit:
                    raise _Refused(413, f"request body too large (the limit is {limit} bytes)")
                complete = not message.get("more_body", False)
            else:
                complete = True
            return message

        return reader

    # ------------------------------------------------------------- websocket

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        policy = self.policy
        headers = _headers(scope)
        conn = HTTPConnection(scope)
        first = await receive()  # websocket.connect
        if first["type"] != "websocket.connect":
            return
        origin = headers.get("origin")
        if origin is not None and not same_site_origin(
            origin, headers.get("host", ""), scope.get("scheme", "ws"), policy.allowed_origins
        ):
            await self._refuse_handshake(scope, send, 403, "cross-origin websocket refused")
            return
        if origin is None and not explicit_token(conn) and COOKIE in _cookies(headers):
            await self._refuse_handshake(
                scope,
                send,
                403,
                "a websocket without an Origin header must send its token "
                "(?token= or Authorization: Bearer), not the session cookie",
            )
            return
        client = scope.get("client")
        address = address_key(client[0] if client else None)
        keys = [] if address in policy.trusted else [f"a:{address}"]
        if keys and self.websockets[keys[0]] >= policy.max_websockets_per_address:
            await self._refuse_handshake(
                scope, send, 429, "too many open websockets from your address"
            )
            return
        account = await account_of(conn)
        if account is not None:
            key = f"u:{account.id}"
            if self.websockets[key] >= policy.max_websockets_per_account:
                await self._refuse_handshake(
                    scope, send, 429, "too many open websockets for your account"
                )
                return
            keys.append(key)
        for key in keys:
            self.websockets[key] += 1
        closed = False
        delivered_first = False

        async def receive_guarded() -> Message:
            nonlocal closed, delivered_first
            if not delivered_first:
                delivered_first = True
                return first
            message = await receive()
            if message["type"] == "websocket.receive":
                data = message.get("text")
                size = len(data.encode()) if data is not None else len(message.get("bytes") or b"")
                if size > policy.max_ws_message:
                    closed = True
                    await send({"type": "websocket.close", "code": 1009, "reason": "too large"})
                    return {"type": "websocket.disconnect", "code": 1009}
            return message

        async def send_guarded(message: Message) -> None:
            if not closed:
                await send(message)

        try:
            await self.app(scope, receive_guarded, send_guarded)
        finally:
            for key in keys:
                self.websockets[key] -= 1
                if not self.websockets[key]:
                    del self.websockets[key]

    async def _refuse_handshake(self, scope: Scope, send: Send, status: int, message: str) -> None:
        """Answer the handshake with an HTTP status and a sentence when the server
        can (the ASGI websocket response extension), else close it (403)."""
        if "websocket.http.response" in scope.get("extensions", {}):
            for part in _json_answer(status, message):
                kind = part["type"].replace("http.", "websocket.http.", 1)
                await send({**part, "type": kind})
        else:
            await send({"type": "websocket.close", "code": 1008, "reason": message[:120]})


def _cookies(headers: dict[str, str]) -> set[str]:
    """The names of the request's cookies."""
    names = set()
    for part in headers.get("cookie", "").split(";"):
        name, sep, _ = part.partition("=")
        if sep:
            names.add(name.strip())
    return names
