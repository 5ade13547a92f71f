"""Helpers for the server tests: a real ``drawpoker serve`` process and websocket clients."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import httpx
import redis
import websockets

ROOT = Path(__file__).resolve().parents[2]


def run_within(work: Coroutine[Any, Any, Any], seconds: float) -> Any:
    """Run ``work`` in a new event loop for at most ``seconds``. A hang fails
    with the stack of every task of the loop (where each one waits), and never
    holds the test run: tasks that ignore their cancellation are left behind."""
    import io

    import pytest

    loop = asyncio.new_event_loop()
    try:
        main = loop.create_task(work)
        loop.run_until_complete(asyncio.wait({main}, timeout=seconds))
        if not main.done():
            stacks = io.StringIO()
            for task in asyncio.all_tasks(loop):
                task.print_stack(file=stacks)
            main.cancel()
            loop.run_until_complete(asyncio.wait({main}, timeout=10))
            pytest.fail(f"still running after {seconds} s; its tasks:\n{stacks.getvalue()}")
        left = asyncio.all_tasks(loop)
        for task in left:
            task.cancel()
        if left:
            loop.run_until_complete(asyncio.wait(left, timeout=10))
        loop.run_until_complete(loop.shutdown_asyncgens())
        return main.result()
    finally:
        loop.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def table(
    table_id: str,
    *,
    seats: int = 6,
    bots: int = 0,
    action_time: float = 3.0,
    draw_time: int = 2,
    think: tuple[float, float] = (0.02, 0.05),
    structure: str = "no-limit",
    **extra: Any,
) -> dict[str, Any]:
    rules = {
        "preset": "online",
        "structure": structure,
        "small_blind": 1,
        "big_blind": 2,
        "max_seats": seats,
        "draw_time_s": draw_time,
    }
    return {
        "id": table_id,
        "name": f"test {table_id}",
        "rules": rules,
        "min_buy_in": 40,
        "max_buy_in": 400,
        "action_time_s": action_time,
        "time_bank_s": 0.0,
        "disconnect_grace_s": 30.0,
        "between_hands_s": 0.2,
        "bots": bots,
        "bot_think_s": list(think),
        **extra,
    }


class OwnRedis:
    """A redis-server of the test's own on a free port, stopped by its pid."""

    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        self.tmp = tmp
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        cmd = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        cmd += ["--save", "", "--appendonly", "no", "--dir", str(self.tmp)]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(redis.RedisError), redis.Redis(port=self.port) as probe:
                if probe.ping():
                    return
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGCONT)  # a stalled one ends too
            os.kill(self.proc.pid, signal.SIGTERM)
            self.proc.wait(10)


class Server:
    """``drawpoker serve`` in a subprocess on a free port; stopped by PID."""

    def __init__(
        self,
        tmp: Path,
        database: str | None,
        tables: list[dict[str, Any]],
        *,
        args: list[str] | None = None,
        nofile: int | tuple[int, int] | None = None,
    ) -> None:
        self.tmp = tmp
        self.database = database
        self.args = list(args or [])  # more ``drawpoker serve`` options
        self.nofile = nofile  # a lower limit of open files for the process: both, or (soft, hard)
        self.room = tmp / "room.json"
        self.room.write_text(json.dumps({"tables": tables}))
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = tmp / f"server-{self.port}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> Server:
        self.launch()
        return self.wait_ready()

    def launch(self) -> None:
        cmd = [sys.executable, "-m", "drawpoker.cli", "serve", "--port", str(self.port)]
        cmd += ["--data-dir", str(self.tmp / "data"), "--room", str(self.room)]
        if self.database:
            cmd += ["--database", self.database]
        cmd += self.args
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                cmd,
                stdout=out,
                stderr=subprocess.STDOUT,
                cwd=ROOT,
                preexec_fn=self._limits if self.nofile is not None else None,
                start_new_session=True,  # its own group: its workers too (``stop``)
            )

    def wait_ready(self) -> Server:
        assert self.proc is not None
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-3000:]}")
            try:
                if httpx.get(self.url + "/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("server did not start: " + self.log.read_text()[-3000:])

    def _limits(self) -> None:
        import resource

        assert self.nofile is not None
        soft, hard = self.nofile if isinstance(self.nofile, tuple) else (self.nofile, self.nofile)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))

    def status(self, field: str) -> int:
        """A figure of the server process from /proc/<pid>/status, in kB for sizes
        (``VmRSS``, ``VmHWM``)."""
        assert self.proc is not None
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
        raise KeyError(field)

    def open_files(self) -> int:
        """How many file descriptors the server process holds."""
        assert self.proc is not None
        return len(os.listdir(f"/proc/{self.proc.pid}/fd"))

    def kill(self) -> None:
        """SIGKILL: a crash."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        """SIGTERM, as an operator stops it; after 30 s (a worker of ``--workers``
        gets as long), SIGKILL to its whole process group, so that no worker
        outlives the test (``returncode`` says which it took)."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()

    def guest(self) -> dict[str, Any]:
        data: dict[str, Any] = httpx.post(self.url + "/api/guest", timeout=10).json()
        return data

    def me(self, token: str) -> dict[str, Any]:
        data: dict[str, Any] = httpx.get(
            self.url + "/api/me", cookies={"dp_session": token}, timeout=10
        ).json()
        return data

    def table(self, table_id: str) -> dict[str, Any]:
        data: dict[str, Any] = httpx.get(self.url + f"/api/tables/{table_id}", timeout=10).json()
        return data


class Client:
    """A websocket client that records every frame it receives."""

    def __init__(self, server: Server, token: str | None = None, name: str = "") -> None:
        self.server = server
        self.token = token
        self.name = name
        self.frames: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.ws: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._new = asyncio.Event()
        self.seat: dict[str, int] = {}  # table -> my seat
        self.counter = 0

    async def connect(self) -> Client:
        url = self.server.ws_url + (f"?token={self.token}" if self.token else "")
        self.ws = await websockets.connect(url, max_size=None)
        self._reader = asyncio.create_task(self._read())
        await self.wait(lambda f: f["type"] == "welcome")
        return self

    async def _read(self) -> None:
        try:
            async for message in self.ws:
                for text in message.split("\n"):  # one message: one or more frames
                    self.raw.append(text)
                    self.frames.append(json.loads(text))
                self._new.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            self._new.set()

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await self._reader

    async def send(self, message: dict[str, Any] | str) -> str:
        self.counter += 1
        ref = f"m{self.counter}"
        if isinstance(message, dict):
            message = json.dumps({"id": ref, **message})
        await self.ws.send(message)
        return ref

    async def wait(
        self, pred: Callable[[dict[str, Any]], bool], timeout: float = 10.0, start: int = 0
    ) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        seen = start
        while True:
            for frame in self.frames[seen:]:
                if pred(frame):
                    return frame
            seen = len(self.frames)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"{self.name}: no matching frame; last: {self.frames[-5:]}")
            self._new.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._new.wait(), remaining)

    async def request(self, message: dict[str, Any], timeout: float = 10.0) -> dict[str, Any]:
        """Send and wait for the ``ok`` or ``error`` that answers it."""
        mark = len(self.frames)
        ref = await self.send(message)
        return await self.wait(
            lambda f: f["type"] in ("ok", "error") and f.get("ref") == ref, timeout, start=mark
        )

    def events(self, table: str | None = None) -> list[dict[str, Any]]:
        return [
            f["event"]
            for f in self.frames
            if f["type"] == "event" and (table is None or f["table"] == table)
        ]


def local_series(spec: Any, store: Any) -> Any:
    """A tournament series on a bus of its own, for tests in one process (no gateway)."""
    from drawpoker.server.bus import LocalBus
    from drawpoker.server.owner import Owner
    from drawpoker.server.tournament.series import Series

    bus = LocalBus()
    owner = Owner(bus)
    bus.owner = owner
    series = Series(spec, store, bus, owner)
    owner.adopt(series.unit, series)
    return series


STAFF_PASSWORD = "Tr0ub4dor&3-horse"  # every account the staff tests make


def make_staff(server: Server, name: str, role: str) -> None:
    """A staff account, made with ``drawpoker admin`` on the server's database."""
    where = ["--database", server.database] if server.database else []
    where = where or ["--data-dir", str(server.tmp / "data")]
    done = subprocess.run(
        [sys.executable, "-m", "drawpoker.cli", "admin", *where,
         "create-user", name, "--role", role, "--password-stdin"],
        input=STAFF_PASSWORD, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


def login(server: Server, name: str) -> str:
    """A session token of ``name`` (password ``STAFF_PASSWORD``)."""
    reply = httpx.post(
        server.url + "/api/login", json={"name": name, "password": STAFF_PASSWORD}, timeout=10
    )
    assert reply.status_code == 200, reply.text
    token: str = reply.json()["token"]
    return token


def call(server: Server, token: str | None, method: str, path: str, body: Any) -> httpx.Response:
    """A REST call as the holder of ``token`` (None: without a session)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.request(method, server.url + path, json=body, headers=headers, timeout=10)
