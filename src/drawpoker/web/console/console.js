// The staff's console (/console): the room's figures, opening, changing, pausing
// and closing cash tables, scheduling, changing and cancelling tournaments, looking
// up a player (mute, balance correction, suspension, role), players' reports,
// pairs of players worth a look, any finished hand with every card, and the
// audit log. Every figure and change goes through /api/admin/, which checks the
// account's role; this page only hides what the role cannot use. In the four
// languages of the player's client (the same catalogue, keys "console.*").

import { h, clear } from "../dom.js";
import { LANGUAGES, language, loadLanguage, t } from "../i18n.js";
import { api } from "../net.js";

const ROLES = ["player", "moderator", "operator", "administrator"];
const main = document.getElementById("console");
let role = "player";

const atLeast = (wanted) => ROLES.indexOf(role) >= ROLES.indexOf(wanted);
const when = (seconds) => new Date(seconds * 1000).toISOString().replace("T", " ").slice(0, 19) + " UTC";
const roleName = (name) => t(`console.role.${name}`);

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
    status.textContent = ok ? reply.message : (reply?.error || t("console.refused"));
    status.className = ok ? "status ok" : "status error";
  });
  return el;
}

async function post(path, body, message) {
  const reply = await api(path, { method: "POST", body });
  return reply.ok ? { ok: true, data: { message: message(reply.data) } } : reply;
}

// ------------------------------------------------------------------ overview

const FIGURES = ["hands_last_minute", "hands_last_hour", "hands_today", "rake_today",
  "tournaments_running", "players_seated", "adjustments"];

function overview() {
  const list = h("dl", { class: "figures", id: "figures" });
  const panel = h("section", { class: "panel", id: "overview" }, h("h2", {}, t("console.room")), list);
  async function refresh() {
    const { ok, data } = await api("/api/admin/overview");
    if (!ok) return;
    const here = data.this_process;
    clear(list).append(...FIGURES.flatMap((key) => [h("dt", {}, t(`console.figure.${key}`)),
      h("dd", { dataset: { figure: key } }, String(data[key]))]),
    h("dt", {}, t("console.this_process")),
    h("dd", { dataset: { figure: "this_process" } }, t("console.this_process_figures",
      { connections: here.connections, units: here.units, seated: here.seated })));
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
    field(t("console.f.id"), input("id", { ...own("id"), required: true, pattern: "[a-z0-9][a-z0-9\\-]{0,23}", value: config?.id ?? "", readonly: editing })),
    field(t("console.f.name"), input("name", { ...own("name"), required: true, maxlength: 40, value: config?.name ?? "" })),
    field(t("console.f.game"), select("preset", editing ? [rules.preset ?? "online"] : ["online", "italian"], rules.preset ?? "online", own("preset"))),
    field(t("console.f.structure"), select("structure", ["no-limit", "pot-limit", "fixed-limit"], rules.structure ?? "no-limit", own("structure"))),
    field(t("console.f.small_blind"), number("small_blind", rules.small_blind ?? 1, { min: 0 })),
    field(t("console.f.big_blind"), number("big_blind", (italian ? rules.invito : rules.big_blind) ?? 2, { min: 1 })),
    field(t("console.f.seats"), number("max_seats", rules.max_seats ?? 6, { min: 2, max: 8 })),
    field(t("console.f.rake"), number("rake_percent", Number(rules.rake_percent ?? 0), { min: 0, max: 100, step: "any" })),
    field(t("console.f.min_buy_in"), number("min_buy_in", config?.min_buy_in ?? 40, { min: 1 })),
    field(t("console.f.max_buy_in"), number("max_buy_in", config?.max_buy_in ?? 200, { min: 1 })),
    field(t("console.f.action_clock"), number("action_time_s", config?.action_time_s ?? 15, { min: 5, max: 120 })),
    field(t("console.f.time_bank"), number("time_bank_s", config?.time_bank_s ?? 30, { min: 0, max: 600 })),
    field(t("console.f.bots"), number("bots", config?.bots ?? 0, { min: 0, max: 7 })),
    field(t("console.f.practice"), h("input", { type: "checkbox", name: "practice", id: `c-${id}-practice`, checked: Boolean(config?.practice) })),
    field(t("console.f.reason"), input("reason", { ...own("reason"), required: true, maxlength: 500 })),
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
  return tableForm("open-table", t("console.open_table"), null, t("console.open_table_submit"),
    (body) => post("/api/admin/tables", body, (reply) => { refresh(); return t("console.table_opened", { id: reply.table }); }));
}

/** What the server says of a change's timing ("now", ...), in the console's words. */
const APPLIES = { "now": "now", "when the hand in play ends": "hand_end", "from the next run": "next_run" };
const saved = (r) => t(`console.saved.${APPLIES[r.applies] ?? "now"}`);

/** What a list of tables or tournaments needs for its orders: the reason typed
 * above the list (each order refused on the page without one), the line that
 * says how an order went, and a place for the change form. */
function orders(kind, refresh) {
  const reason = input(`${kind}-reason`, { maxlength: 500, "aria-label": t("console.f.reason") });
  const status = h("p", { class: "status", role: "status", id: `${kind}s-status` });
  const editor = h("div", { id: `${kind}-editor` });
  const say = (ok, text) => { status.textContent = text; status.className = ok ? "status ok" : "status error"; };
  async function order(path, body, message) {
    if (!reason.value.trim()) return say(false, t("console.say_why"));
    const reply = await api(path, { method: "POST", body: { ...body, reason: reason.value.trim() } });
    say(reply.ok, reply.ok ? message(reply.data) : reply.data?.error || t("console.refused"));
    refresh();
  }
  return { reason, status, editor, order };
}

/** Every cash table: change one (between hands), pause or resume it, close it. */
function tablesPanel() {
  const body = h("tbody");
  const { reason, status, editor, order: send } = orders("table", () => refresh());
  const order = (table, what, fields, message) =>
    send(`/api/admin/tables/${encodeURIComponent(table)}${what}`, fields, message);
  function edit(table) {
    clear(editor).append(tableForm("edit-table", t("console.change_title", { id: table.id }), table.config,
      t("console.save_change"), (fields) => post(`/api/admin/tables/${encodeURIComponent(table.id)}`, fields,
        (r) => { refresh(); return saved(r); })));
  }
  async function refresh() {
    const { ok, data } = await api("/api/admin/tables");
    if (!ok) return;
    clear(body).append(...data.tables.map((table) => {
      const { id, status } = table;
      const rules = table.config.rules;
      const stakes = rules.preset === "italian" ? t("console.invito", { n: rules.invito }) : `${rules.small_blind}/${rules.big_blind}`;
      const live = status !== "closed" && status !== "closing";
      const button = (which, action) => h("button", { class: "btn small", type: "button", dataset: { order: which }, onclick: action },
        t(`console.button.${which}`));
      return h("tr", { dataset: { table: id, status } },
        h("td", {}, id), h("td", {}, table.config.name), h("td", {}, `${rules.structure ?? ""} ${stakes}`),
        h("td", {}, String(rules.max_seats ?? 6)), h("td", { dataset: { field: "status" } }, t(`console.table_status.${status}`)),
        h("td", {}, live ? [
          button("change", () => edit(table)),
          status === "paused"
            ? button("resume", () => order(id, "/pause", { on: false }, () => t("console.table_resumed", { id })))
            : button("pause", () => order(id, "/pause", { on: true }, () => t("console.table_pauses", { id }))),
          button("close", () => order(id, "/close", {}, (r) => t(r.status === "closed" ? "console.table_closed"
            : "console.table_closes", { id }))),
        ] : []));
    }));
  }
  refresh();
  setInterval(refresh, 5000);
  return { refresh, panel: h("section", { class: "panel wide", id: "tables" }, h("h2", {}, t("console.tables")),
    field(t("console.f.table_reason"), reason), status,
    h("table", { class: "audit" },
      h("thead", {}, h("tr", {}, ["id", "name", "stakes", "seats", "status", ""].map((c) => h("th", {}, c && t(`console.col.${c}`))))),
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
    field(t("console.f.id"), input("id", { ...own("id"), required: true, pattern: "[a-z0-9][a-z0-9\\-]{0,19}", value: s.id ?? "", readonly: Boolean(spec) })),
    field(t("console.f.name"), input("name", { ...own("name"), required: true, maxlength: 40, value: s.name ?? "" })),
    field(t("console.f.kind"), select("kind", spec ? [s.kind] : ["sit-and-go", "scheduled"], s.kind ?? "sit-and-go", own("kind"))),
    field(t("console.f.structure"), select("structure", ["no-limit", "pot-limit", "fixed-limit"], s.structure ?? "no-limit", own("structure"))),
    field(t("console.f.buy_in"), number("buy_in", s.buy_in ?? 100, { min: 0 })),
    field(t("console.f.fee"), number("fee", s.fee ?? 10, { min: 0 })),
    field(t("console.f.starting_stack"), number("starting_stack", s.starting_stack ?? 1500, { min: 1 })),
    field(t("console.f.max_entries"), number("max_entries", s.max_entries ?? 6, { min: 2 })),
    field(t("console.f.min_entries"), number("min_entries", s.min_entries ?? 2, { min: 2 })),
    field(t("console.f.seats_per_table"), number("seats_per_table", s.seats_per_table ?? 6, { min: 2, max: 8 })),
    field(t("console.f.level_minutes"), number("level_minutes", s.level_minutes ?? 5, { min: 0.5, step: "any" })),
    field(t("console.f.start_every"), number("start_every_minutes", s.start_every_minutes ?? 60, { min: 1 })),
    field(t("console.f.first_start"), number("first_start_min", Math.round((s.first_start_s ?? 600) / 60), { min: 0 })),
    field(t("console.f.bots"), number("bots", s.bots ?? 0, { min: 0 })),
    field(t("console.f.reason"), input("reason", { ...own("reason"), required: true, maxlength: 500 })),
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
  const { reason, status, editor, order } = orders("tournament", () => refresh());
  const cancel = (tour) => order(`/api/admin/tournaments/${encodeURIComponent(tour.id)}/cancel`, {},
    (r) => t(r.playing.length ? "console.cancelled_playing" : "console.cancelled",
      { id: tour.id, n: r.refunded, runs: r.playing.length }));
  function edit(tour) {
    clear(editor).append(tournamentForm("edit-tournament", t("console.change_title", { id: tour.id }), tour.spec,
      t("console.save_change"), (fields) => post(`/api/admin/tournaments/${encodeURIComponent(tour.id)}`, fields,
        (r) => { refresh(); return saved(r); })));
  }
  async function refresh() {
    const { ok, data } = await api("/api/admin/tournaments");
    if (!ok) return;
    clear(body).append(...data.tournaments.map((tour) => {
      const row = tour.row ?? {};
      const playing = (row.running ?? []).map((r) => t("console.run_left",
        { id: r.instance, n: r.players_left, of: r.entries })).join("; ");
      const button = (which, action) => h("button", { class: "btn small", type: "button", dataset: { order: which }, onclick: action },
        t(`console.button.${which}`));
      return h("tr", { dataset: { tournament: tour.id, status: row.status ?? "" } },
        h("td", {}, h("a", { href: `/#/tournament/${encodeURIComponent(tour.id)}`, target: "_blank", rel: "noopener" }, tour.id)),
        h("td", {}, tour.spec.name), h("td", {}, tour.spec.kind), h("td", {}, `${tour.spec.buy_in}+${tour.spec.fee}`),
        h("td", {}, `${row.registered ?? 0}/${tour.spec.max_entries}`), h("td", { dataset: { field: "status" } }, row.status ?? ""),
        h("td", {}, playing || "—"),
        h("td", {}, [button("change", () => edit(tour)), button("cancel", () => cancel(tour))]));
    }));
  }
  refresh();
  setInterval(refresh, 5000);
  const schedule = tournamentForm("schedule-tournament", t("console.schedule"), null, t("console.schedule_submit"),
    (fields) => post("/api/admin/tournaments", fields, (r) => { refresh(); return t("console.scheduled", { id: r.tournament }); }));
  return h("section", { class: "panel wide", id: "tournaments" }, h("h2", {}, t("console.tournaments")),
    field(t("console.f.tournament_reason"), reason), status,
    h("table", { class: "audit" },
      h("thead", {}, h("tr", {}, ["standings", "name", "kind", "buy_in", "registered", "status", "in_play", ""]
        .map((c) => h("th", {}, c && t(`console.col.${c}`))))),
      body),
    editor, schedule);
}

// ------------------------------------------------------------------ players

function playerCard(card) {
  const rows = [
    ["name", card.name], ["kind", card.kind], ["role", roleName(card.role)],
    ["balance", card.balance], ["hands", card.hands],
    ["chat", card.muted_until ? t("console.muted_until", { when: when(card.muted_until) }) : t("console.chat_allowed")],
    ["account", !card.suspended_until ? t("console.good_standing")
      : card.suspended_until > 2.5e11 ? t("console.banned") : t("console.suspended_until", { when: when(card.suspended_until) })],
    ["addresses", card.addresses.map((a) => a.address).join(", ") || t("console.no_addresses")],
    ["sessions", card.sessions.length
      ? t("console.sessions_in_force", { n: card.sessions.length, when: when(card.sessions[0].created_at) })
      : t("console.no_sessions")],
  ];
  return h("div", { id: "player-card" },
    h("dl", { class: "figures" }, rows.flatMap(([k, v]) => [h("dt", {}, t(`console.card.${k}`)), h("dd", { dataset: { field: k } }, String(v))])),
    h("table", { class: "ledger" },
      h("thead", {}, h("tr", {}, ["when", "kind", "amount"].map((c) => h("th", {}, t(`console.col.${c}`))))),
      h("tbody", {}, card.transactions.slice(0, 10).map((tx) =>
        h("tr", {}, h("td", {}, when(tx.at)), h("td", {}, tx.kind), h("td", {}, String(tx.amount)))))));
}

function players() {
  const name = input("player", { required: true, maxlength: 32, "aria-label": t("console.player_name") });
  const shown = h("div", { id: "player-shown" });
  const actions = h("div", { class: "actions" });
  /** Show the player's card; the forms stay (with what they said) when it is shown again. */
  async function show(who) {
    const { ok, data } = await api(`/api/admin/players/${encodeURIComponent(who)}`);
    clear(shown).append(ok ? playerCard(data) : h("p", { class: "status error" }, data?.error || t("console.not_found")));
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
        ` ${p.kind}${p.role !== "player" ? `, ${roleName(p.role)}` : ""}`)))
      : h("p", { class: "status error" }, t("console.no_match", { text: typed })));
  }
  async function look(who) {
    clear(actions);
    const data = await show(who);
    if (!data) return;
    const again = (message) => (reply) => { show(data.name); return message(reply); };
    actions.append(form("mute", t("console.mute"), [
      field(t("console.f.minutes"), input("minutes", { type: "number", min: 0, value: 60 })),
      field(t("console.f.reason"), input("reason", { required: true, maxlength: 500 })),
    ], t("console.mute_submit"), (f) => post("/api/admin/mute",
      { name: data.name, minutes: Number(f.minutes), reason: f.reason },
      again((r) => (r.muted_until ? t("console.muted", { when: when(r.muted_until) }) : t("console.unmuted"))))));
    actions.append(form("seat", t("console.seat"), [
      field(t("console.f.table"), input("table", { required: true, maxlength: 48 })),
      field(t("console.f.action"), select("action", ["sit_out", "kick"], "sit_out")),
      field(t("console.f.reason"), input("reason", { required: true, maxlength: 500 })),
    ], t("console.apply"), (f) => post("/api/admin/seat",
      { name: data.name, table: f.table, action: f.action, reason: f.reason },
      again((r) => t(f.action === "kick" ? (r.leaving ? "console.stands_up" : "console.stood_up")
        : "console.sits_out")))));
    if (atLeast("operator")) {
      actions.append(form("adjust", t("console.adjust"), [
        field(t("console.f.amount"), input("amount", { type: "number", required: true })),
        field(t("console.f.reason"), input("reason", { required: true, maxlength: 500 })),
      ], t("console.adjust_submit"), (f) => post("/api/admin/adjust",
        { name: data.name, amount: Number(f.amount), reason: f.reason },
        again((r) => t("console.adjusted", { tx: r.transaction })))));
    }
    if (atLeast("operator")) {
      actions.append(form("suspend", t("console.suspend"), [
        field(t("console.f.days"), input("days", { type: "number", min: 0, max: 3650, value: 7 })),
        field(t("console.f.ban"), h("input", { type: "checkbox", name: "ban", id: "c-ban" })),
        field(t("console.f.reason"), input("reason", { required: true, maxlength: 500 })),
      ], t("console.apply"), (f) => post("/api/admin/suspend",
        { name: data.name, days: f.ban ? null : Number(f.days), reason: f.reason },
        again((r) => (!r.suspended_until ? t("console.reinstated")
          : t(r.suspended_until > 2.5e11 ? "console.banned_now" : "console.suspended",
            { when: when(r.suspended_until), n: r.tables.length, tournaments: r.tournaments.length }))))));
    }
    if (atLeast("administrator")) {
      actions.append(form("role", t("console.f.role"), [
        field(t("console.f.role"), select("role", ROLES, data.role)),
        field(t("console.f.reason"), input("reason", { required: true, maxlength: 500 })),
      ], t("console.set_role"), (f) => post("/api/admin/roles",
        { name: data.name, role: f.role, reason: f.reason },
        again((r) => t("console.role_set", { name: r.name, role: roleName(r.role) })))));
    }
  }
  const search = h("form", { id: "find-player" }, name, h("button", { class: "btn", type: "submit" }, t("console.look_up")));
  search.addEventListener("submit", (event) => { event.preventDefault(); find(); });
  return h("section", { class: "panel", id: "players" }, h("h2", {}, t("console.players")), search, shown, actions);
}

// ------------------------------------------------------------------ reports

function reportsQueue() {
  const list = h("ol", { class: "reports", id: "report-list" });
  async function refresh() {
    const { ok, data } = await api("/api/admin/reports");
    if (!ok) return;
    clear(list).append(...(data.reports.length ? [] : [h("li", { class: "empty" }, t("console.no_reports"))]),
      ...data.reports.map((r) => {
        const what = r.kind === "chat"
          ? [t("console.report_chat", { who: r.reporter, about: r.about, table: r.table }), " ", h("q", {}, r.text)]
          : [t("console.report_hand", { who: r.reporter, hand: r.hand, table: r.table })];
        const done = form(`close-${r.id}`, "", [
          field(t("console.f.done"), input("reason", { id: `c-close-${r.id}`, required: true, maxlength: 500 })),
        ], t("console.button.close"), (f) => post(`/api/admin/reports/${r.id}/close`, { reason: f.reason },
          () => { refresh(); return t("console.report_closed"); }));
        const unsay = r.kind !== "chat" ? null : form(`unsay-${r.id}`, "", [
          field(t("console.f.why_delete"), input("reason", { id: `c-unsay-${r.id}`, required: true, maxlength: 500 })),
        ], t("console.delete_line"), (f) => post("/api/admin/chat/delete",
          { table: r.table, name: r.about, text: r.text, reason: f.reason },
          (reply) => t("console.line_deleted", { n: reply.deleted })));
        return h("li", { dataset: { report: r.id } }, h("p", {}, when(r.at), " — ", ...what,
          r.note ? ` (${r.note})` : ""), unsay, done);
      }));
  }
  refresh();
  setInterval(refresh, 10000);
  return h("section", { class: "panel wide", id: "reports" }, h("h2", {}, t("console.reports")), list);
}

// ------------------------------------------------------------------ signals and hands

function handLookup() {
  const id = input("hand", { required: true, maxlength: 48, "aria-label": t("console.hand_id") });
  const shown = h("div", { id: "hand-shown" });
  async function look(handId) {
    id.value = handId;
    const { ok, data } = await api(`/api/admin/hands/${encodeURIComponent(handId)}`);
    if (!ok) {
      clear(shown).append(h("p", { class: "status error" }, data?.error || t("console.not_found")));
      return;
    }
    const seats = Object.entries(data.players).map(([seat, p]) => `${seat}: ${p.name} (${p.stack})`).join(", ");
    clear(shown).append(
      h("dl", { class: "figures" },
        h("dt", {}, t("console.hand.table")), h("dd", {}, data.table),
        h("dt", {}, t("console.col.status")), h("dd", {}, data.status),
        h("dt", {}, t("console.col.seats")), h("dd", {}, seats),
        h("dt", {}, t("console.hand.pot_rake")), h("dd", {}, `${data.pot}, ${data.rake}`),
        h("dt", {}, t("console.hand.verified")),
        h("dd", { dataset: { field: "verified", verified: String(data.seed_matches_commitment) } },
          t(data.seed_matches_commitment ? "console.yes" : "console.no"))),
      h("ol", { class: "events" }, data.events.map((e) => h("li", {}, JSON.stringify(e)))));
  }
  const search = h("form", { id: "find-hand" }, id, h("button", { class: "btn", type: "submit" }, t("console.show")));
  search.addEventListener("submit", (event) => { event.preventDefault(); look(id.value.trim()); });
  return { look, panel: h("section", { class: "panel wide", id: "hands" },
    h("h2", {}, t("console.hands")), search, shown) };
}

function signalsPanel(showHand) {
  const body = h("tbody");
  async function refresh() {
    const { ok, data } = await api("/api/admin/signals?days=7");
    if (!ok) return;
    clear(body).append(...(data.pairs.length ? [] : [h("tr", {}, h("td", { colspan: 6 }, t("console.no_pairs")))]),
      ...data.pairs.map((p) => h("tr", {},
        h("td", {}, `${p.a} / ${p.b}`), h("td", {}, String(p.hands)),
        h("td", {}, `${p.a_folded_to_b}/${p.a_faced_b} · ${p.b_folded_to_a}/${p.b_faced_a}`),
        h("td", {}, String(p.net_a_to_b)), h("td", {}, String(p.shared_addresses)),
        h("td", {}, p.sample.map((id) => h("button", { class: "btn small", type: "button", onclick: () => showHand(id) }, id))))));
  }
  refresh();
  return h("section", { class: "panel wide", id: "signals" },
    h("h2", {}, t("console.signals")),
    h("button", { class: "btn small", type: "button", onclick: refresh }, t("console.refresh")),
    h("table", { class: "audit" },
      h("thead", {}, h("tr", {}, ["pair", "hands", "folds", "chips", "shared", "sample"]
        .map((c) => h("th", {}, t(`console.col.${c}`))))),
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
  const again = h("button", { class: "btn small", type: "button", onclick: refresh }, t("console.refresh"));
  return h("section", { class: "panel wide", id: "audit" }, h("h2", {}, t("console.audit")), again,
    h("table", { class: "audit" },
      h("thead", {}, h("tr", {}, ["when", "who", "what", "to", "why", "details"].map((c) => h("th", {}, t(`console.col.${c}`))))),
      body));
}

// ------------------------------------------------------------------ start

function logIn() {
  return form("login", t("console.log_in"), [
    field(t("console.f.name"), input("name", { required: true, autocomplete: "username" })),
    field(t("console.f.password"), input("password", { type: "password", required: true, autocomplete: "current-password" })),
  ], t("console.log_in"), async (f) => {
    const reply = await api("/api/login", { method: "POST", body: { name: f.name, password: f.password } });
    if (reply.ok) start();
    return reply.ok ? { ok: true, data: { message: "…" } } : reply;
  });
}

async function start() {
  const { data } = await api("/api/session");
  const who = document.getElementById("who");
  document.title = t("console.page_title");
  document.getElementById("console-title").textContent = t("console.title");
  if (!data || !data.name) {
    clear(main).append(logIn());
    return;
  }
  role = data.role || "player";
  who.textContent = `${data.name} (${roleName(role)})`;
  if (!atLeast("moderator") || data.kind !== "player") {
    clear(main).append(h("p", { class: "panel", id: "not-staff" },
      t("console.not_staff"), " ", h("a", { href: "/" }, t("console.back"))));
    return;
  }
  const hands = handLookup();
  const tables = atLeast("operator") ? tablesPanel() : null;
  const operating = atLeast("operator") ? [signalsPanel(hands.look), hands.panel, audit()] : [];
  clear(main).append(overview(), ...(tables ? [openTable(tables.refresh), tables.panel, tournamentsPanel()] : []),
    players(), reportsQueue(), ...operating);
  document.documentElement.dataset.ready = "";
}

/** The player's language (as the lobby keeps it), and a choice of it on the page. */
async function startIn() {
  const kept = localStorage.getItem("dp.lang");
  const browser = (navigator.language || "en").slice(0, 2).toLowerCase();
  await loadLanguage(kept || browser);
  const choice = h("select", { id: "c-lang", "aria-label": t("lang.label") },
    LANGUAGES.map(([code, name]) => h("option", { value: code, selected: code === language() }, name)));
  choice.addEventListener("change", () => {
    localStorage.setItem("dp.lang", choice.value);
    location.reload();
  });
  document.querySelector("header.topbar").append(choice);
  await start();
}

startIn();
