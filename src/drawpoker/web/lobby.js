// The lobby: Cash and Tournaments tabs, filters, sortable live lists.
//
// Filters and the sort order are remembered (localStorage); the stakes filter
// offers the stakes of the tables the server lists, and follows the list live.

import { h, clear, chips, tickCountdowns } from "./dom.js";
import { api } from "./net.js";
import { t } from "./i18n.js";
import {
  buyInText, changeRegistration, findMyTournaments, gameText, kindText, startsText, statusText,
} from "./tournament.js";
import { factsOf, tableName, gameName, structureName, stakesText, tableDetails } from "./names.js";

const STORE = "dp.lobby";
const STRUCTURES = ["fixed-limit", "pot-limit", "no-limit"];

/** A table's stakes as one number to order by: the big blind (or the invito). */
function stakeLevel(r) {
  const f = factsOf(r);
  return f.game === "italian" ? (f.invito ?? 0) : (f.bb ?? 0);
}

/** The cash list's columns: key, and what a row sorts by. */
const CASH_COLUMNS = [
  ["name", (r) => tableName(factsOf(r), r.id, r.name)],
  ["game", (r) => (r.game === "italian" ? 10 : 0) + STRUCTURES.indexOf(r.structure)],
  ["stakes", (r) => stakeLevel(r)],
  ["players", (r) => r.seats_taken * 100 + r.seats_total],
  ["avg_pot", (r) => r.average_pot],
  ["hands_hour", (r) => r.hands_per_hour],
];
const TOURNAMENT_COLUMNS = [
  ["name", (r) => r.name],
  ["buy_in", (r) => r.buy_in + r.fee],
  ["chips", (r) => r.starting_chips],
  ["players", (r) => r.registered],
  ["starts", (r) => r.starts_at ?? 0],
  ["prize_pool", (r) => r.prize_pool],
  ["status", (r) => r.status],
];

/** Lobby order: 5 Card Draw first, then by limit, stakes and seats. */
function order(r) {
  return (r.game === "italian" ? 1e9 : 0) + Math.max(0, STRUCTURES.indexOf(r.structure)) * 1e7
    + stakeLevel(r) * 10 + (r.seats_total ?? 0);
}

export class LobbyView {
  constructor(app) {
    this.app = app;
    this.el = h("section", { class: "lobby", "aria-labelledby": "lobby-title" });
    let saved = {};
    try {
      saved = JSON.parse(localStorage.getItem(STORE) || "{}");
    } catch {
      saved = {};
    }
    this.kind = saved.kind || "cash";
    this.filters = { game: "", structure: "", stakes: "", seats: "", ...saved.filters };
    this.sort = { cash: { key: "", dir: 1 }, tournament: { key: "", dir: 1 }, ...saved.sort };
    this.listener = () => {
      if (this.app.tournamentRows.size) this.tournaments = [...this.app.tournamentRows.values()];
      this.refresh();
    };
    app.lobbyListeners.add(this.listener);
    // GET /api/tournaments rows, also pushed with the lobby's websocket messages
    this.tournaments = app.tournamentRows.size ? [...app.tournamentRows.values()] : null;
    this.mine = new Map(); // tournament id -> where I stand (the row's ``you``)
    this.busy = new Set();
    this.checked = app.checkedTournaments; // runs asked about on the tournament channel
    this.poller = setInterval(() => {
      if (this.kind === "tournament") this.fetchTournaments();
    }, 3000);
    this.ticker = setInterval(() => tickCountdowns(this.el), 1000);
    if (this.kind === "tournament") this.fetchTournaments();
  }

  destroy() {
    this.app.lobbyListeners.delete(this.listener);
    clearInterval(this.poller);
    clearInterval(this.ticker);
  }

  /** The tournament list, and (logged in) whether I am registered in each. */
  async fetchTournaments() {
    const { ok, data } = await api("/api/tournaments");
    if (!ok) return;
    const rows = data.tournaments ?? [];
    const mine = await findMyTournaments(this.app, rows, this.checked);
    this.tournaments = rows;
    this.mine = mine;
    this.refresh();
  }

  async register(row, join) {
    this.busy.add(row.id);
    this.renderList();
    await changeRegistration(this.app, row.id, join, row.name);
    this.busy.delete(row.id);
    await this.fetchTournaments();
  }

  save() {
    localStorage.setItem(STORE, JSON.stringify({ kind: this.kind, filters: this.filters, sort: this.sort }));
  }

  /** The stakes the listed cash tables play, as filter options: [value, label]. */
  stakesOptions() {
    const rows = [...this.app.lobbyRows.values()].filter((r) => r.kind === "cash"
      && (!this.filters.game || r.game === this.filters.game));
    const seen = new Map();
    for (const r of rows.sort((a, b) => stakeLevel(a) - stakeLevel(b))) {
      if (seen.has(r.stakes)) continue;
      const f = factsOf(r);
      seen.set(r.stakes, f.game === "italian" ? stakesText(f) : t("lobby.blinds", { blinds: r.stakes }));
    }
    // A remembered choice stays offered until the tables arrive.
    if (this.filters.stakes && !seen.has(this.filters.stakes)) seen.set(this.filters.stakes, this.filters.stakes);
    return [...seen];
  }

  /** Lobby rows changed: the lists, and what depends on them (stakes, my tables). */
  refresh() {
    const stakes = JSON.stringify(this.stakesOptions());
    const mine = this.myTablesKey();
    if (stakes !== this.stakesKey || mine !== this.mineKey) this.render();
    else this.renderList();
  }

  myTablesKey() {
    const seated = Object.keys(this.app.me?.stacks ?? {});
    const known = seated.map((id) => (this.app.lobbyRows.has(id) ? id : `?${id}`));
    const playing = this.app.me ? this.app.myTournamentTables().map((w) => w.table) : [];
    return JSON.stringify([known, playing, document.documentElement.lang]);
  }

  select(name, options) {
    const el = h("select", { id: `filter-${name}`, name, onchange: () => {
      this.filters[name] = el.value;
      this.save();
      if (name === "game") this.render(); // the stakes follow the game
      else this.renderList();
    } }, options.map(([value, label]) => h("option", { value }, label)));
    el.value = this.filters[name];
    return h("label", { class: "filter" }, h("span", {}, t(`lobby.filter.${name}`)), el);
  }

  render() {
    const el = clear(this.el);
    const stakes = this.stakesOptions();
    this.stakesKey = JSON.stringify(stakes);
    this.mineKey = this.myTablesKey();
    const tab = (kind) => h("button", {
      role: "tab", id: `tab-${kind}`, class: "tab", "aria-selected": String(this.kind === kind),
      onclick: () => {
        this.kind = kind;
        this.save();
        this.render();
        if (kind === "tournament") this.fetchTournaments();
      },
    }, t(`lobby.tab.${kind}`));
    const seated = Object.keys(this.app.me?.stacks ?? {});
    const playing = this.app.me ? this.app.myTournamentTables() : [];
    el.append(...[
      h("h1", { id: "lobby-title", class: "sr-only" }, t("nav.lobby")),
      seated.length || playing.length ? h("nav", { class: "my-tables", id: "my-tables", "aria-label": t("lobby.my_tables") },
        h("span", {}, t("lobby.my_tables")),
        seated.map((id) => {
          const row = this.app.lobbyRows.get(id);
          return h("a", { class: "btn small primary", href: `#/table/${encodeURIComponent(id)}`, dataset: { table: id } },
            row ? tableName(factsOf(row), id, row.name) : t("table.loading"), " · ", chips(this.app.me.stacks[id]));
        }),
        playing.map((w) => h("a", { class: "btn small primary tour-table", href: `#/table/${encodeURIComponent(w.table)}` },
          w.name ?? w.instance, " · ", t("tour.table_no", { n: w.table.match(/-t(\d+)$/)?.[1] ?? "" })))) : null,
      h("div", { class: "tabs", role: "tablist" }, tab("cash"), tab("tournament")),
      h("div", { class: "filters", role: "group", "aria-label": t("lobby.filters") },
        this.select("game", [["", t("lobby.all")], ["draw", t("game.draw")], ["italian", t("game.italian")]]),
        this.select("structure", [["", t("lobby.all")], ...STRUCTURES.map((s) => [s, structureName(s)])]),
        this.kind === "cash" ? this.select("stakes", [["", t("lobby.all")], ...stakes]) : null,
        this.kind === "cash"
          ? this.select("seats", [["", t("lobby.all")], ["6", t("lobby.max", { n: 6 })], ["8", t("lobby.max", { n: 8 })]])
          : null,
      ),
      h("div", { id: "table-list", class: "table-list", role: "region", "aria-live": "polite",
        "aria-label": t("lobby.tables") }),
    ].filter(Boolean)); // (a null child would be written "null")
    this.renderList();
  }

  /** Rows in the chosen order (by default the lobby order). */
  sorted(rows, columns) {
    const { key, dir } = this.sort[this.kind] ?? { key: "", dir: 1 };
    const column = columns.find(([k]) => k === key);
    return rows.sort((a, b) => {
      if (column) {
        const x = column[1](a);
        const y = column[1](b);
        const c = typeof x === "string" ? x.localeCompare(y) : x - y;
        if (c) return c * dir;
      }
      return order(a) - order(b) || String(a.name).localeCompare(String(b.name));
    });
  }

  /** The column heads: each sorts the list by its column (again: the other way). */
  head(columns, prefix) {
    const { key, dir } = this.sort[this.kind] ?? {};
    return h("thead", {}, h("tr", { class: "trow head" },
      ...columns.map(([k]) => {
        const sortedBy = key === k;
        return h("th", { scope: "col", class: `c-${k}`,
          "aria-sort": sortedBy ? (dir > 0 ? "ascending" : "descending") : null },
        h("button", { class: "sort", type: "button", id: `sort-${k}`, onclick: () => {
          const same = this.sort[this.kind]?.key === k;
          this.sort[this.kind] = { key: k, dir: same ? -this.sort[this.kind].dir : 1 };
          this.save();
          this.renderList();
        } }, t(`${prefix}.${k}`),
        h("span", { class: "arrow", "aria-hidden": "true" }, sortedBy ? (dir > 0 ? "▲" : "▼") : "")));
      }),
      h("th", { scope: "col", class: "c-join" }, h("span", { class: "sr-only" }, t("lobby.col.join")))));
  }

  rows() {
    return this.sorted([...this.app.lobbyRows.values()].filter((r) => {
      if (r.kind !== this.kind) return false;
      if (this.filters.game && r.game !== this.filters.game) return false;
      if (this.filters.structure && r.structure !== this.filters.structure) return false;
      if (this.filters.stakes && r.stakes !== this.filters.stakes) return false;
      if (this.filters.seats && String(r.seats_total) !== this.filters.seats) return false;
      return true;
    }), CASH_COLUMNS);
  }

  renderList() {
    const box = this.el.querySelector("#table-list");
    if (!box) return;
    clear(box);
    if (this.kind === "tournament") {
      this.renderTournaments(box);
      return;
    }
    box.setAttribute("aria-label", t("lobby.tables"));
    const rows = this.rows();
    if (!rows.length) {
      box.append(h("p", { class: "empty" }, this.app.lobbyRows.size ? t("lobby.no_tables") : t("table.loading")));
      return;
    }
    const label = (key) => h("span", { class: "label", "aria-hidden": "true" }, t(`lobby.col.${key}`), " ");
    const body = h("tbody", {});
    for (const r of rows) {
      const f = factsOf(r);
      const full = r.seats_taken >= r.seats_total;
      const title = tableName(f, r.id, r.name);
      body.append(h("tr", { class: `trow${full ? " full" : ""}`, dataset: { table: r.id } },
        h("td", { class: "c-name" }, h("strong", { class: "tname" }, title), h("span", { class: "sub" }, tableDetails(f))),
        h("td", { class: "c-game" }, label("game"), `${gameName(f)} · ${structureName(f.structure)}`),
        h("td", { class: "c-stakes" }, label("stakes"), stakesText(f)),
        h("td", { class: "c-players", title: (r.players || []).join(", ") }, label("players"),
          t("lobby.players_of", { n: r.seats_taken, of: r.seats_total }),
          r.waiting ? h("span", { class: "sub" }, t("wait.count", { n: r.waiting })) : null,
          r.status === "paused" ? h("span", { class: "sub paused" }, t("lobby.paused")) : null),
        h("td", { class: "c-avg_pot" }, label("avg_pot"), chips(r.average_pot)),
        h("td", { class: "c-hands_hour" }, label("hands_hour"), String(r.hands_per_hour)),
        h("td", { class: "c-join" }, h("a", {
          class: "btn primary small join", href: `#/table/${encodeURIComponent(r.id)}`,
          "aria-label": full ? t("lobby.watch_table", { name: title }) : t("lobby.join_table", { name: title }),
        }, full ? t("lobby.watch") : t("lobby.join"))),
      ));
    }
    box.append(h("table", { class: "lobby-table cash", id: "cash-table" },
      h("caption", { class: "sr-only" }, t("lobby.tables")),
      this.head(CASH_COLUMNS, "lobby.col"), body));
  }

  renderTournaments(box) {
    box.setAttribute("aria-label", t("lobby.tab.tournament"));
    if (this.tournaments === null) {
      box.append(h("p", { class: "loading" }, t("table.loading")));
      return;
    }
    const rows = this.sorted(this.tournaments.filter((r) => (!this.filters.game || r.game === this.filters.game)
      && (!this.filters.structure || r.structure === this.filters.structure)), TOURNAMENT_COLUMNS);
    if (!rows.length) {
      box.append(h("p", { class: "empty" }, t("lobby.no_tournaments")));
      return;
    }
    const body = h("tbody", {});
    for (const r of rows) {
      const mine = this.mine.get(r.id);
      const playing = this.app.myTournamentTables().find((w) => w.id === r.id);
      const href = `#/tournament/${encodeURIComponent(r.id)}`;
      const label = (key) => h("span", { class: "label", "aria-hidden": "true" }, t(`tour.col.${key}`), " ");
      const busy = this.busy.has(r.id);
      const buttons = h("td", { class: "c-join" });
      if (playing) {
        buttons.append(h("a", { class: "btn primary small go", href: `#/table/${encodeURIComponent(playing.table)}` },
          t("tour.go_to_table")));
      } else if (r.status === "registering" && mine?.registered) {
        buttons.append(h("button", { class: "btn small danger unregister", disabled: busy,
          "aria-label": t("tour.unregister_from", { name: r.name }), onclick: () => this.register(r, false) },
        t("tour.unregister")));
      } else if (r.status === "registering") {
        buttons.append(h("button", { class: "btn small primary register", disabled: busy || r.registered >= r.max_entries,
          "aria-label": t("tour.register_for", { name: r.name }), onclick: () => this.register(r, true) },
        t("tour.register")));
      } else {
        buttons.append(h("a", { class: "btn small", href, "aria-label": t("tour.open", { name: r.name }) },
          t("tour.view")));
      }
      body.append(h("tr", { class: `trow tour${mine ? " mine" : ""}`, dataset: { tournament: r.id } },
        h("td", { class: "c-name" }, h("a", { class: "tname", href }, h("strong", {}, r.name)),
          h("span", { class: "sub" }, `${kindText(r)} · ${gameText(r)} · `, t("tour.minutes_levels", { n: r.level_minutes }))),
        h("td", { class: "c-buy_in" }, label("buy_in"), buyInText(r)),
        h("td", { class: "c-chips" }, label("chips"), chips(r.starting_chips)),
        h("td", { class: "c-players" }, label("players"),
          h("span", { class: "registered" }, t("lobby.players_of", { n: r.registered, of: r.max_entries }))),
        h("td", { class: "c-starts" }, label("starts"), startsText(r)),
        h("td", { class: "c-prize_pool" }, label("prize_pool"), h("span", { class: "pool" }, chips(r.prize_pool))),
        h("td", { class: "c-status" }, label("status"),
          h("span", { class: `status status-${r.status}` }, statusText(r.status)),
          mine ? h("span", { class: "tag you" }, t("tour.you_in")) : null),
        buttons,
      ));
    }
    box.append(h("table", { class: "lobby-table tour", id: "tour-table" },
      h("caption", { class: "sr-only" }, t("lobby.tab.tournament")),
      this.head(TOURNAMENT_COLUMNS, "tour.col"), body));
  }
}
