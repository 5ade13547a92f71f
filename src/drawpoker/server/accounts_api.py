"""REST routes for accounts: register, log in and out, guests, the balance, the
daily top-up and the ledger's transactions of an account.

Limits are counted before the work they protect (``limits``): a log-in attempt
is counted before its password is checked, a guest or an account before it is
created, so that a burst of concurrent requests cannot slip past them. Log-in
attempts are limited per (name, address) with back-off, so that nobody can lock
another player out from elsewhere, and per address across names.
"""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import Connection
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from drawpoker.protocol.rest import Credentials
from drawpoker.server import auth, ledger
from drawpoker.server.auth import Account, AuthError
from drawpoker.server.limits import wait_text
from drawpoker.server.rest import (
    COOKIE,
    account_of,
    address_of,
    authed,
    json_response,
    limits_of,
    read_body,
    refused,
    room_of,
    token_of,
)


def _with_session(body: dict[str, Any], token: str, request: Request) -> Response:
    response = json_response(body)
    response.set_cookie(
        COOKIE,
        token,
        max_age=auth.SESSION_DAYS * 86400,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return response


def _session_body(account: Account, token: str) -> dict[str, Any]:
    return {"id": account.id, "name": account.name, "token": token}


async def register(request: Request) -> Response:
    room = room_of(request)
    limits = limits_of(request)
    address = address_of(request)
    try:
        creds = await read_body(request, Credentials)
        name = auth.validate_name(creds.name)
        if not limits.exempt(address):
            wait = limits.registrations.take(address)
            if wait:
                raise auth.RateLimited(
                    f"too many new accounts from your address; try again {wait_text(wait)}", wait
                )
        password = await asyncio.to_thread(auth.validate_password, creds.password, name)
        hashed = await asyncio.to_thread(auth.hash_password, password)

        def txn(c: Connection) -> tuple[Account, str]:
            account = auth.register(c, name, hashed)
            return account, auth.new_session(c, account.id, address)

        account, token = await room.store.run(txn)
    except AuthError as problem:
        return refused(problem)
    return _with_session(_session_body(account, token), token, request)


async def login(request: Request) -> Response:
    """Count the attempt, then check the password (the same work whether the name
    exists or not); a success forgives that name's failures from this address."""
    room = room_of(request)
    limits = limits_of(request)
    address = address_of(request)
    try:
        creds = await read_body(request, Credentials)
        pair = f"{creds.name.lower()[:24]}|{address}"
        per_address = not limits.exempt(address)
        if per_address:
            wait = limits.login_per_address.blocked(address)
            if wait:
                raise auth.RateLimited(
                    f"too many failed log-ins from your address; try again {wait_text(wait)}",
                    wait,
                )
        wait = limits.login_per_name.blocked(pair)
        if wait:
            raise auth.RateLimited(
                f"too many failed log-ins for this name; try again {wait_text(wait)}", wait
            )
        # Counted now, before any await: concurrent attempts see each other.
        if per_address:
            limits.login_per_address.attempt(address)
        limits.login_per_name.attempt(pair)
        found = None
        if auth.NAME_RE.fullmatch(creds.name) and len(creds.password) <= 1024:
            found = await room.store.run(auth.password_hash_of, creds.name)
        ok = await asyncio.to_thread(
            auth.verify_password, found[1] if found else None, creds.password[:1024]
        )
        if not ok or found is None:
            return refused(AuthError("wrong name or password"), status=401)
        limits.login_per_name.succeeded(pair)
        if per_address:
            limits.login_per_address.refund(address)
        account = found[0]
        token = await room.store.run(auth.new_session, account.id, address)
    except AuthError as problem:
        return refused(problem)
    return _with_session(_session_body(account, token), token, request)


async def guest(request: Request) -> Response:
    limits = limits_of(request)
    address = address_of(request)
    if not limits.exempt(address):
        wait = limits.guests.take(address)
        if wait:
            return refused(
                auth.RateLimited(
                    f"too many guest accounts from your address; try again {wait_text(wait)}, "
                    "or register a name",
                    wait,
                )
            )

    def txn(c: Connection) -> tuple[Account, str]:
        account = auth.create_guest(c)
        return account, auth.new_session(c, account.id, address)

    account, token = await room_of(request).store.run(txn)
    return _with_session(_session_body(account, token), token, request)


async def logout(request: Request) -> Response:
    token = token_of(request)
    if token:
        await room_of(request).store.run(auth.end_session, token)
    response = json_response({"ok": True})
    response.delete_cookie(COOKIE)
    return response


async def me(request: Request, account: Account) -> Response:
    def read(c: Connection) -> dict[str, Any]:
        stacks = ledger.balances(c, "stack:")
        mine = {k.split(":")[1]: v for k, v in stacks.items() if k.endswith(f":{account.id}") and v}
        return {"balance": ledger.balance(c, ledger.player(account.id)), "stacks": mine}

    money = await room_of(request).store.run(read)
    who = {"id": account.id, "name": account.name, "kind": account.kind, "role": account.role}
    return json_response({**who, **money})


async def session(request: Request) -> Response:
    """``/api/me`` without the 401: ``{"account": null}`` when nobody is logged in, so
    that a newcomer's first page load shows no error in the browser console."""
    account = await account_of(request)
    if account is None:
        return json_response({"account": None})
    return await me(request, account)


async def daily(request: Request, account: Account) -> Response:
    """Free chips once per UTC day, for registered players: a guest account costs
    nothing to make, so a guest's daily chips would be free chips without end."""
    if account.kind != "player":
        raise auth.Forbidden("the daily free chips are for registered players: register a name")
    store = room_of(request).store
    granted = await store.run(auth.daily_topup, account.id)
    balance = await store.run(ledger.balance, ledger.player(account.id))
    return json_response({"granted": granted, "balance": balance})


async def transactions(request: Request, account: Account) -> Response:
    rows = await room_of(request).store.run(ledger.history, ledger.player(account.id))
    return json_response({"transactions": rows})


def routes() -> list[BaseRoute]:
    return [
        Route("/api/register", register, methods=["POST"]),
        Route("/api/login", login, methods=["POST"]),
        Route("/api/guest", guest, methods=["POST"]),
        Route("/api/logout", logout, methods=["POST"]),
        Route("/api/me", authed(me)),
        Route("/api/session", session),
        Route("/api/daily-topup", authed(daily), methods=["POST"]),
        Route("/api/transactions", authed(transactions)),
    ]
