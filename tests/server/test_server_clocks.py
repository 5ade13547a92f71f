"""Clocks: the time bank, the room's timeout policy, disconnect grace, leaving."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from .helpers import Client, Server, table

pytestmark = pytest.mark.slow


def test_time_bank_timeouts_disconnect_grace_and_leaving(
    tmp_path: Path, database: str | None
) -> None:
    t = table("clk", seats=2, action_time=0.4, draw_time=1)
    t.update(time_bank_s=1.0, disconnect_grace_s=0.8, sit_out_leave_s=1.0, between_hands_s=0.1)
    server = Server(tmp_path, database, [t]).start()
    try:
        asyncio.run(_clocks(server))
    finally:
        server.stop()


def _kinds(client: Client) -> list[str]:
    return [e["type"] for e in client.events("clk")]


async def _clocks(server: Server) -> None:
    ga, gb = server.guest(), server.guest()
    a = await Client(server, ga["token"], "a").connect()
    b = await Client(server, gb["token"], "b").connect()
    spectator = await Client(server, None, "spectator").connect()
    await spectator.request({"type": "subscribe", "table": "clk"})
    assert (await a.request({"type": "sit", "table": "clk", "seat": 1, "buy_in": 100}))[
        "type"
    ] == "ok"
    assert (await b.request({"type": "sit", "table": "clk", "seat": 2, "buy_in": 100}))[
        "type"
    ] == "ok"
    # Nobody acts: the action clock runs out, then the time bank, then the timeout.
    bank = await spectator.wait(
        lambda f: f["type"] == "event" and f["event"]["type"] == "TimeBank", 10
    )
    assert bank["event"]["seconds"] == 1.0
    timed = await spectator.wait(
        lambda f: f["type"] == "event" and f["event"]["type"] == "TimedOut", 10
    )
    assert timed["v"] > bank["v"]
    # Two timeouts in a row sit a player out when the hand ends (the room's policy).
    out = await spectator.wait(
        lambda f: f["type"] == "event" and f["event"]["type"] == "SatOut", 20
    )
    assert out["event"]["reason"] == "timeouts"
    # b disconnects: shown disconnected, sat out after the grace, gone after a while
    # with the stack back in the balance.
    await b.close()
    await spectator.wait(
        lambda f: (
            f["type"] == "event"
            and f["event"]["type"] == "ConnectionChanged"
            and not f["event"]["connected"]
        ),
        10,
    )
    left = await spectator.wait(
        lambda f: (
            f["type"] == "event"
            and f["event"]["type"] == "PlayerLeft"
            and f["event"]["name"] == gb["name"]
        ),
        15,
    )
    chips = left["event"]["chips"]
    me = server.me(gb["token"])
    assert me["balance"] == 10_000 - 100 + chips
    assert me["stacks"] == {}
    await asyncio.gather(a.close(), spectator.close())
