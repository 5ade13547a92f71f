"""The websocket gateway: one connection per client (``websocket`` reads its
messages and forwards them, as intentions, to the unit they are for -- by the
bus, wherever that unit's owner is).

The gateway decides no rule. It authenticates the connection, refuses what
cannot be understood, rate-limits, and gives each connection a bounded send
queue: a client too slow to drain it is disconnected and resyncs. It keeps its
connections' views of tables and tournament channels (``Viewers``): the entries
the bus brings go to the sockets allowed to see them.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections import Counter, deque
from collections.abc import Callable
from typing import Any, cast

from starlette.websockets import WebSocket

from drawpoker.protocol import (
    encode_text,
    join,
)
from drawpoker.protocol.server import (
    Error,
    Ok,
    TableRow,
    TournamentRow,
)
from drawpoker.server.auth import Account
from drawpoker.server.bus import Bus, Moving
from drawpoker.server.lobby import Lobby
from drawpoker.server.transport import FRAMES, FrameWriter
from drawpoker.server.viewers import Conn, Viewers

log = logging.getLogger("drawpoker.server")
SEND_BUDGET = 2_000_000  # characters queued for a client before it is dropped (it resyncs)
BATCH = 65_536  # characters of frames sent together in one websocket message, at most
RATE = 20.0  # messages per second per connection ...
BURST = 40.0  # ... with this burst
STRIKES = 200  # rate-limited messages before the connection is closed
RESYNC_PARALLEL = 32  # views resynced at once (after a takeover, or a gap in the bus)
RESYNC_TRIES = 15  # a second apart: then the connection is closed, and the client reconnects
_ids = itertools.count(1)


class Connection:
    """One websocket. What is sent to it in one turn of the event loop goes out
    together, as one websocket message, when the gateway's ``Flusher`` comes
    round (up to ``BATCH`` characters a message), written straight to the socket.
    A client that lets more than ``SEND_BUDGET`` bytes pile up unsent is
    disconnected (close code 1013) and resyncs when it comes back; a table's
    whole replay log fits in the budget."""

    def __init__(self, ws: WebSocket, account: Account | None, flusher: Flusher) -> None:
        self.ws = ws
        self.id = next(_ids)
        self.account = account
        self.flusher = flusher
        writer = ws.scope.get("extensions", {}).get(FRAMES)
        self.writer: FrameWriter = writer if writer is not None else AsgiFrames(ws)
        self.outbox: list[str] = []
        self.tables: set[str] = set()  # the tables it watches
        self.channels: dict[str, str] = {}  # a tournament channel as named -> its run
        self.dropped = False  # nothing more is queued: it is closing
        self.ended = False  # its endpoint has returned: nothing more is written
        self.closing = (1013, "too slow: reconnect and resync")
        self._closer: asyncio.Task[None] | None = None
        self.tokens = BURST
        self.stamp = time.monotonic()
        self.strikes = 0

    def send(self, text: str) -> None:
        if self.dropped:
            return
        if not self.outbox:
            self.flusher.mark(self)
        self.outbox.append(text)

    def close_soon(self, code: int, reason: str) -> None:
        """Close after what is queued; the client reconnects and resyncs."""
        if not self.dropped:
            self.closing = (code, reason)
            self.dropped = True
            if not self.outbox:
                self.flusher.mark(self)

    def flush(self) -> None:
        """Write what is queued, in order: the frames in as few websocket messages
        as ``BATCH`` allows (each costs the server a fraction of one message)."""
        outbox, self.outbox = self.outbox, []
        if self.ended:
            return
        start, end = 0, len(outbox)
        while start < end:
            stop, size = start + 1, len(outbox[start])
            while stop < end and size + len(outbox[stop]) < BATCH:
                size += len(outbox[stop]) + 1
                stop += 1
            unsent = self.writer.write_text(join(outbox[start:stop]).encode())
            if unsent is None:  # the peer is gone
                self.dropped = True
                return
            if unsent > SEND_BUDGET:  # too slow: close; it reconnects with its last version
                self.dropped = True
                break
            start = stop
        if self.dropped and self._closer is None:
            self._closer = asyncio.create_task(self._close())

    async def _close(self) -> None:
        code, reason = self.closing
        with contextlib.suppress(Exception):  # the peer may be gone already
            await self.ws.close(code=code, reason=reason)

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.stamp) * RATE)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def error(self, code: str, message: str, ref: str | None = None) -> None:
        self.send(encode_text(Error(ref=ref, code=code, message=message)))

    def ok(self, ref: str | None, **detail: Any) -> None:
        self.send(encode_text(Ok(ref=ref, detail=detail)))


class Flusher:
    """Sends what every connection has queued, once per turn of the event loop:
    one turn after the step that queued it, so that what that step woke adds to
    the same message (a command's answer goes with the events it caused)."""

    def __init__(self) -> None:
        self.dirty: list[Connection] = []

    def mark(self, conn: Connection) -> None:
        if not self.dirty:
            asyncio.get_running_loop().call_soon(self._next_turn)
        self.dirty.append(conn)

    def _next_turn(self) -> None:
        asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        dirty, self.dirty = self.dirty, []
        for conn in dirty:
            try:
                conn.flush()
            except Exception:  # one connection's failure is no other's
                log.exception("sending to connection %s failed", conn.id)
                conn.dropped = True


class AsgiFrames:
    """A ``FrameWriter`` over plain ASGI messages, for a server without the
    ``drawpoker.frames`` extension: a task sends them in order."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.queue: deque[bytes] = deque()
        self.queued = 0
        self.open = True
        self._pump: asyncio.Task[None] | None = None

    def write_text(self, data: bytes) -> int | None:
        if not self.open:
            return None
        self.queue.append(data)
        self.queued += len(data)
        if self._pump is None:
            self._pump = asyncio.create_task(self._send())
        return self.queued

    async def _send(self) -> None:
        try:
            while self.queue:
                data = self.queue.popleft()
                await self.ws.send_text(data.decode())
                self.queued -= len(data)
        except Exception as problem:  # the peer went away while we were sending
            log.debug("send failed, the connection is gone: %r", problem)
            self.open = False
        finally:
            self._pump = None


class Gateway:
    """This process's gateway: its connections' views and the lobby they see."""

    def __init__(self, bus: Bus, lobby: Lobby) -> None:
        self.bus = bus
        self.lobby = lobby
        self.viewers = Viewers(on_stale=self.resync)
        self.flusher = Flusher()
        self.open: dict[int, Connection] = {}  # the websockets open on this process, by id
        self._following: Counter[tuple[str, int | None]] = Counter()  # (unit, audience) -> views
        self._resyncs: set[asyncio.Task[None]] = set()
        self._parallel: asyncio.Semaphore | None = None

    # ------------------------------------------------------------ from the bus

    def deliver(
        self, topic: str, v: int | None, audience: int | None, text: str, epoch: str | None
    ) -> None:
        self.viewers.deliver(topic, v, audience, text, epoch)

    def put_table(self, row: TableRow) -> None:
        self.lobby.put_table(row)

    def put_tournament(self, row: TournamentRow) -> None:
        self.lobby.put_tournament(row)

    def _audiences(self, unit: str, conn: Connection) -> list[tuple[str, int | None]]:
        """What a view of ``unit`` needs: its public entries, and its account's."""
        if conn.account is None:
            return [(unit, None)]
        return [(unit, None), (unit, conn.account.id)]

    async def _follow(self, unit: str, conn: Connection) -> None:
        for key in self._audiences(unit, conn):
            self._following[key] += 1
            if self._following[key] == 1:
                await self.bus.follow(*key)

    def _unfollow(self, unit: str, conn: Connection) -> None:
        for key in self._audiences(unit, conn):
            self._following[key] -= 1
            if self._following[key] <= 0:
                del self._following[key]
                self.bus.unfollow(*key)

    def following(self) -> list[tuple[str, int | None]]:
        return list(self._following)

    # ------------------------------------------------------------ tables

    def _watch_args(self, conn: Connection, since: int | None, epoch: str | None) -> dict[str, Any]:
        return {
            "gateway": self.bus.name,
            "conn": conn.id,
            "account": conn.account,
            "since": since,
            "epoch": epoch,
        }

    async def watch(
        self, conn: Connection, table: str, since: int | None, epoch: str | None
    ) -> dict[str, Any]:
        """``conn`` watches ``table``: what it missed (or a snapshot), then what follows."""
        unit = f"t:{table}"
        new = self.viewers.add(table, conn)
        if new:
            await self._follow(unit, conn)
        try:
            reply = await self.bus.ask(unit, "watch", self._watch_args(conn, since, epoch))
        except BaseException:
            if new:
                if self.viewers.remove(table, conn):
                    self._unfollow(unit, conn)
            else:  # still watching as before
                view = self.viewers.view(table, conn)
                if view is not None:
                    self.viewers.synced(table, conn, [], view.v, view.epoch)
            raise
        detail: dict[str, Any] = reply["detail"]
        self.viewers.synced(table, conn, reply["texts"], detail["v"], detail["epoch"])
        conn.tables.add(table)
        return detail

    def unwatch(self, conn: Connection, table: str) -> None:
        conn.tables.discard(table)
        if self.viewers.remove(table, conn):
            unit = f"t:{table}"
            self._unfollow(unit, conn)
            self.bus.tell(unit, "unwatch", {"gateway": self.bus.name, "conn": conn.id})

    def resync(self, table: str, view_of: Conn) -> None:
        """Bring a view up to date again (its table has a new owner, or entries
        may have been lost): it holds what arrives meanwhile."""
        conn = cast(Connection, view_of)
        view = self.viewers.view(table, conn)
        if view is None or view.syncing or table not in conn.tables:
            return
        view.syncing = True
        task = asyncio.create_task(self._resync(table, conn, view.v, view.epoch))
        self._resyncs.add(task)
        task.add_done_callback(self._resyncs.discard)

    def resync_table(self, table: str) -> None:
        """Every view of ``table`` (it has a new owner)."""
        for conn in list(self.viewers.topics.get(table, ())):
            self.resync(table, conn)

    def resync_all(self) -> None:
        """Every table view of the gateway (after a gap in the bus)."""
        for table in list(self.viewers.topics):
            self.resync_table(table)

    async def _resync(
        self, table: str, conn: Connection, since: int | None, epoch: str | None
    ) -> None:
        if self._parallel is None:
            self._parallel = asyncio.Semaphore(RESYNC_PARALLEL)
        async with self._parallel:
            for _ in range(RESYNC_TRIES):
                if self.viewers.view(table, conn) is None:
                    return
                try:
                    reply = await self.bus.ask(
                        f"t:{table}", "watch", self._watch_args(conn, since, epoch)
                    )
                except Moving:
                    await asyncio.sleep(1.0)
                    continue
                except Exception as problem:
                    log.warning("resync of %s failed: %r", table, problem)
                    break
                detail = reply["detail"]
                self.viewers.synced(table, conn, reply["texts"], detail["v"], detail["epoch"])
                return
        conn.close_soon(1012, "the table is moving: reconnect")

    # ------------------------------------------------------------ tournament channels

    async def watch_channel(self, conn: Connection, unit: str, name: str) -> dict[str, Any]:
        detail: dict[str, Any] = await self.bus.ask(
            unit, "watch", {"name": name, "account": conn.account}
        )
        run = str(detail["tournament"])
        old = conn.channels.get(name)
        if old != run:
            if old is not None:
                self._unwatch_channel(conn, unit, old)
            conn.channels[name] = run
            if self.viewers.add(run, conn):
                await self._follow(unit, conn)
            self.viewers.synced(run, conn, [], None, None)
        return detail

    def unwatch_channel(self, conn: Connection, unit: str, name: str) -> None:
        run = conn.channels.pop(name, None)
        if run is not None:
            self._unwatch_channel(conn, unit, run)

    def _unwatch_channel(self, conn: Connection, unit: str, run: str) -> None:
        if self.viewers.remove(run, conn):
            self._unfollow(unit, conn)

    def closed(self, conn: Connection, series_unit: Callable[[str], str | None]) -> None:
        """A connection closed: it watches nothing any more."""
        self.lobby.unsubscribe(conn)
        for table in list(conn.tables):
            self.unwatch(conn, table)
        for name in list(conn.channels):
            unit = series_unit(name)
            if unit is not None:
                self.unwatch_channel(conn, unit, name)

    def accounts(self) -> set[int]:
        """The accounts with a connection open here."""
        return {conn.account.id for conn in self.open.values() if conn.account is not None}

    def drop_account(self, account_id: int, reason: str) -> int:
        """Close every connection of the account (policy violation, 1008); how many."""
        mine = [c for c in self.open.values() if c.account and c.account.id == account_id]
        for conn in mine:
            conn.close_soon(1008, reason)
        return len(mine)

    async def stop(self) -> None:
        for task in list(self._resyncs):
            task.cancel()
