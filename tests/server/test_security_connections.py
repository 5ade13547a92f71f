"""Slowloris, connection floods and running out of file descriptors, against a
real server (127.0.0.1 only; every loop bounded in count and time).

Before: no deadline for a request's headers, no cap per address; 1,100
half-open connections from one client (of a 1,024 file limit) made health
checks and new websockets time out, raised a seated player's latency from ~1 ms
to ~700 ms, and logged "Too many open files" 939,161 times (394 MB in 35 s).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import resource
import selectors
import socket
import statistics
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets

from .helpers import Server, table

pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def _enough_files_for_the_attacker() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 4096 <= hard or (soft < hard and hard < 4096):
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))


def half_open(server: Server, address: str, count: int) -> list[socket.socket]:
    """``count`` connections from ``address`` that start a request and never finish
    its headers (those the server refuses at once are closed and left out)."""
    out = []
    for _ in range(count):
        s = socket.create_connection(
            ("127.0.0.1", server.port), timeout=5, source_address=(address, 0)
        )
        try:
            s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        except OSError:
            s.close()
            continue
        out.append(s)
    return out


def still_open(sockets: list[socket.socket], wait: float = 1.0) -> int:
    """How many of the sockets the server still holds open: neither answered nor
    closed within ``wait`` seconds."""
    with selectors.DefaultSelector() as selector:  # epoll: more than 1,024 sockets
        for s in sockets:
            selector.register(s, selectors.EVENT_READ)
        answered: set[socket.socket] = set()
        end = time.monotonic() + wait
        while (left := end - time.monotonic()) > 0:
            for key, _ in selector.select(left):
                answered.add(key.fileobj)  # type: ignore[arg-type]
                selector.unregister(key.fileobj)
        return len(sockets) - len(answered)


def closed_by_server(s: socket.socket, within: float) -> float | None:
    """Seconds until the server closed ``s`` while we drip a header byte every 0.25 s
    (None: still open after ``within``)."""
    start = time.monotonic()
    s.settimeout(0.25)
    while time.monotonic() - start < within:
        try:
            if s.recv(1024) == b"":
                return time.monotonic() - start
        except TimeoutError:
            pass
        except OSError:
            return time.monotonic() - start
        try:
            s.sendall(b"x")
        except OSError:
            return time.monotonic() - start
    return None


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("conn")
    server = Server(tmp, None, [table("t1")], args=["--header-timeout", "2"]).start()
    try:
        yield server
    finally:
        server.stop()


def test_headers_that_never_end_are_cut_off(quick_server: Server) -> None:
    server = quick_server
    with socket.create_connection(
        ("127.0.0.1", server.port), source_address=("127.0.20.1", 0)
    ) as s:
        s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Drip: ")
        after = closed_by_server(s, within=10)
    assert after is not None
    assert after < 6  # the deadline is 2 s
    # A connection that says nothing at all, too.
    with socket.create_connection(
        ("127.0.0.1", server.port), source_address=("127.0.20.1", 0)
    ) as s:
        s.settimeout(10)
        start = time.monotonic()
        assert s.recv(10) == b""
        assert time.monotonic() - start < 6
    # And the second request of a kept-alive connection.
    with socket.create_connection(
        ("127.0.0.1", server.port), source_address=("127.0.20.1", 0)
    ) as s:
        s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        s.settimeout(5)
        assert s.recv(4096).startswith(b"HTTP/1.1 200")
        s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Drip: ")
        after = closed_by_server(s, within=10)
    assert after is not None
    assert after < 6


def test_requests_in_flight_are_capped_per_address(quick_server: Server) -> None:
    """64 requests whose bodies trickle in hold their slots; the 65th from that
    address is refused at once, another address is served."""
    server = quick_server
    head = (
        b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100\r\n\r\n{"
    )
    slow = []
    try:
        for _ in range(64):
            s = socket.create_connection(
                ("127.0.0.1", server.port), source_address=("127.0.21.1", 0)
            )
            s.sendall(head)
            slow.append(s)
        transport = httpx.HTTPTransport(local_address="127.0.21.1")
        with httpx.Client(base_url=server.url, transport=transport, timeout=5) as c:
            deadline = time.monotonic() + 5  # the 64 reach the server (they last 10 s)
            while (r := c.get("/health")).status_code == 200 and time.monotonic() < deadline:
                time.sleep(0.1)
            assert r.status_code == 429
            assert "at once" in r.json()["error"]
        transport = httpx.HTTPTransport(local_address="127.0.21.2")
        with httpx.Client(base_url=server.url, transport=transport, timeout=5) as c:
            assert c.get("/health").status_code == 200
    finally:
        for s in slow:
            s.close()


async def _ping_times(server: Server, address: str, token: str, count: int) -> list[float]:
    url = f"{server.ws_url}?token={token}"
    async with websockets.connect(url, local_addr=(address, 0), open_timeout=10) as ws:
        await ws.recv()  # welcome
        await ws.send(json.dumps({"type": "sit", "table": "t1", "seat": 1, "buy_in": 100}))
        times = []
        for i in range(count):
            start = time.perf_counter()
            await ws.send(json.dumps({"type": "ping", "id": f"p{i}"}))
            refs: list[str | None] = []
            while f"p{i}" not in refs:  # a message holds one or more frames, one a line
                message = await asyncio.wait_for(ws.recv(), 10)
                refs = [json.loads(line).get("ref") for line in str(message).split("\n")]
            times.append(time.perf_counter() - start)
            await asyncio.sleep(0.05)
        return times


def test_one_address_cannot_take_every_connection(tmp_path: Path) -> None:
    """1,100 half-open connections from one address, under a 1,024 file limit: the
    address gets its 256, the rest are refused at once; health checks, new
    websockets and a seated player stay fast; the log stays small."""
    server = Server(tmp_path, None, [table("t1")], nofile=1024)
    server.start()
    attack: list[socket.socket] = []
    try:
        guest = server.guest()
        attack = half_open(server, "127.0.22.1", 1100)
        assert 200 <= still_open(attack) <= 256
        assert server.open_files() < 1024 - 100
        start = time.perf_counter()
        assert httpx.get(server.url + "/health", timeout=5).status_code == 200
        assert time.perf_counter() - start < 3.0  # before: no answer in 5 s
        times = asyncio.run(_ping_times(server, "127.0.22.2", guest["token"], 20))
        assert statistics.median(times) < 0.1, times  # ~1 ms on an idle machine
        assert max(times) < 2.0, times
    finally:
        for s in attack:
            s.close()
        server.stop()
    assert server.log.stat().st_size < 50_000


def test_the_file_limit_is_raised_at_start(tmp_path: Path) -> None:
    server = Server(tmp_path, None, [table("t1")], nofile=(512, 4096)).start()
    try:
        assert server.proc is not None
        limits = Path(f"/proc/{server.proc.pid}/limits").read_text().splitlines()
        line = next(x for x in limits if x.startswith("Max open files"))
        soft, hard = (int(v) for v in line.split()[3:5])
        assert soft == hard == 4096
    finally:
        server.stop()


def test_running_out_of_files_does_not_flood_the_log(tmp_path: Path) -> None:
    """Six addresses open 600 connections against a 300-file limit: the surplus is
    refused at once (never "Too many open files" by the thousand), the log stays
    small, and the server serves again as soon as they go."""
    server = Server(tmp_path, None, [table("t1")], nofile=300)
    server.start()
    try:
        attack: list[socket.socket] = []
        try:
            for i in range(6):
                attack += half_open(server, f"127.0.23.{i + 1}", 100)
            time.sleep(3)
            assert server.proc is not None
            assert server.proc.poll() is None
            assert server.open_files() < 300
        finally:
            for s in attack:
                with contextlib.suppress(OSError):
                    s.close()
        deadline = time.monotonic() + 10
        while True:
            try:
                if httpx.get(server.url + "/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server did not recover"
            time.sleep(0.2)
    finally:
        server.stop()
    log = server.log.read_text(errors="replace")
    assert log.count("Too many open files") <= 20, log[-2000:]
    assert len(log) < 50_000, log[-2000:]
