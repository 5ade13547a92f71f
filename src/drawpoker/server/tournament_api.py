"""REST routes for tournaments (see ``tournament/`` and docs/protocol.md).

``GET /api/tournaments`` lists them; ``GET /api/tournaments/{id}`` shows one (the
configured id for its current run, or a run id, finished ones too);
``POST /api/tournaments/{id}/register`` and ``/unregister`` (logged in) pay or
refund ``buy_in + fee`` through the ledger. Every answer comes from the
tournament's actors, asked by message.
"""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from drawpoker.server.auth import Account
from drawpoker.server.bus import NoOwner
from drawpoker.server.rest import account_of, authed, error, json_response, room_of
from drawpoker.server.tournament.run import Refused


async def list_tournaments(request: Request) -> Response:
    """The rows; with a session, each says where the caller stands (``you``)."""
    room = room_of(request)
    account = await account_of(request)
    rows = []
    for row in room.lobby.tournaments():
        data: dict[str, Any] = msgspec.to_builtins(row)
        if account is not None:
            try:
                data["you"] = await room.bus.ask(f"s:{row.id}", "you", {"account": account})
            except NoOwner:  # moving to another process: where you stand, in a moment
                data["you"] = None
        rows.append(data)
    return json_response({"tournaments": rows})


async def tournament_detail(request: Request) -> Response:
    tid = request.path_params["tournament"]
    room = room_of(request)
    unit = room.series_unit(tid)
    detail = None if unit is None else await room.bus.ask(unit, "detail", {"name": tid})
    if detail is None:
        return error(404, f"no tournament {tid!r}")
    return json_response(detail)


async def _change(request: Request, account: Account, *, join: bool) -> Response:
    tid = request.path_params["tournament"]
    room = room_of(request)
    unit = room.series_unit(tid)
    if unit is None:
        return error(404, f"no tournament {tid!r}")
    try:
        op = "register" if join else "unregister"
        result = await room.bus.ask(unit, op, {"account": account, "name": tid})
    except Refused as problem:
        return error(problem.status, str(problem))
    return json_response(result)


async def register(request: Request, account: Account) -> Response:
    return await _change(request, account, join=True)


async def unregister(request: Request, account: Account) -> Response:
    return await _change(request, account, join=False)


def routes() -> list[BaseRoute]:
    return [
        Route("/api/tournaments", list_tournaments),
        Route("/api/tournaments/{tournament}", tournament_detail),
        Route("/api/tournaments/{tournament}/register", authed(register), methods=["POST"]),
        Route("/api/tournaments/{tournament}/unregister", authed(unregister), methods=["POST"]),
    ]
