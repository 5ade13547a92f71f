"""Attacks on the websocket of a real server: other origins, the cookie without
an Origin, too many sockets per account and per address, messages too large
or nested too deep (127.0.0.1 only; every loop bounded)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets
from websockets.exceptions import ConnectionClosed, InvalidStatus

from .helpers import Server, table

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = Server(tmp_path_factory.mktemp("ws"), None, [table("t1")]).start()
    try:
        yield server
    finally:
        server.stop()
        log = server.log.read_text(errors="replace")
        assert "Traceback" not in log, log[-3000:]
        assert "RecursionError" not in log


def guest_from(server: Server, address: str) -> dict[str, Any]:
    transport = httpx.HTTPTransport(local_address=address)
    with httpx.Client(base_url=server.url, timeout=10, transport=transport) as c:
        data: dict[str, Any] = c.post("/api/guest").json()
        return data


async def open_ws(
    server: Server,
    *,
    address: str,
    token: str | None = None,
    cookie: str | None = None,
    origin: str | None = None,
) -> Any:
    url = server.ws_url + (f"?token={token}" if token else "")
    headers = {"Cookie": f"dp_session={cookie}"} if cookie else {}
    return await websockets.connect(
        url,
        origin=origin,
        additional_headers=headers,
        local_addr=(address, 0),
        max_size=None,
        open_timeout=10,
    )


async def welcome(ws: Any) -> dict[str, Any]:
    frame: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
    assert frame["type"] == "welcome", frame
    return frame


async def refused(server: Server, status: int, **kwargs: Any) -> str:
    with pytest.raises(InvalidStatus) as caught:
        await open_ws(server, **kwargs)
    response = caught.value.response
    assert response.status_code == status, response
    return bytes(response.body or b"").decode()


def test_cross_site_websocket_hijacking_is_refused(server: Server) -> None:
    """Before: a page of another site opened the websocket with the player's cookie
    and played for them."""
    guest = guest_from(server, "127.0.10.1")
    own = f"http://127.0.0.1:{server.port}"

    async def run() -> None:
        why = await refused(
            server, 403, address="127.0.10.1", cookie=guest["token"], origin="http://evil.example"
        )
        assert "cross-origin" in why
        await refused(server, 403, address="127.0.10.1", cookie=guest["token"], origin="null")
        # No Origin (not a browser page) with only the cookie: a program sends its token.
        why = await refused(server, 403, address="127.0.10.1", cookie=guest["token"])
        assert "token" in why
        # The site's own page, with the cookie: welcome, logged in.
        ws = await open_ws(server, address="127.0.10.1", cookie=guest["token"], origin=own)
        assert (await welcome(ws))["account"]["name"] == guest["name"]
        await ws.close()
        # A program with its token, no Origin: welcome, logged in.
        ws = await open_ws(server, address="127.0.10.1", token=guest["token"])
        assert (await welcome(ws))["account"]["name"] == guest["name"]
        await ws.close()
        # Nobody logged in, no Origin: a spectator.
        ws = await open_ws(server, address="127.0.10.1")
        assert (await welcome(ws))["account"] is None
        await ws.close()

    asyncio.run(run())


def test_websockets_are_capped_per_account_and_per_address(server: Server) -> None:
    guest = guest_from(server, "127.0.11.1")

    async def run() -> None:
        mine = [await open_ws(server, address="127.0.11.1", token=guest["token"]) for _ in range(8)]
        why = await refused(server, 429, address="127.0.11.2", token=guest["token"])
        assert "your account" in why
        await mine.pop().close()
        await asyncio.sleep(0.3)
        mine.append(await open_ws(server, address="127.0.11.2", token=guest["token"]))
        await welcome(mine[-1])
        spectators = [await open_ws(server, address="127.0.11.3") for _ in range(128)]
        why = await refused(server, 429, address="127.0.11.3")
        assert "your address" in why
        other = await open_ws(server, address="127.0.11.4")  # another address is served
        await welcome(other)
        for ws in [*mine, *spectators, other]:
            await ws.close()

    asyncio.run(run())


def test_deep_and_large_messages_are_refused_and_the_connection_lives(server: Server) -> None:
    """JSON nested thousands of levels deep once raised an uncaught RecursionError
    (the connection closed, a traceback logged per message)."""

    async def run() -> None:
        ws = await open_ws(server, address="127.0.12.1")
        await welcome(ws)
        frames = [
            ("[" * 2000 + "]" * 2000, "too_deep"),
            ('{"type":"ping","id":"d1","x":' + "[" * 1500 + "]" * 1500 + "}", "too_deep"),
            (
                '{"type":"chat","table":"t1","text":' + '{"a":' * 600 + "1" + "}" * 600 + "}",
                "too_deep",
            ),
            ("[" * 4000, "too_deep"),
            ('{"type":"chat","table":"t1","text":"' + "x" * 100_000 + '"}', "too_large"),
            ("[" * 60_000 + "]" * 60_000, "too_large"),
        ]
        for text, code in frames:
            await ws.send(text)
            reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert reply["type"] == "error", reply
            assert reply["code"] == code, reply
        await ws.send(b"[" * 3000)  # a binary frame, too
        assert json.loads(await asyncio.wait_for(ws.recv(), 10))["code"] == "too_deep"
        await ws.send(json.dumps({"type": "ping", "id": "alive"}))
        assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "pong"
        # Over the websocket's size cap the connection is closed (1009).
        await ws.send("x" * 200_000)
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), 10)
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == 1009

    asyncio.run(run())
    assert httpx.get(server.url + "/health", timeout=5).status_code == 200
