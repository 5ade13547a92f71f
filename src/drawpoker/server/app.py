"""The server's application: the room and its routes (Starlette).

REST for accounts, the lobby, tournaments and hand histories; one websocket per
client for the lobby and its tables (``gateway``); the browser client's files.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator, Iterable

from sqlalchemy import Connection, text
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route, WebSocketRoute

from drawpoker import __version__
from drawpoker.server import (
    accounts_api,
    history_api,
    metrics,
    openapi,
    staff_api,
    tables_api,
    tournament_api,
    web_routes,
)
from drawpoker.server.bus import Bus, NoOwner
from drawpoker.server.guard import Guard, GuardPolicy
from drawpoker.server.limits import Limits
from drawpoker.server.rest import error, json_response, room_of, unowned
from drawpoker.server.room import Room
from drawpoker.server.store import Store
from drawpoker.server.tableconfig import TableConfig
from drawpoker.server.tournament.spec import TournamentSpec
from drawpoker.server.websocket import websocket_endpoint

LOOPBACK = frozenset({"127.0.0.1", "::1"})


HEALTH_WAIT_S = 5.0  # a check not answered by then counts as failed


def _select_one(conn: Connection) -> None:
    conn.execute(text("SELECT 1"))


async def _storage_problem(room: Room) -> str | None:
    try:
        await asyncio.wait_for(room.store.run(_select_one), HEALTH_WAIT_S)
    except TimeoutError:
        return f"the database did not answer in {HEALTH_WAIT_S:.0f} s"
    except Exception as problem:
        return f"the database failed: {type(problem).__name__}"
    return None


async def health(request: Request) -> Response:
    """200 when the database and the bus answer, else 503 saying which does not."""
    room = room_of(request)
    try:
        bus = await asyncio.wait_for(room.bus.health(), HEALTH_WAIT_S)
    except TimeoutError:
        bus = f"the bus did not answer in {HEALTH_WAIT_S:.0f} s"
    checks = {"storage": await _storage_problem(room) or "ok", "bus": bus or "ok"}
    ok = all(value == "ok" for value in checks.values())
    return json_response({"ok": ok, "version": __version__, **checks}, 200 if ok else 503)


async def figures(request: Request) -> Response:
    """``/metrics``: only to the addresses ``serve --metrics-from`` names (and loopback)."""
    allowed: frozenset[str] = request.app.state.metrics_from
    if (request.client.host if request.client else "") not in allowed:
        return error(403, "the room's figures are for its monitoring (serve --metrics-from)")
    body, content_type = metrics.scrape()
    return Response(body, media_type=content_type)


def routes() -> list[BaseRoute]:
    return [
        Route("/health", health),
        Route("/metrics", figures),
        *staff_api.routes(),
        *openapi.routes(),
        *accounts_api.routes(),
        *tables_api.routes(),
        *history_api.routes(),
        *tournament_api.routes(),
        WebSocketRoute("/ws", websocket_endpoint),
        *web_routes.routes(),
    ]


def create_app(
    store: Store,
    configs: list[TableConfig],
    tournaments: list[TournamentSpec] | None = None,
    *,
    policy: GuardPolicy | None = None,
    limits: Limits | None = None,
    bus: Bus | None = None,
    metrics_from: Iterable[str] = (),
) -> Starlette:
    """The application behind its guard (``guard``: origins, sizes, caps, headers);
    ``limits`` are the in-memory rate limits of accounts (``limits``);
    ``metrics_from``: addresses besides loopback that may read ``/metrics``."""
    room = Room(store, configs, tournaments, bus=bus)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await room.start()
        app.state.room = room
        metrics.watch_room(room.figures)
        # Fewer, cheaper garbage collections: the room built at start-up is
        # long-lived (frozen out of the collector), and young objects are
        # collected in larger batches, which keeps pauses out of the latency tail.
        gc.collect()
        gc.freeze()
        gc.set_threshold(50_000, 50, 1000)
        yield
        metrics.unwatch_room()
        await room.stop()

    app = Starlette(
        routes=routes(),
        lifespan=lifespan,
        middleware=[Middleware(Guard, policy=policy or GuardPolicy())],
        exception_handlers={NoOwner: unowned},
    )
    app.state.limits = limits or Limits()
    app.state.metrics_from = LOOPBACK | frozenset(metrics_from)
    metrics.count_errors(logging.getLogger("drawpoker"))
    return app
