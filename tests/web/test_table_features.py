"""What a regular expects at the table (issue items 2-5, 8, 12 and the "missing"
list), each on frames as the protocol writes them (``harness``): the drew badges,
the story after a reload, the draw-clock penalty said when it happens, one time
bank, the reasons behind an empty hand, pre-actions, bet sizing, sounds and
motion, the waiting list, notes, the hand's strength, a practice table's hint and
the offline cover.
"""

from __future__ import annotations

import re
from typing import Any

from .harness import (
    MY_CARDS,
    VIEWPORTS,
    hand_seat,
    hand_view,
    legal,
    mount,
    my_turn_nl,
    push,
    reply,
    seat,
    sent,
    sent_of,
    settle,
    table_state,
)
from .helpers import load_axe, wait_for_js

DESKTOP = VIEWPORTS["desktop-1280x720"]
PHONE = VIEWPORTS["phone-390x844"]


def badges(page: Any) -> dict[str, str]:
    found: dict[str, str] = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('.felt .seat')]
          .filter((s) => s.querySelector('.drew-badge'))
          .map((s) => [s.dataset.seat, s.querySelector('.drew-badge').innerText]))"""
    )
    return found


def status(page: Any, seat_no: int) -> str:
    text: str = page.locator(f".felt .seat[data-seat='{seat_no}'] .seat-status").inner_text()
    return text


def draw_state(table: str) -> dict[str, Any]:
    state = my_turn_nl(table=table)
    hand = state["hand"]
    hand["street"] = "draw"
    for s in hand["seats"]:
        s["wager"] = 0
    hand["seats"][1]["drew"] = 3  # bot 2 drew 3 before the reload
    hand["to_act"] = 3
    hand["legal"] = None
    return state


def test_drew_badges_stay_from_the_draw_to_the_end_of_the_hand(screen: Any) -> None:
    page = screen(DESKTOP)
    mount(page, draw_state("badges"))
    assert badges(page) == {"2": "drew 3"}
    push(
        page,
        {"type": "Discarded", "seq": 20, "seat": 3, "count": 2},
        {"type": "CardsDelivered", "seq": 21, "seat": 3, "count": 2},
        {"type": "StoodPat", "seq": 22, "seat": 5},
        {"type": "BettingRoundEnded", "seq": 23, "street": "draw", "pot": 15},
        {"type": "Turn", "seat": 2, "street": "post-draw", "clock_s": 15, "hand_id": "t-7"},
        {"type": "BetPlaced", "seq": 24, "seat": 2, "amount": 10, "all_in": False, "opened": False,
         "completed": False},
        {"type": "Called", "seq": 25, "seat": 3, "amount": 10, "all_in": False},
    )  # fmt: skip
    # The next action replaces "discards 2" but not the badge.
    assert status(page, 2) == "bets 10"
    assert status(page, 3) == "calls 10"
    assert badges(page) == {"2": "drew 3", "3": "drew 2", "5": "stood pat"}
    label = page.locator(".felt .seat[data-seat='3']").get_attribute("aria-label")
    assert "drew 2" in label
    push(
        page,
        {"type": "Folded", "seq": 26, "seat": 5},
        {"type": "Folded", "seq": 27, "seat": 1},
        {"type": "BettingRoundEnded", "seq": 28, "street": "post-draw", "pot": 35},
        {"type": "PotAwarded", "seq": 29, "index": 0, "amount": 35, "shares": [[2, 35]],
         "showdown": False},
        {"type": "HandEnded", "seq": 30, "stacks": [[1, 198], [2, 219], [3, 190], [5, 194]],
         "carried_pot": 0},
    )  # fmt: skip
    assert badges(page) == {"2": "drew 3", "3": "drew 2"}  # (a folded seat shows none)
    push(
        page,
        {"type": "HandStarted", "seq": 31, "hand_id": "t-8", "button": 4, "carried_pot": 0,
         "commitment": "cd" * 32, "stacks": [[1, 198], [2, 219], [3, 190], [5, 194]]},
    )  # fmt: skip
    assert badges(page) == {}


STORY = [
    {"type": "HandStarted", "seq": 1, "hand_id": "st-2", "button": 3, "carried_pot": 0,
     "commitment": "ab" * 32, "stacks": [[1, 200], [2, 200], [3, 200], [5, 200], [6, 200]]},
    {"type": "Posted", "seq": 2, "seat": 5, "kind": "small blind", "amount": 1, "all_in": False},
    {"type": "Posted", "seq": 3, "seat": 6, "kind": "big blind", "amount": 2, "all_in": False},
    {"type": "CardsDealt", "seq": 4, "seats": [5, 6, 1, 2, 3], "count": 5},
    {"type": "CardsReceived", "seq": 5, "seat": 1, "cards": MY_CARDS},
    {"type": "Turn", "seat": 1, "street": "pre-draw", "clock_s": 15, "hand_id": "st-2"},
    {"type": "Called", "seq": 6, "seat": 1, "amount": 2, "all_in": False},
    {"type": "Raised", "seq": 7, "seat": 2, "increment": 4, "to": 6, "all_in": False, "full": True},
    {"type": "Folded", "seq": 8, "seat": 3},
]  # fmt: skip
LAST_HAND = {
    "hand_id": "st-1",
    "story": [
        {"type": "HandStarted", "seq": 1, "hand_id": "st-1", "button": 2, "carried_pot": 0,
         "commitment": "ab" * 32, "stacks": [[2, 200], [3, 200]]},
        {"type": "BettingRoundEnded", "seq": 8, "street": "post-draw", "pot": 40},
        {"type": "HandShown", "seq": 9, "seat": 2, "cards": ["Ah", "Ad", "Ac", "4s", "4d"],
         "description": "a full house, Aces full of Fours"},
        {"type": "HandShown", "seq": 10, "seat": 3, "cards": ["Qh", "Qd", "2c", "7s", "8d"],
         "description": "a pair of Queens"},
        {"type": "PotAwarded", "seq": 11, "index": 0, "amount": 40, "shares": [[2, 40]],
         "showdown": True},
        {"type": "HandEnded", "seq": 12, "stacks": [[2, 220], [3, 180]], "carried_pot": 0},
    ],
}  # fmt: skip


def story_state(table: str, you: int | None) -> dict[str, Any]:
    names = ["ann", "bot-a", "bot-b", "bot-c", "bot-d", "bot-e"]
    seats = [seat(i + 1, n) for i, n in enumerate(names) if i + 1 != 4]
    hand = hand_view(
        [
            hand_seat(5, 199, wager=1),
            hand_seat(6, 198, wager=2),
            hand_seat(1, 198, wager=2, cards=MY_CARDS if you == 1 else None),
            hand_seat(2, 194, wager=6),
            hand_seat(3, 200, folded=True, count=0),
        ],
        hand_id="st-2",
        to_act=5,
    )
    chat = [{"name": "bot-a", "text": "gl all"}, {"name": "ann", "text": "ty"}]
    return table_state(
        seats, hand, table=table, you=you, story=STORY, last_hand=LAST_HAND, chat=chat
    )


def test_the_snapshot_story_restores_the_log_the_labels_and_the_last_hand(open_page: Any) -> None:
    for you, table in ((1, "story-me"), (None, "story-spectator")):
        page = open_page(DESKTOP)
        mount(page, story_state(table, you))
        log = page.locator("#log").inner_text()
        lines = [
            "Hand st-1",
            "bot-a shows",
            "bot-a wins 40 with a full house, Aces full of Fours",
            "Hand st-2",
            "bot-d posts the small blind 1",
            "bot-e posts the big blind 2",
            "ann calls 2",
            "bot-a raises to 6",
            "bot-b folds",
        ]
        for line in lines:
            assert line in log, (line, log)
        assert status(page, 2) == "raises to 6"
        assert status(page, 1) == "calls 2"
        blinds = page.eval_on_selector_all(".felt .bet .blind", "els => els.map(e => e.innerText)")
        assert sorted(blinds) == ["BB", "SB"], blinds
        chat = page.eval_on_selector_all("#chat-lines li", "els => els.map(e => e.textContent)")
        assert chat == ["bot-a: gl all", "ann: ty"], chat
        last = page.locator("#last-result").inner_text()
        assert "bot-a" in last, last
        assert "a full house, Aces full of Fours" in last, last
        page.close()


def test_the_draw_clock_penalty_is_said_when_it_happens_and_while_it_applies(
    screen: Any,
) -> None:
    page = screen(DESKTOP)
    page.evaluate("window.drawpoker.setLanguage('it')")
    page.wait_for_selector("html[lang=it]")
    state = draw_state("penalty")
    state["hand"]["to_act"] = 1
    mount(page, state)
    push(
        page,
        {"type": "TimedOut", "seq": 20, "seat": 1, "penalized": True},
        {"type": "StoodPat", "seq": 21, "seat": 1},
    )
    page.wait_for_selector(".toast.warn:has-text('Il tempo del cambio è scaduto')")
    assert "solo fare check, vedere o lasciare" in page.locator("#penalty").inner_text()
    push(
        page,
        {"type": "BettingRoundEnded", "seq": 22, "street": "draw", "pot": 15},
        {"type": "Turn", "seat": 1, "street": "post-draw", "clock_s": 15, "hand_id": "t-7"},
        {"type": "Legal", "hand_id": "t-7", "legal": legal(1, "post-draw", fold=False, check=True)},
    )
    page.wait_for_selector("#check")
    assert page.locator("#bet").count() == 0
    assert "puoi solo fare check" in page.locator("#penalty").inner_text()
    assert (
        "fino alla fine" in page.locator("#log").inner_text()
        or "cambio" in page.locator("#log").inner_text()
    )


def test_one_time_bank_from_the_server(screen: Any) -> None:
    page = screen(DESKTOP)
    state = my_turn_nl(table="bank")
    state["seats"][0]["time_bank"] = 23.4
    mount(page, state)
    assert page.locator("#time-bank").inner_text() == "Time bank 24 s"
    push(page, {"type": "TimeBank", "seat": 1, "seconds": 23.4, "hand_id": "t-7"})
    wait_for_js(page, "document.querySelector('.clock-text').innerText.startsWith('Time bank:')")
    visible = page.evaluate(
        """() => [...document.querySelectorAll('.play *')]
          .filter((el) => el.children.length === 0 && el.getClientRects().length
            && /time bank/i.test(el.textContent)).map((el) => el.textContent)"""
    )
    assert len(visible) == 1, visible
    # A seat taken now has no bank to show until the server says it.
    push(
        page,
        {"type": "PlayerSeated", "seq": 40, "seat": 4, "name": "zed", "stack": 100, "post": False},
    )
    assert page.evaluate("window.drawpoker.view.table.seats[4].time_bank") is None
    # After a reload, the snapshot's running bank.
    state["hand"]["bank_running"] = True
    state["hand"]["clock_s"] = 12.0
    mount(page, {**state, "table": "bank-2"})
    assert re.fullmatch(r"Time bank: 1[12] s", page.locator(".clock-text").inner_text())


def test_an_empty_hand_says_why(screen: Any) -> None:
    page = screen(DESKTOP)
    state = my_turn_nl(table="why")
    state["seats"][0]["sitting_out"] = True
    state["hand"]["seats"] = state["hand"]["seats"][1:]
    state["hand"]["to_act"] = 2
    state["hand"]["legal"] = None
    state["seats"][0]["stack"] = 200
    mount(page, state)
    assert "sitting out" in page.locator("#my-status").inner_text()
    assert page.locator("#top-up").is_disabled()
    assert page.locator("#top-up").get_attribute("title") == "Your stack is at the table maximum."
    reply(page, "sit_in", {"type": "ok", "detail": {}})
    page.click("#sit-in")
    page.wait_for_selector(".toast:has-text('You are back')")
    waiting = {**state, "table": "why-2"}
    waiting["seats"] = [dict(s) for s in state["seats"]]
    waiting["seats"][0].update(sitting_out=False, waiting="big_blind", stack=120)
    mount(page, waiting)
    assert "Waiting for the big blind" in page.locator("#my-status").inner_text()
    assert page.locator("#top-up").is_enabled()


def italian_state(table: str, can_open: bool) -> dict[str, Any]:
    seats = [seat(1, "ann"), seat(2, "bot-x"), seat(3, "bot-y")]
    the_legal = legal(1, fold=False, check=True, bet_label="open", min_to=10 if can_open else 0,
                      max_to=40 if can_open else 0)  # fmt: skip
    hand = hand_view(
        [hand_seat(1, 190, committed=10, cards=MY_CARDS), hand_seat(2, 190, committed=10),
         hand_seat(3, 190, committed=10)],
        button=3, to_act=1, the_legal=the_legal,
    )  # fmt: skip
    return table_state(seats, hand, table=table, rules="Italian, invito 10, 6-max")


def test_the_italian_table_says_why_pass_is_the_only_choice(screen: Any) -> None:
    page = screen(DESKTOP)
    mount(page, italian_state("it-pass", can_open=False))
    assert page.locator("#check").inner_text() == "Pass"
    assert page.locator("#openers-hint").inner_text() == (
        "Jacks or better to open: you do not hold openers, so you may only pass."
    )
    page.evaluate("window.drawpoker.setLanguage('it')")
    page.wait_for_selector("html[lang=it]")
    assert "non hai l'apertura" in page.locator("#openers-hint").inner_text()
    # (the room has an Italian table like it: its own name is added)
    title = page.locator("#table-title").inner_text()
    assert title == "Poker all'italiana · invito 10 · Test it-pass"
    mount(page, italian_state("it-open", can_open=True))
    assert "puoi aprire" in page.locator("#openers-hint").inner_text()


def test_pre_actions_while_waiting(screen: Any) -> None:
    page = screen(DESKTOP)
    state = my_turn_nl(table="pre")
    state["hand"]["to_act"] = 3
    state["hand"]["legal"] = None
    mount(page, state)
    # Facing a raise to 6 with 2 in: Fold, Call 4, Call any.
    labels = page.eval_on_selector_all(
        ".pre-actions label", "els => els.map(e => e.innerText.trim())"
    )
    assert labels[:3] == ["Fold", "Call 4", "Call any"], labels
    page.click("#pre-call")
    assert sent_of(page, "pre_action") == {
        "table": "pre",
        "type": "pre_action",
        "hand_id": "t-7",
        "pre": "call",
    }
    assert page.locator("#pre-call").is_checked()
    # The price changes: the call is cancelled and says so.
    raised = {"type": "Raised", "seq": 30, "seat": 3, "increment": 6, "to": 12, "all_in": False}
    push(page, {**raised, "full": True})
    page.wait_for_selector(".toast:has-text('cancelled')")
    assert not page.locator("#pre-call").is_checked()
    assert page.locator("label:has(#pre-call)").inner_text().strip() == "Call 10"
    page.click("#pre-fold_any")
    wait_for_js(page, "window.__sent.at(-1).pre === 'fold_any'")
    # Nothing to call: Check/Fold, Check, Call any, Fold to any bet.
    free = my_turn_nl(table="pre-free")
    for s in free["hand"]["seats"]:
        s["wager"] = 0
    free["hand"]["street"] = "post-draw"
    free["hand"]["highest"] = 0
    free["hand"]["to_act"] = 3
    free["hand"]["legal"] = None
    mount(page, free)
    labels = page.eval_on_selector_all(
        ".pre-actions label", "els => els.map(e => e.innerText.trim())"
    )
    assert labels == ["Check/Fold", "Check", "Call any", "Fold to any bet"], labels
    page.click("#pre-check")
    push(page, {"type": "PreActionCancelled", "pre": "check", "hand_id": "t-7"})
    assert not page.locator("#pre-check").is_checked()


def test_sit_out_next_hand_and_automatic_top_up(screen: Any) -> None:
    page = screen(DESKTOP)
    mount(page, my_turn_nl(table="options"))
    page.check("#sit-out-next")
    assert sent_of(page, "sit_out_next") == {"table": "options", "type": "sit_out_next", "on": True}
    page.wait_for_selector(".toast:has-text('You will sit out when this hand is over')")
    page.fill("#auto-topup-amount", "150")
    page.check("#auto-topup")
    assert sent_of(page, "auto_top_up") == {
        "table": "options",
        "type": "auto_top_up",
        "amount": 150,
    }
    # A server without these messages: the plain sit-out, and a clear refusal.
    mount(page, my_turn_nl(table="options-old"))
    reply(page, "sit_out_next", {"type": "error", "code": "unknown_type", "message": "unknown"})
    page.check("#sit-out-next")
    wait_for_js(page, "window.__sent.at(-1).type === 'sit_out'")


def test_bet_presets_and_the_typed_amount(screen: Any) -> None:
    page = screen(DESKTOP)
    mount(page, my_turn_nl(table="presets"))
    # Pot 15, to call 4 (pot after the call 19), highest 6, blinds 1/2: legal 10-200.
    want = {"min": 10, "x2": 12, "x3": 18, "half": 16, "three-quarters": 20, "pot": 25, "max": 200}
    for preset, amount in want.items():
        page.click(f"#preset-{preset}")
        assert page.locator("#bet-amount").input_value() == str(amount), preset
        assert page.locator("#bet").inner_text() == f"Raise to {amount}"
    assert page.locator("#preset-max").inner_text() == "All in"
    page.fill("#bet-amount", "7")
    assert page.locator("#bet").is_disabled()
    assert "invalid" in page.locator("#bet-amount").get_attribute("class")
    page.fill("#bet-amount", "57")
    page.press("#bet-amount", "Enter")
    wait_for_js(page, "window.__sent.at(-1).type === 'act'")
    last = sent_of(page, "act")
    assert (last["action"], last["amount"]) == ("raise", 57)
    assert page.locator("#bet-limits").inner_text() == "10–200"


def test_sounds_with_a_mute_switch_and_animations_that_can_be_turned_off(screen: Any) -> None:
    page = screen(DESKTOP)
    state = my_turn_nl(table="sound")
    state["hand"]["to_act"] = 3
    state["hand"]["legal"] = None
    mount(page, state, motion=True)
    assert page.evaluate("document.documentElement.dataset.motion") == "on"
    push(page, {"type": "Turn", "seat": 1, "street": "pre-draw", "clock_s": 4.5, "hand_id": "t-7"})
    wait_for_js(page, "window.drawpoker.sounds.includes('tick')")
    assert "turn" in page.evaluate("window.drawpoker.sounds")
    push(page, {"type": "Called", "seq": 40, "seat": 1, "amount": 4, "all_in": False})
    assert page.evaluate("window.drawpoker.sounds.at(-1)") == "chips"
    page.click("#sound-toggle")
    assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "false"
    count = page.evaluate("window.drawpoker.sounds.length")
    push(page, {"type": "Turn", "seat": 1, "street": "pre-draw", "clock_s": 15, "hand_id": "t-7"},
         {"type": "Called", "seq": 41, "seat": 2, "amount": 4, "all_in": False})  # fmt: skip
    assert page.evaluate("window.drawpoker.sounds.length") == count
    # Animations: the deal slides the cards in; off in Settings, nothing moves.
    deal = {"type": "HandStarted", "seq": 50, "hand_id": "t-8", "button": 4, "carried_pot": 0,
            "commitment": "cd" * 32, "stacks": [[1, 190], [2, 190], [3, 200]]}  # fmt: skip
    push(page, deal, {"type": "CardsDealt", "seq": 51, "seats": [2, 3, 1], "count": 5})
    names = page.eval_on_selector_all(
        ".mini-card.deal", "els => els.map(e => getComputedStyle(e).animationName)"
    )
    assert names, names
    assert set(names) == {"deal"}, names
    page.click("#settings-btn")
    page.uncheck("#pref-motion")
    page.click("#prefs-close")
    assert page.evaluate("document.documentElement.dataset.motion") == "off"
    assert page.evaluate("localStorage.getItem('dp.motion')") == "off"
    push(
        page,
        {**deal, "seq": 60, "hand_id": "t-9"},
        {"type": "CardsDealt", "seq": 61, "seats": [2, 3, 1], "count": 5},
    )
    names = page.eval_on_selector_all(
        ".mini-card", "els => els.map(e => getComputedStyle(e).animationName)"
    )
    assert set(names) == {"none"}, names


def test_reduced_motion_turns_the_animations_off_by_default(open_page: Any) -> None:
    page = open_page(DESKTOP)
    page.emulate_media(reduced_motion="reduce")
    page.reload()
    page.wait_for_selector("html[data-ready]")
    assert page.evaluate("document.documentElement.dataset.motion") == "off"


def full_table(table: str) -> dict[str, Any]:
    names = ["bot-1", "bot-2", "bot-3", "bot-4", "bot-5", "bot-6"]
    return table_state([seat(i + 1, n) for i, n in enumerate(names)], None, table=table, you=None)


def test_the_waiting_list_of_a_full_table(screen: Any) -> None:
    page = screen(DESKTOP)
    mount(page, full_table("full"))
    assert "This table is full." in page.locator("#table-full").inner_text()
    page.click("#wait")
    assert sent_of(page, "wait") == {"table": "full", "type": "wait"}
    push(page, {"type": "WaitingList", "names": ["bob", "ann"]})
    assert page.locator("#unwait").inner_text() == "Leave the waiting list (you are number 2)"
    assert "Waiting: bob, ann." in page.locator("#table-full").inner_text()
    push(page, {"type": "PlayerLeft", "seq": 70, "seat": 4, "name": "bot-4", "chips": 200},
         {"type": "SeatOffered", "seat": 4, "until_s": 30})  # fmt: skip
    page.wait_for_selector("#offer-take")
    assert "Seat 4 is free and held for you" in page.locator("#offer-text").inner_text()
    wait_for_js(page, "/0:(29|30)/.test(document.querySelector('#offer-left').innerText)")
    page.click("#offer-take")
    page.wait_for_selector("#buyin-submit")
    assert "Seat 4" in page.locator("#dialog h2").inner_text()
    # After a reload the snapshot holds the offer: asked again.
    again = full_table("full-2")
    again["seat_offer"] = {"seat": 2, "until_s": 12.5}
    again["waiting_list"] = ["bob"]
    mount(page, again)
    page.wait_for_selector("#offer-take")
    assert "Seat 2" in page.locator("#offer-text").inner_text()
    page.click("#offer-decline")
    assert sent_of(page, "unwait") == {"table": "full-2", "type": "unwait"}
    # An automatic top-up that failed says why.
    push(page, {"type": "AutoTopUpFailed", "amount": 150, "reason": "your balance is 20 chips"})
    page.wait_for_selector(".toast.error:has-text('top-up of 150 could not be made')")


def test_private_notes_on_opponents(open_page: Any) -> None:
    page = open_page(DESKTOP)
    state = my_turn_nl(table="notes")
    mount(page, state)
    page.click(".felt .seat[data-seat='2'] .seat-plate")
    page.fill("#note-text", "bluffs the river when checked to")
    page.click("#note-save")
    page.wait_for_selector(".felt .seat[data-seat='2'] .note-mark")
    assert page.locator(".felt .seat[data-seat='3'] .note-mark").count() == 0
    assert "you have a note" in page.locator(".felt .seat[data-seat='2']").get_attribute(
        "aria-label"
    )
    page.reload()
    page.wait_for_selector("html[data-ready]")
    mount(page, {**state, "table": "notes-2"})
    page.wait_for_selector(".felt .seat[data-seat='2'] .note-mark")
    assert page.locator(".felt .seat[data-seat='2'] .note-mark").get_attribute("title") == (
        "bluffs the river when checked to"
    )


def test_the_strength_of_my_hand_and_a_practice_hint(screen: Any) -> None:
    page = screen(DESKTOP)
    state = my_turn_nl(table="strength")
    state["hand"]["my_hand"] = "two pair, Kings and Fives"
    mount(page, state)
    assert page.locator("#my-strength").inner_text() == "Your hand: two pair, Kings and Fives"
    page.evaluate("window.drawpoker.setLanguage('it')")
    page.wait_for_selector("html[lang=it]")
    assert page.locator("#my-strength").inner_text() == "La tua mano: doppia coppia, Re e Cinque"
    page.evaluate("window.drawpoker.setLanguage('en')")
    page.wait_for_selector("html[lang=en]")
    # A practice table: the best discard, and a button that marks it.
    hint = {
        "discard": ["9h"],
        "description": "two pair, Kings and Fives",
        "label": "keep Kh Kd 5s 5c, draw 1",
        "improve": 0.085,
    }
    push(
        page,
        {"type": "BettingRoundEnded", "seq": 30, "street": "pre-draw", "pot": 30},
        {"type": "Turn", "seat": 1, "street": "draw", "clock_s": 30, "hand_id": "t-7"},
        {"type": "Legal", "hand_id": "t-7", "my_hand": "two pair, Kings and Fives", "hint": hint,
         "legal": legal(1, "draw", fold=False, draw=True, max_discard=5, hand=MY_CARDS)},
    )  # fmt: skip
    text = page.locator("#practice-hint").inner_text()
    assert "Practice hint: discard 9♥ — improves 9% of the time (two pair, Kings and Fives)" in text
    page.click("#hint-mark")
    assert page.locator("#my-hand .card[data-card='9h']").get_attribute("aria-pressed") == "true"
    assert page.locator("#discard").inner_text() == "Discard 1 Card"


def test_offline_covers_the_table_and_holds_everything(open_page: Any) -> None:
    for viewport in (DESKTOP, PHONE):
        page = open_page(viewport, phone=viewport is PHONE)
        mount(page, my_turn_nl(table=f"offline-{viewport['width']}"))
        page.evaluate("window.drawpoker.view.onStatus('offline')")
        cover = page.locator("#offline")
        cover.wait_for()
        assert "Connection lost" in cover.inner_text()
        assert (
            page.locator(".clock-text").count() == 0
            or page.locator(".clock-text").inner_text() == ""
        )
        blocked = page.evaluate(
            """() => { const b = document.querySelector('#my-hand');
              const r = b.getBoundingClientRect();
              const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
              return Boolean(hit && hit.closest('#offline')); }"""
        )
        assert blocked
        count = len(sent(page))
        page.keyboard.press("f")
        assert len(sent(page)) == count
        page.evaluate("window.drawpoker.view.onOpen()")
        cover.wait_for(state="hidden")
        page.wait_for_selector("#fold")
        settle(page)
        page.close()


def test_no_serious_accessibility_violations_at_a_busy_table(screen: Any, axe_source: str) -> None:
    """A folded seat, one sitting out, an empty one, badges, bets and my turn: axe-core
    finds no serious or critical violation (live tables show these only by chance)."""
    for viewport, phone in ((DESKTOP, False), (PHONE, True)):
        page = screen(viewport, phone=phone)
        state = draw_state("axe")
        state["seats"][2]["sitting_out"] = True
        state["seats"] = [s for s in state["seats"] if s["seat"] != 6]
        state["hand"]["seats"] = [s for s in state["hand"]["seats"] if s["seat"] != 6]
        state["hand"]["to_act"] = 1
        state["hand"]["legal"] = legal(
            1, "draw", fold=False, draw=True, max_discard=5, hand=MY_CARDS
        )
        mount(page, state)
        page.locator('#my-hand .card[data-index="4"]').click()  # a card marked: Discard 1 Card
        page.hover("#discard")  # (hovered, a button keeps its contrast)
        load_axe(page, axe_source)
        found = page.evaluate(
            """async () => (await axe.run(document)).violations
              .filter((v) => ["serious", "critical"].includes(v.impact))
              .map((v) => [v.id, v.nodes.slice(0, 3).map((n) => n.target.join(" "))])"""
        )
        assert not found, found
