"""The OpenAPI document of the REST API (``/openapi.json``) and a readable page of
it (``/docs``). Request bodies and the websocket's messages are described by the
protocol package's own schemas (``msgspec``), so the document cannot drift from
what the server decodes."""

from __future__ import annotations

import html
import re
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Route

from drawpoker import __version__
from drawpoker.protocol.client import CLIENT_MESSAGES
from drawpoker.protocol.rest import (
    Adjustment,
    Closing,
    Credentials,
    Mute,
    NewTable,
    Report,
    RoleChange,
    SeatOrder,
    Suspension,
)
from drawpoker.protocol.server import SERVER_ENTRIES, SERVER_FRAMES
from drawpoker.server.rest import COOKIE, json_response

_FILTERS = (
    ("game", "draw (5 Card Draw) or italian"),
    ("structure", "fixed-limit, pot-limit or no-limit"),
    ("stakes", "e.g. 1/2, or the invito for Italian"),
    ("seats", "6 or 8"),
    ("kind", "cash or tournament"),
)


def _schemas() -> tuple[dict[str, Any], dict[str, Any]]:
    """Each type's schema reference, and the components they refer to."""
    types: list[type[msgspec.Struct]] = [
        Credentials, RoleChange, Adjustment, Mute, NewTable, Suspension, Report, Closing, SeatOrder,
        *CLIENT_MESSAGES, *SERVER_FRAMES, *SERVER_ENTRIES,
    ]  # fmt: skip
    refs, components = msgspec.json.schema_components(
        types, ref_template="#/components/schemas/{name}"
    )
    return {t.__name__: ref for t, ref in zip(types, refs, strict=True)}, components


_ERRORS = {
    "400": 'refused: the reason in {"error": ...}',
    "403": "another site, or not allowed",
    "404": "no such thing",
    "408": "the body came too slowly",
    "409": "not now (e.g. already registered, the tournament has started)",
    "413": "the body is too large",
    "415": "the body is not JSON",
    "429": "too many requests: wait (Retry-After)",
    "503": "the database or the bus does not answer",
}
_ERROR = {
    "type": "object",
    "properties": {"error": {"type": "string"}},
    "required": ["error"],
}


def _op(
    summary: str,
    body: dict[str, Any] | None = None,
    auth_needed: bool = False,
    refused_401: str | None = None,
) -> dict[str, Any]:
    error = {"application/json": {"schema": _ERROR}}
    responses: dict[str, Any] = {"200": {"description": "OK"}}
    responses |= {code: {"description": text, "content": error} for code, text in _ERRORS.items()}
    out: dict[str, Any] = {"summary": summary, "responses": responses}
    if body is not None:
        out["requestBody"] = {"required": True, "content": {"application/json": {"schema": body}}}
    if auth_needed:
        out["security"] = [{"cookie": []}]
        refused_401 = refused_401 or "not logged in"
    if refused_401:
        responses["401"] = {"description": refused_401, "content": error}
    return out


def document() -> dict[str, Any]:
    refs, components = _schemas()
    creds = refs["Credentials"]
    tables_op = _op("The lobby: tables with their live figures")
    tables_op["parameters"] = [
        {
            "name": n,
            "in": "query",
            "required": False,
            "schema": {"type": "string"},
            "description": d,
        }
        for n, d in _FILTERS
    ]
    paths: dict[str, Any] = {
        "/api/register": {
            "post": _op("Create an account and log in (sets the session cookie)", creds)
        },
        "/api/login": {
            "post": _op(
                "Log in (5 attempts a minute per name and address, then locks that double; "
                "20 failures per 10 minutes per address)",
                creds,
                refused_401="wrong name or password",
            )
        },
        "/api/guest": {"post": _op("Play as a guest")},
        "/api/logout": {"post": _op("End the session")},
        "/api/me": {
            "get": _op("The account, its balance and its stacks at tables", auth_needed=True)
        },
        "/api/session": {"get": _op("The account of the session, or null")},
        "/api/daily-topup": {"post": _op("Free play chips, once per UTC day", auth_needed=True)},
        "/api/transactions": {
            "get": _op("The account's ledger transactions, newest first", auth_needed=True)
        },
        "/api/tables": {"get": tables_op},
        "/api/tables/{table}": {"get": _op("One table: figures and public snapshot")},
        "/api/hands": {"get": _op("My hands, newest first", auth_needed=True)},
        "/api/hands/{hand}": {
            "get": _op(
                "A hand I played, as I saw it, with the openings of my cards "
                "(404 to anyone not dealt in)",
                auth_needed=True,
            )
        },
        "/api/hands/{hand}/pokerstars": {
            "get": _op("A hand I played as PokerStars-style text", auth_needed=True)
        },
        "/api/hands/{hand}/phh": {"get": _op("A hand I played as PHH", auth_needed=True)},
        "/api/hands/{hand}/verify": {
            "get": _op(
                "The cards I saw in a hand I played, verified against the deck's commitments",
                auth_needed=True,
            )
        },
        "/api/hands/{hand}/seats": {
            "get": _op("Who sat where in a hand I played", auth_needed=True)
        },
        "/api/tournaments": {"get": _op("Tournaments (sit & go and scheduled): the lobby list")},
        "/api/tournaments/{tournament}": {
            "get": _op("One tournament: players, tables, chips, level, payouts, standings")
        },
        "/api/tournaments/{tournament}/register": {
            "post": _op("Register (pays buy-in + fee from the balance)", auth_needed=True)
        },
        "/api/tournaments/{tournament}/unregister": {
            "post": _op("Unregister before the start (refunds buy-in + fee)", auth_needed=True)
        },
        "/api/admin/overview": {
            "get": _op(
                "Moderators and up: the room's figures (hands, rake, tournaments, seats) "
                "and this process's (403 to anyone else)",
                auth_needed=True,
            )
        },
        "/api/admin/players/{name}": {
            "get": _op(
                "Moderators and up: an account, its role, balance, ledger and hands played",
                auth_needed=True,
            )
        },
        "/api/admin/mute": {
            "post": _op(
                "Moderators and up: refuse an account's chat for some minutes (0 lifts it), "
                "with a reason (audited)",
                refs["Mute"],
                auth_needed=True,
            )
        },
        "/api/admin/suspend": {
            "post": _op(
                "Operators and up: suspend an account for some days (null: for good; 0 lifts "
                "it), with a reason (audited): its sessions end, its connections close and "
                "its seats are cashed out",
                refs["Suspension"],
                auth_needed=True,
            )
        },
        "/api/admin/seat": {
            "post": _op(
                "Moderators and up: sit a player out at a cash table, or stand them up "
                "(cashed out when the hand ends), with a reason (audited)",
                refs["SeatOrder"],
                auth_needed=True,
            )
        },
        "/api/admin/audit": {
            "get": _op("Operators and up: the audit log, newest first", auth_needed=True)
        },
        "/api/admin/adjust": {
            "post": _op(
                "Operators and up: add chips to a balance (or take them) from the house, "
                "with a reason (audited)",
                refs["Adjustment"],
                auth_needed=True,
            )
        },
        "/api/admin/tables": {
            "post": _op(
                "Operators and up: open a cash table now, without a restart; kept in the "
                "database (audited)",
                refs["NewTable"],
                auth_needed=True,
            )
        },
        "/api/admin/roles": {
            "post": _op(
                "Administrators: give an account a role, with a reason (audited)",
                refs["RoleChange"],
                auth_needed=True,
            )
        },
        "/api/admin/hands/{hand}": {
            "get": _op(
                "Operators and up: a finished or cancelled hand with every card, and whether "
                "its seed matches its commitment (409 while it is in play)",
                auth_needed=True,
            )
        },
        "/api/admin/signals": {
            "get": _op(
                "Operators and up: pairs of accounts worth a look for collusion or chip "
                "dumping over the last days (days=1..90, default 7)",
                auth_needed=True,
            )
        },
        "/api/admin/reports": {
            "get": _op(
                "Moderators and up: players' reports not closed yet, newest first (all=1: "
                "closed ones too)",
                auth_needed=True,
            )
        },
        "/api/admin/reports/{report}/close": {
            "post": _op(
                "Moderators and up: close a report, saying what was done (audited)",
                refs["Closing"],
                auth_needed=True,
            )
        },
        "/api/reports": {
            "post": _op(
                "Report a chat line the table still keeps, or a hand I played, to the staff "
                "(20 a day)",
                refs["Report"],
                auth_needed=True,
            )
        },
        "/health": {
            "get": _op("Whether the database and the bus answer (503 saying which does not)")
        },
    }
    for path, operations in paths.items():  # the path's parameters, declared
        names = re.findall(r"\{(\w+)\}", path)
        for operation in operations.values():
            operation.setdefault("parameters", [])
            operation["parameters"] += [
                {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
                for name in names
            ]
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "drawpoker",
            "version": __version__,
            "description": "REST API; the game runs over the websocket /ws (docs/protocol.md), "
            "whose messages are the schemas named after them below.",
        },
        "components": {
            "securitySchemes": {"cookie": {"type": "apiKey", "in": "cookie", "name": COOKIE}},
            "schemas": components,
        },
        "paths": paths,
    }


_DOCUMENT = document()


async def openapi(request: Request) -> Response:
    return json_response(_DOCUMENT)


async def docs(request: Request) -> Response:
    rows = "".join(
        f"<tr><td>{m.upper()}</td><td><code>{html.escape(p)}</code></td>"
        f"<td>{html.escape(o['summary'])}</td></tr>"
        for p, ops in _DOCUMENT["paths"].items()
        for m, o in ops.items()
    )
    return HTMLResponse(
        "<!doctype html><meta charset=utf-8><title>drawpoker API</title>"
        "<h1>drawpoker REST API</h1><p>Machine-readable: <a href=/openapi.json>/openapi.json</a>. "
        "The game protocol (websocket <code>/ws</code>) is in docs/protocol.md.</p>"
        f"<table border=1 cellpadding=4>{rows}</table>"
    )


def routes() -> list[BaseRoute]:
    return [Route("/openapi.json", openapi), Route("/docs", docs)]
