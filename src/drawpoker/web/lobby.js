// The lobby: Cash and Tournaments tabs, filters, the live table list.

import { h, clear, chips } from "./dom.js";
import { t } from "./i18n.js";

const FILTERS = ["game", "structure", "stakes", "seats"];

export class LobbyView {
  constructor(app) {
    this.app = app;
    this.el = h("section", { class: "lobby", "aria-labelledby": "lobby-title" });
    const saved = JSON.parse(sessionStorage.getItem("dp.lobby") || "{}");
    this.kind = saved.kind || "cash";
    this.filters = { game: "", structure: "", stakes: "", seats: "", ...saved.filters };
    this.listener = () => this.renderList();
    app.lobbyListeners.add(this.listener);
  }

  destroy() {
    this.app.lobbyListeners.delete(this.listener);
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
      onclick: () => { this.kind = kind; this.save(); this.render(); },
    }, t(`lobby.tab.${kind}`));
    const seated = Object.keys(this.app.me?.stacks ?? {});
    el.append(
      h("h1", { id: "lobby-title", class: "sr-only" }, t("nav.lobby")),
      seated.length ? h("nav", { class: "my-tables", id: "my-tables", "aria-label": t("lobby.my_tables") },
        h("span", {}, t("lobby.my_tables")),
        seated.map((id) => {
          const row = this.app.lobbyRows.get(id);
          return h("a", { class: "btn small primary", href: `#/table/${encodeURIComponent(id)}` },
            row ? tableName(row) : id, " · ", chips(this.app.me.stacks[id]));
        })) : null,
      h("div", { class: "tabs", role: "tablist" }, tab("cash"), tab("tournament")),
      h("div", { class: "filters", role: "group", "aria-label": t("lobby.filters") },
        this.select("game", [["", t("lobby.all")], ["draw", t("game.draw")], ["italian", t("game.italian")]]),
        this.select("structure", [["", t("lobby.all")], ["fixed-limit", t("structure.fixed-limit")],
          ["pot-limit", t("structure.pot-limit")], ["no-limit", t("structure.no-limit")]]),
        this.select("stakes", [["", t("lobby.all")], ...stakes.map((s) => [s, s])]),
        this.select("seats", [["", t("lobby.all")], ["6", t("lobby.max", { n: 6 })], ["8", t("lobby.max", { n: 8 })]]),
      ),
      h("div", { id: "table-list", class: "table-list", role: "region", "aria-live": "polite",
        "aria-label": t("lobby.tables") }),
    );
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
