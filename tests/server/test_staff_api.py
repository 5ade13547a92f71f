"""The staff routes on a running server, as each role and as an attacker: every
route refused without a session (401) and to guests and players (403), each
role limited to its own; an adjustment lands in the balance and the audit log;
``/metrics`` parses as Prometheus text and its counters move with play;
``/health`` says what answers."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from starlette.requests import Request

from drawpoker.server import app as server_app
from drawpoker.server import ledger
from drawpoker.server.store import Store, database_url

from .helpers import STAFF_PASSWORD, Client, Server, call, login, make_staff, table

pytestmark = pytest.mark.slow

PASSWORD = STAFF_PASSWORD
ROUTES = [
    ("GET", "/api/admin/overview", None),
    ("GET", "/api/admin/players/somebody", None),
    ("GET", "/api/admin/audit", None),
    ("GET", "/api/admin/signals?days=3", None),
    ("GET", "/api/admin/reports", None),
    ("POST", "/api/admin/mute", {"name": "Mod", "minutes": 0, "reason": "x"}),
    ("POST", "/api/admin/adjust", {"name": "somebody", "amount": 5, "reason": "x"}),
    ("POST", "/api/admin/roles", {"name": "Mod", "role": "moderator", "reason": "x"}),
]
LOWEST = {  # the role each route needs
    "/api/admin/overview": "moderator",
    "/api/admin/players/somebody": "moderator",
    "/api/admin/audit": "operator",
    "/api/admin/signals?days=3": "operator",
    "/api/admin/reports": "moderator",
    "/api/admin/mute": "moderator",
    "/api/admin/adjust": "operator",
    "/api/admin/roles": "administrator",
}
ORDER = ["player", "moderator", "operator", "administrator"]


def _samples(server: Server) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    reply = httpx.get(server.url + "/metrics", timeout=10)
    assert reply.status_code == 200
    assert reply.headers["content-type"].startswith("text/plain")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(reply.text)
        for sample in family.samples
    }


def test_staff_routes_roles_audit_metrics_and_health(tmp_path: Path, database: str | None) -> None:
    busy = table("busy", seats=2, bots=2, think=(0.0, 0.01))
    busy["between_hands_s"] = 0.01
    server = Server(tmp_path, database, [busy])
    for name, role in (("Mod", "moderator"), ("Ops", "operator"), ("Boss", "administrator")):
        make_staff(server, name, role)
    server.start()
    try:
        reply = httpx.post(
            server.url + "/api/register", json={"name": "somebody", "password": PASSWORD}
        )
        assert reply.status_code == 200, reply.text
        tokens = {
            "guest": server.guest()["token"],
            "player": reply.json()["token"],
            "moderator": login(server, "Mod"),
            "operator": login(server, "Ops"),
            "administrator": login(server, "Boss"),
        }
        for method, path, body in ROUTES:
            assert call(server, None, method, path, body).status_code == 401, path
            for who, token in tokens.items():
                status = call(server, token, method, path, body).status_code
                allowed = who != "guest" and ORDER.index(who) >= ORDER.index(LOWEST[path])
                assert (status < 400) == allowed, (who, path, status)
                if not allowed:
                    assert status == 403, (who, path, status)
        for who, status in (("moderator", 403), ("operator", 404), ("administrator", 404)):
            looked = call(server, tokens[who], "GET", "/api/admin/hands/nope", None)
            assert looked.status_code == status, who
        _adjustments(server, tokens)
        _overview_and_roles(server, tokens)
        asyncio.run(_metrics_move_with_play(server, tokens["guest"]))
        asyncio.run(_a_muted_player_cannot_chat(server, tokens))
        asyncio.run(_an_operator_opens_a_table(server, tokens))
        server.stop()
        server.start()  # the table opened live is kept
        assert server.table("live-1")["name"] == "Live one"
        sat = asyncio.run(_sit(server, server.guest()["token"], "live-1", 3))  # seat 2: still taken
        assert sat["type"] == "ok", sat
        health = httpx.get(server.url + "/health", timeout=10).json()
        assert health["ok"] is True
        assert (health["storage"], health["bus"]) == ("ok", "ok")
    finally:
        server.stop()


def _adjustments(server: Server, tokens: dict[str, str]) -> None:
    ops = tokens["operator"]
    before = server.me(tokens["player"])["balance"]  # the routes' test already added 5
    done = call(server, ops, "POST", "/api/admin/adjust", {
        "name": "somebody", "amount": -120, "reason": "chip dumping reversed, ticket 88"
    })  # fmt: skip
    assert done.status_code == 200, done.text
    assert server.me(tokens["player"])["balance"] == before - 120
    too_much = call(server, ops, "POST", "/api/admin/adjust", {
        "name": "somebody", "amount": -(before * 10), "reason": "empty it"
    })  # fmt: skip
    assert too_much.status_code == 400
    assert "cannot be taken" in too_much.json()["error"]
    for bad in (
        {"name": "somebody", "amount": 0, "reason": "x"},
        {"name": "somebody", "amount": 10, "reason": ""},
        {"name": "somebody", "amount": 10**12, "reason": "x"},
        {"name": "nobody-here", "amount": 10, "reason": "x"},
        {"name": "somebody", "amount": "10", "reason": "x"},
        {"name": "somebody", "amount": 10, "reason": "x", "extra": 1},
    ):
        refused = call(server, ops, "POST", "/api/admin/adjust", bad)
        assert refused.status_code in (400, 404), (bad, refused.status_code)
        assert refused.json()["error"]
    assert server.me(tokens["player"])["balance"] == before - 120
    entries = call(server, ops, "GET", "/api/admin/audit?limit=5", None).json()["entries"]
    latest = entries[0]
    assert (latest["actor"], latest["action"], latest["target"]) == (
        "Ops",
        "adjust-balance",
        "somebody",
    )
    assert latest["detail"]["amount"] == -120
    assert latest["reason"] == "chip dumping reversed, ticket 88"
    assert call(server, ops, "GET", "/api/admin/audit?limit=x", None).status_code == 400
    card = call(server, tokens["moderator"], "GET", "/api/admin/players/somebody", None).json()
    assert card["balance"] == before - 120
    assert card["transactions"][0]["kind"] == "adjustment"


def _overview_and_roles(server: Server, tokens: dict[str, str]) -> None:
    boss, player = tokens["administrator"], tokens["player"]
    made = call(server, boss, "POST", "/api/admin/roles", {
        "name": "somebody", "role": "moderator", "reason": "trusted regular"
    })  # fmt: skip
    assert made.status_code == 200, made.text
    overview = call(server, player, "GET", "/api/admin/overview", None)  # a moderator now
    assert overview.status_code == 200
    figures = overview.json()
    assert figures["this_process"]["units"] == 1
    assert figures["hands_today"] >= 0
    last = call(server, boss, "POST", "/api/admin/roles", {
        "name": "Boss", "role": "player", "reason": "leaving"
    })  # fmt: skip
    assert last.status_code == 400
    assert "at least one administrator" in last.json()["error"]


async def _metrics_move_with_play(server: Server, token: str) -> None:
    first = _samples(server)
    hands = ("drawpoker_hands_total", (("table", "busy"),))
    deadline = time.monotonic() + 20
    while _samples(server).get(hands, 0) < first.get(hands, 0) + 2:
        assert time.monotonic() < deadline, "the bots' hands were not counted"
        await asyncio.sleep(0.2)
    client = await Client(server, token, "g").connect()
    try:
        await client.send({"type": "ping"})
        await client.wait(lambda f: f["type"] == "pong")
        live = _samples(server)
        assert live[("drawpoker_connections", ())] >= 1
        pings = ("drawpoker_message_seconds_count", (("type", "ping"),))
        assert live.get(pings, 0) >= first.get(pings, 0) + 1
        commits = ("drawpoker_db_transaction_seconds_count", (("outcome", "committed"),))
        assert live[commits] > first[commits]
        assert live[("drawpoker_units_held", ())] == 1
        balanced = ("drawpoker_ledger_checks_total", (("outcome", "balanced"),))
        while _samples(server).get(balanced, 0) < 1:  # the first check, soon after start
            assert time.monotonic() < deadline + 20, "the books were not checked"
            await asyncio.sleep(0.2)
    finally:
        await client.close()


async def _a_muted_player_cannot_chat(server: Server, tokens: dict[str, str]) -> None:
    spammer = await Client(server, tokens["player"], "spammer").connect()
    other = await Client(server, tokens["guest"], "other").connect()
    line = {"type": "chat", "table": "busy", "text": "buy chips at example dot com"}
    try:
        assert (await spammer.request(line))["type"] == "ok"
        muted = call(server, tokens["moderator"], "POST", "/api/admin/mute", {
            "name": "somebody", "minutes": 30, "reason": "advertising in chat"
        })  # fmt: skip
        assert muted.status_code == 200, muted.text
        refused = await spammer.request(line)  # the very next line, on a connection already open
        assert (refused["type"], refused["code"]) == ("error", "muted")
        assert "until" in refused["message"]
        assert (await other.request({**line, "text": "hello"}))["type"] == "ok"
        deletion = {"table": "busy", "name": "somebody", "text": line["text"], "reason": "spam"}
        bystander = httpx.post(
            server.url + "/api/register", json={"name": "bystander", "password": PASSWORD}
        ).json()["token"]
        for token in (tokens["guest"], bystander):  # ("somebody" is a moderator by now)
            refused_here = call(server, token, "POST", "/api/admin/chat/delete", deletion)
            assert refused_here.status_code == 403
        assert (await other.request({"type": "subscribe", "table": "busy"}))["type"] == "ok"
        mark = len(other.frames)
        deleted = call(server, tokens["moderator"], "POST", "/api/admin/chat/delete", deletion)
        assert deleted.json() == {"ok": True, "deleted": 1}, deleted.text
        gone = await other.wait(
            lambda f: f["type"] == "event" and f["event"]["type"] == "ChatDeleted", start=mark
        )
        assert gone["event"]["text"] == line["text"]
        again = call(server, tokens["moderator"], "POST", "/api/admin/chat/delete", deletion)
        assert again.status_code == 404  # only a line the table keeps
        kept = [c["text"] for c in server.table("busy")["state"]["chat"]]
        assert line["text"] not in kept
        assert "hello" in kept
        card = call(server, tokens["moderator"], "GET", "/api/admin/players/somebody", None)
        assert card.json()["muted_until"] > time.time() + 29 * 60
        lifted = call(server, tokens["moderator"], "POST", "/api/admin/mute", {
            "name": "somebody", "minutes": 0, "reason": "apologised"
        })  # fmt: skip
        assert lifted.json() == {"ok": True, "muted_until": None}
        assert (await spammer.request({**line, "text": "sorry"}))["type"] == "ok"
    finally:
        await spammer.close()
        await other.close()
    entries = call(server, tokens["operator"], "GET", "/api/admin/audit?limit=2", None).json()
    assert [(e["action"], e["actor"], e["reason"]) for e in entries["entries"]] == [
        ("unmute", "Mod", "apologised"),
        ("delete-chat", "Mod", "spam"),
    ]


NEW_TABLE = {
    "id": "live-1",
    "name": "Live one",
    "game": {"preset": "online", "structure": "pot-limit", "small_blind": 1, "big_blind": 2},
    "min_buy_in": 40,
    "max_buy_in": 200,
    "bots": 1,
    "reason": "evening demand",
}


async def _sit(server: Server, token: str, table_id: str, seat: int) -> dict[str, Any]:
    client = await Client(server, token, "sitter").connect()
    try:
        return await client.request({"type": "sit", "table": table_id, "seat": seat, "buy_in": 100})
    finally:
        await client.close()


async def _an_operator_opens_a_table(server: Server, tokens: dict[str, str]) -> None:
    for who in ("guest", "player", "moderator"):
        refused = call(server, tokens[who], "POST", "/api/admin/tables", NEW_TABLE)
        assert refused.status_code == 403, who
    assert "live-1" not in {t["id"] for t in httpx.get(server.url + "/api/tables").json()["tables"]}
    opened = call(server, tokens["operator"], "POST", "/api/admin/tables", NEW_TABLE)
    assert opened.status_code == 200, opened.text
    lobby = httpx.get(server.url + "/api/tables", timeout=10).json()["tables"]
    assert "live-1" in {t["id"] for t in lobby}  # no restart
    assert (await _sit(server, tokens["player"], "live-1", 2))["type"] == "ok"
    for bad, status, said in (
        (NEW_TABLE, 409, "already a table"),
        ({**NEW_TABLE, "id": "busy"}, 409, "already a table"),
        ({**NEW_TABLE, "id": "Bad Id"}, 400, "table id"),
        ({**NEW_TABLE, "id": "t2", "min_buy_in": 500}, 400, "minimum buy-in"),
        ({**NEW_TABLE, "id": "t3", "bots": 6}, 400, "bots would fill"),
        ({**NEW_TABLE, "id": "t4", "game": {"structure": "no-such"}}, 400, "the game"),
        ({**NEW_TABLE, "id": "t5", "game": {"colour": "red"}}, 400, "the game"),
        ({**NEW_TABLE, "id": "t6", "reason": ""}, 400, "reason"),
        ({**NEW_TABLE, "id": "t7", "action_time_s": 1}, 400, "action clock"),
    ):
        refused = call(server, tokens["administrator"], "POST", "/api/admin/tables", bad)
        assert refused.status_code == status, (bad, refused.text)
        assert said in refused.json()["error"], refused.text
    lobby = httpx.get(server.url + "/api/tables", timeout=10).json()["tables"]
    assert not {"t2", "t3", "t4", "t5", "t6", "t7"} & {t["id"] for t in lobby}
    latest = call(server, tokens["operator"], "GET", "/api/admin/audit?limit=1", None).json()
    entry = latest["entries"][0]
    assert (entry["action"], entry["target"], entry["actor"]) == ("open-table", "live-1", "Ops")
    assert entry["detail"]["max_buy_in"] == 200


def _request(host: str, state: Any) -> Request:
    app = SimpleNamespace(state=state)
    scope = {"type": "http", "method": "GET", "path": "/", "headers": [], "client": (host, 4000)}
    return Request({**scope, "app": app})


def test_metrics_only_to_the_addresses_allowed() -> None:
    state = SimpleNamespace(metrics_from=server_app.LOOPBACK | {"10.0.0.7"})
    for host, status in (("127.0.0.1", 200), ("10.0.0.7", 200), ("10.0.0.8", 403), ("", 403)):
        assert asyncio.run(server_app.figures(_request(host, state))).status_code == status


def test_health_says_what_does_not_answer() -> None:
    class Broken:
        async def run(self, fn: Any) -> None:
            raise OSError("connection refused")

    class Bus:
        async def health(self) -> str | None:
            return "Redis does not answer: timeout"

    room = SimpleNamespace(store=Broken(), bus=Bus())
    answer = asyncio.run(server_app.health(_request("127.0.0.1", SimpleNamespace(room=room))))
    assert answer.status_code == 503
    body = bytes(answer.body).decode()
    assert '"ok":false' in body
    assert "the database failed: OSError" in body
    assert "Redis does not answer" in body


def test_json_logs_are_one_object_per_line(tmp_path: Path) -> None:
    server = Server(tmp_path, None, [table("t1")], args=["--log-format", "json"]).start()
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as raw:
            raw.sendall(b"NOT HTTP AT ALL\r\n\r\n")  # uvicorn logs a warning
            raw.recv(1000)
        deadline = time.monotonic() + 10
        while "Invalid HTTP request" not in server.log.read_text():
            assert time.monotonic() < deadline, server.log.read_text()
            time.sleep(0.1)
    finally:
        server.stop()
    entries = [json.loads(line) for line in server.log.read_text().splitlines() if line.strip()]
    assert entries[0]["message"].startswith("drawpoker serving on http://127.0.0.1:")
    warning = next(e for e in entries if "Invalid HTTP request" in e["message"])
    assert (warning["level"], warning["logger"]) == ("WARNING", "uvicorn.error")
    assert {"time", "process"} <= set(warning)


def test_json_lines_carry_the_traceback() -> None:
    from drawpoker.server.logfilter import JsonLines

    try:
        raise ValueError("a broken thing")
    except ValueError:
        record = logging.LogRecord("drawpoker.server", logging.ERROR, "", 0, "x %s", ("y",), None)
        record.exc_info = sys.exc_info()
    entry = json.loads(JsonLines().format(record))
    assert entry["message"] == "x y"
    assert "ValueError: a broken thing" in entry["exception"]
    assert entry["time"].endswith("+00:00")


def test_a_banned_player_is_turned_away(tmp_path: Path, database: str | None) -> None:
    """Banned mid-session: the connection closes, the session ends, the seat is
    cashed out when the hand is over, every chip is where the ledger says."""
    server = Server(tmp_path, database, [table("t", seats=2, bots=1, action_time=2.0)])
    make_staff(server, "Ops", "operator")
    make_staff(server, "Ops2", "operator")
    make_staff(server, "Mod", "moderator")
    server.start()
    try:
        ops = login(server, "Ops")
        made = httpx.post(
            server.url + "/api/register", json={"name": "cheat", "password": PASSWORD}
        )
        token = made.json()["token"]
        asyncio.run(_banned_at_the_table(server, ops, token))
        assert server.me(token).get("error")  # the session is over
        refused = httpx.post(
            server.url + "/api/login", json={"name": "cheat", "password": PASSWORD}
        )
        assert refused.status_code == 403
        assert "suspended for good" in refused.json()["error"]
        peer = call(server, ops, "POST", "/api/admin/suspend", {
            "name": "Ops2", "days": 1, "reason": "x"
        })  # fmt: skip
        assert peer.status_code == 403  # an operator cannot suspend another operator
        for bad in ({"name": "cheat", "days": -1, "reason": "x"},
                    {"name": "cheat", "days": 7, "reason": ""},
                    {"name": "nobody", "days": 7, "reason": "x"}):  # fmt: skip
            assert call(server, ops, "POST", "/api/admin/suspend", bad).status_code in (400, 404)
        lifted = call(server, ops, "POST", "/api/admin/suspend", {
            "name": "cheat", "days": 0, "reason": "appeal upheld"
        })  # fmt: skip
        assert lifted.json()["suspended_until"] is None
        login(server, "cheat")
        actions = [
            e["action"]
            for e in call(server, ops, "GET", "/api/admin/audit", None).json()["entries"]
        ]
        assert actions[:3] == ["reinstate", "ban", "sit-out"]
    finally:
        server.stop()
    store = Store(database_url(database, tmp_path / "data"))
    try:
        store.call(ledger.check_books)
    finally:
        store.close()


async def _banned_at_the_table(server: Server, ops: str, token: str) -> None:
    player = await Client(server, token, "cheat").connect()
    try:
        await _sat_out_then_banned(server, ops, player)
    finally:
        await player.close()


async def _sat_out_then_banned(server: Server, ops: str, player: Client) -> None:
    sat = await player.request({"type": "sit", "table": "t", "seat": 2, "buy_in": 100})
    assert sat["type"] == "ok", sat
    await player.wait(lambda f: f["type"] == "event" and f["event"]["type"] == "HandStarted", 15)
    mod = login(server, "Mod")
    order = {"name": "cheat", "table": "t", "action": "sit_out", "reason": "asleep at the table"}
    assert call(server, mod, "POST", "/api/admin/seat", order).status_code == 200
    await player.wait(
        lambda f: (
            f["type"] == "event" and f["event"]["type"] == "SatOut" and f["event"]["seat"] == 2
        ),
        10,
    )
    freeroll = {"id": "later", "name": "Later", "kind": "scheduled", "buy_in": 20, "fee": 2,
                "first_start_s": 3600, "reason": "for tonight"}  # fmt: skip
    assert call(server, ops, "POST", "/api/admin/tournaments", freeroll).status_code == 200
    joined = httpx.post(
        server.url + "/api/tournaments/later/register",
        cookies={"dp_session": player.token or ""},
        headers={"Origin": server.url},
    )
    assert joined.status_code == 200, joined.text
    for bad, status in (
        ({**order, "name": "Ops"}, 403),  # a moderator cannot order an operator about
        ({**order, "table": "nowhere"}, 404),
        ({**order, "name": "Mod"}, 403),
        ({**order, "action": "shoot"}, 400),
    ):
        assert call(server, mod, "POST", "/api/admin/seat", bad).status_code == status, bad
    banned = call(server, ops, "POST", "/api/admin/suspend", {
        "name": "cheat", "days": None, "reason": "chip dumping ring"
    })  # fmt: skip
    assert banned.status_code == 200, banned.text
    assert banned.json()["tables"] == ["t"]
    assert banned.json()["tournaments"] == ["later"]  # the registration refunded
    row = httpx.get(server.url + "/api/tournaments/later", timeout=10).json()
    assert row["registered"] == 0, row
    await asyncio.wait_for(player._reader, 10)  # closed by the server
    assert player.ws.close_code == 1008
    deadline = time.monotonic() + 20
    while server.table("t")["seats_taken"] != 1:  # stood up once the hand is over
        assert time.monotonic() < deadline, server.table("t")
        await asyncio.sleep(0.2)
    card = call(server, ops, "GET", "/api/admin/players/cheat", None).json()
    assert card["suspended_until"] > time.time() + 10 * 365 * 86400
    assert {tx["kind"] for tx in card["transactions"][:2]} == {"cash-out", "sng-unregister"}
