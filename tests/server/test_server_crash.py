"""Crash safety: SIGKILL the server in the middle of hands at several tables,
restart it on the same database, and find every balance and stack exactly as
before those hands, with the cancellations recorded."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from drawpoker.server import ledger
from drawpoker.server.store import Store, database_url, hands, ledger_entries, ledger_tx

from .helpers import Client, Server, table
from .test_server_play import play

pytestmark = pytest.mark.slow
TABLES = ("c1", "c2", "c3")
HUMAN_SEAT = 5


def _mid_hand(spectator: Client, table_id: str) -> bool:
    kinds = [e["type"] for e in spectator.events(table_id)]
    if "HandStarted" not in kinds:
        return False
    last = len(kinds) - 1 - kinds[::-1].index("HandStarted")
    after = kinds[last:]
    return "HandEnded" not in after and "Posted" in after  # blinds are in: chips wagered


def _last_start(spectator: Client, table_id: str) -> dict[str, Any]:
    return [e for e in spectator.events(table_id) if e["type"] == "HandStarted"][-1]


def test_sigkill_mid_hand_cancels_and_restores(tmp_path: Path, database: str | None) -> None:
    tables = [table(t, bots=3, think=(0.03, 0.1), action_time=20.0) for t in TABLES]
    server = Server(tmp_path, database, tables).start()
    try:
        before, humans = asyncio.run(_play_until_mid_hand(server))
    finally:
        server.stop()
    store = Store(database_url(database, tmp_path / "data"))
    try:
        # Before restarting: the running hands moved nothing in the ledger.
        running = store.call(
            lambda c: c.execute(
                select(hands.c.id, hands.c.players).where(hands.c.status == "running")
            ).all()
        )
        running_ids = {hand_id for hand_id, _ in running}
        assert {before[t]["hand_id"] for t in TABLES} <= running_ids
        # Restart on the same database.
        server2 = Server(tmp_path, database, tables)
        server2.port = server.port + 0
        server2.start()
        try:
            for name, (token, balance, table_id, seat) in humans.items():
                me = server2.me(token)
                assert me["balance"] == balance, name
                stack_before = dict(before[table_id]["stacks"])[seat]
                as_of = _stacks_as_of_cancellation(store)
                assert as_of[ledger.stack(table_id, me["id"])] == stack_before
            asyncio.run(_resumes(server2, before))
        finally:
            server2.stop()
        as_of = _stacks_as_of_cancellation(store)
        for t in TABLES:
            start = before[t]
            players = json.loads(dict(running)[start["hand_id"]])
            for seat, stack in start["stacks"]:
                account_id, recorded = players[str(seat)]
                assert recorded == stack
                assert as_of[ledger.stack(t, account_id)] == stack, (t, seat)

        def cancellations(c: Any) -> tuple[set[str], set[str]]:
            refs = set(
                c.execute(
                    select(ledger_tx.c.ref).where(ledger_tx.c.kind == "hand-cancelled")
                ).scalars()
            )
            cancelled = set(
                c.execute(select(hands.c.id).where(hands.c.status == "cancelled")).scalars()
            )
            return refs, cancelled

        refs, cancelled = store.call(cancellations)
        assert running_ids <= refs
        assert running_ids <= cancelled
        store.call(ledger.check_books)
        total = store.call(
            lambda c: c.execute(select(func.sum(ledger_entries.c.amount))).scalar_one()
        )
        assert total == 0
    finally:
        store.close()


def _stacks_as_of_cancellation(store: Store) -> dict[str, int]:
    """Every ledger balance right after start-up cancelled the unfinished hands
    (later hands of the restarted server may already have moved chips)."""

    def read(c: Any) -> dict[str, int]:
        last = c.execute(
            select(func.max(ledger_tx.c.id)).where(ledger_tx.c.kind == "hand-cancelled")
        ).scalar_one()
        rows = c.execute(
            select(ledger_entries.c.account, func.sum(ledger_entries.c.amount))
            .where(ledger_entries.c.tx_id <= last)
            .group_by(ledger_entries.c.account)
        ).all()
        return {account: int(amount) for account, amount in rows}

    return store.call(read)


async def _play_until_mid_hand(
    server: Server,
) -> tuple[dict[str, dict[str, Any]], dict[str, tuple[str, int, str, int]]]:
    """One human per table plays a few hands, then stops acting: when it is
    that human's turn mid-hand at every table, the tables are frozen (a long
    action clock), and the caller kills the server."""
    spectator = await Client(server, None, "spectator").connect()
    for t in TABLES:
        await spectator.request({"type": "subscribe", "table": t})
    guests = [server.guest() for _ in TABLES]
    humans = [await Client(server, g["token"], g["name"]).connect() for g in guests]
    for t, h in zip(TABLES, humans, strict=True):
        reply = await h.request({"type": "sit", "table": t, "seat": HUMAN_SEAT, "buy_in": 300})
        assert reply["type"] == "ok", reply
    stop = asyncio.Event()
    tasks = [
        asyncio.create_task(play(h, t, stop, {}, max_call=8))
        for t, h in zip(TABLES, humans, strict=True)
    ]
    for t in TABLES:
        await spectator.wait(
            lambda f, t=t: (
                f["type"] == "event" and f["table"] == t and f["event"]["type"] == "HandEnded"
            ),
            20,
        )
    stop.set()
    await asyncio.gather(*tasks)
    for _ in range(3000):
        if all(_frozen(spectator, t) for t in TABLES):
            break
        await asyncio.sleep(0.01)
    else:
        pytest.fail("the tables never waited on their human mid-hand at once")
    before = {t: _last_start(spectator, t) for t in TABLES}
    info = {
        h.name: (g["token"], server.me(g["token"])["balance"], t, HUMAN_SEAT)
        for t, g, h in zip(TABLES, guests, humans, strict=True)
    }
    assert all(_frozen(spectator, t) for t in TABLES)
    server.kill()
    await asyncio.gather(*(c.close() for c in [spectator, *humans]))
    return before, info


def _frozen(spectator: Client, table_id: str) -> bool:
    """Mid-hand, and the last thing the table did was give the human the turn."""
    events = spectator.events(table_id)
    return (
        bool(events)
        and _mid_hand(spectator, table_id)
        and events[-1]["type"] == "Turn"
        and events[-1]["seat"] == HUMAN_SEAT
    )


async def _resumes(server: Server, before: dict[str, dict[str, Any]]) -> None:
    """The restarted room seats everyone again with exactly the stacks they had
    before the cancelled hands (a seat's stack changes only when a hand ends,
    and the first new hand waits on the disconnected human's clock)."""
    spectator = await Client(server, None, "spectator").connect()
    try:
        for t in TABLES:
            mark = len(spectator.frames)
            await spectator.request({"type": "subscribe", "table": t})
            snap = await spectator.wait(lambda f: f["type"] == "snapshot", start=mark)
            seats = [[s["seat"], s["stack"]] for s in snap["state"]["seats"]]
            assert seats == before[t]["stacks"], t
            hand = snap["state"]["hand"]
            assert hand is None or hand["hand_id"] != before[t]["hand_id"]
    finally:
        await spectator.close()
