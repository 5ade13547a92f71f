"""REST routes for the room's staff (``/api/admin/...``; roles in ``staff``).

Every route needs a logged-in account holding its role or one above it: 401
without a session, 403 for anyone else. What a route changes is written to the
audit log in the same transaction.

- ``GET  /api/admin/overview``        moderator: the room's figures and this process's
- ``GET  /api/admin/players?q=ab``    moderator: accounts whose name starts with ``ab``
- ``GET  /api/admin/players/{name}``  moderator: an account, its balance, ledger, sessions
- ``POST /api/admin/mute``            moderator: refuse an account's chat for a while
- ``POST /api/admin/seat``            moderator: sit a player out at a table, or stand them up
- ``POST /api/admin/chat/delete``     moderator: delete a chat line from everyone's chat
- ``POST /api/admin/suspend``         operator: suspend or ban an account (sessions end,
                                      connections close, seats are cashed out)
- ``GET  /api/admin/audit``           operator: the audit log, newest first
- ``GET  /api/admin/hands/{id}``      operator: a finished hand with every card
- ``GET  /api/admin/signals?days=7``  operator: pairs of accounts worth a look (``signals``)
- ``POST /api/admin/adjust``          operator: correct a balance, with a reason
- ``GET  /api/admin/tables``          operator: every cash table, its config and status
- ``POST /api/admin/tables``          operator: open a cash table now (kept in the database)
- ``POST /api/admin/tables/{id}``     operator: change a table's config (between hands)
- ``POST /api/admin/tables/{id}/pause`` operator: pause it (no new hand) or resume it
- ``POST /api/admin/tables/{id}/close`` operator: close it (players cashed out as hands end)
- ``GET  /api/admin/tournaments``     operator: every tournament, its spec and lobby row
- ``POST /api/admin/tournaments``     operator: schedule a tournament now (kept in the database)
- ``POST /api/admin/tournaments/{id}`` operator: change it (from its next run)
- ``POST /api/admin/tournaments/{id}/cancel`` operator: cancel it, refunding the open run
- ``POST /api/admin/roles``           administrator: give an account a role
- ``GET  /api/admin/reports``         moderator: players' reports not closed yet (``?all=1``)
- ``POST /api/admin/reports/{id}/close`` moderator: close one, saying what was done

And one route for every logged-in account: ``POST /api/reports``, a player's
report of a chat line or a hand (``reports``).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from drawpoker.errors import DrawPokerError, InvalidConfig
from drawpoker.protocol import client
from drawpoker.protocol.rest import (
    Adjustment,
    ChatDeletion,
    Closing,
    Mute,
    NewTable,
    NewTournament,
    Report,
    RoleChange,
    SeatOrder,
    Suspension,
    TablePause,
)
from drawpoker.server import audit, reports, signals, staff
from drawpoker.server.auth import Account, AuthError
from drawpoker.server.bus import NoOwner
from drawpoker.server.errors import TableError
from drawpoker.server.rest import authed, json_response, read_body, room_of
from drawpoker.server.tableconfig import TableConfig
from drawpoker.server.tournament.run import Refused
from drawpoker.server.tournament.spec import TournamentSpec

if TYPE_CHECKING:
    from drawpoker.server.room import Room

Handler = Callable[[Request, Account], Awaitable[Response]]


def for_role(role: str) -> Callable[[Handler], Callable[[Request], Awaitable[Response]]]:
    """A route for accounts holding ``role`` or one above it (403 otherwise)."""

    def wrap(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
        async def checked(request: Request, account: Account) -> Response:
            staff.require_role(account, role)
            return await handler(request, account)

        return authed(checked)

    return wrap


def _int(request: Request, name: str, default: int | None) -> int | None:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    if not raw.isdigit() or len(raw) > 12:
        raise AuthError(f"{name} is a whole number")
    return int(raw)


@for_role("moderator")
async def overview(request: Request, account: Account) -> Response:
    room = room_of(request)
    figures = await room.store.run(staff.overview)
    figures["this_process"] = room.figures()
    return json_response(figures)


@for_role("moderator")
async def player(request: Request, account: Account) -> Response:
    card = await room_of(request).store.run(staff.player_card, request.path_params["name"])
    return json_response(card)


@for_role("moderator")
async def find_players(request: Request, account: Account) -> Response:
    text = request.query_params.get("q", "")
    found = await room_of(request).store.run(staff.find_players, text)
    return json_response({"players": found})


@for_role("moderator")
async def mute(request: Request, account: Account) -> Response:
    body = await read_body(request, Mute)
    until = await room_of(request).store.run(
        lambda conn: staff.mute(conn, body.name, body.minutes, by=account, reason=body.reason)
    )
    return json_response({"ok": True, "muted_until": until})


@for_role("operator")
async def hand(request: Request, account: Account) -> Response:
    found = await room_of(request).store.run(staff.any_hand, request.path_params["hand"])
    return json_response(found)


@for_role("operator")
async def pairs(request: Request, account: Account) -> Response:
    days = _int(request, "days", 7) or 7
    found = await room_of(request).store.run(signals.pairs, float(min(days, 90)))
    return json_response({"days": min(days, 90), "pairs": found})


@for_role("operator")
async def suspend(request: Request, account: Account) -> Response:
    body = await read_body(request, Suspension)
    room = room_of(request)
    target, until, tables = await room.store.run(
        lambda conn: staff.suspend(conn, body.name, body.days, by=account, reason=body.reason)
    )
    unregistered = await room.turn_away(target, tables) if until is not None else []
    return json_response(
        {"ok": True, "suspended_until": until, "tables": tables, "tournaments": unregistered}
    )


@for_role("moderator")
async def seat_order(request: Request, account: Account) -> Response:
    """Sit a player out or stand them up (audited first: the order was given
    even if the table refuses it, e.g. the player has left already)."""
    body = await read_body(request, SeatOrder)
    room = room_of(request)
    target = await room.store.run(
        lambda conn: staff.order_seat(conn, body.name, body.table, body.action, by=account,
                                      reason=body.reason)
    )  # fmt: skip
    message = (
        client.SitOut(table=body.table)
        if body.action == "sit_out"
        else client.Leave(table=body.table)
    )
    try:
        detail = await _ask(room, f"t:{body.table}", message.type, account=target, msg=message)
    except TableError as problem:
        if problem.code == "not_seated":
            raise staff.NotFound(f"{target.name} has no seat at {body.table}") from None
        raise
    return json_response({"ok": True, **(detail or {})})


@for_role("moderator")
async def delete_chat(request: Request, account: Account) -> Response:
    """Delete a chat line the table still keeps (404 if it keeps none such), audited."""
    body = await read_body(request, ChatDeletion)
    room = room_of(request)
    gone = await _ask(room, f"t:{body.table}", "unsay", name=body.name, text=body.text)
    if not gone:
        raise staff.NotFound("that line is not among the table's recent chat")
    await room.store.run(
        lambda conn: audit.record(conn, account, "delete-chat", body.name, body.reason,
                                  {"table": body.table, "text": body.text, "lines": gone})
    )  # fmt: skip
    return json_response({"ok": True, "deleted": gone})


async def _ask(room: Room, unit: str, op: str, **args: Any) -> Any:
    """Ask a table's (``t:``) or tournament's (``s:``) owner, wherever it runs; its
    refusals as REST errors."""
    name = unit.split(":", 1)[1]
    try:
        return await room.bus.ask(unit, op, args)
    except TableError as problem:
        if problem.code == "not_seated":
            raise
        refused = staff.Conflict if problem.code == "closing" else AuthError
        raise refused(f"{name}: {problem}") from None
    except Refused as problem:
        refused = staff.Conflict if problem.status == 409 else AuthError
        raise refused(str(problem)) from None


@for_role("operator")
async def audit_log(request: Request, account: Account) -> Response:
    limit = _int(request, "limit", 100) or 100
    before = _int(request, "before", None)
    entries = await room_of(request).store.run(staff.audit_entries, limit, before)
    return json_response({"entries": entries})


@for_role("operator")
async def adjust(request: Request, account: Account) -> Response:
    body = await read_body(request, Adjustment)
    tx = await room_of(request).store.run(
        lambda conn: staff.adjust(conn, body.name, body.amount, by=account, reason=body.reason)
    )
    return json_response({"ok": True, "transaction": tx})


async def _form(
    request: Request, body: type[NewTable] | type[NewTournament], changing: str | None = None
) -> tuple[dict[str, Any], str]:
    """A table's or tournament's fields from the request, and the reason. A change
    (``changing``: the address's parameter naming it) must be about that one."""
    fields = msgspec.structs.asdict(await read_body(request, body))
    reason = fields.pop("reason")
    if changing is not None and fields["id"] != request.path_params[changing]:
        there = request.path_params[changing]
        raise AuthError(f"the body is for {changing} {fields['id']!r}, the address for {there!r}")
    return fields, reason


def _table_config(fields: dict[str, Any], base: TableConfig | None = None) -> TableConfig:
    """A table's config from a form's fields, checked (``base``: the table's config
    now, whose fields the form does not show are kept)."""
    rules = fields.pop("game")
    config = (
        dataclasses.replace(base, rules=rules, **fields)
        if base
        else TableConfig(rules=rules, **fields)
    )
    try:
        built = config.build_rules()
    except (DrawPokerError, TypeError, ValueError) as problem:
        raise AuthError(f"the game: {problem}") from None
    if config.min_buy_in > config.max_buy_in:
        raise AuthError("the minimum buy-in is above the maximum")
    if config.bots >= built.max_seats:
        raise AuthError(f"{config.bots} bots would fill all {built.max_seats} seats")
    return config


def _spec(fields: dict[str, Any], base: TournamentSpec | None = None) -> TournamentSpec:
    """A tournament from a form's fields, checked (``base``: as :func:`_table_config`)."""
    try:
        return dataclasses.replace(base, **fields) if base else TournamentSpec(**fields)
    except (InvalidConfig, TypeError, ValueError) as problem:
        raise AuthError(str(problem)) from None


@for_role("operator")
async def table_list(request: Request, account: Account) -> Response:
    return json_response({"tables": await room_of(request).store.run(staff.table_list)})


@for_role("operator")
async def open_table(request: Request, account: Account) -> Response:
    fields, reason = await _form(request, NewTable)
    config = _table_config(fields)
    await room_of(request).open_table(config, by=account, reason=reason)
    return json_response({"ok": True, "table": config.id})


@for_role("operator")
async def edit_table(request: Request, account: Account) -> Response:
    """A table's new config (the whole form, as ``POST /api/admin/tables``), applied
    at once between hands, else when the hand in play ends."""
    fields, reason = await _form(request, NewTable, "table")
    room = room_of(request)
    config = _table_config(fields, room.configs.get(fields["id"]))
    plain = json.loads(config.to_json())
    detail = await _ask(room, f"t:{config.id}", "reconfigure", by=account, reason=reason,
                        config=plain)  # fmt: skip
    return json_response({"ok": True, **detail})


@for_role("operator")
async def pause_table(request: Request, account: Account) -> Response:
    body = await read_body(request, TablePause)
    table = request.path_params["table"]
    room = room_of(request)
    detail = await _ask(room, f"t:{table}", "pause", by=account, reason=body.reason, on=body.on)
    return json_response({"ok": True, **detail})


@for_role("operator")
async def close_table(request: Request, account: Account) -> Response:
    body = await read_body(request, Closing)
    table = request.path_params["table"]
    detail = await _ask(room_of(request), f"t:{table}", "close", by=account, reason=body.reason)
    return json_response({"ok": True, **detail})


@for_role("operator")
async def tournament_list(request: Request, account: Account) -> Response:
    room = room_of(request)
    rows = {row.id: row for row in room.lobby.tournaments()}
    return json_response({"tournaments": [
        {"id": spec.id, "spec": json.loads(spec.to_json()), "row": rows.get(spec.id)}
        for spec in sorted(room.specs.values(), key=lambda spec: spec.id)
    ]})  # fmt: skip


@for_role("operator")
async def schedule_tournament(request: Request, account: Account) -> Response:
    fields, reason = await _form(request, NewTournament)
    spec = _spec(fields)
    await room_of(request).open_tournament(spec, by=account, reason=reason)
    return json_response({"ok": True, "tournament": spec.id})


@for_role("operator")
async def edit_tournament(request: Request, account: Account) -> Response:
    """A tournament's new terms (what the form does not show stays as it was):
    from its next run, and at once for a run nobody has registered for yet."""
    fields, reason = await _form(request, NewTournament, "tournament")
    name, room = fields["id"], room_of(request)
    old = room.specs.get(name)
    if old is None:
        raise staff.NotFound(f"there is no tournament {name!r}")
    plain = json.loads(_spec(fields, old).to_json())
    detail = await _ask(room, f"s:{name}", "reconfigure", by=account, reason=reason, spec=plain)
    return json_response({"ok": True, **detail})


@for_role("operator")
async def cancel_tournament(request: Request, account: Account) -> Response:
    body = await read_body(request, Closing)
    name = request.path_params["tournament"]
    detail = await _ask(room_of(request), f"s:{name}", "cancel", by=account, reason=body.reason)
    return json_response({"ok": True, **detail})


@for_role("administrator")
async def roles(request: Request, account: Account) -> Response:
    body = await read_body(request, RoleChange)
    changed = await room_of(request).store.run(
        lambda conn: staff.set_role(conn, body.name, body.role, by=account, reason=body.reason)
    )
    return json_response({"ok": True, "name": changed.name, "role": changed.role})


async def _report(request: Request, account: Account) -> Response:
    """A player's report (any logged-in account): a chat line the table still
    keeps, or a hand they played."""
    body = await read_body(request, Report)
    room = room_of(request)
    if body.kind == "chat":
        if not (body.table and body.about and body.text):
            raise AuthError("a chat report names the table, who said it and the line")
        try:
            said = await room.bus.ask(
                f"t:{body.table}", "said", {"name": body.about, "text": body.text}
            )
        except NoOwner:
            said = False
        if not said:
            raise staff.NotFound("that line is not among the table's recent chat")
    elif not body.hand:
        raise AuthError("a hand report names the hand")
    filed = await room.store.run(
        lambda conn: reports.file(
            conn, account, body.kind, table=body.table, hand=body.hand, about=body.about,
            text=body.text, note=body.note,
        )
    )  # fmt: skip
    return json_response({"ok": True, "report": filed})


report = authed(_report)


@for_role("moderator")
async def report_queue(request: Request, account: Account) -> Response:
    every = request.query_params.get("all") in ("1", "true")
    found = await room_of(request).store.run(reports.queue, not every)
    return json_response({"reports": found})


@for_role("moderator")
async def close_report(request: Request, account: Account) -> Response:
    body = await read_body(request, Closing)
    raw = request.path_params["report"]
    if not raw.isdigit() or len(raw) > 12:
        raise staff.NotFound(f"there is no open report #{raw}")
    await room_of(request).store.run(
        lambda conn: reports.close(conn, int(raw), by=account, reason=body.reason)
    )
    return json_response({"ok": True})


def routes() -> list[BaseRoute]:
    return [
        Route("/api/admin/overview", overview),
        Route("/api/admin/players", find_players),
        Route("/api/admin/players/{name}", player),
        Route("/api/admin/audit", audit_log),
        Route("/api/admin/hands/{hand}", hand),
        Route("/api/admin/signals", pairs),
        Route("/api/admin/mute", mute, methods=["POST"]),
        Route("/api/admin/seat", seat_order, methods=["POST"]),
        Route("/api/admin/chat/delete", delete_chat, methods=["POST"]),
        Route("/api/admin/suspend", suspend, methods=["POST"]),
        Route("/api/admin/adjust", adjust, methods=["POST"]),
        Route("/api/admin/tables", table_list),
        Route("/api/admin/tables", open_table, methods=["POST"]),
        Route("/api/admin/tables/{table}", edit_table, methods=["POST"]),
        Route("/api/admin/tables/{table}/pause", pause_table, methods=["POST"]),
        Route("/api/admin/tables/{table}/close", close_table, methods=["POST"]),
        Route("/api/admin/tournaments", tournament_list),
        Route("/api/admin/tournaments", schedule_tournament, methods=["POST"]),
        Route("/api/admin/tournaments/{tournament}", edit_tournament, methods=["POST"]),
        Route("/api/admin/tournaments/{tournament}/cancel", cancel_tournament, methods=["POST"]),
        Route("/api/admin/roles", roles, methods=["POST"]),
        Route("/api/admin/reports", report_queue),
        Route("/api/admin/reports/{report}/close", close_report, methods=["POST"]),
        Route("/api/reports", report, methods=["POST"]),
    ]
