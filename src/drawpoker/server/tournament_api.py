"""REST endpoints for tournaments (see ``tournaments.py`` and docs/protocol.md).

``GET /api/tournaments`` lists them; ``GET /api/tournaments/{id}`` shows one (the
configured id for its current run, or a run id, finished ones too);
``POST /api/tournaments/{id}/register`` and ``/unregister`` (logged in) pay or
refund ``buy_in + fee`` through the ledger.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from drawpoker.server import protocol
from drawpoker.server.auth import Account
from drawpoker.server.tournaments import TournamentRefused, TournamentRunner


def _runners(request: Request) -> dict[str, TournamentRunner]:
    runners: dict[str, TournamentRunner] = request.app.state.room.tournaments
    return runners


def _find(request: Request, tournament_id: str) -> TournamentRunner | None:
    runners = _runners(request)
    if tournament_id in runners:
        return runners[tournament_id]
    return next((r for r in runners.values() if r.instance(tournament_id)), None)


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def list_tournaments(request: Request) -> Response:
    """The rows; with a session, each says where the caller stands (``you``)."""
    from drawpoker.server.app import _account

    account = await _account(request.app.state.room, request)
    rows = []
    for runner in _runners(request).values():
        row = runner.summary()
        if account is not None:
            row["you"] = runner.you(account.id)
        rows.append(row)
    return JSONResponse({"tournaments": rows})


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
    if tid not in (runner.spec.id, runner.current.id):
        run = runner.instance(tid)
        state = "has started" if run is not None and run.finished_at is None else "is over"
        return _error(409, f"{tid} {state}; the next one is {runner.current.id}")
    try:
        result = await (runner.register(account) if join else runner.unregister(account))
    except TournamentRefused as error:
        return _error(error.status, str(error))
    return JSONResponse(result)


async def register(request: Request, account: Account) -> Response:
    return await _change(request, account, join=True)


async def unregister(request: Request, account: Account) -> Response:
    return await _change(request, account, join=False)


def runner_for(runners: dict[str, TournamentRunner], table: str) -> TournamentRunner | None:
    """The tournament a websocket message's ``table`` names (its id or a run's id)."""
    if table in runners:
        return runners[table]
    return next((r for r in runners.values() if r.instance(table)), None)


def handle(runner: TournamentRunner, conn: Any, msg: protocol.ClientMessage, table: str) -> None:
    """A websocket message for a tournament's channel: ``subscribe`` (its notices, and
    your table: ``YourTable``, ``Moved``, ``Finished``) and ``unsubscribe``. Hands are
    played at the tournament's tables (``<run>-t<n>``), as at a cash table."""
    ref = msg.id
    account_id = conn.account.id if conn.account is not None else None
    run = runner.run_for(table, account_id)
    if run is None:
        conn.error("no_table", f"there is no tournament {table!r}", ref)
    elif isinstance(msg, protocol.Subscribe):
        conn.ok(ref, **run.watch(conn))
    elif isinstance(msg, protocol.Unsubscribe):
        run.unwatch(conn)
        conn.ok(ref)
    else:
        mine = run.table_of(account_id) if account_id is not None else None
        where = f"at your table {mine}" if mine else "at the tournament's tables"
        conn.error("not_here", f"{msg.type}: play {where}, not on the tournament channel", ref)
