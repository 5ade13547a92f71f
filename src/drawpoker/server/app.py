"""The server's application: the room and its routes (Starlette).

REST for accounts, the lobby, tournaments and hand histories; one websocket per
client for the lobby and its tables (``gateway``); the browser client's files.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route, WebSocketRoute

from drawpoker import __version__
from drawpoker.server import (
    accounts_api,
    history_api,
    openapi,
    tables_api,
    tournament_api,
    web_routes,
)
from drawpoker.server.bus import Bus
from drawpoker.server.gateway import websocket_endpoint
from drawpoker.server.guard import Guard, GuardPolicy
from drawpoker.server.limits import Limits
from drawpoker.server.rest import json_response
from drawpoker.server.room import Room
from drawpoker.server.store import Store
from drawpoker.server.tableconfig import TableConfig
from drawpoker.server.tournament.spec import TournamentSpec


async def health(request: Request) -> Response:
    return json_response({"ok": True, "version": __version__})


def routes() -> list[BaseRoute]:
    return [
        Route("/health", health),
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
) -> Starlette:
    """The application behind its guard (``guard``: origins, sizes, caps, headers);
    ``limits`` are the in-memory rate limits of accounts (``limits``)."""
    room = Room(store, configs, tournaments, bus=bus)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await room.start()
        app.state.room = room
        # Fewer, cheaper garbage collections: the room built at start-up is
        # long-lived (frozen out of the collector), and young objects are
        # collected in larger batches, which keeps pauses out of the latency tail.
        gc.collect()
        gc.freeze()
        gc.set_threshold(50_000, 50, 1000)
        yield
        await room.stop()

    app = Starlette(
        routes=routes(),
        lifespan=lifespan,
        middleware=[Middleware(Guard, policy=policy or GuardPolicy())],
    )
    app.state.limits = limits or Limits()
    return app
