"""A tournament is one actor: its tables finish hands at the same moment and the
run takes their results one at a time; every prize is paid exactly once and the
pool ends at 0."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from sqlalchemy import select

from drawpoker.room.tournament_orders import HandFinished
from drawpoker.server import auth, ledger
from drawpoker.server.store import Store, ledger_entries, ledger_tx
from drawpoker.server.table.tournament import HandRecord
from drawpoker.server.tournament.money import PRIZES, pool
from drawpoker.server.tournament.run import RunActor
from drawpoker.server.tournament.spec import TournamentSpec

from .helpers import local_series

PLAYERS = 36  # six tables of six


def test_tables_finishing_together_pay_every_prize_once(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nobody is connected, so the server plays every seat at once (check, else
    fold; stand pat): each table plays a whole hand the moment its order arrives,
    and the six tables' results reach the run together; rising blinds put players
    all in and out. The run counts how many
    results were waiting when it took each one: more than one, often."""
    waiting: list[int] = []
    take = RunActor.hand_done

    async def counted(
        self: RunActor, table_no: int, finished: HandFinished, record: HandRecord
    ) -> None:
        waiting.append(self.mailbox.queue.qsize())
        await take(self, table_no, finished, record)

    monkeypatch.setattr(RunActor, "hand_done", counted)
    spec = TournamentSpec.from_dict(
        {
            "id": "burst",
            "name": "burst",
            "buy_in": 100,
            "fee": 10,
            "starting_stack": 100,
            "max_entries": PLAYERS,
            "seats_per_table": 6,
            # blinds that double every 0.6 s: soon the blinds are all in, and busts
            # come in bursts at every table
            "levels": [[5 * 2**i, 10 * 2**i, 0, 0.01] for i in range(16)],
            "between_hands_s": 0.0,
        }
    )
    store = Store(store_url)
    try:
        accounts = [store.call(auth.create_guest) for _ in range(PLAYERS)]
        detail, instance = asyncio.run(_play(spec, store, accounts))
        assert max(waiting) >= 2, waiting  # results did arrive together
        standings = {s["account"]: s["prize"] for s in detail["standings"]}
        assert len(standings) == PLAYERS
        assert sum(standings.values()) == PLAYERS * 100
        credited = store.call(_prize_credits, instance)
        for account, prize in standings.items():
            assert credited.get(account, []) == ([prize] if prize else []), account
        for account in accounts:
            balance = store.call(ledger.balance, ledger.player(account.id))
            assert balance == auth.STARTING_CHIPS - 110 + standings[account.id]
        assert store.call(ledger.balance, pool(instance)) == 0
        store.call(ledger.check_books)
    finally:
        store.close()


async def _play(
    spec: TournamentSpec, store: Store, accounts: list[auth.Account]
) -> tuple[dict[str, Any], str]:
    series = local_series(spec, store)
    series.start()
    run = series.current
    for account in accounts:
        await series.call(series.register, account)
    deadline = time.monotonic() + 120
    while run.finished_at is None:
        assert time.monotonic() < deadline, "the tournament did not finish in 120 s"
        await asyncio.sleep(0.05)
    detail: dict[str, Any] = await series.call(series.detail, run.id)
    await series.stop()
    return detail, run.id


def _prize_credits(conn: Any, instance: str) -> dict[int, list[int]]:
    """Each account's prize credits of the run, one list item per credit."""
    rows = conn.execute(
        select(ledger_entries.c.account, ledger_entries.c.amount)
        .join(ledger_tx, ledger_tx.c.id == ledger_entries.c.tx_id)
        .where(ledger_tx.c.ref == instance, ledger_tx.c.kind == PRIZES)
    ).all()
    out: dict[int, list[int]] = {}
    for account, amount in rows:
        if str(account).startswith("player:"):
            out.setdefault(int(str(account).split(":")[1]), []).append(int(amount))
    return out
