"""The HTTP + websocket gateway (Starlette): REST for accounts, the lobby and
hand histories; one websocket per client for the lobby and its tables.

The gateway never decides a rule: it authenticates, validates frames against
the protocol schemas, rate-limits, and forwards intentions to table actors.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, StrictStr, ValidationError
from sqlalchemy import Connection as Db
from sqlalchemy import select
from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from drawpoker import __version__
from drawpoker.server import auth, ledger, protocol, tournament_api, web_routes
from drawpoker.server.actor import TableActor, TableConfig, TableError, cancel_unfinished
from drawpoker.server.auth import Account, AuthError
from drawpoker.server.lobby import Lobby
from drawpoker.server.store import Store, hand_players, hands
from drawpoker.server.tournament_spec import TournamentSpec
from drawpoker.server.tournament_table import TournamentTableActor
from drawpoker.server.tournaments import TournamentRunner, refund_abandoned

log = logging.getLogger("drawpoker.server")
COOKIE = "dp_session"
SEND_QUEUE = 512  # frames; a client that falls this far behind is dropped and resyncs
CASH_ONLY = (protocol.Sit, protocol.TopUp, protocol.SitOut, protocol.SitIn, protocol.Leave)
RATE = 20.0  # messages per second per connection ...
BURST = 40.0  # ... with this burst


class Room:
    """Everything the server holds: the store, the lobby and its table actors."""

    def __init__(
        self,
        store: Store,
        configs: list[TableConfig],
        tournaments: list[TournamentSpec] | None = None,
    ) -> None:
        self.store = store
        self.configs = configs
        self.tournament_configs = tournaments or []
        self.tournaments: dict[str, TournamentRunner] = {}
        self.tournament_tables: dict[str, TournamentTableActor] = {}
        self.lobby = Lobby(lambda: [r.summary() for r in self.tournaments.values()])
        self.limiter = auth.LoginLimiter()
        self.cancelled: list[dict[str, Any]] = []

    async def start(self) -> None:
        self.cancelled = await self.store.run(cancel_unfinished)
        for hand in self.cancelled:
            log.warning("cancelled unfinished hand %s; stacks restored", hand["hand_id"])
        for config in self.configs:
            actor = TableActor(config, self.store, on_change=self.lobby.changed)
            self.lobby.add(actor)
            await actor.start()
        resumed: set[str] = set()
        for spec in self.tournament_configs:
            runner = TournamentRunner(
                spec, self.store, tables=self.tournament_tables, on_change=self.lobby.changed
            )
            self.tournaments[spec.id] = runner
            resumed.update(await runner.restore())
        for instance in await self.store.run(refund_abandoned, resumed):
            log.warning("tournament %s could not resume; entries refunded", instance)
        for runner in self.tournaments.values():
            runner.start()
        self.lobby.start()
        self.lobby.changed()

    def table(self, table_id: str) -> TableActor | TournamentTableActor | None:
        """A websocket table: a cash table, or a table of a running tournament."""
        return self.lobby.actors.get(table_id) or self.tournament_tables.get(table_id)

    async def stop(self) -> None:
        await self.lobby.stop()
        for runner in self.tournaments.values():
            await runner.stop()
        for actor in self.lobby.actors.values():
            await actor.stop()
        self.store.close()


# ----------------------------------------------------------------- connections


class Client:
    """One websocket: a bounded send queue drained by its own task."""

    def __init__(self, ws: WebSocket, account: Account | None) -> None:
        self.ws = ws
        self.account = account
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=SEND_QUEUE)
        self.tables: set[str] = set()
        self.dropped = False
        self.tokens = BURST
        self.stamp = time.monotonic()
        self.strikes = 0

    def send(self, text: str) -> None:
        if self.dropped:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.dropped = True  # too slow: close; the client reconnects with its last version
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.get_nowait()
                self.queue.put_nowait(None)

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.stamp) * RATE)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    async def pump(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                await self.ws.close(code=1013, reason="too slow: reconnect and resync")
                return
            await self.ws.send_text(text)

    def error(self, code: str, message: str, ref: str | None = None) -> None:
        self.send(protocol.frame({"type": "error", "ref": ref, "code": code, "message": message}))

    def ok(self, ref: str | None, **detail: Any) -> None:
        self.send(protocol.frame({"type": "ok", "ref": ref, "detail": detail}))


def _token(conn: HTTPConnection) -> str:
    return conn.cookies.get(COOKIE) or conn.query_params.get("token") or ""


async def _account(room: Room, conn: HTTPConnection) -> Account | None:
    token = _token(conn)
    if not token:
        return None
    return await room.store.run(auth.account_for_token, token)


async def websocket_endpoint(ws: WebSocket) -> None:
    room: Room = ws.app.state.room
    account = await _account(room, ws)
    await ws.accept()
    conn = Client(ws, account)
    pump = asyncio.create_task(conn.pump())
    conn.send(
        protocol.frame(
            {
                "type": "welcome",
                "protocol": protocol.PROTOCOL_VERSION,
                "server": __version__,
                "account": None if account is None else {"id": account.id, "name": account.name},
            }
        )
    )
    try:
        while not conn.dropped:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                text = (message.get("bytes") or b"").decode("utf-8", "replace")
            if not conn.allow():
                conn.strikes += 1
                conn.error("rate_limited", f"more than {RATE:.0f} messages a second; slow down")
                if conn.strikes > 200:
                    break
                continue
            await _handle(room, conn, text)
    except WebSocketDisconnect:
        pass
    finally:
        room.lobby.unsubscribe(conn)
        for runner in room.tournaments.values():
            for run in runner.runs():
                run.unwatch(conn)
        for table_id in conn.tables:
            actor = room.table(table_id)
            if actor is not None:
                actor.post(actor.unwatch, conn)
        if not pump.done():
            conn.queue.put_nowait(None) if not conn.queue.full() else None
            pump.cancel()
        if ws.client_state is WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await ws.close()


async def _handle(room: Room, conn: Client, text: str) -> None:
    try:
        msg = protocol.parse(text)
    except protocol.ProtocolError as error:
        conn.error(error.code, error.message, error.ref)
        return
    ref = msg.id
    if isinstance(msg, protocol.Ping):
        conn.send(protocol.frame({"type": "pong", "ref": ref, "time": time.time()}))
        return
    if isinstance(msg, protocol.Hello):
        if msg.protocol != protocol.PROTOCOL_VERSION:
            conn.error(
                "bad_protocol", f"this server speaks protocol {protocol.PROTOCOL_VERSION}", ref
            )
        else:
            conn.ok(ref)
        return
    if isinstance(msg, protocol.LobbySubscribe):
        room.lobby.subscribe(conn, {"game": msg.game, "structure": msg.structure, "kind": msg.kind})
        conn.ok(ref)
        return
    runner = tournament_api.runner_for(room.tournaments, msg.table)
    if runner is not None:
        tournament_api.handle(runner, conn, msg, msg.table)
        return
    actor = room.table(msg.table)
    if actor is None:
        conn.error("no_table", f"there is no table {msg.table!r}", ref)
        return
    if isinstance(actor, TournamentTableActor) and isinstance(msg, CASH_ONLY):
        conn.error("not_here", f"{msg.type} is for cash tables, not a tournament table", ref)
        return
    call: Callable[..., Awaitable[Any]]
    args: tuple[Any, ...]
    if isinstance(msg, protocol.Subscribe):
        conn.tables.add(actor.id)
        call, args = actor.watch, (conn, msg.since, msg.epoch)
    elif isinstance(msg, protocol.Unsubscribe):
        conn.tables.discard(actor.id)
        call, args = actor.unwatch, (conn,)
    elif isinstance(msg, protocol.Sit):
        assert isinstance(actor, TableActor)
        conn.tables.add(actor.id)
        call, args = actor.sit, (conn, msg.seat, msg.buy_in, msg.post)
    elif isinstance(msg, protocol.TopUp):
        assert isinstance(actor, TableActor)
        call, args = actor.top_up, (conn, msg.amount)
    elif isinstance(msg, protocol.SitOut):
        assert isinstance(actor, TableActor)
        call, args = actor.sit_out, (conn,)
    elif isinstance(msg, protocol.SitIn):
        assert isinstance(actor, TableActor)
        call, args = actor.sit_in, (conn, msg.post)
    elif isinstance(msg, protocol.Leave):
        assert isinstance(actor, TableActor)
        call, args = actor.leave, (conn,)
    elif isinstance(msg, protocol.Act):
        call, args = actor.act, (conn, msg)
    elif isinstance(msg, protocol.Draw):
        call, args = actor.draw, (conn, msg)
    elif isinstance(msg, protocol.PreAction):
        call, args = actor.pre_action, (conn, msg)
    else:
        call, args = actor.chat, (conn, msg.text)
    try:
        result = await actor.call(call, *args)
    except TableError as error:
        conn.error(error.code, str(error), ref)
    except ValueError as error:
        conn.error("illegal_action", str(error), ref)
    except Exception:
        log.exception("table %s: %s failed", actor.id, msg.type)
        conn.error("internal", "the server could not do that; nothing changed", ref)
    else:
        conn.ok(ref, **(result or {}))


# ------------------------------------------------------------------------ REST


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: StrictStr
    password: StrictStr


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _with_session(body: dict[str, Any], token: str, request: Request) -> JSONResponse:
    response = JSONResponse(body)
    response.set_cookie(
        COOKIE,
        token,
        max_age=auth.SESSION_DAYS * 86400,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return response


async def _json(request: Request) -> Any:
    raw = await request.body()
    if len(raw) > 10_000:
        raise AuthError("request body too large")
    try:
        return json.loads(raw or b"{}")
    except ValueError:
        raise AuthError("the body is not valid JSON") from None


async def register(request: Request) -> Response:
    room: Room = request.app.state.room
    try:
        creds = Credentials.model_validate(await _json(request))
        name = auth.validate_name(creds.name)
        password = auth.validate_password(creds.password, name)
        hashed = await asyncio.to_thread(auth.hash_password, password)

        def txn(c: Db) -> tuple[Account, str]:
            account = auth.register(c, name, hashed)
            return account, auth.new_session(c, account.id)

        account, token = await room.store.run(txn)
    except ValidationError as error:
        return _error(
            400, "give a name and a password as strings: " + str(error.errors()[0]["msg"])
        )
    except AuthError as error:
        return _error(error.status, str(error))
    return _with_session({"id": account.id, "name": account.name, "token": token}, token, request)


async def login(request: Request) -> Response:
    room: Room = request.app.state.room
    client = request.client.host if request.client else "?"
    try:
        creds = Credentials.model_validate(await _json(request))
        keys = (f"name:{creds.name.lower()}", f"ip:{client}")
        room.limiter.check(*keys)
        found = await room.store.run(auth.password_hash_of, creds.name)
        ok = found is not None and await asyncio.to_thread(
            auth.verify_password, found[1], creds.password
        )
        if not ok or found is None:
            room.limiter.failed(*keys)
            return _error(401, "wrong name or password")
        account = found[0]
        token = await room.store.run(auth.new_session, account.id)
    except ValidationError:
        return _error(400, "give a name and a password as strings")
    except AuthError as error:
        return _error(error.status, str(error))
    return _with_session({"id": account.id, "name": account.name, "token": token}, token, request)


async def guest(request: Request) -> Response:
    room: Room = request.app.state.room

    def txn(c: Db) -> tuple[Account, str]:
        account = auth.create_guest(c)
        return account, auth.new_session(c, account.id)

    account, token = await room.store.run(txn)
    return _with_session({"id": account.id, "name": account.name, "token": token}, token, request)


async def logout(request: Request) -> Response:
    room: Room = request.app.state.room
    token = _token(request)
    if token:
        await room.store.run(auth.end_session, token)
    response = JSONResponse({"ok": True})
    response.delete_cookie(COOKIE)
    return response


async def _require(request: Request) -> Account:
    account = await _account(request.app.state.room, request)
    if account is None:
        raise AuthError("log in first")
    return account


def _authed(
    handler: Callable[[Request, Account], Awaitable[Response]],
) -> Callable[[Request], Awaitable[Response]]:
    async def wrapped(request: Request) -> Response:
        try:
            account = await _require(request)
        except AuthError as error:
            return _error(401, str(error))
        try:
            return await handler(request, account)
        except AuthError as error:
            return _error(error.status, str(error))

    return wrapped


async def me(request: Request, account: Account) -> Response:
    room: Room = request.app.state.room

    def read(c: Db) -> dict[str, Any]:
        stacks = ledger.balances(c, "stack:")
        mine = {k.split(":")[1]: v for k, v in stacks.items() if k.endswith(f":{account.id}") and v}
        return {"balance": ledger.balance(c, ledger.player(account.id)), "stacks": mine}

    money = await room.store.run(read)
    return JSONResponse({"id": account.id, "name": account.name, "kind": account.kind, **money})


async def daily(request: Request, account: Account) -> Response:
    room: Room = request.app.state.room
    granted = await room.store.run(auth.daily_topup, account.id)
    balance = await room.store.run(ledger.balance, ledger.player(account.id))
    return JSONResponse({"granted": granted, "balance": balance})


async def transactions(request: Request, account: Account) -> Response:
    room: Room = request.app.state.room
    rows = await room.store.run(ledger.history, ledger.player(account.id))
    return JSONResponse({"transactions": rows})


async def list_tables(request: Request) -> Response:
    room: Room = request.app.state.room
    q = request.query_params
    filters = {k: q.get(k) for k in ("game", "structure", "stakes", "seats", "kind")}
    return JSONResponse({"tables": room.lobby.tables(filters)})


async def table_detail(request: Request) -> Response:
    room: Room = request.app.state.room
    actor = room.lobby.actors.get(request.path_params["table"])
    if actor is None:
        return _error(404, "no such table")
    return JSONResponse({**actor.summary(), "state": actor.snapshot(None)})


async def my_hands(request: Request, account: Account) -> Response:
    room: Room = request.app.state.room

    def read(c: Db) -> list[dict[str, Any]]:
        rows = c.execute(
            select(
                hands.c.id,
                hands.c.table_id,
                hands.c.status,
                hands.c.started_at,
                hands.c.pot,
                hand_players.c.net,
                hands.c.tournament,
            )
            .join(hand_players, hand_players.c.hand_id == hands.c.id)
            .where(hand_players.c.account_id == account.id)
            .order_by(hands.c.started_at.desc())
            .limit(200)
        )
        return [
            {
                "id": i,
                "table": t,
                "status": s,
                "started_at": at,
                "pot": int(p),
                "net": int(n),
                "tournament": json.loads(about)["id"] if about else None,
            }
            for i, t, s, at, p, n, about in rows
        ]

    return JSONResponse({"hands": await room.store.run(read)})


async def hand_detail(request: Request, account: Account) -> Response:
    """A finished hand as this player may see it: own cards, shown hands, the seed."""
    room: Room = request.app.state.room
    hand_id = request.path_params["hand"]

    def read(c: Db) -> Any:
        return c.execute(
            select(hands.c.status, hands.c.players, hands.c.history, hands.c.commitment).where(
                hands.c.id == hand_id
            )
        ).first()

    row = await room.store.run(read)
    if row is None:
        return _error(404, "no such hand")
    status, players_json, history_json, digest = row
    if status != "finished":
        return JSONResponse({"id": hand_id, "status": status, "commitment": digest, "events": []})
    players = json.loads(players_json)
    my_seat = next((int(s) for s, (a, _) in players.items() if a == account.id), None)
    events = [e for aud, e in json.loads(history_json) if aud in (-1, my_seat)]
    return JSONResponse({"id": hand_id, "status": status, "commitment": digest, "events": events})


async def index(request: Request) -> Response:
    page = (Path(__file__).parent.parent / "web" / "index.html").read_text("utf-8")
    return HTMLResponse(page)


async def health(request: Request) -> Response:
    return JSONResponse({"ok": True, "version": __version__})


def _openapi() -> dict[str, Any]:
    def op(
        summary: str, body: type[BaseModel] | None = None, auth_needed: bool = False
    ) -> dict[str, Any]:
        out: dict[str, Any] = {"summary": summary, "responses": {"200": {"description": "OK"}}}
        if body is not None:
            out["requestBody"] = {
                "required": True,
                "content": {"application/json": {"schema": body.model_json_schema()}},
            }
        if auth_needed:
            out["security"] = [{"cookie": []}]
            out["responses"]["401"] = {"description": "not logged in"}
        return out

    filters = [
        {
            "name": n,
            "in": "query",
            "required": False,
            "schema": {"type": "string"},
            "description": d,
        }
        for n, d in (
            ("game", "draw (5 Card Draw) or italian"),
            ("structure", "fixed-limit, pot-limit or no-limit"),
            ("stakes", "e.g. 1/2, or the invito for Italian"),
            ("seats", "6 or 8"),
            ("kind", "cash or tournament"),
        )
    ]
    tables_op = op("The lobby: tables with their live figures")
    tables_op["parameters"] = filters
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "drawpoker",
            "version": __version__,
            "description": "REST API; the game runs over the websocket /ws (docs/protocol.md).",
        },
        "components": {
            "securitySchemes": {"cookie": {"type": "apiKey", "in": "cookie", "name": COOKIE}}
        },
        "paths": {
            "/api/register": {
                "post": op("Create an account and log in (sets the session cookie)", Credentials)
            },
            "/api/login": {
                "post": op(
                    "Log in (rate-limited: 5 failures a minute per name and address)", Credentials
                )
            },
            "/api/guest": {"post": op("Play as a guest")},
            "/api/logout": {"post": op("End the session")},
            "/api/me": {
                "get": op("The account, its balance and its stacks at tables", auth_needed=True)
            },
            "/api/daily-topup": {"post": op("Free play chips, once per UTC day", auth_needed=True)},
            "/api/transactions": {
                "get": op("The account's ledger transactions, newest first", auth_needed=True)
            },
            "/api/tables": {"get": tables_op},
            "/api/tables/{table}": {"get": op("One table: figures and public snapshot")},
            "/api/hands": {"get": op("My hands, newest first", auth_needed=True)},
            "/api/hands/{hand}": {
                "get": op("One finished hand as I may see it (seed revealed)", auth_needed=True)
            },
            "/api/tournaments": {"get": op("Tournaments (sit & go and scheduled): the lobby list")},
            "/api/tournaments/{tournament}": {
                "get": op("One tournament: players, tables, chips, level, payouts, standings")
            },
            "/api/tournaments/{tournament}/register": {
                "post": op("Register (pays buy-in + fee from the balance)", auth_needed=True)
            },
            "/api/tournaments/{tournament}/unregister": {
                "post": op("Unregister before the start (refunds buy-in + fee)", auth_needed=True)
            },
            "/health": {"get": op("Liveness")},
        },
    }


async def openapi(request: Request) -> Response:
    return JSONResponse(_openapi())


async def docs(request: Request) -> Response:
    spec = _openapi()
    rows = "".join(
        f"<tr><td>{m.upper()}</td><td><code>{p}</code></td><td>{o['summary']}</td></tr>"
        for p, ops in spec["paths"].items()
        for m, o in ops.items()
    )
    return HTMLResponse(
        "<!doctype html><meta charset=utf-8><title>drawpoker API</title>"
        "<h1>drawpoker REST API</h1><p>Machine-readable: <a href=/openapi.json>/openapi.json</a>. "
        "The game protocol (websocket <code>/ws</code>) is in docs/protocol.md.</p>"
        f"<table border=1 cellpadding=4>{rows}</table>"
    )


def create_app(
    store: Store, configs: list[TableConfig], tournaments: list[TournamentSpec] | None = None
) -> Starlette:
    room = Room(store, configs, tournaments)

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

    routes = [
        Route("/", index),
        Route("/health", health),
        Route("/openapi.json", openapi),
        Route("/docs", docs),
        Route("/api/register", register, methods=["POST"]),
        Route("/api/login", login, methods=["POST"]),
        Route("/api/guest", guest, methods=["POST"]),
        Route("/api/logout", logout, methods=["POST"]),
        Route("/api/me", _authed(me)),
        Route("/api/daily-topup", _authed(daily), methods=["POST"]),
        Route("/api/transactions", _authed(transactions)),
        Route("/api/tables", list_tables),
        Route("/api/tables/{table}", table_detail),
        Route("/api/hands", _authed(my_hands)),
        Route("/api/hands/{hand}", _authed(hand_detail)),
        Route("/api/tournaments", tournament_api.list_tournaments),
        Route("/api/tournaments/{tournament}", tournament_api.tournament_detail),
        Route(
            "/api/tournaments/{tournament}/register",
            _authed(tournament_api.register),
            methods=["POST"],
        ),
        Route(
            "/api/tournaments/{tournament}/unregister",
            _authed(tournament_api.unregister),
            methods=["POST"],
        ),
        WebSocketRoute("/ws", websocket_endpoint),
    ]
    routes += web_routes.routes()  # the browser client and hand-history downloads
    return Starlette(routes=routes, lifespan=lifespan)
