"""Server load: N bot clients over real websockets against ``drawpoker serve``.

Starts a server on 127.0.0.1 (a free port, a fresh SQLite file in a temporary
directory, ceil(N/6) six-max no-limit tables and no house bots), creates N
guest accounts, seats them, and lets each act after a random 0.2–1 s think
time for T seconds. Reports actions/s, the latency from a client's action to
the resulting event at every client of the table (p50/p95/p99), errors and
timeouts, and the server's CPU and memory.

    .venv/bin/python benchmarks/server_load.py --clients 1000 --seconds 60 [--procs 1]
    .venv/bin/python benchmarks/server_load.py --sweep 250,500,1000,1500

Load goes to 127.0.0.1 only. The load generator runs in ``--procs`` processes
(tables are split between them, so an action and every client of its table share
one clock).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import multiprocessing as mp
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

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


def proc_stats(pid: int) -> tuple[float, int]:
    """(CPU seconds, resident bytes) of a process, from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    rss = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    return cpu, rss


class Generator:
    """The clients of some tables, in one process and one event loop."""

    def __init__(self, url: str, tokens: list[tuple[str, str, int]], seconds: float) -> None:
        self.url = url
        self.tokens = tokens  # (token, table, seat)
        self.seconds = seconds
        self.pending: dict[str, tuple[float, int]] = {}  # table -> (sent at, seat)
        self.latencies: list[float] = []
        self.actions = 0
        self.errors: list[str] = []
        self.timeouts = 0
        self.measuring = False
        self.stop = asyncio.Event()
        self.acting: set[asyncio.Task[None]] = set()

    async def _close_on_stop(self, ws: Any) -> None:
        await self.stop.wait()
        await ws.close()

    async def client(self, token: str, table: str, seat: int) -> None:
        rng = random.Random()
        try:
            async with websockets.connect(f"{self.url}?token={token}", max_size=None) as ws:
                await ws.send(
                    json.dumps({"type": "sit", "table": table, "seat": seat, "buy_in": 400})
                )
                counter = 0
                closer = asyncio.create_task(self._close_on_stop(ws))
                async for text in ws:
                    now = time.perf_counter()
                    frame = json.loads(text)
                    kind = frame["type"]
                    if kind == "error":
                        self.errors.append(frame["message"])
                        continue
                    if kind != "event":
                        continue
                    event = frame["event"]
                    etype = event["type"]
                    if etype in ACTION_EVENTS:
                        pending = self.pending.get(table)
                        if pending is not None and pending[1] == event["seat"] and self.measuring:
                            self.latencies.append(now - pending[0])
                    elif etype == "TimedOut" and self.measuring:
                        self.timeouts += 1
                    elif etype == "Legal":
                        counter += 1
                        self.acting.add(
                            asyncio.create_task(
                                self.act(
                                    ws, rng, table, seat, event["hand_id"], event["legal"], counter
                                )
                            )
                        )
                closer.cancel()
        except (OSError, websockets.WebSocketException) as error:
            if not self.stop.is_set():
                self.errors.append(f"connection: {error!r}")

    async def act(
        self,
        ws: Any,
        rng: random.Random,
        table: str,
        seat: int,
        hand_id: str,
        legal: dict[str, Any],
        counter: int,
    ) -> None:
        await asyncio.sleep(rng.uniform(0.2, 1.0))
        base = {"table": table, "hand_id": hand_id, "action_id": f"{seat}-{counter}"}
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
        self.pending[table] = (time.perf_counter(), seat)
        if self.measuring:
            self.actions += 1
        with contextlib.suppress(websockets.WebSocketException):
            await ws.send(json.dumps(message))

    async def run(self, warmup: float) -> dict[str, Any]:
        tasks = [asyncio.create_task(self.client(*t)) for t in self.tokens]
        await asyncio.sleep(warmup)
        self.measuring = True
        await asyncio.sleep(self.seconds)
        self.measuring = False
        self.stop.set()
        await asyncio.gather(*tasks)
        for task in list(self.acting):
            task.cancel()
        return {
            "latencies": self.latencies,
            "actions": self.actions,
            "errors": self.errors,
            "timeouts": self.timeouts,
            "cpu": time.process_time(),
        }


def _generator_main(
    url: str, tokens: list[tuple[str, str, int]], seconds: float, warmup: float, out: Any
) -> None:
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 50, 1000)  # as the server: fewer pauses in the measurements
    out.put(asyncio.run(Generator(url, tokens, seconds).run(warmup)))


def run_load(clients: int, seconds: float, procs: int, warmup: float) -> dict[str, Any]:
    tables = math.ceil(clients / SEATS)
    tmp = Path(tempfile.mkdtemp(prefix="dp-load-"))
    (tmp / "room.json").write_text(json.dumps(room(tables)))
    port = free_port()
    cmd = [sys.executable, "-m", "drawpoker.cli", "serve", "--port", str(port)]
    cmd += ["--data-dir", str(tmp / "data"), "--room", str(tmp / "room.json")]
    with (tmp / "server.log").open("wb") as log:
        server = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(base + "/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        with httpx.Client(base_url=base, timeout=30) as http:
            tokens = [
                (http.post("/api/guest").json()["token"], f"L{i // SEATS}", i % SEATS + 1)
                for i in range(clients)
            ]
        ctx = mp.get_context("spawn")
        out = ctx.Queue()
        per_table: dict[str, list[tuple[str, str, int]]] = {}
        for t in tokens:
            per_table.setdefault(t[1], []).append(t)
        shares: list[list[tuple[str, str, int]]] = [[] for _ in range(procs)]
        for i, group in enumerate(per_table.values()):
            shares[i % procs].extend(group)
        workers = [
            ctx.Process(
                target=_generator_main,
                args=(f"ws://127.0.0.1:{port}/ws", share, seconds, warmup, out),
            )
            for share in shares
        ]
        for w in workers:
            w.start()
        time.sleep(warmup)
        cpu0, _ = proc_stats(server.pid)
        t0 = time.monotonic()
        peak = 0
        while time.monotonic() - t0 < seconds:
            time.sleep(1.0)
            peak = max(peak, proc_stats(server.pid)[1])
        cpu1, rss = proc_stats(server.pid)
        wall = time.monotonic() - t0
        results = [out.get(timeout=seconds + 120) for _ in workers]
        for w in workers:
            w.join()
    finally:
        print("server log:", tmp / "server.log")
        os.kill(server.pid, signal.SIGTERM)
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            os.kill(server.pid, signal.SIGKILL)
            server.wait()
    latencies = sorted(x for r in results for x in r["latencies"])
    errors = [e for r in results for e in r["errors"]]

    def pct(p: float) -> float:
        if not latencies:
            return float("nan")
        return 1000 * latencies[min(len(latencies) - 1, int(p * len(latencies)))]

    actions = sum(r["actions"] for r in results)
    return {
        "clients": clients,
        "tables": tables,
        "seconds": round(wall, 1),
        "actions": actions,
        "actions_per_s": round(actions / wall, 1),
        "samples": len(latencies),
        "p50_ms": round(pct(0.50), 2),
        "p95_ms": round(pct(0.95), 2),
        "p99_ms": round(pct(0.99), 2),
        "max_ms": round(1000 * latencies[-1], 2) if latencies else None,
        "errors": len(errors),
        "error_examples": errors[:3],
        "timeouts": sum(r["timeouts"] for r in results),
        "server_cpu_percent": round(100 * (cpu1 - cpu0) / wall, 1),
        "server_rss_mb": round(max(peak, rss) / 2**20, 1),
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
    args = parser.parse_args()
    counts = [int(x) for x in args.sweep.split(",") if x] or [args.clients]
    if max(counts) > 5000:
        parser.error("at most 5,000 clients (load tests stay bounded)")
    best = 0
    for n in counts:
        result = run_load(n, args.seconds, args.procs, args.warmup)
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
                f"{result['server_cpu_percent']}%, RSS {result['server_rss_mb']} MB, generator CPU "
                f"{result['generator_cpu_s']} s, load average {result['load_average']:.1f}"
                f"  {'holds' if holds else 'FAILS'}",
                flush=True,
            )
            for example in result["error_examples"]:
                print("   error:", example)
    print(f"largest N holding p99 < 100 ms with zero errors: {best or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
