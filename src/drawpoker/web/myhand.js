// Your cards under the table: tap to mark them for the draw, the hand's strength,
// and — with no cards — why: sitting out, waiting for the big blind, a full table
// and its waiting list, or a seat to take.

import { h, clear } from "./dom.js";
import { t, cardName, handDescription } from "./i18n.js";
import { cardSvg } from "./cards.js";
import { setWaiting } from "./seat.js";

/** Why a seated player has no cards now, in their words. */
export function waitingHint(view) {
  const table = view.table;
  const me = table.seats[table.you];
  const p = view.mine();
  if (p?.folded) return view.myLegal()?.ask_openers ? t("table.you_folded_openers") : t("table.you_folded"); // (R48)
  if (!me) return "";
  if (me.leaving) return t("table.leaving");
  if (me.sitting_out) return t("table.you_sit_out");
  if (!(me.stack > 0) && !(me.pending_top_up > 0)) return t("table.no_chips");
  if (me.waiting === "big_blind") return t("table.wait_bb");
  if (me.waiting === "post") return t("table.wait_post");
  if (me.sit_out_next) return t("table.sit_out_next");
  return t("table.wait_next");
}

export function renderHand(view) {
  const table = view.table;
  const p = view.mine();
  const me = table.seats[table.you];
  const hand = table.hand;
  const full = Object.keys(table.seats).length >= table.maxSeats;
  const waitingList = table.waitingList ?? [];
  // Rebuild only when something shown changes, so a tap is never lost to a redraw.
  const key = JSON.stringify([table.you, p?.cards, p?.folded, p?.shown, p?.fresh, [...view.marks],
    view.canMark(), document.documentElement.lang, table.maxSeats, Object.keys(table.seats).length,
    hand?.myHand, waitingHint(view), full, waitingList, view.app.me?.name]);
  if (key === view.handKey) return;
  view.handKey = key;
  const box = clear(view.el.querySelector("#my-hand"));
  box.setAttribute("aria-label", t("table.your_cards"));
  if (!table.you && table.tournament) {
    box.append(h("div", { class: "hint" }, table.finished ? t("tour.out_hint") : t("tour.spectating")));
    return;
  }
  if (!table.you && full) {
    const name = view.app.me?.name;
    const place = name ? waitingList.indexOf(name) : -1;
    box.append(h("div", { class: "hint", id: "table-full" }, t("wait.full"),
      waitingList.length ? ` ${t("wait.list", { names: waitingList.join(", ") })}` : ""),
    place >= 0
      ? h("button", { class: "btn", id: "unwait", onclick: () => setWaiting(view, false) },
        t("wait.leave", { n: place + 1 }))
      : h("button", { class: "btn primary", id: "wait", onclick: () => setWaiting(view, true) },
        t("wait.join")));
    return;
  }
  if (!table.you) {
    box.append(h("div", { class: "hint" }, t("table.spectating")),
      h("button", { class: "btn primary", id: "take-seat", onclick: () => {
        const free = [...Array(table.maxSeats).keys()].map((k) => k + 1).find((s) => !table.seats[s]);
        if (free) view.sitDialog(free);
      } }, t("table.take_seat")));
    return;
  }
  if (!p || !p.cards || p.folded) {
    box.append(h("div", { class: "hint", id: "my-status" }, waitingHint(view)));
    return;
  }
  const markable = view.canMark();
  const cards = h("div", { class: "cards" });
  p.cards.forEach((card, k) => {
    const marked = card && view.marks.has(card);
    const fresh = card && p.fresh?.includes(card);
    const label = card ? cardName(card) : t("card.coming");
    cards.append(h("button", {
      class: `card${marked ? " marked" : ""}${fresh ? " fresh" : ""}`,
      dataset: { card: card ?? "", index: k },
      "aria-pressed": markable ? String(Boolean(marked)) : null,
      "aria-label": marked ? t("card.marked", { card: label }) : label,
      title: markable ? `${k + 1}: ${t("table.tap_to_mark")}` : label,
      disabled: !markable || !card,
      onclick: () => view.toggleMark(card),
      html: cardSvg(card),
    }));
  });
  box.append(cards);
  const strength = p.shown ?? hand?.myHand;
  if (strength) box.append(h("div", { class: "my-desc", id: "my-strength" }, t("table.my_hand", { desc: handDescription(strength) })));
  if (me?.sit_out_next) box.append(h("div", { class: "hint" }, t("table.sit_out_next")));
}
