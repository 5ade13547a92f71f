"""Helpers for the terminal client's tests: a real server (tests.server.helpers),
a scripted opponent on its own websocket, and bounded waits on the app."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import websockets

from server.helpers import Server, free_port, table

__all__ = ["Opponent", "Server", "free_port", "screenshot", "table", "until"]

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def screenshot(app: Any, name: str) -> None:
    """With ``DRAWPOKER_SCREENSHOTS=1`` (scripts/screenshots.py), save the screen as
    docs/screenshots/<name>.svg."""
    if os.environ.get("DRAWPOKER_SCREENSHOTS"):
        app.save_screenshot(f"{name}.svg", path=str(SCREENSHOTS))


async def until(
    pilot: Any, pred: Callable[[], bool], timeout: float = 20.0, what: str = ""
) -> None:
    """Let the app run until ``pred()`` holds (bounded in time); on a timeout, say what
    the client's current table shows."""
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            app = pilot.app
            model = app.tables.get(app.current_table or "")
            state = ""
            if model is not None:
                state = (
                    f" (you {model.you}, to act {model.to_act}, legal {model.legal}, "
                    f"street {model.street}, connection {app.connection}; log: "
                    + " | ".join(model.log[-25:])
                    + ")"
                )
            raise AssertionError(f"timed out waiting for {what or pred}{state}")
        await pilot.pause(0.05)


class Opponent:
    """A guest who sits at a table and always checks or calls and stands pat, so that
    every hand the client does not fold goes to a showdown. It reconnects (and
    resubscribes) when the server restarts. ``chat`` collects the chat it sees."""

    def __init__(
        self, server: Server, table_id: str, seat: int, buy_in: int = 200, think: float = 0.0
    ) -> None:
        self.server = server
        self.think = think  # seconds before each answer
        self.table = table_id
        self.seat = seat
        self.buy_in = buy_in
        self.token = ""
        self.name = ""
        self.chat: list[tuple[str, str]] = []
        self.hands = 0
        self._task: asyncio.Task[None] | None = None
        self._counter = 0
        self._seated = False

    async def start(self) -> Opponent:
        async with httpx.AsyncClient() as http:
            data = (await http.post(self.server.url + "/api/guest", timeout=10)).json()
        self.token, self.name = data["token"], data["name"]
        self._task = asyncio.create_task(self._run())
        return self

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _run(self) -> None:
        for _attempt in range(200):  # bounded: about a minute of reconnecting
            try:
                url = f"{self.server.ws_url}?token={self.token}"
                async with websockets.connect(url, max_size=None) as ws:
                    await self._play(ws)
            except (OSError, websockets.ConnectionClosed, websockets.InvalidHandshake):
                pass
            await asyncio.sleep(0.3)

    async def _send(self, ws: Any, message: dict[str, Any]) -> None:
        self._counter += 1
        await ws.send(json.dumps({"id": f"o{self._counter}", **message}))

    async def _play(self, ws: Any) -> None:
        await self._send(ws, {"type": "subscribe", "table": self.table})
        if not self._seated:
            sit = {"type": "sit", "table": self.table, "seat": self.seat, "buy_in": self.buy_in}
            await self._send(ws, sit)
            self._seated = True
        async for message in ws:
            for line in message.split("\n"):
                frame = json.loads(line)
                if frame.get("type") != "event":
                    continue
                event = frame["event"]
                if event["type"] == "Chat":
                    self.chat.append((event["name"], event["text"]))
                elif event["type"] == "HandStarted":
                    self.hands += 1
                elif event["type"] == "Legal":
                    await self._answer(ws, event)

    async def _answer(self, ws: Any, event: dict[str, Any]) -> None:
        legal = event["legal"]
        if self.think:
            await asyncio.sleep(self.think)
        self._counter += 1
        base = {"table": self.table, "hand_id": event["hand_id"], "action_id": f"a{self._counter}"}
        if legal.get("draw"):
            await self._send(ws, {"type": "draw", **base, "discard": []})
        elif legal.get("check"):
            await self._send(ws, {"type": "act", **base, "action": "check"})
        elif legal.get("call"):
            await self._send(ws, {"type": "act", **base, "action": "call"})
        elif legal.get("ask_openers") is not None and legal.get("ask_openers"):
            await self._send(ws, {"type": "act", **base, "action": "decline"})
