"""REST accounts, the lobby, reconnection by version, pre-actions and hand histories."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from .helpers import Client, Server, table

pytestmark = pytest.mark.slow


def test_accounts_lobby_reconnect_preactions(tmp_path: Path, database: str | None) -> None:
    italian = table("it", seats=8)
    italian["rules"] = {"preset": "italian", "invito": 10, "max_seats": 8}
    server = Server(tmp_path, database, [table("hu", seats=2, action_time=30.0), italian]).start()
    try:
        _accounts(server)
        _lobby_rest(server)
        asyncio.run(_reconnect_and_preactions(server))
    finally:
        server.stop()


def _accounts(server: Server) -> None:
    url = server.url
    r = httpx.post(url + "/api/register", json={"name": "x", "password": "longenough"})
    assert r.status_code == 400
    assert "3 to 20 characters" in r.json()["error"]
    r = httpx.post(url + "/api/register", json={"name": "Alice", "password": "short"})
    assert r.status_code == 400
    assert "8 to 128" in r.json()["error"]
    r = httpx.post(url + "/api/register", json={"name": "Alice", "password": 12345678})
    assert r.status_code == 400
    r = httpx.post(url + "/api/register", json={"name": "Alice", "password": "correct horse"})
    assert r.status_code == 200, r.text
    cookie = r.headers["set-cookie"]
    assert "dp_session=" in cookie
    assert "HttpOnly" in cookie
    assert "SameSite=lax" in cookie
    token = r.cookies["dp_session"]
    assert (
        httpx.post(
            url + "/api/register", json={"name": "alice", "password": "another one"}
        ).status_code
        == 400
    )
    me = server.me(token)
    assert me["balance"] == 10_000
    assert me["name"] == "Alice"
    assert httpx.get(url + "/api/me").status_code == 401
    for _ in range(5):
        r = httpx.post(url + "/api/login", json={"name": "Alice", "password": "wrong horse"})
        assert r.status_code == 401
        assert r.json()["error"] == "wrong name or password"
    r = httpx.post(url + "/api/login", json={"name": "Alice", "password": "correct horse"})
    assert r.status_code == 429
    assert "too many failed log-ins" in r.json()["error"]
    r = httpx.post(url + "/api/login", json={"name": "Nobody", "password": "correct horse"})
    assert r.status_code == 401  # limits are per (name, address): another name may still try
    cookies = {"dp_session": token}
    r = httpx.post(url + "/api/daily-topup", cookies=cookies)
    assert r.json() == {"granted": 2000, "balance": 12_000}
    r = httpx.post(url + "/api/daily-topup", cookies=cookies)
    assert r.status_code == 400
    assert "already" in r.json()["error"]
    kinds = [
        t["kind"]
        for t in httpx.get(url + "/api/transactions", cookies=cookies).json()["transactions"]
    ]
    assert kinds == ["daily-topup", "welcome"]
    assert httpx.post(url + "/api/logout", cookies=cookies).status_code == 200
    assert httpx.get(url + "/api/me", cookies=cookies).status_code == 401


def _lobby_rest(server: Server) -> None:
    url = server.url
    tables = httpx.get(url + "/api/tables").json()["tables"]
    assert {t["id"] for t in tables} == {"hu", "it"}
    row = next(t for t in tables if t["id"] == "it")
    assert row["game"] == "italian"
    assert row["seats_total"] == 8
    for key in (
        "structure",
        "stakes",
        "seats_taken",
        "average_pot",
        "hands_per_hour",
        "players",
        "kind",
    ):
        assert key in row
    assert [t["id"] for t in httpx.get(url + "/api/tables?game=italian").json()["tables"]] == ["it"]
    assert [t["id"] for t in httpx.get(url + "/api/tables?seats=2").json()["tables"]] == ["hu"]
    assert httpx.get(url + "/api/tables?kind=tournament").json()["tables"] == []
    assert httpx.get(url + "/api/tables?stakes=1/2&game=draw").json()["tables"][0]["id"] == "hu"
    spec = httpx.get(url + "/openapi.json").json()
    assert "/api/tables" in spec["paths"]
    assert httpx.get(url + "/docs").status_code == 200
    assert "drawpoker" in httpx.get(url + "/").text


async def _reconnect_and_preactions(server: Server) -> None:
    ga, gb = server.guest(), server.guest()
    watcher = await Client(server, None, "lobby").connect()
    assert (await watcher.request({"type": "lobby", "game": "draw"}))["type"] == "ok"
    full = watcher.frames[-2]
    assert full["type"] == "lobby"
    assert [t["id"] for t in full["tables"]] == ["hu"]
    a = await Client(server, ga["token"], "a").connect()
    b = await Client(server, gb["token"], "b").connect()
    assert (await a.request({"type": "sit", "table": "hu", "seat": 1, "buy_in": 100}))[
        "type"
    ] == "ok"
    update = await watcher.wait(
        lambda f: f["type"] == "lobby" and not f["full"] and f["tables"][0]["seats_taken"] == 1
    )
    assert update["tables"][0]["players"] == [ga["name"]]
    assert (await b.request({"type": "sit", "table": "hu", "seat": 2, "buy_in": 100}))[
        "type"
    ] == "ok"
    # Heads-up: the button (small blind) acts first; find who is to act.
    turn = await a.wait(lambda f: f["type"] == "event" and f["event"]["type"] == "Turn")
    hand_id = turn["event"]["hand_id"]
    first, second = (a, b) if turn["event"]["seat"] == 1 else (b, a)
    # The second player leaves a check/fold pre-action; the first calls; the
    # wager did not change, so the pre-action checks at once (R25).
    ok = await second.request(
        {"type": "pre_action", "table": "hu", "hand_id": hand_id, "pre": "check_fold"}
    )
    assert ok["type"] == "ok", ok
    v_second = max(f["v"] for f in second.frames if f["type"] == "event")
    epoch = second.frames[[f["type"] for f in second.frames].index("snapshot")]["state"]["epoch"]
    await second.close()  # disconnect; the table goes on
    await first.wait(lambda f: f["type"] == "event" and f["event"]["type"] == "Legal")
    ok = await first.request(
        {"type": "act", "table": "hu", "hand_id": hand_id, "action_id": "c1", "action": "call"}
    )
    assert ok["type"] == "ok", ok
    draw_turn = await first.wait(
        lambda f: (
            f["type"] == "event" and f["event"]["type"] == "Turn" and f["event"]["street"] == "draw"
        )
    )
    kinds = [e["type"] for e in first.events("hu")]
    assert kinds.index("Checked") > kinds.index("Called")  # the pre-action ran
    # Reconnect with the last version seen: exactly the missed entries, none private to others.
    again = await Client(server, (ga if second is a else gb)["token"], "again").connect()
    reply = await again.request(
        {"type": "subscribe", "table": "hu", "since": v_second, "epoch": epoch}
    )
    assert reply["detail"]["replayed"] > 0
    replayed = [f for f in again.frames if f["type"] == "event"]
    assert [f["v"] for f in replayed] == sorted(f["v"] for f in replayed)
    assert replayed[0]["v"] > v_second
    seen = {f["v"] for f in first.frames if f["type"] == "event"}
    public_missed = {f["v"] for f in replayed} & seen
    assert {e["event"]["type"] for e in replayed} >= {"Called", "Checked", "BettingRoundEnded"}
    assert public_missed  # the public ones match what the other player saw
    my_seat = 2 if first is a else 1
    for f in replayed:
        if f["event"]["type"] in ("CardsReceived", "DiscardedCards"):
            assert f["event"]["seat"] == my_seat
    # A stale epoch gets a snapshot instead.
    reply = await again.request({"type": "subscribe", "table": "hu", "since": 1, "epoch": "old"})
    assert reply["detail"]["snapshot"] is True
    # Finish the hand: both stand pat, then check it down.
    players = {(1 if first is a else 2): first, my_seat: again}
    for _ in range(8):
        turn_frame = max(
            (
                f
                for c in (first, again)
                for f in c.frames
                if f["type"] == "event" and f["event"]["type"] in ("Turn", "HandEnded")
            ),
            key=lambda f: f["v"],
        )
        if turn_frame["event"]["type"] == "HandEnded":
            break
        seat = turn_frame["event"]["seat"]
        client = players[seat]
        base = {"table": "hu", "hand_id": hand_id, "action_id": f"z{turn_frame['v']}"}
        mark = len(client.frames)
        if turn_frame["event"]["street"] == "draw":
            await client.request({"type": "draw", **base, "discard": []})
        else:
            await client.request({"type": "act", **base, "action": "check"})
        await client.wait(
            lambda f: f["type"] == "event" and f["event"]["type"] in ("Turn", "HandEnded"),
            start=mark,
        )
    assert draw_turn["event"]["hand_id"] == hand_id
    await first.wait(lambda f: f["type"] == "event" and f["event"]["type"] == "HandEnded")
    cookies = {"dp_session": ga["token"]}
    listed = httpx.get(server.url + "/api/hands", cookies=cookies).json()["hands"]
    assert hand_id in [h["id"] for h in listed]
    detail = httpx.get(server.url + f"/api/hands/{hand_id}", cookies=cookies).json()
    kinds = [e["type"] for e in detail["events"]]
    assert "DeckRevealed" not in kinds  # the seed stays with the server
    assert detail["you"] == 1
    assert len(detail["openings"]) >= 5
    for e in detail["events"]:
        if e["type"] in ("CardsReceived", "DiscardedCards"):
            assert e["seat"] == 1
    await asyncio.gather(*(c.close() for c in (a, b, watcher, again, first)))


def test_a_held_draw_survives_betting_actions(tmp_path: Path, database: str | None) -> None:
    """R25: a draw set during the first round is carried out at the player's draw
    turn, even though the player called and set a betting pre-action meanwhile."""
    server = Server(tmp_path, database, [table("hu", seats=2, action_time=30.0)]).start()
    try:
        asyncio.run(_held_draw(server))
    finally:
        server.stop()


async def _held_draw(server: Server) -> None:
    ga, gb = server.guest(), server.guest()
    a = await Client(server, ga["token"], "a").connect()
    b = await Client(server, gb["token"], "b").connect()
    for client, seat in ((a, 1), (b, 2)):
        reply = await client.request({"type": "sit", "table": "hu", "seat": seat, "buy_in": 100})
        assert reply["type"] == "ok", reply
    turn = await a.wait(lambda f: f["type"] == "event" and f["event"]["type"] == "Turn")
    hand_id = turn["event"]["hand_id"]
    button_seat = turn["event"]["seat"]  # heads-up the button acts first, draws last
    button, big_blind = (a, b) if button_seat == 1 else (b, a)
    dealt = await button.wait(
        lambda f: (
            f["type"] == "event"
            and f["event"]["type"] == "CardsReceived"
            and f["event"]["seat"] == button_seat
        )
    )
    throw = dealt["event"]["cards"][:2]
    base = {"table": "hu", "hand_id": hand_id}
    held = await button.request({"type": "pre_action", **base, "pre": "draw", "discard": throw})
    assert held["type"] == "ok", held
    await button.wait(lambda f: f["type"] == "event" and f["event"]["type"] == "Legal")
    called = await button.request({"type": "act", **base, "action_id": "b1", "action": "call"})
    assert called["type"] == "ok", called
    await big_blind.wait(lambda f: f["type"] == "event" and f["event"]["type"] == "Legal")
    checked = await big_blind.request({"type": "act", **base, "action_id": "c1", "action": "check"})
    assert checked["type"] == "ok", checked
    await big_blind.wait(
        lambda f: (
            f["type"] == "event" and f["event"]["type"] == "Turn" and f["event"]["street"] == "draw"
        )
    )
    pat = await big_blind.request({"type": "draw", **base, "action_id": "c2", "discard": []})
    assert pat["type"] == "ok", pat
    thrown = await button.wait(
        lambda f: (
            f["type"] == "event"
            and f["event"]["type"] == "DiscardedCards"
            and f["event"]["seat"] == button_seat
        )
    )
    assert thrown["event"]["cards"] == throw  # carried out without a click
    await asyncio.gather(a.close(), b.close())
