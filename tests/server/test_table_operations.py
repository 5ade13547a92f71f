"""Operators pause, change and close a cash table on a running server, without a
restart, and what they did survives one: a paused table deals no new hand, a
change of stakes reaches the next hand and every watcher, a closed table ends
the hand in play, cashes every player out through the ledger and leaves the
lobby for good. Every route is refused to players, guests and moderators, and
hostile requests change nothing."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from drawpoker.server import ledger
from drawpoker.server.store import Store, database_url

from .helpers import Client, Server, call, login, make_staff, table

pytestmark = pytest.mark.slow


def _event(kind: str) -> Any:
    return lambda f: f["type"] == "event" and f["event"].get("type") == kind


def _form(**changes: Any) -> dict[str, Any]:
    """The console's form for table ``ops``: its fields as they are, with ``changes``."""
    fields: dict[str, Any] = {
        "id": "ops",
        "name": "test ops",
        "game": {"preset": "online", "structure": "no-limit", "small_blind": 1,
                 "big_blind": 2, "max_seats": 4, "draw_time_s": 2},
        "min_buy_in": 40,
        "max_buy_in": 400,
        "action_time_s": 5,
        "time_bank_s": 0,
        "between_hands_s": 0.5,
        "bots": 2,
        "reason": "busier evening",
    }  # fmt: skip
    return {**fields, **changes}


def _lobby_row(server: Server, table_id: str) -> dict[str, Any] | None:
    rows = httpx.get(server.url + "/api/tables", timeout=10).json()["tables"]
    return next((row for row in rows if row["id"] == table_id), None)


def test_an_operator_pauses_changes_and_closes_a_table(
    tmp_path: Path, database: str | None
) -> None:
    ops_table = table("ops", seats=4, bots=2, think=(0.2, 0.3), action_time=5.0)
    ops_table["between_hands_s"] = 0.5
    server = Server(tmp_path, database, [ops_table, table("other", seats=2)])
    make_staff(server, "Ops", "operator")
    make_staff(server, "Mod", "moderator")
    server.start()
    try:
        ops, mod = login(server, "Ops"), login(server, "Mod")
        player = server.guest()["token"]
        _refused_to_everyone_else(server, {"guest": player, "moderator": mod})
        balance = server.me(player)["balance"]
        asyncio.run(_pause_change_close(server, ops, player))
        assert server.me(player)["balance"] == balance  # sat out all along: every chip back
        listed = {
            t["id"]: t for t in call(server, ops, "GET", "/api/admin/tables", None).json()["tables"]
        }
        assert listed["ops"]["status"] == "closed"
        assert listed["ops"]["config"]["rules"]["big_blind"] == 4
        assert listed["other"]["status"] == "open"
        server.stop()
        server.start()  # closed stays closed
        assert _lobby_row(server, "ops") is None
        assert _lobby_row(server, "other") is not None
        assert httpx.get(server.url + "/api/tables/ops", timeout=10).status_code == 404
        audit = call(server, ops, "GET", "/api/admin/audit?limit=10", None).json()["entries"]
        assert [e["action"] for e in audit if e["target"] == "ops"][:4] == [
            "close-table", "edit-table", "resume-table", "pause-table"
        ]  # fmt: skip
        edit = next(e for e in audit if e["action"] == "edit-table")
        assert edit["detail"]["changed"]["rules"][1]["big_blind"] == 4
    finally:
        server.stop()
    store = Store(database_url(database, tmp_path / "data"))
    try:
        store.call(ledger.check_books)
        stacks = store.call(lambda c: ledger.balances(c, "stack:ops:"))
        assert not any(stacks.values()), stacks  # nobody's chips are left at the table
    finally:
        store.close()


def _refused_to_everyone_else(server: Server, tokens: dict[str, str]) -> None:
    routes = [
        ("GET", "/api/admin/tables", None),
        ("POST", "/api/admin/tables/ops", _form()),
        ("POST", "/api/admin/tables/ops/pause", {"on": True, "reason": "x"}),
        ("POST", "/api/admin/tables/ops/close", {"reason": "x"}),
    ]
    for method, path, body in routes:
        assert call(server, None, method, path, body).status_code == 401, path
        for who, token in tokens.items():
            assert call(server, token, method, path, body).status_code == 403, (who, path)


async def _pause_change_close(server: Server, ops: str, token: str) -> None:
    me = await Client(server, token, "player").connect()
    try:
        sat = await me.request({"type": "sit", "table": "ops", "seat": 4, "buy_in": 100})
        assert sat["type"] == "ok", sat
        assert (await me.request({"type": "sit_out", "table": "ops"}))["type"] == "ok"
        await me.wait(_event("HandStarted"), timeout=20)
        await _paused_and_resumed(server, ops, me)
        await _changed(server, ops, me)
        await _closed(server, ops, me)
    finally:
        await me.close()


async def _paused_and_resumed(server: Server, ops: str, me: Client) -> None:
    paused = call(server, ops, "POST", "/api/admin/tables/ops/pause",
                  {"on": True, "reason": "dealer change"})  # fmt: skip
    assert paused.json() == {"ok": True, "status": "paused"}, paused.text
    mark = len(me.frames)
    changed = await me.wait(_event("TableChanged"), start=mark)
    assert changed["event"]["status"] == "paused"
    if not any(_event("HandEnded")(f) for f in me.frames[mark:]):
        started = [f for f in me.frames if _event("HandStarted")(f)]
        ended = [f for f in me.frames if _event("HandEnded")(f)]
        if len(started) > len(ended):  # the hand in play is finished, not stopped
            await me.wait(_event("HandEnded"), timeout=30, start=mark)
    quiet = len(me.frames)
    await asyncio.sleep(2.5)  # five pauses between hands
    assert not any(_event("HandStarted")(f) for f in me.frames[quiet:])
    row = _lobby_row(server, "ops")
    assert row is not None
    assert row["status"] == "paused"
    again = call(server, ops, "POST", "/api/admin/tables/ops/pause", {"on": True, "reason": "y"})
    assert again.json()["status"] == "paused"  # nothing changes, nothing audited twice
    resumed = call(server, ops, "POST", "/api/admin/tables/ops/pause",
                   {"on": False, "reason": "dealer back"})  # fmt: skip
    assert resumed.json()["status"] == "open"
    await me.wait(_event("HandStarted"), timeout=10, start=quiet)


async def _changed(server: Server, ops: str, me: Client) -> None:
    for bad, status, said in (
        (_form(game={"preset": "online", "max_seats": 3}), 400, "seat 4 is taken"),
        (_form(game={"preset": "italian", "invito": 2}), 400, "does not change"),
        (_form(id="other"), 400, "the body is for table"),
        (_form(min_buy_in=500), 400, "minimum buy-in"),
        (_form(bots=4), 400, "bots would fill"),
        (_form(reason=""), 400, "reason"),
        ({"id": "ops"}, 400, ""),
    ):
        refused = call(server, ops, "POST", "/api/admin/tables/ops", bad)
        assert refused.status_code == status, (bad, refused.text)
        assert said in refused.json()["error"], refused.text
    nowhere = call(server, ops, "POST", "/api/admin/tables/nope", _form(id="nope"))
    assert nowhere.status_code == 404
    mark = len(me.frames)
    game = {"preset": "online", "structure": "no-limit", "small_blind": 2, "big_blind": 4,
            "max_seats": 4, "draw_time_s": 2}  # fmt: skip
    done = call(server, ops, "POST", "/api/admin/tables/ops",
                _form(game=game, max_buy_in=800, action_time_s=7))  # fmt: skip
    assert done.status_code == 200, done.text
    assert {"rules", "max_buy_in", "action_time_s"} <= set(done.json()["changed"])
    changed = await me.wait(_event("TableChanged"), timeout=30, start=mark)
    assert (changed["event"]["big_blind"], changed["event"]["max_buy_in"]) == (4, 800)
    started = await me.wait(_event("HandStarted"), timeout=15, start=len(me.frames))
    at = me.frames.index(started)
    blind = await me.wait(lambda f: _event("Posted")(f) and f["event"]["kind"] == "big blind",
                          start=at)  # fmt: skip
    assert blind["event"]["amount"] == 4
    assert server.table("ops")["state"]["big_blind"] == 4
    row = _lobby_row(server, "ops")
    assert row is not None
    assert row["stakes"] == "2/4"


async def _closed(server: Server, ops: str, me: Client) -> None:
    await me.wait(_event("HandStarted"), timeout=15, start=len(me.frames))
    mark = len(me.frames)
    closing = call(server, ops, "POST", "/api/admin/tables/ops/close", {"reason": "end of night"})
    assert closing.status_code == 200, closing.text
    assert closing.json() == {"ok": True, "status": "closing", "seated": 3}
    for path, body in (
        ("/api/admin/tables/ops/close", {"reason": "twice"}),
        ("/api/admin/tables/ops/pause", {"on": True, "reason": "late"}),
        ("/api/admin/tables/ops", _form()),
    ):
        assert call(server, ops, "POST", path, body).status_code in (404, 409), path
    other = await Client(server, server.guest()["token"], "late").connect()
    try:
        late = await other.request({"type": "sit", "table": "ops", "seat": 1, "buy_in": 100})
        assert late["type"] == "error"
        assert late["code"] in ("closing", "unavailable", "no_table"), late  # as it goes
    finally:
        await other.close()
    final = await me.wait(
        lambda f: _event("TableChanged")(f) and f["event"]["status"] == "closed",
        timeout=30, start=mark,
    )  # fmt: skip
    after = me.frames[mark : me.frames.index(final)]
    left = [f["event"]["seat"] for f in after if _event("PlayerLeft")(f)]
    assert sorted(left) == [1, 2, 4], left
    kinds = [f["event"]["type"] for f in after if f["type"] == "event"]
    assert "HandStarted" not in kinds  # no hand is dealt once the table closes
    assert kinds.count("HandEnded") == 1  # the hand in play is played out (nobody folded
    assert kinds.index("HandEnded") < kinds.index("PlayerLeft")  # for them), then all leave
    deadline = time.monotonic() + 10
    while _lobby_row(server, "ops") is not None:
        assert time.monotonic() < deadline, "the closed table stays in the lobby"
        await asyncio.sleep(0.2)
