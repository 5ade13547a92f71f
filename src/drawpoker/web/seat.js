// The player's seat at a cash table: sitting down, top-ups and the automatic
// top-up, sitting out (now, or after this hand), leaving, and the waiting list of
// a full table with the seat it offers. Each command says what it did.

import { h, clear, chips } from "./dom.js";
import { t, errorText } from "./i18n.js";

const unsupported = (reply) => reply.type === "error" && reply.code === "unknown_type";

function autoKey(table) {
  return `dp.autotopup.${table}`;
}

/** The automatic top-up this browser asked for at ``table`` (amount or null). */
export function autoTopUpOf(view) {
  if (view.table && view.table.autoTopUp !== undefined) return view.table.autoTopUp; // (the server's word)
  const seat = view.table?.seats[view.table.you];
  if (seat && "auto_top_up" in seat) return seat.auto_top_up ?? null;
  const saved = Number(localStorage.getItem(autoKey(view.id)));
  return saved > 0 ? saved : null;
}

export async function sitDialog(view, seat) {
  const app = view.app;
  if (!(await app.requireAccount())) return;
  const table = view.table;
  const dialog = clear(document.getElementById("dialog"));
  const max = Math.min(table.maxBuyIn, app.me?.balance ?? table.maxBuyIn);
  const value = Math.max(table.minBuyIn, max);
  const input = h("input", { type: "number", id: "buyin-amount", min: table.minBuyIn, max: table.maxBuyIn, value, step: 1 });
  const range = h("input", { type: "range", id: "buyin-range", min: table.minBuyIn, max: table.maxBuyIn, value, step: 1,
    "aria-label": t("table.buy_in") });
  range.addEventListener("input", () => { input.value = range.value; });
  input.addEventListener("input", () => { range.value = input.value; });
  const error = h("p", { class: "error", role: "alert" });
  const post = h("input", { type: "checkbox", id: "buyin-post", checked: true });
  const form = h("form", { method: "dialog", onsubmit: async (ev) => {
    ev.preventDefault();
    const reply = await app.socket.send({
      type: "sit", table: view.id, seat, buy_in: Number(input.value), post: post.checked && !table.italian,
    });
    if (reply.type === "error") {
      error.textContent = errorText(reply);
      return;
    }
    dialog.close("ok");
    table.you = seat;
    table.myName = app.me?.name ?? null;
    table.offer = null;
    view.render();
    app.refreshMe();
    view.resnapshot(); // the server's figures for the new seat (its time bank, how it comes in)
  } },
  h("h2", {}, t("table.sit_title", { n: seat })),
  h("p", {}, t("table.buy_in_range", { min: chips(table.minBuyIn), max: chips(table.maxBuyIn) })),
  h("label", {}, t("table.buy_in"), input), range,
  table.italian ? null : h("label", { class: "check" }, post, t("table.post_now")),
  error,
  h("div", { class: "row" },
    h("button", { class: "btn primary", type: "submit", id: "buyin-submit" }, t("table.sit_down")),
    h("button", { class: "btn", type: "button", onclick: () => dialog.close("cancel") }, t("common.cancel"))));
  dialog.append(form);
  dialog.showModal();
}

/** Chips the player may still add: up to the table maximum, a held top-up counted. */
export function topUpRoom(view) {
  const table = view.table;
  const s = table.seats[table.you];
  if (!s) return 0;
  const stack = table.hand?.players[table.you]?.stack ?? s.stack;
  return Math.max(0, table.maxBuyIn - stack - (s.pending_top_up ?? 0));
}

export function topUpDialog(view) {
  const app = view.app;
  const room = topUpRoom(view);
  if (!room) {
    app.toast(t("table.topup_full"));
    return;
  }
  const dialog = clear(document.getElementById("dialog"));
  const input = h("input", { type: "number", id: "topup-amount", min: 1, max: room, value: room, step: 1 });
  const error = h("p", { class: "error", role: "alert" });
  dialog.append(h("form", { method: "dialog", onsubmit: async (ev) => {
    ev.preventDefault();
    const reply = await app.socket.send({ type: "top_up", table: view.id, amount: Number(input.value) });
    if (reply.type === "error") {
      error.textContent = errorText(reply);
      return;
    }
    dialog.close("ok");
    app.toast(reply.detail?.pending ? t("table.topup_pending", { n: chips(reply.detail.pending) })
      : t("table.topup_done", { n: chips(reply.detail?.stack ?? 0) }));
    app.refreshMe();
  } },
  h("h2", {}, t("table.top_up")),
  h("p", {}, t("table.topup_room", { n: chips(room) })),
  h("label", {}, t("table.amount"), input), error,
  h("div", { class: "row" },
    h("button", { class: "btn primary", type: "submit", id: "topup-submit" }, t("table.top_up")),
    h("button", { class: "btn", type: "button", onclick: () => dialog.close("cancel") }, t("common.cancel")))));
  dialog.showModal();
}

export async function sitOut(view) {
  const reply = await view.send({ type: "sit_out" });
  const me = view.table.seats[view.table.you];
  if (reply.type === "ok" && me && !me.sitting_out) {
    if (view.inHand()) {
      me.sit_out_next = true;
      view.app.toast(t("table.sit_out_next"));
    } else {
      me.sitting_out = true;
      view.app.toast(t("table.sat_out"));
    }
  }
  view.render();
}

export async function sitIn(view) {
  view.sitInPending = true;
  view.render();
  const reply = await view.send({ type: "sit_in", post: true });
  view.sitInPending = false;
  const me = view.table.seats[view.table.you];
  if (reply.type === "ok" && me) {
    const wasOut = me.sitting_out;
    me.sitting_out = false;
    me.sit_out_next = false;
    const waiting = reply.detail?.waiting ?? me.waiting ?? null;
    me.waiting = waiting;
    if (!wasOut) view.app.toast(t("table.sit_out_cancelled"));
    else view.app.toast(waiting === "big_blind" ? t("table.back_wait_bb") : t("table.back_next_hand"));
  }
  view.render();
}

/** "Sit out next hand": sit out when this hand is over (or cancel that). */
export async function setSitOutNext(view, on) {
  const me = view.table.seats[view.table.you];
  if (!me) return;
  let reply = await view.send({ type: "sit_out_next", on }, { quiet: true });
  if (unsupported(reply)) reply = await view.send(on ? { type: "sit_out" } : { type: "sit_in", post: true });
  else if (reply.type === "error") view.app.toast(errorText(reply), "error");
  if (reply.type === "ok") {
    me.sit_out_next = on && view.inHand();
    if (on && !view.inHand()) me.sitting_out = true;
    if (!on) me.sitting_out = false;
    view.app.toast(on ? (view.inHand() ? t("table.sit_out_next") : t("table.sat_out")) : t("table.sit_out_cancelled"));
  }
  view.render();
}

/** Keep the stack topped up to ``amount`` between hands (null: off). */
export async function setAutoTopUp(view, amount) {
  const reply = await view.send({ type: "auto_top_up", amount }, { quiet: true });
  if (reply.type === "error") {
    view.app.toast(unsupported(reply) ? t("table.auto_topup_unavailable") : errorText(reply), "error");
    view.render();
    return;
  }
  if (amount) localStorage.setItem(autoKey(view.id), String(amount));
  else localStorage.removeItem(autoKey(view.id));
  view.table.autoTopUp = reply.detail && "auto_top_up" in reply.detail ? reply.detail.auto_top_up : amount;
  view.app.toast(amount ? t("table.auto_topup_on", { n: chips(amount) }) : t("table.auto_topup_off"));
  view.render();
}

export async function leave(view) {
  const reply = await view.send({ type: "leave" });
  if (reply.type === "ok") {
    const me = view.table.seats[view.table.you];
    if (reply.detail?.leaving && me) me.leaving = true;
    view.app.toast(reply.detail?.leaving ? t("table.leaving") : t("table.left"));
    view.app.refreshMe();
    view.render();
  }
}

/** Join (``on``) or leave the waiting list of a full table. */
export async function setWaiting(view, on) {
  if (on && !(await view.app.requireAccount())) return;
  const reply = await view.send({ type: on ? "wait" : "unwait" }, { quiet: true });
  if (reply.type === "error") {
    view.app.toast(unsupported(reply) ? t("wait.unavailable") : errorText(reply), "error");
    return;
  }
  const name = view.app.me?.name;
  const list = view.table.waitingList;
  if (on && name && !list.includes(name)) list.push(name);
  if (!on) view.table.waitingList = list.filter((n) => n !== name);
  view.app.toast(on ? t("wait.joined") : t("wait.left"));
  view.render();
}

/** The private SeatOffered: a seat is held for this player for a while. */
export function offerDialog(view) {
  const offer = view.table.offer;
  if (!offer) return;
  const dialog = clear(document.getElementById("dialog"));
  const left = h("span", { id: "offer-left", dataset: { until: offer.until } });
  dialog.append(
    h("h2", {}, t("wait.offer_title")),
    h("p", { id: "offer-text" }, t("wait.offer", { n: offer.seat }), " ", left),
    h("div", { class: "row" },
      h("button", { class: "btn primary", id: "offer-take", onclick: () => {
        dialog.close("ok");
        sitDialog(view, offer.seat);
      } }, t("table.sit_down")),
      h("button", { class: "btn", id: "offer-decline", onclick: () => {
        dialog.close("cancel");
        view.table.offer = null;
        setWaiting(view, false);
      } }, t("wait.decline"))),
  );
  if (!dialog.open) dialog.showModal();
}

/** The table's controls for a seated player (sit out or in, top up, leave, sit
 * out next hand, the automatic top-up), or the tournament lobby's link. */
export function renderControls(view, box) {
  const controls = clear(box);
  const table = view.table;
  const el = view.el;
  const toggle = el.querySelector("#table-menu-btn");
  const me = table.seats[table.you];
  toggle.hidden = Boolean(table.tournament) || !me;
  toggle.textContent = `☰ ${t("table.menu")}`;
  toggle.setAttribute("aria-expanded", String(view.menuOpen));
  controls.classList.toggle("open", view.menuOpen);
  if (table.tournament) {
    controls.append(h("a", { class: "btn small", id: "tour-lobby-link",
      href: `#/tournament/${encodeURIComponent(table.tournament.id)}` }, t("tour.lobby")));
    return;
  }
  if (!me) return;
  const room = topUpRoom(view);
  const auto = autoTopUpOf(view);
  const autoAmount = h("input", { type: "number", id: "auto-topup-amount", min: table.minBuyIn, max: table.maxBuyIn,
    step: 1, value: auto ?? table.maxBuyIn, "aria-label": t("table.auto_topup_amount") });
  controls.append(
    me.sitting_out || me.sit_out_next
      ? h("button", { class: "btn small", id: "sit-in", disabled: view.sitInPending,
        onclick: () => sitIn(view) }, view.sitInPending ? t("table.sitting_in") : t("table.sit_in"))
      : h("button", { class: "btn small", id: "sit-out", onclick: () => sitOut(view) }, t("table.sit_out")),
    h("button", { class: "btn small", id: "top-up", disabled: !room,
      title: room ? t("table.topup_room", { n: chips(room) }) : t("table.topup_full"),
      onclick: () => topUpDialog(view) }, t("table.top_up")),
    h("button", { class: "btn small danger", id: "leave", disabled: Boolean(me.leaving),
      onclick: () => leave(view) }, t("table.leave")),
    me.sitting_out ? null : h("label", { class: "check" },
      h("input", { type: "checkbox", id: "sit-out-next", checked: Boolean(me.sit_out_next),
        onchange: (ev) => setSitOutNext(view, ev.target.checked) }), t("table.sit_out_next_box")),
    h("div", { class: "auto-topup" },
      h("label", { class: "check" },
        h("input", { type: "checkbox", id: "auto-topup", checked: auto !== null,
          onchange: (ev) => setAutoTopUp(view, ev.target.checked ? Number(autoAmount.value) : null) }),
        t("table.auto_topup")),
      autoAmount),
  );
}
