"""Bad input: each gets a clear error to the sender only; nothing changes."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from .helpers import Client, Server, table

pytestmark = pytest.mark.slow


def test_bad_input_is_refused_harmlessly(tmp_path: Path, database: str | None) -> None:
    tables = [
        table("t2", seats=2, action_time=60.0, draw_time=60),
        table("rich", seats=6, max_buy_in=50_000),
    ]
    server = Server(tmp_path, database, tables).start()
    try:
        asyncio.run(_bad_input(server))
    finally:
        server.stop()


def _public(server: Server) -> dict[str, Any]:
    state = server.table("t2")["state"]
    if state["hand"]:
        state["hand"].pop("clock_s")
    return state


async def _bad_input(server: Server) -> None:
    guests = [server.guest() for _ in range(4)]
    a, b, c, d = [await Client(server, g["token"], f"g{i}").connect() for i, g in enumerate(guests)]
    spectator = await Client(server, None, "spectator").connect()
    await spectator.request({"type": "subscribe", "table": "t2"})
    assert (await a.request({"type": "sit", "table": "t2", "seat": 1, "buy_in": 200}))[
        "type"
    ] == "ok"
    assert (await b.request({"type": "sit", "table": "t2", "seat": 2, "buy_in": 200}))[
        "type"
    ] == "ok"
    legal_frame = await spectator.wait(
        lambda f: f["type"] == "event" and f["event"]["type"] == "Turn", 10
    )
    turn = legal_frame["event"]
    hand_id = turn["hand_id"]
    actor, other = (a, b) if turn["seat"] == 1 else (b, a)
    await actor.wait(lambda f: f["type"] == "event" and f["event"]["type"] == "Legal")
    # Every watcher has the hand up to its first turn before any frame is counted
    # (each connection is served on its own, so one may still be catching up).
    await other.wait(lambda f: f["type"] == "event" and f["event"] == turn)
    legal = actor.events("t2")[-1]["legal"]
    assert legal["max_to"] > 0
    base = {"table": "t2", "hand_id": hand_id}
    other_seat = 2 if other is b else 1
    too_much = legal["max_to"] + 1
    balances = {g["name"]: server.me(g["token"])["balance"] for g in guests}

    async def refused(sender: Client, message: dict[str, Any] | str, code: str, words: str) -> None:
        before = _public(server)
        watchers = [x for x in (a, b, c, d, spectator) if x is not sender]
        marks = [len(x.frames) for x in watchers]
        mark = len(sender.frames)
        ref = await sender.send(message)
        reply = await sender.wait(lambda f: f["type"] in ("ok", "error"), start=mark)
        assert reply["type"] == "error", reply
        assert reply["code"] == code, reply
        assert words in reply["message"], reply
        if isinstance(message, dict):
            assert reply["ref"] == ref
        await asyncio.sleep(0.15)
        for x, m in zip(watchers, marks, strict=True):
            assert x.frames[m:] == [], f"{x.name} received {x.frames[m:]}"
        assert _public(server) == before
        for g in guests:
            assert server.me(g["token"])["balance"] == balances[g["name"]]

    await refused(actor, '{"type": "act", "table": ', "bad_json", "not valid JSON")
    await refused(actor, "[1, 2]", "bad_message", "JSON object")
    await refused(
        actor, {"type": "teleport", "table": "t2"}, "unknown_type", "unknown message type"
    )
    await refused(
        actor, {"type": "sit", "table": "t2", "seat": "one", "buy_in": 100}, "bad_field", "seat"
    )
    await refused(
        actor, {"type": "act", **base, "action_id": "w1", "action": "bet", "amount": "10"},
        "bad_field", "amount",
    )  # fmt: skip
    await refused(
        actor,
        json.dumps({"type": "chat", "table": "t2", "text": "x" * 100_000}),
        "too_large",
        "limit",
    )
    await refused(
        other,
        {"type": "act", **base, "action_id": "o1", "action": "call"},
        "illegal_action",
        "not your turn",
    )
    await refused(
        actor, {"type": "act", **base, "action_id": "s1", "action": "fold", "seat": other_seat},
        "bad_field", "seat",
    )  # fmt: skip
    await refused(
        spectator,
        {"type": "act", **base, "action_id": "x1", "action": "fold"},
        "not_logged_in",
        "log in",
    )
    await refused(
        c, {"type": "act", **base, "action_id": "x1", "action": "fold"}, "not_seated", "no seat"
    )
    await refused(
        actor, {"type": "act", **base, "action_id": "n1", "action": "bet", "amount": -5},
        "bad_field", "amount",
    )  # fmt: skip
    await refused(
        actor, {"type": "act", **base, "action_id": "f1", "action": "raise", "amount": 2.5},
        "bad_field", "amount",
    )  # fmt: skip
    await refused(
        actor, {"type": "act", **base, "action_id": "m1", "action": "raise", "amount": too_much},
        "illegal_action", f"not {legal['max_to'] + 1}",
    )  # fmt: skip
    await refused(
        actor, {"type": "act", **base, "hand_id": "t2-999", "action_id": "z1", "action": "call"},
        "stale_hand", "not in play",
    )  # fmt: skip
    await refused(c, {"type": "sit", "table": "t2", "seat": 1, "buy_in": 100}, "table_full", "full")
    await refused(
        d,
        {"type": "sit", "table": "rich", "seat": 1, "buy_in": 20_000},
        "insufficient_funds",
        "balance",
    )
    await refused(
        d, {"type": "sit", "table": "nowhere", "seat": 1, "buy_in": 100}, "no_table", "no table"
    )
    # A legal call, then the same action id again: refused as a duplicate.
    ok = await actor.request({"type": "act", **base, "action_id": "dup", "action": "call"})
    assert ok["type"] == "ok", ok
    await other.wait(lambda f: f["type"] == "event" and f["event"]["type"] == "Legal", start=0)
    await refused(
        actor,
        {"type": "act", **base, "action_id": "dup", "action": "check"},
        "duplicate_action",
        "already used",
    )
    # Now the other player checks: the draw; the first drawer tries cards it does not hold.
    ok = await other.request({"type": "act", **base, "action_id": "o2", "action": "check"})
    assert ok["type"] == "ok", ok
    drawer_frame = await spectator.wait(
        lambda f: (
            f["type"] == "event" and f["event"]["type"] == "Turn" and f["event"]["street"] == "draw"
        )
    )
    drawer = a if drawer_frame["event"]["seat"] == 1 else b
    await drawer.wait(
        lambda f: (
            f["type"] == "event" and f["event"]["type"] == "Legal" and f["event"]["legal"]["draw"]
        )
    )
    held = drawer.events("t2")[-1]["legal"]["hand"]
    not_held = next(x for x in ("As", "Kd", "Qh", "Jc", "Ts", "9d") if x not in held)
    await refused(
        drawer, {"type": "draw", **base, "action_id": "d1", "discard": [held[0], not_held]},
        "illegal_action", f"does not hold {not_held}",
    )  # fmt: skip
    await refused(
        drawer, {"type": "draw", **base, "action_id": "d2", "discard": ["Zz"]},
        "bad_cards", "not a card",
    )  # fmt: skip
    await refused(
        drawer, {"type": "pre_action", **base, "pre": "draw", "discard": [not_held]},
        "illegal_action", "do not hold",
    )  # fmt: skip
    # A top-up beyond the balance: refused in the ledger's transaction, stack unchanged.
    assert (await d.request({"type": "sit", "table": "rich", "seat": 2, "buy_in": 100}))[
        "type"
    ] == "ok"
    balances[guests[3]["name"]] -= 100
    await refused(
        d, {"type": "top_up", "table": "rich", "amount": 20_000}, "insufficient_funds", "balance"
    )
    rich = {s["seat"]: s for s in server.table("rich")["state"]["seats"]}
    assert (rich[2]["stack"], rich[2].get("pending_top_up", 0)) == (100, 0), rich[2]
    # A flood of messages is rate-limited, with an error to the flooder only.
    for _ in range(60):
        await c.send({"type": "ping"})
    await c.wait(lambda f: f["type"] == "error" and f["code"] == "rate_limited")
    await asyncio.gather(*(x.close() for x in (a, b, c, d, spectator)))
