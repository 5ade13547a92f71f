// The action bar: the clock, Fold / Check / Call / Bet-Raise with its sizer, the
// draw's Stand Pat / Discard, pre-actions while waiting (R25), asking to see the
// openers at the end of an Italian hand (R48), and the lines that say why (the
// Italian openers, the draw-clock penalty, a practice table's hint).
// Every amount and button comes from the server's ``Legal``: the presets only move
// the amount inside the legal range.

import { h, clear, chips } from "./dom.js";
import { t, tn, handDescription } from "./i18n.js";
import { cardText } from "./felt.js";
import { openersText } from "./names.js";

/** What the player owes to call now (0: nothing), and whether a bet is faced. */
export function facing(table) {
  const hand = table.hand;
  const p = hand?.players[table.you];
  if (!hand || !p) return { owe: 0, facing: false };
  const owe = Math.max(0, Math.min(hand.highest - p.wager, p.stack));
  return { owe, facing: owe > 0 };
}

export function renderActions(view) {
  const box = view.el.querySelector("#actions");
  const table = view.table;
  const hand = table.hand;
  const p = view.mine();
  const legal = view.myLegal();
  const key = JSON.stringify([legal, [...view.marks], view.autoDraw, view.betPre, view.busy, hand?.street,
    hand?.toAct, p?.drew, p?.folded, p?.penalized, hand?.highest, p?.wager, p?.stack, hand?.hint,
    document.documentElement.lang, Boolean(p), view.offline]);
  if (key === view.actionKey) return;
  view.actionKey = key;
  clear(box);
  const waiting = p && !p.folded && hand && ["pre-draw", "draw", "post-draw"].includes(hand.street);
  box.dataset.state = legal ? (legal.draw ? "draw" : "bet") : waiting ? "wait" : "idle";
  const clock = h("div", { class: "clock", id: "clock", role: "timer" }, h("span", { class: "clock-text" }),
    h("span", { class: "clock-track" }, h("span", { class: "clock-fill" })));
  if (legal && legal.ask_openers) {
    // R48: the hand is over; a player dealt in (folded or not) may ask to see the openers.
    box.dataset.state = "openers";
    box.append(clock, ...openersRequest(view, legal));
    return;
  }
  if (p && hand?.street === "openers" && hand.toAct) {
    // R48: another player may ask to see the openers now.
    const who = table.seats[hand.toAct]?.name ?? `#${hand.toAct}`;
    box.append(clock, h("p", { class: "hint", id: "openers-waiting" }, t("table.openers_waiting", { who })));
    return;
  }
  if (!p || p.folded || !hand || hand.street === "over" || hand.street === "showdown") {
    if (hand && hand.toAct && hand.street !== "over") box.append(clock);
    return;
  }
  const penalty = p.penalized && ["draw", "post-draw"].includes(hand.street)
    ? h("p", { class: "notice penalty", id: "penalty", role: "status" }, t("table.penalized")) : null;
  if (legal && legal.draw && view.autoDraw && table.preAction?.pre === "draw") {
    // The held draw (R25) is on its way: the server carries it out now.
    box.append(clock, h("p", { class: "hint", id: "auto-drawing" },
      view.marks.size ? tn("table.auto_discarding", view.marks.size) : t("table.auto_standing")));
    return;
  }
  if (legal && legal.draw) {
    const n = view.marks.size;
    box.append(...[
      clock,
      h("div", { class: "buttons" },
        h("button", { class: "btn big", id: "stand-pat", disabled: view.busy, "aria-keyshortcuts": "S",
          onclick: () => view.draw([]) }, t("action.stand_pat")),
        h("button", { class: "btn big primary", id: "discard", disabled: view.busy || n === 0, "aria-keyshortcuts": "D",
          onclick: () => view.draw([...view.marks]) }, tn("action.discard", n))),
      practiceHint(view, legal),
      h("p", { class: "hint" }, t("table.draw_hint")),
    ].filter(Boolean));
    return;
  }
  const autoDraw = () => h("label", { class: "check auto-draw" },
    h("input", { type: "checkbox", id: "pre-draw", checked: view.autoDraw, "aria-keyshortcuts": "A",
      onchange: (ev) => view.setAutoDraw(ev.target.checked) }),
    view.marks.size ? tn("pre.draw", view.marks.size) : t("pre.draw_pat"));
  if (legal) {
    clock.append(h("span", { class: "time-bank", id: "time-bank" }));
    box.append(...[clock, bettingButtons(view, legal, view.canMark() ? autoDraw() : null), penalty,
      openersHint(view, legal), practiceHint(view, legal), h("p", { class: "hint keys" }, t("table.keys"))]
      .filter(Boolean));
    return;
  }
  if (hand.toAct) box.append(clock);
  const pre = h("div", { class: "pre-actions", role: "group", "aria-label": t("pre.title") });
  const betting = hand.street === "pre-draw" || hand.street === "post-draw";
  if (betting && !p.allIn) {
    const { owe, facing: faced } = facing(table);
    const option = (kind, label) => h("label", { class: "check" },
      h("input", { type: "checkbox", id: `pre-${kind}`, checked: view.betPre?.kind === kind,
        onchange: () => view.setBetPre(kind, kind === "call" ? owe : 0) }), label);
    if (faced) {
      pre.append(option("fold_any", t("pre.fold")), option("call", t("pre.call", { n: chips(owe) })),
        option("call_any", t("pre.call_any")));
    } else {
      pre.append(option("check_fold", t("pre.check_fold")), option("check", t("pre.check")),
        option("call_any", t("pre.call_any")), option("fold_any", t("pre.fold_any")));
    }
  }
  if (view.canMark()) pre.append(autoDraw());
  box.append(pre);
  if (penalty) box.append(penalty);
  if (view.canMark()) box.append(h("p", { class: "hint" }, t("table.mark_hint")));
  else if (p.drew !== null && hand.street !== "pre-draw") box.append(h("p", { class: "hint" }, t("table.marking_over")));
}

/** R48, openers on request: ask to see the opener's openers, or not. The opener's
 * name and the penalty (already capped by the opener's stack) are the server's. */
function openersRequest(view, legal) {
  const table = view.table;
  const who = table.seats[legal.opener]?.name ?? `#${legal.opener}`;
  const ranks = t(`ranks.${String(table.facts?.openers || "JJ")[0]}`);
  const disabled = view.busy;
  const what = legal.penalty > 0
    ? t("table.ask_openers_penalty", { who, ranks, n: chips(legal.penalty) })
    : t("table.ask_openers_forfeit", { who, ranks });
  return [
    h("div", { class: "buttons", role: "group", "aria-label": t("table.ask_openers_title", { who }) },
      h("button", { class: "btn big primary", id: "ask-openers", disabled, "aria-keyshortcuts": "O",
        onclick: () => view.act("ask_openers") }, t("action.ask_openers")),
      h("button", { class: "btn big", id: "decline-openers", disabled, "aria-keyshortcuts": "N",
        onclick: () => view.act("decline") }, t("action.decline_openers"))),
    h("p", { class: "notice openers", id: "ask-openers-hint", role: "status" }, what),
    h("p", { class: "hint keys" }, t("table.keys_openers")),
  ];
}

/** The Italian game before anyone opens: why Pass may be the only choice (R38). */
function openersHint(view, legal) {
  const table = view.table;
  const hand = table.hand;
  if (!table.italian || hand.street !== "pre-draw" || hand.highest > 0) return null;
  const rule = openersText(table.facts);
  const text = legal.max_to > 0 ? t("table.openers_may", { rule }) : t("table.openers_none", { rule });
  return h("p", { class: "notice openers", id: "openers-hint" }, text);
}

/** A practice table's hint (the server's advisor): the best discard, or the hand's strength. */
function practiceHint(view, legal) {
  const hint = view.table.hand?.hint;
  if (!hint) return null;
  const box = h("div", { class: "notice practice", id: "practice-hint" });
  const desc = hint.description ? handDescription(hint.description) : "";
  if (legal.draw && Array.isArray(hint.discard)) {
    const improve = hint.improve ?? hint.odds?.improve;
    const cards = hint.discard.length ? hint.discard.map(cardText).join(" ") : "";
    box.append(h("span", {}, hint.discard.length ? t("hint.discard", { cards }) : t("hint.stand_pat"),
      typeof improve === "number" ? ` ${t("hint.improve", { n: Math.round(improve * 100) })}` : "",
      desc ? ` (${desc})` : ""));
    if (hint.discard.length) {
      box.append(h("button", { class: "btn small", id: "hint-mark", type: "button",
        onclick: () => view.markCards(hint.discard) }, t("hint.mark")));
    }
  } else if (desc) {
    box.append(h("span", {}, t("hint.hand", { desc })));
  }
  return box;
}

function bettingButtons(view, legal, extra = null) {
  const table = view.table;
  const hand = table.hand;
  const wrap = h("div", { class: "buttons" });
  const disabled = view.busy;
  if (legal.fold) {
    wrap.append(h("button", { class: "btn big danger", id: "fold", disabled, "aria-keyshortcuts": "F",
      onclick: () => view.act("fold") }, t("action.fold")));
  }
  // Italian game: before anyone opens, a check is a pass (with or without openers).
  const passing = table.italian && hand.street === "pre-draw" && hand.highest === 0;
  if (legal.check) {
    wrap.append(h("button", { class: "btn big", id: "check", disabled, "aria-keyshortcuts": "C",
      onclick: () => view.act("check") }, passing ? t("action.pass") : t("action.check")));
  }
  if (legal.call) {
    wrap.append(h("button", { class: "btn big", id: "call", disabled, "aria-keyshortcuts": "C",
      onclick: () => view.act("call") },
    legal.call_all_in ? t("action.call_all_in", { n: chips(legal.call) }) : t("action.call", { n: chips(legal.call) })));
  }
  const withExtra = (el) => (extra ? h("div", { class: "bet-area" }, el, h("div", { class: "sizer" }, extra)) : el);
  if (!(legal.max_to > 0)) return withExtra(wrap);
  const kind = legal.bet_label === "raise" ? "raise" : "bet";
  const labelKey = `action.${legal.bet_label || "bet"}`;
  if (legal.min_to === legal.max_to) {
    wrap.append(h("button", { class: "btn big primary", id: "bet", disabled, "aria-keyshortcuts": "R",
      onclick: () => view.act(kind, legal.min_to) }, t(labelKey, { n: chips(legal.min_to) })));
    return withExtra(wrap);
  }
  if (view.betValue === null || view.betValue < legal.min_to || view.betValue > legal.max_to) view.betValue = legal.min_to;
  const clamp = (v) => Math.max(legal.min_to, Math.min(legal.max_to, Math.round(v)));
  const button = h("button", { class: "btn big primary", id: "bet", disabled, "aria-keyshortcuts": "R",
    onclick: () => view.act(kind, clamp(Number(input.value))) }, t(labelKey, { n: chips(view.betValue) }));
  const range = h("input", { type: "range", id: "bet-range", min: legal.min_to, max: legal.max_to, step: 1,
    value: view.betValue, "aria-label": t("action.amount") });
  const input = h("input", { type: "number", id: "bet-amount", min: legal.min_to, max: legal.max_to, step: 1,
    value: view.betValue, inputmode: "numeric", "aria-label": t("action.amount_range", {
      min: chips(legal.min_to), max: chips(legal.max_to) }) });
  const presets = h("div", { class: "presets", role: "group", "aria-label": t("preset.title") });
  const update = (v) => {
    view.betValue = clamp(v);
    input.value = view.betValue;
    range.value = view.betValue;
    input.classList.remove("invalid");
    button.disabled = disabled;
    button.textContent = t(labelKey, { n: chips(view.betValue) });
    for (const b of presets.querySelectorAll("button")) b.setAttribute("aria-pressed", String(Number(b.dataset.to) === view.betValue));
  };
  range.addEventListener("input", () => update(Number(range.value)));
  input.addEventListener("input", () => {
    const v = Number(input.value);
    const ok = input.value !== "" && Number.isInteger(v) && v >= legal.min_to && v <= legal.max_to;
    input.classList.toggle("invalid", !ok);
    button.disabled = disabled || !ok;
    if (ok) {
      view.betValue = v;
      range.value = v;
      button.textContent = t(labelKey, { n: chips(v) });
    }
  });
  input.addEventListener("change", () => update(Number(input.value) || legal.min_to));
  input.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && !button.disabled) {
      ev.preventDefault();
      update(Number(input.value) || legal.min_to);
      button.click();
    }
  });
  for (const [id, label, to] of presetValues(table, legal)) {
    const fits = to >= legal.min_to && to <= legal.max_to;
    presets.append(h("button", { class: "btn small preset", type: "button", id: `preset-${id}`,
      dataset: { to: fits ? to : "" }, disabled: !fits, "aria-pressed": String(fits && to === view.betValue),
      onclick: () => update(to) }, label));
  }
  wrap.append(button);
  return h("div", { class: "bet-area" }, wrap,
    h("div", { class: "sizer" }, presets,
      h("div", { class: "amount" }, range, input,
        h("span", { class: "range-text", id: "bet-limits" }, t("action.range", { min: chips(legal.min_to), max: chips(legal.max_to) }))),
      extra));
}

/** The sizing presets: [id, label, total to], each checked against the legal range by
 * the caller: min, 2x and 3x (no limit), half, three quarters, pot, all in (or max). */
export function presetValues(table, legal) {
  const hand = table.hand;
  const me = hand.players[table.you];
  const out = [["min", t("preset.min"), legal.min_to]];
  if (table.facts?.structure === "no-limit") {
    const base = hand.highest > 0 ? hand.highest : (table.facts.bb ?? legal.min_to);
    out.push(["x2", t("preset.times", { n: 2 }), 2 * base], ["x3", t("preset.times", { n: 3 }), 3 * base]);
  }
  const potAfterCall = hand.pot + legal.call;
  const potLimit = table.facts?.structure === "pot-limit";
  for (const [id, key, fraction] of [["half", "preset.half", 0.5], ["three-quarters", "preset.three_quarters", 0.75],
    ["pot", "preset.pot", 1]]) {
    const to = Math.round(hand.highest + fraction * potAfterCall);
    out.push([id, t(key), id === "pot" && potLimit ? Math.min(to, legal.max_to) : to]); // (R18: the pot is the cap)
  }
  const allIn = legal.max_to >= (me?.stack ?? 0) + (me?.wager ?? 0);
  out.push(["max", allIn ? t("preset.all_in") : t("preset.max"), legal.max_to]);
  return out;
}
