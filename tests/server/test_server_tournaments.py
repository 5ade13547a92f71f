"""Sit & go tournaments run by the server: registration through the ledger, the
lobby list and detail, a whole sit & go of 6 played to the end and paid, and the
refund of an instance a stopped server left behind (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from drawpoker.bots.remote import RemoteBot
from drawpoker.history import pokerstars
from drawpoker.server import auth, ledger
from drawpoker.server.auth import STARTING_CHIPS
from drawpoker.server.store import (
    Store,
    database_url,
    hands,
    ledger_entries,
    ledger_tx,
    tournaments,
)
from drawpoker.server.tournament.money import (
    FEES,
    PRIZES,
    REFUND,
    REGISTER,
    UNREGISTER,
    pool,
)
from drawpoker.server.tournament.run import RunActor
from drawpoker.server.tournament.spec import TournamentSpec

from .helpers import Client, Server, local_series

FAST_LEVELS = [[5, 10, 0, 0.05], [10, 20, 0, 0.05], [25, 50, 0, 0.05], [50, 100, 0, 0.05],
               [100, 200, 0, 0.05], [200, 400, 0, 0.05], [500, 1000, 0, 0.05]]  # fmt: skip


NOTICE_KINDS = {"TournamentStarted", "LevelStarted", "PlayerEliminated", "TournamentFinished"}


def sng(sng_id: str, **extra: Any) -> dict[str, Any]:
    return {
        "id": sng_id,
        "name": f"test {sng_id}",
        "buy_in": 100,
        "fee": 10,
        "starting_stack": 200,
        "max_entries": 3,
        "seats_per_table": 6,
        "levels": FAST_LEVELS,
        "between_hands_s": 0.02,
        **extra,
    }


def start(tmp: Path, database: str | None, tournaments: list[dict[str, Any]]) -> Server:
    server = Server(tmp, database, [])
    server.room.write_text(json.dumps({"tables": [], "tournaments": tournaments}))
    return server.start()


def post(server: Server, path: str, token: str | None) -> httpx.Response:
    cookies = {"dp_session": token} if token else {}
    return httpx.post(server.url + path, cookies=cookies, timeout=10)


def get(server: Server, path: str) -> dict[str, Any]:
    response = httpx.get(server.url + path, timeout=10)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def books(tmp: Path, database: str | None) -> Store:
    return Store(database_url(database, tmp / "data"))


def tx_sums(store: Store, ref: str) -> dict[str, dict[str, int]]:
    """Per transaction kind: the net amount per ledger account, for ``ref``."""
    rows = store.call(
        lambda c: c.execute(
            select(ledger_tx.c.kind, ledger_entries.c.account, ledger_entries.c.amount)
            .join(ledger_entries, ledger_entries.c.tx_id == ledger_tx.c.id)
            .where(ledger_tx.c.ref == ref)
        ).all()
    )
    out: dict[str, dict[str, int]] = {}
    for kind, account, amount in rows:
        kind_sums = out.setdefault(kind, {})
        kind_sums[account] = kind_sums.get(account, 0) + int(amount)
    return out


def test_register_unregister_and_errors(tmp_path: Path, database: str | None) -> None:
    server = start(tmp_path, database, [sng("s3"), sng("rich", buy_in=50_000, fee=500)])
    try:
        listed = {t["id"]: t for t in get(server, "/api/tournaments")["tournaments"]}
        row = listed["s3"]
        assert row["buy_in"] == 100
        assert row["fee"] == 10
        assert row["starting_chips"] == 200
        assert row["registered"] == 0
        assert row["max_entries"] == 3
        assert row["starts"] == "when full"
        assert row["status"] == "registering"
        assert row["prize_pool"] == 0
        assert row["structure"] == "no-limit"
        assert row["levels"][0] == {
            "level": 1, "small_blind": 5, "big_blind": 10, "ante": 0, "minutes": 0.05
        }  # fmt: skip
        instance = row["instance"]
        a, b, c, d = (server.guest() for _ in range(4))

        assert post(server, "/api/tournaments/s3/register", None).status_code == 401
        assert post(server, "/api/tournaments/nope/register", a["token"]).status_code == 404
        r = post(server, "/api/tournaments/rich/register", a["token"])
        assert r.status_code == 400
        assert "not enough chips" in r.json()["error"]

        r = post(server, "/api/tournaments/s3/register", a["token"])
        assert r.status_code == 200, r.text
        assert r.json() == {"tournament": instance, "registered": 1, "status": "registering"}
        assert server.me(a["token"])["balance"] == STARTING_CHIPS - 110
        r = post(server, f"/api/tournaments/{instance}/register", a["token"])
        assert r.status_code == 409
        assert "already registered" in r.json()["error"]
        assert get(server, "/api/tournaments/s3")["prize_pool"] == 100
        mine = httpx.get(
            server.url + "/api/tournaments", cookies={"dp_session": a["token"]}, timeout=10
        ).json()["tournaments"]
        assert mine[0]["you"] == {"registered": True, "playing": []}
        assert "you" not in get(server, "/api/tournaments")["tournaments"][0]

        r = post(server, "/api/tournaments/s3/unregister", a["token"])
        assert r.status_code == 200
        assert r.json()["refund"] == 110
        assert server.me(a["token"])["balance"] == STARTING_CHIPS
        r = post(server, "/api/tournaments/s3/unregister", a["token"])
        assert r.status_code == 409
        assert "not registered" in r.json()["error"]

        for player in (a, b, c):  # full: it starts
            assert post(server, "/api/tournaments/s3/register", player["token"]).status_code == 200
        detail = get(server, f"/api/tournaments/{instance}")
        assert detail["status"] == "running"
        mine = httpx.get(
            server.url + "/api/tournaments", cookies={"dp_session": a["token"]}, timeout=10
        ).json()["tournaments"]
        playing = [{"instance": instance, "table": f"{instance}-t1"}]
        assert mine[0]["you"] == {"registered": False, "playing": playing}
        assert detail["registered"] == 3
        assert detail["prize_pool"] == 300
        assert detail["payouts"] == [300]
        assert sorted(p["name"] for p in detail["players"]) == sorted(p["name"] for p in (a, b, c))
        assert len(detail["tables"]) == 1
        assert len(detail["tables"][0]["seats"]) == 3
        assert detail["level"]["level"] >= 1
        r = post(server, f"/api/tournaments/{instance}/register", d["token"])
        assert r.status_code == 409
        assert "started" in r.json()["error"]
        r = post(server, f"/api/tournaments/{instance}/unregister", a["token"])
        assert r.status_code == 409
        assert "started" in r.json()["error"]
        assert httpx.get(server.url + "/api/tournaments/nope", timeout=10).status_code == 404

        # Left registered in a sit & go that has not started, then the server stops.
        assert post(server, "/api/tournaments/rich/register", d["token"]).status_code == 400
        rich = get(server, "/api/tournaments/rich")["id"]
    finally:
        server.stop()
    store = books(tmp_path, database)
    try:
        sums = tx_sums(store, instance)
        assert sums[REGISTER] == {
            ledger.player(a["id"]): -220, ledger.player(b["id"]): -110,
            ledger.player(c["id"]): -110, pool(instance): 400, FEES: 40,
        }  # fmt: skip
        assert sums[UNREGISTER] == {ledger.player(a["id"]): 110, pool(instance): -100, FEES: -10}
        assert tx_sums(store, rich) == {}
        store.call(ledger.check_books)
    finally:
        store.close()


async def _wait_for_my_turn(server: Server, token: str, tournament: str) -> None:
    """Go to my tournament table and wait until it is my turn (without acting)."""
    me = await Client(server, token, "me").connect()
    answer = await me.request({"type": "subscribe", "table": tournament})
    table = answer["detail"]["table"]
    assert table, answer
    await me.request({"type": "subscribe", "table": table})
    await me.wait(lambda f: f["type"] == "event" and f["event"]["type"] == "Legal", 30)
    await me.close()


def test_a_restart_resumes_runs_and_refunds_what_cannot_resume(
    tmp_path: Path, database: str | None
) -> None:
    """The server stops with one sit & go registering, one running and one whose saved
    state is lost. On the next start the first keeps its entrant, the second resumes
    from its last finished hand (the hand in play cancelled) and finishes and pays,
    and the third is cancelled with every buy-in and fee refunded."""
    rooms = [sng("s3"), sng("r2", max_entries=2, action_time_s=60.0), sng("lost")]
    server = start(tmp_path, database, rooms)
    try:
        a, b, c, d = (server.guest() for _ in range(4))
        waiting = get(server, "/api/tournaments/s3")["id"]
        running = get(server, "/api/tournaments/r2")["id"]
        lost = get(server, "/api/tournaments/lost")["id"]
        assert post(server, "/api/tournaments/s3/register", a["token"]).status_code == 200
        assert post(server, "/api/tournaments/lost/register", d["token"]).status_code == 200
        for player in (b, c):
            assert post(server, "/api/tournaments/r2/register", player["token"]).status_code == 200
        detail = get(server, f"/api/tournaments/{running}")
        assert detail["status"] == "running"
        asyncio.run(_wait_for_my_turn(server, b["token"], "r2"))  # a hand is in play
    finally:
        server.stop()
    store = books(tmp_path, database)
    try:
        store.call(lambda conn: conn.execute(tournaments.delete().where(tournaments.c.id == lost)))
        before = store.call(
            lambda conn: conn.execute(
                select(tournaments.c.status).where(tournaments.c.id == running)
            ).scalar_one()
        )
        assert before == "running"
    finally:
        store.close()
    server = start(tmp_path, database, rooms)
    try:
        assert server.me(a["token"])["balance"] == STARTING_CHIPS - 110
        assert server.me(d["token"])["balance"] == STARTING_CHIPS  # refunded
        row = get(server, "/api/tournaments/s3")
        assert (row["id"], row["registered"], row["prize_pool"]) == (waiting, 1, 100)
        deadline = time.monotonic() + 60
        while (detail := get(server, f"/api/tournaments/{running}"))["status"] != "finished":
            assert time.monotonic() < deadline, detail
            time.sleep(0.2)
        balances = [server.me(p["token"])["balance"] for p in (b, c)]
    finally:
        server.stop()
    assert "Traceback" not in server.log.read_text()  # e.g. a hand id used twice
    assert detail["hands"] >= 2  # counted across the restart
    assert sorted(balances) == [STARTING_CHIPS - 110, STARTING_CHIPS - 110 + 200]
    assert [s["prize"] for s in detail["standings"]] == [200, 0]
    store = books(tmp_path, database)
    try:
        assert REFUND not in tx_sums(store, running)
        assert tx_sums(store, running)[PRIZES][pool(running)] == -200
        assert tx_sums(store, lost)[REFUND] == {
            ledger.player(d["id"]): 110,
            pool(lost): -100,
            FEES: -10,
        }
        assert tx_sums(store, waiting) == {
            REGISTER: {ledger.player(a["id"]): -110, pool(waiting): 100, FEES: 10}
        }
        cancelled = store.call(
            lambda conn: conn.execute(
                select(hands.c.id).where(
                    hands.c.table_id.like(f"{running}-t%"), hands.c.status == "cancelled"
                )
            ).all()
        )
        assert len(cancelled) == 1  # the hand in play at the stop
        assert store.call(ledger.balance, pool(running)) == 0
        assert store.call(ledger.balance, pool(lost)) == 0
        store.call(ledger.check_books)
    finally:
        store.close()


def test_sit_and_go_of_six_runs_to_the_end(tmp_path: Path, database: str | None) -> None:
    """5 bots and a test player registered through REST who never connects: the
    server plays for them (check/fold, stand pat) while the bots play it out."""
    config = sng("six", max_entries=6, bots=5, bot_register_s=0.05)
    server = start(tmp_path, database, [config])
    began = time.monotonic()
    try:
        me = server.guest()
        r = post(server, "/api/tournaments/six/register", me["token"])
        assert r.status_code == 200, r.text
        instance = r.json()["tournament"]
        deadline = time.monotonic() + 60
        while True:
            detail = get(server, f"/api/tournaments/{instance}")
            if detail["status"] == "finished":
                break
            assert time.monotonic() < deadline, f"not finished in 60 s: {detail}"
            time.sleep(0.2)
        my_balance = server.me(me["token"])["balance"]
        # A new instance opened; the bots register for it but it waits for a person.
        time.sleep(0.5)
        nxt = get(server, "/api/tournaments/six")
        assert nxt["id"] != instance
        assert nxt["status"] == "registering"
        assert nxt["registered"] == 5
        listed = get(server, "/api/tournaments")["tournaments"][0]
        assert instance in listed["finished"]
    finally:
        server.stop()
    assert time.monotonic() - began < 60

    assert detail["prize_pool"] == 600
    assert detail["payouts"] == [390, 210]
    standings = detail["standings"]
    # Places 1..6 once each; players busted in one hand with equal stacks share
    # their places (the room's rule): k players hold the same k places.
    shared = [tuple(s["places"]) for s in standings]
    assert sorted(p for places in set(shared) for p in places) == [1, 2, 3, 4, 5, 6]
    assert all(shared.count(places) == len(places) for places in shared)
    assert len(standings) == 6
    assert len({s["name"] for s in standings}) == 6
    assert sum(s["prize"] for s in standings) == 600
    assert standings[0]["place"] == 1
    assert standings[0]["prize"] >= 210
    assert all(p["chips"] == 0 for p in detail["players"] if 1 not in p["places"])
    winner = next(p for p in detail["players"] if 1 in p["places"])
    assert winner["chips"] == 6 * 200
    assert sum(1 for p in detail["players"] if p["bot"]) == 5
    kinds = [n["type"] for n in detail["notices"]]
    assert kinds[0] == "TournamentStarted"
    assert kinds[-1] == "TournamentFinished"
    assert kinds.count("PlayerEliminated") == 5
    assert "LevelStarted" in kinds
    assert detail["notices"][-1]["name"] == standings[0]["name"]
    prizes = {str(s["account"]): s["prize"] for s in standings if s["prize"]}
    assert detail["paid"] == prizes
    assert my_balance == STARTING_CHIPS - 110 + prizes.get(str(me["id"]), 0)

    store = books(tmp_path, database)
    try:
        sums = tx_sums(store, instance)
        players = {ledger.player(s["account"]) for s in standings}
        assert sums[REGISTER] == {**dict.fromkeys(players, -110), pool(instance): 600, FEES: 60}
        assert sums[PRIZES] == {
            pool(instance): -600,
            **{ledger.player(int(a)): prize for a, prize in prizes.items()},
        }
        assert store.call(ledger.balance, pool(instance)) == 0
        store.call(ledger.check_books)
    finally:
        store.close()


def test_a_run_that_cannot_start_is_cancelled_and_refunded(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """If the tables of a full sit & go cannot open, the room's rule for a server
    failure applies at once: cancelled, every buy-in and fee refunded, a new run open."""
    store = Store(store_url)
    try:
        a, b = store.call(auth.create_guest), store.call(auth.create_guest)

        def broken(self: RunActor, table_no: int) -> None:
            raise RuntimeError("a bug while opening the tables")

        monkeypatch.setattr(RunActor, "_open_table", broken)

        async def scenario() -> str:
            spec = TournamentSpec.from_dict(sng("f2", max_entries=2))
            series = local_series(spec, store)
            series.start()
            first = series.current
            await series.call(series.register, a)
            await series.call(series.register, b)
            for _ in range(50):  # the run tells its series it is over
                if first in series.finished:
                    break
                await asyncio.sleep(0.05)
            assert series.current is not first
            detail = await series.call(series.detail, first.id)
            assert detail["status"] == "cancelled"
            assert series.row().status == "registering"
            await series.stop()
            return first.id

        instance = asyncio.run(scenario())
        for account in (a, b):
            assert store.call(ledger.balance, ledger.player(account.id)) == STARTING_CHIPS
        assert store.call(ledger.balance, pool(instance)) == 0
        assert tx_sums(store, instance)[REFUND] == {
            ledger.player(a.id): 110, ledger.player(b.id): 110, pool(instance): -200, FEES: -20
        }  # fmt: skip
        saved = store.call(
            lambda c: c.execute(
                select(tournaments.c.status).where(tournaments.c.id == instance)
            ).scalar_one()
        )
        assert saved == "cancelled"
        store.call(ledger.check_books)
    finally:
        store.close()


async def _play_by_websocket(server: Server, token: str) -> tuple[str, Client, int, list[str]]:
    """Subscribe to the tournament, register, go to the table the server names and
    answer every ``Legal``: stand pat at the draw, check or call when betting, until
    the private ``Finished``. Returns the run, the client, the number of actions the
    server accepted and the tables played at."""
    me = await Client(server, token, "me").connect()
    answer = await me.request({"type": "subscribe", "table": "ws6"})
    assert answer["type"] == "ok", answer
    instance = answer["detail"]["tournament"]
    assert answer["detail"] == {
        "tournament": instance,
        "table": None,
        "table_no": None,
        "seat": None,
    }
    r = await asyncio.to_thread(post, server, "/api/tournaments/ws6/register", token)
    assert r.status_code == 200, r.text
    assert r.json()["tournament"] == instance
    seated = await me.wait(lambda f: f["type"] == "event" and f["event"]["type"] == "YourTable", 30)
    table = seated["event"]["table"]
    assert seated["table"] == instance
    answer = await me.request({"type": "subscribe", "table": table})
    assert answer["type"] == "ok", answer
    acted, seen, tables = 0, 0, [table]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        frame = await me.wait(
            lambda f: f["type"] == "event" and f["event"]["type"] in ("Legal", "Finished", "Moved"),
            60,
            start=seen,
        )
        seen = me.frames.index(frame) + 1
        event = frame["event"]
        if event["type"] == "Finished":
            break
        if event["type"] == "Moved":
            table = event["table"]
            tables.append(table)
            await me.request({"type": "subscribe", "table": table})
            continue
        legal, hand_id = event["legal"], event["hand_id"]
        message: dict[str, Any] = {"table": table, "hand_id": hand_id, "action_id": f"a{seen}"}
        if legal["draw"]:
            message |= {"type": "draw", "discard": []}
        else:
            message |= {"type": "act", "action": "check" if legal["check"] else "call"}
        while True:  # the hands are fast: past 20 messages a second, wait and resend
            mark = len(me.frames)
            ref = await me.send(message)
            reply = await me.wait(
                lambda f, ref=ref: f["type"] in ("ok", "error") and f.get("ref") in (ref, None),
                start=mark,
            )
            if reply.get("code") != "rate_limited":
                break
            await asyncio.sleep(0.2)
        assert reply["type"] == "ok", reply
        acted += 1
    while True:  # the end of the tournament reaches the channel too
        detail = await asyncio.to_thread(get, server, f"/api/tournaments/{instance}")
        if detail["status"] == "finished":
            break
        assert time.monotonic() < deadline
        await asyncio.sleep(0.2)
    await me.close()
    return instance, me, acted, tables


def test_a_person_plays_a_sit_and_go_over_the_websocket(
    tmp_path: Path, database: str | None
) -> None:
    """A sit & go of 6 websocket clients: 5 remote bots and a test player who plays
    every decision; the player sees only their own cards, everyone hears their own
    place and prize, and the books balance at the end."""
    config = sng("ws6", max_entries=6, action_time_s=5.0, between_hands_s=0.1)
    server = start(tmp_path, database, [config])

    async def field(token: str) -> tuple[tuple[str, Client, int, list[str]], list[Any]]:
        kinds = ["tag", "shark", "calling-station", "random", "tag"]
        bots = [RemoteBot(server.url, kind=kind, seed=i) for i, kind in enumerate(kinds)]
        for bot in bots:
            await bot.connect()
        try:
            person, *results = await asyncio.gather(
                _play_by_websocket(server, token), *(b.play_tournament("ws6") for b in bots)
            )
        finally:
            for bot in bots:
                await bot.close()
        return person, results

    try:
        me = server.guest()
        (instance, client, acted, tables), bots = asyncio.run(field(me["token"]))
        detail = get(server, f"/api/tournaments/{instance}")
        my_balance = server.me(me["token"])["balance"]
        cookies = {"dp_session": me["token"]}
        mine = httpx.get(server.url + "/api/hands", cookies=cookies, timeout=10).json()["hands"]
        last = next(h for h in mine if h["status"] == "finished")
        text = httpx.get(
            server.url + f"/api/hands/{last['id']}/pokerstars", cookies=cookies, timeout=10
        ).text
        verified = httpx.get(
            server.url + f"/api/hands/{last['id']}/verify", cookies=cookies, timeout=10
        ).json()
        phh_text = httpx.get(
            server.url + f"/api/hands/{last['id']}/phh", cookies=cookies, timeout=10
        ).text
    finally:
        server.stop()
    assert detail["status"] == "finished"
    assert acted > 0
    # Every hand I was dealt is in my history, with the tournament's header and level.
    assert {h["table"] for h in mine} == set(tables)
    assert {h["tournament"] for h in mine} == {instance}
    events = client.events(tables[0])
    my_seat = next(e for e in client.events(instance) if e["type"] == "YourTable")["seat"]
    until_out = events[: next(i for i, e in enumerate(events) if e["type"] == "Finished")]
    dealt = [
        e
        for e in until_out
        if e["type"] == "HandStarted" and my_seat in [s for s, _ in e["stacks"]]
    ]
    assert len(mine) == len(dealt)
    header = text.splitlines()[0]
    assert header.startswith(
        f"PokerStars Hand #{pokerstars.hand_number(last['id'])}: "
        f"Tournament #{pokerstars.tournament_number(instance)}, 100+10 "
    )
    assert " - Level " in header
    assert verified["ok"] is True, verified
    assert f"_tournament = {{id = '{instance}', buy_in = '100', fee = '10', level = " in phh_text
    assert tables == [f"{instance}-t1"]  # one table: nobody moves
    kinds = {e["type"] for e in events}
    assert {"HandStarted", "CardsReceived", "Turn", "Legal", "HandEnded", "LevelStarted"} <= kinds
    level = next(e for e in events if e["type"] == "LevelStarted")
    assert {"level", "small_blind", "big_blind", "minutes", "next_level", "next_in_s"} <= set(level)
    finished = [e for e in events if e["type"] == "Finished"]
    assert len(finished) == 1
    mine = next(s for s in detail["standings"] if s["account"] == me["id"])
    assert finished[0]["places"] == mine["places"]
    assert finished[0]["prize"] == mine["prize"]
    channel = [e["type"] for e in client.events(instance) if e["type"] in NOTICE_KINDS]
    assert channel[0] == "TournamentStarted"
    if mine["places"] == [1]:
        assert channel[-1] == "TournamentFinished"
    my_cards = [e for e in events if e["type"] == "CardsReceived"]
    assert len({e["seat"] for e in my_cards}) == 1  # only my own seat's cards
    standings = detail["standings"]
    shared = [tuple(s["places"]) for s in standings]
    assert sorted(p for places in set(shared) for p in places) == [1, 2, 3, 4, 5, 6]
    by_name = {s["name"]: s for s in standings}
    for bot in bots:  # each remote bot heard its own place and prize
        assert bot.tournament == instance
        assert list(bot.places) == by_name[bot.bot]["places"]
        assert bot.prize == by_name[bot.bot]["prize"]
    prizes = {str(s["account"]): s["prize"] for s in standings if s["prize"]}
    assert sum(prizes.values()) == 600
    assert my_balance == STARTING_CHIPS - 110 + prizes.get(str(me["id"]), 0)
    store = books(tmp_path, database)
    try:
        assert tx_sums(store, instance)[PRIZES][pool(instance)] == -600
        assert store.call(ledger.balance, pool(instance)) == 0
        store.call(ledger.check_books)
    finally:
        store.close()


def test_the_lobby_pushes_tournament_rows(tmp_path: Path, database: str | None) -> None:
    """Lobby subscribers get the tournament rows (not with the ``cash`` filter) and
    a changed row when someone registers."""
    server = start(tmp_path, database, [sng("s3")])

    async def scenario(token: str) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        watcher = await Client(server, None, "lobby").connect()
        cash = await Client(server, None, "cash").connect()
        try:
            assert (await watcher.request({"type": "lobby", "kind": "tournament"}))["type"] == "ok"
            assert (await cash.request({"type": "lobby", "kind": "cash"}))["type"] == "ok"
            full = await watcher.wait(lambda f: f["type"] == "lobby" and f["full"])
            r = await asyncio.to_thread(post, server, "/api/tournaments/s3/register", token)
            assert r.status_code == 200, r.text
            pushed = await watcher.wait(
                lambda f: f["type"] == "lobby" and not f["full"] and f["tournaments"]
            )
            cash_full = await cash.wait(lambda f: f["type"] == "lobby" and f["full"])
            return full, pushed, cash_full
        finally:
            await watcher.close()
            await cash.close()

    try:
        me = server.guest()
        full, pushed, cash_full = asyncio.run(scenario(me["token"]))
    finally:
        server.stop()
    assert [(r["id"], r["registered"]) for r in full["tournaments"]] == [("s3", 0)]
    assert [(r["id"], r["registered"]) for r in pushed["tournaments"]] == [("s3", 1)]
    assert cash_full["tournaments"] == []


def test_a_player_who_drops_is_blinded_off_and_comes_back(
    tmp_path: Path, database: str | None
) -> None:
    """A player's websocket closes mid-tournament: the server checks or folds for them
    (their seat and stack stay); reconnecting, they get a snapshot with their seat,
    the level and the next blinds, and play on."""
    config = sng(
        "back", max_entries=3, bots=2, bot_register_s=0.05, starting_stack=2000,
        levels=[[5, 10, 0, 1.0], [10, 20, 0, 1.0]], between_hands_s=0.05, action_time_s=5.0,
    )  # fmt: skip
    server = start(tmp_path, database, [config])

    async def scenario(token: str) -> tuple[str, int, list[dict[str, Any]], dict[str, Any]]:
        first = await Client(server, token, "first").connect()
        answer = await first.request({"type": "subscribe", "table": "back"})
        instance = answer["detail"]["tournament"]
        r = await asyncio.to_thread(post, server, "/api/tournaments/back/register", token)
        assert r.status_code == 200, r.text
        seated = await first.wait(
            lambda f: f["type"] == "event" and f["event"]["type"] == "YourTable", 30
        )
        table, seat = seated["event"]["table"], seated["event"]["seat"]
        await first.request({"type": "subscribe", "table": table})
        await first.close()  # gone: the server plays for this seat
        watcher = await Client(server, None, "watcher").connect()
        await watcher.request({"type": "subscribe", "table": table})
        await watcher.wait(
            lambda f: (
                f["type"] == "event"
                and f["event"]["type"] == "TimedOut"
                and f["event"]["seat"] == seat
            ),
            30,
        )
        away = watcher.events(table)
        await watcher.close()
        again = await Client(server, token, "again").connect()
        await again.request({"type": "subscribe", "table": table})
        snapshot = await again.wait(lambda f: f["type"] == "snapshot")
        legal = await again.wait(
            lambda f: f["type"] == "event" and f["event"]["type"] == "Legal", 30
        )
        event = legal["event"]
        move = {"type": "draw", "discard": []} if event["legal"]["draw"] else {
            "type": "act", "action": "check" if event["legal"]["check"] else "call"
        }  # fmt: skip
        reply = await again.request(
            {"table": table, "hand_id": event["hand_id"], "action_id": "back-1", **move}
        )
        assert reply["type"] == "ok", reply
        await again.close()
        return instance, seat, away, snapshot["state"]

    try:
        me = server.guest()
        instance, seat, away, state = asyncio.run(scenario(me["token"]))
    finally:
        server.stop()
    timed_out = [e for e in away if e["type"] == "TimedOut"]
    assert timed_out
    assert all(e["seat"] == seat for e in timed_out)  # the bots act for themselves
    assert state["you"] == seat
    assert any(s["seat"] == seat and s["name"] == me["name"] for s in state["seats"])
    tournament = state["tournament"]
    assert tournament["id"] == instance
    assert tournament["table_no"] == 1
    assert tournament["level"]["big_blind"] in (10, 20)
    assert tournament["players_left"] == 3
    assert state["min_buy_in"] is None
