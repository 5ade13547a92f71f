"""REST routes for the lobby's tables: the list (with filters) and one table."""

from __future__ import annotations

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from drawpoker.server.lobby import Filters
from drawpoker.server.rest import error, json_response, room_of


def filters_of(request: Request) -> Filters:
    q = request.query_params
    return Filters(
        game=q.get("game"),
        structure=q.get("structure"),
        kind=q.get("kind"),
        stakes=q.get("stakes"),
        seats=q.get("seats"),
    )


async def list_tables(request: Request) -> Response:
    return json_response({"tables": room_of(request).lobby.tables(filters_of(request))})


async def table_detail(request: Request) -> Response:
    """A cash table's lobby row and its public snapshot (asked of its actor)."""
    room = room_of(request)
    table_id = request.path_params["table"]
    row = room.lobby.table_rows.get(table_id)
    if row is None:
        return error(404, "no such table")
    state = await room.bus.ask(f"t:{table_id}", "snapshot", {"account_id": None})
    return json_response({**msgspec.structs.asdict(row), "state": state})


def routes() -> list[BaseRoute]:
    return [Route("/api/tables", list_tables), Route("/api/tables/{table}", table_detail)]
