// My hands, and the replayer: step through a finished hand, download it, verify the deal.

import { api } from "./net.js";
import { h, clear, chips } from "./dom.js";
import { t, tn, cardName, handDescription, errorText } from "./i18n.js";
import { replayTo } from "./state.js";
import { renderFelt, layoutFelt, logLine } from "./felt.js";
import { cardSvg } from "./cards.js";
import { factsOf, tableName } from "./names.js";

const REFRESH_MS = 4000;
const REPLAY_MS = 900;
const PAGE = 50;

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
    const { ok, status, data } = await api(`/api/hands?limit=${PAGE}`);
    const fresh = ok ? data.hands : [];
    // Keep the older pages already fetched ("Older hands").
    const known = new Set(fresh.map((hand) => hand.id));
    const hands = [...fresh, ...(this.older ?? []).filter((hand) => !known.has(hand.id))];
    const same = this.hands !== null && ids(hands) === ids(this.hands);
    this.hands = hands;
    if (this.more === undefined) this.more = fresh.length === PAGE;
    this.needLogin = status === 401;
    if (!same) this.render();
  }

  async loadOlder() {
    const last = this.hands?.at(-1);
    if (!last) return;
    const { ok, data } = await api(`/api/hands?limit=${PAGE}&before=${last.started_at}`);
    if (!ok) return;
    this.older = [...(this.older ?? []), ...data.hands];
    this.more = data.hands.length === PAGE;
    this.hands = [...this.hands, ...data.hands];
    this.render();
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
    for (const hand of this.hands) list.append(h("li", {}, handRow(hand)));
    el.append(list);
    if (this.more) {
      el.append(h("button", { class: "btn", id: "older-hands", onclick: () => this.loadOlder() }, t("history.older")));
    }
  }
}

/** The table a hand was played at, as every screen names it. */
export function handTableName(hand) {
  if (hand.tournament) {
    const name = hand.tournament_name || hand.tournament;
    return hand.table_no ? `${name} · ${t("tour.table_no", { n: hand.table_no })}` : name;
  }
  return hand.facts ? tableName(factsOf(hand.facts), hand.table, hand.table_name) : hand.table_name || hand.table;
}

/** One line of My hands: when, where, my cards, the result. */
function handRow(hand) {
  const when = new Date(hand.started_at * 1000).toLocaleString(document.documentElement.lang,
    { dateStyle: "medium", timeStyle: "short" });
  const cards = h("span", { class: "h-cards", role: "img",
    "aria-label": (hand.cards ?? []).length ? hand.cards.map(cardName).join(", ") : t("history.no_cards") },
  (hand.cards ?? []).map((c) => h("span", { class: "mini-card", "aria-hidden": "true", html: cardSvg(c) })));
  let outcome = "";
  if (hand.shown) outcome = t("history.showed", { desc: handDescription(hand.shown) });
  else if (hand.folded) outcome = t("history.folded");
  const net = Number(hand.net ?? 0);
  return h("a", { href: `#/hand/${encodeURIComponent(hand.id)}`, class: "hand-link", dataset: { hand: hand.id } },
    h("span", { class: "h-where" }, h("strong", { class: "h-table" }, handTableName(hand)),
      hand.tournament ? h("span", { class: "h-tour" }, t("history.tournament", { id: hand.tournament_name || hand.tournament })) : null,
      h("span", { class: "h-when" }, when)),
    cards,
    h("span", { class: "h-outcome" }, outcome, h("span", { class: "h-pot" }, t("history.pot", { n: chips(hand.pot) }))),
    h("span", { class: `h-net ${net > 0 ? "up" : net < 0 ? "down" : ""}`, "aria-label": t("history.net", { n: chips(net) }) },
      (net > 0 ? "+" : "") + chips(net)));
}

const fromHex = (hex) => new Uint8Array(hex.match(/../g).map((b) => parseInt(b, 16)));
const toHex = (bytes) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
const cardIndex = (text) => "23456789TJQKA".indexOf(text[0]) * 4 + "cdhs".indexOf(text[1]);

async function sha256(...parts) {
  const data = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    data.set(part, at);
    at += part.length;
  }
  return new Uint8Array(await crypto.subtle.digest("SHA-256", data));
}

/** The root an opening leads to (docs/fairness.md): the salted leaf, then each
 * sibling on the way up; "" if the position does not fit the tree. */
async function openingRoot(o) {
  let hash = await sha256(Uint8Array.of(0, o.deck, o.position, cardIndex(o.card)), fromHex(o.salt));
  let index = o.position;
  for (const sibling of o.path) {
    const other = fromHex(sibling);
    hash = index & 1 ? await sha256(Uint8Array.of(1), other, hash) : await sha256(Uint8Array.of(1), hash, other);
    index >>= 1;
  }
  return index ? "" : toHex(hash);
}

/** Check, in the browser, every opening of the cards I saw against the root of
 * its deck: the first deck's commitment, then one per reshuffle. */
async function checkOpenings(openings, commitment, events, deckCommitments) {
  const reshuffles = events.filter((e) => e.type === "Reshuffled").map((e) => e.commitment);
  const roots = [commitment, ...(reshuffles.every(Boolean) ? reshuffles : deckCommitments ?? [])];
  if (!openings?.length) return { ok: false, n: 0 };
  for (const o of openings) {
    if (!roots[o.deck] || (await openingRoot(o)) !== roots[o.deck]) return { ok: false, n: openings.length };
  }
  return { ok: true, n: openings.length };
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
    this.pause();
  }

  async load() {
    const { ok, data } = await api(`/api/hands/${encodeURIComponent(this.id)}`);
    this.error = ok ? null : data?.error ?? t("error.generic");
    this.events = ok ? data.events : [];
    this.commitment = ok ? data.commitment : "";
    this.openings = ok ? data.openings ?? [] : [];
    this.deckCommitments = ok ? data.deck_commitments ?? [] : [];
    const mine = this.events.find((e) => e.type === "CardsReceived");
    this.me = mine ? mine.seat : null;
    const seats = ok ? await api(`/api/hands/${encodeURIComponent(this.id)}/seats`) : null;
    this.names = seats?.ok ? seats.data.names : {};
    this.tableId = seats?.ok ? seats.data.table : null;
    if (seats?.ok) this.me = seats.data.you;
    this.step = 0; // from the start: the result is not given away
    this.render();
  }

  /** The cash table the hand was played at, named as everywhere ("" if the lobby
   * does not list it). */
  where() {
    const row = this.app.lobbyRows.get(this.tableId);
    return row ? tableName(factsOf(row), row.id, row.name) : "";
  }

  /** Report the hand to the staff ("possible collusion"). */
  async report() {
    const { ok, data, status } = await api("/api/reports", {
      method: "POST", body: { kind: "hand", hand: this.id, note: "possible collusion" },
    });
    this.app.toast(ok ? t("report.sent") : errorText({ code: status === 429 ? "report_limited" : "", message: data?.error }),
      ok ? "info" : "error");
  }

  go(step) {
    if (!this.events) return;
    this.step = Math.max(0, Math.min(this.events.length, step));
    if (this.step >= this.events.length) this.pause();
    this.render();
  }

  /** Step on by itself, one event every ``REPLAY_MS``. */
  playOrPause() {
    if (this.player) {
      this.pause();
    } else {
      if (this.step >= this.events.length) this.step = 0;
      this.player = setInterval(() => this.go(this.step + 1), REPLAY_MS);
    }
    this.render();
  }

  pause() {
    clearInterval(this.player);
    this.player = null;
  }

  async verify() {
    let local = { ok: false, n: 0 };
    try {
      local = await checkOpenings(this.openings, this.commitment, this.events, this.deckCommitments);
    } catch {
      // no WebCrypto (an insecure origin): the server's check below still runs
    }
    const { ok, data } = await api(`/api/hands/${encodeURIComponent(this.id)}/verify`);
    this.verdict = { local, server: ok ? data : null, error: ok ? null : data?.error };
    this.render();
  }

  render() {
    const el = clear(this.el);
    el.append(h("div", { class: "table-bar" },
      h("a", { class: "btn small ghost", href: "#/history" }, "← ", t("nav.history")),
      h("h1", { id: "replay-title" }, t("replay.title", { id: this.id }),
        this.where() ? h("span", { class: "replay-where", id: "replay-where" }, this.where()) : null)));
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
      if (seat === this.me && !name) return t("replay.you", { n: seat });
      return name || t("seat.number", { n: seat });
    };
    const table = replayTo(this.events, this.step, this.me, nameOf);
    table.maxSeats = Math.max(2, ...Object.keys(table.seats).map(Number));
    const felt = h("div", { class: "felt replay-felt", role: "region", "aria-label": t("replay.table") });
    const total = this.events.length;
    const controls = h("div", { class: "replay-controls", role: "group", "aria-label": t("replay.controls") },
      h("button", { class: "btn", id: "replay-start", onclick: () => this.go(0), "aria-label": t("replay.start") }, "«"),
      h("button", { class: "btn", id: "replay-back", onclick: () => this.go(this.step - 1), "aria-label": t("replay.back") }, "◀"),
      h("span", { class: "replay-step", id: "replay-step" }, t("replay.step", { n: this.step, of: total })),
      h("button", { class: "btn", id: "replay-play", onclick: () => this.playOrPause(),
        "aria-label": this.player ? t("replay.pause") : t("replay.play") }, this.player ? "❚❚" : "▷"),
      h("button", { class: "btn", id: "replay-forward", onclick: () => this.go(this.step + 1), "aria-label": t("replay.forward") }, "▶"),
      h("button", { class: "btn", id: "replay-end", onclick: () => this.go(total), "aria-label": t("replay.end") }, "»"));
    const current = this.step > 0 ? this.events[this.step - 1] : null;
    const lines = table.log;
    const tools = h("div", { class: "replay-tools" },
      h("a", { class: "btn small", id: "download-ps", href: `/api/hands/${encodeURIComponent(this.id)}/pokerstars`,
        download: `${this.id}.txt` }, t("replay.download_ps")),
      h("a", { class: "btn small", id: "download-phh", href: `/api/hands/${encodeURIComponent(this.id)}/phh`,
        download: `${this.id}.phh` }, t("replay.download_phh")),
      h("button", { class: "btn small primary", id: "verify", onclick: () => this.verify() }, t("replay.verify")),
      h("button", { class: "btn small", id: "report-hand", onclick: () => this.report() }, t("report.hand")));
    const verdict = h("div", { class: "verdict", id: "verdict", role: "status" });
    if (this.verdict) {
      const v = this.verdict;
      verdict.append(h("p", { class: v.local.ok ? "ok" : "bad" },
        v.local.ok ? tn("verify.local_ok", v.local.n) : t("verify.local_bad")));
      if (v.server) {
        verdict.append(h("p", { class: v.server.ok ? "ok" : "bad" },
          v.server.ok ? tn("verify.server_ok", v.server.opened || v.server.cards)
            : t("verify.server_bad", { text: v.server.message })));
        verdict.append(h("p", { class: "mono" }, t("verify.commitment"), " ", h("code", {}, v.server.commitment || "")));
        verdict.append(v.server.seed
          ? h("p", { class: "mono" }, t("verify.seed"), " ", h("code", {}, v.server.seed))
          : h("p", {}, t("verify.private")));
      } else if (v.error) {
        verdict.append(h("p", { class: "bad" }, v.error));
      }
    }
    el.append(
      h("div", { class: "replay-layout" },
        h("div", { class: "play" }, felt, controls,
          h("p", { class: "replay-now", id: "replay-now", "aria-live": "polite" },
            current && lines.length ? logLine(lines[lines.length - 1]) : t("replay.begin"))),
        h("div", { class: "side", role: "region", "aria-label": t("replay.side") }, tools, verdict,
          h("ol", { class: "log", id: "replay-log" }, lines.map((entry) => h("li", { class: entry.cls }, logLine(entry)))))),
    );
    renderFelt(felt, table, { replay: true }); // (in the page: the seats are laid out by size)
    if (!this.observer && typeof ResizeObserver === "function") {
      this.observer = new ResizeObserver(() => {
        const stage = this.el.querySelector(".replay-felt");
        if (stage) layoutFelt(stage);
      });
      this.observer.observe(this.el);
    }
  }
}
