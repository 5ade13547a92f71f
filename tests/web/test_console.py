"""The staff's console in Chromium: an operator opens a table and a player sits
at it from the lobby without a restart; a moderator mutes a spammer whose next
chat line is refused; an operator corrects a balance, which shows in the
player's card and the audit log while the books balance; anyone else is told
the page is for staff."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import httpx
import pytest
from sqlalchemy import select

from drawpoker.server import ledger
from drawpoker.server.store import Store, database_url, hands
from server.helpers import Client, Server

from .helpers import DESKTOP, PHONE
from .test_browser import join, press

pytestmark = pytest.mark.slow
PASSWORD = "Tr0ub4dor&3-horse"
T = TypeVar("T")


def staff(server: Server, name: str, role: str) -> None:
    """A staff account, made with ``drawpoker admin`` on the running server's database."""
    if httpx.post(server.url + "/api/login", json={"name": name, "password": PASSWORD}).is_success:
        return  # made by an earlier test of the session
    made = subprocess.run(
        [sys.executable, "-m", "drawpoker.cli", "admin", "--data-dir", str(server.tmp / "data"),
         "create-user", name, "--role", role, "--password-stdin"],
        input=PASSWORD, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr


def off_the_page(work: Coroutine[Any, Any, T]) -> T:
    """Run ``work`` in a thread of its own (Playwright's loop runs in this one)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, work).result(timeout=60)


def chat(server: Server, token: str, table: str, text: str) -> dict[str, Any]:
    """A chat line from another client (a websocket of its own); the server's answer."""

    async def say() -> dict[str, Any]:
        client = await Client(server, token, "chatter").connect()
        try:
            return await client.request({"type": "chat", "table": table, "text": text})
        finally:
            await client.close()

    return off_the_page(say())


def console(open_page: Any, server: Server, name: str, viewport: dict[str, int] = DESKTOP) -> Any:
    page = open_page(viewport)
    page.goto(server.url + "/console")
    page.fill("#c-name", name)
    page.fill("#c-password", PASSWORD)
    page.click("#login button[type=submit]")
    page.wait_for_selector("html[data-ready]")
    return page


def submit(page: Any, form: str, fields: dict[str, str]) -> str:
    for name, value in fields.items():
        locator = page.locator(f"#{form} [name={name}]")
        if locator.evaluate("el => el.tagName") == "SELECT":
            locator.select_option(value)
        else:
            locator.fill(value)
    page.click(f"#{form} button[type=submit]")
    status = page.locator(f"#{form}-status")
    page.wait_for_function(
        "el => el.textContent && el.textContent !== '…'", arg=status.element_handle()
    )
    text: str = status.inner_text()
    return text


def test_an_operator_opens_a_table_and_a_player_sits_at_it(open_page: Any, server: Server) -> None:
    staff(server, "Opsy", "operator")
    page = console(open_page, server, "Opsy")
    page.wait_for_selector('#figures dd[data-figure="hands_today"]')
    said = submit(page, "open-table", {
        "id": "console-1", "name": "From the console", "structure": "pot-limit",
        "small_blind": "1", "big_blind": "2", "max_seats": "6", "min_buy_in": "40",
        "max_buy_in": "200", "bots": "1", "reason": "a table for the evening",
    })  # fmt: skip
    assert said == "Table console-1 is open."
    page.console.allow("409")  # the browser logs the refusal as a failed load
    again = submit(page, "open-table", {"reason": "twice"})  # the same id
    assert "already a table" in again
    player = open_page(DESKTOP)
    player.wait_for_selector('.trow[data-table="console-1"]')
    join(player, "console-1", False)
    page.click("#audit button")
    page.wait_for_selector("#audit td:text('open-table')")


def test_a_moderator_mutes_a_spammer(open_page: Any, server: Server) -> None:
    staff(server, "Moddy", "moderator")
    spammer = httpx.post(server.url + "/api/guest").json()

    assert chat(server, spammer["token"], "desk", "cheap chips here")["type"] == "ok"
    page = console(open_page, server, "Moddy")
    assert page.locator("#open-table").count() == 0  # an operator's form
    assert page.locator("#audit").count() == 0
    page.fill("#c-player", spammer["name"])
    page.click("#find-player button")
    page.wait_for_selector('#player-card dd[data-field="chat"]:text("allowed")')
    assert page.locator("#adjust").count() == 0
    assert page.locator("#seat").count() == 1  # a moderator's own
    said = submit(page, "mute", {"minutes": "30", "reason": "advertising"})
    assert said.startswith("Muted until")
    page.wait_for_selector('#player-card dd[data-field="chat"]:text("muted until")')
    refused = chat(server, spammer["token"], "desk", "cheaper chips here")
    assert (refused["type"], refused["code"]) == ("error", "muted")


def test_an_operator_corrects_a_balance(open_page: Any, server: Server) -> None:
    staff(server, "Opsy", "operator")
    player = httpx.post(server.url + "/api/guest").json()
    before = server.me(player["token"])["balance"]
    page = console(open_page, server, "Opsy")
    page.fill("#c-player", player["name"][:-1])  # the start of the name: the matches
    page.click("#find-player button")
    page.click(f"#player-matches button:text-is('{player['name']}')")
    page.wait_for_selector(f'#player-card dd[data-field="balance"]:text("{before}")')
    assert "1 in force" in page.locator('#player-card dd[data-field="sessions"]').inner_text()
    assert page.locator("#role").count() == 0  # an administrator's form
    said = submit(page, "adjust", {"amount": "-250", "reason": "refund reversed, ticket 12"})
    assert said.startswith("Done: ledger transaction")
    page.wait_for_selector(f'#player-card dd[data-field="balance"]:text("{before - 250}")')
    assert server.me(player["token"])["balance"] == before - 250
    page.click("#audit button")
    row = page.locator("#audit tr", has_text="refund reversed, ticket 12")
    row.wait_for()
    assert "adjust-balance" in row.inner_text()
    assert player["name"] in row.inner_text()
    store = Store(database_url(None, server.tmp / "data"))
    try:
        store.call(ledger.check_books)
    finally:
        store.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_console_is_for_staff_only(
    open_page: Any, server: Server, viewport: dict[str, int]
) -> None:
    page = open_page(viewport, phone=viewport is PHONE)
    press(page, "#guest-btn", viewport is PHONE)
    page.wait_for_selector("#account :text('guest-')")
    page.goto(server.url + "/console")
    page.wait_for_selector("#not-staff")
    assert page.locator("#overview").count() == 0
    page.console.allow("403")  # the fetches below, refused as they must be
    for path in ("/api/admin/overview", "/api/admin/audit"):
        status = page.evaluate(f"fetch('{path}').then(r => r.status)")
        assert status == 403
    wide = page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert wide, "the page scrolls sideways"


def test_an_operator_bans_a_player_in_the_middle_of_a_hand(open_page: Any, server: Server) -> None:
    staff(server, "Opsy", "operator")
    player = open_page(DESKTOP)
    player.wait_for_selector('.trow[data-table="console-ban"]')
    join(player, "console-ban", False)
    name = player.locator("#me-name").inner_text()
    player.wait_for_selector("#my-hand .card")  # a hand in play
    page = console(open_page, server, "Opsy")
    page.fill("#c-player", name)
    page.click("#find-player button")
    page.wait_for_selector('#player-card dd[data-field="account"]:text("in good standing")')
    page.check("#c-ban")
    said = submit(page, "suspend", {"reason": "chip dumping ring"})
    assert said == "Suspended for good; stood up at 1 tables; unregistered from 0 tournaments."
    page.wait_for_selector('#player-card dd[data-field="account"]:text("banned")')
    player.console.allow("401")  # the banned page's requests, refused from now on
    player.console.allow("1008")
    deadline = time.monotonic() + 30
    while name in _seated(server, "console-ban"):  # cashed out when the hand is over
        assert time.monotonic() < deadline, "the banned player still has a seat"
        time.sleep(0.3)
    card = httpx.get(
        server.url + f"/api/admin/players/{name}",
        headers={"Authorization": f"Bearer {_token(server, 'Opsy')}"},
    ).json()
    assert card["transactions"][0]["kind"] == "cash-out"
    store = Store(database_url(None, server.tmp / "data"))
    try:
        store.call(ledger.check_books)
    finally:
        store.close()


def _token(server: Server, name: str) -> str:
    reply = httpx.post(server.url + "/api/login", json={"name": name, "password": PASSWORD})
    token: str = reply.json()["token"]
    return token


def _seated(server: Server, table_id: str) -> list[str]:
    return [seat["name"] for seat in server.table(table_id)["state"]["seats"]]


def test_a_reported_chat_line_reaches_the_moderators_queue(open_page: Any, server: Server) -> None:
    staff(server, "Moddy", "moderator")
    staff(server, "Opsy", "operator")
    player = open_page(DESKTOP)
    player.wait_for_selector('.trow[data-table="reports"]')
    join(player, "reports", False)
    spammer = httpx.post(server.url + "/api/guest").json()

    said = chat(server, spammer["token"], "reports", "visit cheap-chips dot example")
    assert said["type"] == "ok"
    player.click("#side-chat")
    line = player.locator("#chat-lines li", has_text="cheap-chips")
    line.wait_for()
    line.locator(".chat-report").click()
    player.wait_for_selector("#toast .toast:has-text('Reported')")
    page = console(open_page, server, "Moddy")
    entry = page.locator("#report-list li", has_text="cheap-chips")
    entry.wait_for()
    assert f"reports {spammer['name']} at reports" in entry.inner_text()
    unsay = entry.locator("form[id^=unsay]")
    unsay.locator("[name=reason]").fill("advertising")
    unsay.locator("button[type=submit]").click()
    unsay.locator(".status:text('Deleted from everyone')").wait_for()
    line.wait_for(state="detached")  # gone from the player's chat at once
    form = entry.locator("form[id^=close]")
    form.locator("[name=reason]").fill("muted for a day")
    form.locator("button[type=submit]").click()
    entry.wait_for(state="detached")
    entries = httpx.get(
        server.url + "/api/admin/audit?limit=2",
        headers={"Authorization": f"Bearer {_token(server, 'Opsy')}"},
    ).json()["entries"]
    assert [(e["action"], e["reason"]) for e in entries] == [
        ("close-report", "muted for a day"),
        ("delete-chat", "advertising"),
    ]
    player.reload()  # a snapshot: the deleted line is not in it either
    player.wait_for_selector(".felt .seat")
    player.click("#side-chat")
    assert player.locator("#chat-lines li", has_text="cheap-chips").count() == 0
    forged = player.evaluate(
        """fetch('/api/reports', {method: 'POST', headers: {'content-type': 'application/json'},
            body: JSON.stringify({kind: 'chat', table: 'reports', about: 'x', text: 'never said'})})
            .then(r => r.status)"""
    )
    assert forged == 404  # only a line the table still keeps can be reported
    player.console.allow("404")


def test_an_operator_reads_pairs_and_a_hand_with_every_card(open_page: Any, server: Server) -> None:
    staff(server, "Opsy", "operator")
    store = Store(database_url(None, server.tmp / "data"))
    try:
        hand_id = store.call(
            lambda c: c.execute(
                select(hands.c.id).where(hands.c.status == "finished").limit(1)
            ).scalar_one()
        )
    finally:
        store.close()
    page = console(open_page, server, "Opsy")
    page.wait_for_selector("#signals tbody tr")
    page.fill("#c-hand", hand_id)
    page.click("#find-hand button")
    page.wait_for_selector('#hand-shown dd[data-field="verified"]:text("yes")')
    assert "CardsReceived" in page.locator("#hand-shown .events").inner_text()


def test_an_operator_pauses_changes_and_closes_a_table(open_page: Any, server: Server) -> None:
    """From the console's table list, while a player sits at the table: each order
    reaches the player's page, and closing stands them up with their chips."""
    staff(server, "Opsy", "operator")
    page = console(open_page, server, "Opsy")
    said = submit(page, "open-table", {
        "id": "console-close", "name": "Closing soon", "structure": "no-limit",
        "small_blind": "1", "big_blind": "2", "max_seats": "4", "min_buy_in": "40",
        "max_buy_in": "200", "bots": "1", "reason": "a table to close",
    })  # fmt: skip
    assert said == "Table console-close is open."
    row = '#tables tr[data-table="console-close"]'
    page.wait_for_selector(f'{row}[data-status="open"]')
    player = open_page(DESKTOP)
    player.wait_for_selector('.trow[data-table="console-close"]')
    join(player, "console-close", False)
    name = player.locator("#me-name").inner_text()
    page.click(f"{row} button:text('Pause')")  # no reason yet: refused on the page
    assert "Say why first" in page.locator("#tables-status").inner_text()
    page.fill("#c-table-reason", "dealer change")
    page.click(f"{row} button:text('Pause')")
    page.wait_for_selector(f'{row}[data-status="paused"]')
    player.wait_for_selector(".toast:text('The table is paused')")
    page.click(f"{row} button:text('Change')")
    said = submit(page, "edit-table", {"small_blind": "2", "big_blind": "4", "reason": "higher"})
    assert said.startswith("Saved; applies")
    player.wait_for_selector(".toast:text('changed this table')")
    page.click(f"{row} button:text('Close')")
    page.wait_for_selector(f'{row}[data-status="closed"]', timeout=30_000)
    player.wait_for_selector(".toast:text('This table is closed')", timeout=30_000)
    player.wait_for_selector(".seat.me", state="detached")
    assert httpx.get(server.url + "/api/tables/console-close").status_code == 404
    ops = {"Authorization": f"Bearer {_token(server, 'Opsy')}"}
    card = httpx.get(server.url + f"/api/admin/players/{name}", headers=ops).json()
    assert card["transactions"][0]["kind"] == "cash-out"  # every chip back, through the ledger
    entries = httpx.get(server.url + "/api/admin/audit?limit=3", headers=ops).json()["entries"]
    assert [e["action"] for e in entries] == ["close-table", "edit-table", "pause-table"]
    store = Store(database_url(None, server.tmp / "data"))
    try:
        store.call(ledger.check_books)
    finally:
        store.close()


def test_an_operator_schedules_changes_and_cancels_a_tournament(
    open_page: Any, server: Server
) -> None:
    staff(server, "Opsy", "operator")
    page = console(open_page, server, "Opsy")
    said = submit(page, "schedule-tournament", {
        "id": "console-sng", "name": "Console sit & go", "buy_in": "30", "fee": "3",
        "max_entries": "4", "seats_per_table": "4", "reason": "a quiet evening",
    })  # fmt: skip
    assert said == "Tournament console-sng is open for registration."
    row = '#tournaments tr[data-tournament="console-sng"]'
    page.wait_for_selector(f'{row}[data-status="registering"]')
    guest = httpx.post(server.url + "/api/guest").json()
    before = server.me(guest["token"])["balance"]
    joined = httpx.post(
        server.url + "/api/tournaments/console-sng/register",
        cookies={"dp_session": guest["token"]},
        headers={"Origin": server.url},
    )
    assert joined.status_code == 200, joined.text
    page.click(f"{row} button:text('Change')")
    said = submit(page, "edit-tournament", {"buy_in": "40", "reason": "a bigger pool"})
    assert said == "Saved; applies from the next run."  # someone registered at 30+3
    page.click(f"{row} button:text('Cancel')")
    assert "Say why first" in page.locator("#tournaments-status").inner_text()
    page.fill("#c-tournament-reason", "too few players tonight")
    page.click(f"{row} button:text('Cancel')")
    page.wait_for_selector("#tournaments-status:text('1 entries refunded')")
    assert server.me(guest["token"])["balance"] == before
    page.wait_for_selector(row, state="detached")
    lobby = httpx.get(server.url + "/api/tournaments").json()["tournaments"]
    assert "console-sng" not in {t["id"] for t in lobby}


def test_the_console_fits_a_phone(open_page: Any, server: Server) -> None:
    """Every panel on a phone in portrait: the page never scrolls sideways (wide
    tables scroll inside their panel) and the forms' fields are reachable."""
    staff(server, "Boss", "administrator")
    page = console(open_page, server, "Boss", PHONE)
    for panel in ("overview", "open-table", "tables", "tournaments", "players", "reports",
                  "signals", "hands", "audit"):  # fmt: skip
        page.locator(f"#{panel}").scroll_into_view_if_needed()
    page.wait_for_selector('#tables tr[data-table="desk"]')
    wide = page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    culprits = page.evaluate("""[...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
        .slice(0, 8).map(e => e.tagName + '#' + e.id + '.' + e.className + ' '
        + Math.round(e.getBoundingClientRect().right))""")
    assert wide, f"the console scrolls sideways on a phone: {culprits}"
    box = page.locator("#c-open-table-reason").bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= PHONE["width"]


def test_the_console_speaks_the_players_languages(open_page: Any, server: Server) -> None:
    """The language the lobby keeps is the console's too, and it can be changed
    on the page; the server's words (errors) stay as they come."""
    staff(server, "Opsy", "operator")
    page = console(open_page, server, "Opsy")
    assert page.locator("#overview h2").text_content() == "The room"
    page.select_option("#c-lang", "it")
    page.wait_for_selector("html[lang=it][data-ready]")
    assert page.locator("#overview h2").text_content() == "La sala"
    assert page.locator("#tables h2").text_content() == "Tavoli cash"
    assert "(operatore)" in page.locator("#who").inner_text()
    page.select_option("#c-lang", "fi")
    page.wait_for_selector("html[lang=fi][data-ready]")
    assert page.locator("#tournaments > h2").text_content() == "Turnaukset"
    page.click('#tables tr[data-table="desk"] button[data-order="pause"]')
    assert "Kerro ensin syy" in page.locator("#tables-status").inner_text()
    page.evaluate("localStorage.setItem('dp.lang', 'en')")
