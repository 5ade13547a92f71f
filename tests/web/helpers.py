"""Shared constants and helpers for the browser tests."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "docs" / "screenshots"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def screenshot(page: Any, name: str) -> None:
    """Save ``docs/screenshots/<name>.png`` when ``DRAWPOKER_SCREENSHOTS`` is set."""
    if os.environ.get("DRAWPOKER_SCREENSHOTS"):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))
