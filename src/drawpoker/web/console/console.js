// The staff's console (/console): the room's figures, opening, changing, pausing
// and closing cash tables, scheduling, changing and cancelling tournaments, looking
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

function select(name, options, value, attrs = {}) {
  const el = h("select", { name, id: `c-${name}`, ...attrs },
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

/** The fields of a cash table (a room file's), filled from ``config`` when it is
 * changed: whatever the form does not show (draw clock, rake caps...) is kept. */
function tableForm(id, title, config, submitText, send) {
  const rules = config?.rules ?? { preset: "online", structure: "no-limit", small_blind: 1, big_blind: 2, max_seats: 6 };
  const italian = rules.preset === "italian";
  const editing = Boolean(config);
  const own = (name) => ({ id: `c-${id}-${name}` }); // two table forms on the page
  const number = (name, value, attrs = {}) => input(name, { type: "number", value, ...own(name), ...attrs });
  const fields = [
    field("Id (a-z, 0-9, -)", input("id", { ...own("id"), required: true, pattern: "[a-z0-9][a-z0-9\\-]{0,23}", value: config?.id ?? "", readonly: editing })),
    field("Name", input("name", { ...own("name"), required: true, maxlength: 40, value: config?.name ?? "" })),
    field("Game", select("preset", editing ? [rules.preset ?? "online"] : ["online", "italian"], rules.preset ?? "online", own("preset"))),
    field("Structure", select("structure", ["no-limit", "pot-limit", "fixed-limit"], rules.structure ?? "no-limit", own("structure"))),
    field("Small blind", number("small_blind", rules.small_blind ?? 1, { min: 0 })),
    field("Big blind (invito for Italian)", number("big_blind", (italian ? rules.invito : rules.big_blind) ?? 2, { min: 1 })),
    field("Seats", number("max_seats", rules.max_seats ?? 6, { min: 2, max: 8 })),
    field("Rake %", number("rake_percent", Number(rules.rake_percent ?? 0), { min: 0, max: 100, step: "any" })),
    field("Minimum buy-in", number("min_buy_in", config?.min_buy_in ?? 40, { min: 1 })),
    field("Maximum buy-in", number("max_buy_in", config?.max_buy_in ?? 200, { min: 1 })),
    field("Action clock (s)", number("action_time_s", config?.action_time_s ?? 15, { min: 5, max: 120 })),
    field("Time bank (s)", number("time_bank_s", config?.time_bank_s ?? 30, { min: 0, max: 600 })),
    field("House bots", number("bots", config?.bots ?? 0, { min: 0, max: 7 })),
    field("Practice hints", h("input", { type: "checkbox", name: "practice", id: `c-${id}-practice`, checked: Boolean(config?.practice) })),
    field("Reason", input("reason", { ...own("reason"), required: true, maxlength: 500 })),
  ];
  return form(id, title, fields, submitText, (f) => {
    const { small_blind: _s, big_blind: _b, invito: _i, ...kept } = rules;
    const stakes = f.preset === "italian"
      ? { invito: Number(f.big_blind) }
      : { small_blind: Number(f.small_blind), big_blind: Number(f.big_blind) };
    const game = { ...kept, preset: f.preset, structure: f.structure, max_seats: Number(f.max_seats),
      rake_percent: Number(f.rake_percent), ...stakes };
    return send({
      id: f.id, name: f.name, game, reason: f.reason, bots: Number(f.bots), practice: Boolean(f.practice),
      min_buy_in: Number(f.min_buy_in), max_buy_in: Number(f.max_buy_in),
      action_time_s: Number(f.action_time_s), time_bank_s: Number(f.time_bank_s),
      between_hands_s: config?.between_hands_s ?? 2,
    });
  });
}

function openTable(refresh) {
  return tableForm("open-table", "Open a cash table", null, "Open the table",
    (body) => post("/api/admin/tables", body, (reply) => { refresh(); return `Table ${reply.table} is open.`; }));
}

const TABLE_STATUS = { open: "open", paused: "paused (no new hand)", closing: "closing (players leave as the hand ends)", closed: "closed" };

/** Every cash table: change one (between hands), pause or resume it, close it. */
function tablesPanel() {
  const body = h("tbody");
  const reason = input("table-reason", { maxlength: 500, "aria-label": "Reason" });
  const status = h("p", { class: "status", role: "status", id: "tables-status" });
  const editor = h("div", { id: "table-editor" });
  const say = (ok, text) => { status.textContent = text; status.className = ok ? "status ok" : "status error"; };
  async function order(table, what, body, message) {
    if (!reason.value.trim()) return say(false, "Say why first: a reason is kept in the audit log.");
    const reply = await api(`/api/admin/tables/${encodeURIComponent(table)}${what}`,
      { method: "POST", body: { ...body, reason: reason.value.trim() } });
    say(reply.ok, reply.ok ? message(reply.data) : reply.data?.error || "refused");
    refresh();
  }
  function edit(t) {
    clear(editor).append(tableForm("edit-table", `Change ${t.id}`, t.config, "Save the change",
      (fields) => post(`/api/admin/tables/${encodeURIComponent(t.id)}`, fields,
        (r) => { refresh(); return `Saved; applies ${r.applies}.`; })));
  }
  async function refresh() {
    const { ok, data } = await api("/api/admin/tables");
    if (!ok) return;
    clear(body).append(...data.tables.map((t) => {
      const rules = t.config.rules;
      const stakes = rules.preset === "italian" ? `invito ${rules.invito}` : `${rules.small_blind}/${rules.big_blind}`;
      const live = t.status !== "closed" && t.status !== "closing";
      const button = (text, action) => h("button", { class: "btn small", type: "button", onclick: action }, text);
      return h("tr", { dataset: { table: t.id, status: t.status } },
        h("td", {}, t.id), h("td", {}, t.config.name), h("td", {}, `${rules.structure ?? ""} ${stakes}`),
        h("td", {}, String(rules.max_seats ?? 6)), h("td", { dataset: { field: "status" } }, TABLE_STATUS[t.status] ?? t.status),
        h("td", {}, live ? [
          button("Change", () => edit(t)),
          t.status === "paused"
            ? button("Resume", () => order(t.id, "/pause", { on: false }, () => `${t.id} deals again.`))
            : button("Pause", () => order(t.id, "/pause", { on: true }, () => `${t.id} pauses after the hand in play.`)),
          button("Close", () => order(t.id, "/close", {}, (r) => (r.status === "closed" ? `${t.id} is closed.`
            : `${t.id} closes when the hand in play ends.`))),
        ] : []));
    }));
  }
  refresh();
  setInterval(refresh, 5000);
  return { refresh, panel: h("section", { class: "panel wide", id: "tables" }, h("h2", {}, "Cash tables"),
    field("Reason for a pause or a closing", reason), status,
    h("table", { class: "audit" },
      h("thead", {}, h("tr", {}, ["Id", "Name", "Stakes", "Seats", "Status", ""].map((c) => h("th", {}, c)))),
      body),
    editor) };
}

// ------------------------------------------------------------------ tournaments

/** The fields of a tournament (a room file's), filled from ``spec`` when it is changed. */
function tournamentForm(id, title, spec, submitText, send) {
  const own = (name) => ({ id: `c-${id}-${name}` });
  const number = (name, value, attrs = {}) => input(name, { type: "number", value, ...own(name), ...attrs });
  const s = spec ?? {};
  const fields = [
    field("Id (a-z, 0-9, -)", input("id", { ...own("id"), required: true, pattern: "[a-z0-9][a-z0-9\\-]{0,19}", value: s.id ?? "", readonly: Boolean(spec) })),
    field("Name", input("name", { ...own("name"), required: true, maxlength: 40, value: s.name ?? "" })),
    field("Kind", select("kind", spec ? [s.kind] : ["sit-and-go", "scheduled"], s.kind ?? "sit-and-go", own("kind"))),
    field("Structure", select("structure", ["no-limit", "pot-limit", "fixed-limit"], s.structure ?? "no-limit", own("structure"))),
    field("Buy-in", number("buy_in", s.buy_in ?? 100, { min: 0 })),
    field("Fee", number("fee", s.fee ?? 10, { min: 0 })),
    field("Starting chips", number("starting_stack", s.starting_stack ?? 1500, { min: 1 })),
    field("Most entries", number("max_entries", s.max_entries ?? 6, { min: 2 })),
    field("Fewest entries (scheduled)", number("min_entries", s.min_entries ?? 2, { min: 2 })),
    field("Seats a table", number("seats_per_table", s.seats_per_table ?? 6, { min: 2, max: 8 })),
    field("Level (minutes)", number("level_minutes", s.level_minutes ?? 5, { min: 0.5, step: "any" })),
    field("Starts every (minutes, scheduled)", number("start_every_minutes", s.start_every_minutes ?? 60, { min: 1 })),
    field("First start in (minutes, scheduled)", number("first_start_min", Math.round((s.first_start_s ?? 600) / 60), { min: 0 })),
    field("House bots", number("bots", s.bots ?? 0, { min: 0 })),
    field("Reason", input("reason", { ...own("reason"), required: true, maxlength: 500 })),
  ];
  return form(id, title, fields, submitText, (f) => send({
    id: f.id, name: f.name, kind: f.kind, structure: f.structure, reason: f.reason,
    buy_in: Number(f.buy_in), fee: Number(f.fee), starting_stack: Number(f.starting_stack),
    max_entries: Number(f.max_entries), min_entries: Number(f.min_entries),
    seats_per_table: Number(f.seats_per_table), level_minutes: Number(f.level_minutes),
    start_every_minutes: Number(f.start_every_minutes), first_start_s: Number(f.first_start_min) * 60,
    bots: Number(f.bots),
  }));
}

/** Every tournament: its open run and runs in play (standings on the player's
 * page), change it, cancel it; and schedule a new one. */
function tournamentsPanel() {
  const body = h("tbody");
  const reason = input("tournament-reason", { maxlength: 500, "aria-label": "Reason" });
  const status = h("p", { class: "status", role: "status", id: "tournaments-status" });
  const editor = h("div", { id: "tournament-editor" });
  const say = (ok, text) => { status.textContent = text; status.className = ok ? "status ok" : "status error"; };
  async function cancel(t) {
    if (!reason.value.trim()) return say(false, "Say why first: a reason is kept in the audit log.");
    const reply = await api(`/api/admin/tournaments/${encodeURIComponent(t.id)}/cancel`,
      { method: "POST", body: { reason: reason.value.trim() } });
    say(reply.ok, reply.ok ? `${t.id} is cancelled; ${reply.data.refunded} entries refunded${reply.data.playing.length ? `; ${reply.data.playing.length} runs in play finish` : ""}.`
      : reply.data?.error || "refused");
    refresh();
  }
  function edit(t) {
    clear(editor).append(tournamentForm("edit-tournament", `Change ${t.id}`, t.spec, "Save the change",
      (fields) => post(`/api/admin/tournaments/${encodeURIComponent(t.id)}`, fields,
        (r) => { refresh(); return `Saved; applies ${r.applies}.`; })));
  }
  async function refresh() {
    const { ok, data } = await api("/api/admin/tournaments");
    if (!ok) return;
    clear(body).append(...data.tournaments.map((t) => {
      const row = t.row ?? {};
      const playing = (row.running ?? []).map((r) => `${r.instance}: ${r.players_left} of ${r.entries} left`).join("; ");
      const button = (text, action) => h("button", { class: "btn small", type: "button", onclick: action }, text);
      return h("tr", { dataset: { tournament: t.id, status: row.status ?? "" } },
        h("td", {}, h("a", { href: `/#/tournament/${encodeURIComponent(t.id)}`, target: "_blank", rel: "noopener" }, t.id)),
        h("td", {}, t.spec.name), h("td", {}, t.spec.kind), h("td", {}, `${t.spec.buy_in}+${t.spec.fee}`),
        h("td", {}, `${row.registered ?? 0}/${t.spec.max_entries}`), h("td", { dataset: { field: "status" } }, row.status ?? ""),
        h("td", {}, playing || "—"),
        h("td", {}, [button("Change", () => edit(t)), button("Cancel", () => cancel(t))]));
    }));
  }
  refresh();
  setInterval(refresh, 5000);
  const schedule = tournamentForm("schedule-tournament", "Schedule a tournament", null, "Schedule",
    (fields) => post("/api/admin/tournaments", fields, (r) => { refresh(); return `Tournament ${r.tournament} is open for registration.`; }));
  return h("section", { class: "panel wide", id: "tournaments" }, h("h2", {}, "Tournaments"),
    field("Reason for a cancellation", reason), status,
    h("table", { class: "audit" },
      h("thead", {}, h("tr", {}, ["Id (standings)", "Name", "Kind", "Buy-in", "Registered", "Status", "In play", ""].map((c) => h("th", {}, c)))),
      body),
    editor, schedule);
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
  rows.push(["Sessions", card.sessions.length
    ? `${card.sessions.length} in force, the latest since ${when(card.sessions[0].created_at)}` : "none in force"]);
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
  /** The accounts whose name starts with what was typed: one named exactly is
   * shown at once, else the matches are offered. */
  async function find() {
    clear(actions);
    const typed = name.value.trim();
    const { ok, data } = await api(`/api/admin/players?q=${encodeURIComponent(typed)}`);
    const found = ok ? data.players : [];
    if (found.length && found[0].name.toLowerCase() === typed.toLowerCase()) return look(found[0].name);
    clear(shown).append(found.length
      ? h("ul", { class: "matches", id: "player-matches" }, found.map((p) => h("li", {},
        h("button", { class: "btn small", type: "button", onclick: () => { name.value = p.name; look(p.name); } }, p.name),
        ` ${p.kind}${p.role !== "player" ? `, ${p.role}` : ""}`)))
      : h("p", { class: "status error" }, `No account's name starts with "${typed}".`));
  }
  async function look(who) {
    clear(actions);
    const data = await show(who);
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
  search.addEventListener("submit", (event) => { event.preventDefault(); find(); });
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
          field("What was done", input("reason", { id: `c-close-${r.id}`, required: true, maxlength: 500 })),
        ], "Close", (f) => post(`/api/admin/reports/${r.id}/close`, { reason: f.reason },
          () => { refresh(); return "Closed."; }));
        const unsay = r.kind !== "chat" ? null : form(`unsay-${r.id}`, "", [
          field("Why delete the line", input("reason", { id: `c-unsay-${r.id}`, required: true, maxlength: 500 })),
        ], "Delete the line", (f) => post("/api/admin/chat/delete",
          { table: r.table, name: r.about, text: r.text, reason: f.reason },
          (reply) => `Deleted from everyone's chat (${reply.deleted}).`));
        return h("li", { dataset: { report: r.id } }, h("p", {}, when(r.at), " — ", ...what,
          r.note ? ` (${r.note})` : ""), unsay, done);
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
  const tables = atLeast("operator") ? tablesPanel() : null;
  const operating = atLeast("operator") ? [signalsPanel(hands.look), hands.panel, audit()] : [];
  clear(main).append(overview(), ...(tables ? [openTable(tables.refresh), tables.panel, tournamentsPanel()] : []),
    players(), reportsQueue(), ...operating);
  document.documentElement.dataset.ready = "";
}

start();
