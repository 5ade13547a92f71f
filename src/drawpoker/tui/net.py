"""The client's two channels to the server: ``Session`` (the REST API: log in,
register, guest, balance, tournaments, hand histories) and ``Link`` (the
websocket, through ``drawpoker.protocol``'s codec).

``Link`` reconnects by itself: when the socket drops or the server restarts it
tries again (0.2 s, doubling to 2 s), then resends the lobby subscription and
resubscribes every watched table with the last version seen and the table's
epoch, so the server replays what was missed (or sends a fresh snapshot after a
restart). httpx and websockets are imported on first use, not at start-up.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from drawpoker.protocol.codec import encode_text, frames

if TYPE_CHECKING:
    import httpx
    from websockets.asyncio.client import ClientConnection

    from drawpoker.protocol.client import ClientMessage

log = logging.getLogger("drawpoker.tui")

RETRY_FIRST_S = 0.2
RETRY_MAX_S = 2.0


class ServerRefused(Exception):
    """The server answered a request with an error (``status``, the sentence)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class Session:
    """The REST side: a session token (``Authorization: Bearer``) and the account."""

    def __init__(self, server: str) -> None:
        self.server = server.rstrip("/")
        self.token: str | None = None
        self.account: dict[str, Any] = {}
        self._http: httpx.AsyncClient | None = None

    @property
    def ws_url(self) -> str:
        base = self.server.replace("https://", "wss://", 1).replace("http://", "ws://", 1)
        return base + "/ws"

    def _client(self) -> httpx.AsyncClient:
        if self._http is None:
            import httpx

            self._http = httpx.AsyncClient(base_url=self.server, timeout=10.0)
        return self._http

    async def close(self) -> None:
        if self._http is not None:
            await self._http.aclose()
            self._http = None

    async def request(self, method: str, path: str, body: Any = None) -> Any:
        import httpx

        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        try:
            response = await self._client().request(method, path, json=body, headers=headers)
        except httpx.HTTPError as error:
            raise ServerRefused(0, f"{self.server}: {error or type(error).__name__}") from None
        try:
            data = response.json()
        except ValueError:
            data = {}
        if response.status_code >= 400:
            message = data.get("error") if isinstance(data, dict) else None
            raise ServerRefused(response.status_code, str(message or response.reason_phrase))
        return data

    async def _enter(self, path: str, body: Any = None) -> dict[str, Any]:
        data: dict[str, Any] = await self.request("POST", path, body)
        self.token = str(data["token"])
        self.account = {"id": data.get("id"), "name": data.get("name")}
        return data

    async def guest(self) -> dict[str, Any]:
        return await self._enter("/api/guest")

    async def login(self, name: str, password: str) -> dict[str, Any]:
        return await self._enter("/api/login", {"name": name, "password": password})

    async def register(self, name: str, password: str) -> dict[str, Any]:
        return await self._enter("/api/register", {"name": name, "password": password})

    async def me(self) -> dict[str, Any]:
        data: dict[str, Any] = await self.request("GET", "/api/me")
        return data

    async def hands(self) -> list[dict[str, Any]]:
        data = await self.request("GET", "/api/hands")
        return list(data.get("hands", []))

    async def hand(self, hand_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """A finished hand's events as I may see them, and who sat where."""
        detail = await self.request("GET", f"/api/hands/{hand_id}")
        seats = await self.request("GET", f"/api/hands/{hand_id}/seats")
        return detail, seats

    async def tournament(self, tid: str) -> dict[str, Any]:
        data: dict[str, Any] = await self.request("GET", f"/api/tournaments/{tid}")
        return data

    async def register_tournament(self, tid: str) -> dict[str, Any]:
        data: dict[str, Any] = await self.request("POST", f"/api/tournaments/{tid}/register")
        return data

    async def unregister_tournament(self, tid: str) -> dict[str, Any]:
        data: dict[str, Any] = await self.request("POST", f"/api/tournaments/{tid}/unregister")
        return data


class Link:
    """One websocket, kept open. ``on_frame`` gets every frame as a dict (a frame that
    is not JSON is logged and skipped); ``on_state`` gets ``"online"`` or
    ``"offline"``; ``resume`` gives the subscriptions to send again after a
    reconnection (``(table, since, epoch)``)."""

    def __init__(
        self,
        session: Session,
        on_frame: Callable[[dict[str, Any]], None],
        on_state: Callable[[str], None],
        resume: Callable[[], list[tuple[str, int | None, str | None]]],
    ) -> None:
        self.session = session
        self.on_frame = on_frame
        self.on_state = on_state
        self.resume = resume
        self.lobby: dict[str, Any] | None = None  # the lobby subscription, resent on reconnect
        self.channels: set[str] = set()  # tournament channels, resubscribed on reconnect
        self.online = False
        self.connects = 0
        self._ws: ClientConnection | None = None
        self._task: asyncio.Task[None] | None = None
        self._ids = itertools.count(1)
        self._closing = False

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        self._closing = True
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None

    async def drop(self) -> None:
        """Close the socket as a network failure would (it reconnects by itself)."""
        if self._ws is not None:
            await self._ws.close(code=4000, reason="dropped")

    async def _run(self) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

        delay = RETRY_FIRST_S
        while not self._closing:
            url = self.session.ws_url
            if self.session.token:
                url += f"?token={self.session.token}"
            try:
                async with connect(url, max_size=None, open_timeout=5) as ws:
                    self._ws = ws
                    self.connects += 1
                    delay = RETRY_FIRST_S
                    await self._resubscribe()
                    self.online = True
                    self.on_state("online")
                    async for message in ws:
                        self._receive(message)
            except (OSError, ConnectionClosed, InvalidHandshake, InvalidURI, TimeoutError) as error:
                log.info("connection lost: %s", error)
            except Exception:  # whatever else breaks a connection, try again
                log.exception("connection failed")
            finally:
                self._ws = None
                if self.online:
                    self.online = False
                    self.on_state("offline")
            if self._closing:
                return
            await asyncio.sleep(delay)
            delay = min(delay * 2, RETRY_MAX_S)

    def _receive(self, message: str | bytes) -> None:
        text = message.decode("utf-8", "replace") if isinstance(message, bytes) else message
        for line in frames(text):
            try:
                frame = json.loads(line)
            except ValueError:
                log.warning("a frame that is not JSON: %.200s", line)
                continue
            if not isinstance(frame, dict):
                log.warning("a frame that is not an object: %.200s", line)
                continue
            try:
                self.on_frame(frame)
            except Exception:  # a frame this client cannot draw must never end it
                log.exception("could not handle the frame %.300s", line)

    async def _resubscribe(self) -> None:
        ws = self._ws
        assert ws is not None
        if self.lobby is not None:
            await ws.send(json.dumps({"type": "lobby", **self.lobby}))
        for table, since, epoch in self.resume():
            message: dict[str, Any] = {"type": "subscribe", "table": table}
            if since is not None and epoch:
                message.update(since=since, epoch=epoch)
            await ws.send(json.dumps(message))
        for channel in sorted(self.channels):
            await ws.send(json.dumps({"type": "subscribe", "table": channel}))

    def next_id(self) -> str:
        return f"t{next(self._ids)}"

    async def send(self, message: ClientMessage) -> bool:
        """Send one message; False when offline (the caller may try again later)."""
        ws = self._ws
        if ws is None:
            return False
        try:
            await ws.send(encode_text(message))
        except Exception as error:  # a socket closing under us: the run loop reconnects
            log.info("send failed: %s", error)
            return False
        return True
