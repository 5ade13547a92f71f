"""Remote bots against a real ``drawpoker serve``: bots of every kind sit at a cash
table with no house bots, play hands to the end (one of them losing its socket on
the way), leave, and every chip is accounted for; clear errors for a server that
is not there, a table that does not exist and a balance that is short; the
``drawpoker bot`` command."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from drawpoker.bots.remote import CashResult, RemoteBot, RemoteBotError
from drawpoker.cli import main
from server.helpers import Server, free_port, table

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    tmp = tmp_path_factory.mktemp("remote")
    tables = [
        table("rb", think=(0.01, 0.02)),
        table("cli", think=(0.01, 0.02)),
        table("busy", bots=1, think=(0.01, 0.02)),
    ]
    srv = Server(tmp, None, tables).start()
    try:
        yield srv
    finally:
        srv.stop()


def test_remote_bots_play_a_cash_table_and_every_chip_is_counted(server: Server) -> None:
    kinds = ["shark", "tag", "calling-station"]

    async def run() -> tuple[list[CashResult], list[RemoteBot]]:
        bots = [RemoteBot(server.url, kind=kind, seed=i) for i, kind in enumerate(kinds)]
        for bot in bots:
            await bot.connect()
        try:

            async def drop_later(bot: RemoteBot) -> None:
                while bot.hands < 2:
                    await asyncio.sleep(0.05)
                await bot.drop_connection()  # the bot reconnects and resyncs

            dropper = asyncio.create_task(drop_later(bots[1]))
            results = await asyncio.wait_for(
                asyncio.gather(*(bot.play_cash("rb", hands=8, buy_in=200, idle=5) for bot in bots)),
                180,
            )
            await dropper
            return list(results), bots
        finally:
            for bot in bots:
                await bot.close()

    started = time.monotonic()
    results, bots = asyncio.run(run())
    elapsed = time.monotonic() - started
    assert elapsed < 150
    for result in results:
        # All the hands, or busted, or alone with every chip (then it stops after 5 s).
        assert result.hands >= 8 or result.cashed_out in (0, 600), result
        assert result.buy_in == 200
        assert result.balance_before - result.buy_in + result.cashed_out == result.balance_after
        assert not result.errors.get("decide"), result.errors
        assert not result.errors.get("no_view"), result.errors
        assert not result.errors.get("illegal_action"), result.errors
        assert not result.errors.get("bad_frame"), result.errors
        assert not result.errors.get("bad_event"), result.errors
        assert not result.errors.get("view_drift"), result.errors
    assert bots[1].reconnects == 1
    assert sum(r.net for r in results) == 0  # no rake at this table: chips only moved
    assert sum(r.cashed_out for r in results) == 3 * 200
    # The server saw the same: the hands are in the bots' histories, the table is empty.
    cookies = {"dp_session": bots[0].token}
    hands = httpx.get(server.url + "/api/hands", cookies=cookies, timeout=10).json()
    rows = hands["hands"] if isinstance(hands, dict) else hands
    assert len(rows) >= results[0].hands
    assert server.table("rb")["seats_taken"] == 0
    for bot in bots:
        assert server.me(bot.token)["stacks"] == {}


def test_a_clear_error_for_a_wrong_server_table_or_balance(server: Server) -> None:
    async def wrong_server() -> None:
        async with RemoteBot(f"http://127.0.0.1:{free_port()}"):
            pass

    with pytest.raises(RemoteBotError, match="cannot reach the server"):
        asyncio.run(wrong_server())
    with pytest.raises(RemoteBotError, match="must start with http"):
        RemoteBot("127.0.0.1:8000")

    async def wrong_table() -> None:
        async with RemoteBot(server.url) as bot:
            await bot.play_cash("no-such-table")

    with pytest.raises(RemoteBotError, match="there is no table 'no-such-table'") as caught:
        asyncio.run(wrong_table())
    assert caught.value.code == "no_table"

    async def too_poor() -> None:
        async with RemoteBot(server.url) as bot:
            await bot.play_cash("rb", buy_in=1_000_000)

    with pytest.raises(RemoteBotError, match=r"has 10000 chips; the buy-in at rb is 40-400"):
        asyncio.run(too_poor())


def test_the_bot_command_runs_bots_and_prints_a_summary(
    server: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(
        ["bot", "--server", server.url, "--table", "cli", "--kind", "tag", "--count", "2",
         "--hands", "3", "--idle", "5", "--json"]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert status == 0, out
    summary = json.loads(out)
    assert len(summary["bots"]) == 2
    stacks = sum(row["buy_in"] for row in summary["bots"])
    assert all(row["hands"] >= 3 or row["cashed_out"] in (0, stacks) for row in summary["bots"])
    assert sum(row["net"] for row in summary["bots"]) == 0
    status = main(["bot", "--server", server.url, "--table", "nope", "--count", "1"])
    assert status == 2
    assert "there is no table 'nope'" in capsys.readouterr().err


def test_a_remote_bot_logs_in_and_joins_a_table_with_a_house_bot(server: Server) -> None:
    account = {"name": "robo_ann", "password": "correct horse"}
    assert httpx.post(server.url + "/api/register", json=account, timeout=10).status_code == 200

    async def run() -> CashResult:
        async with RemoteBot(server.url, kind="random", seed=5, **account) as bot:
            assert bot.name == "robo_ann"
            return await asyncio.wait_for(bot.play_cash("busy", hands=4, idle=10), 120)

    async def wrong_password() -> None:
        async with RemoteBot(server.url, name="robo_ann", password="wrong horse"):
            pass

    with pytest.raises(RemoteBotError, match="401"):
        asyncio.run(wrong_password())
    result = asyncio.run(run())
    assert result.bot == "robo_ann"
    assert result.hands >= 4 or result.cashed_out == 0
    assert result.balance_after == result.balance_before - result.buy_in + result.cashed_out


def test_remote_bots_survive_a_server_restart(tmp_path: Path) -> None:
    """The server is killed mid-session and started again (a new epoch): the bots
    reconnect, resync from a fresh snapshot and play on; the cancelled hand's
    chips went back to the stacks, so every chip is still counted."""
    # Fixed limit, capped heads-up too: a hand costs at most 4 small and 4 big bets
    # (24 chips), so nobody busts 200 in the seven or eight hands either plays and
    # both reach the crash. Uncapped (R15's cash default) a raise war busted one.
    phoenix = table("phoenix", think=(0.01, 0.02), structure="fixed-limit")
    phoenix["rules"]["fl_cap_lifted_heads_up"] = False
    server = Server(tmp_path, None, [phoenix]).start()
    try:

        async def run() -> tuple[list[CashResult], list[RemoteBot]]:
            bots = [RemoteBot(server.url, kind="tag", seed=i) for i in range(2)]
            for bot in bots:
                await bot.connect()
            try:

                async def crash_later() -> None:
                    deadline = time.monotonic() + 60
                    while min(bot.hands for bot in bots) < 2:
                        assert time.monotonic() < deadline, [bot.hands for bot in bots]
                        await asyncio.sleep(0.02)
                    await asyncio.to_thread(server.kill)
                    await asyncio.to_thread(server.start)

                crash = asyncio.create_task(crash_later())
                # idle: longer than a restart takes on a loaded machine (seconds), or
                # a bot gives up waiting for the restarted server's next hand.
                plays = (bot.play_cash("phoenix", hands=6, buy_in=200, idle=20) for bot in bots)
                results = await asyncio.wait_for(asyncio.gather(*plays), 120)
                await asyncio.wait_for(crash, 5)
                return list(results), bots
            finally:
                for bot in bots:
                    await bot.close()

        results, bots = asyncio.run(run())
        assert all(bot.reconnects >= 1 for bot in bots)
        assert sum(r.net for r in results) == 0
        assert sum(r.cashed_out for r in results) == 400
        # The first bot to reach 6 hands leaves, and the other stops when left alone:
        # the hand the crash cancelled may have counted for one of them only.
        assert max(r.hands for r in results) >= 6, results
        for result in results:
            assert result.hands >= 5 or result.cashed_out in (0, 400), result
    finally:
        server.stop()


def test_the_send_bucket_stays_under_the_server_limit() -> None:
    """30 sends at 10 a second with bursts of 20 take at least a second (the server
    allows 20 a second, bursts of 40)."""

    async def run() -> float:
        bot = RemoteBot("http://127.0.0.1:1", kind="random", rate=10.0, burst=20.0)
        started = time.monotonic()
        for _ in range(30):
            await bot._bucket()
        return time.monotonic() - started

    elapsed = asyncio.run(run())
    assert 0.95 <= elapsed < 3.0
