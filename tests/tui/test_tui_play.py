"""The terminal client against a real ``drawpoker serve``, driven by Textual's pilot:
register, sit, play hands through the draw to the showdown (marking cards by key
and by mouse), time out once, chat, survive a dropped connection mid-hand and a
server restart, and replay a hand from the history."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input

from drawpoker.tui.app import PokerApp
from drawpoker.tui.history import HistoryScreen, ReplayScreen
from drawpoker.tui.screens import LobbyScreen
from drawpoker.tui.table import TableScreen
from tui.helpers import Opponent, Server, screenshot, table, until

pytestmark = pytest.mark.slow

TABLE = "tt"
NAME = "tuiann"
PASSWORD = "violet-harbour-kettle-42"


def _table() -> dict[str, Any]:
    return table(TABLE, seats=6, action_time=4.0, draw_time=4, between_hands_s=0.3)


def test_register_sit_play_time_out_chat_reconnect_and_replay(tmp_path: Path) -> None:
    others = [table("fl", structure="fixed-limit"), table("pl", structure="pot-limit")]
    server = Server(tmp_path, None, [_table(), *others]).start()
    try:
        asyncio.run(_play(server))
    finally:
        server.stop()


async def _play(server: Server) -> None:
    opponent = await Opponent(server, TABLE, seat=1).start()
    app = PokerApp(server.url)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await _register(app, pilot)
            model = await _sit(app, pilot)
            await _hands(app, pilot, model)
            await _chat(app, pilot, model, opponent)
            await _drop_mid_hand(app, pilot, model)
            await _restart(app, pilot, model, server)
            await _replay(app, pilot)
            assert not app.unknown, app.unknown
    finally:
        await opponent.stop()


async def _register(app: PokerApp, pilot: Any) -> None:
    await pilot.press(*NAME)  # the name field has the focus
    app.screen.query_one("#password").value = PASSWORD  # type: ignore[attr-defined]
    await pilot.click("#register")
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
    lobby = app.screen
    assert isinstance(lobby, LobbyScreen)
    await until(pilot, lambda: len(lobby.shown) == 3, what="the lobby's rows")
    assert lobby.shown == ["fl", "pl", TABLE]  # by name: "test fl", "test pl", "test tt"
    assert app.session is not None
    assert app.session.account["name"] == NAME
    assert app.balance == 10_000  # a new account's play chips
    for shown in (["fl"], ["pl"], [TABLE], ["fl", "pl", TABLE]):  # the limit filter
        await pilot.press("l")
        assert lobby.shown == shown
    await until(pilot, lambda: app.lobby_tables[TABLE]["seats_taken"] == 1, what="a player")
    await pilot.press("o", "o", "o")  # sort by the players seated: the busy table first
    assert lobby.shown[0] == TABLE
    assert lobby.selected() == TABLE  # the cursor follows its row through filters and sorts
    await pilot.press("down")
    assert lobby.selected() != TABLE
    await pilot.press("up")
    await pilot.pause(0.3)
    screenshot(app, "tui-lobby")


async def _sit(app: PokerApp, pilot: Any) -> Any:
    assert isinstance(app.screen, LobbyScreen)
    assert app.screen.selected() == TABLE
    await pilot.press("enter")  # join the selected table
    await until(pilot, lambda: isinstance(app.screen, TableScreen), what="the table")
    model = app.tables[TABLE]
    await until(pilot, lambda: model.v is not None and 1 in model.seats, what="the opponent")
    await pilot.press("s")
    await until(pilot, lambda: app.screen.query("#sit-buy-in"), what="the buy-in dialog")
    app.screen.query_one("#sit-buy-in").value = "300"  # type: ignore[attr-defined]
    await pilot.press("enter")
    await until(pilot, lambda: model.you is not None, what="my seat")
    assert model.seats[model.you].name == NAME
    assert model.seats[model.you].stack == 300
    return model


def _mine(model: Any) -> list[str]:
    return [line for line in model.log if line.startswith(NAME)]


async def _hands(app: PokerApp, pilot: Any, model: Any) -> None:
    """Three showdowns; a discard of two cards marked by key, one marked and unmarked
    by mouse; one hand where I let the clock run out."""
    marked_draw = timed_out = False
    deadline = asyncio.get_running_loop().time() + 120
    while model.showdowns < 3 or not marked_draw or not timed_out:
        assert asyncio.get_running_loop().time() < deadline, model.log[-30:]
        await until(pilot, lambda: model.my_turn, timeout=30, what="my turn")
        legal = model.legal
        assert legal is not None
        if not timed_out and model.hands_seen >= 2 and not legal.get("draw"):
            before = model.timeouts
            await until(
                pilot, lambda before=before: model.timeouts > before, timeout=15, what="my timeout"
            )
            timed_out = True
            assert any("ran out of time" in line for line in model.log)
            continue
        if legal.get("draw"):
            if not marked_draw:
                cards = model.my_cards()
                await pilot.press("1", "3")
                await pilot.click("#card5")  # the mouse marks ...
                assert model.marks == {0, 2, 4}
                await pilot.click("#card5")  # ... and unmarks
                assert model.marked_cards() == [cards[0], cards[2]]
                await pilot.pause(0.1)
                screenshot(app, "tui-table-draw")
                await pilot.press("d")
                await until(pilot, lambda: any("discards 2" in x for x in _mine(model)),
                            what="my discard")  # fmt: skip
                kept = [c for c in cards if c not in (cards[0], cards[2])]
                await until(pilot, lambda: len(model.my_cards()) == 5, what="my new cards")
                assert all(card in model.my_cards() for card in kept)
                assert cards[0] not in model.my_cards()
                assert cards[2] not in model.my_cards()
                marked_draw = True
            else:
                await pilot.press("p")
            await until(
                pilot, lambda legal=legal: model.legal is not legal, what="the end of my draw"
            )
        else:
            await pilot.press("c")
            await until(pilot, lambda legal=legal: model.legal is not legal or not model.my_turn,
                        what="my action")  # fmt: skip
    assert any("shows" in line for line in model.log)
    assert any("wins" in line for line in model.log)


async def _chat(app: PokerApp, pilot: Any, model: Any, opponent: Opponent) -> None:
    await pilot.press("t")
    await pilot.press(*"hi table", "enter")
    await _playing_until(pilot, model, lambda: (NAME, "hi table") in model.chat)
    await _playing_until(pilot, model, lambda: (NAME, "hi table") in opponent.chat)
    assert "hi table" in app.screen.query_one("#chat").lines[-1].text  # type: ignore[attr-defined]


async def _playing_until(pilot: Any, model: Any, pred: Any, timeout: float = 30.0) -> None:
    """Check, call or stand pat on every turn of mine until ``pred()`` holds (two
    clocks run out in a row would sit me out)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not pred():
        assert asyncio.get_running_loop().time() < deadline, f"no {pred}: {model.log[-20:]}"
        legal = model.legal
        if model.my_turn and legal is not None and not isinstance(pilot.app.focused, Input):
            await pilot.press("p" if legal.get("draw") else "c")
            await until(pilot, lambda legal=legal: model.legal is not legal, what="my act")
            continue
        await pilot.pause(0.05)


async def _drop_mid_hand(app: PokerApp, pilot: Any, model: Any) -> None:
    """The socket drops while it is my turn: the client reconnects, resubscribes with
    the last version and the same hand goes on."""
    assert app.link is not None
    await _playing_until(pilot, model, lambda: model.my_turn and not model.legal.get("draw"))
    hand_id = model.hand.hand_id
    connects = app.link.connects
    await app.link.drop()
    await until(pilot, lambda: app.link is not None and app.link.connects > connects,
                what="the reconnection")  # fmt: skip
    await until(pilot, lambda: app.connection == "online", what="online")
    assert model.hand is not None
    assert model.hand.hand_id == hand_id
    await _play_out(pilot, model, hand_id)
    assert not model.seats[model.you].sitting_out


async def _play_out(pilot: Any, model: Any, hand_id: str) -> None:
    """Check, call or stand pat until the hand ``hand_id`` is over."""
    for _turn in range(20):
        await until(pilot, lambda: model.my_turn or model.hand is None
                    or model.hand.hand_id != hand_id or not model.hand.active,
                    timeout=30, what="my turn or the hand's end")  # fmt: skip
        if not model.my_turn:
            return
        legal = model.legal
        await pilot.press("p" if legal.get("draw") else "c")
        await until(pilot, lambda legal=legal: model.legal is not legal, what="my action")


async def _restart(app: PokerApp, pilot: Any, model: Any, server: Server) -> None:
    """The server stops and starts again: the client comes back online on its own,
    gets a fresh snapshot (a new epoch) and plays the next hand in the same seat."""
    assert app.link is not None
    epoch, seat, connects = model.epoch, model.you, app.link.connects
    before = model.hand.hand_id if model.hand is not None else None  # cancelled by the restart
    server.stop()
    await until(pilot, lambda: app.connection == "offline", what="offline")
    await pilot.pause(0.6)  # the screen redraws twice a second
    header = app.screen.query_one("#header").render()
    assert app.t.t("conn.offline") in str(header)
    await asyncio.to_thread(server.start)
    await until(pilot, lambda: app.link is not None and app.link.connects > connects,
                timeout=30, what="the reconnection after the restart")  # fmt: skip
    await until(pilot, lambda: model.epoch != epoch, what="a fresh snapshot")
    assert model.you == seat
    # The next hand, dealt after the restart: it may come live or already in the
    # snapshot (if it was dealt before the client looked), so it is told by its id.
    await until(
        pilot,
        lambda: model.hand is not None and model.hand.hand_id != before and model.dealt_in,
        timeout=30,
        what="a new hand",
    )
    assert model.hand is not None
    await _play_out(pilot, model, model.hand.hand_id)
    assert any("wins" in line for line in model.log)


async def _replay(app: PokerApp, pilot: Any) -> None:
    await pilot.press("escape")  # back to the lobby (the seat stays)
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
    await pilot.press("h")
    await until(pilot, lambda: isinstance(app.screen, HistoryScreen), what="my hands")
    screen = app.screen
    assert isinstance(screen, HistoryScreen)
    await until(pilot, lambda: len(screen.hands) >= 3, what="the hands listed")
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, ReplayScreen), what="the replayer")
    replay = app.screen
    assert isinstance(replay, ReplayScreen)
    await until(pilot, lambda: replay.events != [], what="the hand's events")
    assert replay.step == 0
    await pilot.press("right", "right", "right")
    assert replay.step == 3
    assert replay.model is not None
    assert replay.model.hand is not None  # the hand has started
    await pilot.press("end")
    assert replay.step == len(replay.events)
    assert replay.model is not None
    assert replay.model.hand is not None
    assert not replay.model.hand.active  # the hand is over at the last step
    await pilot.press("left")
    assert replay.step == len(replay.events) - 1


def test_pre_actions_and_a_move_to_another_table(tmp_path: Path) -> None:
    tables = [
        table(TABLE, seats=2, action_time=6.0, draw_time=6, between_hands_s=0.3),
        table("other", seats=6),
    ]
    server = Server(tmp_path, None, tables).start()
    try:
        asyncio.run(_pre_actions(server))
    finally:
        server.stop()


async def _pre_actions(server: Server) -> None:
    opponent = await Opponent(server, TABLE, seat=1, think=1.0).start()
    app = PokerApp(server.url)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.click("#guest")
            await until(pilot, lambda: TABLE in app.lobby_tables, what="the lobby")
            await app.open_table(TABLE)
            model = app.tables[TABLE]
            await until(pilot, lambda: 1 in model.seats, what="the opponent")
            await pilot.press("s", "enter")  # the first free seat, the default buy-in
            await until(pilot, lambda: model.you == 2, what="my seat")
            name = model.seats[2].name
            # Heads-up the button (small blind) acts first before the draw and draws last:
            # wait for a hand where I am the big blind, so the opponent acts first.
            await until(pilot, lambda: model.dealt_in and model.button == 1
                        and model.to_act == 1 and model.street == "pre-draw",
                        timeout=40, what="the opponent to act before me")  # fmt: skip
            hand_id = model.hand.hand_id
            await pilot.press("c")  # out of turn: call any (held by the server)
            await until(pilot, lambda: (model.pre_action or {}).get("pre") == "call_any",
                        what="the held pre-action")  # fmt: skip
            assert "Call any" in str(app.screen.query_one("#info").render())
            # the opponent calls; my held action checks for me when my turn comes
            await until(pilot, lambda: any(f"{name} checks" in line for line in model.log),
                        what="my pre-action carried out")  # fmt: skip
            await _play_out(pilot, model, hand_id)
            # Now as the button: I act first before the draw and draw last, so I hold my
            # draw (two cards marked by key) while the opponent draws.
            await until(pilot, lambda: model.dealt_in and model.button == 2
                        and model.hand.hand_id != hand_id, timeout=40,
                        what="a hand on my button")  # fmt: skip
            hand_id = model.hand.hand_id
            await until(pilot, lambda: model.my_turn, what="my turn before the draw")
            await pilot.press("c")
            await until(pilot, lambda: model.street == "draw" and model.to_act == 1,
                        what="the opponent's draw")  # fmt: skip
            cards = model.my_cards()
            await pilot.press("2", "4", "d")
            await until(pilot, lambda: (model.pre_action or {}).get("pre") == "draw",
                        what="the held draw")  # fmt: skip
            assert model.pre_action["discard"] == [cards[1], cards[3]]
            await until(pilot, lambda: any(f"{name} discards 2" in x for x in model.log),
                        what="my held draw carried out")  # fmt: skip
            assert model.hand.hand_id == hand_id
            await until(pilot, lambda: len(model.my_cards()) == 5, what="my new cards")
            assert cards[1] not in model.my_cards()
            assert cards[3] not in model.my_cards()
            # A private Moved (a tournament balancing its tables) takes me to the new table.
            app.on_frame({"type": "event", "table": TABLE, "v": None,
                          "event": {"type": "Moved", "table": "other", "table_no": 2,
                                    "seat": 3}})  # fmt: skip
            await until(pilot, lambda: app.current_table == "other", what="the move")
            await until(pilot, lambda: isinstance(app.screen, TableScreen)
                        and app.screen.table == "other", what="the new table's screen")  # fmt: skip
            await until(pilot, lambda: app.tables["other"].v is not None, what="its snapshot")
            await pilot.pause(0.6)
            assert "You were moved to table 2." in str(app.screen.query_one("#notice").render())
    finally:
        await opponent.stop()
