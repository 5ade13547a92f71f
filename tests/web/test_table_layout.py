"""The table on every screen (issue items 1, 9, 10): on desktops of 1280x720 and
1366x768 (and a 1366x800 tournament table with its banner) and phones of 390x844
and 360x740, on your turn the action bar and your cards are wholly on the screen
without scrolling and nothing covers them; shown hands are legible; every seat is
on the screen with a name that tells it apart; bets never hide under a plate; a
phone's tap targets are at least 44 px.

The tables are fed with frames as the protocol writes them (``harness``).
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from .harness import (
    PHONES,
    VIEWPORTS,
    boxes,
    hand_seat,
    hand_view,
    inside_viewport,
    legal,
    mount,
    my_turn_nl,
    overlaps,
    push,
    seat,
    settle,
    table_state,
)
from .helpers import screenshot, wait_for_js

TOURNAMENT = {
    "id": "sng-x",
    "name": "Sunday Sit & Go",
    "table_no": 1,
    "level": {"level": 3, "small_blind": 25, "big_blind": 50, "ante": 5, "minutes": 5},
    "next_level": {"level": 4, "small_blind": 50, "big_blind": 100, "ante": 10, "minutes": 5},
    "next_in_s": 120,
    "players_left": 6,
    "entries": 6,
}

ALL = [*VIEWPORTS.items(), ("desktop-1366x800", {"width": 1366, "height": 800})]


def open_at(screen: Any, name: str, viewport: dict[str, int]) -> Any:
    return screen(viewport, phone=name in PHONES)


def check_fits(page: Any) -> None:
    """The action bar, its every control and my cards are on the screen, uncovered,
    with the page scrolled to the top; a toast does not cover the action bar."""
    assert page.evaluate("window.scrollY") == 0
    bar = boxes(page, "#actions")[0]
    assert inside_viewport(page, bar), bar
    controls = boxes(page, "#actions button, #actions input, #actions label")
    assert controls
    for control in controls:
        assert inside_viewport(page, control), control
    cards = boxes(page, "#my-hand .card")
    assert len(cards) == 5
    for card in cards:
        assert inside_viewport(page, card), card
        assert not overlaps(card, bar), (card, bar)
    covered = page.evaluate(
        """() => [...document.querySelectorAll('#my-hand .card, #actions button')].filter((el) => {
          const r = el.getBoundingClientRect();
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return !(hit && (el === hit || el.contains(hit)));
        }).map((el) => el.id || el.dataset.card)"""
    )
    assert not covered, covered
    line = "nice hand, this is a long chat line"
    push(page, {"type": "Chat", "name": "bot-nl-2-8-2", "text": line})
    page.evaluate("window.drawpoker.toast('A notice of a few lines: ' + 'words '.repeat(20))")
    toasts = boxes(page, "#toast .toast")
    assert len(toasts) == 2, toasts  # (the chat line too: the chat panel is not in sight)
    for toast in toasts:
        assert not overlaps(toast, bar), (toast, bar)


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_my_turn_fits_the_screen_at_a_cash_table(screen: Any, name: str) -> None:
    page = open_at(screen, name, VIEWPORTS[name])
    mount(page, my_turn_nl(table=f"fit-{name}"))
    page.wait_for_selector("#bet-amount")
    screenshot(page, f"table-turn-{name}")
    check_fits(page)
    # The presets, the amount and its legal range are all there.
    for preset in ("min", "x2", "x3", "half", "three-quarters", "pot", "max"):
        assert page.locator(f"#preset-{preset}").count() == 1, preset
    assert page.locator("#bet-limits").inner_text() == "10–200"


@pytest.mark.parametrize(("name", "viewport"), ALL, ids=[n for n, _ in ALL])
def test_my_turn_fits_the_screen_at_a_tournament_table_with_its_banner(
    screen: Any, name: str, viewport: dict[str, int]
) -> None:
    page = open_at(screen, name, viewport)
    page.evaluate("window.drawpoker.flash = { key: 'tour.seated', params: { n: 1 } }")
    state = my_turn_nl(
        table=f"sng-x-t1-{name}", tournament=TOURNAMENT, rules="No Limit 25/50, 6-max"
    )
    mount(page, state)
    page.console.allow("404")  # (the level schedule of a tournament this server does not run)
    page.wait_for_selector("#flash:not([hidden])")
    page.wait_for_selector("#tour-level")
    check_fits(page)


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_the_draw_fits_the_screen(screen: Any, name: str) -> None:
    page = open_at(screen, name, VIEWPORTS[name])
    state = my_turn_nl(table=f"draw-{name}")
    hand = state["hand"]
    hand["street"] = "draw"
    for s in hand["seats"]:
        s["wager"] = 0
    hand["seats"][1]["drew"] = 3
    hand["legal"] = legal(
        1, "draw", fold=False, draw=True, max_discard=5, hand=state["hand"]["seats"][0]["cards"]
    )
    mount(page, state)
    page.click('#my-hand .card[data-index="4"]')
    page.wait_for_selector("#discard:not([disabled])")
    screenshot(page, f"table-draw-{name}")
    check_fits(page)
    assert page.locator(".seat[data-seat='2'] .drew-badge").inner_text() == "drew 3"


def showdown_state(table: str) -> dict[str, Any]:
    names = ["ann", "bot-pl-10-8-2", "bot-pl-10-8-3", "bot-pl-10-8-4"]
    seats = [seat(i + 1, n) for i, n in enumerate(names)]
    hand = hand_view(
        [
            hand_seat(1, 150, committed=50, cards=["Kh", "Kd", "5s", "5c", "9h"], drew=1),
            hand_seat(2, 150, committed=50, drew=2),
            hand_seat(3, 150, committed=50, drew=0),
            hand_seat(4, 150, committed=50, drew=3),
        ],
        street="post-draw",
        to_act=None,
        hand_id=f"{table}-9",
    )
    return table_state(seats, hand, table=table, rules="Pot Limit 5/10, 8-max", max_seats=8)


def show(hand_id: str) -> list[dict[str, Any]]:
    return [
        {"type": "BettingRoundEnded", "seq": 30, "street": "post-draw", "pot": 200},
        {"type": "HandShown", "seq": 31, "seat": 2, "cards": ["Qs", "Qh", "Js", "Jh", "2c"],
         "description": "two pair, Queens and Jacks"},
        {"type": "HandShown", "seq": 32, "seat": 3, "cards": ["7s", "7h", "7d", "Ac", "3d"],
         "description": "three of a kind, Sevens"},
        {"type": "HandShown", "seq": 33, "seat": 4, "cards": ["9s", "Ts", "Js", "Qd", "Kc"],
         "description": "a straight, Nine to King"},
        {"type": "HandShown", "seq": 34, "seat": 1, "cards": ["Kh", "Kd", "5s", "5c", "Ks"],
         "description": "a full house, Kings full of Fives"},
        {"type": "PotAwarded", "seq": 35, "index": 0, "amount": 200, "shares": [[1, 200]],
         "showdown": True},
    ]  # fmt: skip


SHOWDOWNS = [(n, "en") for n in VIEWPORTS] + [("phone-360x740", "es"), ("desktop-1280x720", "es")]


@pytest.mark.parametrize(("name", "lang"), SHOWDOWNS)
def test_shown_hands_are_legible(screen: Any, name: str, lang: str) -> None:
    page = open_at(screen, name, VIEWPORTS[name])
    if lang != "en":
        page.evaluate(f"window.drawpoker.setLanguage('{lang}')")
        page.wait_for_selector(f"html[lang={lang}]")
    table = f"sd-{name}-{lang}"
    mount(page, showdown_state(table))
    push(page, *show(f"{table}-9"))
    panel = page.locator("#result")
    panel.wait_for()
    rows = panel.locator(".sd-row")
    assert rows.count() == 4
    minimum = 32 if name in PHONES else 40
    whole = boxes(page, "#result")[0]
    for row in boxes(page, "#result .sd-row"):  # every shown hand in sight, none scrolled away
        assert row["y"] >= whole["y"], (row, whole)
        assert row["bottom"] <= whole["bottom"] + 0.5, (row, whole)
    for i in range(4):
        cards = boxes(page, f"#result .sd-row:nth-child({i + 1}) .sd-card")
        assert len(cards) == 5
        for card in cards:
            assert card["w"] >= minimum, card
            assert inside_viewport(page, card), card
        for a, b in itertools.pairwise(cards):
            assert not overlaps(a, b), (a, b)
    cut = page.evaluate(
        """() => [...document.querySelectorAll('#result .sd-desc, #result .sd-name')]
          .filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.innerText)"""
    )
    assert not cut, cut
    text = panel.inner_text()
    if lang == "en":
        assert "a full house, Kings full of Fives" in text
        assert "a straight, Nine to King" in text
    else:
        assert "full de Reyes y Cincos" in text, text
    if lang == "en":
        screenshot(page, f"table-showdown-{name}")


@pytest.mark.parametrize("name", list(VIEWPORTS))
@pytest.mark.parametrize("seats", [6, 8])
def test_every_seat_is_on_the_screen_and_told_apart(screen: Any, name: str, seats: int) -> None:
    page = open_at(screen, name, VIEWPORTS[name])
    names = ["ann"] + [f"bot-nl-2-8-{i}" for i in range(2, seats + 1)]
    infos = [seat(i + 1, n, stack=1000 + i) for i, n in enumerate(names)]
    hand_seats = [hand_seat(1, 990, wager=10, cards=["Ah", "Kh", "Qh", "Jh", "9c"])]
    hand_seats += [hand_seat(i, 990, wager=10 if i % 2 else 20) for i in range(2, seats + 1)]
    hand = hand_view(hand_seats, to_act=1, the_legal=legal(1, call=10, min_to=30, max_to=1000))
    state = table_state(infos, hand, table=f"seats-{name}-{seats}", max_seats=seats,
                        rules=f"No Limit 5/10, {seats}-max")  # fmt: skip
    mount(page, state)
    if seats == 8:
        screenshot(page, f"table-8-max-{name}")
    plates = boxes(page, ".felt .seat")
    assert len(plates) == seats
    for plate in plates:
        assert inside_viewport(page, plate), plate
    shown = page.eval_on_selector_all(".felt .seat-name .nm", "els => els.map(e => e.textContent)")
    assert len(set(shown)) == seats, shown
    cut = page.evaluate(
        """() => [...document.querySelectorAll('.felt .seat-name')]
          .filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.innerText)"""
    )
    assert not cut, cut
    bets = boxes(page, ".felt .bet")
    assert len(bets) == seats
    plates_only = boxes(page, ".felt .seat-plate")
    for bet in bets:
        for plate in plates_only:
            assert not overlaps(bet, plate), (bet, plate)
    for i, a in enumerate(plates_only):
        for b in plates_only[i + 1 :]:
            assert not overlaps(a, b), (a, b)
    pot = boxes(page, "#pot")[0]
    for i, bet in enumerate(bets):
        assert not overlaps(bet, pot), (bet, pot)
        for other in bets[i + 1 :]:
            assert not overlaps(bet, other), (bet, other)
    if name in PHONES:
        small = [
            b
            for b in boxes(
                page,
                ".topbar button, .topbar a, .topbar select, .table-view button, .table-view a,"
                " .table-view select, .table-view label.check, .table-view input[type=number]",
            )
            if b["h"] < 44 - 0.5
        ]
        assert not small, small


def test_a_waiting_player_sees_every_pre_action_on_a_phone(screen: Any) -> None:
    page = screen(VIEWPORTS["phone-360x740"], phone=True)
    state = my_turn_nl(table="pre-phone")
    state["hand"]["to_act"] = 3
    state["hand"]["legal"] = None
    mount(page, state)
    for kind in ("fold_any", "call", "call_any"):
        box = boxes(page, f"label:has(#pre-{kind})")[0]
        assert box["h"] >= 44, box
        assert inside_viewport(page, box), box
    settle(page)


def test_the_table_menu_on_a_phone(screen: Any) -> None:
    """On a phone the table's controls are one tap away and as big as a finger."""
    page = screen(VIEWPORTS["phone-360x740"], phone=True)
    mount(page, my_turn_nl(table="menu-phone"))
    assert not page.locator("#sit-out").is_visible()
    page.locator("#table-menu-btn").tap()
    assert page.locator("#table-menu-btn").get_attribute("aria-expanded") == "true"
    controls = boxes(
        page,
        "#table-controls button, #table-controls label.check, #table-controls input[type=number]",
    )
    assert len(controls) >= 6
    for control in controls:
        assert control["h"] >= 44 - 0.5, control
        assert inside_viewport(page, control), control
    page.locator("#sit-out").tap()
    wait_for_js(page, "window.__sent.at(-1).type === 'sit_out'")
