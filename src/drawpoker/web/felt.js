// The felt: seats around the table, the dealer button, bets, the pot, the drew
// badges and the showdown. Shared by the live table and the replayer.
//
// Seats are laid out in pixels inside the stage (``layoutFelt``), so that every
// seat stays inside it on any screen and every bet sits between its seat and the
// middle without touching the seat's plate. ``layoutFelt`` runs again when the
// stage changes size.

import { h, clear, chips } from "./dom.js";
import { t, cardName, handDescription, places } from "./i18n.js";
import { pots } from "./state.js";
import { cardSvg, rankText } from "./cards.js";
import { noteOf } from "./notes.js";

const SUIT = { s: "♠", h: "♥", d: "♦", c: "♣" };
const DEAL_MS = 900;

export function cardText(card) {
  return `${rankText(card)}${SUIT[card[1]]}`;
}

/** Log parameters as display text: chips, cards, hand descriptions. */
export function fmt(params = {}) {
  const out = {};
  for (const [k, v] of Object.entries(params)) {
    if (k === "cards") out[k] = v.map(cardText).join(" ");
    else if (k === "desc") out[k] = v ? handDescription(v) : "";
    else if (k === "n" && typeof v === "number") out[k] = chips(v);
    else if (k === "places") out[k] = places(v);
    else if (["sb", "bb", "ante"].includes(k) && typeof v === "number") out[k] = chips(v);
    else out[k] = v;
  }
  return out;
}

export function logLine(entry) {
  return t(entry.key, fmt(entry.params));
}

/** Names as the seats show them: whole when short, else the start and the end
 * ("bot-n…-8-3"), long enough that no two seats look alike. */
export function shortNames(names, max) {
  const long = names.filter((n) => n.length > max);
  if (!long.length) return new Map(names.map((n) => [n, n]));
  for (let tail = 3; tail <= max - 2; tail += 1) {
    const cut = (n) => (n.length > max ? `${n.slice(0, max - 1 - tail)}…${n.slice(-tail)}` : n);
    const out = names.map(cut);
    if (new Set(out).size === new Set(names).size) return new Map(names.map((n, i) => [n, out[i]]));
  }
  return new Map(names.map((n) => [n, n]));
}

/** A seat's badge for the draw: "drew 3", "stood pat" (from the draw to the hand's end). */
export function drewText(drew) {
  if (drew === null || drew === undefined) return "";
  return drew === 0 ? t("badge.stood_pat") : t("badge.drew", { n: drew });
}

function miniCards(p, showFaces, dealing) {
  const box = h("div", { class: `seat-cards${p?.shown ? " shown-cards" : ""}` });
  if (!p || p.folded) return box;
  if (p.cards && showFaces) {
    for (const c of p.cards) {
      box.append(h("span", { class: "mini-card", role: "img", "aria-label": c ? cardName(c) : t("card.back"),
        html: cardSvg(c) }));
    }
  } else {
    for (let k = 0; k < p.count; k += 1) {
      box.append(h("span", { class: `mini-card back${dealing ? " deal" : ""}`, "aria-hidden": "true",
        style: dealing ? `animation-delay:${k * 60}ms` : null, html: cardSvg(null) }));
    }
  }
  return box;
}

function waitingText(s) {
  if (s.sitting_out) return t("seat.sitting_out");
  if (s.leaving) return t("seat.leaving");
  if (s.waiting === "big_blind") return t("seat.waits_bb");
  if (s.waiting === "post") return t("seat.will_post");
  if (s.waiting === "next_hand") return t("seat.next_hand");
  return "";
}

/** Render a table (live or replayed) into ``stage``. */
export function renderFelt(stage, table, { onSit = null, onNotes = null, replay = false, me = null } = {}) {
  const previousBets = stage._bets ?? new Map();
  clear(stage);
  stage.dataset.street = table.hand?.street ?? "";
  stage.dataset.hand = table.hand?.id ?? "";
  const result = table.result && (!table.hand || table.result.handId === table.hand.id) ? table.result : null;
  stage.dataset.showdown = result?.shown?.length ? "1" : "";
  stage.dataset.seats = table.maxSeats;
  stage.append(h("div", { class: "felt-oval", "aria-hidden": "true" }));
  const n = table.maxSeats;
  const anchor = table.you || 1;
  const hand = table.hand;
  const winners = new Map();
  for (const pot of result?.pots ?? []) {
    for (const [seat, amount] of pot.shares) winners.set(seat, (winners.get(seat) ?? 0) + amount);
  }
  const dealing = !replay && Boolean(hand?.dealtAt) && Date.now() - hand.dealtAt < DEAL_MS;
  const bets = new Map();
  for (let seat = 1; seat <= n; seat += 1) {
    const i = (seat - anchor + n) % n;
    const s = table.seats[seat];
    const p = hand?.players[seat];
    const dealer = table.button === seat
      ? h("span", { class: "dealer", title: t("table.dealer"), role: "img", "aria-label": t("table.dealer") }, "D")
      : null;
    if (!s) {
      stage.append(h("div", { class: "seat empty", dataset: { seat, slot: i } }, dealer,
        onSit && !table.you
          ? h("button", { class: "btn small sit", onclick: () => onSit(seat),
            "aria-label": t("table.sit_at", { n: seat }) }, t("table.sit"))
          : h("span", { class: "empty-label" }, t("table.empty"))));
      continue;
    }
    const classes = ["seat"];
    if (seat === table.you) classes.push("me");
    if (hand && hand.toAct === seat && hand.street !== "over") classes.push("to-act");
    if (p?.folded) classes.push("folded");
    if (s.sitting_out) classes.push("out");
    if (winners.has(seat)) classes.push("winner");
    if (p?.allIn) classes.push("all-in");
    const stack = p ? p.stack : s.stack;
    let status = "";
    if (winners.has(seat)) status = t("seat.wins", { n: chips(winners.get(seat)) });
    else if (p?.shown) status = handDescription(p.shown);
    else if (p?.last) status = t(p.last.key, fmt(p.last.params));
    else if (!p) status = waitingText(s);
    if (!status && !s.connected) status = t("seat.away");
    const showFaces = Boolean(p?.cards) && (seat !== table.you || replay || Boolean(p?.shown));
    const drew = p && !p.folded ? drewText(p.drew) : "";
    const note = onNotes && seat !== table.you ? noteOf(me, s.name) : "";
    const label = [s.name, s.bot ? t("seat.bot") : "", replay && seat === table.you ? t("seat.you") : "",
      t("seat.stack_of", { n: chips(stack) }), drew, status,
      note ? t("notes.has_note") : ""]
      .filter(Boolean).join(", ");
    const plateBody = [
      h("div", { class: "seat-name", title: s.name }, h("span", { class: "nm" }, s.name),
        s.bot ? h("span", { class: "tag bot" }, t("seat.bot")) : null,
        replay && seat === table.you ? h("span", { class: "tag you" }, t("seat.you")) : null,
        note ? h("span", { class: "note-mark", title: note, "aria-hidden": "true" }, "✎") : null),
      h("div", { class: "seat-stack" }, chips(stack), p?.allIn ? h("span", { class: "tag" }, t("seat.all_in")) : null),
      h("div", { class: "seat-status" }, status),
      hand && hand.toAct === seat && hand.street !== "over" && !replay
        ? h("div", { class: "clock-bar" }, h("span", { class: "clock-fill" })) : null,
    ];
    const plate = onNotes && seat !== table.you
      ? h("button", { class: "seat-plate", type: "button", onclick: () => onNotes(s.name),
        "aria-label": t("notes.open", { name: s.name }) }, ...plateBody)
      : h("div", { class: "seat-plate" }, ...plateBody);
    stage.append(h("div", { class: classes.join(" "), dataset: { seat, slot: i }, role: "group", "aria-label": label },
      miniCards(p, showFaces, dealing),
      dealer,
      plate,
      drew ? h("span", { class: `drew-badge${p.drew === 0 ? " pat" : ""}`, dataset: { drew: p.drew } }, drew) : null,
    ));
    if (p && p.wager > 0) {
      const blind = hand?.blinds?.[seat];
      const moved = !replay && (previousBets.get(seat) ?? 0) < p.wager;
      bets.set(seat, p.wager);
      stage.append(h("div", { class: `bet${moved ? " moved" : ""}`, dataset: { seat } },
        blind && !p.last?.key?.startsWith("act.") ? h("span", { class: "blind" }, t(`blind.${blind.replace(/ /g, "_")}`)) : null,
        chips(p.wager)));
    }
  }
  stage._bets = bets;
  const center = h("div", { class: "center" });
  if (hand) {
    const list = pots(hand);
    const potText = list.length > 1
      ? list.map((amount, k) => (k === 0 ? t("table.main_pot", { n: chips(amount) }) : t("table.side_pot", { i: k, n: chips(amount) }))).join(" · ")
      : t("table.pot", { n: chips(hand.pot) });
    center.append(h("div", { class: "pot", id: "pot" }, potText));
    center.append(h("div", { class: "street" }, t(`street.${hand.street}`)));
  } else if (table.carried) {
    center.append(h("div", { class: "pot" }, t("table.carried", { n: chips(table.carried) })));
  }
  if (result && !result.shown?.length && (result.pots.length || result.carried)) {
    center.append(resultBox(result, "result"));
  }
  stage.append(center);
  if (result?.shown?.length) stage.append(showdownPanel(result, table.you));
  layoutFelt(stage);
}

/** The shown hands, legible on any screen: name, cards, the whole description, winnings. */
export function showdownPanel(result, you = null, id = "result") {
  const won = new Map();
  for (const pot of result.pots) {
    for (const [seat, amount] of pot.shares) won.set(seat, (won.get(seat) ?? 0) + amount);
  }
  const name = (seat) => result.names?.[seat] ?? t("seat.number", { n: seat });
  const panel = h("div", { class: "showdown", id, role: "status", "aria-label": t("showdown.title") });
  for (const shown of result.shown) {
    const amount = won.get(shown.seat);
    panel.append(h("div", { class: `sd-row${amount ? " won" : ""}${shown.seat === you ? " mine" : ""}`,
      dataset: { seat: shown.seat } },
    h("div", { class: "sd-who" }, h("strong", { class: "sd-name" }, name(shown.seat)),
      amount ? h("span", { class: "sd-win" }, t("seat.wins", { n: chips(amount) })) : null),
    h("div", { class: "sd-cards" }, shown.cards.map((c) => h("span", { class: "sd-card", role: "img",
      "aria-label": cardName(c), html: cardSvg(c) }))),
    h("div", { class: "sd-desc" }, handDescription(shown.desc))));
  }
  const shownSeats = new Set(result.shown.map((s) => s.seat));
  for (const [seat, amount] of won) {
    if (!shownSeats.has(seat)) panel.append(h("div", { class: "winner-line" }, t("result.wins", { who: name(seat), n: chips(amount), pot: t("result.pot") })));
  }
  if (result.carried) panel.append(h("div", {}, t("result.carried", { n: chips(result.carried) })));
  return panel;
}

/** The hand-end summary in words: pots and winners (with the winning hand). */
export function resultBox(result, id) {
  const box = h("div", { class: "result", id, role: "status" });
  const name = (seat) => result.names?.[seat] || t("seat.number", { n: seat });
  const descOf = (seat) => result.shown?.find((s) => s.seat === seat)?.desc;
  for (const pot of result.pots) {
    for (const [seat, amount] of pot.shares) {
      const desc = descOf(seat);
      const potName = result.pots.length > 1
        ? (pot.index === 0 ? t("result.main") : t("result.side", { i: pot.index })) : t("result.pot");
      box.append(h("div", { class: "winner-line" },
        desc
          ? t("result.wins_with", { who: name(seat), n: chips(amount), pot: potName, desc: handDescription(desc) })
          : t("result.wins", { who: name(seat), n: chips(amount), pot: potName })));
    }
  }
  if (result.carried) box.append(h("div", {}, t("result.carried", { n: chips(result.carried) })));
  return box;
}

function rectOf(el) {
  return { w: el.offsetWidth, h: el.offsetHeight };
}

/** Names that do not fit their plate are shortened (the start and the end), just
 * enough to fit, and never so that two seats read the same. */
function fitNames(stage) {
  const els = [...stage.querySelectorAll(".seat-name")];
  const full = els.map((el) => el.title);
  for (const el of els) el.querySelector(".nm").textContent = el.title;
  for (let max = 18; max >= 5; max -= 1) {
    const over = els.filter((el) => el.scrollWidth > el.clientWidth + 1);
    if (!over.length) return;
    const short = shortNames(full, max);
    for (const el of over) el.querySelector(".nm").textContent = short.get(el.title) ?? el.title;
  }
}

/** Place the seats around the stage and each bet between its seat and the middle. */
export function layoutFelt(stage) {
  const W = stage.clientWidth;
  const H = stage.clientHeight;
  if (!W || !H) return;
  stage.dataset.compact = H < 330 && W < 600 ? "1" : ""; // a small phone: smaller seats
  fitNames(stage);
  const seats = [...stage.querySelectorAll(":scope > .seat")];
  const n = seats.length || 1;
  const boxes = new Map();
  const pad = 2;
  // Around a rounded rectangle (a superellipse), not an ellipse: on a wide, low
  // table the side seats spread up and down instead of piling onto each other.
  const squircle = (v) => Math.sign(v) * Math.abs(v) ** 0.5;
  for (const el of seats) {
    const i = Number(el.dataset.slot);
    const angle = Math.PI / 2 + (2 * Math.PI * i) / n;
    const { w, h: ht } = rectOf(el);
    const x = W / 2 + squircle(Math.cos(angle)) * Math.max(0, W / 2 - w / 2 - pad);
    const y = H / 2 + squircle(Math.sin(angle)) * Math.max(0, H / 2 - ht / 2 - pad);
    el.style.left = `${Math.round(x - w / 2)}px`;
    el.style.top = `${Math.round(y - ht / 2)}px`;
    el.style.setProperty("--dx", `${Math.round(W / 2 - x)}px`);
    el.style.setProperty("--dy", `${Math.round(H / 2 - y)}px`);
    boxes.set(el.dataset.seat, { x, y, w, h: ht });
  }
  // Each bet just outside its seat, towards the middle (or straight across, or up
  // or down, when that is closer): at the nearest spot that covers no plate, no
  // other bet and not the pot; on a crowded small table, the spot that covers
  // least (a plate counting most, a seat's cards least).
  const plates = [];
  const cards = [...boxes.values()];
  for (const el of seats) {
    const plate = el.querySelector(".seat-plate");
    const box = boxes.get(el.dataset.seat);
    if (!plate || !box) continue;
    plates.push({ x: box.x - box.w / 2 + plate.offsetLeft + plate.offsetWidth / 2,
      y: box.y - box.h / 2 + plate.offsetTop + plate.offsetHeight / 2, w: plate.offsetWidth, h: plate.offsetHeight });
  }
  const others = [];
  const middle = stage.querySelector(":scope > .center .pot");
  if (middle) {
    const sr = stage.getBoundingClientRect();
    const mr = middle.getBoundingClientRect();
    others.push({ x: mr.left - sr.left + mr.width / 2, y: mr.top - sr.top + mr.height / 2, w: mr.width, h: mr.height });
  }
  const area = (a, b) => Math.max(0, Math.min(a.x + a.w / 2, b.x + b.w / 2) - Math.max(a.x - a.w / 2, b.x - b.w / 2))
    * Math.max(0, Math.min(a.y + a.h / 2, b.y + b.h / 2) - Math.max(a.y - a.h / 2, b.y - b.h / 2));
  for (const bet of stage.querySelectorAll(":scope > .bet")) {
    const box = boxes.get(bet.dataset.seat);
    if (!box) continue;
    const { w: bw, h: bh } = rectOf(bet);
    const spotAt = (x, y) => ({ x: Math.min(Math.max(x, bw / 2), W - bw / 2),
      y: Math.min(Math.max(y, bh / 2), H - bh / 2), w: bw + 4, h: bh + 4 });
    const cost = (spot) => 3 * plates.reduce((sum, b) => sum + area(spot, b), 0)
      + 2 * others.reduce((sum, b) => sum + area(spot, b), 0)
      + cards.reduce((sum, b) => sum + area(spot, b), 0);
    const toX = W / 2 - box.x;
    const toY = H / 2 - box.y;
    let best = null;
    const turn = (a) => [toX * Math.cos(a) - toY * Math.sin(a), toX * Math.sin(a) + toY * Math.cos(a)];
    for (const [ux, uy] of [[toX, toY], [toX, 0], [0, toY], turn(0.6), turn(-0.6), turn(1.1), turn(-1.1)]) {
      const len = Math.hypot(ux, uy);
      if (len < 1) continue;
      const dx = ux / len;
      const dy = uy / len;
      const exit = (w, ht) => Math.min(Math.abs(dx) > 1e-6 ? w / 2 / Math.abs(dx) : Infinity,
        Math.abs(dy) > 1e-6 ? ht / 2 / Math.abs(dy) : Infinity);
      for (let along = exit(box.w, box.h) * 0.5; along <= len; along += 3) {
        const spot = spotAt(box.x + dx * along, box.y + dy * along);
        const score = [cost(spot), along];
        if (!best || score[0] < best[0][0] || (score[0] === best[0][0] && score[1] < best[0][1])) best = [score, spot];
        if (score[0] === 0) break;
      }
    }
    const spot = best ? best[1] : spotAt(box.x + toX / 2, box.y + toY / 2);
    others.push({ ...spot, w: bw, h: bh });
    bet.style.left = `${Math.round(spot.x - bw / 2)}px`;
    bet.style.top = `${Math.round(spot.y - bh / 2)}px`;
    bet.style.setProperty("--dx", `${Math.round(box.x - spot.x)}px`);
    bet.style.setProperty("--dy", `${Math.round(box.y - spot.y)}px`);
  }
}
