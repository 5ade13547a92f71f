"""REST endpoints for sit & go tournaments (see ``tournaments.py`` and docs/protocol.md).

``GET /api/tournaments`` lists them; ``GET /api/tournaments/{id}`` shows one (the
sit & go id for its current instance, or an instance id, finished ones too);
``POST /api/tournaments/{id}/register`` and ``/unregister`` (logged in) pay or
refund ``buy_in + fee`` through the ledger.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from drawpoker.server.auth import Account
from drawpoker.server.tournaments import SitAndGoRunner, TournamentRefused


def _runners(request: Request) -> dict[str, SitAndGoRunner]:
    runners: dict[str, SitAndGoRunner] = request.app.state.room.tournaments
    return runners


def _find(request: Request, tournament_id: str) -> SitAndGoRunner | None:
    runners = _runners(request)
    if tournament_id in runners:
        return runners[tournament_id]
    return next((r for r in runners.values() if r.instance(tournament_id)), None)


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def list_tournaments(request: Request) -> Response:
    return JSONResponse({"tournaments": [r.summary() for r in _runners(request).values()]})


async def tournament_detail(request: Request) -> Response:
    tid = request.path_params["tournament"]
    runner = _find(request, tid)
    inst = runner.instance(tid) if runner else None
    if runner is None or inst is None:
        return _error(404, f"no tournament {tid!r}")
    return JSONResponse(runner.detail(inst))


async def _change(request: Request, account: Account, *, join: bool) -> Response:
    tid = request.path_params["tournament"]
    runner = _find(request, tid)
    if runner is None:
        return _error(404, f"no tournament {tid!r}")
    if tid not in (runner.config.id, runner.current.id):
        return _error(409, f"{tid} is over; register for {runner.current.id}")
    try:
        result = await (runner.register(account) if join else runner.unregister(account))
    except TournamentRefused as error:
        return _error(error.status, str(error))
    return JSONResponse(result)


async def register(request: Request, account: Account) -> Response:
    return await _change(request, account, join=True)


async def unregister(request: Request, account: Account) -> Response:
    return await _change(request, account, join=False)
