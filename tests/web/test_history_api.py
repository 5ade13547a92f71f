"""Hand-history downloads and deal verification for the replayer (``history_api``),
against a real server: a guest plays hands over the websocket, then downloads them."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
import websockets

from drawpoker.history import phh


async def play_hands(url: str, token: str, table: str, hands: int) -> list[str]:
    """Sit down, check, call or discard two until ``hands`` hands have ended; leave."""
    finished: list[str] = []
    ws_url = url.replace("http", "ws") + f"/ws?token={token}"
    async with websockets.connect(ws_url) as ws:
        await ws.send(json.dumps({"type": "sit", "table": table, "seat": 4, "buy_in": 200}))
        count = 0
        current = ""
        while len(finished) < hands:
            message = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if message.get("type") != "event":
                continue
            event = message["event"]
            if event["type"] == "HandStarted":
                dealt = any(seat == 4 for seat, _ in event["stacks"])
                current = event["hand_id"] if dealt else ""
            if event["type"] == "HandEnded" and current:
                finished.append(current)
            if event["type"] != "Legal":
                continue
            legal, count = event["legal"], count + 1
            base = {"table": table, "hand_id": event["hand_id"], "action_id": f"a{count}"}
            if legal["draw"]:
                await ws.send(json.dumps({**base, "type": "draw", "discard": legal["hand"][:2]}))
            else:
                action = "check" if legal["check"] else "call"
                await ws.send(json.dumps({**base, "type": "act", "action": action}))
        await ws.send(json.dumps({"type": "leave", "table": table, "id": "bye"}))
        while json.loads(await asyncio.wait_for(ws.recv(), 30)).get("ref") != "bye":
            pass
    return finished


@pytest.fixture(scope="module")
def played(server: Any) -> tuple[dict[str, Any], list[str]]:
    """A guest who played two hands at the table ``history`` and left."""
    guest: dict[str, Any] = httpx.post(server.url + "/api/guest", timeout=10).json()
    # In a thread of its own: Playwright's sync API may hold this thread's event loop.
    with ThreadPoolExecutor(1) as pool:
        hands = pool.submit(
            lambda: asyncio.run(play_hands(server.url, guest["token"], "history", 2))
        )
        return guest, hands.result()


def test_a_player_downloads_and_verifies_their_hands(
    server: Any, played: tuple[dict[str, Any], list[str]]
) -> None:
    guest, hands = played
    cookies = {"dp_session": guest["token"]}
    listed = httpx.get(server.url + "/api/hands", cookies=cookies, timeout=10).json()["hands"]
    mine = {h["id"] for h in listed}
    assert set(hands) <= mine
    hand_id = hands[-1]

    text = httpx.get(f"{server.url}/api/hands/{hand_id}/pokerstars", cookies=cookies, timeout=10)
    assert text.status_code == 200
    assert "attachment" in text.headers["content-disposition"]
    assert "5 Card Draw" in text.text
    assert guest["name"] in text.text
    assert "Dealt to " + guest["name"] in text.text

    document = httpx.get(f"{server.url}/api/hands/{hand_id}/phh", cookies=cookies, timeout=10)
    assert document.status_code == 200
    data = phh.loads(document.text)
    assert data["_seed"]
    assert data["_commitment"]

    verdict = httpx.get(f"{server.url}/api/hands/{hand_id}/verify", cookies=cookies, timeout=10)
    body = verdict.json()
    assert body["ok"] is True, body
    assert body["cards"] >= 15
    assert body["seed"] == data["_seed"]

    # The seed in the PHH is the one the table revealed, and it matches the commitment.
    detail = httpx.get(f"{server.url}/api/hands/{hand_id}", cookies=cookies, timeout=10).json()
    revealed = [e["seed"] for e in detail["events"] if e["type"] == "DeckRevealed"]
    assert revealed == [data["_seed"]]
    assert detail["commitment"] == data["_commitment"]

    seats = httpx.get(f"{server.url}/api/hands/{hand_id}/seats", cookies=cookies, timeout=10)
    assert seats.json()["you"] == 4
    assert seats.json()["names"]["4"] == guest["name"]
    assert len(seats.json()["names"]) == 3


@pytest.mark.parametrize("path", ["pokerstars", "phh", "verify", "seats"])
def test_only_players_of_the_hand_may_download_it(
    server: Any, played: tuple[dict[str, Any], list[str]], path: str
) -> None:
    owner, hands = played
    hand_id = hands[0]
    nobody = httpx.get(f"{server.url}/api/hands/{hand_id}/{path}", timeout=10)
    assert nobody.status_code == 401
    stranger = httpx.post(server.url + "/api/guest", timeout=10).json()
    other = httpx.get(
        f"{server.url}/api/hands/{hand_id}/{path}",
        cookies={"dp_session": stranger["token"]},
        timeout=10,
    )
    assert other.status_code == 403
    missing = httpx.get(
        f"{server.url}/api/hands/no-such-hand/{path}",
        cookies={"dp_session": owner["token"]},
        timeout=10,
    )
    assert missing.status_code == 404
