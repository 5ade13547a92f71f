"""The clock of the player to act belongs to the table: whatever that player or
anyone else at the table does besides acting -- reloading, reconnecting,
pre-actions that do not apply, sitting out and in, unsubscribing and
resubscribing -- the turn times out at its original deadline, plus the time
bank once."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from .helpers import Client, Server, table

pytestmark = pytest.mark.slow

ACTION_S = 3.0
BANK_S = 1.5
TOLERANCE_S = 0.5


def test_nothing_but_a_decision_moves_the_clock_at_a_cash_table(
    tmp_path: Path, database: str | None
) -> None:
    t = table("gc", seats=3, action_time=ACTION_S, draw_time=30)
    t.update(time_bank_s=BANK_S, between_hands_s=0.2, disconnect_grace_s=60.0)
    server = Server(tmp_path, database, [t]).start()
    try:
        asyncio.run(_cash(server))
    finally:
        server.stop()


def _arrival(client: Client, kind: str, after: int = 0) -> dict[str, Any]:
    return next(
        f for f in client.frames[after:] if f["type"] == "event" and f["event"]["type"] == kind
    )


async def _cash(server: Server) -> None:
    guests = [server.guest() for _ in range(3)]
    clients = [await Client(server, g["token"], f"p{i}").connect() for i, g in enumerate(guests)]
    spectator = await Client(server, None, "spectator").connect()
    await spectator.request({"type": "subscribe", "table": "gc"})
    for seat, c in enumerate(clients, start=1):
        reply = await c.request({"type": "sit", "table": "gc", "seat": seat, "buy_in": 100})
        assert reply["type"] == "ok", reply
    turn = await spectator.wait(lambda f: f["type"] == "event" and f["event"]["type"] == "Turn", 15)
    started = time.monotonic()
    assert turn["event"]["clock_s"] == ACTION_S
    hand_id = turn["event"]["hand_id"]
    seat = turn["event"]["seat"]
    me = clients[seat - 1]
    other = clients[seat % 3]  # someone else at the table
    me_token, other_token = guests[seat - 1]["token"], guests[seat % 3]["token"]
    mark = len(spectator.frames)

    async def grief(c: Client, token: str) -> Client:
        """Everything but a decision, as fast as the rate limit allows."""
        base = {"table": "gc", "hand_id": hand_id}
        await c.request({**base, "type": "pre_action", "pre": "draw", "discard": []})
        await c.request({**base, "type": "pre_action", "pre": "check"})  # refused: a bet to call
        await c.request({"type": "sit_out", "table": "gc"})
        await c.request({"type": "sit_in", "table": "gc"})
        await c.request({"type": "unsubscribe", "table": "gc"})
        await c.request({"type": "subscribe", "table": "gc"})
        await c.close()  # a reload: a new connection, resubscribing with its version
        fresh = await Client(server, token, c.name).connect()
        await fresh.request({"type": "subscribe", "table": "gc"})
        await fresh.request({**base, "type": "pre_action", "pre": "clear"})
        return fresh

    deadline = started + ACTION_S
    while time.monotonic() < deadline - 0.6:
        me = await grief(me, me_token)
        other = await grief(other, other_token)
    bank = await spectator.wait(
        lambda f: f["type"] == "event" and f["event"]["type"] == "TimeBank", 10, start=mark
    )
    bank_at = time.monotonic()
    assert bank["event"]["seat"] == seat
    assert bank["event"]["seconds"] == BANK_S
    while time.monotonic() < bank_at + BANK_S - 0.6:  # the bank runs: grief on
        me = await grief(me, me_token)
    timed = await spectator.wait(
        lambda f: f["type"] == "event" and f["event"]["type"] == "TimedOut", 10, start=mark
    )
    ended = time.monotonic()
    assert timed["event"]["seat"] == seat
    assert abs((bank_at - started) - ACTION_S) <= TOLERANCE_S, bank_at - started
    assert abs((ended - started) - (ACTION_S + BANK_S)) <= TOLERANCE_S, ended - started
    between = [f["event"]["type"] for f in spectator.frames[mark:] if f["type"] == "event"]
    turns = [k for k in between[: between.index("TimedOut")] if k == "Turn"]
    assert turns == [], between  # no new turn, no fresh clock, before the time-out
    for c in (me, other, spectator, *clients):
        await c.close()


def test_nothing_but_a_decision_moves_the_clock_at_a_tournament_table(
    tmp_path: Path, database: str | None
) -> None:
    config = {
        "id": "gt",
        "name": "grief",
        "buy_in": 10,
        "fee": 1,
        "starting_stack": 1000,
        "max_entries": 3,
        "seats_per_table": 3,
        "levels": [[5, 10, 0, 30.0]],
        "action_time_s": ACTION_S,
        "time_bank_s": BANK_S,
        "between_hands_s": 0.2,
    }
    server = Server(tmp_path, database, [])
    server.room.write_text(json.dumps({"tables": [], "tournaments": [config]}))
    server.start()
    try:
        asyncio.run(_tournament(server))
    finally:
        server.stop()


async def _tournament(server: Server) -> None:
    guests = [server.guest() for _ in range(3)]
    clients = [await Client(server, g["token"], f"p{i}").connect() for i, g in enumerate(guests)]
    for c in clients:  # everyone watches the channel, then registers
        assert (await c.request({"type": "subscribe", "table": "gt"}))["type"] == "ok"
    for g in guests:
        reply = httpx.post(
            server.url + "/api/tournaments/gt/register", cookies={"dp_session": g["token"]}
        )
        assert reply.status_code == 200, reply.text
    tables = []
    for c in clients:
        seated = await c.wait(_kind("YourTable"), 15)
        tables.append(seated["event"]["table"])
        assert (await c.request({"type": "subscribe", "table": tables[-1]}))["type"] == "ok"
    table_id = tables[0]
    spectator = await Client(server, None, "spectator").connect()
    await spectator.request({"type": "subscribe", "table": table_id})
    turn = await spectator.wait(_kind("Turn"), 15)
    started = time.monotonic()
    assert turn["event"]["clock_s"] == ACTION_S
    hand_id, seat = turn["event"]["hand_id"], turn["event"]["seat"]
    snap = next(f for f in spectator.frames if f["type"] == "snapshot")["state"]
    names = {s["seat"]: s["name"] for s in snap["seats"]}
    by_name = {g["name"]: (g["token"], c) for g, c in zip(guests, clients, strict=True)}
    me_token, me = by_name[names[seat]]
    other_name = next(n for s, n in names.items() if s != seat)
    other_token, other = by_name[other_name]
    mark = len(spectator.frames)

    async def grief(c: Client, token: str) -> Client:
        base = {"table": table_id, "hand_id": hand_id}
        await c.request({**base, "type": "pre_action", "pre": "draw", "discard": []})
        await c.request({**base, "type": "pre_action", "pre": "check"})  # refused
        await c.request({"type": "sit_out", "table": table_id})  # not at a tournament table
        await c.request({"type": "unsubscribe", "table": table_id})
        await c.request({"type": "subscribe", "table": table_id})
        await c.close()  # a reload
        fresh = await Client(server, token, c.name).connect()
        await fresh.request({"type": "subscribe", "table": table_id})
        await fresh.request({**base, "type": "pre_action", "pre": "clear"})
        return fresh

    while time.monotonic() < started + ACTION_S - 0.6:
        me = await grief(me, me_token)
        other = await grief(other, other_token)
    bank = await spectator.wait(_kind("TimeBank"), 10, start=mark)
    bank_at = time.monotonic()
    assert bank["event"]["seat"] == seat
    timed = await spectator.wait(_kind("TimedOut"), 10, start=mark)
    ended = time.monotonic()
    assert timed["event"]["seat"] == seat
    assert abs((bank_at - started) - ACTION_S) <= TOLERANCE_S, bank_at - started
    assert abs((ended - started) - (ACTION_S + BANK_S)) <= TOLERANCE_S, ended - started
    between = [f["event"]["type"] for f in spectator.frames[mark:] if f["type"] == "event"]
    assert "Turn" not in between[: between.index("TimedOut")], between
    for c in (me, other, spectator, *clients):
        await c.close()


def _kind(kind: str) -> Any:
    return lambda f: f["type"] == "event" and f["event"]["type"] == kind
