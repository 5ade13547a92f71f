// The table: seats, cards, pots, the action bar, pre-actions, the draw, the log and chat.

import { h, clear, chips, duration } from "./dom.js";
import { api } from "./net.js";
import { t, tn, cardName, errorText, handDescription, places } from "./i18n.js";
import { apply, fromSnapshot, pots } from "./state.js";
import { cardSvg, rankText } from "./cards.js";

const SUIT = { s: "♠", h: "♥", d: "♦", c: "♣" };

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

let actionCounter = 0;
function actionId() {
  actionCounter += 1;
  const random = Math.random().toString(36).slice(2, 10);
  return `a${Date.now().toString(36)}${actionCounter}${random}`;
}

/** Where seat ``i`` (0 = bottom centre) of ``n`` sits around the oval, in percent. */
function position(i, n, rx, ry) {
  const angle = Math.PI / 2 + (2 * Math.PI * i) / n;
  return [50 + rx * Math.cos(angle), 50 + ry * Math.sin(angle)];
}

/** Render a table (live or replayed) into ``felt``. ``me``: the viewer's seat or null. */
export function renderFelt(felt, table, { onSit = null, replay = false } = {}) {
  clear(felt);
  felt.dataset.street = table.hand?.street ?? "";
  felt.dataset.hand = table.hand?.id ?? "";
  felt.dataset.showdown = table.hand && Object.values(table.hand.players).some((p) => p.shown) ? "1" : "";
  const n = table.maxSeats;
  const anchor = table.you || 1;
  const hand = table.hand;
  const winners = new Map();
  for (const pot of table.result?.pots ?? []) {
    for (const [seat, amount] of pot.shares) winners.set(seat, (winners.get(seat) ?? 0) + amount);
  }
  for (let seat = 1; seat <= n; seat += 1) {
    const i = (seat - anchor + n) % n;
    const [x, y] = position(i, n, 43, 41);
    const s = table.seats[seat];
    const p = hand?.players[seat];
    const style = `left:${x}%;top:${y}%`;
    const dealer = table.button === seat
      ? h("span", { class: "dealer", title: t("table.dealer"), role: "img", "aria-label": t("table.dealer") }, "D")
      : null;
    if (!s) {
      felt.append(h("div", { class: "seat empty", style, dataset: { seat } }, dealer,
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
    else if (s.sitting_out) status = t("seat.sitting_out");
    else if (!s.connected) status = t("seat.away");
    const cards = h("div", { class: "seat-cards", "aria-hidden": seat === table.you && !replay ? "true" : null });
    if (p && !p.folded) {
      if (p.cards && (seat !== table.you || replay || p.shown)) {
        for (const c of p.cards) {
          cards.append(h("span", { class: "mini-card", role: "img", "aria-label": c ? cardName(c) : t("card.back"),
            html: cardSvg(c) }));
        }
      } else {
        for (let k = 0; k < p.count; k += 1) {
          cards.append(h("span", { class: "mini-card back", "aria-hidden": "true", html: cardSvg(null) }));
        }
      }
    }
    const blind = hand?.blinds?.[seat];
    const label = [s.name, t("seat.stack_of", { n: chips(stack) }), status].filter(Boolean).join(", ");
    felt.append(h("div", { class: classes.join(" "), style, dataset: { seat }, role: "group", "aria-label": label },
      cards,
      dealer,
      h("div", { class: "seat-plate" },
        h("div", { class: "seat-name" }, s.name, s.bot ? h("span", { class: "tag bot" }, t("seat.bot")) : null),
        h("div", { class: "seat-stack" }, chips(stack), p?.allIn ? h("span", { class: "tag" }, t("seat.all_in")) : null),
        h("div", { class: "seat-status" }, status),
        hand && hand.toAct === seat && hand.street !== "over" && !replay
          ? h("div", { class: "clock-bar" }, h("span", { class: "clock-fill" })) : null,
      ),
    ));
    if (p && p.wager > 0) {
      const [bx, by] = position(i, n, 27, 25);
      felt.append(h("div", { class: "bet", style: `left:${bx}%;top:${by}%`, dataset: { seat } },
        blind && !p.last?.key?.startsWith("act.") ? h("span", { class: "blind" }, t(`blind.${blind.replace(/ /g, "_")}`)) : null,
        chips(p.wager)));
    }
  }
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
  if (table.result) center.append(resultBox(table, "result"));
  felt.append(center);
}

/** The hand-end summary: shown hands in order, pots and winners. */
export function resultBox(table, id) {
  const result = table.result;
  const box = h("div", { class: "result", id, role: "status" });
  const hand = table.hand;
  const name = (seat) => table.seats[seat]?.name || t("seat.number", { n: seat });
  for (const pot of result.pots) {
    for (const [seat, amount] of pot.shares) {
      const desc = hand?.players[seat]?.shown;
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

export class TableView {
  constructor(app, id) {
    this.app = app;
    this.id = id;
    this.table = null;
    this.v = null;
    this.marks = new Set();
    this.autoDraw = false;
    this.betPre = null;
    this.betValue = null;
    this.busy = false;
    this.actionKey = "";
    this.sidePanel = "log";
    this.el = h("section", { class: "table-view", "aria-label": t("table.region") });
    this.keys = (ev) => this.onKey(ev);
    document.addEventListener("keydown", this.keys);
    this.ticker = setInterval(() => this.tick(), 200);
  }

  destroy() {
    document.removeEventListener("keydown", this.keys);
    clearInterval(this.ticker);
    document.title = t("app.title");
    // A seated player keeps watching (the server would count them away); a
    // spectator stops.
    if (!this.table?.you || this.table.finished) this.app.socket.send({ type: "unsubscribe", table: this.id });
  }

  // ------------------------------------------------------------- network

  onOpen() {
    const message = { type: "subscribe", table: this.id };
    const sameAccount = this.viewer === (this.app.me?.id ?? null);
    if (this.table && this.v !== null && sameAccount) {
      message.since = this.v;
      message.epoch = this.table.epoch;
    }
    this.app.socket.send(message).then((reply) => {
      this.subscribed = reply.detail ?? null; // {replayed: n} or {snapshot: true}
      if (reply.type === "error") this.app.toast(errorText(reply), "error");
    });
  }

  onMessage(message) {
    if (message.table !== this.id) return;
    if (message.type === "snapshot") {
      const myName = this.app.me?.name ?? null;
      this.viewer = this.app.me?.id ?? null;
      this.table = fromSnapshot(message.state, myName);
      this.v = message.v;
      const hand = this.table.hand;
      const saved = hand ? JSON.parse(sessionStorage.getItem(`dp.marks.${hand.id}`) || "null") : null;
      this.marks = new Set(saved?.marks ?? []);
      this.autoDraw = Boolean(saved?.auto) || this.table.preAction?.pre === "draw";
      if (this.table.preAction?.pre === "draw") {
        for (const c of this.table.preAction.discard) this.marks.add(c);
      }
      this.betPre = ["check_fold", "check", "call_any"].includes(this.table.preAction?.pre)
        ? this.table.preAction.pre : null;
      if (this.table.tournament) {
        this.table.tournament.levels = this.levels ?? null;
        if (!this.levels) this.fetchLevels();
      }
      this.render();
      return;
    }
    if (message.type !== "event" || !this.table) return;
    if (this.v !== null && message.v <= this.v) return;
    this.v = message.v;
    const e = message.event;
    const me = this.table.you;
    apply(this.table, e);
    const hand = this.table.hand;
    if (e.type === "HandStarted") {
      this.marks.clear();
      this.autoDraw = false;
      this.betPre = null;
      this.betValue = null;
    }
    if (me && e.seat === me && ["Folded", "Checked", "Called", "BetPlaced", "Raised"].includes(e.type)) {
      this.table.preAction = null; // the server drops a held pre-action once we act
      this.betPre = null;
    }
    if (me && e.seat === me && ["StoodPat", "Discarded"].includes(e.type)) {
      this.marks.clear();
      this.autoDraw = false;
      this.table.preAction = null;
    }
    if (e.type === "BettingRoundEnded") {
      this.betPre = null;
      if (this.table.preAction?.pre !== "draw") this.table.preAction = null;
    }
    if (e.type === "PreActionCancelled") {
      this.betPre = null;
      if (e.pre === "draw") this.autoDraw = false;
    }
    if (e.type === "Legal") this.betValue = null;
    if ((e.type === "SatOut" || e.type === "SatIn") && e.seat === me) this.sitOutPending = false;
    if (hand && e.type === "HandEnded") this.app.refreshMe();
    if (e.type === "LevelStarted") this.fetchLevels(); // the next level's blinds and time
    if (e.type === "Finished") this.flash = null; // the place says it all (app.js tells the app)
    if (e.type === "TournamentFinished") this.app.refreshMe(); // the prizes are paid
    if (e.type === "Moved") {
      this.moveTo(e);
      return;
    }
    this.syncDrawPre();
    this.render();
  }

  // --------------------------------------------------------- tournaments

  /** The tournament's level schedule and clock (a tournament table only). */
  async fetchLevels() {
    const tour = this.table?.tournament;
    if (!tour?.id) return;
    const { ok, data } = await api(`/api/tournaments/${encodeURIComponent(tour.id)}`);
    if (!ok || !data || this.table?.tournament !== tour) return;
    this.levels = data.levels ?? null;
    tour.levels = this.levels;
    if (data.level && data.level.level >= (tour.level?.level ?? 0)) {
      const { next_in_s: nextIn, ...level } = data.level;
      tour.level = level;
      if (typeof nextIn === "number") tour.levelEnds = Date.now() + nextIn * 1000;
      const next = data.next_level ?? this.levels?.find((l) => l.level === level.level + 1) ?? null;
      tour.next_level = next;
    }
    this.renderTournament();
  }

  /** The private Moved entry: say so, then watch and play the new table. */
  moveTo(e) {
    this.app.flash = { key: "tour.moved", params: { n: e.table_no } };
    this.app.socket.send({ type: "unsubscribe", table: this.id });
    this.table.you = null; // destroy() must not keep this table
    location.hash = `#/table/${encodeURIComponent(e.table)}`;
  }

  send(message) {
    return this.app.socket.send({ table: this.id, ...message }).then((reply) => {
      if (reply.type === "error") {
        this.app.toast(errorText(reply), "error");
      }
      return reply;
    });
  }

  // ---------------------------------------------------------- who am I

  mine() {
    const table = this.table;
    if (!table?.you || !table.hand) return null;
    return table.hand.players[table.you] ?? null;
  }

  canMark() {
    const p = this.mine();
    const hand = this.table?.hand;
    return Boolean(p && !p.folded && p.drew === null && hand && ["pre-draw", "draw"].includes(hand.street));
  }

  myLegal() {
    const hand = this.table?.hand;
    const legal = hand?.legal;
    if (!legal || legal.seat !== this.table.you || hand.toAct !== this.table.you) return null;
    return legal;
  }

  saveMarks() {
    const hand = this.table?.hand;
    if (hand) {
      sessionStorage.setItem(`dp.marks.${hand.id}`, JSON.stringify({ marks: [...this.marks], auto: this.autoDraw }));
    }
  }

  /** R25: keep the server's held draw in step with the marked cards. */
  syncDrawPre(force = false) {
    const hand = this.table?.hand;
    if (!this.autoDraw || !this.canMark() || this.betPre) return;
    if (hand.street === "pre-draw" && this.myLegal()) return; // betting first
    const discard = [...this.marks];
    const held = this.table.preAction;
    const same = held?.pre === "draw" && held.discard.length === discard.length
      && held.discard.every((c) => this.marks.has(c));
    if (same && !force) return;
    this.table.preAction = { pre: "draw", discard };
    this.send({ type: "pre_action", hand_id: hand.id, pre: "draw", discard }).then((reply) => {
      if (reply.type === "error") {
        this.table.preAction = null;
        this.autoDraw = false;
        this.render();
      }
    });
  }

  toggleMark(card) {
    if (!this.canMark()) return;
    if (this.marks.has(card)) this.marks.delete(card);
    else this.marks.add(card);
    this.saveMarks();
    this.syncDrawPre();
    this.render();
  }

  setAutoDraw(on) {
    this.autoDraw = on;
    this.saveMarks();
    const hand = this.table.hand;
    if (!on && this.table.preAction?.pre === "draw") {
      this.table.preAction = null;
      this.send({ type: "pre_action", hand_id: hand.id, pre: "clear" });
    }
    this.syncDrawPre();
    this.render();
  }

  setBetPre(kind) {
    const hand = this.table.hand;
    this.betPre = this.betPre === kind ? null : kind;
    if (this.betPre) {
      this.table.preAction = { pre: this.betPre, discard: [] };
      this.send({ type: "pre_action", hand_id: hand.id, pre: this.betPre }).then((reply) => {
        if (reply.type === "error") this.betPre = null;
      });
    } else {
      this.table.preAction = null;
      this.send({ type: "pre_action", hand_id: hand.id, pre: "clear" }).then(() => this.syncDrawPre());
    }
    this.render();
  }

  // ------------------------------------------------------------- acting

  async act(action, amount) {
    const hand = this.table.hand;
    if (this.busy || !hand) return;
    this.busy = true;
    this.render();
    const message = { type: "act", hand_id: hand.id, action_id: actionId(), action };
    if (amount !== undefined) message.amount = amount;
    await this.send(message);
    this.busy = false;
    this.render();
  }

  async draw(discard) {
    const hand = this.table.hand;
    if (this.busy || !hand) return;
    this.busy = true;
    this.render();
    await this.send({ type: "draw", hand_id: hand.id, action_id: actionId(), discard });
    this.busy = false;
    this.render();
  }

  async sitDialog(seat) {
    if (!(await this.app.requireAccount())) return;
    const table = this.table;
    const dialog = clear(document.getElementById("dialog"));
    const max = Math.min(table.maxBuyIn, this.app.me?.balance ?? table.maxBuyIn);
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
      const reply = await this.app.socket.send({
        type: "sit", table: this.id, seat, buy_in: Number(input.value), post: post.checked,
      });
      if (reply.type === "error") {
        error.textContent = errorText(reply);
        return;
      }
      dialog.close("ok");
      this.table.you = seat;
      this.table.myName = this.app.me?.name ?? null;
      this.render();
      this.app.refreshMe();
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

  async topUpDialog() {
    const table = this.table;
    const s = table.seats[table.you];
    if (!s) return;
    const dialog = clear(document.getElementById("dialog"));
    const room = Math.max(0, table.maxBuyIn - s.stack);
    const input = h("input", { type: "number", id: "topup-amount", min: 1, max: room, value: room, step: 1 });
    const error = h("p", { class: "error", role: "alert" });
    dialog.append(h("form", { method: "dialog", onsubmit: async (ev) => {
      ev.preventDefault();
      const reply = await this.app.socket.send({ type: "top_up", table: this.id, amount: Number(input.value) });
      if (reply.type === "error") {
        error.textContent = errorText(reply);
        return;
      }
      dialog.close("ok");
      if (reply.detail?.pending) this.app.toast(t("table.topup_pending", { n: chips(reply.detail.pending) }));
      this.app.refreshMe();
    } },
    h("h2", {}, t("table.top_up")),
    h("p", {}, t("table.topup_room", { n: chips(room) })),
    h("label", {}, t("table.amount"), input), error,
    h("div", { class: "row" },
      h("button", { class: "btn primary", type: "submit", id: "topup-submit" }, t("table.top_up")),
      h("button", { class: "btn", type: "button", onclick: () => dialog.close("cancel") }, t("common.cancel")))));
    dialog.showModal();
  }

  async sitOut() {
    const reply = await this.send({ type: "sit_out" });
    const me = this.table.seats[this.table.you];
    if (reply.type === "ok" && me && !me.sitting_out) {
      this.sitOutPending = true; // the room sits us out when this hand is over
      this.app.toast(t("table.sit_out_next"));
    }
    this.render();
  }

  async sitIn() {
    const reply = await this.send({ type: "sit_in", post: true });
    if (reply.type === "ok") this.sitOutPending = false;
    this.render();
  }

  async leave() {
    const reply = await this.send({ type: "leave" });
    if (reply.type === "ok") {
      this.app.toast(reply.detail?.leaving ? t("table.leaving") : t("table.left"));
      this.app.refreshMe();
    }
  }

  // ------------------------------------------------------------- render

  render() {
    const el = this.el;
    if (!this.table) {
      clear(el).append(h("p", { class: "loading" }, t("table.loading")));
      return;
    }
    const table = this.table;
    if (!el.querySelector(".felt")) this.build();
    const me = table.seats[table.you];
    el.querySelector(".table-title").textContent = `${table.name}`;
    el.querySelector(".table-rules").textContent = table.rules;
    const bar = clear(el.querySelector(".table-buttons"));
    if (table.tournament) {
      bar.append(h("a", { class: "btn small", id: "tour-lobby-link",
        href: `#/tournament/${encodeURIComponent(table.tournament.id)}` }, t("tour.lobby")));
    } else if (me) {
      bar.append(
        me.sitting_out || this.sitOutPending
          ? h("button", { class: "btn small", id: "sit-in", onclick: () => this.sitIn() }, t("table.sit_in"))
          : h("button", { class: "btn small", id: "sit-out", onclick: () => this.sitOut() }, t("table.sit_out")),
        h("button", { class: "btn small", id: "top-up", onclick: () => this.topUpDialog() }, t("table.top_up")),
        h("button", { class: "btn small danger", id: "leave", onclick: () => this.leave() }, t("table.leave")),
      );
    }
    renderFelt(el.querySelector(".felt"), table, { onSit: table.tournament ? null : (seat) => this.sitDialog(seat) });
    this.renderTournament();
    this.renderHand();
    this.renderActions();
    this.renderSide();
    const mine = Boolean(this.myLegal());
    document.title = mine ? `● ${t("title.your_turn")} — ${table.name}` : `${table.name} — drawpoker`;
    if (table.notice) {
      this.app.toast(t(table.notice.key, { text: table.notice.text ?? "" }));
      table.notice = null;
    }
    this.tick();
  }

  build() {
    this.actionKey = "";
    this.handKey = "";
    const el = clear(this.el);
    el.append(
      h("div", { class: "table-bar" },
        h("a", { class: "btn small ghost back", href: "#/lobby" }, "← ", h("span", { class: "label", "data-t": "nav.lobby" }, t("nav.lobby"))),
        h("div", { class: "table-id" }, h("h1", { class: "table-title" }), h("span", { class: "table-rules" })),
        h("div", { class: "table-buttons" })),
      h("div", { class: "tour-bar", id: "tour-bar", role: "status" }),
      h("div", { class: "flash", id: "flash", role: "alert" }),
      h("div", { class: "tour-finished", id: "finished", "aria-live": "assertive" }),
      h("div", { class: "table-layout" },
        h("div", { class: "play" },
          h("div", { class: "felt", role: "region", "aria-label": t("table.region") }),
          h("div", { class: "my-hand", id: "my-hand", role: "group", "aria-label": t("table.your_cards") }),
          h("div", { class: "actions", id: "actions", "aria-live": "polite" })),
        h("aside", { class: "side" },
          h("div", { class: "side-tabs", role: "tablist" },
            h("button", { role: "tab", class: "tab", id: "side-log", onclick: () => { this.sidePanel = "log"; this.renderSide(); } }),
            h("button", { role: "tab", class: "tab", id: "side-chat", onclick: () => { this.sidePanel = "chat"; this.renderSide(); } })),
          h("div", { class: "last-hand", id: "last-hand" }),
          h("ol", { class: "log", id: "log", "aria-live": "polite" }),
          h("div", { class: "chat", id: "chat" },
            h("ol", { class: "chat-lines", id: "chat-lines" }),
            h("form", { class: "chat-form", onsubmit: (ev) => {
              ev.preventDefault();
              const input = ev.target.querySelector("input");
              const text = input.value.trim();
              if (!text) return;
              this.send({ type: "chat", text: text.slice(0, 280) });
              input.value = "";
            } }, h("input", { id: "chat-input", maxlength: 280, autocomplete: "off" }),
            h("button", { class: "btn small", type: "submit", id: "chat-send" }))))),
    );
  }

  /** The tournament line (level, blinds, next level, players left), the moved
   * message and the finishing place. */
  renderTournament() {
    const table = this.table;
    const bar = this.el.querySelector("#tour-bar");
    if (!table || !bar) return;
    const tour = table.tournament;
    bar.hidden = !tour;
    const flash = clear(this.el.querySelector("#flash"));
    if (!this.flash && this.app.flash) {
      this.flash = this.app.flash;
      this.app.flash = null;
      const shown = this.flash;
      setTimeout(() => {
        if (this.flash === shown) {
          this.flash = null;
          this.renderTournament();
        }
      }, 20000);
    }
    const message = this.flash;
    flash.hidden = !message;
    if (message) {
      flash.append(h("span", {}, t(message.key, message.params)),
        h("button", { class: "btn small ghost", "aria-label": t("common.close"),
          onclick: () => { this.flash = null; this.renderTournament(); } }, "×"));
    }
    this.renderFinished();
    if (!tour) return;
    const blinds = (l) => (l.ante ? t("tour.blinds_ante", { sb: chips(l.small_blind), bb: chips(l.big_blind),
      ante: chips(l.ante) }) : t("tour.blinds", { sb: chips(l.small_blind), bb: chips(l.big_blind) }));
    const level = tour.level;
    const next = tour.next_level;
    clear(bar).append(...[
      h("span", { class: "tour-name" }, tour.name ?? "", " · ", t("tour.table_no", { n: tour.table_no })),
      level ? h("span", { class: "tour-level", id: "tour-level" },
        h("strong", {}, t("tour.level_n", { n: level.level })), " ", blinds(level)) : null,
      next ? h("span", { class: "tour-next", id: "tour-next" }, t("tour.next_level"), " ", blinds(next)) : null,
      tour.levelEnds ? h("span", { class: "tour-clock" }, t("tour.next_in"), " ",
        h("span", { id: "tour-next-in", role: "timer" }, duration((tour.levelEnds - Date.now()) / 1000))) : null,
      typeof tour.players_left === "number"
        ? h("span", { class: "tour-left", id: "tour-left" },
          t("tour.players_left", { n: tour.players_left, of: tour.entries ?? tour.players_left }))
        : null,
    ].filter(Boolean));
  }

  renderFinished() {
    const box = clear(this.el.querySelector("#finished"));
    const done = this.table?.finished;
    box.hidden = !done;
    if (!done) return;
    const won = done.places[0] === 1;
    box.append(
      h("h2", { id: "finished-place" }, won ? t("tour.you_won") : t("tour.you_finished", { place: places(done.places) })),
      h("p", { id: "finished-prize" }, done.prize ? t("tour.your_prize", { n: chips(done.prize) }) : t("tour.no_prize")),
      h("a", { class: "btn primary", id: "finished-back", href: `#/tournament/${encodeURIComponent(done.tournament)}` },
        t("tour.back_to_lobby")),
    );
  }

  renderHand() {
    const table = this.table;
    const p = this.mine();
    // Rebuild only when something shown changes, so a tap is never lost to a redraw.
    const key = JSON.stringify([table.you, p?.cards, p?.folded, p?.shown, p?.fresh, [...this.marks],
      this.canMark(), document.documentElement.lang, table.maxSeats, Object.keys(table.seats).length]);
    if (key === this.handKey) return;
    this.handKey = key;
    const box = clear(this.el.querySelector("#my-hand"));
    box.setAttribute("aria-label", t("table.your_cards"));
    if (!table.you && table.tournament) {
      box.append(h("div", { class: "hint" }, table.finished ? t("tour.out_hint") : t("tour.spectating")));
      return;
    }
    if (!table.you) {
      box.append(h("div", { class: "hint" }, t("table.spectating")),
        h("button", { class: "btn primary", id: "take-seat", onclick: () => {
          const free = [...Array(table.maxSeats).keys()].map((k) => k + 1).find((s) => !table.seats[s]);
          if (free) this.sitDialog(free);
        } }, t("table.take_seat")));
      return;
    }
    if (!p || !p.cards || p.folded) {
      box.append(h("div", { class: "hint" }, p?.folded ? t("table.you_folded") : t("table.wait_next")));
      return;
    }
    const markable = this.canMark();
    p.cards.forEach((card, k) => {
      const marked = card && this.marks.has(card);
      const fresh = card && p.fresh?.includes(card);
      const label = card ? cardName(card) : t("card.coming");
      const button = h("button", {
        class: `card${marked ? " marked" : ""}${fresh ? " fresh" : ""}`,
        dataset: { card: card ?? "", index: k },
        "aria-pressed": markable ? String(Boolean(marked)) : null,
        "aria-label": marked ? t("card.marked", { card: label }) : label,
        title: markable ? `${k + 1}: ${t("table.tap_to_mark")}` : label,
        disabled: !markable || !card,
        onclick: () => this.toggleMark(card),
        html: cardSvg(card),
      });
      box.append(button);
    });
    if (p.shown) box.append(h("div", { class: "my-desc" }, handDescription(p.shown)));
  }

  renderActions() {
    const box = this.el.querySelector("#actions");
    const table = this.table;
    const hand = table.hand;
    const p = this.mine();
    const legal = this.myLegal();
    const key = JSON.stringify([legal, [...this.marks], this.autoDraw, this.betPre, this.busy, hand?.street,
      hand?.toAct, p?.drew, p?.folded, hand?.highest, p?.wager, document.documentElement.lang, Boolean(p)]);
    if (key === this.actionKey) return;
    this.actionKey = key;
    clear(box);
    const clock = h("div", { class: "clock", id: "clock", role: "timer" }, h("span", { class: "clock-text" }),
      h("span", { class: "clock-track" }, h("span", { class: "clock-fill" })));
    if (!p || p.folded || !hand || hand.street === "over" || hand.street === "showdown") {
      if (hand && hand.toAct && hand.street !== "over") box.append(clock);
      return;
    }
    if (legal && legal.draw && this.autoDraw && table.preAction?.pre === "draw") {
      // The held draw (R25) is on its way: the server carries it out now.
      box.append(clock, h("p", { class: "hint", id: "auto-drawing" },
        this.marks.size ? tn("table.auto_discarding", this.marks.size) : t("table.auto_standing")));
      return;
    }
    if (legal && legal.draw) {
      const n = this.marks.size;
      box.append(
        clock,
        h("div", { class: "buttons" },
          h("button", { class: "btn big", id: "stand-pat", disabled: this.busy, "aria-keyshortcuts": "S",
            onclick: () => this.draw([]) }, t("action.stand_pat")),
          h("button", { class: "btn big primary", id: "discard", disabled: this.busy || n === 0, "aria-keyshortcuts": "D",
            onclick: () => this.draw([...this.marks]) }, tn("action.discard", n))),
        h("p", { class: "hint" }, t("table.draw_hint")),
      );
      return;
    }
    const autoDraw = () => h("label", { class: "check auto-draw" },
      h("input", { type: "checkbox", id: "pre-draw", checked: this.autoDraw, "aria-keyshortcuts": "A",
        onchange: (ev) => this.setAutoDraw(ev.target.checked) }),
      this.marks.size ? tn("pre.draw", this.marks.size) : t("pre.draw_pat"));
    if (legal) {
      box.append(clock, this.bettingButtons(legal));
      if (this.canMark()) box.append(h("div", { class: "pre-actions" }, autoDraw()));
      box.append(h("p", { class: "hint time-bank", id: "time-bank" }));
      box.append(h("p", { class: "hint keys" }, t("table.keys")));
    } else {
      if (hand.toAct) box.append(clock);
      const pre = h("div", { class: "pre-actions", role: "group", "aria-label": t("pre.title") });
      const betting = hand.street === "pre-draw" || hand.street === "post-draw";
      if (betting && !p.allIn) {
        const facing = hand.highest > p.wager;
        const option = (kind) => h("label", { class: "check" },
          h("input", { type: "checkbox", id: `pre-${kind}`, checked: this.betPre === kind,
            onchange: () => this.setBetPre(kind) }), t(`pre.${kind}`));
        pre.append(option("check_fold"));
        if (!facing) pre.append(option("check"));
        pre.append(option("call_any"));
      }
      if (this.canMark()) pre.append(autoDraw());
      box.append(pre);
      if (this.canMark()) box.append(h("p", { class: "hint" }, t("table.mark_hint")));
      else if (p.drew !== null && hand.street !== "pre-draw") box.append(h("p", { class: "hint" }, t("table.marking_over")));
    }
  }

  bettingButtons(legal) {
    const table = this.table;
    const hand = table.hand;
    const wrap = h("div", { class: "buttons" });
    const disabled = this.busy;
    if (legal.fold) {
      wrap.append(h("button", { class: "btn big danger", id: "fold", disabled, "aria-keyshortcuts": "F",
        onclick: () => this.act("fold") }, t("action.fold")));
    }
    // Italian game: before anyone opens, a check is a pass (with or without openers).
    const passing = table.italian && hand.street === "pre-draw";
    if (legal.check) {
      wrap.append(h("button", { class: "btn big", id: "check", disabled, "aria-keyshortcuts": "C",
        onclick: () => this.act("check") }, passing ? t("action.pass") : t("action.check")));
    }
    if (legal.call) {
      wrap.append(h("button", { class: "btn big", id: "call", disabled, "aria-keyshortcuts": "C",
        onclick: () => this.act("call") },
      legal.call_all_in ? t("action.call_all_in", { n: chips(legal.call) }) : t("action.call", { n: chips(legal.call) })));
    }
    if (legal.max_to > 0) {
      const kind = legal.bet_label === "raise" ? "raise" : "bet";
      const labelKey = `action.${legal.bet_label || "bet"}`;
      if (legal.min_to === legal.max_to) {
        wrap.append(h("button", { class: "btn big primary", id: "bet", disabled, "aria-keyshortcuts": "R",
          onclick: () => this.act(kind, legal.min_to) }, t(labelKey, { n: chips(legal.min_to) })));
        return wrap;
      }
      if (this.betValue === null) this.betValue = legal.min_to;
      const clamp = (v) => Math.max(legal.min_to, Math.min(legal.max_to, Math.round(v)));
      const button = h("button", { class: "btn big primary", id: "bet", disabled, "aria-keyshortcuts": "R",
        onclick: () => this.act(kind, clamp(Number(input.value))) }, t(labelKey, { n: chips(this.betValue) }));
      const update = (v) => {
        this.betValue = clamp(v);
        input.value = this.betValue;
        range.value = this.betValue;
        button.textContent = t(labelKey, { n: chips(this.betValue) });
      };
      const range = h("input", { type: "range", id: "bet-range", min: legal.min_to, max: legal.max_to, step: 1,
        value: this.betValue, "aria-label": t("action.amount") });
      const input = h("input", { type: "number", id: "bet-amount", min: legal.min_to, max: legal.max_to, step: 1,
        value: this.betValue, "aria-label": t("action.amount") });
      range.addEventListener("input", () => update(Number(range.value)));
      input.addEventListener("change", () => update(Number(input.value)));
      const me = hand.players[table.you];
      const potAfterCall = hand.pot + legal.call;
      const presets = h("div", { class: "presets" });
      for (const [labelKeyPreset, fraction] of [["preset.half", 0.5], ["preset.three_quarters", 0.75], ["preset.pot", 1]]) {
        const to = hand.highest + fraction * potAfterCall;
        presets.append(h("button", { class: "btn small preset", type: "button", onclick: () => update(to),
          disabled: to < legal.min_to && fraction < 1 }, t(labelKeyPreset)));
      }
      presets.append(h("button", { class: "btn small preset", type: "button", id: "preset-max",
        onclick: () => update(legal.max_to) }, legal.max_to >= (me?.stack ?? 0) + (me?.wager ?? 0) ? t("preset.all_in") : t("preset.max")));
      wrap.append(button);
      return h("div", { class: "bet-area" }, wrap, h("div", { class: "sizer" }, presets, range, input));
    }
    return wrap;
  }

  renderSide() {
    const table = this.table;
    if (!table) return;
    const el = this.el;
    el.querySelector("#side-log").textContent = t("side.log");
    el.querySelector("#side-chat").textContent = t("side.chat");
    el.querySelector("#side-log").setAttribute("aria-selected", String(this.sidePanel === "log"));
    el.querySelector("#side-chat").setAttribute("aria-selected", String(this.sidePanel === "chat"));
    el.querySelector("#chat-send").textContent = t("chat.send");
    el.querySelector("#chat-input").setAttribute("aria-label", t("chat.message"));
    el.querySelector("#chat-input").setAttribute("placeholder", t("chat.placeholder"));
    el.querySelector(".side").dataset.panel = this.sidePanel;
    const last = clear(el.querySelector("#last-hand"));
    const shown = table.result ? table : table.lastResult ? { ...table, result: table.lastResult } : null;
    if (shown && shown.result) {
      last.append(h("h2", {}, t("side.last_hand")), resultBox(shown, "last-result"));
    }
    const log = clear(el.querySelector("#log"));
    for (const entry of table.log.slice(-80)) log.append(h("li", { class: entry.cls }, logLine(entry)));
    log.scrollTop = log.scrollHeight;
    const lines = clear(el.querySelector("#chat-lines"));
    for (const line of table.chat) lines.append(h("li", {}, h("strong", {}, line.name), ": ", line.text));
    lines.scrollTop = lines.scrollHeight;
  }

  tick() {
    const table = this.table;
    if (!table) return;
    const left = table.deadline ? Math.max(0, (table.deadline - Date.now()) / 1000) : 0;
    const share = table.clockTotal ? Math.min(1, left / table.clockTotal) : 0;
    for (const fill of this.el.querySelectorAll(".clock-fill")) fill.style.width = `${share * 100}%`;
    const text = this.el.querySelector(".clock-text");
    if (text) {
      const hand = table.hand;
      const mine = hand && hand.toAct === table.you;
      const kind = table.clockKind === "draw" ? "clock.draw" : table.clockKind === "bank" ? "clock.bank" : "clock.act";
      text.textContent = table.deadline
        ? t(mine ? `${kind}_you` : kind, { n: Math.ceil(left), who: table.seats[hand?.toAct]?.name ?? "" }) : "";
      this.el.querySelector(".clock")?.classList.toggle("urgent", left < 5 && Boolean(mine));
    }
    const levelClock = this.el.querySelector("#tour-next-in");
    if (levelClock && table.tournament?.levelEnds) {
      levelClock.textContent = duration((table.tournament.levelEnds - Date.now()) / 1000);
    }
    const me = table.seats[table.you];
    const bank = this.el.querySelector("#time-bank");
    if (bank && me) bank.textContent = t("clock.bank_left", { n: Math.round(me.time_bank ?? 0) });
  }

  onKey(ev) {
    if (ev.target.closest("input, textarea, select, dialog") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const click = (id) => {
      const button = this.el.querySelector(`#${id}`);
      if (button && !button.disabled) {
        ev.preventDefault();
        button.click();
        return true;
      }
      return false;
    };
    const key = ev.key.toLowerCase();
    if (/^[1-5]$/.test(key)) {
      const card = this.el.querySelectorAll("#my-hand .card")[Number(key) - 1];
      if (card && !card.disabled) {
        ev.preventDefault();
        card.click();
      }
      return;
    }
    if (key === "f") click("fold");
    else if (key === "c") click("check") || click("call");
    else if (key === "r" || key === "b") click("bet");
    else if (key === "s") click("stand-pat");
    else if (key === "d") click("discard");
    else if (key === "a") click("pre-draw");
  }
}
