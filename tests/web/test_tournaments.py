"""Tournaments in the browser (docs/protocol.md, "Tournaments"): the lobby's
Tournaments tab, registering and unregistering, the tournament lobby page, the
tournament table (level, blinds, no cash controls) and a sit & go played to the
finishing place.

The room's tournaments are in ``conftest.TOURNAMENTS``.
"""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest

from .helpers import DESKTOP, PHONE, screenshot, wait_for_js


def balance(page: Any) -> int:
    return int(re.sub(r"\D", "", page.locator("#balance").inner_text()))


def registered(row: Any) -> int:
    return int(row.locator(".registered").inner_text().split("/")[0])


def wait_balance(page: Any, want: int) -> None:
    wait_for_js(
        page,
        f"Number(document.querySelector('#balance')?.innerText.replace(/\\D/g, '')) === {want}",
        timeout=10_000,
    )


NAMELESS = """[...document.querySelectorAll('button, a, input, select')]
    .filter(el => !(el.getAttribute('aria-label') || el.textContent.trim() || el.closest('label')))
    .map(el => el.outerHTML.slice(0, 80))"""


def test_tournaments_tab_lists_registers_and_unregisters(open_page: Any) -> None:
    page = open_page(DESKTOP)
    page.click("#guest-btn")
    page.wait_for_selector("#balance")
    page.click("#tab-tournament")
    row = page.locator('.trow[data-tournament="sng-lobby"]')
    row.wait_for()
    text = row.inner_text()
    for part in ("Test lobby sit & go", "Sit & Go", "No Limit", "100 + 10", "1,000", "When full"):
        assert part in text, (part, text)
    assert "Registering" in text
    assert "5-minute levels" in text
    assert registered(row) == 0
    assert row.locator(".c-prize_pool").inner_text().endswith("0")
    later = page.locator('.trow[data-tournament="mtt-later"]').inner_text()
    assert "Scheduled" in later, later
    # Local time and countdown: an hour after the server started, however long the
    # tests before this one took.
    found = re.search(r"\d\d:\d\d( [AP]M)? · in (\d\d):\d\d", later)
    assert found, later
    rows = page.request.get(page.url.split("#")[0].rstrip("/") + "/api/tournaments").json()
    starts = next(r["starts_at"] for r in rows["tournaments"] if r["id"] == "mtt-later")
    left = (starts - time.time()) / 60
    assert 0 < left <= 60, left
    assert int(left) - 1 <= int(found.group(2)) <= int(left) + 1, (later, left)
    assert "0/18" in later
    before = balance(page)
    assert not page.evaluate(NAMELESS)
    label = row.locator(".register").get_attribute("aria-label")
    assert label == "Register for Test lobby sit & go"
    screenshot(page, "tournaments-desktop")

    row.locator(".register").click()
    row.locator(".unregister").wait_for()
    wait_for_js(
        page,
        """document.querySelector('.trow[data-tournament="sng-lobby"] .registered')
        .innerText.startsWith('1/')""",
    )
    wait_balance(page, before - 110)
    assert "100" in row.locator(".c-prize_pool").inner_text()
    assert row.locator(".tag.you").count() == 1

    # Too dear: the server's reason is shown and nothing changes. (The browser
    # logs the refusal, a 400, as a failed load.)
    page.console.allow("status of 400")
    page.locator('.trow[data-tournament="sng-dear"] .register').click()
    page.wait_for_selector(".toast.error:has-text('not enough chips')")
    assert balance(page) == before - 110

    # The tournament lobby page: the facts, me among the players, the levels.
    row.locator(".tname").click()
    page.wait_for_selector("#tour-title:has-text('Test lobby sit & go')")
    me = page.locator("#me-name").inner_text()
    page.wait_for_selector(f"#tour-players tr[data-name='{me}']")
    assert page.locator("#tour-registered").inner_text() == "1/6"
    assert page.locator("#tour-status").inner_text() == "Registering"
    assert page.locator("#tour-levels tbody tr").count() == 12
    assert page.locator("#tour-you-registered").count() == 1
    assert page.locator("#tour-go").count() == 0
    assert not page.evaluate(NAMELESS)
    screenshot(page, "tournament-lobby-desktop")
    page.click("#tour-unregister")
    page.wait_for_selector("#tour-register")
    wait_balance(page, before)
    assert page.locator("#tour-registered").inner_text() == "0/6"
    page.click("a.back")
    row.wait_for()
    row.locator(".register").wait_for()
    assert registered(row) == 0


def test_tournament_strings_in_every_language(open_page: Any) -> None:
    """Ordinal places per language, and the tournament tab translated."""
    page = open_page(DESKTOP)
    result = page.evaluate(
        """async () => {
        const i18n = await import("/static/i18n.js");
        const out = {};
        for (const code of ["en", "it", "es", "fi"]) {
          await i18n.loadLanguage(code);
          out[code] = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23].map(i18n.ordinal)
            .concat([i18n.places([3, 4]), i18n.t("tour.you_finished", {place: i18n.ordinal(3)})]);
        }
        await i18n.loadLanguage("en");
        return out;
    }"""
    )
    assert result["en"] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd",
        "3rd–4th", "You finished 3rd.",
    ]  # fmt: skip
    assert result["it"][:3] == ["1º", "2º", "3º"]
    assert result["it"][-1] == "Hai chiuso al 3º posto."
    assert result["es"][:3] == ["1.ª", "2.ª", "3.ª"]
    assert result["es"][-1] == "Has terminado en 3.ª posición."
    assert result["fi"][:3] == ["1.", "2.", "3."]
    assert result["fi"][-1] == "Sijoituksesi: 3."
    page.select_option("#lang-select", "fi")
    page.wait_for_selector("html[lang=fi]")
    page.click("#tab-tournament")
    row = page.locator('.trow[data-tournament="sng-lobby"]')
    row.wait_for()
    assert "Kun täynnä" in row.inner_text()
    assert row.locator(".register").inner_text() == "Ilmoittaudu"
    page.select_option("#lang-select", "en")
    page.wait_for_selector("html[lang=en]")


def test_tournament_table_renders_level_blinds_and_the_finish(open_page: Any) -> None:
    """A tournament table from a snapshot and events as the protocol describes them:
    the level line, no cash controls, eliminations in the log, the finishing place."""
    page = open_page(PHONE, phone=True)
    result = page.evaluate(
        """async () => {
        const { TableView } = await import("/static/table.js");
        const app = {
          me: { id: 7, name: "ann" }, flash: null, finished: new Map(),
          socket: { send: async () => ({ type: "ok", detail: {} }) },
          toast: () => {}, refreshMe: () => {}, tournamentFinished: () => {},
        };
        const id = "sng-lobby-abc-t1";
        const view = new TableView(app, id);
        document.getElementById("view").replaceChildren(view.el);
        const seat = (n, name) => ({ seat: n, name, stack: 1000, pending_top_up: 0,
          sitting_out: false, connected: true, bot: name !== "ann", time_bank: 10 });
        view.onMessage({ type: "snapshot", table: id, v: 1, state: {
          table: id, name: "Test lobby sit & go · table 1", epoch: "e", rules: "No Limit 10/20",
          max_seats: 6, min_buy_in: 0, max_buy_in: 0, button: 1, carried_pot: 0, you: 2,
          pre_action: null, seats: [seat(1, "bot-a"), seat(2, "ann"), seat(3, "bot-b")], hand: null,
          tournament: { id: "sng-lobby", name: "Test lobby sit & go", table_no: 1,
            level: { level: 2, small_blind: 10, big_blind: 20, ante: 0, minutes: 5 },
            next_level: { level: 3, small_blind: 15, big_blind: 30, ante: 5, minutes: 5 },
            next_in_s: 75, players_left: 3, entries: 3 } } });
        const text = (sel) => view.el.querySelector(sel)?.innerText ?? null;
        const first = {
          bar: text("#tour-bar"), level: text("#tour-level"), next: text("#tour-next"),
          clock: text("#tour-next-in"), left: text("#tour-left"),
          cash: ["#top-up", "#leave", "#sit-out", "#sit-in", "#take-seat", ".seat .sit"]
            .filter((s) => view.el.querySelector(s)),
          lobby: view.el.querySelector("#tour-lobby-link")?.getAttribute("href"),
        };
        let v = 1;
        const ev = (event) => view.onMessage({ type: "event", table: id, v: ++v, event });
        ev({ type: "LevelStarted", level: 3, small_blind: 15, big_blind: 30, ante: 5 });
        ev({ type: "PlayerEliminated", name: "bot-b", places: [3], prize: 0 });
        const frame = () => new Promise((r) => requestAnimationFrame(r)); // (one render a frame)
        await frame();
        const second = { level: text("#tour-level"), left: text("#tour-left"), log: text("#log"),
          details: text("#table-rules") };
        ev({ type: "Finished", tournament: "sng-lobby-abc", places: [2], prize: 90 });
        await frame();
        const third = { place: text("#finished-place"), prize: text("#finished-prize"),
          back: view.el.querySelector("#finished-back")?.getAttribute("href") };
        const width = document.documentElement.scrollWidth;
        view.destroy();
        // Moved: the message for the next table, and the switch to it.
        const moving = new TableView(app, "sng-lobby-abc-t2");
        moving.onMessage({ type: "snapshot", table: "sng-lobby-abc-t2", v: 1, state: {
          table: "sng-lobby-abc-t2", name: "t2", epoch: "e", rules: "No Limit 10/20", max_seats: 6,
          min_buy_in: 0, max_buy_in: 0, button: 1, carried_pot: 0, you: 2, pre_action: null,
          seats: [seat(2, "ann")], hand: null,
          tournament: { id: "sng-lobby", name: "T", table_no: 2,
            level: { level: 1, small_blind: 10, big_blind: 20, ante: 0, minutes: 5 },
            next_level: null, next_in_s: null, players_left: 9, entries: 9 } } });
        moving.onMessage({ type: "event", table: "sng-lobby-abc-t2", v: 2,
          event: { type: "Moved", table: "sng-lobby-abc-t1", table_no: 1, seat: 4 } });
        const moved = { flash: app.flash, hash: location.hash };
        moving.destroy();
        return { first, second, third, width, moved };
    }"""
    )
    first, second, third = result["first"], result["second"], result["third"]
    assert first["level"] == "Level 2 Blinds 10/20", first
    assert first["next"] == "Next: Blinds 15/30, ante 5", first
    assert re.fullmatch(r"1:1\d", first["clock"]), first
    assert first["left"] == "3 of 3 players left"
    assert "Table 1" in first["bar"]
    assert first["cash"] == [], first
    assert first["lobby"] == "#/tournament/sng-lobby"
    assert second["level"] == "Level 3 Blinds 15/30, ante 5", second
    assert second["details"] == "5 Card Draw · No Limit · Blinds 15/30, ante 5", second
    assert second["left"] == "2 of 3 players left"
    assert "Level 3: blinds 15/30, ante 5" in second["log"]
    assert "bot-b is out in 3rd place" in second["log"]
    assert third["place"] == "You finished 2nd."
    assert third["prize"] == "Prize: 90"
    assert third["back"] == "#/tournament/sng-lobby-abc"
    assert result["width"] <= PHONE["width"]
    assert result["moved"]["flash"] == {"key": "tour.moved", "params": {"n": 1}}
    assert result["moved"]["hash"] == "#/table/sng-lobby-abc-t1"


def tournament_tables_served(server: Any) -> bool:
    """Whether the server runs tournament tables as websocket tables (the detail
    has ``next_level`` and the players' ``table_id``)."""
    detail = httpx.get(server.url + "/api/tournaments/sng-play", timeout=10).json()
    return "next_level" in detail


def play_until_finished(page: Any, seconds: float) -> str:
    """Push every chip in (max bet or call), stand pat; return the finishing line."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if page.locator("#finished-place").count():
            return str(page.locator("#finished-place").inner_text())
        if page.locator("#stand-pat:not([disabled])").count():
            page.locator("#stand-pat").tap()
        elif page.locator("#bet:not([disabled])").count():
            if page.locator("#preset-max").count():
                page.locator("#preset-max").tap()
            page.locator("#bet").tap()
        elif page.locator("#call:not([disabled])").count():
            page.locator("#call").tap()
        elif page.locator("#check:not([disabled])").count():
            page.locator("#check").tap()
        page.wait_for_timeout(100)
    raise AssertionError("the sit & go did not finish in time")


def test_sit_and_go_from_registration_to_the_finishing_place(open_page: Any, server: Any) -> None:
    """On a phone: register for the 3-entry sit & go (two bots are in), go to the
    table when it starts, play it out, see the place and the prize."""
    if not tournament_tables_served(server):
        pytest.skip("the server does not run tournament tables yet (docs/protocol.md)")
    page = open_page(PHONE, phone=True)
    page.locator("#guest-btn").tap()
    page.wait_for_selector("#balance")
    before = balance(page)
    page.locator("#tab-tournament").tap()
    row = page.locator('.trow[data-tournament="sng-play"]')
    row.wait_for()
    wait_for_js(
        page,
        """document.querySelector('.trow[data-tournament="sng-play"] .registered')
        ?.innerText.startsWith('2/')""",
        timeout=10_000,
    )
    screenshot(page, "tournaments-phone")
    row.locator(".register").tap()
    # The sit & go is full: the client follows the tournament to the player's table.
    page.wait_for_selector("#tour-bar #tour-level", timeout=20_000)
    assert page.url.split("#")[1].startswith("/table/")
    for control in ("#top-up", "#leave", "#sit-out", "#take-seat"):
        assert page.locator(control).count() == 0, control
    assert page.locator("#tour-level").inner_text().startswith("Level ")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    # Away from the table, even after a reload, the lobby and the tournament page
    # lead back to it.
    page.locator("a.back").tap()
    page.reload()
    page.wait_for_selector("html[data-ready]")
    page.wait_for_selector("#my-tables a.tour-table")
    page.wait_for_selector('.trow[data-tournament="sng-play"] .go')
    page.locator('.trow[data-tournament="sng-play"] .tname').tap()
    page.locator("#tour-go").tap()
    page.wait_for_selector("#tour-bar #tour-level")
    line = play_until_finished(page, 120)
    # (Two players busted in one hand with the same stack share places: "2nd–3rd".)
    assert re.fullmatch(r"You (finished (2nd|3rd)(–3rd)?\.|won the tournament!)", line), line
    prize = page.locator("#finished-prize").inner_text()
    assert re.fullmatch(r"Prize: [\d,]+|No prize this time\.", prize), prize
    screenshot(page, "tournament-finished-phone")
    log = page.locator("#log").inner_text()
    assert "is out in" in log or "wins the tournament" in log, log
    page.locator("#finished-back").tap()
    page.wait_for_selector("#tour-standings", timeout=20_000)
    page.wait_for_selector("#tour-status:has-text('Finished')", timeout=60_000)
    assert page.locator("#tour-standings tbody tr").count() == 3
    assert page.locator("#tour-result").count() == 1
    won = int(re.sub(r"\D", "", prize) or 0)
    wait_balance(page, before - 110 + won)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    assert not page.evaluate(NAMELESS)
    # The tournament's hands are in My hands, and replay.
    page.locator("#nav-history").tap()
    page.wait_for_selector("#hand-list .h-tour:has-text('Tournament Test turbo')")
    assert page.locator("#hand-list .h-table").first.inner_text().startswith("Test turbo · Table ")
    page.locator("#hand-list .hand-link").first.tap()
    page.wait_for_selector("#replay-step")
    page.locator("#replay-end").tap()
    assert page.locator(".replay-felt .seat:not(.empty)").count() >= 2
