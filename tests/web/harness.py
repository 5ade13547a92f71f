"""A table in the real page, fed with frames as the protocol writes them.

``mount`` routes the running app to ``#/table/<id>`` with a socket that records
what the client sends (and answers ``ok``), then delivers a snapshot; ``push``
delivers events. The builders write snapshots in the shapes of
``drawpoker.protocol.server`` (``TableState``, ``SeatInfo``, ``HandView``,
``LegalInfo``), so the client is tested on exactly what a server sends.
"""

from __future__ import annotations

import json
from typing import Any

from .helpers import wait_for_js

VIEWPORTS = {
    "desktop-1280x720": {"width": 1280, "height": 720},
    "desktop-1366x768": {"width": 1366, "height": 768},
    "phone-390x844": {"width": 390, "height": 844},
    "phone-360x740": {"width": 360, "height": 740},
}
PHONES = {k for k in VIEWPORTS if k.startswith("phone")}


def seat(n: int, name: str, stack: int = 200, **extra: Any) -> dict[str, Any]:
    return {
        "seat": n,
        "name": name,
        "stack": stack,
        "pending_top_up": 0,
        "sitting_out": False,
        "connected": True,
        "bot": name.startswith("bot"),
        "time_bank": 30.0,
        **extra,
    }


def hand_seat(
    n: int,
    stack: int,
    *,
    wager: int = 0,
    committed: int | None = None,
    cards: list[str] | None = None,
    count: int = 5,
    **extra: Any,
) -> dict[str, Any]:
    return {
        "seat": n,
        "stack": stack,
        "wager": wager,
        "committed": wager if committed is None else committed,
        "folded": False,
        "all_in": False,
        "card_count": count,
        "cards": cards,
        "drew": None,
        "penalized": False,
        **extra,
    }


def legal(seat_no: int, street: str = "pre-draw", **extra: Any) -> dict[str, Any]:
    return {
        "seat": seat_no,
        "street": street,
        "fold": True,
        "check": False,
        "call": 0,
        "call_all_in": False,
        "min_to": 0,
        "max_to": 0,
        "bet_label": "raise",
        "draw": False,
        "max_discard": 0,
        "hand": [],
        **extra,
    }


MY_CARDS = ["Kh", "Kd", "5s", "5c", "9h"]


def hand_view(
    seats: list[dict[str, Any]],
    *,
    hand_id: str = "t-7",
    street: str = "pre-draw",
    button: int = 3,
    to_act: int | None = 1,
    the_legal: dict[str, Any] | None = None,
    clock_s: float = 15.0,
    **extra: Any,
) -> dict[str, Any]:
    pot = sum(s["committed"] for s in seats)
    return {
        "hand_id": hand_id,
        "street": street,
        "button": button,
        "to_act": to_act,
        "pot": pot,
        "highest": max(s["wager"] for s in seats),
        "stub": 22,
        "seats": seats,
        "legal": the_legal,
        "next_seq": 10,
        "commitment": "ab" * 32,
        "clock_s": clock_s,
        "bank_running": False,
        **extra,
    }


def table_state(
    seats: list[dict[str, Any]],
    hand: dict[str, Any] | None,
    *,
    table: str = "t",
    rules: str = "No Limit 1/2, 6-max",
    max_seats: int = 6,
    you: int | None = 1,
    **extra: Any,
) -> dict[str, Any]:
    return {
        "table": table,
        "name": f"Test {table}",
        "epoch": "e1",
        "rules": rules,
        "max_seats": max_seats,
        "min_buy_in": 40,
        "max_buy_in": 200,
        "button": hand["button"] if hand else 1,
        "carried_pot": 0,
        "you": you,
        "pre_action": None,
        "seats": seats,
        "hand": hand,
        **extra,
    }


def my_turn_nl(table: str = "t", **extra: Any) -> dict[str, Any]:
    """Six players at no limit 1/2, my turn before the draw facing a raise to 6."""
    names = ["ann", "bot-nl-2-8-2", "bot-nl-2-8-3", "bot-nl-2-8-4", "bot-nl-2-8-5", "bot-nl-2-8-6"]
    seats = [seat(i + 1, n) for i, n in enumerate(names)]
    hand = hand_view(
        [
            hand_seat(1, 198, wager=2, cards=MY_CARDS),
            hand_seat(2, 194, wager=6),
            hand_seat(3, 200),
            hand_seat(4, 200, folded=True, count=0),
            hand_seat(5, 194, wager=6),
            hand_seat(6, 199, wager=1),
        ],
        to_act=1,
        the_legal=legal(1, call=4, min_to=10, max_to=200),
    )
    return table_state(seats, hand, table=table, **extra)


MOUNT = """async ({ table, state, me, motion }) => {
  const app = window.drawpoker;
  const sent = [];
  window.__sent = sent;
  window.__replies = {};
  const dialog = document.getElementById("dialog");
  if (dialog.open) dialog.close();
  document.getElementById("toast").replaceChildren(); // (a previous test's notices)
  for (const key of Object.keys(sessionStorage)) {
    if (key.startsWith("dp.marks.")) sessionStorage.removeItem(key); // (and their marks)
  }
  app.socket = {
    ws: null, delay: 250,
    send: async (m) => {
      sent.push(m);
      return window.__replies[m.type] ?? { type: "ok", detail: {} };
    },
    reconnect() {}, open: async () => true,
  };
  app.me = me;
  app.refreshMe = async () => app.me;
  location.hash = `#/table/${encodeURIComponent(table)}`;
  const until = Date.now() + 5000;
  while (!(app.view && app.view.id === table) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 20));
  }
  const sound = await import("/static/sound.js");
  sound.setMotion(motion);
  sound.setSound(true);
  window.__v = 1;
  window.__push = (event) => app.view.onMessage({ type: "event", table, v: ++window.__v, event });
  app.view.onMessage({ type: "snapshot", table, v: 1, state });
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
}"""

ME = {"id": 7, "name": "ann", "kind": "guest", "balance": 5000, "stacks": {}}


def mount(
    page: Any, state: dict[str, Any], me: dict[str, Any] | None = None, *, motion: bool = False
) -> None:
    """Show ``state`` (a snapshot's ``state``) as the table ``state["table"]``, sound on
    and animations off unless ``motion`` (so boxes are measured where they stay)."""
    me = ME if me is None else me
    args = {"table": state["table"], "state": state, "me": me, "motion": motion}
    page.evaluate(MOUNT, args)
    page.wait_for_selector(".felt .seat")
    settle(page)


def push(page: Any, *events: dict[str, Any]) -> None:
    for event in events:
        page.evaluate("(e) => window.__push(e)", event)
    settle(page)


SETTLE = """async () => {
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const finite = document.getAnimations()
    .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity);
  await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
}"""


def settle(page: Any) -> None:
    """The resize observers have laid the felt out and the animations have ended
    (chips slid to their place, cards dealt)."""
    page.evaluate(SETTLE)


def sent(page: Any) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = page.evaluate("() => window.__sent")
    return messages


def sent_of(page: Any, kind: str) -> dict[str, Any]:
    """The last message of type ``kind`` the client sent (waiting for it a little)."""
    wait_for_js(page, f"window.__sent.some((m) => m.type === {json.dumps(kind)})")
    return [m for m in sent(page) if m["type"] == kind][-1]


def reply(page: Any, kind: str, answer: dict[str, Any]) -> None:
    """Answer every later ``kind`` message with ``answer`` (an ``ok`` or ``error`` frame)."""
    page.evaluate(
        "([k, a]) => { window.__replies = window.__replies || {}; window.__replies[k] = a; }",
        [kind, answer],
    )


BOX = """(sel) => [...document.querySelectorAll(sel)].filter((el) => el.getClientRects().length)
  .map((el) => { const r = el.getBoundingClientRect();
    return { x: r.left, y: r.top, w: r.width, h: r.height, right: r.right, bottom: r.bottom,
             id: el.id,
             text: (el.innerText || el.getAttribute('aria-label') || '').slice(0, 40) }; })"""


def boxes(page: Any, selector: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate(BOX, selector)
    return found


def overlaps(a: dict[str, Any], b: dict[str, Any], slack: float = 0.5) -> bool:
    return (
        a["x"] < b["right"] - slack
        and b["x"] < a["right"] - slack
        and a["y"] < b["bottom"] - slack
        and b["y"] < a["bottom"] - slack
    )


def inside_viewport(page: Any, box: dict[str, Any]) -> bool:
    size = page.viewport_size
    return (
        box["x"] >= -0.5
        and box["y"] >= -0.5
        and box["right"] <= size["width"] + 0.5
        and box["bottom"] <= size["height"] + 0.5
    )
