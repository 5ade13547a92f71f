// My hands, and the replayer: step through a finished hand, download it, verify the deal.

import { api } from "./net.js";
import { h, clear, chips } from "./dom.js";
import { t, tn } from "./i18n.js";
import { replayTo } from "./state.js";
import { renderFelt, logLine } from "./table.js";

const REFRESH_MS = 4000;

function ids(hands) {
  return hands.map((hand) => `${hand.id}:${hand.status}`).join(" ");
}

export class HistoryView {
  constructor(app) {
    this.app = app;
    this.el = h("section", { class: "history", "aria-labelledby": "history-title" });
    this.hands = null;
    this.load();
    // A hand is listed once its record is written, a moment after it ends: look again
    // while the list is open.
    this.timer = setInterval(() => {
      if (!this.el.isConnected && this.hands !== null) clearInterval(this.timer);
      else if (this.el.isConnected && !this.needLogin) this.load();
    }, REFRESH_MS);
  }

  async load() {
    if (!this.app.me) await this.app.refreshMe();
    if (!this.app.me) {
      this.needLogin = true;
      this.hands = [];
      this.render();
      return;
    }
    const { ok, status, data } = await api("/api/hands");
    const hands = ok ? data.hands : [];
    const same = this.hands !== null && ids(hands) === ids(this.hands);
    this.hands = hands;
    this.needLogin = status === 401;
    if (!same) this.render();
  }

  render() {
    const el = clear(this.el);
    el.append(h("h1", { id: "history-title" }, t("history.title")));
    if (this.needLogin) {
      el.append(h("p", {}, t("history.login")));
      return;
    }
    if (this.hands === null) {
      el.append(h("p", { class: "loading" }, t("table.loading")));
      return;
    }
    if (!this.hands.length) {
      el.append(h("p", { class: "empty" }, t("history.none")));
      return;
    }
    const list = h("ol", { class: "hand-list", id: "hand-list" });
    for (const hand of this.hands) {
      const when = new Date(hand.started_at * 1000).toLocaleString(document.documentElement.lang);
      list.append(h("li", {},
        h("a", { href: `#/hand/${encodeURIComponent(hand.id)}`, class: "hand-link" },
          h("span", { class: "h-id" }, hand.id,
            hand.tournament ? h("span", { class: "h-tour" }, t("history.tournament", { id: hand.tournament })) : null),
          h("span", { class: "h-when" }, when),
          h("span", { class: "h-pot" }, t("history.pot", { n: chips(hand.pot) })),
          h("span", { class: `h-net ${hand.net > 0 ? "up" : hand.net < 0 ? "down" : ""}` },
            (hand.net > 0 ? "+" : "") + chips(hand.net)))));
    }
    el.append(list);
  }
}

async function sha256Hex(hex) {
  const bytes = new Uint8Array(hex.match(/../g).map((b) => parseInt(b, 16)));
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export class HandView {
  constructor(app, id) {
    this.app = app;
    this.id = id;
    this.el = h("section", { class: "replayer", "aria-labelledby": "replay-title" });
    this.events = null;
    this.step = 0;
    this.verdict = null;
    this.keys = (ev) => {
      if (ev.target.closest("input, textarea, select")) return;
      if (ev.key === "ArrowRight") this.go(this.step + 1);
      else if (ev.key === "ArrowLeft") this.go(this.step - 1);
    };
    document.addEventListener("keydown", this.keys);
    this.load();
  }

  destroy() {
    document.removeEventListener("keydown", this.keys);
  }

  async load() {
    const { ok, data } = await api(`/api/hands/${encodeURIComponent(this.id)}`);
    this.error = ok ? null : data?.error ?? t("error.generic");
    this.events = ok ? data.events : [];
    this.commitment = ok ? data.commitment : "";
    const mine = this.events.find((e) => e.type === "CardsReceived");
    this.me = mine ? mine.seat : null;
    const seats = ok ? await api(`/api/hands/${encodeURIComponent(this.id)}/seats`) : null;
    this.names = seats?.ok ? seats.data.names : {};
    if (seats?.ok) this.me = seats.data.you;
    this.step = this.events.length;
    this.render();
  }

  go(step) {
    if (!this.events) return;
    this.step = Math.max(0, Math.min(this.events.length, step));
    this.render();
  }

  async verify() {
    const seedEvent = this.events.find((e) => e.type === "DeckRevealed");
    const local = seedEvent ? (await sha256Hex(seedEvent.seed)) === this.commitment : false;
    const { ok, data } = await api(`/api/hands/${encodeURIComponent(this.id)}/verify`);
    this.verdict = { local, server: ok ? data : null, error: ok ? null : data?.error };
    this.render();
  }

  render() {
    const el = clear(this.el);
    el.append(h("div", { class: "table-bar" },
      h("a", { class: "btn small ghost", href: "#/history" }, "← ", t("nav.history")),
      h("h1", { id: "replay-title" }, t("replay.title", { id: this.id }))));
    if (this.events === null) {
      el.append(h("p", { class: "loading" }, t("table.loading")));
      return;
    }
    if (this.error) {
      el.append(h("p", { class: "error" }, this.error));
      return;
    }
    const nameOf = (seat) => {
      const name = this.names?.[seat];
      if (seat === this.me) return name ? t("replay.you_named", { name }) : t("replay.you", { n: seat });
      return name || t("seat.number", { n: seat });
    };
    const table = replayTo(this.events, this.step, this.me, nameOf);
    table.maxSeats = Math.max(2, ...Object.keys(table.seats).map(Number));
    const felt = h("div", { class: "felt replay-felt", role: "region", "aria-label": t("replay.table") });
    renderFelt(felt, table, { replay: true });
    const total = this.events.length;
    const controls = h("div", { class: "replay-controls", role: "group", "aria-label": t("replay.controls") },
      h("button", { class: "btn", id: "replay-start", onclick: () => this.go(0), "aria-label": t("replay.start") }, "«"),
      h("button", { class: "btn", id: "replay-back", onclick: () => this.go(this.step - 1), "aria-label": t("replay.back") }, "◀"),
      h("span", { class: "replay-step", id: "replay-step" }, t("replay.step", { n: this.step, of: total })),
      h("button", { class: "btn", id: "replay-forward", onclick: () => this.go(this.step + 1), "aria-label": t("replay.forward") }, "▶"),
      h("button", { class: "btn", id: "replay-end", onclick: () => this.go(total), "aria-label": t("replay.end") }, "»"));
    const current = this.step > 0 ? this.events[this.step - 1] : null;
    const lines = table.log;
    const tools = h("div", { class: "replay-tools" },
      h("a", { class: "btn small", id: "download-ps", href: `/api/hands/${encodeURIComponent(this.id)}/pokerstars`,
        download: `${this.id}.txt` }, t("replay.download_ps")),
      h("a", { class: "btn small", id: "download-phh", href: `/api/hands/${encodeURIComponent(this.id)}/phh`,
        download: `${this.id}.phh` }, t("replay.download_phh")),
      h("button", { class: "btn small primary", id: "verify", onclick: () => this.verify() }, t("replay.verify")));
    const verdict = h("div", { class: "verdict", id: "verdict", role: "status" });
    if (this.verdict) {
      const v = this.verdict;
      verdict.append(h("p", { class: v.local ? "ok" : "bad" }, v.local ? t("verify.local_ok") : t("verify.local_bad")));
      if (v.server) {
        verdict.append(h("p", { class: v.server.ok ? "ok" : "bad" },
          v.server.ok ? tn("verify.server_ok", v.server.cards) : t("verify.server_bad", { text: v.server.message })));
        verdict.append(h("p", { class: "mono" }, t("verify.commitment"), " ", h("code", {}, v.server.commitment || "")));
        verdict.append(h("p", { class: "mono" }, t("verify.seed"), " ", h("code", {}, v.server.seed || "")));
      } else if (v.error) {
        verdict.append(h("p", { class: "bad" }, v.error));
      }
    }
    el.append(
      h("div", { class: "replay-layout" },
        h("div", { class: "play" }, felt, controls,
          h("p", { class: "replay-now", id: "replay-now", "aria-live": "polite" },
            current && lines.length ? logLine(lines[lines.length - 1]) : t("replay.begin"))),
        h("aside", { class: "side" }, tools, verdict,
          h("ol", { class: "log", id: "replay-log" }, lines.map((entry) => h("li", { class: entry.cls }, logLine(entry)))))),
    );
  }
}
