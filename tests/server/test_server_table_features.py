"""What a cash table gives a player besides the hand: the story of the hand in a
snapshot, the last hand, chat kept apart from the log (and limited), long replays,
the hand described, practice hints, the waiting list, auto top-up, sit out next
hand and the seat's waiting state."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from .helpers import Client, Server, table

pytestmark = pytest.mark.slow


def _ev(kind: str) -> Any:
    return lambda f: f["type"] == "event" and f["event"]["type"] == kind


def test_story_chat_replay_hints_and_seat_states(tmp_path: Path) -> None:
    practice = table("pr", seats=3, action_time=20.0, draw_time=20, practice=True)
    practice["time_bank_s"] = 30.0
    busy = table("busy", seats=2, bots=2, think=(0.0, 0.01))
    busy["between_hands_s"] = 0.01
    server = Server(tmp_path, None, [practice, busy]).start()
    try:
        asyncio.run(_story_and_hints(server))
        asyncio.run(_chat_and_replay(server))
    finally:
        server.stop()


async def _next_decision(clients: tuple[Client, ...], after_v: int) -> dict[str, Any]:
    """The newest Legal (or the HandEnded) any of ``clients`` has after version
    ``after_v``: a Legal goes to its player only, and each connection is served on
    its own, so the one acted on may still be the newest another client has."""
    deadline = time.monotonic() + 15
    while True:
        newer = [
            f for x in clients for f in x.frames
            if f["type"] == "event" and f["event"]["type"] in ("Legal", "HandEnded")
            and f["v"] > after_v
        ]  # fmt: skip
        if newer:
            return max(newer, key=lambda f: f["v"])
        assert time.monotonic() < deadline, f"no decision after v{after_v}"
        await asyncio.sleep(0.02)


async def _story_and_hints(server: Server) -> None:
    ga, gb, gc = server.guest(), server.guest(), server.guest()
    a = await Client(server, ga["token"], "a").connect()
    b = await Client(server, gb["token"], "b").connect()
    for client, seat in ((a, 1), (b, 2)):
        reply = await client.request({"type": "sit", "table": "pr", "seat": seat, "buy_in": 100})
        assert reply["type"] == "ok", reply
    legal = await a.wait(_ev("Legal"), 15)
    assert legal["event"]["my_hand"]  # "a pair of ...", "high card ..."
    assert legal["event"]["hint"]["description"] == legal["event"]["my_hand"]
    mine = await a.wait(_ev("MyHand"))
    assert mine["event"]["description"] == legal["event"]["my_hand"]
    assert not any(_ev("MyHand")(f) and f["v"] == mine["v"] for f in b.frames)  # private
    turn = await a.wait(_ev("Turn"))
    assert turn["event"]["time_bank"] == 30.0
    # A third player sits during the hand without posting: waits for the big blind.
    c = await Client(server, gc["token"], "c").connect()
    reply = await c.request({"type": "sit", "table": "pr", "seat": 3, "buy_in": 100, "post": False})
    assert reply["type"] == "ok", reply
    # The snapshot came first (a seat watches its table before sitting), then the seat.
    snap = next(f for f in c.frames if f["type"] == "snapshot")["state"]
    mine_too = await c.wait(lambda f: _ev("SeatStatus")(f) and f["event"]["seat"] == 3)
    assert mine_too["event"]["waiting"] == "big_blind"
    status = await a.wait(lambda f: _ev("SeatStatus")(f) and f["event"]["seat"] == 3)
    assert status["event"]["waiting"] == "big_blind"
    assert (snap["game"], snap["small_blind"], snap["big_blind"]) == ("draw", 1, 2)
    assert snap["story"][0]["type"] == "HandStarted"
    assert all(e["type"] not in ("CardsReceived", "DiscardedCards") for e in snap["story"])
    # a asks to sit out after this hand; a reload shows it, and the story has a's cards.
    await a.request({"type": "sit_out_next", "table": "pr", "on": True})
    again = await Client(server, ga["token"], "a2").connect()
    await again.request({"type": "subscribe", "table": "pr"})
    state = next(f for f in again.frames if f["type"] == "snapshot")["state"]
    assert next(s for s in state["seats"] if s["seat"] == 1)["sit_out_next"] is True
    mine = [e for e in state["story"] if e["type"] == "CardsReceived"]
    assert [e["seat"] for e in mine] == [1]
    assert state["hand"]["my_hand"] == legal["event"]["my_hand"]
    # Play to the draw: a practice table's draw turn carries the best discard.
    hand_id = legal["event"]["hand_id"]
    players = {1: a, 2: b}
    acted_v = 0
    for n in range(12):
        turn = await _next_decision((a, b), acted_v)
        if turn["event"]["type"] == "HandEnded":
            break
        lg = turn["event"]["legal"]
        who = players[lg["seat"]]
        base = {"table": "pr", "hand_id": hand_id, "action_id": f"x{n}"}
        if lg["draw"] and not turn["event"]["hint"]["label"]:  # the Legal comes again with it
            turn = await who.wait(lambda f: _ev("Legal")(f) and f["event"]["hint"]["label"], 10)
        acted_v = turn["v"]
        if lg["draw"]:
            hint = turn["event"]["hint"]
            assert hint["label"], hint
            assert set(hint["discard"]) <= set(lg["hand"])
            reply = await who.request({"type": "draw", **base, "discard": hint["discard"]})
        else:
            action = "check" if lg["check"] else "call"
            reply = await who.request({"type": "act", **base, "action": action})
        assert reply["type"] == "ok", reply
    await a.wait(_ev("HandEnded"), 15)
    await a.wait(_ev("SatOut"), 15)
    late = await Client(server, None, "late").connect()
    await late.request({"type": "subscribe", "table": "pr"})
    state = next(f for f in late.frames if f["type"] == "snapshot")["state"]
    assert state["last_hand"]["hand_id"] == hand_id
    kinds = [e["type"] for e in state["last_hand"]["story"]]
    assert kinds[0] == "HandStarted"
    assert kinds[-1] == "HandEnded"
    assert "CardsReceived" not in kinds  # a spectator's last hand has no hole cards
    # Auto top-up between hands, up to the target.
    reply = await b.request({"type": "auto_top_up", "table": "pr", "amount": 300})
    assert reply["detail"]["auto_top_up"] == 300
    assert server.me(gb["token"])["stacks"]["pr"] == 300
    for x in (a, b, c, again, late):
        await x.close()


async def _chat_and_replay(server: Server) -> None:
    g = server.guest()
    talker = await Client(server, g["token"], "talker").connect()
    first = await talker.request({"type": "subscribe", "table": "busy"})
    v0, epoch = first["detail"]["v"], first["detail"]["epoch"]
    codes = []
    for n in range(8):
        reply = await talker.request({"type": "chat", "table": "busy", "text": f"line {n}"})
        codes.append(reply.get("code", "ok"))
    assert codes[:5] == ["ok"] * 5
    assert "chat_limited" in codes[5:]
    await talker.close()
    # The bots play on quickly: well over 511 entries later, a reconnect replays
    # all of them (no 1013 close), chat lines included.
    watcher = await Client(server, None, "w").connect()
    await watcher.request({"type": "subscribe", "table": "busy"})
    for _ in range(600):
        if watcher.frames and max(f.get("v") or 0 for f in watcher.frames) > v0 + 1300:
            break
        await asyncio.sleep(0.1)
    back = await Client(server, g["token"], "back").connect()
    reply = await back.request(
        {"type": "subscribe", "table": "busy", "since": v0, "epoch": epoch}, timeout=30
    )
    assert reply["detail"]["replayed"] > 511, reply  # more than the old limit
    replayed = {f["v"] for f in back.frames if f["type"] == "event"}
    seen = {
        f["v"] for f in watcher.frames if f["type"] == "event" and f["v"] <= reply["detail"]["v"]
    }
    assert seen <= replayed  # every public entry since, none lost
    chat = [f["event"]["text"] for f in back.frames if _ev("Chat")(f)]
    assert chat[:5] == [f"line {n}" for n in range(5)]
    vs = [f["v"] for f in back.frames if f["type"] == "event"]
    assert vs == sorted(vs)
    assert back.ws.close_code is None
    snap = await back.request({"type": "subscribe", "table": "busy", "since": 0, "epoch": "x"})
    assert snap["detail"]["snapshot"] is True
    state = [f for f in back.frames if f["type"] == "snapshot"][-1]["state"]
    assert [line["text"] for line in state["chat"]][:5] == [f"line {n}" for n in range(5)]
    await back.close()
    await watcher.close()


def test_waiting_list_offers_a_freed_seat_to_the_first_in_line(tmp_path: Path) -> None:
    wl = table("wl", seats=2, action_time=20.0, seat_offer_s=1.5)
    server = Server(tmp_path, None, [wl]).start()
    try:
        asyncio.run(_waiting_list(server))
    finally:
        server.stop()


async def _waiting_list(server: Server) -> None:
    guests = [server.guest() for _ in range(4)]
    a, b, c, d = [
        await Client(server, g["token"], n).connect() for g, n in zip(guests, "abcd", strict=True)
    ]
    assert (await c.request({"type": "wait", "table": "wl"}))["code"] == "not_full"
    for client, seat in ((a, 1), (b, 2)):
        await client.request({"type": "sit", "table": "wl", "seat": seat, "buy_in": 100})
    await c.request({"type": "subscribe", "table": "wl"})
    await d.request({"type": "subscribe", "table": "wl"})
    assert (await c.request({"type": "wait", "table": "wl"}))["detail"]["position"] == 1
    assert (await d.request({"type": "wait", "table": "wl"}))["detail"]["position"] == 2
    names = await c.wait(lambda f: _ev("WaitingList")(f) and len(f["event"]["names"]) == 2)
    assert names["event"]["names"] == [guests[2]["name"], guests[3]["name"]]
    await asyncio.sleep(1.1)  # the lobby row says how many wait
    row = httpx.get(server.url + "/api/tables", timeout=10).json()["tables"][0]
    assert row["waiting"] == 2
    await a.request({"type": "leave", "table": "wl"})  # during the hand: leaves at its end
    offer = await c.wait(_ev("SeatOffered"), 20)
    seat = offer["event"]["seat"]
    assert not any(_ev("SeatOffered")(f) for f in d.frames)
    refused = await d.request({"type": "sit", "table": "wl", "seat": seat, "buy_in": 100})
    assert refused["code"] in ("seat_taken", "table_full"), refused
    # c lets the offer lapse: it goes to d, who takes it.
    lapsed = await c.wait(_ev("SeatOfferExpired"), 5)
    assert lapsed["event"]["seat"] == seat
    await d.wait(_ev("SeatOffered"), 5)
    taken = await d.request({"type": "sit", "table": "wl", "seat": seat, "buy_in": 100})
    assert taken["type"] == "ok", taken
    assert await c.wait(lambda f: _ev("WaitingList")(f) and f["event"]["names"] == [])
    for x in (a, b, c, d):
        await x.close()
