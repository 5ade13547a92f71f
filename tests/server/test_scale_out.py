"""One room served by three processes over Redis (the bus) and PostgreSQL (the
record): players on different gateways play at one table, a spectator on a
third sees only what is public, the lobby is the same everywhere; a process
killed mid-hand hands its tables over within 10 s with the hand cancelled and
every chip accounted for; a paused owner that comes back finds its writes
refused and lets its tables go."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import func, select

from drawpoker.bots.remote import RemoteBot
from drawpoker.server import ledger
from drawpoker.server.auth import STARTING_CHIPS
from drawpoker.server.store import Store, database_url, hands, ledger_entries, ledger_tx
from drawpoker.server.tournament.money import pool

from .helpers import Client, OwnRedis, Server, call, login, make_staff, table
from .privacy import check_frames
from .test_server_play import play
from .test_server_tournaments import _play_by_websocket, sng

pytestmark = pytest.mark.slow
TABLES = ("a", "b", "c", "d")  # a and b have bots; people play at c


class Cluster:
    def __init__(
        self,
        tmp: Path,
        database: str,
        bus: str,
        count: int = 3,
        tournaments: list[dict[str, Any]] | None = None,
    ) -> None:
        self.namespace = f"test{secrets.token_hex(4)}"
        self.redis = redis.Redis.from_url(bus)
        tables = [
            table(t, bots=2 if t in ("a", "b") else 0, action_time=20.0, think=(0.02, 0.06))
            for t in TABLES
        ]
        self.units = [f"t:{t}" for t in TABLES] + [f"s:{t['id']}" for t in tournaments or []]
        args = ["--bus", bus, "--bus-namespace", self.namespace]
        self.servers = []
        for i in range(count):
            (tmp / f"p{i}").mkdir()
            server = Server(tmp / f"p{i}", database, tables, args=args)
            server.room.write_text(json.dumps({"tables": tables, "tournaments": tournaments or []}))
            self.servers.append(server)

    def __enter__(self) -> Cluster:
        for server in self.servers:
            server.launch()
        for server in self.servers:
            server.wait_ready()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and None in self.owners().values():
            time.sleep(0.2)
        assert None not in self.owners().values(), self.owners()
        return self

    def __exit__(self, *exc: object) -> None:
        for server in self.servers:
            server.stop()
        keys = list(self.redis.scan_iter(f"{self.namespace}:*"))
        if keys:
            self.redis.delete(*keys)
        self.redis.close()

    def owners(self) -> dict[str, str | None]:
        """Each table's (``t:<id>`` by its id) and each tournament's owner."""
        names = self.redis.mget([f"{self.namespace}:own:{unit}" for unit in self.units])
        return {
            unit.removeprefix("t:"): None if name is None else name.decode()
            for unit, name in zip(self.units, names, strict=True)
        }

    def owner_of(self, unit: str) -> Server:
        pid = _pid(self.owners()[unit])
        return next(s for s in self.servers if s.proc is not None and s.proc.pid == pid)

    def others(self, server: Server) -> list[Server]:
        return [s for s in self.servers if s is not server]


@pytest.fixture
def cluster(tmp_path: Path, postgresql: str, redis_url: str) -> Iterator[Cluster]:
    with Cluster(tmp_path, postgresql, redis_url) as running:
        yield running


async def _guest(server: Server) -> Client:
    token = server.guest()["token"]
    return await Client(server, token).connect()


async def _seat(client: Client, table_id: str, seat: int) -> None:
    reply = await client.request({"type": "sit", "table": table_id, "seat": seat, "buy_in": 200})
    assert reply["type"] == "ok", reply
    client.seat[table_id] = seat


def _hands_ended(client: Client, table_id: str) -> int:
    return sum(1 for e in client.events(table_id) if e["type"] == "HandEnded")


def _seated(server: Server, table_id: str) -> int:
    rows = httpx.get(server.url + "/api/tables", timeout=5).json()["tables"]
    return int(next(r for r in rows if r["id"] == table_id)["seats_taken"])


def test_three_processes_serve_one_room(cluster: Cluster) -> None:
    asyncio.run(_one_room(cluster))


async def _one_room(cluster: Cluster) -> None:
    s1, s2, s3 = cluster.servers
    owners = cluster.owners()
    assert len(set(owners.values())) >= 2, owners  # the tables are spread
    alice, bob, watcher = await _guest(s1), await _guest(s2), await _guest(s3)
    stop = asyncio.Event()
    try:
        await _seat(alice, "c", 1)
        await _seat(bob, "c", 4)
        reply = await watcher.request({"type": "subscribe", "table": "c"})
        assert reply["type"] == "ok", reply
        players = [asyncio.create_task(play(c, "c", stop, {})) for c in (alice, bob)]
        deadline = time.monotonic() + 60
        while _hands_ended(watcher, "c") < 3 and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        assert _hands_ended(watcher, "c") >= 3
        # The same account on a third gateway cannot take a second seat.
        again = await Client(s3, alice.token).connect()
        reply = await again.request({"type": "sit", "table": "c", "seat": 2, "buy_in": 100})
        assert reply["type"] == "error", reply
        await again.close()
        # Every gateway's lobby counts the two players (rows go out once a second).
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(_seated(s, "c") != 2 for s in cluster.servers):
            await asyncio.sleep(0.2)
        assert [_seated(s, "c") for s in cluster.servers] == [2, 2, 2]
        assert [_seated(s, "a") for s in cluster.servers] == [2, 2, 2]
        stop.set()
        await asyncio.gather(*players)
    finally:
        stop.set()
        for client in (alice, bob, watcher):
            await client.close()
    check_frames(alice.frames, alice.raw, 1)
    check_frames(bob.frames, bob.raw, 4)
    check_frames(watcher.frames, watcher.raw, None)
    shown = {e["type"] for e in watcher.events("c")}
    assert {"HandStarted", "Posted", "HandEnded"} <= shown
    assert not shown & {"CardsReceived", "DiscardedCards", "Legal"}


def test_a_killed_process_hands_its_tables_over(cluster: Cluster, postgresql: str) -> None:
    took, cancelled = asyncio.run(_kill_the_owner(cluster))
    assert took < 10.0, f"table c had no new owner for {took:.1f} s"
    for server in cluster.servers:
        server.stop()
    store = Store(database_url(postgresql, Path("unused")))
    try:

        def read(c: Any) -> tuple[str, set[str], int]:
            status = c.execute(select(hands.c.status).where(hands.c.id == cancelled)).scalar_one()
            refs = set(
                c.execute(
                    select(ledger_tx.c.ref).where(ledger_tx.c.kind == "hand-cancelled")
                ).scalars()
            )
            total = c.execute(select(func.sum(ledger_entries.c.amount))).scalar_one()
            return status, refs, int(total)

        status, refs, total = store.call(read)
        assert status == "cancelled"
        assert cancelled in refs
        assert total == 0
        store.call(ledger.check_books)
    finally:
        store.close()


async def _kill_the_owner(cluster: Cluster) -> tuple[float, str]:
    """Alice and Bob play at c from gateways that are not its owner's; in the
    middle of a hand the owner is killed. Returns how long until the table had a
    new owner that sent the watching clients a new snapshot, and the hand cut short."""
    victim = cluster.owner_of("c")
    g1, g2 = cluster.others(victim)
    alice, bob, watcher = await _guest(g1), await _guest(g2), await _guest(g2)
    stop = asyncio.Event()
    try:
        await _seat(alice, "c", 2)
        await _seat(bob, "c", 5)
        assert (await watcher.request({"type": "subscribe", "table": "c"}))["type"] == "ok"
        players = [asyncio.create_task(play(c, "c", stop, {})) for c in (alice, bob)]
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            kinds = [e["type"] for e in watcher.events("c")]
            if "HandStarted" in kinds and kinds[-1] not in ("HandEnded",) and "Posted" in kinds:
                last = len(kinds) - 1 - kinds[::-1].index("HandStarted")
                if "Posted" in kinds[last:] and "HandEnded" not in kinds[last:]:
                    break
            await asyncio.sleep(0.01)
        hand = [e for e in watcher.events("c") if e["type"] == "HandStarted"][-1]["hand_id"]
        stop.set()
        await asyncio.gather(*players)
        mark = len(watcher.frames)
        epoch = next(f for f in reversed(watcher.frames) if f["type"] == "snapshot")["state"][
            "epoch"
        ]
        assert victim.proc is not None
        os.kill(victim.proc.pid, signal.SIGKILL)
        victim.proc.wait()
        killed = time.monotonic()
        snapshot = await watcher.wait(
            lambda f: f["type"] == "snapshot" and f["state"]["epoch"] != epoch,
            timeout=15,
            start=mark,
        )
        took = time.monotonic() - killed
        assert snapshot["state"]["hand"] is None or snapshot["state"]["hand"]["hand_id"] != hand
        # Play on at the new owner: the seats and stacks came back with the table.
        stop = asyncio.Event()
        players = [asyncio.create_task(play(c, "c", stop, {})) for c in (alice, bob)]
        ended = _hands_ended(watcher, "c")
        deadline = time.monotonic() + 40
        while _hands_ended(watcher, "c") < ended + 2 and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        assert _hands_ended(watcher, "c") >= ended + 2
        stop.set()
        await asyncio.gather(*players)
    finally:
        stop.set()
        for client in (alice, bob, watcher):
            with contextlib.suppress(Exception):
                await client.close()
    check_frames(watcher.frames, watcher.raw, None)
    return took, hand


def test_a_paused_owner_cannot_write_over_the_next(cluster: Cluster, postgresql: str) -> None:
    """SIGSTOP the owner of a bot table until another process takes it over, then
    SIGCONT: the old owner's writes are refused and it lets the table go."""
    victim = cluster.owner_of("a")
    assert victim.proc is not None
    os.kill(victim.proc.pid, signal.SIGSTOP)
    try:
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and _pid(cluster.owners()["a"]) in (
            None,
            victim.proc.pid,
        ):
            time.sleep(0.2)
        new_owner = cluster.owners()["a"]
        assert _pid(new_owner) not in (None, victim.proc.pid)
    finally:
        os.kill(victim.proc.pid, signal.SIGCONT)
    time.sleep(4)  # the old owner's timers fire; its writes are refused
    assert cluster.owners()["a"] == new_owner
    log = victim.log.read_text()
    assert "letting it go" in log, log[-2000:]
    assert httpx.get(victim.url + "/api/tables/a", timeout=5).status_code == 200  # still served
    for server in cluster.servers:
        server.stop()
    store = Store(database_url(postgresql, Path("unused")))
    try:
        store.call(ledger.check_books)
        total = store.call(
            lambda c: c.execute(select(func.sum(ledger_entries.c.amount))).scalar_one()
        )
        assert total == 0
    finally:
        store.close()


def _pid(name: str | None) -> int | None:
    """The process id in a process's bus name (``host-pid-hex``)."""
    return None if name is None else int(name.split("-")[-2])


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="no redis-server to restart")
def test_the_room_survives_a_redis_restart(tmp_path: Path, postgresql: str) -> None:
    own = OwnRedis(tmp_path)
    own.start()
    try:
        with Cluster(tmp_path, postgresql, own.url, count=2) as cluster:
            asyncio.run(_play_through_a_redis_restart(cluster, own))
    finally:
        own.stop()


async def _play_through_a_redis_restart(cluster: Cluster, own: OwnRedis) -> None:
    s1, s2 = cluster.servers
    alice, bob = await _guest(s1), await _guest(s2)
    stop = asyncio.Event()
    try:
        await _seat(alice, "c", 1)
        await _seat(bob, "c", 2)
        players = [asyncio.create_task(play(c, "c", stop, {})) for c in (alice, bob)]
        deadline = time.monotonic() + 30
        while _hands_ended(alice, "c") < 2 and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        own.stop()  # every lease, route and subscription is gone with it
        await asyncio.sleep(1.0)
        own.start()
        ended = _hands_ended(alice, "c")
        deadline = time.monotonic() + 45
        while min(_hands_ended(c, "c") for c in (alice, bob)) < ended + 3:
            assert time.monotonic() < deadline, "the table did not play on after Redis came back"
            await asyncio.sleep(0.2)
        stop.set()
        await asyncio.gather(*players)
    finally:
        stop.set()
        for client in (alice, bob):
            await client.close()
    assert None not in cluster.owners().values()  # the leases were taken again
    check_frames(alice.frames, alice.raw, 1)
    check_frames(bob.frames, bob.raw, 2)


def test_serve_workers_share_one_port(tmp_path: Path, postgresql: str, redis_url: str) -> None:
    """``serve --workers 2``: two processes behind one port; a worker killed is
    started again and the tables are all held again; SIGTERM stops them all."""
    namespace = f"test{secrets.token_hex(4)}"
    args = ["--workers", "2", "--bus", redis_url, "--bus-namespace", namespace]
    tables = [table(t, bots=2) for t in TABLES]
    server = Server(tmp_path, postgresql, tables, args=args).start()
    store = redis.Redis.from_url(redis_url)

    def owners() -> set[int | None]:
        names = store.mget([f"{namespace}:own:t:{t}" for t in TABLES])
        return {_pid(None if n is None else n.decode()) for n in names}

    def wait_spread(what: str, gone: int | None = None) -> set[int | None]:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            found = owners()
            if None not in found and gone not in found and (gone or len(found) == 2):
                return found
            time.sleep(0.2)
        raise AssertionError(f"{what}: tables held by {owners()}")

    try:
        first = wait_spread("at start")
        assert server.proc is not None
        children = set(children_of(server))
        assert first == children
        for _ in range(6):  # any worker answers the scrape, for both of them
            assert _units_held(server) == len(TABLES)
        victim = min(children)
        os.kill(victim, signal.SIGKILL)
        second = wait_spread("after a worker was killed", gone=victim)
        # The parent started another worker (units are not moved back to it: a
        # newcomer takes free units only, so no hand in play is cut short).
        deadline = time.monotonic() + 10
        while len(set(children_of(server)) - {victim}) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert len(set(children_of(server)) - {victim}) == 2
        rows = httpx.get(server.url + "/api/tables", timeout=5).json()["tables"]
        assert {r["id"] for r in rows} == set(TABLES)
        deadline = time.monotonic() + 10  # the dead worker's gauges no longer count
        while _units_held(server) != len(TABLES):
            assert time.monotonic() < deadline, _units_held(server)
            time.sleep(0.5)
    finally:
        server.stop()
        keys = list(store.scan_iter(f"{namespace}:*"))
        if keys:
            store.delete(*keys)
        store.close()
    assert server.proc.returncode == 0, "SIGTERM did not stop every worker within 30 s"
    for pid in children | {p for p in second if p is not None}:
        assert (
            not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text()
        )


def _units_held(server: Server) -> float:
    text = httpx.get(server.url + "/metrics", timeout=5).text
    return sum(
        sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == "drawpoker_units_held"
    )


def children_of(server: Server) -> list[int]:
    assert server.proc is not None
    pid = server.proc.pid
    return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def test_a_tournament_is_played_from_every_gateway(
    tmp_path: Path, postgresql: str, redis_url: str
) -> None:
    """A sit & go held by one process, played by a person and two bots on the
    other process's gateway and three bots on the owner's: everyone hears their
    place and prize, and the books balance."""
    config = sng("ws6", max_entries=6, action_time_s=5.0, between_hands_s=0.1)
    with Cluster(tmp_path, postgresql, redis_url, count=2, tournaments=[config]) as cluster:
        owner = cluster.owner_of("s:ws6")
        (other,) = cluster.others(owner)

        async def field(token: str) -> tuple[Any, list[Any]]:
            kinds = ["tag", "shark", "calling-station", "random", "tag"]
            bots = [
                RemoteBot((owner if i < 3 else other).url, kind=kind, seed=i)
                for i, kind in enumerate(kinds)
            ]
            for bot in bots:
                await bot.connect()
            try:
                person, *results = await asyncio.gather(
                    _play_by_websocket(other, token), *(b.play_tournament("ws6") for b in bots)
                )
            finally:
                for bot in bots:
                    await bot.close()
            return person, results

        me = other.guest()
        (instance, client, acted, tables), results = asyncio.run(field(me["token"]))
        detail = httpx.get(other.url + f"/api/tournaments/{instance}", timeout=10).json()
        my_balance = other.me(me["token"])["balance"]
    assert detail["status"] == "finished"
    assert acted > 0
    standings = detail["standings"]
    shared = {tuple(s["places"]) for s in standings}  # players out in one hand share places
    assert sorted(p for places in shared for p in places) == [1, 2, 3, 4, 5, 6]
    by_name = {s["name"]: s for s in standings}
    for bot in results:  # each bot heard its own place and prize, whichever its gateway
        assert bot.tournament == instance
        assert list(bot.places) == by_name[bot.bot]["places"]
        assert bot.prize == by_name[bot.bot]["prize"]
    mine = next(s for s in standings if s["account"] == me["id"])
    finished = [e for e in client.events(tables[-1]) if e["type"] == "Finished"]
    assert finished[0]["places"] == mine["places"]
    assert my_balance == STARTING_CHIPS - 110 + mine["prize"]
    assert sum(s["prize"] for s in standings) == 600
    store = Store(database_url(postgresql, Path("unused")))
    try:
        store.call(ledger.check_books)
        assert store.call(ledger.balance, pool(instance)) == 0
    finally:
        store.close()


def test_a_table_opened_and_a_player_banned_on_one_process_reach_every_other(
    cluster: Cluster, postgresql: str
) -> None:
    """An operator opens a table on one process: every lobby lists it, some
    process takes it, players on two other gateways sit and are dealt in; one
    of them, banned on the first process, is disconnected by the gateway that
    serves them and stood up by the table's owner."""
    from .test_staff_api import NEW_TABLE, PASSWORD

    first = cluster.servers[0]
    made = subprocess.run(
        [sys.executable, "-m", "drawpoker.cli", "admin", "--database", postgresql,
         "create-user", "Ops", "--role", "operator", "--password-stdin"],
        input=PASSWORD, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    login = httpx.post(first.url + "/api/login", json={"name": "Ops", "password": PASSWORD})
    operator = {"Authorization": f"Bearer {login.json()['token']}"}
    opened = httpx.post(
        first.url + "/api/admin/tables",
        json={**NEW_TABLE, "id": "live", "bots": 0},
        headers=operator,
        timeout=10,
    )
    assert opened.status_code == 200, opened.text
    cluster.units.append("t:live")
    deadline = time.monotonic() + 20
    while cluster.owners()["live"] is None or not all(
        "live" in {r["id"] for r in httpx.get(s.url + "/api/tables").json()["tables"]}
        for s in cluster.servers
    ):
        assert time.monotonic() < deadline, "the new table was not taken and listed everywhere"
        time.sleep(0.2)

    async def sit_play_and_ban() -> None:
        a, b = await _guest(cluster.servers[1]), await _guest(cluster.servers[2])
        try:
            await _seat(a, "live", 1)
            await _seat(b, "live", 2)
            await b.wait(lambda f: f["type"] == "event" and f["event"]["type"] == "HandStarted", 15)
            # Banned on the first process: the connection on the second closes.
            me = httpx.get(cluster.servers[1].url + "/api/me", params={"token": a.token}).json()
            banned = httpx.post(
                first.url + "/api/admin/suspend",
                json={"name": me["name"], "days": None, "reason": "collusion"},
                headers=operator,
                timeout=10,
            )
            assert banned.status_code == 200, banned.text
            assert banned.json()["tables"] == ["live"]
            await asyncio.wait_for(a._reader, 15)
            assert a.ws.close_code == 1008
            deadline = time.monotonic() + 30
            while _seated(cluster.servers[2], "live") != 1:  # stood up after its hand
                assert time.monotonic() < deadline, "the banned player kept the seat"
                await asyncio.sleep(0.3)
        finally:
            await a.close()
            await b.close()

    asyncio.run(sit_play_and_ban())


def test_operators_orders_reach_owners_on_other_processes(cluster: Cluster) -> None:
    """Pause, change and close a table, and schedule and cancel a tournament, each
    from a process that does not own it: the owner carries the order out, every
    lobby shows it, and nobody takes a closed table or a cancelled tournament."""
    make_staff(cluster.servers[0], "Ops", "operator")
    owner = cluster.owner_of("d")
    asker, watcher = cluster.others(owner)
    ops = login(asker, "Ops")

    def row(server: Server, kind: str, unit: str) -> dict[str, Any] | None:
        rows = httpx.get(f"{server.url}/api/{kind}", timeout=5).json()[kind]
        return next((r for r in rows if r["id"] == unit), None)

    def until(what: str, ok: Any, seconds: float = 15) -> None:
        deadline = time.monotonic() + seconds
        while not ok():
            assert time.monotonic() < deadline, what
            time.sleep(0.2)

    def everywhere(kind: str, unit: str, key: str | None = None, value: Any = None) -> bool:
        """Every lobby lists the unit with ``key`` = ``value`` (no key: lists none)."""
        rows = [row(s, kind, unit) for s in cluster.servers]
        if key is None:
            return all(r is None for r in rows)
        return all(r is not None and r.get(key) == value for r in rows)

    paused = call(asker, ops, "POST", "/api/admin/tables/d/pause", {"on": True, "reason": "x"})
    assert paused.json() == {"ok": True, "status": "paused"}, paused.text
    until("paused in every lobby", lambda: everywhere("tables", "d", "status", "paused"))
    game = {"preset": "online", "structure": "no-limit", "small_blind": 2, "big_blind": 4,
            "max_seats": 6, "draw_time_s": 2}  # fmt: skip
    form = {"id": "d", "name": "test d", "game": game, "min_buy_in": 40, "max_buy_in": 400,
            "action_time_s": 20, "time_bank_s": 0, "reason": "higher"}  # fmt: skip
    changed = call(asker, ops, "POST", "/api/admin/tables/d", form)
    assert changed.status_code == 200, changed.text
    until("new stakes in every lobby", lambda: everywhere("tables", "d", "stakes", "2/4"))
    closed = call(asker, ops, "POST", "/api/admin/tables/d/close", {"reason": "night"})
    assert closed.json()["status"] == "closed", closed.text  # nobody sat there
    until("gone from every lobby", lambda: everywhere("tables", "d"))
    time.sleep(3)  # every process's take passes (0.2 s) have seen it free by now
    assert cluster.owners()["d"] is None

    later = {"id": "late", "name": "Late", "kind": "scheduled", "buy_in": 20, "fee": 2,
             "first_start_s": 3600, "reason": "tonight"}  # fmt: skip
    assert call(asker, ops, "POST", "/api/admin/tournaments", later).status_code == 200
    cluster.units.append("s:late")
    until("the tournament taken", lambda: cluster.owners()["s:late"] is not None)
    player = watcher.guest()["token"]
    before = watcher.me(player)["balance"]
    joined = httpx.post(
        watcher.url + "/api/tournaments/late/register",
        cookies={"dp_session": player}, headers={"Origin": watcher.url}, timeout=10,
    )  # fmt: skip
    assert joined.status_code == 200, joined.text
    canceller = next(s for s in cluster.servers if s is not cluster.owner_of("s:late"))
    cancelled = call(canceller, login(canceller, "Ops"), "POST",
                     "/api/admin/tournaments/late/cancel", {"reason": "quiet night"})  # fmt: skip
    assert cancelled.json()["refunded"] == 1, cancelled.text
    assert watcher.me(player)["balance"] == before
    until("cancelled everywhere", lambda: everywhere("tournaments", "late"))
    time.sleep(3)
    assert cluster.owners()["s:late"] is None
