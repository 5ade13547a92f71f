"""Two buses on the real local Redis, in one event loop: one owns a unit, the
other is a gateway. Asks and tells arrive in the order sent, refusals keep
their kind, entries reach only the gateways that follow their audience, and a
unit nobody holds is "moving" while one the room does not have is "no owner"."""

from __future__ import annotations

import asyncio
import os
import secrets
import shutil
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from drawpoker.protocol.server import TableRow, TournamentRow
from drawpoker.server.bus import Moving, NoOwner
from drawpoker.server.errors import TableError
from drawpoker.server.redis_bus import RedisBus

from .helpers import OwnRedis, run_within

pytestmark = pytest.mark.slow


class Recorder:
    """An owner that records what reaches it, in order."""

    def __init__(self) -> None:
        self.units: set[str] = set()
        self.seen: list[str] = []

    def has(self, unit: str) -> bool:
        return unit in self.units

    async def dispatch(self, unit: str, op: str, args: dict[str, Any]) -> Any:
        self.seen.append(op)
        if op == "refuse":
            raise TableError("seat_taken", "seat 3 is taken")
        await asyncio.sleep(0)
        return {"op": op, "n": args.get("n")}

    def post(self, unit: str, op: str, args: dict[str, Any]) -> None:
        self.seen.append(op)


class Screen:
    """A gateway that records the entries it is given."""

    def __init__(self) -> None:
        self.entries: list[tuple[str, int | None, int | None, str, str | None]] = []
        self.rows: list[str] = []

    def deliver(
        self, topic: str, v: int | None, audience: int | None, text: str, epoch: str | None
    ) -> None:
        self.entries.append((topic, v, audience, text, epoch))

    def put_table(self, row: TableRow) -> None:
        self.rows.append(row.id)

    def put_tournament(self, row: TournamentRow) -> None:
        self.rows.append(row.id)

    def following(self) -> list[tuple[str, int | None]]:
        return []

    def resync_all(self) -> None:
        pass

    def resync_table(self, table: str) -> None:
        pass


class Room:
    def __init__(self, units: list[str], bus: RedisBus, owner: Recorder) -> None:
        self._units, self.bus, self.owner = units, bus, owner
        self.held: dict[str, Any] = {}
        self.taking = True  # False: the bus's passes cannot take a unit here

    def units(self) -> list[str]:
        return self._units

    async def take(self, unit: str) -> None:
        if not self.taking:
            raise RuntimeError(f"{unit} is not to be taken here now")
        self.held[unit] = object()
        self.owner.units.add(unit)
        self.bus.claim(unit)

    async def release(self, unit: str) -> None:
        self.held.pop(unit, None)
        self.owner.units.discard(unit)
        self.bus.unclaim(unit)


async def _pair(
    url: str, **options: float
) -> tuple[RedisBus, Recorder, Room, RedisBus, Screen, Room]:
    namespace = f"test{secrets.token_hex(4)}"
    buses = []
    for _ in range(2):
        bus = RedisBus(url, namespace=namespace, tick_s=0.2, **options)
        owner, screen = Recorder(), Screen()
        bus.attach(owner, screen)
        buses.append((bus, owner, Room(["t:x"], bus, owner), screen))
    (a, a_owner, a_room, _), (b, _, b_room, b_screen) = buses
    await a.start(a_room)  # alone: it takes the unit
    await b.start(b_room)
    assert a_room.held
    assert not b_room.held
    return a, a_owner, a_room, b, b_screen, b_room


def test_asks_and_tells_keep_their_order_and_their_kinds(redis_url: str) -> None:
    async def run() -> None:
        a, owner, a_room, b, _screen, b_room = await _pair(redis_url)
        try:
            sent: list[str] = []
            asks = []
            for n in range(60):  # interleaved, none awaited before the next is sent
                op = f"op{n}"
                sent.append(op)
                if n % 3 == 2:
                    b.tell("t:x", op, {"n": n})
                else:
                    asks.append(asyncio.create_task(b.ask("t:x", op, {"n": n})))
            answers = await asyncio.gather(*asks)
            assert [x["op"] for x in answers] == [op for i, op in enumerate(sent) if i % 3 != 2]
            for _ in range(50):
                if len(owner.seen) == len(sent):
                    break
                await asyncio.sleep(0.05)
            assert owner.seen == sent
            with pytest.raises(TableError) as refused:
                await b.ask("t:x", "refuse", {})
            assert refused.value.code == "seat_taken"
            assert str(refused.value) == "seat 3 is taken"
            with pytest.raises(NoOwner) as nobody:
                await b.ask("t:nope", "watch", {})
            assert not isinstance(nobody.value, Moving)
            # The unit is the room's but nobody holds it (nor takes it back meanwhile).
            a_room.taking = b_room.taking = False
            await a_room.release("t:x")
            await asyncio.sleep(0.1)
            b._routes.clear()
            with pytest.raises(Moving):
                await b.ask("t:x", "watch", {})
        finally:
            await b.stop(b_room)
            await a.stop(a_room)

    run_within(run(), 60)


def test_entries_reach_only_the_audiences_followed(redis_url: str) -> None:
    async def run() -> None:
        a, _, a_room, b, screen, b_room = await _pair(redis_url)
        try:
            await b.follow("t:x", None)
            await b.follow("t:x", 7)
            await asyncio.sleep(0.1)
            a.publish("t:x", "x", 1, None, "public 1", "e1")
            a.publish("t:x", "x", 2, 7, "for 7", "e1")
            a.publish("t:x", "x", 3, 8, "for 8", "e1")  # nobody on b follows 8
            a.publish("t:x", "x", 4, None, "public 2", "e1")
            for _ in range(50):
                if len(screen.entries) >= 3:
                    break
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.2)
            assert [e[3] for e in screen.entries] == ["public 1", "for 7", "public 2"]
            assert screen.entries[1] == ("x", 2, 7, "for 7", "e1")
            b.unfollow("t:x", 7)
            await asyncio.sleep(0.1)
            a.publish("t:x", "x", 5, 7, "for 7 again", "e1")
            a.publish("t:x", "x", 6, None, "public 3", "e1")
            for _ in range(50):
                if screen.entries[-1][3] == "public 3":
                    break
                await asyncio.sleep(0.05)
            assert [e[3] for e in screen.entries][-1] == "public 3"
            assert "for 7 again" not in [e[3] for e in screen.entries]
        finally:
            await b.stop(b_room)
            await a.stop(a_room)

    run_within(run(), 60)


def test_entries_queued_together_go_in_one_publication_and_keep_their_order(
    redis_url: str,
) -> None:
    """What one turn of the loop queues for a channel is one message on Redis (an
    action's event and the turn after it); another channel's entry between them
    splits the run, and the gateway gets every entry in the order published."""
    import redis.asyncio as redis

    async def run() -> None:
        a, _, a_room, b, screen, b_room = await _pair(redis_url)
        raw = redis.Redis.from_url(redis_url)
        listener = raw.pubsub()
        await listener.subscribe(a._entries("t:x", None))
        try:
            await b.follow("t:x", None)
            await b.follow("t:x", 7)
            await asyncio.sleep(0.1)
            texts = [f"first {i}" for i in range(5)] + ["for 7"] + [f"then {i}" for i in range(3)]
            for v, text in enumerate(texts, 1):
                a.publish("t:x", "x", v, 7 if text == "for 7" else None, text, "e1")
            for _ in range(50):
                if len(screen.entries) >= len(texts):
                    break
                await asyncio.sleep(0.05)
            assert [e[3] for e in screen.entries] == texts
            assert [e[1] for e in screen.entries] == list(range(1, len(texts) + 1))
            published = []
            while (message := await listener.get_message(timeout=0.5)) is not None:
                if message["type"] == "message":
                    published.append(message["data"])
            assert len(published) == 2  # five entries, then three: the private one between
        finally:
            await listener.aclose()
            await raw.aclose()
            await b.stop(b_room)
            await a.stop(a_room)

    run_within(run(), 60)


def test_a_process_hears_its_own_units_without_redis_and_others_through_it(
    redis_url: str,
) -> None:
    """The owner of a unit does not subscribe to its channels (its entries reach
    its gateway as published); once the unit is another's, it subscribes again."""
    import redis.asyncio as redis

    async def run() -> None:
        a, _, a_room, b, b_screen, b_room = await _pair(redis_url)
        a_screen = a.gateway
        assert isinstance(a_screen, Screen)
        raw = redis.Redis.from_url(redis_url)
        public, private = a._entries("t:x", None), a._entries("t:x", 7)

        async def listeners() -> list[int]:
            await asyncio.sleep(0.2)
            found = dict(await raw.pubsub_numsub(public, private))
            return [int(found[public.encode()]), int(found[private.encode()])]

        try:
            for bus in (a, b):
                await bus.follow("t:x", None)
                await bus.follow("t:x", 7)
            assert await listeners() == [1, 1]  # b only
            a.publish("t:x", "x", 1, None, "from a", "e1")
            await asyncio.sleep(0.2)
            assert [e[3] for e in a_screen.entries] == ["from a"]
            assert [e[3] for e in b_screen.entries] == ["from a"]
            a_room.taking = b_room.taking = False
            await a_room.release("t:x")
            assert await listeners() == [2, 2]
            b_room.taking = True
            await b_room.take("t:x")
            assert await listeners() == [1, 1]  # a only
            b.publish("t:x", "x", 1, 7, "from b", "e2")
            for _ in range(50):
                if len(a_screen.entries) == 2:
                    break
                await asyncio.sleep(0.05)
            assert [e[3] for e in a_screen.entries] == ["from a", "from b"]
            a.unfollow("t:x", 7)
            b.unfollow("t:x", 7)
            assert await listeners() == [1, 0]
        finally:
            await raw.aclose()
            await b.stop(b_room)
            await a.stop(a_room)

    run_within(run(), 60)


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="no redis-server to stall")
def test_a_bus_stops_in_bounded_time_when_its_redis_stalls(tmp_path: Path) -> None:
    """A Redis that stops answering (here: SIGSTOP) holds no shutdown: every step
    of a stop gives up after its step time (1 s here). Without the bound, each
    goodbye waits for the socket timeout (10 s) and the stop takes about 30 s."""
    own = OwnRedis(tmp_path)
    own.start()
    try:

        async def run() -> float:
            a, _, a_room, b, _, b_room = await _pair(own.url, stop_step_s=1.0)
            await b.follow("t:x", None)
            assert own.proc is not None
            os.kill(own.proc.pid, signal.SIGSTOP)
            a.publish("t:x", "x", 1, None, "never sent", "e1")  # queued for the stop's flush
            began = time.monotonic()
            await b.stop(b_room)
            await a.stop(a_room)
            return time.monotonic() - began

        took = run_within(run(), 60)
        # Two buses, each at most: tasks, messages in hand, goodbyes, closing.
        assert 1.0 <= took < 2 * 4 * 1.0  # waited for the stalled Redis, a step at a time
    finally:
        own.stop()
