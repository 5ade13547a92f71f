"""REST endpoints for sit & go tournaments (see ``tournaments.py`` and docs/protocol.md).

``GET /api/tournaments`` lists them; ``GET /api/tournaments/{id}`` shows one (the
sit & go id for its current instance, or an instance id, finished ones too);
``POST /api/tournaments/{id}/register`` and ``/unregister`` (logged in) pay or
refund ``buy_in + fee`` through the ledger.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from drawpoker.actions import Action
from drawpoker.cards import parse_cards
from drawpoker.errors import InvalidAction, InvalidCards
from drawpoker.server import protocol
from drawpoker.server.actor import TableError
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


def runner_for(runners: dict[str, SitAndGoRunner], table: str) -> SitAndGoRunner | None:
    """The sit & go a websocket message's ``table`` names (its id or an instance id)."""
    if table in runners:
        return runners[table]
    return next((r for r in runners.values() if r.instance(table)), None)


def handle(runner: SitAndGoRunner, conn: Any, msg: protocol.ClientMessage) -> None:
    """A websocket message for a sit & go: ``subscribe`` (events of the tables where
    the tournament plays, a seat's cards to that player only), ``unsubscribe``,
    ``act`` and ``draw`` (when the server asked with a ``Legal`` event)."""
    ref = msg.id
    try:
        if isinstance(msg, protocol.Subscribe):
            conn.ok(ref, **runner.watch(conn))
        elif isinstance(msg, protocol.Unsubscribe):
            runner.unwatch(conn)
            conn.ok(ref)
        elif isinstance(msg, protocol.Act):
            conn.ok(ref, action_id=msg.action_id, **runner.act(conn, msg.hand_id, _betting(msg)))
        elif isinstance(msg, protocol.Draw):
            cards = _cards(msg.discard)
            made = runner.act(conn, msg.hand_id, lambda seat: Action.draw(seat, cards))
            conn.ok(ref, action_id=msg.action_id, **made)
        else:
            conn.error("not_here", f"{msg.type} is not for a tournament", ref)
    except TableError as error:
        conn.error(error.code, str(error), ref)


def _betting(msg: protocol.Act) -> Callable[[int], Action]:
    kind = msg.action
    amount = msg.amount
    if kind in ("bet", "raise"):
        if amount is None:
            raise TableError("bad_amount", f"{kind} needs an amount: the total to {kind} to")
        return lambda seat: Action.bet(seat, amount)
    if amount is not None:
        raise TableError("bad_amount", f"{kind} takes no amount")
    return {"fold": Action.fold, "check": Action.check, "call": Action.call}[kind]


def _cards(texts: list[str]) -> tuple[int, ...]:
    try:
        return tuple(parse_cards(texts))
    except (InvalidCards, InvalidAction) as error:
        raise TableError("bad_cards", str(error)) from None
