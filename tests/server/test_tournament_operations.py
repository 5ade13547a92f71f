"""Operators schedule, change and cancel tournaments on a running server, without
a restart, and what they did survives one: a change reaches a run nobody has
registered for at once and otherwise the next run (a run keeps the terms its
players paid), a cancellation refunds every entry of the run open for
registration and takes the tournament out of the lobby for good. Every route is
refused to players, guests and moderators, and hostile requests change nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from drawpoker.server import ledger
from drawpoker.server.store import Store, database_url

from .helpers import Server, call, login, make_staff, table

pytestmark = pytest.mark.slow

EVENING = {
    "id": "evening",
    "name": "Evening sit & go",
    "kind": "sit-and-go",
    "buy_in": 50,
    "fee": 5,
    "max_entries": 3,
    "seats_per_table": 3,
    "reason": "players asked for a small one",
}


def _row(server: Server, spec_id: str) -> dict[str, Any] | None:
    rows = httpx.get(server.url + "/api/tournaments", timeout=10).json()["tournaments"]
    return next((row for row in rows if row["id"] == spec_id), None)


def _player(server: Server, token: str, what: str) -> httpx.Response:
    return httpx.post(
        server.url + f"/api/tournaments/evening/{what}",
        cookies={"dp_session": token},
        headers={"Origin": server.url},
        timeout=10,
    )


def test_an_operator_schedules_changes_and_cancels_a_tournament(
    tmp_path: Path, database: str | None
) -> None:
    server = Server(tmp_path, database, [table("t1", seats=2)])
    make_staff(server, "Ops", "operator")
    make_staff(server, "Mod", "moderator")
    server.start()
    try:
        ops, mod = login(server, "Ops"), login(server, "Mod")
        player = server.guest()["token"]
        start = server.me(player)["balance"]
        _refused_to_everyone_else(server, {"guest": player, "moderator": mod})
        _refused_when_wrong(server, ops)
        assert call(server, ops, "POST", "/api/admin/tournaments", EVENING).status_code == 200
        row = _row(server, "evening")
        assert row is not None
        assert (row["status"], row["buy_in"]) == ("registering", 50)
        again = call(server, ops, "POST", "/api/admin/tournaments", EVENING)
        assert again.status_code == 409

        done = call(server, ops, "POST", "/api/admin/tournaments/evening",
                    {**EVENING, "buy_in": 60, "reason": "a little more"})  # fmt: skip
        assert done.json()["applies"] == "now", done.text  # nobody registered yet
        assert _row(server, "evening")["buy_in"] == 60  # type: ignore[index]
        assert _player(server, player, "register").status_code == 200
        assert server.me(player)["balance"] == start - 65

        later = call(server, ops, "POST", "/api/admin/tournaments/evening",
                     {**EVENING, "buy_in": 80, "reason": "the next one"})  # fmt: skip
        assert later.json()["applies"] == "from the next run", later.text
        assert _player(server, player, "unregister").status_code == 200
        assert server.me(player)["balance"] == start  # the run's own terms back, not 80+5
        shorter = {**EVENING, "buy_in": 80, "name": "Evening", "reason": "shorter"}
        renamed = call(server, ops, "POST", "/api/admin/tournaments/evening", shorter)
        assert renamed.json()["applies"] == "now", renamed.text  # registered once, nobody now
        server.stop()
        server.start()  # the replaced run does not come back with its old terms
        row = _row(server, "evening")
        assert row is not None
        assert (row["name"], row["buy_in"], row["registered"]) == ("Evening", 80, 0)
        assert _player(server, player, "register").status_code == 200
        assert server.me(player)["balance"] == start - 85

        cancelled = call(server, ops, "POST", "/api/admin/tournaments/evening/cancel",
                         {"reason": "nobody came"})  # fmt: skip
        assert cancelled.json() == {"ok": True, "refunded": 1, "playing": []}, cancelled.text
        assert server.me(player)["balance"] == start  # every entry refunded
        assert _row(server, "evening") is None
        for path, body in (
            ("/api/admin/tournaments/evening/cancel", {"reason": "twice"}),
            ("/api/admin/tournaments/evening", {**EVENING, "reason": "too late"}),
        ):
            assert call(server, ops, "POST", path, body).status_code in (404, 409), path
        assert _player(server, player, "register").status_code in (404, 409)
        server.stop()
        server.start()  # cancelled stays cancelled
        assert _row(server, "evening") is None
        audit = call(server, ops, "GET", "/api/admin/audit?limit=10", None).json()["entries"]
        assert [e["action"] for e in audit if e["target"] == "evening"] == [
            "cancel-tournament", "edit-tournament", "edit-tournament", "edit-tournament",
            "schedule-tournament",
        ]  # fmt: skip
    finally:
        server.stop()
    store = Store(database_url(database, tmp_path / "data"))
    try:
        store.call(ledger.check_books)
        pools = store.call(lambda c: ledger.balances(c, "pool:evening-"))
        assert not any(pools.values()), pools
    finally:
        store.close()


def _refused_to_everyone_else(server: Server, tokens: dict[str, str]) -> None:
    routes = [
        ("GET", "/api/admin/tournaments", None),
        ("POST", "/api/admin/tournaments", EVENING),
        ("POST", "/api/admin/tournaments/evening", EVENING),
        ("POST", "/api/admin/tournaments/evening/cancel", {"reason": "x"}),
    ]
    for method, path, body in routes:
        assert call(server, None, method, path, body).status_code == 401, path
        for who, token in tokens.items():
            assert call(server, token, method, path, body).status_code == 403, (who, path)


def _refused_when_wrong(server: Server, ops: str) -> None:
    for bad, said in (
        ({**EVENING, "id": "Bad Id"}, "tournament id"),
        ({**EVENING, "kind": "knockout"}, "kind"),
        ({**EVENING, "seats_per_table": 9}, "seats"),
        ({**EVENING, "min_entries": 5}, "min_entries"),
        ({**EVENING, "bots": 4}, "bots"),
        ({**EVENING, "reason": ""}, "reason"),
        ({**EVENING, "buy_in": -1}, "buy-in"),
        ({**EVENING, "surprise": 1}, "surprise"),
        ({**EVENING, "id": "t1"}, "already a table"),
    ):
        refused = call(server, ops, "POST", "/api/admin/tournaments", bad)
        assert refused.status_code in (400, 409), (bad, refused.text)
        assert said in refused.json()["error"], refused.text
    assert _row(server, "evening") is None
    unknown = call(server, ops, "POST", "/api/admin/tournaments/nope", {**EVENING, "id": "nope"})
    assert unknown.status_code == 404
