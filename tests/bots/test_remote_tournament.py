"""Remote bots in a sit & go on a real server (docs/protocol.md, "Tournaments"):
three guests register over REST, follow the tournament channel to their table,
play it to the end over the websocket (one of them losing its socket on the way)
and report places 1-3 and the prizes; the prize pool is paid out in full; a
short balance is a clear error before anything is paid."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from drawpoker.bots.remote import RemoteBot, RemoteBotError, TournamentResult
from drawpoker.cli import main
from server.helpers import Server

pytestmark = pytest.mark.slow

FAST_LEVELS = [[5, 10, 0, 0.05], [10, 20, 0, 0.05], [25, 50, 0, 0.05], [50, 100, 0, 0.05],
               [100, 200, 0, 0.05], [200, 400, 0, 0.05], [500, 1000, 0, 0.05]]  # fmt: skip


def sng(sng_id: str, entries: int, **extra: Any) -> dict[str, Any]:
    return {
        "id": sng_id,
        "name": f"test {sng_id}",
        "buy_in": 100,
        "fee": 10,
        "starting_stack": 200,
        "max_entries": entries,
        "seats_per_table": 6,
        "levels": FAST_LEVELS,
        "between_hands_s": 0.02,
        "action_time_s": 5.0,
        **extra,
    }


def start(tmp: Path, tournaments: list[dict[str, Any]]) -> Server:
    server = Server(tmp, None, [])
    server.room.write_text(json.dumps({"tables": [], "tournaments": tournaments}))
    return server.start()


def test_three_remote_bots_play_a_sit_and_go_to_the_end(tmp_path: Path) -> None:
    server = start(tmp_path, [sng("sng-3", 3), sng("dear", 3, buy_in=20_000)])
    try:

        async def run() -> list[TournamentResult]:
            kinds = ["shark", "tag", "random"]
            bots = [RemoteBot(server.url, kind=kind, seed=i) for i, kind in enumerate(kinds)]
            for bot in bots:
                await bot.connect()
            try:

                async def drop_later(bot: RemoteBot) -> None:
                    while bot.hands < 1:
                        await asyncio.sleep(0.02)
                    await bot.drop_connection()  # it reconnects to the channel and table

                plays = [asyncio.create_task(bot.play_tournament("sng-3")) for bot in bots]
                dropper = asyncio.create_task(drop_later(bots[0]))
                results = await asyncio.wait_for(asyncio.gather(*plays), 240)
                await dropper  # every entrant plays the first hand
                assert bots[0].reconnects == 1
            finally:
                for bot in bots:
                    await bot.close()
            return list(results)

        results = asyncio.run(run())
        places = sorted(p for r in results for p in r.places)
        assert places[0] == 1
        assert len({r.tournament for r in results}) == 1
        assert all(r.hands > 0 for r in results)
        assert all(r.tables for r in results)
        winner = min(results, key=lambda r: r.place)
        assert winner.places == (1,)
        assert sum(r.prize for r in results) == 300  # the whole pool, 3 x 100
        for r in results:
            assert r.balance_after == r.balance_before - 110 + r.prize
            assert not r.errors.get("decide")
            assert not r.errors.get("illegal_action")
            assert not r.errors.get("no_view")
            assert not r.errors.get("view_drift")

        async def too_dear() -> None:
            async with RemoteBot(server.url) as bot:
                await bot.play_tournament("dear")

        with pytest.raises(RemoteBotError, match=r"has 10000 chips, short of the buy-in and fee"):
            asyncio.run(too_dear())
    finally:
        server.stop()


def test_the_bot_command_plays_a_tournament(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server = start(tmp_path, [sng("cli-sng", 3)])
    try:
        status = main(
            ["bot", "--server", server.url, "--tournament", "cli-sng", "--kind", "tag",
             "--count", "3", "--json", "--quiet"]
        )  # fmt: skip
        out = capsys.readouterr().out
        assert status == 0, out
        summary = json.loads(out)
        assert sorted(p for row in summary["bots"] for p in row["places"])[0] == 1
        assert sum(row["prize"] for row in summary["bots"]) == 300
        assert summary["net"] == -30  # the fees
    finally:
        server.stop()


def test_a_cancelled_tournament_ends_the_bot_with_its_refund(tmp_path: Path) -> None:
    spec = sng("lonely", 6, kind="scheduled", first_start_s=2.0, min_entries=2)
    server = start(tmp_path, [spec])
    try:

        async def run() -> TournamentResult:
            async with RemoteBot(server.url, kind="tag") as bot:
                return await asyncio.wait_for(bot.play_tournament("lonely"), 60)

        result = asyncio.run(run())
        assert result.cancelled
        assert (result.places, result.prize, result.hands) == ((), 0, 0)
        assert result.balance_after == result.balance_before  # buy-in and fee refunded
    finally:
        server.stop()
