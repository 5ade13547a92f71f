"""The bus of a room served by many processes: Redis carries their messages and
holds their leases; PostgreSQL stays the record (``store``: fencing by epoch).

Keys and channels (``dp:`` first, or the namespace given):

- ``dp:own:<unit>``: the name of the process that owns the unit, with an expiry
  (the lease). A process takes a free unit with ``SET NX PX`` and renews every
  lease it holds each tick, in one script; a lease it finds taken by another is
  let go at once (the database refuses its writes anyway).
- ``dp:procs``: a sorted set of live processes by their last heartbeat. A
  process takes at most its fair share of the units while others are starting,
  and any unit left free for two ticks (its owner died); the units of a process
  whose heartbeat stopped lose their viewers from that gateway.
- ``dp:p:<process>``: asks, tells and replies for one process, in order.
- ``dp:u:<unit>`` and ``dp:u:<unit>:<account>``: a unit's public entries and the
  private entries of one account. A gateway subscribes to the private channel of
  an account only while a connection of that account watches the unit, so a
  player's cards reach only the gateways that serve that player. A process does
  not subscribe to the channels of the units it owns: their entries reach its
  own gateway as they are published.
- ``dp:lobby`` and the hashes ``dp:rows:table`` / ``dp:rows:tournament``: lobby
  rows as they change, and the latest of each for a gateway that starts.

Messages queued together for one channel are published as one (``wire``'s
``b``).

A process that loses Redis keeps its connections; when Redis answers again it
re-subscribes, resyncs every view (entries may have been lost) and re-reads
the lobby. Units whose leases it could not renew in time are let go.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import math
import os
import random
import secrets
import socket
import time
from collections import deque
from collections.abc import Coroutine
from typing import Any, cast

import msgspec
import redis.asyncio as redis
from redis.exceptions import RedisError

from drawpoker.protocol.server import TableRow, TournamentRow
from drawpoker.server import wire
from drawpoker.server.bus import Closed, Gateway, Holder, Moving, NoOwner, Owner
from drawpoker.server.tournament.spec import spec_of_table

log = logging.getLogger("drawpoker.server")

LEASE_S = 5.0  # a unit whose owner stops renewing is free after this
TICK_S = 1.0  # heartbeat, lease renewal, taking free units
ASK_TIMEOUT_S = 5.0  # an ask unanswered this long: is its owner still holding the unit?
ASK_LIMIT_S = 30.0  # ... an owner that still holds it (busy) is waited for this long in all
REDIS_COMMAND_S = 10.0  # one Redis command, connecting included, at most this long
REDIS_CONNECTIONS = 32  # per process, besides its subscription
RECONNECT_TRY_S = 5.0  # one try at subscribing again after Redis was lost
STOP_STEP_S = 5.0  # each step of a stop (tasks ending, goodbyes to Redis) at most this long
ROUTE_TTL_S = 1.0  # how long a unit's owner is remembered without asking Redis
ASK_TRIES = 3  # an ask that reached a process that let the unit go is sent again

# Renew each lease held; the keys found owned by another process come back.
_RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  local owner = redis.call('GET', key)
  if owner == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  elseif not owner then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
  else
    table.insert(lost, key)
  end
end
return lost
"""
# Delete a lease only if it is still this process's.
_GIVE_UP = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def process_name() -> str:
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(2)}"


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


async def _settle(
    tasks: list[asyncio.Task[None]] | set[asyncio.Task[Any]],
    what: str,
    seconds: float,
    *,
    cancel: bool = True,
) -> None:
    """Wait at most ``seconds`` for ``tasks`` to end (cancelled first, or
    given that long to finish); the ones still running are cancelled and left."""
    running = set(tasks)
    if not running:
        return
    if cancel:
        for task in running:
            task.cancel()
    _, late = await asyncio.wait(running, timeout=seconds)
    for task in late:
        log.warning("bus: %s did not end in %.1f s: %s", what, seconds, task.get_stack())
        task.cancel()
    for task in running - late:
        if not task.cancelled() and task.exception() is not None:
            log.warning("bus: %s ended in error: %r", what, task.exception())


class RedisBus:
    alone = False

    def __init__(
        self,
        url: str,
        *,
        lease_s: float = LEASE_S,
        tick_s: float = TICK_S,
        ask_timeout_s: float = ASK_TIMEOUT_S,
        stop_step_s: float = STOP_STEP_S,
        namespace: str = "dp",
    ) -> None:
        self.url = url
        self.ns = namespace  # every key and channel starts with it: rooms can share a Redis
        self.name = process_name()
        self.lease_ms = int(lease_s * 1000)
        self.tick_s = tick_s
        self.ask_timeout_s = ask_timeout_s
        self.stop_step_s = stop_step_s
        self.owner: Owner | None = None
        self.gateway: Gateway | None = None
        self.room: Holder | None = None
        self.redis: redis.Redis | None = None
        self._pubsub: Any = None
        self._inbox = f"{namespace}:p:{self.name}"
        self._procs = f"{namespace}:procs"
        self._lobby = f"{namespace}:lobby"
        self._channels: set[str] = set()  # wanted: the inbox, the lobby, followed units
        # Followed channels of units owned here: not subscribed (their entries reach
        # this gateway as they are published, and would come back from Redis again).
        self._muted: set[str] = set()
        self._unit_channels: dict[str, set[str]] = {}  # followed unit -> its channels
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[Any]] = {}
        self._routes: dict[str, tuple[str | None, float]] = {}  # unit -> (owner, until)
        self._looking: dict[str, asyncio.Future[str | None]] = {}  # unit -> its lookup
        self._claimed: set[str] = set()  # units whose lease this process keeps
        self._out: deque[tuple[str, str | None, bytes]] = deque()  # (channel or hash, field, _)
        self._out_ready = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._spawned: set[asyncio.Task[Any]] = set()
        self._live: set[str] = set()
        self._free_before: set[str] = set()  # units found free at the last tick
        self._seen_owner: dict[str, str | None] = {}  # followed unit -> its last owner
        self._valid_until = 0.0  # the leases held are surely ours until then

    def _own(self, unit: str) -> str:
        return f"{self.ns}:own:{unit}"

    def _entries(self, unit: str, audience: int | None) -> str:
        base = f"{self.ns}:u:{unit}"
        return base if audience is None else f"{base}:{audience}"

    # ------------------------------------------------------------ life

    def attach(self, owner: Owner, gateway: Gateway) -> None:
        self.owner, self.gateway = owner, gateway

    async def start(self, room: Holder) -> None:
        self.room = room
        # A bounded pool that waits for a free connection: a burst of asks
        # (every client sitting at once) queues instead of failing.
        pool = redis.BlockingConnectionPool.from_url(
            self.url,
            max_connections=REDIS_CONNECTIONS,
            timeout=ASK_LIMIT_S,
            health_check_interval=10,
            # Every command answers or fails in bounded time: a Redis that stalls
            # or a half-open connection never holds a task (or a shutdown) for ever.
            socket_timeout=REDIS_COMMAND_S,
            socket_connect_timeout=REDIS_COMMAND_S,
        )
        self.redis = redis.Redis(connection_pool=pool)
        try:
            await self.redis.ping()
        except (RedisError, OSError) as problem:
            raise RuntimeError(f"the bus at {self.url} does not answer: {problem}") from None
        self._renew = self.redis.register_script(_RENEW)
        self._give_up = self.redis.register_script(_GIVE_UP)
        await self._subscribe_all({self._inbox, self._lobby})
        await self._load_rows()
        await self._heartbeat()
        self._tasks = [
            asyncio.create_task(self._read(), name="bus-read"),
            asyncio.create_task(self._flush(), name="bus-flush"),
            asyncio.create_task(self._beats(), name="bus-beat"),
        ]
        # One tick for the processes starting with this one to show up, then a
        # fair share of the units; the passes after take the rest.
        await asyncio.sleep(self.tick_s + random.uniform(0, self.tick_s / 2))
        await self._take_free()
        self._tasks.append(asyncio.create_task(self._takes(), name="bus-take"))

    async def stop(self, room: Holder) -> None:
        """Let every unit go and say goodbye; each step is bounded, so a Redis
        that stalls (or a task that does not end) never holds a shutdown."""
        await _settle(self._tasks, "bus tasks", self.stop_step_s)
        for unit in list(room.held):
            await room.release(unit)
        assert self.redis is not None
        await _settle(self._spawned, "bus messages in hand", self.stop_step_s, cancel=False)
        with contextlib.suppress(RedisError, OSError, TimeoutError):
            async with asyncio.timeout(self.stop_step_s):
                await self._flush_once()
                for unit in list(self._claimed):
                    await self._give_up(keys=[self._own(unit)], args=[self.name])
                await self.redis.zrem(self._procs, self.name)
        with contextlib.suppress(RedisError, OSError, TimeoutError):
            async with asyncio.timeout(self.stop_step_s):
                if self._pubsub is not None:
                    await self._pubsub.aclose()
                await self.redis.aclose()
                await self.redis.connection_pool.disconnect()  # the pool is ours: close it too

    async def health(self) -> str | None:
        if self.redis is None:
            return "not started"
        try:
            await self.redis.ping()
        except (RedisError, OSError) as problem:
            return f"Redis does not answer: {problem}"
        return None

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._spawned.add(task)
        task.add_done_callback(self._spawned.discard)

    # ------------------------------------------------------------ subscriptions

    async def _subscribe_all(self, channels: set[str]) -> None:
        assert self.redis is not None
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        self._channels |= channels
        await self._pubsub.subscribe(*(self._channels - self._muted))

    async def follow(self, unit: str, audience: int | None) -> None:
        channel = self._entries(unit, audience)
        if channel in self._channels:
            return
        self._channels.add(channel)
        self._unit_channels.setdefault(unit, set()).add(channel)
        if unit in self._claimed:
            self._muted.add(channel)
        else:
            await self._subscribe(channel)

    def unfollow(self, unit: str, audience: int | None) -> None:
        channel = self._entries(unit, audience)
        if channel not in self._channels:
            return
        self._channels.discard(channel)
        channels = self._unit_channels.get(unit, set())
        channels.discard(channel)
        if not channels:
            self._unit_channels.pop(unit, None)
        if channel in self._muted:
            self._muted.discard(channel)
        else:
            self._spawn(self._unsubscribe(channel))

    def _hold(self, unit: str) -> None:
        """``unit``'s lease is this process's: its entries need not come back from
        Redis (they reach this gateway as they are published)."""
        self._claimed.add(unit)
        for channel in self._unit_channels.get(unit, set()) - self._muted:
            self._muted.add(channel)
            self._spawn(self._unsubscribe(channel))

    def _let_go(self, unit: str) -> None:
        """``unit``'s lease is no longer this process's: its entries come from Redis."""
        self._claimed.discard(unit)
        for channel in self._unit_channels.get(unit, set()) & self._muted:
            self._muted.discard(channel)
            self._spawn(self._subscribe(channel))

    async def _subscribe(self, channel: str) -> None:
        with contextlib.suppress(RedisError, OSError):  # a reconnection subscribes it
            await self._pubsub.subscribe(channel)

    async def _unsubscribe(self, channel: str) -> None:
        with contextlib.suppress(RedisError, OSError):
            await self._pubsub.unsubscribe(channel)

    async def _read(self) -> None:
        """Every message for this process, in the order Redis sent them."""
        while True:
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except (RedisError, OSError) as problem:
                log.warning("bus: lost Redis (%s); reconnecting", problem)
                await self._reconnect()
                continue
            if message is None or message.get("type") != "message":
                continue
            try:
                self._received(message["data"])
            except Exception:
                log.exception("bus: a message could not be handled")

    async def _reconnect(self) -> None:
        while True:
            await asyncio.sleep(0.5)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._pubsub.aclose(), RECONNECT_TRY_S)
            try:  # each try bounded: a connection half-made to a restarting Redis can hang
                await asyncio.wait_for(self._resubscribe(), RECONNECT_TRY_S)
            except (RedisError, OSError, TimeoutError):
                continue
            log.warning("bus: Redis answers again; resyncing every view")
            if self.gateway is not None:
                self.gateway.resync_all()
            return

    async def _resubscribe(self) -> None:
        await self._subscribe_all(set())
        await self._load_rows()

    def _received(self, raw: bytes) -> None:
        message = wire.unpack(raw)
        kind = message[0]
        if kind == "e":
            _, origin, topic, v, audience, text, epoch = message
            if origin != self.name and self.gateway is not None:
                self.gateway.deliver(topic, v, audience, text, epoch)
        elif kind == "a":
            _, ask_id, reply_to, unit, op, args = message
            self._spawn(self._answer(ask_id, reply_to, unit, op, args))
        elif kind == "r":
            _, ask_id, ok, value = message
            waiting = self._waiting.pop(ask_id, None)
            if waiting is not None and not waiting.done():
                if ok:
                    waiting.set_result(value)
                else:
                    waiting.set_exception(wire.refusal_in(value))
        elif kind == "t":
            _, unit, op, args = message
            # A task like an ask's: both reach the unit's mailbox in the order sent.
            self._spawn(self._post(unit, op, args))
        elif kind == "l":
            _, row_kind, row = message
            self._put_row(row_kind, row)
        elif kind == "b":  # messages published together on one channel, in order
            for part in message[1]:
                self._received(part)

    # ------------------------------------------------------------ asks and tells

    async def _answer(self, ask_id: int, reply_to: str, unit: str, op: str, args: Any) -> None:
        owner = self.owner
        try:
            if owner is None or not owner.has(unit):
                raise Moving(unit)  # let go since the asker looked it up
            value = await owner.dispatch(unit, op, wire.args_in(args))
            reply = ["r", ask_id, True, wire.value_out(value)]
        except Exception as problem:
            if wire.refusal_out(problem)[0] == "internal":
                log.exception("%s %s failed", unit, op)
            reply = ["r", ask_id, False, wire.refusal_out(problem)]
        self._send(f"{self.ns}:p:{reply_to}", wire.pack(reply))

    async def _post(self, unit: str, op: str, args: Any) -> None:
        if self.owner is not None and self.owner.has(unit):
            self.owner.post(unit, op, wire.args_in(args))

    async def ask(self, unit: str, op: str, args: dict[str, Any]) -> Any:
        owner = self.owner
        if owner is not None and owner.has(unit):
            return await owner.dispatch(unit, op, args)
        payload = wire.args_out(args)
        for _ in range(ASK_TRIES):
            where = await self._route(unit)
            if where == self.name:  # taken here since the lookup
                self._routes.pop(unit, None)
                if owner is not None and owner.has(unit):
                    return await owner.dispatch(unit, op, args)
                raise Moving(unit)
            ask_id = next(self._ids)
            waiting = asyncio.get_running_loop().create_future()
            self._waiting[ask_id] = waiting
            self._send(
                f"{self.ns}:p:{where}", wire.pack(["a", ask_id, self.name, unit, op, payload])
            )
            try:
                return await self._answer_of(waiting, unit, where)
            except TimeoutError:
                log.warning("bus: %s %s: no answer from %s", unit, op, where)
                self._routes.pop(unit, None)
                raise Moving(unit) from None
            except Moving:
                self._routes.pop(unit, None)
                continue
            finally:
                self._waiting.pop(ask_id, None)
        raise Moving(unit)

    async def _answer_of(self, waiting: asyncio.Future[Any], unit: str, where: str) -> Any:
        """The answer of ``where``: waited for while it still holds ``unit`` (a
        busy owner, e.g. behind a queue of database writes), up to a limit."""
        deadline = time.monotonic() + ASK_LIMIT_S
        while True:
            try:
                return await asyncio.wait_for(asyncio.shield(waiting), self.ask_timeout_s)
            except TimeoutError:
                assert self.redis is not None
                holder = await self.redis.get(self._own(unit))
                if holder is None or _text(holder) != where or time.monotonic() > deadline:
                    waiting.cancel()
                    raise

    def tell(self, unit: str, op: str, args: dict[str, Any]) -> None:
        owner = self.owner
        if owner is not None and owner.has(unit):
            owner.post(unit, op, args)
            return
        self._spawn(self._tell(unit, op, wire.args_out(args)))

    async def _tell(self, unit: str, op: str, args: dict[str, Any]) -> None:
        try:
            where = await self._route(unit)
        except NoOwner:
            log.info("%s %s: nobody owns the unit now", unit, op)
            return
        self._send(f"{self.ns}:p:{where}", wire.pack(["t", unit, op, args]))

    async def _route(self, unit: str) -> str:
        """The process that owns ``unit`` (``NoOwner`` if the room has no such
        unit, ``Moving`` if nobody holds it just now)."""
        now = time.monotonic()
        known = self._routes.get(unit)
        if known is not None and known[1] > now and known[0] is not None:
            return known[0]
        # One lookup at a time per unit: whoever asked first goes on first, so
        # a tell sent after an ask cannot overtake it while both look up.
        looking = self._looking.get(unit)
        if looking is None:
            looking = self._looking[unit] = asyncio.get_running_loop().create_future()
            assert self.redis is not None
            try:
                found = await self.redis.get(self._own(unit))
            except BaseException as problem:  # Redis gone, or this ask cancelled
                looking.set_exception(Moving(unit))
                looking.exception()  # whoever waits sees it; nobody need
                if not isinstance(problem, RedisError | OSError):
                    raise
            else:
                looking.set_result(None if found is None else _text(found))
            finally:
                del self._looking[unit]
        where = await looking
        if where is None:
            if await self._exists(unit):
                raise Moving(unit)
            raise NoOwner(unit)
        self._routes[unit] = (where, now + ROUTE_TTL_S)
        return where

    async def _exists(self, unit: str) -> bool:
        """Whether ``unit``, owned by nobody now, is the room's: one of its
        units, or a table of a tournament whose series is held by nobody."""
        if self.room is not None and unit in self.room.units():
            return True
        spec = spec_of_table(unit[2:]) if unit.startswith("t:") else None
        if spec is None or self.redis is None or self.room is None:
            return False
        series = f"s:{spec}"
        return series in self.room.units() and not await self.redis.exists(self._own(series))

    # ------------------------------------------------------------ entries and rows

    def publish(
        self,
        unit: str,
        topic: str,
        v: int | None,
        audience: int | None,
        text: str,
        epoch: str | None = None,
    ) -> None:
        if self.gateway is not None:
            self.gateway.deliver(topic, v, audience, text, epoch)
        message = ["e", self.name, topic, v, audience, text, epoch]
        self._send(self._entries(unit, audience), wire.pack(message))

    def put_table(self, row: TableRow) -> None:
        self._put_lobby("table", row.id, row)

    def put_tournament(self, row: TournamentRow) -> None:
        self._put_lobby("tournament", row.id, row)

    def _put_lobby(self, kind: str, row_id: str, row: TableRow | TournamentRow) -> None:
        self._put_row(kind, msgspec.to_builtins(row))
        encoded = msgspec.msgpack.encode(row)
        self._send(self._lobby, wire.pack(["l", kind, msgspec.to_builtins(row)]))
        self._send(f"{self.ns}:rows:{kind}", encoded, row_id)

    def _put_row(self, kind: str, row: dict[str, Any]) -> None:
        if self.gateway is None:
            return
        if kind == "table":
            self.gateway.put_table(msgspec.convert(row, TableRow))
        elif kind == "tournament":
            self.gateway.put_tournament(msgspec.convert(row, TournamentRow))

    async def _load_rows(self) -> None:
        assert self.redis is not None
        for kind, row_type in (("table", TableRow), ("tournament", TournamentRow)):
            for raw in (await self.redis.hgetall(f"{self.ns}:rows:{kind}")).values():
                try:
                    row = msgspec.msgpack.decode(cast(bytes, raw), type=row_type)
                except msgspec.ValidationError:
                    continue  # written by another version
                self._put_row(kind, msgspec.to_builtins(row))

    # ------------------------------------------------------------ sending

    def _send(self, channel: str, payload: bytes, field: str | None = None) -> None:
        """Queue a publication on ``channel`` (or, with a ``field``, a write of that
        field of the hash ``channel``), sent in the order queued."""
        self._out.append((channel, field, payload))
        self._out_ready.set()

    async def _flush(self) -> None:
        """Send what is queued, in order, a pipeline at a time."""
        while True:
            await self._out_ready.wait()
            self._out_ready.clear()
            try:
                await self._flush_once()
            except (RedisError, OSError) as problem:
                log.warning("bus: could not publish (%s); %d dropped", problem, len(self._out))
                self._out.clear()
                await asyncio.sleep(0.2)

    async def _flush_once(self) -> None:
        assert self.redis is not None
        out = self._out
        while out:
            pipe = self.redis.pipeline(transaction=False)
            for _ in range(512):
                if not out:
                    break
                target, field, payload = out.popleft()
                if field is not None:
                    pipe.hset(target, field, payload)
                    continue
                batch = [payload]  # what follows on the same channel goes in one message
                while out and out[0][0] == target and out[0][1] is None:
                    batch.append(out.popleft()[2])
                pipe.publish(target, payload if len(batch) == 1 else wire.pack(["b", batch]))
            await pipe.execute()

    # ------------------------------------------------------------ ownership

    def claim(self, unit: str) -> None:
        """``unit`` is owned here now (a unit taken, or a table of a tournament
        held here): gateways find it through its lease."""
        self._hold(unit)
        self._routes.pop(unit, None)
        if self.redis is not None:
            self._spawn(self._claim(unit))

    async def _claim(self, unit: str) -> None:
        assert self.redis is not None
        with contextlib.suppress(RedisError, OSError):
            await self.redis.set(self._own(unit), self.name, px=self.lease_ms)

    def unclaim(self, unit: str) -> None:
        held = unit in self._claimed
        self._let_go(unit)
        if held:
            self._spawn(self._unclaim(unit))

    async def _unclaim(self, unit: str) -> None:
        with contextlib.suppress(RedisError, OSError):
            await self._give_up(keys=[self._own(unit)], args=[self.name])

    async def _beats(self) -> None:
        """Every tick: the heartbeat, the leases, the owners of watched tables.
        Never behind the taking of units, which may be slow."""
        last = time.monotonic()
        while True:
            await asyncio.sleep(self.tick_s)
            if time.monotonic() - last > self.lease_ms / 1000 and self.gateway is not None:
                # Paused past our heartbeat: owners may have dropped our viewers.
                self.gateway.resync_all()
            last = started = time.monotonic()
            try:
                await self._heartbeat()
                await self._renew_leases(started)
                await self._watch_owners()
            except (RedisError, OSError) as problem:
                log.warning("bus: heartbeat failed (%s)", problem)
                await self._expire()
            except Exception:
                log.exception("bus: heartbeat failed")

    async def _takes(self) -> None:
        while True:
            await asyncio.sleep(self.tick_s)
            try:
                await self._take_free()
            except (RedisError, OSError) as problem:
                log.warning("bus: could not look for free units (%s)", problem)
            except Exception:
                log.exception("bus: could not take free units")

    async def _heartbeat(self) -> None:
        assert self.redis is not None
        now_ms = int(time.time() * 1000)
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(self._procs, {self.name: now_ms})
        pipe.zremrangebyscore(self._procs, "-inf", now_ms - self.lease_ms)
        pipe.zrange(self._procs, 0, -1)
        live = {_text(name) for name in (await pipe.execute())[2]}
        gone = self._live - live - {self.name}
        self._live = live
        for name in gone:
            self._gateway_gone(name)

    def _gateway_gone(self, name: str) -> None:
        """A process stopped beating: its connections no longer watch anything."""
        log.warning("bus: process %s is gone", name)
        if self.owner is None or self.room is None:
            return
        for unit in list(self.room.held):
            if unit.startswith("t:"):
                self.owner.post(unit, "drop_gateway", {"gateway": name})
        for unit, (owner, _) in list(self._routes.items()):
            if owner == name:
                del self._routes[unit]

    async def _renew_leases(self, started: float) -> None:
        if not self._claimed:
            self._valid_until = started + self.lease_ms / 1000
            return
        keys = [self._own(unit) for unit in sorted(self._claimed)]
        lost = await self._renew(keys=keys, args=[self.name, self.lease_ms])
        # Renewed at the start of the call at the latest: surely ours until then.
        self._valid_until = started + self.lease_ms / 1000 * 0.8
        for key in lost:
            unit = _text(key).removeprefix(f"{self.ns}:own:")
            log.error("bus: %s is owned by another process now; letting it go", unit)
            self._let_go(unit)
            if self.room is not None and unit in self.room.held:
                await self.room.release(unit)

    async def _expire(self) -> None:
        """Leases not renewed in time may be someone else's: let them go."""
        if time.monotonic() < self._valid_until or self.room is None:
            return
        for unit in list(self.room.held):
            log.error("bus: could not renew the lease of %s; letting it go", unit)
            await self.room.release(unit)

    async def _take_free(self) -> None:
        room = self.room
        assert room is not None
        assert self.redis is not None
        units = room.units()
        free_units = [u for u, o in zip(units, await self._owners(units), strict=True) if o is None]
        share = math.ceil(len(units) / max(1, len(self._live)))
        for unit in random.sample(free_units, len(free_units)):
            overdue = unit in self._free_before  # free for two ticks: its owner died
            if len(room.held) >= share and not overdue:
                continue
            if not await self.redis.set(self._own(unit), self.name, nx=True, px=self.lease_ms):
                continue
            self._hold(unit)
            try:
                await room.take(unit)
            except Exception as problem:
                if isinstance(problem, Closed):
                    log.info("bus: %s", problem)
                else:
                    log.exception("bus: could not take %s", unit)
                self._let_go(unit)
                await self._give_up(keys=[self._own(unit)], args=[self.name])
        self._free_before = set(free_units) - set(room.held)

    async def _owners(self, units: list[str]) -> list[str | None]:
        assert self.redis is not None
        if not units:
            return []
        found = await self.redis.mget([self._own(unit) for unit in units])
        return [None if name is None else _text(name) for name in found]

    async def _watch_owners(self) -> None:
        """A table watched here that got a new owner: its views resync."""
        if self.gateway is None:
            return
        units = sorted({unit for unit, _ in self.gateway.following() if unit.startswith("t:")})
        owners = await self._owners(units)
        for unit, owner in zip(units, owners, strict=True):
            if owner is None:  # moving: the views resync when it has an owner again
                continue
            before = self._seen_owner.get(unit)
            self._seen_owner[unit] = owner
            if before is not None and owner != before:
                self._routes.pop(unit, None)
                self.gateway.resync_table(unit[2:])
        for unit in set(self._seen_owner) - set(units):
            del self._seen_owner[unit]
