"""A sit & go played to a finishing place in the terminal client against a real
server: register from the lobby, get seated when it starts (following any move
to another table), fold to any bet for a few hands, then shove,
and see the place."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from drawpoker.tui.app import PokerApp
from drawpoker.tui.screens import LobbyScreen
from drawpoker.tui.table import TableScreen
from tui.helpers import Server, until

pytestmark = pytest.mark.slow

FAST_LEVELS = [[5, 10, 0, 0.05], [10, 20, 0, 0.05], [25, 50, 0, 0.05], [50, 100, 0, 0.05],
               [100, 200, 0, 0.05], [200, 400, 0, 0.05], [500, 1000, 0, 0.05]]  # fmt: skip
SNG = {
    "id": "tui-sng",
    "name": "Terminal SNG",
    "buy_in": 100,
    "fee": 10,
    "starting_stack": 200,
    "max_entries": 4,
    "seats_per_table": 2,
    "levels": FAST_LEVELS,
    "between_hands_s": 0.05,
    "action_time_s": 3.0,
    "time_bank_s": 0.0,
    "bots": 3,
    "bot_register_s": 0.1,
    "bot_kinds": ["tag"],
}


def test_a_sit_and_go_to_a_finishing_place(tmp_path: Path) -> None:
    server = Server(tmp_path, None, [])
    server.room.write_text(json.dumps({"tables": [], "tournaments": [SNG]}))
    server.start()
    try:
        asyncio.run(_play(server))
    finally:
        server.stop()


async def _play(server: Server) -> None:
    app = PokerApp(server.url, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.click("#guest")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        await pilot.press("t")  # the tournaments
        await until(pilot, lambda: "tui-sng" in app.lobby_tournaments, what="the sit & go")
        await until(pilot, lambda: lobby.shown == ["tui-sng"], what="its row")
        balance = app.balance
        assert balance is not None
        await pilot.press("enter")  # register
        await until(pilot, lambda: app.balance == balance - 110, what="the buy-in paid")
        await until(pilot, lambda: isinstance(app.screen, TableScreen), timeout=30,
                    what="my tournament table")  # fmt: skip
        tables: set[str] = set()
        for _turn in range(400):
            await until(pilot, lambda: app.finished is not None or _my_turn(app),
                        timeout=60, what="my turn or my place")  # fmt: skip
            if app.finished is not None:
                break
            screen = app.screen
            assert isinstance(screen, TableScreen)
            if not tables:  # everything fits in 80x24
                for part in ("#seats", "#cards", "#actions", "#notice", "#log", "#chat-input"):
                    region = screen.query_one(part).region
                    assert region.width > 0, part
                    assert region.bottom <= 23, (part, region)
            tables.add(screen.table)
            model = app.tables[screen.table]
            assert model.tournament is not None
            legal = model.legal
            assert legal is not None
            if legal.get("draw"):
                await pilot.press("p")
            elif legal.get("check"):
                await pilot.press("c")
            elif model.hands_seen > 6 and legal.get("max_to"):
                await pilot.press(*str(legal["max_to"]), "r")  # all in, typed
            else:
                await pilot.press("f")
            await until(pilot, lambda legal=legal, model=model: model.legal is not legal
                        or app.finished is not None, what="my action")  # fmt: skip
        assert app.finished is not None, "the tournament did not end for me"
        places = app.finished["places"]
        assert 1 <= min(places) <= 4
        if places == [1]:
            expected = "You won the tournament!"
        else:
            expected = f"You finished {app.t.ordinal(places[0])}"
        await pilot.pause(0.6)
        assert sum(expected in line for line in app.tournament_log) == 1
        screen = app.screen
        if isinstance(screen, TableScreen):
            assert expected in str(screen.query_one("#notice").render())
        moved = [line for line in app.tournament_log if line.startswith("You were moved")]
        assert tables <= set(app.opened)
        assert len(moved) == len(app.opened) - 1  # every move followed to its table
        assert not app.unknown, app.unknown


def _my_turn(app: Any) -> bool:
    table = app.current_table
    return table is not None and table in app.tables and app.tables[table].my_turn
