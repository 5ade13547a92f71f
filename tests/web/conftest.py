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
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from server.helpers import Server  # the server tests' launcher (tests/ is on sys.path)

from .helpers import DESKTOP, ROOT

AXE_VERSION = "4.10.3"
AXE_DIR = ROOT / ".venv" / "axe"  # npm installs the package here at test time (not committed)

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


def italian_on_request(table_id: str) -> dict[str, Any]:
    """An Italian table where the players may ask to see the openers (R48)."""
    return {
        "id": table_id,
        "name": f"Test {table_id}",
        "rules": {
            "preset": "italian",
            "invito": 10,
            "max_seats": 6,
            "openers_check": "on_request",
            "false_opener_penalty": 50,
        },
        "min_buy_in": 200,
        "max_buy_in": 1000,
        "action_time_s": 30.0,
        "between_hands_s": 0.8,
        "bots": 2,
        "bot_think_s": [0.05, 0.15],
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
    cash_table("console-ban", structure="pot-limit", blinds=3),
    cash_table("reports", structure="pot-limit", blinds=3),
    {
        "id": "italian",
        "name": "Test italian",
        "rules": {"preset": "italian", "invito": 10, "max_seats": 6},
        "min_buy_in": 200,
        "max_buy_in": 1000,
        "bots": 2,
        "bot_think_s": [0.05, 0.15],
    },
    # R48: openers on request, a fixed penalty; one table per screen.
    *(italian_on_request(f"ask-{screen}") for screen in ("desktop", "phone")),
]


def sit_and_go(tournament_id: str, **extra: Any) -> dict[str, Any]:
    """A sit & go for the room file (the fields of the server's tournament spec)."""
    return {
        "id": tournament_id,
        "name": f"Test {tournament_id}",
        "buy_in": 100,
        "fee": 10,
        "starting_stack": 1000,
        "max_entries": 6,
        "seats_per_table": 6,
        "level_minutes": 5.0,
        **extra,
    }


TOURNAMENTS = [
    # Nobody else registers: a test registers and unregisters.
    sit_and_go("sng-lobby", name="Test lobby sit & go"),
    # Scheduled in an hour: the lobby shows the start time and a countdown.
    sit_and_go(
        "mtt-later",
        name="Test scheduled",
        kind="scheduled",
        max_entries=18,
        first_start_s=3600.0,
        start_every_minutes=60.0,
    ),
    # Dearer than any guest's balance: the server refuses the registration.
    sit_and_go("sng-dear", name="Test high roller", buy_in=1_000_000, fee=0),
    # Three entries, two quick bots: the browser player fills it and plays it out.
    sit_and_go(
        "sng-play",
        name="Test turbo",
        max_entries=3,
        seats_per_table=3,
        starting_stack=200,
        levels=[[5, 10, 0, 0.15], [10, 20, 0, 0.15], [25, 50, 0, 0.15], [50, 100, 0, 5]],
        bots=2,
        bot_register_s=0.2,
        bot_think_s=0.02,
        between_hands_s=0.5,
        action_time_s=30.0,
    ),
]


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
    srv = Server(tmp_path_factory.mktemp("web"), None, ROOM)
    srv.room.write_text(json.dumps({"tables": ROOM, "tournaments": TOURNAMENTS}))
    srv.start()
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
    """Everything the browser logged; errors fail the test, except those a test
    expects (``allow``: a server refusal that the browser logs as a failed load)."""

    messages: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    allowed: list[str] = field(default_factory=list)

    def allow(self, text: str) -> None:
        self.allowed.append(text)

    def unexpected(self) -> list[str]:
        return [e for e in self.errors if not any(a in e for a in self.allowed)]


def _pages(browser: Any, server: Server) -> Iterator[Callable[..., Any]]:
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
    errors = [e for c in consoles for e in c.unexpected()]
    assert not errors, f"browser console errors: {errors}"


@pytest.fixture
def open_page(browser: Any, server: Server) -> Iterator[Callable[..., Any]]:
    """``open_page(viewport, phone=False)``: a fresh browser context and page on the lobby."""
    yield from _pages(browser, server)


@pytest.fixture(scope="module")
def screen(browser: Any, server: Server) -> Iterator[Callable[..., Any]]:
    """``screen(viewport, phone=False)``: one page per screen for a whole test module
    (tests that only mount tables on it share it; console errors fail the module)."""
    opened: dict[tuple[int, int, bool], Any] = {}
    pages = _pages(browser, server)
    make = next(pages)

    def get(viewport: dict[str, int] = DESKTOP, phone: bool = False) -> Any:
        key = (viewport["width"], viewport["height"], phone)
        if key not in opened:
            opened[key] = make(viewport, phone)
        page = opened[key]
        if page.evaluate("document.documentElement.lang") != "en":
            page.evaluate("window.drawpoker.setLanguage('en')")
            page.wait_for_selector("html[lang=en]")
        return page

    yield get
    for _ in pages:  # closes the pages and checks their consoles
        pass


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe-core (the npm package), installed into ``.venv/axe`` on first use."""
    script = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
    if not script.exists():
        npm = shutil.which("npm")
        if npm is None:
            if os.environ.get("CI"):
                pytest.fail("npm is needed to install axe-core for the accessibility check")
            pytest.skip("accessibility check skipped: npm not found")
        AXE_DIR.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            [npm, "install", "--prefix", str(AXE_DIR), f"axe-core@{AXE_VERSION}", "--no-audit",
             "--no-fund", "--silent"],
            capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        if done.returncode != 0 or not script.exists():
            pytest.fail(f"npm could not install axe-core: {done.stderr[-2000:]}")
    return script.read_text("utf-8")
