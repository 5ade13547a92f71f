// Tournaments: the lobby rows' pieces, registration, and the tournament lobby page
// (#/tournament/<id>): players, tables, levels, payouts, standings, notices.

import { h, clear, chips, duration, tickCountdowns } from "./dom.js";
import { api } from "./net.js";
import { t, errorText, places, ordinal } from "./i18n.js";

const POLL_MS = 3000;

/** The tournament's game and limit in words. */
export function gameText(row) {
  const game = row.game === "italian" ? t("game.italian") : t("game.draw");
  return `${game} · ${t(`structure.${row.structure}`)}`;
}

export function kindText(row) {
  return row.kind === "scheduled" ? t("tour.kind.scheduled") : t("tour.kind.sit-and-go");
}

export function statusText(status) {
  return t(`tour.status.${status || "registering"}`);
}

/** "When full", or the local start time and a countdown. */
export function startsText(row) {
  if (!row.starts_at) return h("span", { class: "starts" }, t("tour.when_full"));
  const at = row.starts_at * 1000;
  const time = new Date(at).toLocaleTimeString(document.documentElement.lang || "en",
    { hour: "2-digit", minute: "2-digit" });
  if (row.status !== "registering" || at <= Date.now()) return h("span", { class: "starts" }, time);
  return h("span", { class: "starts" }, time, " · ", t("tour.starts_in"), " ",
    h("span", { class: "countdown", dataset: { until: at } }, duration((at - Date.now()) / 1000)));
}

export function buyInText(row) {
  return t("tour.buy_in_fee", { buy_in: chips(row.buy_in), fee: chips(row.fee) });
}

export function blindsText(level) {
  if (!level) return "";
  const params = { sb: chips(level.small_blind), bb: chips(level.big_blind), ante: chips(level.ante ?? 0) };
  return level.ante ? t("tour.blinds_ante", params) : t("tour.blinds", params);
}

/** This account's line in a tournament's ``players`` (null when not registered). */
export function myEntry(detail, me) {
  if (!detail || !me) return null;
  return (detail.players ?? []).find((p) => p.account === me.id) ?? null;
}

/** Where this player is registered or plays, from the rows' ``you`` (sent with a
 * session), and follow those tournaments' channels (YourTable, Finished).
 * Returns tournament id -> ``you``. ``checked``: the runs already followed. */
export async function findMyTournaments(app, rows, checked = new Set()) {
  const me = app.me;
  const mine = new Map();
  if (!me) return mine;
  await Promise.all(rows.map(async (r) => {
    const you = r.you;
    if (!you || (!you.registered && !(you.playing ?? []).length)) return;
    mine.set(r.id, you);
    const key = `${me.id} ${r.id} ${(you.playing ?? []).map((p) => p.instance).join(" ")} ${you.registered}`;
    if (checked.has(key)) return;
    checked.add(key);
    await app.watchTournament(r.id, r.name); // the channel's answer names my table
  }));
  return mine;
}

/** Register for (``join``) or unregister from tournament ``id``; the server's words on failure. */
export async function changeRegistration(app, id, join, name = "") {
  if (!(await app.requireAccount())) return null;
  const action = join ? "register" : "unregister";
  const { ok, status, data } = await api(`/api/tournaments/${encodeURIComponent(id)}/${action}`, { method: "POST" });
  if (!ok) {
    const code = { 400: "insufficient_funds", 401: "not_logged_in" }[status];
    app.toast(errorText({ code, message: data?.error }), "error");
    return null;
  }
  if (join) {
    app.toast(data.status === "running" ? t("tour.starting", { name }) : t("tour.registered_ok", { name }));
    let watch = await app.watchTournament(id, name);
    // A sit & go starts the moment it is full: YourTable may have been sent before
    // the channel was watched, and the configured id may already name the next run.
    // The run registered for (``tournament``) names my table in its answer.
    if (!watch?.table && data.tournament && data.tournament !== watch?.instance) {
      const run = await app.watchTournament(data.tournament, name);
      if (run?.table) watch = run;
    }
    if (watch?.table && !location.hash.startsWith("#/table/")) {
      app.flash = { key: "tour.seated", params: { n: watch.table.match(/-t(\d+)$/)?.[1] ?? "" } };
      location.hash = `#/table/${encodeURIComponent(watch.table)}`;
    }
  } else {
    app.toast(t("tour.unregistered_ok", { name, n: chips(data.refund ?? 0) }));
    if (!(app.view instanceof TournamentView && app.view.id === id)) app.unwatchTournament(id, true);
  }
  await app.refreshMe();
  return data;
}

export class TournamentView {
  constructor(app, id) {
    this.app = app;
    this.id = id;
    this.data = null;
    this.error = null;
    this.busy = false;
    this.levelEnds = null;
    this.el = h("section", { class: "tournament", "aria-labelledby": "tour-title" });
    this.poller = setInterval(() => this.refresh(), POLL_MS);
    this.ticker = setInterval(() => this.tick(), 1000);
    this.pending = null;
    this.refresh();
    app.watchTournament(id).then(() => this.render());
  }

  destroy() {
    clearInterval(this.poller);
    clearInterval(this.ticker);
    clearTimeout(this.pending);
    const mine = myEntry(this.data, this.app.me);
    const playing = this.app.tournaments.get(this.id)?.table;
    if ((!mine && !playing) || this.app.finished.has(this.data?.id)) this.app.unwatchTournament(this.id, true);
  }

  onOpen() {
    this.refresh();
  }

  onMessage(message) {
    if (message.type !== "event" || !this.data) return;
    if (message.table !== this.data.id && message.table !== this.id) return;
    clearTimeout(this.pending); // a notice: fetch the new figures soon (once for a burst)
    this.pending = setTimeout(() => this.refresh(), 300);
  }

  async refresh() {
    const { ok, status, data } = await api(`/api/tournaments/${encodeURIComponent(this.id)}`);
    if (!ok) {
      this.error = status === 404 ? t("tour.not_found") : errorText({ message: data?.error });
      this.data = null;
    } else {
      this.error = null;
      this.data = data;
      const next = data.level?.next_in_s;
      this.levelEnds = typeof next === "number" ? Date.now() + next * 1000 : null;
    }
    this.render();
  }

  /** My table: from my line in ``players``, else from the channel's YourTable. */
  myTable() {
    const watch = this.app.tournaments.get(this.id);
    if (watch?.table && !this.app.finished.has(watch.instance)) return watch.table;
    const mine = myEntry(this.data, this.app.me);
    if (!mine || !mine.chips || this.data.status !== "running") return null;
    return mine.table_id ?? null;
  }

  async register(join) {
    if (this.busy) return;
    this.busy = true;
    this.render();
    await changeRegistration(this.app, this.id, join, this.data?.name ?? "");
    this.busy = false;
    await this.refresh();
  }

  tick() {
    tickCountdowns(this.el);
    const clock = this.el.querySelector("#tour-next-in");
    if (clock && this.levelEnds) clock.textContent = duration((this.levelEnds - Date.now()) / 1000);
  }

  render() {
    const el = clear(this.el);
    el.append(h("a", { class: "btn small ghost back", href: "#/lobby" }, "← ", t("nav.lobby")));
    if (this.error) {
      el.append(h("h1", { id: "tour-title" }, t("tour.title")), h("p", { class: "empty", role: "alert" }, this.error));
      return;
    }
    const d = this.data;
    if (!d) {
      el.append(h("h1", { id: "tour-title", class: "sr-only" }, t("tour.title")), h("p", { class: "loading" }, t("table.loading")));
      return;
    }
    const me = this.app.me;
    const mine = myEntry(d, me);
    const finished = this.app.finished.get(d.id);
    el.append(
      h("header", { class: "tour-head" },
        h("h1", { id: "tour-title" }, d.name),
        h("span", { class: `badge status-${d.status}`, id: "tour-status" }, statusText(d.status)),
        h("span", { class: "badge" }, kindText(d))),
      h("dl", { class: "facts", id: "tour-facts" },
        fact(t("tour.col.buy_in"), buyInText(d)),
        fact(t("lobby.col.game"), gameText(d)),
        fact(t("tour.col.chips"), chips(d.starting_chips)),
        fact(t("tour.col.levels"), t("tour.minutes", { n: d.level_minutes })),
        fact(t("tour.col.players"), h("span", { id: "tour-registered" },
          t("lobby.players_of", { n: d.registered, of: d.max_entries }))),
        fact(t("tour.col.starts"), startsText(d)),
        fact(t("tour.col.prize_pool"), h("span", { id: "tour-pool" }, chips(d.prize_pool))),
        d.hands ? fact(t("tour.hands"), chips(d.hands)) : null),
      this.actions(d, mine),
    );
    const result = finished ?? (mine && mine.places?.length ? { places: mine.places, prize: mine.prize } : null);
    if (result) {
      el.append(h("p", { class: "tour-result", id: "tour-result", role: "status" },
        result.places[0] === 1 ? t("tour.you_won") : t("tour.you_finished", { place: places(result.places) }),
        " ", result.prize ? t("tour.your_prize", { n: chips(result.prize) }) : t("tour.no_prize")));
    }
    el.append(h("div", { class: "tour-grid" },
      this.levelPanel(d),
      this.playersPanel(d, me),
      this.tablesPanel(d),
      this.payoutsPanel(d),
      this.standingsPanel(d),
      this.noticesPanel(d)));
  }

  actions(d, mine) {
    const box = h("div", { class: "tour-actions" });
    const table = this.myTable();
    if (table) {
      box.append(h("a", { class: "btn primary", id: "tour-go", href: `#/table/${encodeURIComponent(table)}` },
        t("tour.go_to_table")));
      // A sit & go opens its next run at the start: mine may not be the one shown.
      const watch = this.app.tournaments.get(this.id);
      if (watch?.instance && watch.instance !== d.id) {
        box.append(h("a", { class: "btn", id: "tour-mine", href: `#/tournament/${encodeURIComponent(watch.instance)}` },
          t("tour.my_run")));
      }
    }
    if (d.status === "registering") {
      box.append(mine
        ? h("button", { class: "btn danger", id: "tour-unregister", disabled: this.busy,
          onclick: () => this.register(false) }, t("tour.unregister"))
        : h("button", { class: "btn primary", id: "tour-register", disabled: this.busy || d.registered >= d.max_entries,
          onclick: () => this.register(true) }, t("tour.register_cost", { n: chips(d.buy_in + d.fee) })));
    }
    if (mine && d.status === "registering") box.append(h("span", { class: "hint", id: "tour-you-registered" }, t("tour.you_registered")));
    return box;
  }

  levelPanel(d) {
    const current = d.level?.level ?? null;
    const running = d.status === "running";
    const rows = (d.levels ?? []).map((l) => h("tr", {
      class: running && l.level === current ? "current" : null,
      "aria-current": running && l.level === current ? "true" : null,
    },
    h("td", {}, l.level), h("td", {}, `${chips(l.small_blind)}/${chips(l.big_blind)}`),
    h("td", {}, l.ante ? chips(l.ante) : "—"), h("td", {}, t("tour.minutes", { n: l.minutes }))));
    const next = d.next_level ?? (d.levels ?? []).find((l) => l.level === (current ?? 0) + 1);
    return panel("tour-levels", t("tour.levels"),
      running && d.level ? h("p", { class: "tour-now" },
        h("strong", {}, t("tour.level_n", { n: d.level.level })), " ", blindsText(d.level),
        this.levelEnds ? h("span", {}, " · ", t("tour.next_in"), " ",
          h("span", { id: "tour-next-in", role: "timer" }, duration((this.levelEnds - Date.now()) / 1000))) : null,
        next ? h("span", {}, " · ", t("tour.next_level"), " ", blindsText(next)) : null) : null,
      h("table", { class: "grid" },
        h("thead", {}, h("tr", {}, h("th", {}, t("tour.col.level")), h("th", {}, t("tour.col.blinds")),
          h("th", {}, t("tour.col.ante")), h("th", {}, t("tour.col.minutes")))),
        h("tbody", {}, rows)));
  }

  playersPanel(d, me) {
    const list = [...(d.players ?? [])].sort((a, b) => (b.chips - a.chips)
      || ((a.places?.[0] ?? 1e9) - (b.places?.[0] ?? 1e9)) || a.name.localeCompare(b.name));
    if (!list.length) return panel("tour-players", t("tour.players"), h("p", { class: "hint" }, t("tour.nobody")));
    return panel("tour-players", t("tour.players"), h("table", { class: "grid" },
      h("thead", {}, h("tr", {}, h("th", {}, t("tour.col.player")), h("th", {}, t("tour.col.chips_now")),
        h("th", {}, t("tour.col.table")))),
      h("tbody", {}, list.map((p) => h("tr", { class: p.account === me?.id ? "me" : null, dataset: { name: p.name } },
        h("td", {}, p.name, p.bot ? h("span", { class: "tag bot" }, t("seat.bot")) : null),
        h("td", {}, p.places?.length ? places(p.places) : chips(p.chips)),
        h("td", {}, p.table_id && p.chips
          ? h("a", { href: `#/table/${encodeURIComponent(p.table_id)}`,
            "aria-label": t("tour.watch_table", { n: p.table }) }, p.table)
          : p.table ?? "—"))))));
  }

  tablesPanel(d) {
    const tables = (d.tables ?? []).filter((tb) => tb.seats?.length);
    if (!tables.length || d.status !== "running") return null;
    return panel("tour-tables", t("tour.tables"), tables.map((tb) => h("div", { class: "tour-table", dataset: { table: tb.id } },
      h("h3", {}, t("tour.table_no", { n: tb.id }),
        tb.table_id ? h("a", { class: "btn small", href: `#/table/${encodeURIComponent(tb.table_id)}`,
          "aria-label": t("tour.watch_table", { n: tb.id }) }, t("lobby.watch")) : null),
      h("ol", { class: "seat-list" }, (tb.seats ?? []).map((s) => h("li", {},
        h("span", { class: "seat-no" }, s.seat), " ", h("span", {}, s.name), " ", h("span", { class: "chips" }, chips(s.chips))))))));
  }

  payoutsPanel(d) {
    const payouts = d.payouts ?? [];
    return panel("tour-payouts", t("tour.payouts"), payouts.length
      ? h("table", { class: "grid" }, h("tbody", {}, payouts.map((prize, k) => h("tr", {},
        h("td", {}, ordinal(k + 1)), h("td", {}, chips(prize))))))
      : h("p", { class: "hint" }, t("tour.payouts_at_start")));
  }

  standingsPanel(d) {
    const standings = d.standings ?? [];
    if (!standings.length) return null;
    return panel("tour-standings", t("tour.standings"), h("table", { class: "grid" },
      h("tbody", {}, standings.map((s) => h("tr", { class: s.account === this.app.me?.id ? "me" : null },
        h("td", {}, places(s.places?.length ? s.places : [s.place])), h("td", {}, s.name),
        h("td", {}, s.prize ? chips(s.prize) : "—"))))));
  }

  noticesPanel(d) {
    const notices = (d.notices ?? []).slice(-15).reverse();
    if (!notices.length) return null;
    return panel("tour-notices", t("tour.notices"), h("ol", { class: "notices" },
      notices.map((n) => noticeText(n)).filter(Boolean).map((text) => h("li", {}, text))));
  }
}

/** A tournament notice in words. */
export function noticeText(n) {
  const blinds = blindsText(n);
  switch (n.type) {
    case "TournamentStarted": return t("log.tournament_started");
    case "RegistrationClosed": return t("log.registration_closed");
    case "LevelStarted": return `${t("tour.level_n", { n: n.level })}: ${blinds}`;
    case "PlayerMoved": return t("log.player_moved", { who: n.name, n: n.to_table });
    case "TableBroken": return t("log.table_broken", { n: n.table_no ?? n.table ?? "" });
    case "HandForHand": return n.on === false ? t("log.hand_for_hand_off") : t("log.hand_for_hand");
    case "FinalTable": return t("log.final_table", { n: n.table });
    case "TournamentCancelled": return t("log.tournament_cancelled");
    case "PlayerEliminated":
      return n.prize ? t("log.eliminated_prize", { who: n.name, places: places(n.places), n: chips(n.prize) })
        : t("log.eliminated", { who: n.name, places: places(n.places) });
    case "TournamentFinished": return t("log.tournament_won", { who: n.name, n: chips(n.prize ?? 0) });
    default: return null; // a notice this client does not know
  }
}

function fact(label, value) {
  return h("div", { class: "fact" }, h("dt", {}, label), h("dd", {}, value));
}

function panel(id, title, ...children) {
  return h("section", { class: "panel", id, "aria-labelledby": `${id}-h` }, h("h2", { id: `${id}-h` }, title), ...children);
}
