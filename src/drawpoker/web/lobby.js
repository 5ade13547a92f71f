// The lobby: Cash and Tournaments tabs, filters, the live table list.

import { h, clear, chips, tickCountdowns } from "./dom.js";
import { api } from "./net.js";
import { t } from "./i18n.js";
import {
  buyInText, changeRegistration, findMyTournaments, gameText, kindText, startsText, statusText,
} from "./tournament.js";

const FILTERS = ["game", "structure", "stakes", "seats"];

export class LobbyView {
  constructor(app) {
    this.app = app;
    this.el = h("section", { class: "lobby", "aria-labelledby": "lobby-title" });
    const saved = JSON.parse(sessionStorage.getItem("dp.lobby") || "{}");
    this.kind = saved.kind || "cash";
    this.filters = { game: "", structure: "", stakes: "", seats: "", ...saved.filters };
    this.listener = () => {
      if (this.app.tournamentRows.size) this.tournaments = [...this.app.tournamentRows.values()];
      this.renderList();
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
    const playing = this.app.myTournamentTables().map((w) => w.table).join(" ");
    if (playing !== this.playing) {
      this.playing = playing;
      this.render(); // "Your tables" lists the tournament tables too
    } else if (this.kind === "tournament") {
      this.renderList();
    }
  }

  async register(row, join) {
    this.busy.add(row.id);
    this.renderList();
    await changeRegistration(this.app, row.id, join, row.name);
    this.busy.delete(row.id);
    await this.fetchTournaments();
  }

  save() {
    sessionStorage.setItem("dp.lobby", JSON.stringify({ kind: this.kind, filters: this.filters }));
  }

  select(name, options) {
    const el = h("select", { id: `filter-${name}`, name, onchange: () => {
      this.filters[name] = el.value;
      this.save();
      this.renderList();
    } }, options.map(([value, label]) => h("option", { value }, label)));
    el.value = this.filters[name];
    return h("label", { class: "filter" }, h("span", {}, t(`lobby.filter.${name}`)), el);
  }

  render() {
    const el = clear(this.el);
    const stakes = [...new Set([...this.app.lobbyRows.values()].map((r) => r.stakes))]
      .sort((a, b) => parseInt(a, 10) - parseInt(b, 10));
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
          return h("a", { class: "btn small primary", href: `#/table/${encodeURIComponent(id)}` },
            row ? tableName(row) : id, " · ", chips(this.app.me.stacks[id]));
        }),
        playing.map((w) => h("a", { class: "btn small primary tour-table", href: `#/table/${encodeURIComponent(w.table)}` },
          w.name ?? w.instance, " · ", t("tour.table_no", { n: w.table.match(/-t(\d+)$/)?.[1] ?? "" })))) : null,
      h("div", { class: "tabs", role: "tablist" }, tab("cash"), tab("tournament")),
      h("div", { class: "filters", role: "group", "aria-label": t("lobby.filters") },
        this.select("game", [["", t("lobby.all")], ["draw", t("game.draw")], ["italian", t("game.italian")]]),
        this.select("structure", [["", t("lobby.all")], ["fixed-limit", t("structure.fixed-limit")],
          ["pot-limit", t("structure.pot-limit")], ["no-limit", t("structure.no-limit")]]),
        this.kind === "cash" ? this.select("stakes", [["", t("lobby.all")], ...stakes.map((s) => [s, s])]) : null,
        this.kind === "cash"
          ? this.select("seats", [["", t("lobby.all")], ["6", t("lobby.max", { n: 6 })], ["8", t("lobby.max", { n: 8 })]])
          : null,
      ),
      h("div", { id: "table-list", class: "table-list", role: "region", "aria-live": "polite",
        "aria-label": t("lobby.tables") }),
    ].filter(Boolean)); // (a null child would be written "null")
    this.renderList();
  }

  rows() {
    return [...this.app.lobbyRows.values()].filter((r) => {
      if (r.kind !== this.kind) return false;
      if (this.filters.game && r.game !== this.filters.game) return false;
      if (this.filters.structure && r.structure !== this.filters.structure) return false;
      if (this.filters.stakes && r.stakes !== this.filters.stakes) return false;
      if (this.filters.seats && String(r.seats_total) !== this.filters.seats) return false;
      return true;
    }).sort((a, b) => order(a) - order(b) || a.name.localeCompare(b.name));
  }

  renderList() {
    const box = this.el.querySelector("#table-list");
    if (!box) return;
    clear(box);
    if (this.kind === "tournament") {
      this.renderTournaments(box);
      return;
    }
    const rows = this.rows();
    if (!rows.length) {
      box.append(h("p", { class: "empty" },
        this.kind === "tournament" ? t("lobby.no_tournaments") : t("lobby.no_tables")));
      return;
    }
    const head = h("div", { class: "trow head", "aria-hidden": "true" },
      ...["name", "game", "stakes", "players", "avg_pot", "hands_hour", ""].map((k) =>
        h("span", { class: `c-${k || "join"}` }, k ? t(`lobby.col.${k}`) : "")));
    box.append(head);
    for (const r of rows) {
      const full = r.seats_taken >= r.seats_total;
      const game = r.game === "italian" ? t("game.italian") : t("game.draw");
      box.append(h("div", { class: "trow", dataset: { table: r.id } },
        h("span", { class: "c-name" }, h("strong", {}, tableName(r))),
        h("span", { class: "c-game" }, `${game} · ${t(`structure.${r.structure}`)}`),
        h("span", { class: "c-stakes" }, r.game === "italian" ? t("lobby.invito", { n: r.stakes }) : r.stakes),
        h("span", { class: "c-players", title: (r.players || []).join(", ") },
          h("span", { class: "label" }, t("lobby.col.players") + " "),
          t("lobby.players_of", { n: r.seats_taken, of: r.seats_total })),
        h("span", { class: "c-avg_pot" }, h("span", { class: "label" }, t("lobby.col.avg_pot") + " "), chips(r.average_pot)),
        h("span", { class: "c-hands_hour" }, h("span", { class: "label" }, t("lobby.col.hands_hour") + " "), r.hands_per_hour),
        h("span", { class: "c-join" }, h("a", {
          class: "btn primary small join", href: `#/table/${encodeURIComponent(r.id)}`,
          "aria-label": t("lobby.join_table", { name: tableName(r) }),
        }, full ? t("lobby.watch") : t("lobby.join"))),
      ));
    }
  }

  renderTournaments(box) {
    box.setAttribute("aria-label", t("lobby.tab.tournament"));
    if (this.tournaments === null) {
      box.append(h("p", { class: "loading" }, t("table.loading")));
      return;
    }
    const rows = this.tournaments.filter((r) => (!this.filters.game || r.game === this.filters.game)
      && (!this.filters.structure || r.structure === this.filters.structure));
    if (!rows.length) {
      box.append(h("p", { class: "empty" }, t("lobby.no_tournaments")));
      return;
    }
    box.append(h("div", { class: "trow tour head", "aria-hidden": "true" },
      ...["name", "buy_in", "chips", "players", "starts", "prize_pool", "status", ""].map((k) =>
        h("span", { class: `c-${k || "join"}` }, k ? t(`tour.col.${k}`) : ""))));
    for (const r of rows) {
      const mine = this.mine.get(r.id);
      const playing = this.app.myTournamentTables().find((w) => w.id === r.id);
      const href = `#/tournament/${encodeURIComponent(r.id)}`;
      const label = (key) => h("span", { class: "label" }, t(`tour.col.${key}`) + " ");
      const busy = this.busy.has(r.id);
      const buttons = h("span", { class: "c-join" });
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
      box.append(h("div", { class: `trow tour${mine ? " mine" : ""}`, dataset: { tournament: r.id } },
        h("span", { class: "c-name" }, h("a", { class: "tname", href }, h("strong", {}, r.name)),
          h("span", { class: "sub" }, `${kindText(r)} · ${gameText(r)} · `, t("tour.minutes_levels", { n: r.level_minutes }))),
        h("span", { class: "c-buy_in" }, label("buy_in"), buyInText(r)),
        h("span", { class: "c-chips" }, label("chips"), chips(r.starting_chips)),
        h("span", { class: "c-players" }, label("players"),
          h("span", { class: "registered" }, t("lobby.players_of", { n: r.registered, of: r.max_entries }))),
        h("span", { class: "c-starts" }, label("starts"), startsText(r)),
        h("span", { class: "c-prize_pool" }, label("prize_pool"), h("span", { class: "pool" }, chips(r.prize_pool))),
        h("span", { class: "c-status" }, label("status"),
          h("span", { class: `status status-${r.status}` }, statusText(r.status)),
          mine ? h("span", { class: "tag you" }, t("tour.you_in")) : null),
        buttons,
      ));
    }
  }
}

const STRUCTURES = ["fixed-limit", "pot-limit", "no-limit"];

/** Lobby order: 5 Card Draw first, then by limit, stakes and seats. */
function order(r) {
  const big = parseInt(String(r.stakes).split("/").pop(), 10) || 0;
  return (r.game === "italian" ? 1e9 : 0) + STRUCTURES.indexOf(r.structure) * 1e7 + big * 10 + r.seats_total;
}

/** A table's name in the current language, from its figures. */
export function tableName(r) {
  if (r.game === "italian") return t("lobby.name_italian", { n: r.stakes, seats: r.seats_total });
  return t("lobby.name_draw", { s: t(`structure.${r.structure}`), stakes: r.stakes, seats: r.seats_total });
}
