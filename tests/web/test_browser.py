"""A newcomer plays 5-Card Draw in a real browser against a real server.

Each test has a table of its own (``conftest.ROOM``) with two quick bots.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import pytest
import websockets
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .helpers import DESKTOP, PHONE, screenshot, wait_for_js


def press(page: Any, selector: str, phone: bool, timeout: float | None = None) -> None:
    target = page.locator(selector).first
    if phone:
        target.tap(timeout=timeout)
    else:
        target.click(timeout=timeout)


# A click on a card waits this long at most for its card to be enabled: the next hand is
# dealt 1.2 s after one ends, so a click never runs on into the next hand's cards.
CARD_CLICK_MS = 1000
# An action button the test saw enabled stays until we act (30 s clock); a little
# patience for a slow page, no more.
ACTION_CLICK_MS = 5000


def try_press(page: Any, selector: str, phone: bool, timeout: float) -> bool:
    """Press ``selector`` unless it stays unavailable for ``timeout`` ms (the table
    moved on since the test looked): False then, and the caller looks again."""
    try:
        press(page, selector, phone, timeout=timeout)
    except PlaywrightTimeout:
        return False
    return True


# One consistent look at the table: everything ``play`` decides on, read in a single
# evaluation, so that the hand, its street, the cards and the buttons belong together
# (separate reads may straddle the end of a hand and the deal of the next).
TABLE_STATE = """() => {
  const felt = document.querySelector(".felt");
  const cards = [...document.querySelectorAll("#my-hand .card")];
  const ready = (id) => {
    const el = document.getElementById(id);
    return Boolean(el && !el.disabled);
  };
  return {
    street: felt?.dataset.street ?? "",
    hand: felt?.dataset.hand ?? "",
    showdown: felt?.dataset.showdown === "1",
    cards: cards.map((c) => c.dataset.card),
    enabled: cards.filter((c) => !c.disabled).length,
    marked: cards.filter((c) => c.getAttribute("aria-pressed") === "true")
      .map((c) => c.dataset.card),
    discard: document.getElementById("discard")?.innerText ?? null,
    ready: Object.fromEntries(["stand-pat", "discard", "bet", "check", "call", "pre-draw"]
      .map((id) => [id, ready(id)])),
    result: document.getElementById("result")?.innerText ?? "",
  };
}"""


def table_state(page: Any) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate(TABLE_STATE)
    return state


def filter_lobby(page: Any, phone: bool) -> None:
    """Cash tab, 5 Card Draw only: the Italian table disappears, the draw tables stay."""
    press(page, "#tab-cash", phone)
    page.wait_for_selector('.trow[data-table="italian"]')
    page.select_option("#filter-game", "draw")
    page.wait_for_selector('.trow[data-table="italian"]', state="detached")
    assert page.locator('.trow[data-table="desk"]').count() == 1
    page.select_option("#filter-structure", "no-limit")
    page.wait_for_selector('.trow[data-table="lang"]', state="detached")
    rows = page.locator(".trow[data-table]")
    assert rows.count() >= 2
    for i in range(rows.count()):
        assert "No Limit" in rows.nth(i).inner_text()
    page.select_option("#filter-structure", "")
    page.select_option("#filter-stakes", "5/10")
    page.wait_for_selector('.trow[data-table="desk"]', state="detached")
    shown = page.eval_on_selector_all(".trow[data-table]", "els => els.map(e => e.dataset.table)")
    assert sorted(shown) == ["limit8", "shots"]
    page.select_option("#filter-stakes", "")
    page.select_option("#filter-seats", "6")
    page.wait_for_selector('.trow[data-table="shots"]', state="detached")
    page.select_option("#filter-seats", "")


def join(page: Any, table: str, phone: bool) -> None:
    """From the lobby: join the table, play as a guest, buy in, wait for cards."""
    press(page, f'.trow[data-table="{table}"] .join', phone)
    page.wait_for_selector(".felt .seat")
    press(page, "#take-seat", phone)
    if page.locator("#auth-guest").count():
        press(page, "#auth-guest", phone)
    page.wait_for_selector("#buyin-submit")
    press(page, "#buyin-submit", phone)
    page.wait_for_selector(".seat.me")
    assert page.locator("#me-name").inner_text().startswith("guest-")


def my_cards(page: Any) -> list[str]:
    cards: list[str] = page.eval_on_selector_all(
        "#my-hand .card", "els => els.map(e => e.dataset.card)"
    )
    return cards


def marked(page: Any) -> list[str]:
    cards: list[str] = page.eval_on_selector_all(
        '#my-hand .card[aria-pressed="true"]', "els => els.map(e => e.dataset.card)"
    )
    return cards


@dataclass
class Progress:
    marked_first_round: bool = False
    discarded: bool = False
    bet: bool = False
    showdown: bool = False
    results: list[str] = field(default_factory=list)
    hands: set[str] = field(default_factory=set)

    def done(self) -> bool:
        return self.marked_first_round and self.discarded and self.bet and self.showdown


def mark_two(page: Any, phone: bool) -> list[str] | None:
    """Mark two cards; the first is tapped three times: marked, unmarked, marked.

    None if marking in this hand ended meanwhile (everybody folded to us, the hand is
    over): the clicks are for this hand's cards only, never the next hand's.
    """
    hand = table_state(page)["hand"]

    def over() -> bool:
        now = table_state(page)
        return now["hand"] != hand or now["enabled"] == 0

    for index, state in ((0, "true"), (0, "false"), (0, "true"), (3, "true")):
        selector = f'#my-hand .card[data-index="{index}"]'
        for attempt in range(3):
            if over():
                return None
            if try_press(page, selector, phone, CARD_CLICK_MS):
                try:
                    page.wait_for_selector(f'{selector}[aria-pressed="{state}"]', timeout=2000)
                    break
                except PlaywrightTimeout:
                    pass
            if attempt == 2 and not over():
                raise AssertionError(f"card {index} of hand {hand} is not aria-pressed={state}")
    end = table_state(page)
    if end["hand"] != hand or end["enabled"] == 0:
        return None
    chosen: list[str] = end["marked"]
    assert len(chosen) == 2, end
    return chosen


def play(
    page: Any,
    *,
    phone: bool,
    auto_draw: bool = False,
    seconds: float = 75,
    shot: str = "",
    until: Callable[[Progress], bool] = Progress.done,
) -> Progress:
    """Play hands until every step of the story has happened (or time runs out).

    Each round looks at the table once (``table_state``) and acts on that look; an
    action is pressed only when its button is enabled (not while the previous one is
    on its way to the server)."""
    progress = Progress()
    marked_in: str | None = None
    auto_in: str | None = None  # the hand whose draw was held (R25)
    discards: list[str] = []
    drew_in: str | None = None
    shot_taken = False
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not until(progress):
        s = table_state(page)
        street, hand, cards, ready = s["street"], s["hand"], s["cards"], s["ready"]
        if hand:
            progress.hands.add(hand)
        if (
            marked_in == hand
            and not progress.discarded
            and street in ("post-draw", "showdown", "over")
            and discards
            and hand == (auto_in if auto_draw else drew_in)
            and len(cards) == 5
            and all(c and c not in discards for c in cards[:1] + cards[3:4])
        ):
            # The replacements are in the hand at once, where the discards were;
            # marking is over.
            assert s["enabled"] == 0, s
            assert not s["marked"], s
            progress.discarded = True
        if s["showdown"] and "wins" in s["result"]:
            progress.showdown = True
            progress.results.append(s["result"])
        if street == "pre-draw" and hand != marked_in and len(cards) == 5 and s["enabled"] == 5:
            chosen = mark_two(page, phone)
            marked_in = hand
            if chosen is None:
                continue
            discards = chosen
            progress.marked_first_round = True
            if auto_draw and try_press(page, "#pre-draw", phone, CARD_CLICK_MS):
                # (the draw turn may have come first: then we draw by hand this time)
                page.wait_for_selector("#pre-draw:checked, #auto-drawing")
                auto_in = hand
            continue
        if ready["stand-pat"]:  # our turn to draw
            assert auto_in != hand, "the held draw should have been carried out at once"
            if marked_in != hand:  # no chance to mark in the first round: mark now
                discards = mark_two(page, phone) or []
                marked_in = hand
                s = table_state(page)
                if not discards or s["hand"] != hand:
                    continue
            assert s["discard"] == "Discard 2 Cards", s
            if shot and not shot_taken:
                screenshot(page, shot)
                shot_taken = True
            if try_press(page, "#discard", phone, ACTION_CLICK_MS):
                drew_in = hand
        elif ready["bet"] and street == "post-draw" and not progress.bet:
            progress.bet = try_press(page, "#bet", phone, ACTION_CLICK_MS)
        elif ready["check"]:
            try_press(page, "#check", phone, ACTION_CLICK_MS)
        elif ready["call"]:
            try_press(page, "#call", phone, ACTION_CLICK_MS)
        page.wait_for_timeout(80)
    return progress


def test_newcomer_plays_draw_on_desktop(open_page: Any) -> None:
    page = open_page(DESKTOP)
    page.wait_for_selector(".trow[data-table]")
    filter_lobby(page, phone=False)
    screenshot(page, "lobby-desktop")
    page.select_option("#filter-structure", "no-limit")
    join(page, "desk", phone=False)
    progress = play(page, phone=False, shot="table-draw-desktop")
    assert progress.done(), progress
    assert progress.results
    log = page.locator("#log").inner_text()
    assert "discards 2" in log
    assert " shows " in log
    replay_a_hand(page)


def replay_a_hand(page: Any) -> None:
    """My hands: open the latest, step back and forth, download it, verify the deal."""
    page.click("#nav-history")
    page.locator("#hand-list .hand-link").first.click()
    page.wait_for_selector("#replay-step")
    total = int(page.locator("#replay-step").inner_text().split(" of ")[1])
    assert total > 10
    page.click("#replay-start")
    assert page.locator("#replay-step").inner_text() == f"Step 0 of {total}"
    assert page.locator(".replay-felt .seat:not(.empty)").count() >= 2
    for _ in range(3):
        page.click("#replay-forward")
    assert page.locator("#replay-step").inner_text() == f"Step 3 of {total}"
    page.click("#replay-back")
    assert page.locator("#replay-step").inner_text() == f"Step 2 of {total}"
    page.keyboard.press("ArrowRight")
    assert page.locator("#replay-step").inner_text() == f"Step 3 of {total}"
    page.click("#replay-end")
    assert page.locator(".replay-felt .winner").count() >= 1
    me = page.locator("#me-name").inner_text()
    mine = page.locator(".replay-felt .seat.me .seat-name")
    assert mine.get_attribute("title") == me
    assert mine.locator(".tag.you").inner_text() == "you"
    assert page.locator(".replay-felt .seat-name:has-text('bot-desk-')").count() == 2
    for link in ("#download-ps", "#download-phh"):
        href = page.locator(link).get_attribute("href")
        response = page.request.get(page.url.split("#")[0].rstrip("/") + href)
        assert response.ok, link
        assert response.text()
    page.click("#verify")
    verdict = page.locator("#verdict")
    verdict.locator(".ok").nth(1).wait_for()
    assert "opens against the commitment" in verdict.inner_text()
    assert "where the deal puts them" in verdict.inner_text()
    assert "The seed stays secret" in verdict.inner_text()
    screenshot(page, "replay-desktop")
    page.click("#report-hand")  # to the staff's queue (tests/web/test_console.py reads it)
    page.wait_for_selector("#toast .toast:has-text('Reported')")
    # Back in the lobby, the table I sit at is one click away.
    page.click("#nav-lobby")
    page.wait_for_selector('#my-tables a[href="#/table/desk"]')


def test_newcomer_plays_draw_on_a_phone(open_page: Any) -> None:
    page = open_page(PHONE, phone=True)
    page.wait_for_selector(".trow[data-table]")
    filter_lobby(page, phone=True)
    screenshot(page, "lobby-phone")
    join(page, "phone", phone=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px phone"
    progress = play(page, phone=True, shot="table-draw-phone")
    assert progress.done(), progress
    assert "discards 2" in page.locator("#log").inner_text()


def test_draw_pre_action_discards_the_marked_cards_automatically(open_page: Any) -> None:
    """R25: ticked during the first round, the marked discard is sent when the turn comes."""
    page = open_page(DESKTOP)
    page.wait_for_selector(".trow[data-table]")
    join(page, "auto", phone=False)
    progress = play(
        page, phone=False, auto_draw=True, until=lambda p: p.marked_first_round and p.discarded
    )
    assert progress.discarded, progress
    name = page.locator("#me-name").inner_text()
    assert f"{name} discards 2" in page.locator("#log").inner_text()


def test_language_switch_to_italian(open_page: Any) -> None:
    page = open_page(DESKTOP)
    page.wait_for_selector(".trow[data-table]")
    assert page.locator("#tab-cash").inner_text() == "Cash"
    page.select_option("#lang-select", "it")
    page.wait_for_selector("html[lang=it]")
    assert page.locator("#tab-tournament").inner_text() == "Tornei"
    assert page.locator("#nav-history").inner_text() == "Le mie mani"
    assert page.locator("#guest-btn").inner_text() == "Gioca come ospite"
    page.select_option("#filter-game", "draw")
    assert "Poker classico" in page.locator('.trow[data-table="lang"]').inner_text()
    join(page, "lang", phone=False)
    betting: set[str] = set()
    drawing: set[str] = set()
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline and not (betting and drawing):
        page.wait_for_selector("#fold, #check, #call, #stand-pat", timeout=30_000)
        if page.locator("#stand-pat").count():
            drawing.add(page.locator("#stand-pat").inner_text())
            drawing.add(page.locator("#discard").inner_text())
            page.click("#stand-pat")
        else:
            for selector in ("#fold", "#check", "#call"):
                if page.locator(selector).count():
                    betting.add(page.locator(selector).inner_text().split(" ")[0])
            assert page.title().startswith("● Tocca a te"), page.title()
            page.click("#check" if page.locator("#check").count() else "#call")
        page.wait_for_timeout(150)
    assert drawing == {"Servito", "Cambia 0 carte"}, drawing
    assert betting & {"Lascia", "Vedo", "Check"}, betting
    assert not betting & {"Fold", "Call", "Stand Pat"}, betting
    assert page.locator("#side-log").inner_text() == "Mano"
    # The choice is remembered.
    page.reload()
    page.wait_for_selector("html[data-ready=it]")


def test_reload_mid_hand_restores_the_table(open_page: Any) -> None:
    page = open_page(DESKTOP)
    page.wait_for_selector(".trow[data-table]")
    join(page, "reload", phone=False)
    chosen = None
    deadline = time.monotonic() + 40
    while chosen is None and time.monotonic() < deadline:  # the hand may end at once
        page.wait_for_selector(
            '.stage:has(.felt[data-street="pre-draw"]) ~ #my-hand .card:not([disabled])'
        )
        hand = page.locator(".felt").get_attribute("data-hand")
        chosen = mark_two(page, phone=False)
    assert chosen is not None
    cards = my_cards(page)
    name = page.locator(".seat.me .seat-name").inner_text()
    # To the lobby and back: the table as it was, the missed entries replayed.
    wait_for_js(page, "document.querySelectorAll('#log li').length > 2")
    first = page.locator("#log li").first.inner_text()
    page.click("a.back")
    page.wait_for_selector("#my-tables")
    page.wait_for_timeout(600)
    page.click('#my-tables a[data-table="reload"]')
    page.wait_for_selector(".felt .seat.me")
    wait_for_js(page, "window.drawpoker.view.subscribed?.replayed !== undefined")
    assert page.locator("#log li").first.inner_text() == first
    if page.locator(".felt").get_attribute("data-hand") == hand:
        assert sorted(marked(page)) == sorted(chosen)
    page.reload()
    page.wait_for_selector("html[data-ready]")
    page.wait_for_selector(f'.felt[data-hand="{hand}"]')
    assert my_cards(page) == cards
    assert sorted(marked(page)) == sorted(chosen)
    assert page.locator(".seat.me .seat-name").inner_text() == name
    assert page.locator(".felt .seat:not(.empty)").count() == 3
    # A dropped connection: the client reconnects and asks for what it missed.
    page.evaluate("window.drawpoker.view.subscribed = null; window.drawpoker.socket.ws.close()")
    page.wait_for_selector("#conn.offline, #conn.connecting", timeout=5000)
    page.wait_for_selector("#conn.online")
    wait_for_js(page, "window.drawpoker.view.subscribed !== null")
    detail = page.evaluate("window.drawpoker.view.subscribed")
    assert "replayed" in detail, detail  # the missed events, not a new snapshot
    assert page.locator(".seat.me .seat-name").inner_text() == name
    if page.locator(".felt").get_attribute("data-hand") == hand:
        assert my_cards(page) == cards
    # Offline for a while: the table is covered and holds still until it is back.
    page.evaluate("window.drawpoker.socket.delay = 2500; window.drawpoker.socket.ws.close()")
    cover = page.locator("#offline")
    cover.wait_for(timeout=5000)
    assert "Connection lost" in cover.inner_text()
    assert page.evaluate("document.querySelector('.table-layout .play').inert")
    cover.wait_for(state="hidden", timeout=15_000)
    assert not page.evaluate("document.querySelector('.table-layout .play').inert")


def snapshot_of(server: Any, table: str) -> dict[str, Any]:
    """The table as a spectator's snapshot says it (straight from the server)."""

    async def look() -> dict[str, Any]:
        async with websockets.connect(server.ws_url) as ws:
            await ws.send(json.dumps({"type": "subscribe", "table": table, "id": "s"}))
            while True:
                message = str(await asyncio.wait_for(ws.recv(), 10))
                for line in message.split("\n"):  # frames, a line each
                    frame = json.loads(line)
                    if frame.get("type") == "snapshot":
                        state: dict[str, Any] = frame["state"]
                        return state

    with ThreadPoolExecutor(1) as pool:  # (Playwright may hold this thread's event loop)
        return pool.submit(lambda: asyncio.run(look())).result()


def test_a_reload_keeps_the_story_of_the_hand(open_page: Any, server: Any) -> None:
    """The hand log, the blinds and the last actions come back after a reload and
    for a spectator who arrives mid-hand (the snapshot's ``story``)."""
    if "story" not in snapshot_of(server, "reload"):
        pytest.skip("the server does not send the hand's story in snapshots yet")
    page = open_page(DESKTOP)
    page.wait_for_selector(".trow[data-table]")
    join(page, "reload", phone=False)
    page.wait_for_selector('.felt[data-street="pre-draw"] .bet .blind')
    hand = page.locator(".felt").get_attribute("data-hand")
    wait_for_js(page, "document.querySelectorAll('#log li').length > 3")
    before = page.locator("#log").inner_text()
    page.reload()
    page.wait_for_selector("html[data-ready]")
    page.wait_for_selector(".felt[data-hand]")
    if page.locator(".felt").get_attribute("data-hand") == hand:
        page.wait_for_selector(f"#log li:has-text('Hand {hand}')")
        assert "posts the small blind" in page.locator("#log").inner_text()
        assert (
            before.split(f"Hand {hand}")[-1].strip().splitlines()[0]
            in page.locator("#log").inner_text()
        )
    assert page.locator("#last-hand").inner_text() or page.locator("#log li").count() > 1
    spectator = open_page(DESKTOP)
    spectator.wait_for_selector('.trow[data-table="reload"]')
    spectator.click('.trow[data-table="reload"] .join')
    spectator.wait_for_selector(".felt[data-hand]")
    wait_for_js(spectator, "document.querySelectorAll('#log li').length > 1")


def test_client_modules_pots_and_translations(open_page: Any) -> None:
    """The side pots shown mid-hand and the translated hand descriptions."""
    page = open_page(DESKTOP)
    result = page.evaluate(
        """async () => {
        const { pots, apply, fromSnapshot } = await import("/static/state.js");
        const i18n = await import("/static/i18n.js");
        const table = fromSnapshot({table: "t", name: "t", epoch: "e", rules: "No Limit 50/100",
          max_seats: 6, min_buy_in: 1, max_buy_in: 1, button: 1, carried_pot: 0, you: null,
          pre_action: null, seats: [], hand: null}, null);
        const ev = (type, fields) => apply(table, {type, ...fields});
        ev("HandStarted", {hand_id: "h", button: 1, carried_pot: 0, commitment: "",
          stacks: [[1, 100], [2, 250], [3, 400], [4, 1000]]});
        ev("BetPlaced", {seat: 1, amount: 100, all_in: true});
        ev("Raised", {seat: 2, to: 250, increment: 150, all_in: true, full: true});
        ev("Raised", {seat: 3, to: 400, increment: 150, all_in: true, full: true});
        ev("Raised", {seat: 4, to: 1000, increment: 600, all_in: false, full: true});
        ev("UncalledBetReturned", {seat: 4, amount: 600});
        const side = pots(table.hand);
        await i18n.loadLanguage("it");
        const it = i18n.handDescription("two pair, Eights and Deuces");
        const card = i18n.cardName("Qh");
        await i18n.loadLanguage("es");
        const es = i18n.handDescription("a full house, Kings full of Sixes");
        await i18n.loadLanguage("fi");
        const fi = i18n.handDescription("high card Ace");
        await i18n.loadLanguage("en");
        return {side, it, card, es, fi, stack4: table.hand.players[4].stack};
    }"""
    )
    assert result["side"] == [400, 450, 300]  # RULES.md worked example
    assert result["stack4"] == 600
    assert result["it"] == "doppia coppia, Otto e Due"
    assert result["card"] == "Donna di cuori"
    assert result["es"] == "full de Reyes y Seises"
    assert result["fi"] == "hai ässä"


def test_keyboard_chat_top_up_sit_out_and_leave(open_page: Any) -> None:
    page = open_page(DESKTOP)
    page.wait_for_selector(".trow[data-table]")
    press(page, '.trow[data-table="controls"] .join', False)
    page.click("#take-seat")
    page.click("#auth-guest")
    page.fill("#buyin-amount", "100")
    page.click("#buyin-submit")
    page.wait_for_selector(".seat.me")
    name = page.locator("#me-name").inner_text()

    # Accessible names: every button, every card, every control.
    page.wait_for_selector("#my-hand .card")
    nameless = page.evaluate(
        """[...document.querySelectorAll('button, a.btn, input, select, .card, .mini-card')]
        .filter(el => !(el.getAttribute('aria-label') || el.textContent.trim()
          || el.closest('label') || el.getAttribute('aria-hidden') === 'true'))
        .map(el => el.outerHTML.slice(0, 80))"""
    )
    assert not nameless, nameless
    labels = page.eval_on_selector_all(
        "#my-hand .card", "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert all(re.fullmatch(r"(Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Jack|Queen|King|Ace)"
                            r" of (spades|hearts|diamonds|clubs)(, marked for discard)?", label)
               for label in labels), labels  # fmt: skip

    page.click("#side-chat")
    page.fill("#chat-input", "good luck, bots")
    page.keyboard.press("Enter")
    page.wait_for_selector("#chat-lines li:has-text('good luck, bots')")
    page.click("#side-log")

    # Desktop keys: 1-5 mark cards, C checks or calls, D discards the marked cards.
    deadline = time.monotonic() + 40
    drew = False
    while time.monotonic() < deadline and not drew:
        street = page.locator(".felt").get_attribute("data-street")
        card = page.locator('#my-hand .card[data-index="1"]:not([disabled])')
        if street == "pre-draw" and card.count() and not marked(page):
            page.keyboard.press("2")
            page.keyboard.press("5")
        if page.locator("#discard:not([disabled])").count():
            page.keyboard.press("d")
            drew = True
        elif page.locator("#check, #call").count():
            page.keyboard.press("c")
        page.wait_for_timeout(100)
    assert drew
    wait_for_js(page, f"document.querySelector('#log').innerText.includes('{name} discards')")

    page.click("#top-up")
    page.fill("#topup-amount", "50")
    page.click("#topup-submit")
    page.wait_for_selector("#dialog:not([open])", state="attached")
    page.wait_for_selector(".seat.me .seat-stack", state="visible")

    page.click("#sit-out")
    page.wait_for_selector("#sit-in")
    page.click("#sit-in")
    page.wait_for_selector("#sit-out")

    page.click("#leave")
    page.wait_for_selector(".seat.me", state="detached", timeout=40_000)
    page.wait_for_selector("#take-seat")


def test_register_log_in_free_chips_and_the_italian_game(open_page: Any) -> None:
    page = open_page(DESKTOP)
    page.wait_for_selector(".trow[data-table]")
    name = f"ann{int(time.time() * 1000) % 10**8}"
    page.click("#register-btn")
    page.fill("#auth-name", name)
    page.fill("#auth-password", "correct horse battery")
    page.click("#auth-submit")
    page.wait_for_selector(f"#me-name:has-text('{name}')")
    before = page.locator("#balance").inner_text()
    page.click("#topup-btn")
    page.wait_for_selector(".toast")
    wait_for_js(page, f"document.querySelector('#balance').innerText !== {before!r}", timeout=5000)
    page.click("#logout-btn")
    page.wait_for_selector("#login-btn")
    page.click("#login-btn")
    page.fill("#auth-name", name)
    page.fill("#auth-password", "correct horse battery")
    page.click("#auth-submit")
    page.wait_for_selector(f"#me-name:has-text('{name}')")

    # The Italian game: no blinds, the invito; before anyone opens: Pass or Open.
    page.select_option("#filter-game", "italian")
    page.wait_for_selector('.trow[data-table="desk"]', state="detached")
    page.click('.trow[data-table="italian"] .join')
    page.click("#take-seat")
    page.wait_for_selector("#buyin-post", state="detached")
    page.click("#buyin-submit")
    page.wait_for_selector(".seat.me")
    deadline = time.monotonic() + 40
    labels: set[str] = set()
    while time.monotonic() < deadline and "Pass" not in labels:
        page.wait_for_selector("#check, #call, #fold, #stand-pat", timeout=30_000)
        first_round = page.locator(".felt").get_attribute("data-street") == "pre-draw"
        for selector in ("#check", "#bet", "#call", "#fold"):
            if first_round and page.locator(selector).count():
                labels.add(page.locator(selector).inner_text().split(" ")[0])
        if page.locator("#stand-pat").count():
            page.click("#stand-pat")
        else:
            page.click("#check" if page.locator("#check").count() else "#fold")
        page.wait_for_timeout(150)
    assert "Pass" in labels, labels
    assert "Check" not in labels, labels
