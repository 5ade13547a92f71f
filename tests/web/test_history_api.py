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
from drawpoker.server.history_api import my_view, reveals_seed


async def play_hands(url: str, token: str, table: str, hands: int) -> list[str]:
    """Sit down, check, call or discard two until ``hands`` hands have ended; leave."""
    finished: list[str] = []
    ws_url = url.replace("http", "ws") + f"/ws?token={token}"
    async with websockets.connect(ws_url) as ws:
        await ws.send(json.dumps({"type": "sit", "table": table, "seat": 4, "buy_in": 200}))
        count = 0
        current = ""
        pending: list[str] = []
        while len(finished) < hands:
            if not pending:  # a websocket message carries one or more frames, a line each
                pending = str(await asyncio.wait_for(ws.recv(), 30)).split("\n")
            message = json.loads(pending.pop(0))
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
        while not any(
            json.loads(line).get("ref") == "bye"
            for line in str(await asyncio.wait_for(ws.recv(), 30)).split("\n")
        ):
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
    row = next(h for h in listed if h["id"] == hand_id)
    assert row["table_name"] == "Test history"
    assert row["facts"] == {
        "game": "draw", "structure": "no-limit", "small_blind": 1, "big_blind": 2,
        "small_bet": None, "big_bet": None, "ante": 0, "invito": None, "openers": None,
        "max_seats": 6,
    }  # fmt: skip
    assert row["tournament"] is None
    # My cards at the end, as I saw them: the ones I kept and the two I drew.
    events = httpx.get(f"{server.url}/api/hands/{hand_id}", cookies=cookies, timeout=10).json()
    received = [e["cards"] for e in events["events"] if e["type"] == "CardsReceived"]
    thrown = [e["cards"] for e in events["events"] if e["type"] == "DiscardedCards"]
    assert len(row["cards"]) == 5, row
    assert set(received[-1]) <= set(row["cards"])
    assert not set(thrown[0]) & set(row["cards"])
    assert row["folded"] is False

    text = httpx.get(f"{server.url}/api/hands/{hand_id}/pokerstars", cookies=cookies, timeout=10)
    assert text.status_code == 200
    assert "attachment" in text.headers["content-disposition"]
    assert "5 Card Draw" in text.text
    assert guest["name"] in text.text
    assert "Dealt to " + guest["name"] in text.text

    document = httpx.get(f"{server.url}/api/hands/{hand_id}/phh", cookies=cookies, timeout=10)
    assert document.status_code == 200
    data = phh.loads(document.text)
    assert "_seed" not in data  # it would rebuild the other players' folded hands
    assert data["_commitment"]
    mine = {o["card"] for o in data["_openings"] if o["seat"] == 4}
    assert set(received[0]) <= mine

    verdict = httpx.get(f"{server.url}/api/hands/{hand_id}/verify", cookies=cookies, timeout=10)
    body = verdict.json()
    assert body["ok"] is True, body
    assert body["opened"] >= 7  # five dealt, two drawn
    assert body["seed"] is None

    # The JSON history: my events and the public ones, the openings, no seed.
    detail = httpx.get(f"{server.url}/api/hands/{hand_id}", cookies=cookies, timeout=10).json()
    assert not [e for e in detail["events"] if e["type"] == "DeckRevealed"]
    assert detail["commitment"] == data["_commitment"]
    assert detail["openings"] == data["_openings"]

    seats = httpx.get(f"{server.url}/api/hands/{hand_id}/seats", cookies=cookies, timeout=10)
    assert seats.json()["you"] == 4
    assert seats.json()["names"]["4"] == guest["name"]
    assert len(seats.json()["names"]) == 3


@pytest.mark.parametrize("path", ["", "/pokerstars", "/phh", "/verify", "/seats"])
def test_only_players_of_the_hand_may_download_it(
    server: Any, played: tuple[dict[str, Any], list[str]], path: str
) -> None:
    owner, hands = played
    hand_id = hands[0]
    nobody = httpx.get(f"{server.url}/api/hands/{hand_id}{path}", timeout=10)
    assert nobody.status_code == 401
    stranger = httpx.post(server.url + "/api/guest", timeout=10).json()
    other = httpx.get(
        f"{server.url}/api/hands/{hand_id}{path}",
        cookies={"dp_session": stranger["token"]},
        timeout=10,
    )
    # Not 403: a stranger learns neither the hand nor that it exists.
    assert other.status_code == 404
    missing = httpx.get(
        f"{server.url}/api/hands/no-such-hand{path}",
        cookies={"dp_session": owner["token"]},
        timeout=10,
    )
    assert missing.status_code == 404


def test_my_hands_page_by_page(server: Any, played: tuple[dict[str, Any], list[str]]) -> None:
    guest, hands = played
    cookies = {"dp_session": guest["token"]}
    first = httpx.get(server.url + "/api/hands?limit=1", cookies=cookies, timeout=10).json()
    assert [h["id"] for h in first["hands"]] == [hands[-1]]
    older = httpx.get(
        f"{server.url}/api/hands?limit=5&before={first['hands'][0]['started_at']}",
        cookies=cookies,
        timeout=10,
    ).json()["hands"]
    assert hands[0] in [h["id"] for h in older]
    assert hands[-1] not in [h["id"] for h in older]
    bad = httpx.get(server.url + "/api/hands?limit=many", cookies=cookies, timeout=10)
    assert bad.status_code == 400


def test_my_view_of_a_stored_hand() -> None:
    """The cards at the end of a hand as its player saw them (replacements where the
    discards were), what they showed, whether they folded; others' entries ignored."""
    me, other = 3, 5
    history = [
        [me, {"type": "CardsReceived", "seat": me, "cards": ["Ah", "Kd", "7c", "7s", "2h"]}],
        [other, {"type": "CardsReceived", "seat": other, "cards": ["Qs", "Qd", "3c", "4c", "5c"]}],
        [me, {"type": "DiscardedCards", "seat": me, "cards": ["Kd", "2h"]}],
        [-1, {"type": "Discarded", "seat": me, "count": 2}],
        [me, {"type": "CardsReceived", "seat": me, "cards": ["7d", "9s"]}],
        [-1, {"type": "HandShown", "seat": other, "cards": ["Qs"], "description": "x"}],
    ]
    assert my_view(history, me) == {
        "cards": ["Ah", "7d", "7c", "7s", "9s"], "shown": None, "folded": False,
    }  # fmt: skip
    shown = [*history, [-1, {"type": "HandShown", "seat": me,
                             "cards": ["Ah", "7d", "7c", "7s", "9s"],
                             "description": "three of a kind, Sevens"}]]  # fmt: skip
    assert my_view(shown, me)["shown"] == "three of a kind, Sevens"
    folded = [history[0], [-1, {"type": "Folded", "seat": me}]]
    assert my_view(folded, me) == {
        "cards": ["Ah", "Kd", "7c", "7s", "2h"], "shown": None, "folded": True,
    }  # fmt: skip
    assert my_view(history, 4) == {"cards": [], "shown": None, "folded": False}


def test_a_hands_seed_goes_into_its_files_only_if_its_table_revealed_it() -> None:
    """Turning ``reveal_seed`` on later reveals nothing of the hands played before
    (their histories hold no public ``DeckRevealed``); turning it off hides at once;
    tournament hands never carry it."""
    on, off = json.dumps({"reveal_seed": True}), json.dumps({"reveal_seed": False})
    revealed = [[-1, {"type": "HandStarted"}], [-1, {"type": "DeckRevealed", "seed": "ab"}]]
    private = [[-1, {"type": "HandStarted"}], [-1, {"type": "HandEnded"}]]
    assert reveals_seed(on, None, revealed)
    assert not reveals_seed(on, None, private)
    assert not reveals_seed(off, None, revealed)
    assert not reveals_seed(on, json.dumps({"id": "cup"}), revealed)
    assert not reveals_seed(None, None, revealed)
