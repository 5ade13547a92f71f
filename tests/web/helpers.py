"""Shared constants and helpers for the browser tests."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "docs" / "screenshots"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def screenshot(page: Any, name: str) -> None:
    """Save ``docs/screenshots/<name>.png`` when ``DRAWPOKER_SCREENSHOTS`` is ``1``
    (another value: the folder to save in)."""
    where = os.environ.get("DRAWPOKER_SCREENSHOTS")
    if where:
        folder = SCREENSHOTS if where == "1" else Path(where)
        folder.mkdir(parents=True, exist_ok=True)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(folder / f"{name}.png"))


def wait_for_js(page: Any, expression: str, timeout: float = 30_000) -> None:
    """Wait until a JavaScript expression is true in the page, as
    ``page.wait_for_function`` would, without asking the page to evaluate a string
    (the server's Content-Security-Policy forbids ``eval``): polls ``page.evaluate``."""
    deadline = time.monotonic() + timeout / 1000
    while not page.evaluate(f"Boolean({expression})"):
        if time.monotonic() > deadline:
            raise TimeoutError(f"still false after {timeout:.0f} ms: {expression}")
        time.sleep(0.05)


def load_axe(page: Any, source: str) -> None:
    """axe-core into the page from the test (the page's policy allows no inline
    script, rightly: the test's own evaluation is not the page's)."""
    page.evaluate(source + "\n;0")
