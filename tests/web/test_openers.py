"""R48, openers on request, in the browser: at the end of a hand at an Italian table
with ``openers_check='on_request'`` a player dealt in may ask to see the opener's
openers or not. On frames as the protocol writes them (``harness``): the buttons,
what they send, the keys, the result in the log and the toasts in the four
languages, the decision after a reload (the snapshot's ``hand.legal``); then on a
real server with bots, from the lobby to the openers shown, with a reload in the
middle of the decision.
"""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .harness import (
    MY_CARDS,
    VIEWPORTS,
    boxes,
    hand_seat,
    hand_view,
    inside_viewport,
    legal,
    mount,
    overlaps,
    push,
    seat,
    sent,
    sent_of,
    table_state,
)
from .helpers import wait_for_js

DESKTOP = VIEWPORTS["desktop-1280x720"]
PHONE = VIEWPORTS["phone-390x844"]
SCREENS = {"desktop": (DESKTOP, False), "phone": (PHONE, True)}
I18N = Path(__file__).resolve().parents[2] / "src" / "drawpoker" / "web" / "i18n"

# The opener's original five cards: no pair of Jacks or better.
FALSE_OPENERS = ["Qh", "7d", "7s", "4c", "2h"]
FALSE_OPENERS_TEXT = "Q♥ 7♦ 7♠ 4♣ 2♥"


def catalogue(code: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((I18N / f"{code}.json").read_text("utf-8"))
    return data


def said(code: str, key: str, **params: str) -> str:
    text = catalogue(code)[key]
    for name, value in params.items():
        text = text.replace("{" + name + "}", value)
    assert "{" not in text, text
    return text


def openers_state(table: str, *, folded: bool = False, penalty: int = 50) -> dict[str, Any]:
    """Three players at an Italian table; bot-op opened; the hand is over and it is
    my turn to ask to see the openers (R48: even after folding)."""
    seats = [seat(1, "ann"), seat(2, "bot-op"), seat(3, "bot-z")]
    the_legal = legal(1, street="openers", fold=False, ask_openers=True, opener=2, penalty=penalty)
    mine = (
        hand_seat(1, 180, committed=20, folded=True, count=0)
        if folded
        else hand_seat(1, 170, committed=30, cards=MY_CARDS)
    )
    hand = hand_view(
        [mine, hand_seat(2, 150, committed=30),
         hand_seat(3, 190, committed=10, folded=True, count=0)],
        street="openers", button=3, to_act=1, the_legal=the_legal,
    )  # fmt: skip
    return table_state(seats, hand, table=table, rules="Italian, invito 10, 6-max")


RESULT = [
    {"type": "OpenersRequested", "seq": 40, "seat": 1, "opener": 2},
    {"type": "OpenersShown", "seq": 41, "seat": 2, "cards": FALSE_OPENERS, "valid": False},
    {"type": "PenaltyPaid", "seq": 42, "seat": 2, "amount": 50, "due": 50},
]


def press(page: Any, selector: str, phone: bool) -> None:
    if phone:
        page.locator(selector).tap()
    else:
        page.click(selector)


def acts(page: Any) -> list[dict[str, Any]]:
    return [m for m in sent(page) if m["type"] == "act"]


@pytest.mark.parametrize("screen_name", sorted(SCREENS))
def test_asking_to_see_the_openers(screen: Any, screen_name: str) -> None:
    viewport, phone = SCREENS[screen_name]
    page = screen(viewport, phone)
    # The snapshot (what a reload brings) says it is my decision: the buttons are there.
    mount(page, openers_state(f"ask-{screen_name}-1", folded=True))
    ask, decline = page.locator("#ask-openers"), page.locator("#decline-openers")
    assert ask.inner_text() == "Ask to see the openers"
    assert decline.inner_text() == "Don't ask"
    assert page.locator("#ask-openers-hint").inner_text() == (
        "bot-op opened. If you ask, bot-op must show Jacks or better in the five cards "
        "dealt, or pay a penalty of 50 and cannot win this pot."
    )
    assert page.locator("#actions #fold, #actions #check, #actions #bet").count() == 0
    assert page.locator("#my-status").inner_text() == (
        "You folded, but you may still ask to see the openers."
    )
    # Both on the screen, uncovered, big enough to tap.
    found = {b["id"]: b for b in boxes(page, "#ask-openers, #decline-openers")}
    assert set(found) == {"ask-openers", "decline-openers"}
    for box in found.values():
        assert inside_viewport(page, box), box
        assert box["h"] >= 44 or not phone, box
    assert not overlaps(found["ask-openers"], found["decline-openers"])
    for box in boxes(page, ".toast, .showdown"):
        assert not overlaps(box, found["ask-openers"]), box
    press(page, "#ask-openers", phone)
    message = sent_of(page, "act")
    assert message == {
        "type": "act", "table": f"ask-{screen_name}-1", "hand_id": "t-7",
        "action_id": message["action_id"], "action": "ask_openers",
    }  # fmt: skip
    assert message["action_id"]
    assert len(acts(page)) == 1
    # The server's answer: asked, the five cards shown, no openers, the penalty.
    push(page, *RESULT)
    page.wait_for_selector("#ask-openers", state="detached")
    assert page.locator("#my-status").inner_text() == "You folded. Wait for the next hand."
    log = page.locator("#log").inner_text()
    assert "ann asks to see bot-op's openers" in log
    assert f"bot-op opened without openers: {FALSE_OPENERS_TEXT}" in log
    assert "bot-op pays a penalty of 50 for opening without openers" in log
    toast = said("en", "notice.penalty_paid", who="bot-op", n="50")
    page.wait_for_selector(f".toast.warn:has-text('{toast}')")
    assert page.locator(".seat[data-seat='2'] .seat-stack").inner_text().strip() == "100"

    # Don't ask: the other button sends "decline", and the log says so.
    mount(page, openers_state(f"ask-{screen_name}-2"))
    press(page, "#decline-openers", phone)
    message = sent_of(page, "act")
    assert message["action"] == "decline"
    assert message["hand_id"] == "t-7"
    assert len(acts(page)) == 1
    push(page, {"type": "OpenersDeclined", "seq": 40, "seat": 1, "opener": 2})
    page.wait_for_selector("#decline-openers", state="detached")
    assert "ann does not ask to see bot-op's openers" in page.locator("#log").inner_text()
    # The next player's decision: this one waits, and is told who may ask now.
    push(page, {"type": "Turn", "seat": 3, "street": "openers", "clock_s": 30.0, "hand_id": "t-7"})
    assert page.locator("#openers-waiting").inner_text() == "bot-z may ask to see the openers now."
    assert page.locator("#ask-openers, #decline-openers").count() == 0


def test_the_keys_and_an_opener_who_cannot_pay(screen: Any) -> None:
    page = screen(DESKTOP)
    mount(page, openers_state("ask-keys-1"))
    assert page.locator("#ask-openers").get_attribute("aria-keyshortcuts") == "O"
    assert page.locator("#decline-openers").get_attribute("aria-keyshortcuts") == "N"
    assert "O ask to see the openers" in page.locator("#actions .keys").inner_text()
    page.keyboard.press("n")
    assert sent_of(page, "act")["action"] == "decline"
    mount(page, openers_state("ask-keys-2", penalty=0))  # the opener is all in: no penalty
    assert page.locator("#ask-openers-hint").inner_text() == (
        "bot-op opened. If you ask, bot-op must show Jacks or better in the five cards "
        "dealt, or cannot win this pot."
    )
    page.keyboard.press("o")
    assert sent_of(page, "act")["action"] == "ask_openers"
    # Valid openers: shown, said in the log and a toast.
    push(page, RESULT[0], {**RESULT[1], "cards": ["Jh", "Jd", "7s", "4c", "2h"], "valid": True})
    assert "bot-op shows openers J♥ J♦ 7♠ 4♣ 2♥" in page.locator("#log").inner_text()
    page.wait_for_selector(".toast:has-text('bot-op shows the openers: J♥ J♦ 7♠ 4♣ 2♥')")


@pytest.mark.parametrize("code", ["it", "es", "fi"])
def test_the_openers_decision_and_its_result_in_every_language(screen: Any, code: str) -> None:
    page = screen(DESKTOP)
    page.evaluate(f"window.drawpoker.setLanguage('{code}')")
    page.wait_for_selector(f"html[lang={code}]")
    try:
        mount(page, openers_state(f"ask-{code}"))
        assert page.locator("#ask-openers").inner_text() == said(code, "action.ask_openers")
        assert page.locator("#decline-openers").inner_text() == said(code, "action.decline_openers")
        ranks = catalogue(code)["ranks.J"]
        assert page.locator("#ask-openers-hint").inner_text() == said(
            code, "table.ask_openers_penalty", who="bot-op", ranks=ranks, n="50"
        )
        page.click("#ask-openers")
        assert sent_of(page, "act")["action"] == "ask_openers"
        push(page, *RESULT)
        log = page.locator("#log").inner_text()
        for line in (
            said(code, "log.openers_asked", who="ann", opener="bot-op"),
            said(code, "log.false_openers", who="bot-op", cards=FALSE_OPENERS_TEXT),
            said(code, "log.penalty_paid", who="bot-op", n="50"),
        ):
            assert line in log, (line, log)
        toast = said(code, "notice.penalty_paid", who="bot-op", n="50")
        page.wait_for_selector(f'.toast.warn:has-text("{toast}")')
    finally:
        page.evaluate("window.drawpoker.setLanguage('en')")
        page.wait_for_selector("html[lang=en]")


# ------------------------------------------------------------ a real server

DECISION = "#ask-openers, #decline-openers"


def play_until_asked(page: Any, phone: bool, budget_s: float = 150) -> bool:
    """Play (pass, fold to an open, stand pat) until the server offers this player
    the openers decision; False if it never came within ``budget_s``."""
    deadline = time.monotonic() + budget_s
    while time.monotonic() < deadline:
        try:
            page.wait_for_selector(f"{DECISION}, #check, #fold, #stand-pat", timeout=20_000)
        except PlaywrightTimeout:  # (nothing to do for a while: the bots play on)
            continue
        for selector in ("#ask-openers", "#stand-pat", "#check", "#fold"):
            target = page.locator(f"{selector}:not([disabled])")
            if not target.count():
                continue
            if selector == "#ask-openers":
                return True
            with contextlib.suppress(PlaywrightTimeout):  # (the table moved on since the look)
                target.first.tap(timeout=2000) if phone else target.first.click(timeout=2000)
            break
        page.wait_for_timeout(150)
    return False


@pytest.mark.parametrize("screen_name", sorted(SCREENS))
def test_asking_to_see_the_openers_at_a_real_table(open_page: Any, screen_name: str) -> None:
    viewport, phone = SCREENS[screen_name]
    page = open_page(viewport, phone=phone)
    table = f"ask-{screen_name}"
    page.wait_for_selector(f'.trow[data-table="{table}"]')
    press(page, f'.trow[data-table="{table}"] .join', phone)
    page.wait_for_selector(".felt .seat")
    press(page, "#take-seat", phone)
    if page.locator("#auth-guest").count():
        press(page, "#auth-guest", phone)
    page.wait_for_selector("#buyin-submit")
    press(page, "#buyin-submit", phone)
    page.wait_for_selector(".seat.me")
    me = page.locator("#me-name").inner_text()
    # A guest: no daily free chips offered (the server refuses them to guests).
    assert page.locator("#topup-btn").count() == 0
    assert play_until_asked(page, phone), "the openers decision never came to this player"
    hand = page.locator(".felt").get_attribute("data-hand")
    hint = page.locator("#ask-openers-hint").inner_text()
    assert "must show Jacks or better" in hint, hint
    # A reload in the middle of the decision: the snapshot brings the buttons back.
    page.reload()
    page.wait_for_selector("html[data-ready]")
    page.wait_for_selector(f'.felt[data-hand="{hand}"]')
    page.wait_for_selector("#ask-openers:not([disabled])")
    assert page.locator("#ask-openers-hint").inner_text() == hint
    opener = hint.split(" opened.")[0]
    press(page, "#ask-openers", phone)
    # The server took it as a request (a decline would say "does not ask").
    asked = json.dumps(f"{me} asks to see")
    wait_for_js(page, f"document.querySelector('#log').innerText.includes({asked})")
    log = page.locator("#log").inner_text()
    assert f"{me} asks to see {opener}'s openers" in log, log
    assert f"{opener} shows openers " in log or f"{opener} opened without openers: " in log, log
    page.wait_for_selector(f".toast:has-text('{opener}')")
    page.wait_for_selector("#ask-openers", state="detached")
