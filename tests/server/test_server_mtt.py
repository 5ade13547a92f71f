"""A scheduled multi-table tournament of 50 websocket bot clients: it starts at its
time over nine tables, balances and breaks them live (players see ``Moved`` and
follow), plays to one winner, and pays a prize pool that the ledger balances."""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest

from drawpoker.bots.remote import RemoteBot, TournamentResult
from drawpoker.server import ledger
from drawpoker.server.store import Store, database_url
from drawpoker.server.tournament.money import pool

from .helpers import Server, run_within

PLAYERS = 50
LEVELS = [[10 * 2**i, 20 * 2**i, 0, 0.1] for i in range(14)]  # 6-second levels


def scheduled(start_in: float) -> dict[str, Any]:
    return {
        "id": "mtt",
        "name": "test scheduled",
        "kind": "scheduled",
        "buy_in": 20,
        "fee": 2,
        "starting_stack": 500,
        "max_entries": PLAYERS,
        "seats_per_table": 6,
        "levels": LEVELS,
        "first_start_s": start_in,
        "between_hands_s": 0.0,
        "action_time_s": 10.0,
        "repeat": False,
    }


async def _field(server: Server) -> list[TournamentResult]:
    kinds = ["tag", "calling-station", "random", "shark"]
    bots = [RemoteBot(server.url, kind=kinds[i % 4], seed=i) for i in range(PLAYERS)]
    for bot in bots:
        await bot.__aenter__()
    try:
        return list(await asyncio.gather(*(bot.play_tournament("mtt") for bot in bots)))
    finally:
        for bot in bots:
            await bot.close()


@pytest.mark.slow
def test_fifty_bot_clients_play_a_scheduled_tournament(
    tmp_path: Path, database: str | None
) -> None:
    server = Server(tmp_path, database, [])
    server.room.write_text(json.dumps({"tables": [], "tournaments": [scheduled(15.0)]}))
    server.start()
    try:
        results = run_within(_field(server), 400)
        instance = results[0].tournament
        deadline = time.monotonic() + 30  # the winner hears the end before the payout
        while True:
            detail = httpx.get(server.url + f"/api/tournaments/{instance}", timeout=10).json()
            if detail["status"] != "paying" or time.monotonic() > deadline:
                break
            time.sleep(0.1)
    finally:
        server.stop()

    assert detail["status"] == "finished", {
        k: detail[k] for k in ("status", "hands", "players_left")
    }
    assert detail["registered"] == PLAYERS
    assert detail["prize_pool"] == PLAYERS * 20
    notices = Counter(n["type"] for n in detail["notices"])
    # Nine tables at the start; eight broken on the way to the final table.
    assert notices["TableBroken"] == 8
    assert notices["FinalTable"] == 1
    assert notices["PlayerMoved"] >= 8
    assert notices["PlayerEliminated"] == PLAYERS - 1
    # Every bot followed its moves and heard its own place and prize.
    moved = [r for r in results if len(r.tables) > 1]
    assert moved
    assert all(r.hands > 0 for r in results)
    standings = {s["name"]: s for s in detail["standings"]}
    assert len(standings) == PLAYERS
    for r in results:
        assert list(r.places) == standings[r.bot]["places"]
        assert r.prize == standings[r.bot]["prize"]
        assert r.balance_after - r.balance_before == r.prize - 22  # credited on busting
    places = [tuple(s["places"]) for s in standings.values()]
    assert sorted(p for group in set(places) for p in group) == list(range(1, PLAYERS + 1))
    assert sum(r.prize for r in results) == PLAYERS * 20

    store = Store(database_url(database, tmp_path / "data"))
    try:
        assert store.call(ledger.balance, pool(instance)) == 0
        for r in results:
            account = ledger.player(standings[r.bot]["account"])
            assert store.call(ledger.balance, account) == r.balance_before - 22 + r.prize
        store.call(ledger.check_books)
    finally:
        store.close()
