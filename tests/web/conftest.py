"""Browser tests: Playwright drives Debian's Chromium (headless) against a real
``drawpoker serve`` started on a free port with a temporary data directory.

Chromium comes from the system (``/usr/bin/chromium``; ``make test`` installs it
when missing). Without it the browser tests are skipped with a clear message, unless
``CI`` is set: then they fail. Every page collects its console messages and page
errors, and a test fails if any error was logged.

``DRAWPOKER_SCREENSHOTS=1`` also saves the screenshots under ``docs/screenshots``.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from .helpers import DESKTOP, ROOT

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str | None:
    for candidate in (
        "/usr/bin/chromium",
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cash_table(
    table_id: str, structure: str = "no-limit", seats: int = 6, blinds: int = 1, **extra: Any
) -> dict[str, Any]:
    """A cash table with two quick bots; generous clocks so a test is never rushed."""
    return {
        "id": table_id,
        "name": f"Test {table_id}",
        "rules": {
            "preset": "online",
            "structure": structure,
            "small_blind": blinds,
            "big_blind": 2 * blinds,
            "max_seats": seats,
        },
        "min_buy_in": 40 * blinds,
        "max_buy_in": 200 * blinds,
        "action_time_s": 30.0,
        "time_bank_s": 10.0,
        "between_hands_s": 1.2,
        "bots": 2,
        "bot_think_s": [0.05, 0.15],
        **extra,
    }


# One table per test, so that tests never wait on each other's players.
ROOM = [
    cash_table("desk"),
    cash_table("phone"),
    cash_table("auto", blinds=2),
    cash_table("history"),
    cash_table("controls"),
    cash_table("lang", structure="fixed-limit"),
    cash_table("reload", structure="pot-limit"),
    cash_table("shots", seats=8, blinds=5),
    cash_table("limit8", structure="fixed-limit", seats=8, blinds=5),
    {
        "id": "italian",
        "name": "Test italian",
        "rules": {"preset": "italian", "invito": 10, "max_seats": 6},
        "min_buy_in": 200,
        "max_buy_in": 1000,
        "bots": 2,
        "bot_think_s": [0.05, 0.15],
    },
]


class Server:
    """``drawpoker serve`` in a subprocess on a free port; stopped by its PID."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.port = free_port()
        self.room = tmp / "room.json"
        self.room.write_text(json.dumps({"tables": ROOM}))
        self.log = tmp / "server.log"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        cmd = [sys.executable, "-m", "drawpoker.cli", "serve", "--port", str(self.port)]
        cmd += ["--data-dir", str(self.tmp / "data"), "--room", str(self.room)]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("server exited: " + self.log.read_text()[-3000:])
            try:
                if httpx.get(self.url + "/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("server did not start: " + self.log.read_text()[-3000:])

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


@pytest.fixture(scope="session")
def chromium() -> str:
    path = chromium_path()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is not installed and CI is set (make test installs it)")
        pytest.skip("browser tests skipped: Chromium not found (apt-get install chromium)")
    return path


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("web")).start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="session")
def browser(chromium: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@dataclass
class Console:
    """Everything the browser logged; errors fail the test."""

    messages: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


@pytest.fixture
def open_page(browser: Any, server: Server) -> Iterator[Callable[..., Any]]:
    """``open_page(viewport, phone=False)``: a fresh browser context and page on the lobby."""
    contexts: list[Any] = []
    consoles: list[Console] = []

    def make(viewport: dict[str, int] = DESKTOP, phone: bool = False, lang: str = "en") -> Any:
        context = browser.new_context(
            viewport=viewport,
            is_mobile=phone,
            has_touch=phone,
            device_scale_factor=2 if phone else 1,
            locale={"en": "en-US", "it": "it-IT"}.get(lang, lang),
        )
        contexts.append(context)
        page = context.new_page()
        console = Console()
        consoles.append(console)

        def on_console(message: Any) -> None:
            console.messages.append(f"{message.type}: {message.text}")
            if message.type == "error":
                console.errors.append(message.text)

        page.on("console", on_console)
        page.on("pageerror", lambda error: console.errors.append(f"page error: {error}"))
        page.set_default_timeout(15_000)
        page.goto(server.url + "/")
        page.wait_for_selector("html[data-ready]")
        page.console = console
        return page

    yield make
    for context in contexts:
        context.close()
    errors = [e for c in consoles for e in c.errors]
    assert not errors, f"browser console errors: {errors}"
