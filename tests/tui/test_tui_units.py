"""The terminal client without a server: the browser's catalogue in four languages,
the model's tolerance of entries it does not know, the cards in colour and in
ASCII, the first screen, and the import boundaries."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from drawpoker.tui.app import PokerApp
from drawpoker.tui.i18n import CATALOGUE, LANGUAGES, Catalogue, pick_language
from drawpoker.tui.model import TableModel
from drawpoker.tui.render import card_text, seat_lines

ROOT = Path(__file__).resolve().parents[2]


def _strings(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((CATALOGUE / f"{lang}.json").read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalogue_is_the_browsers(lang: str) -> None:
    t = Catalogue(lang)
    assert t.lang == lang
    assert t.t("auth.title") == _strings(lang)["auth.title"]
    assert t.t("table.pot", n=12) == _strings(lang)["table.pot"].replace("{n}", "12")
    assert t.t("no.such.key") == "no.such.key"


def test_languages_cycle_and_ordinals() -> None:
    t = Catalogue("en")
    assert [t.next_language() for _ in LANGUAGES] == ["it", "es", "fi", "en"]
    assert [t.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"]  # fmt: skip
    t.set_language("it")
    assert t.ordinal(2) == "2º"
    assert pick_language("fi") == "fi"
    assert pick_language("xx") in LANGUAGES


def test_the_first_screen_speaks_each_language() -> None:
    async def run() -> list[str]:
        titles = []
        app = PokerApp("http://127.0.0.1:9", lang="it")
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in LANGUAGES:
                await pilot.pause(0.1)
                titles.append(str(app.screen.query_one("#login-title").render()))
                footer = {b.binding.description for b in app.screen.active_bindings.values()}
                assert app.t.t("lang.label") in footer  # the footer speaks it too
                await pilot.press("ctrl+l")
                await pilot.pause(0.1)
        return titles

    titles = asyncio.run(run())
    assert titles == [_strings(lang)["auth.title"] for lang in ("it", "es", "fi", "en")]


def test_an_unreachable_server_is_said_not_fatal() -> None:
    async def run() -> str:
        app = PokerApp("http://127.0.0.1:9")  # nothing listens on port 9
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.click("#guest")
            for _ in range(100):
                await pilot.pause(0.05)
                text = str(app.screen.query_one("#login-error").render())
                if "127.0.0.1:9" in text:
                    return text
        return text

    assert "127.0.0.1:9" in asyncio.run(run())


def _model() -> TableModel:
    model = TableModel(table="t", t=Catalogue("en"), me="ann")
    state = {
        "table": "t", "name": "test", "epoch": "e1", "rules": "No Limit 1/2, 6-max",
        "max_seats": 6, "min_buy_in": 40, "max_buy_in": 400, "button": None,
        "carried_pot": 0, "you": None, "pre_action": None, "hand": None, "big_blind": 2,
        "seats": [{"seat": 1, "name": "bob", "stack": 200}],
    }  # fmt: skip
    model.load_snapshot(state, 7)
    return model


def test_an_unknown_entry_is_kept_and_logged_never_fatal(caplog: pytest.LogCaptureFixture) -> None:
    model = _model()
    model.apply({"type": "SomethingNew", "x": [1, {"y": 2}]}, 8)
    model.apply({"type": "Posted", "seat": 1}, 9)  # a known entry, malformed
    model.apply({"no type": True}, 10)
    assert [e.get("type") for e in model.unknown] == ["SomethingNew", "Posted", None]
    assert model.v == 10
    assert "SomethingNew" in caplog.text
    app = PokerApp()  # a frame of a type the client does not know, and a broken one
    app.on_frame({"type": "brand_new", "table": "t"})
    app.on_frame({"type": "event", "table": "t", "event": {"type": "Chat"}, "v": 3})
    assert app.unknown[0] == {"type": "brand_new", "table": "t"}


def test_operators_orders_reach_the_terminal() -> None:
    """A deleted chat line goes, a paused or changed table says so, and the
    lobby drops a closed table and a cancelled tournament."""
    model = _model()
    model.apply({"type": "Chat", "name": "spam", "text": "cheap chips"}, 8)
    model.apply({"type": "Chat", "name": "bob", "text": "hi"}, 9)
    model.apply({"type": "ChatDeleted", "name": "spam", "text": "cheap chips"}, 10)
    assert model.chat == [("bob", "hi")]
    changed = {"type": "TableChanged", "name": "test", "rules": "No Limit 2/4, 6-max",
               "max_seats": 6, "min_buy_in": 80, "max_buy_in": 800, "big_blind": 4}  # fmt: skip
    model.apply({**changed, "status": "paused"}, 11)
    assert model.status == "paused"
    assert model.log[-1].startswith("The table is paused")
    model.apply({**changed, "status": "paused"}, 12)
    assert (model.big_blind, model.max_buy_in) == (4, 800)
    assert "changed this table" in model.log[-1]
    assert not model.unknown
    app = PokerApp()
    row = {"id": "x", "status": "open"}
    app.on_frame({"type": "lobby", "full": True, "tables": [row], "tournaments": [row]})
    assert list(app.lobby_tables) == list(app.lobby_tournaments) == ["x"]
    gone = {**row, "status": "closed"}
    app.on_frame({"type": "lobby", "full": False, "tables": [gone], "tournaments": [gone]})
    assert app.lobby_tables == app.lobby_tournaments == {}


def test_a_hand_is_rebuilt_from_the_wire() -> None:
    model = _model()
    model.apply({"type": "PlayerSeated", "seq": 1, "seat": 3, "name": "ann", "stack": 100,
                 "post": True}, 8)  # fmt: skip
    assert model.you == 3
    events = [
        {"type": "HandStarted", "seq": 2, "hand_id": "t-1", "button": 1,
         "stacks": [[1, 200], [3, 100]], "carried_pot": 0, "commitment": ""},
        {"type": "Posted", "seq": 3, "seat": 1, "kind": "small blind", "amount": 1,
         "all_in": False},
        {"type": "Posted", "seq": 4, "seat": 3, "kind": "big blind", "amount": 2,
         "all_in": False},
        {"type": "CardsReceived", "seq": 5, "seat": 3, "cards": ["As", "Kd", "Qh", "Jc", "2s"]},
        {"type": "Turn", "seat": 1, "street": "pre-draw", "clock_s": 15.0, "hand_id": "t-1"},
        {"type": "Raised", "seq": 6, "seat": 1, "increment": 4, "to": 6, "all_in": False,
         "full": True},
    ]  # fmt: skip
    for v, event in enumerate(events, 9):
        model.apply(event, v)
    assert model.my_cards() == ["As", "Kd", "Qh", "Jc", "2s"]
    assert model.hand is not None
    assert model.hand.pot == 8
    assert model.stack(1) == 194
    assert model.stack(3) == 98
    assert not model.unknown
    assert model.log[-1] == "bob raises to 6"
    text = seat_lines(model, ascii_mode=True).plain
    assert "> " not in text  # nobody's turn after the raise until the next Turn
    assert "1 bob" in text
    assert "[6]" in text
    assert "ann (you)" in text


def test_cards_in_colour_and_in_ascii() -> None:
    coloured = card_text("Ah")
    assert coloured.plain.strip() == "A♥"
    assert "red" in str(coloured.style)
    assert card_text("As", ascii_mode=True).plain.strip() == "As"
    assert card_text("As", ascii_mode=True).style == ""
    assert card_text("Td", ascii_mode=True, marked=True).plain == "*Td*"
    assert "reverse" in str(card_text("Td", marked=True).style)


def test_help_and_the_first_screen_load_no_heavy_module() -> None:
    code = (
        "import sys\n"
        "from drawpoker import cli\n"
        "cli.build_parser(only='').format_help()\n"
        "heavy = [m for m in ('numpy', 'drawpoker.evaluator', 'drawpoker.server', 'textual',"
        " 'httpx', 'websockets') if m in sys.modules]\n"
        "from drawpoker.tui import app\n"
        "first = [m for m in ('numpy', 'drawpoker.evaluator', 'drawpoker.server', 'httpx',"
        " 'websockets', 'msgspec') if m in sys.modules]\n"
        "print(heavy, first)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[] []"


def test_the_first_screen_drawn_loads_only_what_it_shows() -> None:
    """``drawpoker play --first-screen`` draws the log-in screen and stops: by then
    neither the lobby (its DataTable), the network, the protocol nor the engine has
    loaded, and the client has said when the screen was drawn."""
    code = (
        "import sys\n"
        "from drawpoker.cli import main\n"
        "status = main(['play', '--first-screen', '--server', 'http://127.0.0.1:9'])\n"
        "late = ('numpy', 'drawpoker.evaluator', 'drawpoker.cards', 'drawpoker.hand',"
        " 'drawpoker.protocol', 'drawpoker.tui.net', 'drawpoker.tui.model',"
        " 'drawpoker.tui.screens', 'drawpoker.tui.table', 'textual.widgets._data_table',"
        " 'httpx', 'websockets', 'msgspec', 'secrets')\n"
        "print(status, [m for m in late if m in sys.modules])\n"
    )
    env = {**os.environ, "DRAWPOKER_STARTED_AT": "0"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env,
        stdin=subprocess.DEVNULL, timeout=60,
    )  # fmt: skip
    lines = out.stdout.strip().splitlines()
    assert lines[0].startswith("first screen ")
    assert lines[-1] == "0 []"


def test_the_terminal_client_and_the_server_never_import_each_other(tmp_path: Path) -> None:
    from test_layers import _copy, _lint

    tree = _copy(tmp_path)
    net = tree / "src" / "drawpoker" / "tui" / "net.py"
    net.write_text(net.read_text() + "\nfrom drawpoker.server import app as _app  # noqa\n")
    result = _lint(tree)
    assert result.returncode != 0
    assert "drawpoker.tui.net -> drawpoker.server.app" in result.stdout


def test_ascii_mode_writes_only_ascii_signs() -> None:
    from drawpoker.tui.render import asciify, info_line

    model = _model()
    model.apply({"type": "PlayerSeated", "seq": 1, "seat": 3, "name": "ann", "stack": 100,
                 "post": True}, 8)  # fmt: skip
    started = {"type": "HandStarted", "seq": 2, "hand_id": "t-1", "button": 1,
               "stacks": [[1, 200], [3, 100]], "carried_pot": 0, "commitment": ""}  # fmt: skip
    model.apply(started, 9)
    model.apply({"type": "Turn", "seat": 1, "street": "pre-draw", "clock_s": 9.0,
                 "hand_id": "t-1"}, 10)  # fmt: skip
    for text in (seat_lines(model, ascii_mode=True), info_line(model), *model.log):
        assert asciify(text).plain.isascii(), text
    styled = seat_lines(model)
    assert asciify(styled).spans == styled.spans  # one sign for one: the styles stay put
