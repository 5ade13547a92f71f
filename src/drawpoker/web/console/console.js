// The staff's console (/console): the room's figures, opening tables, looking
// up a player (mute, balance correction, suspension, role), players' reports,
// pairs of players worth a look, any finished hand with every card, and the
// audit log. Every figure
// and change goes through /api/admin/, which checks the account's role; this
// page only hides what the role cannot use. English only for now.

import { h, clear } from "../dom.js";
import { api } from "../net.js";

const ROLES = ["player", "moderator", "operator", "administrator"];
const main = document.getElementById("console");
let role = "player";

const atLeast = (wanted) => ROLES.indexOf(role) >= ROLES.indexOf(wanted);
const when = (seconds) => new Date(seconds * 1000).toISOString().replace("T", " ").slice(0, 19) + " UTC";

function field(label, input) {
  return h("label", { class: "field" }, h("span", {}, label), input);
}

function input(name, attrs = {}) {
  return h("input", { name, id: `c-${name}`, ...attrs });
}

function select(name, options, value) {
  const el = h("select", { name, id: `c-${name}` },
    options.map((o) => h("option", { value: o, selected: o === value }, o)));
  return el;
}

/** A form that posts its fields (as built by ``body``) and says what came back. */
function form(id, title, fields, submitText, send) {
  const status = h("p", { class: "status", role: "status", id: `${id}-status` });
  const el = h("form", { class: "panel", id }, title ? h("h2", {}, title) : null, ...fields,
    h("button", { class: "btn primary", type: "submit" }, submitText), status);
  el.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = Object.fromEntries(new FormData(el).entries());
    status.textContent = "…";
    const { ok, data: reply } = await send(data);
    status.textContent = ok ? reply.message : (reply?.error || "refused");
    status.className = ok ? "status ok" : "status error";
  });
  return el;
}

async function post(path, body, message) {
  const reply = await api(path, { method: "POST", body });
  return reply.ok ? { ok: true, data: { message: message(reply.data) } } : reply;
}

// ------------------------------------------------------------------ overview

const FIGURES = [
  ["hands_last_minute", "Hands in the last minute"],
  ["hands_last_hour", "Hands in the last hour"],
  ["hands_today", "Hands today (UTC)"],
  ["rake_today", "Rake today"],
  ["tournaments_running", "Tournaments running"],
  ["players_seated", "Players at cash tables"],
  ["adjustments", "Balance corrections made"],
];

function overview() {
  const list = h("dl", { class: "figures", id: "figures" });
  const panel = h("section", { class: "panel", id: "overview" }, h("h2", {}, "The room"), list);
  async function refresh() {
    const { ok, data } = await api("/api/admin/overview");
    if (!ok) return;
    const here = data.this_process;
    clear(list).append(...FIGURES.flatMap(([key, label]) => [h("dt", {}, label), h("dd", { dataset: { figure: key } }, String(data[key]))]),
      h("dt", {}, "This process"),
      h("dd", { dataset: { figure: "this_process" } },
        `${here.connections} connections, ${here.units} tables and tournaments, ${here.seated} players seated`));
  }
  refresh();
  setInterval(refresh, 5000);
  return panel;
}

// ------------------------------------------------------------------ tables

function openTable() {
  return form("open-table", "Open a cash table", [
    field("Id (a-z, 0-9, -)", input("id", { required: true, pattern: "[a-z0-9][a-z0-9\\-]{0,23}" })),
    field("Name", input("name", { required: true, maxlength: 40 })),
    field("Game", select("preset", ["online", "italian"], "online")),
    field("Structure", select("structure", ["no-limit", "pot-limit", "fixed-limit"], "no-limit")),
    field("Small blind", input("small_blind", { type: "number", min: 0, value: 1 })),
    field("Big blind (invito for Italian)", input("big_blind", { type: "number", min: 1, value: 2 })),
    field("Seats", input("max_seats", { type: "number", min: 2, max: 8, value: 6 })),
    field("Minimum buy-in", input("min_buy_in", { type: "number", min: 1, value: 40 })),
    field("Maximum buy-in", input("max_buy_in", { type: "number", min: 1, value: 200 })),
    field("House bots", input("bots", { type: "number", min: 0, max: 7, value: 0 })),
    field("Reason", input("reason", { required: true, maxlength: 500 })),
  ], "Open the table", (f) => {
    const blinds = f.preset === "italian"
      ? { invito: Number(f.big_blind) }
      : { small_blind: Number(f.small_blind), big_blind: Number(f.big_blind) };
    const game = { preset: f.preset, structure: f.structure, max_seats: Number(f.max_seats), ...blinds };
    return post("/api/admin/tables", {
      id: f.id, name: f.name, game, reason: f.reason, bots: Number(f.bots),
      min_buy_in: Number(f.min_buy_in), max_buy_in: Number(f.max_buy_in),
    }, (reply) => `Table ${reply.table} is open.`);
  });
}

// ------------------------------------------------------------------ players

function playerCard(card) {
  const rows = [
    ["Name", card.name], ["Kind", card.kind], ["Role", card.role],
    ["Balance", card.balance], ["Hands played", card.hands],
    ["Chat", card.muted_until ? `muted until ${when(card.muted_until)}` : "allowed"],
    ["Account", !card.suspended_until ? "in good standing"
      : card.suspended_until > 2.5e11 ? "banned" : `suspended until ${when(card.suspended_until)}`],
  ];
  rows.push(["Addresses", card.addresses.map((a) => a.address).join(", ") || "none recorded"]);
  return h("div", { id: "player-card" },
    h("dl", { class: "figures" }, rows.flatMap(([k, v]) => [h("dt", {}, k), h("dd", { dataset: { field: k.toLowerCase() } }, String(v))])),
    h("table", { class: "ledger" },
      h("thead", {}, h("tr", {}, h("th", {}, "When"), h("th", {}, "Kind"), h("th", {}, "Amount"))),
      h("tbody", {}, card.transactions.slice(0, 10).map((tx) =>
        h("tr", {}, h("td", {}, when(tx.at)), h("td", {}, tx.kind), h("td", {}, String(tx.amount)))))));
}

function players() {
  const name = input("player", { required: true, maxlength: 32, "aria-label": "Player name" });
  const shown = h("div", { id: "player-shown" });
  const actions = h("div", { class: "actions" });
  /** Show the player's card; the forms stay (with what they said) when it is shown again. */
  async function show(who) {
    const { ok, data } = await api(`/api/admin/players/${encodeURIComponent(who)}`);
    clear(shown).append(ok ? playerCard(data) : h("p", { class: "status error" }, data?.error || "not found"));
    return ok ? data : null;
  }
  async function look() {
    clear(actions);
    const data = await show(name.value.trim());
    if (!data) return;
    const again = (message) => (reply) => { show(data.name); return message(reply); };
    actions.append(form("mute", "Mute in chat", [
      field("Minutes (0 lifts a mute)", input("minutes", { type: "number", min: 0, value: 60 })),
      field("Reason", input("reason", { required: true, maxlength: 500 })),
    ], "Mute", (f) => post("/api/admin/mute",
      { name: data.name, minutes: Number(f.minutes), reason: f.reason },
      again((r) => (r.muted_until ? `Muted until ${when(r.muted_until)}.` : "Chat allowed again.")))));
    actions.append(form("seat", "Sit out or stand up at a table", [
      field("Table id", input("table", { required: true, maxlength: 48 })),
      field("Action", select("action", ["sit_out", "kick"], "sit_out")),
      field("Reason", input("reason", { required: true, maxlength: 500 })),
    ], "Apply", (f) => post("/api/admin/seat",
      { name: data.name, table: f.table, action: f.action, reason: f.reason },
      again((r) => (f.action === "kick" ? (r.leaving ? "Stands up when the hand ends." : "Stood up.")
        : "Sits out from the next hand.")))));
    if (atLeast("operator")) {
      actions.append(form("adjust", "Correct the balance", [
        field("Chips (negative takes them)", input("amount", { type: "number", required: true })),
        field("Reason", input("reason", { required: true, maxlength: 500 })),
      ], "Correct", (f) => post("/api/admin/adjust",
        { name: data.name, amount: Number(f.amount), reason: f.reason },
        again((r) => `Done: ledger transaction ${r.transaction}.`))));
    }
    if (atLeast("operator")) {
      actions.append(form("suspend", "Suspend or ban", [
        field("Days (0 lifts it)", input("days", { type: "number", min: 0, max: 3650, value: 7 })),
        field("For good (a ban)", h("input", { type: "checkbox", name: "ban", id: "c-ban" })),
        field("Reason", input("reason", { required: true, maxlength: 500 })),
      ], "Apply", (f) => post("/api/admin/suspend",
        { name: data.name, days: f.ban ? null : Number(f.days), reason: f.reason },
        again((r) => (r.suspended_until ? `Suspended ${r.suspended_until > 2.5e11 ? "for good" : `until ${when(r.suspended_until)}`}; stood up at ${r.tables.length} tables.` : "Suspension lifted.")))));
    }
    if (atLeast("administrator")) {
      actions.append(form("role", "Role", [
        field("Role", select("role", ROLES, data.role)),
        field("Reason", input("reason", { required: true, maxlength: 500 })),
      ], "Set the role", (f) => post("/api/admin/roles",
        { name: data.name, role: f.role, reason: f.reason },
        again((r) => `${r.name} is now ${r.role}.`))));
    }
  }
  const search = h("form", { id: "find-player" }, name, h("button", { class: "btn", type: "submit" }, "Look up"));
  search.addEventListener("submit", (event) => { event.preventDefault(); look(); });
  return h("section", { class: "panel", id: "players" }, h("h2", {}, "Players"), search, shown, actions);
}

// ------------------------------------------------------------------ reports

function reportsQueue() {
  const list = h("ol", { class: "reports", id: "report-list" });
  async function refresh() {
    const { ok, data } = await api("/api/admin/reports");
    if (!ok) return;
    clear(list).append(...(data.reports.length ? [] : [h("li", { class: "empty" }, "No open reports.")]),
      ...data.reports.map((r) => {
        const what = r.kind === "chat"
          ? [`${r.reporter} reports ${r.about} at ${r.table}: `, h("q", {}, r.text)]
          : [`${r.reporter} reports hand ${r.hand} at ${r.table}`];
        const done = form(`close-${r.id}`, "", [
          field("What was done", input("reason", { required: true, maxlength: 500 })),
        ], "Close", (f) => post(`/api/admin/reports/${r.id}/close`, { reason: f.reason },
          () => { refresh(); return "Closed."; }));
        return h("li", { dataset: { report: r.id } }, h("p", {}, when(r.at), " — ", ...what,
          r.note ? ` (${r.note})` : ""), done);
      }));
  }
  refresh();
  setInterval(refresh, 10000);
  return h("section", { class: "panel wide", id: "reports" }, h("h2", {}, "Players' reports"), list);
}

// ------------------------------------------------------------------ signals and hands

function handLookup() {
  const id = input("hand", { required: true, maxlength: 48, "aria-label": "Hand id" });
  const shown = h("div", { id: "hand-shown" });
  async function look(handId) {
    id.value = handId;
    const { ok, data } = await api(`/api/admin/hands/${encodeURIComponent(handId)}`);
    if (!ok) {
      clear(shown).append(h("p", { class: "status error" }, data?.error || "not found"));
      return;
    }
    const seats = Object.entries(data.players).map(([seat, p]) => `${seat}: ${p.name} (${p.stack})`).join(", ");
    clear(shown).append(
      h("dl", { class: "figures" },
        h("dt", {}, "Table"), h("dd", {}, data.table),
        h("dt", {}, "Status"), h("dd", {}, data.status),
        h("dt", {}, "Seats"), h("dd", {}, seats),
        h("dt", {}, "Pot, rake"), h("dd", {}, `${data.pot}, ${data.rake}`),
        h("dt", {}, "Seed matches the commitment"),
        h("dd", { dataset: { field: "verified" } }, data.seed_matches_commitment ? "yes" : "NO")),
      h("ol", { class: "events" }, data.events.map((e) => h("li", {}, JSON.stringify(e)))));
  }
  const search = h("form", { id: "find-hand" }, id, h("button", { class: "btn", type: "submit" }, "Show"));
  search.addEventListener("submit", (event) => { event.preventDefault(); look(id.value.trim()); });
  return { look, panel: h("section", { class: "panel wide", id: "hands" },
    h("h2", {}, "A hand, every card"), search, shown) };
}

function signalsPanel(showHand) {
  const body = h("tbody");
  async function refresh() {
    const { ok, data } = await api("/api/admin/signals?days=7");
    if (!ok) return;
    clear(body).append(...(data.pairs.length ? [] : [h("tr", {}, h("td", { colspan: 6 }, "No pairs of players in the last 7 days."))]),
      ...data.pairs.map((p) => h("tr", {},
        h("td", {}, `${p.a} / ${p.b}`), h("td", {}, String(p.hands)),
        h("td", {}, `${p.a_folded_to_b}/${p.a_faced_b} · ${p.b_folded_to_a}/${p.b_faced_a}`),
        h("td", {}, String(p.net_a_to_b)), h("td", {}, String(p.shared_addresses)),
        h("td", {}, p.sample.map((id) => h("button", { class: "btn small", type: "button", onclick: () => showHand(id) }, id))))));
  }
  refresh();
  return h("section", { class: "panel wide", id: "signals" },
    h("h2", {}, "Pairs worth a look (7 days)"),
    h("button", { class: "btn small", type: "button", onclick: refresh }, "Refresh"),
    h("table", { class: "audit" },
      h("thead", {}, h("tr", {}, ["Players A / B", "Hands", "Folds to the other's bets (A · B)",
        "Chips A → B", "Shared addresses", "Hands to look at"].map((c) => h("th", {}, c)))),
      body));
}

// ------------------------------------------------------------------ audit

function audit() {
  const body = h("tbody");
  async function refresh() {
    const { ok, data } = await api("/api/admin/audit?limit=50");
    if (!ok) return;
    clear(body).append(...data.entries.map((e) => h("tr", {},
      h("td", {}, when(e.at)), h("td", {}, e.actor), h("td", {}, e.action), h("td", {}, e.target),
      h("td", {}, e.reason), h("td", {}, JSON.stringify(e.detail)))));
  }
  refresh();
  const again = h("button", { class: "btn small", type: "button", onclick: refresh }, "Refresh");
  return h("section", { class: "panel wide", id: "audit" }, h("h2", {}, "Audit log"), again,
    h("table", { class: "audit" },
      h("thead", {}, h("tr", {}, ["When", "Who", "What", "To", "Why", "Details"].map((c) => h("th", {}, c)))),
      body));
}

// ------------------------------------------------------------------ start

function logIn() {
  return form("login", "Log in", [
    field("Name", input("name", { required: true, autocomplete: "username" })),
    field("Password", input("password", { type: "password", required: true, autocomplete: "current-password" })),
  ], "Log in", async (f) => {
    const reply = await api("/api/login", { method: "POST", body: { name: f.name, password: f.password } });
    if (reply.ok) start();
    return reply.ok ? { ok: true, data: { message: "…" } } : reply;
  });
}

async function start() {
  const { data } = await api("/api/session");
  const who = document.getElementById("who");
  if (!data || !data.name) {
    clear(main).append(logIn());
    return;
  }
  role = data.role || "player";
  who.textContent = `${data.name} (${role})`;
  if (!atLeast("moderator") || data.kind !== "player") {
    clear(main).append(h("p", { class: "panel", id: "not-staff" },
      "This page is for the room's staff. ", h("a", { href: "/" }, "Back to the lobby")));
    return;
  }
  const hands = handLookup();
  const operating = atLeast("operator") ? [signalsPanel(hands.look), hands.panel, audit()] : [];
  clear(main).append(overview(), ...(atLeast("operator") ? [openTable()] : []), players(),
    reportsQueue(), ...operating);
  document.documentElement.dataset.ready = "";
}

start();
