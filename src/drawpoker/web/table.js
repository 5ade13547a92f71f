// The table view: the felt, your cards, the action bar, the table's controls, the
// tournament line, the hand log and chat. The pieces live in felt.js (seats, bets,
// showdown), actions.js (the action bar) and seat.js (sitting down, top-ups,
// sitting out, the waiting list); this module keeps them in step with the server.
//
// The play area (felt, cards, action bar) always fits the window: its height is
// the window's minus what is above it, and the felt takes what the cards and the
// action bar leave, so both are fully visible on every screen without scrolling.

import { h, clear, duration, tickCountdowns } from "./dom.js";
import { api } from "./net.js";
import { t, errorText } from "./i18n.js";
import { apply, fromSnapshot } from "./state.js";
import { renderFelt, layoutFelt, logLine, resultBox, showdownPanel, fmt } from "./felt.js";
import { renderActions, facing } from "./actions.js";
import { tableName, tableDetails, tournamentTableTitle, gameName, structureName, blindsText } from "./names.js";
import { notesDialog } from "./notes.js";
import { play } from "./sound.js";
import * as seatctl from "./seat.js";
import { renderTournament } from "./tourbar.js";
import { renderHand, waitingHint } from "./myhand.js";

export { cardText, fmt, logLine, renderFelt, resultBox } from "./felt.js";

let actionCounter = 0;
function actionId() {
  actionCounter += 1;
  const random = Math.random().toString(36).slice(2, 10);
  return `a${Date.now().toString(36)}${actionCounter}${random}`;
}

const MY_ACTS = ["Folded", "Checked", "Called", "BetPlaced", "Raised"];
const CHIP_EVENTS = new Set(["Called", "BetPlaced", "Raised", "Posted", "PotAwarded"]);
const CARD_EVENTS = new Set(["CardsDealt", "CardsDelivered"]);

export class TableView {
  constructor(app, id) {
    this.app = app;
    this.id = id;
    this.table = null;
    this.v = null;
    this.marks = new Set();
    this.autoDraw = false;
    this.betPre = null; // {kind, amount, highest}: the betting pre-action held (R25)
    this.betValue = null;
    this.busy = false;
    this.actionKey = "";
    this.sidePanel = "log";
    this.menuOpen = false;
    this.offline = false;
    this.lastTick = null;
    this.el = h("section", { class: "table-view", "aria-label": t("table.region") });
    this.keys = (ev) => this.onKey(ev);
    document.addEventListener("keydown", this.keys);
    this.ticker = setInterval(() => this.tick(), 200);
    this.resized = () => this.fit();
    window.addEventListener("resize", this.resized);
    this.observer = typeof ResizeObserver === "function" ? new ResizeObserver(() => this.fit()) : null;
    const topbar = document.querySelector(".topbar");
    if (topbar) this.observer?.observe(topbar);
    // Back from another page: the table as it was, and the entries missed meanwhile
    // (``subscribe`` with ``since``), so the log and the labels are all still there.
    const kept = app.tableCache?.get(id);
    if (kept) {
      this.table = kept.table;
      this.v = kept.v;
      this.viewer = kept.viewer;
      this.restoreMarks();
    }
  }

  destroy() {
    document.removeEventListener("keydown", this.keys);
    window.removeEventListener("resize", this.resized);
    this.observer?.disconnect();
    clearInterval(this.ticker);
    document.title = t("app.title");
    if (this.table && this.v !== null) {
      this.app.tableCache ??= new Map();
      this.app.tableCache.set(this.id, { table: this.table, v: this.v, viewer: this.viewer });
    }
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
    this.replaying = "since" in message; // (missed entries: no sounds for the past)
    this.app.socket.send(message).then((reply) => {
      this.replaying = false;
      this.subscribed = reply.detail ?? null; // {replayed: n} or {snapshot: true}
      if (reply.type === "error" && reply.code !== "offline") this.app.toast(errorText(reply), "error");
      if (reply.type === "ok") this.setOffline(false);
    });
  }

  /** Ask the server for the table as it is now (after sitting down). */
  resnapshot() {
    this.app.socket.send({ type: "subscribe", table: this.id });
  }

  /** The app's connection changed: over the table, say so and hold everything. */
  onStatus(status) {
    if (status !== "online") this.setOffline(true);
  }

  setOffline(on) {
    if (!this.table || this.offline === on) return;
    this.offline = on;
    this.render();
  }

  onMessage(message) {
    if (message.table !== this.id) return;
    if (message.type === "snapshot") {
      this.onSnapshot(message);
      return;
    }
    if (message.type !== "event" || !this.table) return;
    if (this.v !== null && message.v <= this.v) return;
    this.v = message.v;
    const e = message.event;
    const me = this.table.you;
    const highestBefore = this.table.hand?.highest ?? 0;
    apply(this.table, e);
    const hand = this.table.hand;
    if (e.type === "HandStarted") {
      this.marks.clear();
      this.autoDraw = false;
      this.betPre = null;
      this.betValue = null;
      if (me) this.sendEntropy();
    }
    if (me && e.seat === me && MY_ACTS.includes(e.type)) {
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
    if (this.betPre && hand && hand.highest !== highestBefore) this.checkBetPre();
    if (e.type === "PreActionCancelled") {
      if (e.pre === "draw") this.autoDraw = false;
      else this.betPre = null;
    }
    if (e.type === "Legal") this.betValue = null;
    if (e.type === "SeatOffered") seatctl.offerDialog(this);
    if (hand && e.type === "HandEnded") this.app.refreshMe();
    if (e.type === "LevelStarted") this.fetchLevels(); // the next level's blinds and time
    if (e.type === "Finished") this.flash = null; // the place says it all (app.js tells the app)
    if (e.type === "TournamentFinished") this.app.refreshMe(); // the prizes are paid
    this.sounds(e);
    if (e.type === "Chat" && !this.replaying && e.name !== this.app.me?.name && !this.chatInSight()) {
      this.app.toast(`${e.name}: ${e.text}`, "chat"); // (a phone: the chat is below the table)
    }
    if (e.type === "Moved") {
      this.moveTo(e);
      return;
    }
    this.syncDrawPre();
    this.scheduleRender();
  }

  /** Whether the chat panel is on the screen (a phone has it below the table). */
  chatInSight() {
    const side = this.el.querySelector(".side");
    if (!side) return false;
    const box = side.getBoundingClientRect();
    return box.top < window.innerHeight && box.bottom > 0 && this.sidePanel === "chat";
  }

  /** One render per frame however many entries arrive (a busy table sends many);
   * in a hidden tab a few times a second, so the title still says "Your turn". */
  scheduleRender() {
    if (this.renderPending) return;
    this.renderPending = true;
    const run = () => {
      this.renderPending = false;
      if (this.el.isConnected) this.render();
    };
    if (document.hidden) setTimeout(run, 150);
    else requestAnimationFrame(run);
  }

  onSnapshot(message) {
    const previous = this.table;
    const myName = this.app.me?.name ?? null;
    this.viewer = this.app.me?.id ?? null;
    const table = fromSnapshot(message.state, myName);
    if (previous && previous.id === table.id) {
      if (!Array.isArray(message.state.chat)) table.chat = previous.chat;
      for (const [seat, s] of Object.entries(table.seats)) {
        // What an older server's seats do not say yet (how the seat comes in).
        const before = previous.seats[seat];
        if (before && before.name === s.name && !("waiting" in s) && "waiting" in before) s.waiting = before.waiting;
      }
      if (!Array.isArray(message.state.story) && previous.epoch === table.epoch) {
        // An older server sends no story: keep what this page saw.
        table.log = previous.log;
        table.lastResult ??= previous.lastResult;
        const before = previous.hand;
        if (before && table.hand && before.id === table.hand.id) {
          table.hand.blinds = before.blinds;
          for (const [seat, p] of Object.entries(table.hand.players)) {
            const q = before.players[seat];
            if (!q) continue;
            p.last = q.last;
            if (p.drew === null || p.drew === undefined) p.drew = q.drew;
            p.penalized = Boolean(p.penalized || q.penalized);
            table.hand.myHand ??= before.myHand;
          }
          table.result ??= previous.result;
        }
      }
    }
    this.table = table;
    this.v = message.v;
    this.restoreMarks();
    if (table.tournament) {
      table.tournament.levels = this.levels ?? null;
      if (!this.levels) this.fetchLevels();
    }
    this.setOffline(false);
    this.render();
    if (table.offer && table.offer.until > Date.now()) seatctl.offerDialog(this); // (held for me)
  }

  /** The marked cards (kept per hand in this tab) and the pre-actions the server holds. */
  restoreMarks() {
    const table = this.table;
    const hand = table.hand;
    const saved = hand ? JSON.parse(sessionStorage.getItem(`dp.marks.${hand.id}`) || "null") : null;
    this.marks = new Set(saved?.marks ?? []);
    this.autoDraw = Boolean(saved?.auto) || table.preAction?.pre === "draw";
    if (table.preAction?.pre === "draw") {
      for (const c of table.preAction.discard) this.marks.add(c);
    }
    const pre = table.preAction?.pre;
    this.betPre = ["check_fold", "check", "call", "call_any", "fold_any"].includes(pre)
      ? { kind: pre, amount: table.preAction.amount ?? facing(table).owe, highest: hand?.highest ?? 0 } : null;
  }

  sounds(e) {
    if (this.replaying) return;
    const me = this.table.you;
    if (e.type === "Turn" && me && e.seat === me) play("turn");
    else if (CARD_EVENTS.has(e.type) || (e.type === "CardsReceived" && e.seat === me)) play("card");
    else if (CHIP_EVENTS.has(e.type)) play("chips");
    if (this.table.notice?.sound) play(this.table.notice.sound);
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

  /** A fresh random text of ours for the next hand's deck seed (docs/fairness.md). */
  sendEntropy() {
    if (!globalThis.crypto?.getRandomValues) return;
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    const text = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    this.send({ type: "entropy", text }, { quiet: true });
  }

  send(message, { quiet = false } = {}) {
    return this.app.socket.send({ table: this.id, ...message }).then((reply) => {
      if (reply.type === "error" && !quiet) this.app.toast(errorText(reply), "error");
      return reply;
    });
  }

  // ---------------------------------------------------------- who am I

  mine() {
    const table = this.table;
    if (!table?.you || !table.hand) return null;
    return table.hand.players[table.you] ?? null;
  }

  inHand() {
    const p = this.mine();
    return Boolean(p && this.table.hand.street !== "over");
  }

  canMark() {
    const p = this.mine();
    const hand = this.table?.hand;
    return Boolean(p && !p.folded && p.drew === null && hand && ["pre-draw", "draw"].includes(hand.street));
  }

  myLegal() {
    const hand = this.table?.hand;
    const legal = hand?.legal;
    if (this.offline || !legal || legal.seat !== this.table.you || hand.toAct !== this.table.you) return null;
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
    if (!this.autoDraw || !this.canMark()) return;
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

  /** Mark exactly ``cards`` (a practice table's suggested discard). */
  markCards(cards) {
    if (!this.canMark()) return;
    this.marks = new Set(cards.filter((c) => this.mine()?.cards?.includes(c)));
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

  /** Tick or untick a betting pre-action (``amount``: the call it was made for). */
  setBetPre(kind, amount = 0) {
    const hand = this.table.hand;
    const off = this.betPre?.kind === kind;
    this.betPre = off ? null : { kind, amount, highest: hand.highest };
    if (this.betPre) {
      this.send({ type: "pre_action", hand_id: hand.id, pre: kind }).then((reply) => {
        if (reply.type === "error" && this.betPre?.kind === kind) {
          this.betPre = null;
          this.render();
        }
      });
    } else {
      this.send({ type: "pre_action", hand_id: hand.id, pre: "clear" }).then(() => this.syncDrawPre(true));
    }
    this.render();
  }

  /** The bet changed while a pre-action waits: "call 4" and "check" no longer apply
   * (the server cancels them at the turn; the box is unticked now). */
  checkBetPre() {
    const pre = this.betPre;
    const hand = this.table.hand;
    if (!pre || !hand) return;
    const stale = (pre.kind === "call" && facing(this.table).owe !== pre.amount)
      || (["check", "check_fold"].includes(pre.kind) && hand.highest !== pre.highest);
    if (stale) {
      this.betPre = null;
      this.app.toast(t("notice.pre_cancelled"));
    }
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

  sitDialog(seat) {
    return seatctl.sitDialog(this, seat);
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
    this.renderBar();
    const felt = el.querySelector(".felt");
    renderFelt(felt, table, {
      onSit: table.tournament ? null : (seat) => this.sitDialog(seat),
      onNotes: this.app.me ? (name) => notesDialog(this.app.me, name, () => this.render()) : null,
      me: this.app.me,
    });
    this.renderTournament();
    this.renderHand();
    renderActions(this);
    this.renderSide();
    this.renderOffline();
    const mine = Boolean(this.myLegal());
    const title = this.title();
    document.title = mine ? `● ${t("title.your_turn")} — ${title}` : `${title} — drawpoker`;
    if (table.notice) {
      const params = fmt({ text: table.notice.text ?? "", ...(table.notice.params ?? {}) });
      this.app.toast(t(table.notice.key, params), table.notice.kind ?? (table.notice.key === "notice.penalized" ? "warn" : "info"));
      table.notice = null;
    }
    this.fit();
    this.tick();
  }

  title() {
    const table = this.table;
    return table.tournament ? tournamentTableTitle(table.tournament) : tableName(table.facts, table.id, table.name);
  }

  details() {
    const table = this.table;
    if (!table.tournament) return tableDetails(table.facts);
    return `${gameName(table.facts)} · ${structureName(table.facts.structure)} · ${blindsText(table.facts)}`;
  }

  /** The play area's height: the window's, minus what is above it. */
  fit() {
    const play = this.el.querySelector(".play");
    if (!play || !this.el.isConnected) return;
    const top = Math.round(play.getBoundingClientRect().top + window.scrollY);
    if (top !== this.playTop) {
      this.playTop = top;
      this.el.style.setProperty("--play-top", `${top}px`);
    }
    const felt = this.el.querySelector(".felt");
    const size = `${felt.clientWidth}x${felt.clientHeight}`;
    if (size !== this.feltSize) {
      this.feltSize = size;
      layoutFelt(felt);
    }
  }

  build() {
    this.actionKey = "";
    this.handKey = "";
    const el = clear(this.el);
    el.append(
      h("div", { class: "table-bar" },
        h("a", { class: "btn small ghost back", href: "#/lobby" }, "← ", h("span", { class: "label" }, t("nav.lobby"))),
        h("div", { class: "table-id" }, h("h1", { class: "table-title", id: "table-title" }),
          h("span", { class: "table-rules", id: "table-rules" })),
        h("button", { class: "btn small menu-toggle", id: "table-menu-btn", type: "button", "aria-expanded": "false",
          "aria-controls": "table-controls", onclick: () => this.toggleMenu() }),
        h("div", { class: "table-controls", id: "table-controls" })),
      h("div", { class: "tour-bar", id: "tour-bar", role: "status" }),
      h("div", { class: "table-layout" },
        h("div", { class: "play" },
          h("div", { class: "stage" },
            h("div", { class: "felt", role: "region", "aria-label": t("table.felt") }),
            h("div", { class: "flash", id: "flash", role: "alert" }),
            h("div", { class: "tour-finished", id: "finished", "aria-live": "assertive" })),
          h("div", { class: "my-hand", id: "my-hand", role: "group", "aria-label": t("table.your_cards") }),
          h("div", { class: "actions", id: "actions", "aria-live": "polite" })),
        h("div", { class: "side", role: "region", "aria-label": t("side.region") },
          h("div", { class: "side-tabs", role: "tablist" },
            h("button", { role: "tab", class: "tab", id: "side-log", onclick: () => { this.sidePanel = "log"; this.renderSide(); } }),
            h("button", { role: "tab", class: "tab", id: "side-chat", onclick: () => { this.sidePanel = "chat"; this.renderSide(); } })),
          h("div", { class: "last-hand", id: "last-hand" }),
          h("ol", { class: "log", id: "log", "aria-live": "polite", tabindex: "0" }),
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
            h("button", { class: "btn small", type: "submit", id: "chat-send" })))),
        h("div", { class: "offline-cover", id: "offline", role: "alert", hidden: true })),
    );
    const stage = el.querySelector(".felt");
    this.observer?.observe(stage);
    this.observer?.observe(el.querySelector(".table-bar"));
  }

  toggleMenu(open = !this.menuOpen) {
    this.menuOpen = open;
    this.renderBar();
    this.fit();
  }

  /** The title, the details and the table's controls (a menu on a phone). */
  renderBar() {
    const el = this.el;
    el.querySelector("#table-title").textContent = this.title();
    el.querySelector("#table-rules").textContent = this.details();
    el.querySelector(".back .label").textContent = t("nav.lobby");
    seatctl.renderControls(this, el.querySelector("#table-controls"));
  }

  renderTournament() {
    renderTournament(this);
  }

  waitingHint() {
    return waitingHint(this);
  }

  renderHand() {
    renderHand(this);
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
    const shown = table.result?.pots?.length ? table.result : table.lastResult;
    if (shown && (shown.pots.length || shown.carried)) {
      last.append(h("h2", {}, t("side.last_hand")),
        shown.shown?.length ? showdownPanel(shown, table.you, "last-result") : resultBox(shown, "last-result"));
    }
    const log = clear(el.querySelector("#log"));
    for (const entry of table.log.slice(-120)) log.append(h("li", { class: entry.cls }, logLine(entry)));
    log.scrollTop = log.scrollHeight;
    const lines = clear(el.querySelector("#chat-lines"));
    for (const line of table.chat) {
      const report = line.name === this.app.me?.name ? null
        : h("button", { class: "chat-report", type: "button", title: t("chat.report"), "aria-label": t("chat.report"),
          onclick: () => this.report(line) });  // the flag is drawn by CSS: the line's text stays the line
      lines.append(h("li", {}, h("strong", {}, line.name), ": ", line.text, report));
    }
    lines.scrollTop = lines.scrollHeight;
  }

  /** Report a chat line to the staff (the table must still keep it). */
  async report(line) {
    const { ok, data, status } = await api("/api/reports", {
      method: "POST", body: { kind: "chat", table: this.id, about: line.name, text: line.text },
    });
    this.app.toast(ok ? t("report.sent") : errorText({ code: status === 429 ? "report_limited" : "", message: data?.error }),
      ok ? "info" : "error");
  }

  /** Offline: a clear cover over the table; nothing can be pressed, no clock runs. */
  renderOffline() {
    const cover = this.el.querySelector("#offline");
    const layout = this.el.querySelector(".table-layout .play");
    cover.hidden = !this.offline;
    if (layout) layout.inert = this.offline;
    clear(cover);
    if (this.offline) {
      cover.append(h("div", { class: "offline-box" }, h("span", { class: "spinner", "aria-hidden": "true" }),
        h("strong", {}, t("offline.title")), h("p", {}, t("offline.text"))));
    }
  }

  tick() {
    const table = this.table;
    if (!table) return;
    const hand = table.hand;
    const mine = Boolean(hand && hand.toAct && hand.toAct === table.you);
    const left = table.deadline && !this.offline ? Math.max(0, (table.deadline - Date.now()) / 1000) : 0;
    const share = table.clockTotal ? Math.min(1, left / table.clockTotal) : 0;
    for (const fill of this.el.querySelectorAll(".clock-fill")) fill.style.width = `${share * 100}%`;
    const text = this.el.querySelector(".clock-text");
    if (text) {
      const kind = table.clockKind === "draw" ? "clock.draw" : table.clockKind === "bank" ? "clock.bank" : "clock.act";
      text.textContent = table.deadline && !this.offline
        ? t(mine ? `${kind}_you` : kind, { n: Math.ceil(left), who: table.seats[hand?.toAct]?.name ?? "" }) : "";
      this.el.querySelector(".clock")?.classList.toggle("urgent", left < 5 && mine);
    }
    if (mine && table.deadline && left > 0 && left <= 5 && !this.offline) {
      const second = Math.ceil(left);
      if (second !== this.lastTick) {
        this.lastTick = second;
        play("tick");
      }
    }
    const levelClock = this.el.querySelector("#tour-next-in");
    if (levelClock && table.tournament?.levelEnds) {
      levelClock.textContent = duration((table.tournament.levelEnds - Date.now()) / 1000);
    }
    const me = table.seats[table.you];
    const bank = this.el.querySelector("#time-bank");
    if (bank) {
      // One time bank on screen: the countdown while it runs, else the server's figure.
      const known = typeof me?.time_bank === "number" && table.clockKind !== "bank";
      bank.hidden = !known;
      bank.textContent = known ? t("clock.bank_left", { n: Math.ceil(me.time_bank) }) : "";
    }
    const dialog = document.getElementById("dialog");
    if (dialog?.open) tickCountdowns(dialog);
  }

  onKey(ev) {
    if (ev.target.closest("input, textarea, select, dialog") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (this.offline) return;
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
    else if (key === "o") click("ask-openers");
    else if (key === "n") click("decline-openers");
  }
}
