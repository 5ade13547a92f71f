"""The websocket route: a client's messages decoded by the protocol package,
answered here when they are the gateway's (ping, hello, the lobby, a tournament
channel) and otherwise forwarded, as intentions, to the unit they are for -- by
the bus, wherever that unit's owner is."""

from __future__ import annotations

import contextlib
import logging
import time
from typing import TYPE_CHECKING

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from drawpoker import __version__
from drawpoker.protocol import PROTOCOL_VERSION, ProtocolError, client, decode_client, encode_text
from drawpoker.protocol.server import AccountInfo, Pong, Welcome
from drawpoker.server import metrics, staff
from drawpoker.server.bus import Moving, NoOwner
from drawpoker.server.errors import TableError
from drawpoker.server.gateway import RATE, STRIKES, Connection, Gateway
from drawpoker.server.lobby import Filters
from drawpoker.server.rest import account_of, room_of
from drawpoker.server.tournament.run import Refused

if TYPE_CHECKING:
    from drawpoker.server.room import Room

log = logging.getLogger("drawpoker.server")


async def websocket_endpoint(ws: WebSocket) -> None:
    room = room_of(ws)
    account = await account_of(ws)
    await ws.accept()
    conn = Connection(ws, account, room.gateway.flusher)
    room.gateway.open[conn.id] = conn
    who = None if account is None else AccountInfo(id=account.id, name=account.name)
    conn.send(encode_text(Welcome(protocol=PROTOCOL_VERSION, server=__version__, account=who)))
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
                if conn.strikes > STRIKES:
                    break
                continue
            await handle(room, conn, text)
    except WebSocketDisconnect:
        pass
    finally:
        room.gateway.open.pop(conn.id, None)
        room.gateway.closed(conn, room.series_unit)
        conn.dropped = conn.ended = True
        if ws.client_state is WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await ws.close()


async def handle(room: Room, conn: Connection, text: str) -> None:
    """One client message: refused, answered here, or forwarded to its unit."""
    try:
        msg = decode_client(text)
    except ProtocolError as problem:
        conn.error(problem.code, problem.message, problem.ref)
        return
    started = time.perf_counter()
    try:
        await _answer(room, conn, msg)
    finally:
        metrics.message_seconds(msg.type).observe(time.perf_counter() - started)


async def _answer(room: Room, conn: Connection, msg: client.AnyClientMessage) -> None:
    ref = msg.id
    if isinstance(msg, client.Ping):
        conn.send(encode_text(Pong(ref=ref, time=time.time())))
        return
    if isinstance(msg, client.Hello):
        if msg.protocol != PROTOCOL_VERSION:
            conn.error("bad_protocol", f"this server speaks protocol {PROTOCOL_VERSION}", ref)
        else:
            conn.ok(ref)
        return
    if isinstance(msg, client.LobbySubscribe):
        room.lobby.subscribe(conn, Filters(game=msg.game, structure=msg.structure, kind=msg.kind))
        conn.ok(ref)
        return
    gateway = room.gateway
    try:
        series = room.series_unit(msg.table)
        if series is not None:
            await _tournament_channel(gateway, conn, series, msg)
            return
        if isinstance(msg, client.Chat) and conn.account is not None:
            until = await room.store.run(staff.muted_until, conn.account.id)
            if until is not None:
                end = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(until))
                conn.error("muted", f"a moderator muted your chat until {end}", ref)
                return
        if isinstance(msg, client.Subscribe):
            detail = await gateway.watch(conn, msg.table, msg.since, msg.epoch)
        elif isinstance(msg, client.Unsubscribe):
            gateway.unwatch(conn, msg.table)
            detail = {}
        elif isinstance(msg, client.Sit) and msg.table not in conn.tables:
            # A seat: watch the table first, so that nothing dealt to the seat
            # can come before the connection watches.
            await gateway.watch(conn, msg.table, None, None)
            try:
                detail = await room.bus.ask(
                    f"t:{msg.table}", msg.type, {"account": conn.account, "msg": msg}
                )
            except BaseException:
                gateway.unwatch(conn, msg.table)
                raise
        else:
            detail = await room.bus.ask(
                f"t:{msg.table}", msg.type, {"account": conn.account, "msg": msg}
            )
    except Moving:
        conn.error("unavailable", f"{msg.table} is moving to another server: try again", ref)
    except NoOwner:
        conn.error("no_table", f"there is no table {msg.table!r}", ref)
    except TableError as problem:
        conn.error(problem.code, str(problem), ref)
    except Refused as problem:
        conn.error("no_table" if problem.status == 404 else "refused", str(problem), ref)
    except ValueError as problem:
        conn.error("illegal_action", str(problem), ref)
    except Exception:
        log.exception("table %s: %s failed", msg.table, msg.type)
        conn.error("internal", "the server could not do that; nothing changed", ref)
    else:
        conn.ok(ref, **(detail or {}))


async def _tournament_channel(
    gateway: Gateway, conn: Connection, unit: str, msg: client.TableMessage
) -> None:
    """A message for a tournament's channel: ``subscribe`` (its notices, and your
    table: ``YourTable``, ``Moved``, ``Finished``) and ``unsubscribe``. Hands are
    played at the tournament's tables (``<run>-t<n>``)."""
    ref = msg.id
    if isinstance(msg, client.Subscribe):
        conn.ok(ref, **await gateway.watch_channel(conn, unit, msg.table))
    elif isinstance(msg, client.Unsubscribe):
        gateway.unwatch_channel(conn, unit, msg.table)
        conn.ok(ref)
    else:
        args = {"name": msg.table, "account": conn.account}
        table = await gateway.bus.ask(unit, "table_for", args)
        where = f"at your table {table}" if table else "at the tournament's tables"
        conn.error("not_here", f"{msg.type}: play {where}, not on the tournament channel", ref)
