"""Server load: N bot clients over real websockets against ``drawpoker serve``.

Starts a server on 127.0.0.1 (a free port, a fresh SQLite file in a temporary
directory, ceil(N/6) six-max no-limit tables and no house bots), creates N
guest accounts, seats them, and lets each act after a random 0.2–1 s think
time. The measurement starts once every sit is answered and ``--warmup``
seconds of play have passed (the buy-ins are not what is measured) and lasts
T seconds. Reports actions/s, the latency from a client's action to
the resulting event at every client of the table (p50/p95/p99), errors and
timeouts, and the server's CPU and memory.

    .venv/bin/python benchmarks/server_load.py --clients 1000 --seconds 60 [--procs 1]
    .venv/bin/python benchmarks/server_load.py --sweep 250,500,1000,1500
    .venv/bin/python benchmarks/server_load.py --clients 1000 --against /path/to/other/src
    .venv/bin/python benchmarks/server_load.py --clients 1000 --floor --rounds 2

``--against`` runs the same load against the server of another checkout's ``src``
(e.g. an older commit, in a git worktree) in the same invocation, alternating,
and prints both: the server CPU time per player action is the figure to compare.
``--floor`` does the same against ``fanout_peer.py``, a server that does the
least this load asks for (a message to each player of the table per action,
nothing decided, nothing stored): what sockets and Python cost on the machine.

Load goes to 127.0.0.1 only. The load generator runs in ``--procs`` processes
(tables are split between them, so an action and every client of its table share
one clock), each one event loop of lean websocket clients of its own (the
handshake, unfragmented frames read from the socket, JSON decoded only as far
as the fields it acts on), so that it costs the machine little beside the
server it measures.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import gc
import json
import math
import multiprocessing as mp
import os
import random
import secrets
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, cast

import httpx
import msgspec

ACTION_EVENTS = frozenset(
    ("Folded", "Checked", "Called", "BetPlaced", "Raised", "StoodPat", "Discarded")
)
SEATS = 6


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def room(tables: int) -> dict[str, Any]:
    return {
        "tables": [
            {
                "id": f"L{i}",
                "name": f"load {i}",
                "rules": {"preset": "online", "structure": "no-limit", "max_seats": SEATS},
                "min_buy_in": 40,
                "max_buy_in": 400,
                "action_time_s": 15.0,
                "time_bank_s": 0.0,
                "between_hands_s": 1.0,
                "bots": 0,
            }
            for i in range(tables)
        ]
    }


def proc_stats(pid: int) -> tuple[float, int, float]:
    """(CPU seconds, resident bytes, of the CPU seconds those in the kernel) of a
    process, from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    rss = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    return cpu, rss, int(fields[12]) / ticks


class Frame(msgspec.Struct):
    """The fields of a server frame the generator reads (the rest is skipped)."""

    type: str
    event: dict[str, Any] | None = None
    message: str | None = None


_frame = msgspec.json.Decoder(Frame)
_json = msgspec.json.Encoder()


class Client(asyncio.Protocol):
    """One player's websocket, as lean as a client can be: the handshake, then
    frames read straight from the socket (the server never fragments them) and
    the player's messages sent as masked text frames (RFC 6455)."""

    def __init__(self, generator: Generator, token: str, table: str, seat: int) -> None:
        self.generator, self.token, self.table, self.seat = generator, token, table, seat
        self.transport: asyncio.Transport | None = None
        self.buffer = b""
        self.upgraded = False
        self.sat = False
        self.counter = 0
        self.rng = random.Random()
        self.key = secrets.token_bytes(4)  # this connection's masking key
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)
        key = base64.b64encode(secrets.token_bytes(16)).decode()
        self.transport.write(
            f"GET /ws?token={self.token} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.generator.stop.is_set():
            self.generator.errors.append(f"connection lost: {exc!r}")
        if not self.done.done():
            self.done.set_result(None)

    def send(self, message: dict[str, Any]) -> None:
        data = _json.encode(message)
        size = len(data)
        head = (
            struct.pack("!BB", 0x81, 0x80 | size)
            if size < 126
            else (struct.pack("!BBH", 0x81, 0xFE, size))
        )
        mask = (self.key * (size // 4 + 1))[:size]
        masked = (int.from_bytes(data, "little") ^ int.from_bytes(mask, "little")).to_bytes(
            size, "little"
        )
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(head + self.key + masked)

    def data_received(self, data: bytes) -> None:
        buffer = self.buffer + data
        if not self.upgraded:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                self.buffer = buffer
                return
            if not buffer.startswith(b"HTTP/1.1 101"):
                self.generator.errors.append(buffer[: buffer.find(b"\r\n")].decode())
                assert self.transport is not None
                self.transport.close()
                return
            self.upgraded = True
            buffer = buffer[end + 4 :]
            self.send({"type": "sit", "table": self.table, "seat": self.seat, "buy_in": 400})
        now = time.perf_counter()
        at = 0
        while len(buffer) - at >= 2:
            opcode, size = buffer[at] & 0x0F, buffer[at + 1] & 0x7F
            head = 2
            if size == 126:
                if len(buffer) - at < 4:
                    break
                size, head = struct.unpack_from("!H", buffer, at + 2)[0], 4
            elif size == 127:
                if len(buffer) - at < 10:
                    break
                size, head = struct.unpack_from("!Q", buffer, at + 2)[0], 10
            if len(buffer) - at < head + size:
                break
            payload = buffer[at + head : at + head + size]
            at += head + size
            if opcode == 0x1:
                self.message(payload, now)
            elif opcode == 0x9:  # a ping: the pong carries its payload back, masked
                self._pong(payload)
            elif opcode == 0x8:
                assert self.transport is not None
                self.transport.close()
        self.buffer = buffer[at:]

    def _pong(self, payload: bytes) -> None:
        size = len(payload)
        mask = (self.key * (size // 4 + 1))[:size]
        masked = bytes(a ^ b for a, b in zip(payload, mask, strict=True))
        assert self.transport is not None
        self.transport.write(struct.pack("!BB", 0x8A, 0x80 | size) + self.key + masked)

    def message(self, payload: bytes, now: float) -> None:
        generator = self.generator
        lines = payload.split(b"\n")  # a frame a line
        if generator.measuring:
            generator.received[0] += 1
            generator.received[1] += len(lines)
        for line in lines:
            frame = _frame.decode(line)
            kind = frame.type
            if not self.sat and kind in ("ok", "error"):  # the sit's answer
                self.sat = True
                generator.sat()
            if kind == "error":
                generator.errors.append(frame.message or "")
            elif kind == "event" and frame.event is not None:
                self.event(frame.event, now)

    def event(self, event: dict[str, Any], now: float) -> None:
        generator = self.generator
        etype = event["type"]
        if etype in ACTION_EVENTS:
            pending = generator.pending.get(self.table)
            if pending is not None and pending[1] == event["seat"] and generator.measuring:
                generator.latencies.append(now - pending[0])
        elif etype == "TimedOut" and generator.measuring:
            generator.timeouts += 1
        elif etype == "Legal":
            self.counter += 1
            think = self.rng.uniform(0.2, 1.0)
            asyncio.get_running_loop().call_later(
                think, self.act, event["hand_id"], event["legal"], self.counter
            )

    def act(self, hand_id: str, legal: dict[str, Any], counter: int) -> None:
        if self.generator.stop.is_set():
            return
        rng = self.rng
        base = {"table": self.table, "hand_id": hand_id, "action_id": f"{self.seat}-{counter}"}
        if legal["draw"]:
            k = rng.randint(0, 3)
            message = {"type": "draw", **base, "discard": rng.sample(legal["hand"], k)}
        elif legal["max_to"] and rng.random() < 0.15:
            message = {"type": "act", **base, "action": "bet", "amount": legal["min_to"]}
        elif legal["check"]:
            message = {"type": "act", **base, "action": "check"}
        elif rng.random() < 0.85:
            message = {"type": "act", **base, "action": "call"}
        else:
            message = {"type": "act", **base, "action": "fold"}
        self.generator.pending[self.table] = (time.perf_counter(), self.seat)
        if self.generator.measuring:
            self.generator.actions += 1
        self.send(message)


class Generator:
    """The clients of some tables, in one process and one event loop."""

    def __init__(self, port: int, tokens: list[tuple[str, str, int]], seconds: float) -> None:
        self.port = port
        self.tokens = tokens  # (token, table, seat)
        self.seconds = seconds
        self.pending: dict[str, tuple[float, int]] = {}  # table -> (sent at, seat)
        self.latencies: list[float] = []
        self.actions = 0
        self.received = [0, 0]  # websocket messages, frames (while measuring)
        self.errors: list[str] = []
        self.timeouts = 0
        self.measuring = False
        self.answered = 0  # clients whose sit was answered (seated, or refused: an error)
        self.all_answered = asyncio.Event()
        self.stop = asyncio.Event()

    def sat(self) -> None:
        self.answered += 1
        if self.answered == len(self.tokens):
            self.all_answered.set()

    async def connect(self, token: str, table: str, seat: int) -> Client | None:
        loop = asyncio.get_running_loop()
        try:
            _, client = await loop.create_connection(
                lambda: Client(self, token, table, seat), "127.0.0.1", self.port
            )
        except OSError as error:
            self.errors.append(f"connection: {error!r}")
            return None
        return client

    async def run(self, ready: Any, go: Any) -> dict[str, Any]:
        """Seat every client, say so on ``ready``, play, and measure from ``go`` on."""
        clients = [c for c in [await self.connect(*t) for t in self.tokens] if c is not None]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.all_answered.wait(), 300)
        ready.put(self.answered)
        await asyncio.to_thread(go.wait, 600)
        self.measuring = True
        await asyncio.sleep(self.seconds)
        self.measuring = False
        self.stop.set()
        for client in clients:
            if client.transport is not None:
                client.transport.close()
        await asyncio.gather(*(client.done for client in clients))
        return {
            "latencies": self.latencies,
            "actions": self.actions,
            "received": self.received,
            "errors": self.errors,
            "timeouts": self.timeouts,
            "cpu": time.process_time(),
        }


def _generator_main(
    port: int, tokens: list[tuple[str, str, int]], seconds: float, ready: Any, go: Any, out: Any
) -> None:
    import uvloop

    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 50, 1000)  # as the server: fewer pauses in the measurements
    out.put(uvloop.run(Generator(port, tokens, seconds).run(ready, go)))


def _postgresql(sql: str) -> None:
    import psycopg

    with psycopg.connect(host="127.0.0.1", user="postgres", dbname="test", autocommit=True) as conn:
        conn.execute(sql)


def fresh_postgresql() -> str:
    """A new database on the local PostgreSQL, for a room of many processes."""
    name = f"dp_load_{secrets.token_hex(4)}"
    _postgresql(f'CREATE DATABASE "{name}"')
    return f"postgresql://postgres@127.0.0.1/{name}"


def tree_stats(pid: int) -> tuple[float, int, float]:
    """``proc_stats`` of a process and its children (the workers) together."""
    cpu, rss, kernel = proc_stats(pid)
    children = Path(f"/proc/{pid}/task/{pid}/children")
    for child in children.read_text().split() if children.exists() else []:
        with contextlib.suppress(OSError, ValueError):
            c_cpu, c_rss, c_kernel = proc_stats(int(child))
            cpu, rss, kernel = cpu + c_cpu, rss + c_rss, kernel + c_kernel
    return cpu, rss, kernel


def _costs(base: str, database: str | None) -> dict[str, float]:
    """Counters read before and after the measured window: hands finished (the
    server's metrics, every worker's), and with a database URL, Redis's commands
    and CPU seconds and the run database's commits and rows written."""
    from prometheus_client.parser import text_string_to_metric_families

    text = httpx.get(base + "/metrics", timeout=10).text
    costs: dict[str, float] = {
        "hands": sum(
            sample.value
            for family in text_string_to_metric_families(text)
            for sample in family.samples
            if sample.name == "drawpoker_hands_total"
        )
    }
    if database is None:
        return costs
    import psycopg
    import redis

    bus = redis.Redis()
    try:
        stats, cpu = bus.info("stats"), bus.info("cpu")
    finally:
        bus.close()
    costs["redis_commands"] = float(stats["total_commands_processed"])
    costs["redis_cpu_ms"] = 1e3 * float(cpu["used_cpu_sys"] + cpu["used_cpu_user"])
    name = database.rsplit("/", 1)[1]
    query = (
        "SELECT xact_commit, tup_inserted + tup_updated + tup_deleted, pg_database_size(%s) "
        "FROM pg_stat_database WHERE datname = %s"
    )
    with psycopg.connect(host="127.0.0.1", user="postgres", dbname="test") as conn:
        conn.execute("SELECT pg_stat_clear_snapshot()")
        commits, rows, size = conn.execute(query, (name, name)).fetchone() or (0, 0, 0)
    costs["pg_commits"], costs["pg_rows_written"] = float(commits), float(rows)
    costs["pg_bytes"] = float(size)
    return costs


def run_load(
    clients: int,
    seconds: float,
    procs: int,
    warmup: float,
    src: str | None = None,
    workers: int = 0,
    peer: bool = False,
) -> dict[str, Any]:
    """``workers`` > 0: that many processes on one Redis bus and a fresh
    PostgreSQL database (``serve --workers``); 0: the embedded single process;
    ``peer``: ``fanout_peer.py`` instead of drawpoker (the floor)."""
    tables = math.ceil(clients / SEATS)
    tmp = Path(tempfile.mkdtemp(prefix="dp-load-"))
    (tmp / "room.json").write_text(json.dumps(room(tables)))
    port = free_port()
    cmd = [sys.executable, "-m", "drawpoker.cli", "serve", "--port", str(port)]
    cmd += ["--data-dir", str(tmp / "data"), "--room", str(tmp / "room.json")]
    cmd += ["--trust", "127.0.0.1"]  # the generator's guests and sockets: no per-address cap
    if peer:
        cmd = [sys.executable, str(Path(__file__).with_name("fanout_peer.py")), "--port", str(port)]
    if workers:
        database = fresh_postgresql()
        cmd += ["--workers", str(workers), "--database", database]
        cmd += ["--bus", "redis://127.0.0.1:6379/0", "--bus-namespace", f"load{port}"]
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    with (tmp / "server.log").open("wb") as log:
        server = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(base + "/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        if workers:  # every table held by some worker, as every worker's lobby shows
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                counts = [len(httpx.get(base + "/api/tables").json()["tables"]) for _ in range(8)]
                if min(counts) == tables:
                    break
                time.sleep(0.5)
        with httpx.Client(base_url=base, timeout=30) as http:
            tokens = [
                (http.post("/api/guest").json()["token"], f"L{i // SEATS}", i % SEATS + 1)
                for i in range(clients)
            ]
        ctx = mp.get_context("spawn")
        out, ready, go = ctx.Queue(), ctx.Queue(), ctx.Event()
        per_table: dict[str, list[tuple[str, str, int]]] = {}
        for t in tokens:
            per_table.setdefault(t[1], []).append(t)
        shares: list[list[tuple[str, str, int]]] = [[] for _ in range(procs)]
        for i, group in enumerate(per_table.values()):
            shares[i % procs].extend(group)
        generators = [
            ctx.Process(
                target=_generator_main,
                args=(port, share, seconds, ready, go, out),
            )
            for share in shares
        ]
        for w in generators:
            w.start()
        # Everyone seated (the buy-ins are not what is measured), then play a while.
        seated = sum(ready.get(timeout=330) for _ in generators)
        time.sleep(warmup)
        go.set()
        print(f"measuring {seconds:.0f} s (server pid {server.pid})", flush=True)
        cpu0, _, kernel0 = tree_stats(server.pid)
        costs0 = _costs(base, database if workers else None)
        t0 = time.monotonic()
        peak = 0
        while time.monotonic() - t0 < seconds:
            time.sleep(1.0)
            peak = max(peak, tree_stats(server.pid)[1])
        cpu1, rss, kernel1 = tree_stats(server.pid)
        costs1 = _costs(base, database if workers else None)
        wall = time.monotonic() - t0
        results = [out.get(timeout=seconds + 120) for _ in generators]
        for w in generators:
            w.join()
    finally:
        print("server log:", tmp / "server.log")
        os.kill(server.pid, signal.SIGTERM)
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            os.kill(server.pid, signal.SIGKILL)
            server.wait()
        if workers:  # the run's database and Redis keys go with it
            _postgresql(f'DROP DATABASE IF EXISTS "{database.rsplit("/", 1)[1]}" WITH (FORCE)')
            with contextlib.suppress(Exception):
                import redis

                bus = redis.Redis()
                keys = list(bus.scan_iter(f"load{port}:*"))
                if keys:
                    bus.delete(*keys)
                bus.close()
    latencies = sorted(x for r in results for x in r["latencies"])
    errors = [e for r in results for e in r["errors"]]

    def pct(p: float) -> float:
        if not latencies:
            return float("nan")
        return 1000 * latencies[min(len(latencies) - 1, int(p * len(latencies)))]

    actions = sum(r["actions"] for r in results)
    messages = sum(r["received"][0] for r in results)
    frames = sum(r["received"][1] for r in results)
    spent = {key: costs1[key] - costs0[key] for key in costs0}
    hands = spent.pop("hands")
    per_hand = {f"{key}_per_hand": round(value / hands, 2) for key, value in spent.items()}
    return {
        "clients": clients,
        "seated": seated,
        "workers": workers,
        "tables": tables,
        "seconds": round(wall, 1),
        "actions": actions,
        "actions_per_s": round(actions / wall, 1),
        "samples": len(latencies),
        "messages_per_action": round(messages / actions, 2) if actions else None,
        "frames_per_action": round(frames / actions, 2) if actions else None,
        "p50_ms": round(pct(0.50), 2),
        "p95_ms": round(pct(0.95), 2),
        "p99_ms": round(pct(0.99), 2),
        "max_ms": round(1000 * latencies[-1], 2) if latencies else None,
        "errors": len(errors),
        "error_examples": errors[:3],
        "timeouts": sum(r["timeouts"] for r in results),
        "server_cpu_percent": round(100 * (cpu1 - cpu0) / wall, 1),
        "server_cpu_us_per_action": round(1e6 * (cpu1 - cpu0) / actions, 1) if actions else None,
        "server_kernel_percent": round(100 * (kernel1 - kernel0) / max(cpu1 - cpu0, 1e-9), 1),
        "server_rss_mb": round(max(peak, rss) / 2**20, 1),
        "hands_per_s": round(hands / wall, 1),
        "server_cpu_ms_per_hand": round(1e3 * (cpu1 - cpu0) / hands, 2) if hands else None,
        **(per_hand if hands else {}),
        "generator_cpu_s": round(sum(r["cpu"] for r in results), 1),
        "load_average": os.getloadavg()[0],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--procs", type=int, default=1, help="load generator processes")
    parser.add_argument("--sweep", default="", help="comma-separated client counts to try")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--against", default=None, help="another checkout's src: its server, same load, same run"
    )
    parser.add_argument(
        "--floor",
        action="store_true",
        help="the same load against fanout_peer.py too, alternating: the floor",
    )
    parser.add_argument("--rounds", type=int, default=1, help="with --against or --floor: rounds")
    parser.add_argument(
        "--workers",
        type=int,
        default=0,
        help="serve with --workers N on the local Redis and PostgreSQL (0: one embedded process)",
    )
    args = parser.parse_args()
    counts = [int(x) for x in args.sweep.split(",") if x] or [args.clients]
    if max(counts) > 5000:
        parser.error("at most 5,000 clients (load tests stay bounded)")
    if args.against or args.floor:
        return compare(counts[0], args)
    best = 0
    for n in counts:
        result = run_load(n, args.seconds, args.procs, args.warmup, workers=args.workers)
        holds = result["p99_ms"] < 100 and result["errors"] == 0 and result["timeouts"] == 0
        result["holds"] = holds
        if holds:
            best = max(best, n)
        if args.json:
            print(json.dumps(result), flush=True)
        else:
            print(
                f"{n:>5} clients {result['tables']:>4} tables: "
                f"{result['actions_per_s']:>7.1f} actions/s, latency p50 {result['p50_ms']} ms "
                f"p95 {result['p95_ms']} ms p99 {result['p99_ms']} ms (max {result['max_ms']}), "
                f"{result['errors']} errors, {result['timeouts']} timeouts, server CPU "
                f"{result['server_cpu_percent']}% "
                f"({result['server_cpu_us_per_action']} µs an action, "
                f"{result['server_kernel_percent']}% of it in the kernel), "
                f"RSS {result['server_rss_mb']} MB, generator CPU "
                f"{result['generator_cpu_s']} s, load average {result['load_average']:.1f}"
                f"  {'holds' if holds else 'FAILS'}",
                flush=True,
            )
            costs = {k: v for k, v in result.items() if k.endswith("_per_hand")}
            print(
                f"      {result['hands_per_s']} hands/s; an action: "
                f"{result['messages_per_action']} websocket messages, "
                f"{result['frames_per_action']} frames; a hand: "
                + ", ".join(f"{k.removesuffix('_per_hand')} {v}" for k, v in costs.items())
            )
            if result["seated"] != n:
                print(f"      only {result['seated']} of {n} sits were answered in time")
            for example in result["error_examples"]:
                print("   error:", example)
    print(f"largest N holding p99 < 100 ms with zero errors: {best or 'none'}")
    return 0


def compare(clients: int, args: argparse.Namespace) -> int:
    """This tree's server and another's (``--against``) or the fan-out peer
    (``--floor``), alternating, ``--rounds`` times: medians of the server CPU per
    action and of p99, and their ratios."""
    import statistics

    mine: list[dict[str, Any]] = []
    theirs: list[dict[str, Any]] = []
    other = "peer" if args.floor else "other"
    for _ in range(args.rounds):
        load = (clients, args.seconds, args.procs, args.warmup)
        if args.floor:
            theirs.append(run_load(*load, peer=True))
        else:
            theirs.append(run_load(*load, args.against, workers=args.workers))
        mine.append(run_load(*load, workers=args.workers))
    for name, runs in ((other, theirs), ("this", mine)):
        for r in runs:
            print(
                f"{name}: {r['actions_per_s']} actions/s, server {r['server_cpu_us_per_action']} µs"
                f" an action ({r['server_cpu_percent']}% CPU, {r['server_kernel_percent']}% of it "
                f"in the kernel), p50 {r['p50_ms']} ms, p99 "
                f"{r['p99_ms']} ms, {r['errors']} errors, {r['messages_per_action']} messages and "
                f"{r['frames_per_action']} frames an action, load average {r['load_average']:.1f}",
                flush=True,
            )

    def median(runs: list[dict[str, Any]], key: str) -> float:
        return float(statistics.median(r[key] for r in runs))

    cpu_other, cpu_this = (
        median(theirs, "server_cpu_us_per_action"),
        median(mine, "server_cpu_us_per_action"),
    )
    print(
        f"{clients} clients, median of {args.rounds}: server CPU per action {cpu_this:.0f} µs "
        f"({other} {cpu_other:.0f} µs: {cpu_other / cpu_this:.2f}x); p99 "
        f"{median(mine, 'p99_ms'):.1f} ms ({other} {median(theirs, 'p99_ms'):.1f} ms)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
