"""What every REST route shares: the session's account, JSON bodies and answers,
errors as ``{"error": "a sentence"}``, the client's address and the limits.

The session token comes from an ``Authorization: Bearer`` header or a
``?token=`` query parameter (bots, the terminal client, the load benchmark:
explicit credentials), else from the ``dp_session`` cookie (the browser: an
ambient credential, which ``guard`` accepts only from this site's own pages).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

import msgspec
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from drawpoker.server import auth
from drawpoker.server.auth import Account, AuthError
from drawpoker.server.bus import Moving, NoOwner
from drawpoker.server.limits import Limits, address_key

if TYPE_CHECKING:
    from drawpoker.server.room import Room

COOKIE = "dp_session"
MAX_BODY = 10_000  # bytes of a request body, on every route (``guard`` caps it as it streams in)
ACCOUNT_KEY = "drawpoker.account"  # the scope's account, once looked up (``guard`` may do it)
T = TypeVar("T")


class TooLarge(AuthError):
    """A request body over ``MAX_BODY``."""

    status = 413


_encoder = msgspec.json.Encoder()


def room_of(conn: HTTPConnection) -> Room:
    room: Room = conn.app.state.room
    return room


def encode_json(body: Any) -> bytes:
    return _encoder.encode(body)


def json_response(body: Any, status: int = 200) -> Response:
    """An answer as JSON (dicts, lists and protocol structs alike)."""
    return Response(_encoder.encode(body), status_code=status, media_type="application/json")


def limits_of(conn: HTTPConnection) -> Limits:
    """The server's in-memory limits (``app.state.limits``; defaults if unset)."""
    state = conn.app.state
    limits: Limits | None = getattr(state, "limits", None)
    if limits is None:
        limits = state.limits = Limits()
    return limits


def address_of(conn: HTTPConnection) -> str:
    """The key of the client's address for per-address limits (``limits.address_key``)."""
    return address_key(conn.client.host if conn.client else None)


def error(status: int, message: str, headers: dict[str, str] | None = None) -> Response:
    response = json_response({"error": message}, status)
    if headers:
        response.headers.update(headers)
    return response


def refused(problem: AuthError, status: int | None = None) -> Response:
    """The answer to an ``AuthError``: its status (or ``status``), and
    ``Retry-After`` for a 429."""
    headers = None
    if isinstance(problem, auth.RateLimited):
        headers = {"retry-after": str(max(1, round(problem.retry_after)))}
    return error(status or problem.status, str(problem), headers)


def unowned(request: Request, problem: Exception) -> Response:
    """Nobody answers for the table or tournament a route asked: it is not the
    room's (404), or its owner is changing (503: ask again in a moment). The
    application's handler of ``NoOwner``, for every route."""
    assert isinstance(problem, NoOwner)
    what = _unit_asked(request, str(problem))
    if isinstance(problem, Moving):
        moving = f"{what or 'the table or tournament'} is moving to another server"
        return error(503, f"{moving}; try again in a moment", {"retry-after": "2"})
    return error(404, f"there is no {what}" if what else "no such table or tournament")


def _unit_asked(request: Request, unit: str) -> str | None:
    """``table 'x'`` / ``tournament 'y'``: as the address names it, else as the unit does."""
    params = request.path_params
    for kind in ("table", "tournament"):
        if kind in params:
            return f"{kind} {params[kind]!r}"
    prefix, _, name = unit.partition(":")
    named = {"t": "table", "s": "tournament"}.get(prefix)
    return f"{named} {name!r}" if named and name else None


def explicit_token(conn: HTTPConnection) -> str:
    """A token the client sent on purpose: ``Authorization: Bearer`` or ``?token=``."""
    header = conn.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return conn.query_params.get("token") or ""


def token_of(conn: HTTPConnection) -> str:
    return explicit_token(conn) or conn.cookies.get(COOKIE) or ""


async def account_of(conn: HTTPConnection) -> Account | None:
    """The account of the connection's session, or None (looked up once)."""
    if ACCOUNT_KEY in conn.scope:
        known: Account | None = conn.scope[ACCOUNT_KEY]
        return known
    token = token_of(conn)
    account = None
    if token:
        account = await room_of(conn).store.run(auth.account_for_token, token)
    conn.scope[ACCOUNT_KEY] = account
    return account


async def require(conn: HTTPConnection) -> Account:
    account = await account_of(conn)
    if account is None:
        raise AuthError("log in first")
    return account


def authed(
    handler: Callable[[Request, Account], Awaitable[Response]],
) -> Callable[[Request], Awaitable[Response]]:
    """A route for logged-in accounts only (401 otherwise); an ``AuthError`` raised
    by the handler answers with its status."""

    async def wrapped(request: Request) -> Response:
        try:
            account = await require(request)
        except AuthError as problem:
            return error(401, str(problem))
        try:
            return await handler(request, account)
        except AuthError as problem:
            return refused(problem)

    return wrapped


async def read_body(request: Request, kind: type[T]) -> T:
    """The request's JSON body as ``kind`` (an ``AuthError`` with status 400 that
    names the problem if it is too large, not JSON, or not of that shape). The
    body is read only up to ``MAX_BODY`` bytes, whatever its announced length."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise TooLarge(f"request body too large (the limit is {MAX_BODY} bytes)")
        chunks.append(chunk)
    raw = b"".join(chunks)
    try:
        return msgspec.json.decode(raw or b"{}", type=kind)
    except msgspec.ValidationError as problem:
        field = str(problem).rpartition(" - at `$.")[2].rstrip("`")
        rule = getattr(kind, "rules", {}).get(field)
        raise AuthError(f"the body is not as expected: {rule or problem}") from None
    except msgspec.DecodeError:
        raise AuthError("the body is not valid JSON") from None
