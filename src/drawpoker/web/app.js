// drawpoker web client: bootstrap, routing, account and language.
// Plain ES modules served by the server; no build step, no framework.

import { api, Socket } from "./net.js";
import { h, clear, chips } from "./dom.js";
import { LANGUAGES, errorText, loadLanguage, language, places, t } from "./i18n.js";
import { LobbyView } from "./lobby.js";
import { TableView } from "./table.js";
import { TournamentView, findMyTournaments } from "./tournament.js";
import { HistoryView, HandView } from "./history.js";
import { initSound, onPrefs, played, prefs, setMotion, setSound } from "./sound.js";
import { registerTables } from "./names.js";

const app = {
  me: null, // {id, name, kind, balance}
  socket: null,
  view: null,
  status: "connecting",
  lobbyRows: new Map(),
  tournamentRows: new Map(), // the lobby's pushed tournament rows, by id
  lobbyListeners: new Set(),
  tournaments: new Map(), // tournament channels watched: id asked -> instance (or null)
  finished: new Map(), // instance -> the private Finished entry
  flash: null, // a message for the next table view ("Moved to table 2")
  sounds: played, // the sounds played, newest last
  tableCache: new Map(), // table id -> {table, v, viewer}: tables left for another page
};

export function toast(text, kind = "info") {
  const box = document.getElementById("toast");
  const item = h("div", { class: `toast ${kind}` }, text);
  box.append(item);
  while (box.children.length > 3) box.firstChild.remove();
  setTimeout(() => item.remove(), kind === "error" || kind === "warn" ? 6000 : 4000);
}
app.toast = toast;

// ------------------------------------------------------------------ language

function pickLanguage() {
  const saved = localStorage.getItem("dp.lang");
  if (saved) return saved;
  const browser = (navigator.language || "en").slice(0, 2).toLowerCase();
  return LANGUAGES.some(([c]) => c === browser) ? browser : "en";
}

function translateStatic() {
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  const select = document.getElementById("lang-select");
  select.setAttribute("aria-label", t("lang.label"));
  document.title = t("app.title");
  renderConn();
  renderPrefs();
}

// -------------------------------------------------------------- sound, motion

function speaker(on) {
  const waves = on
    ? '<path d="M15 8.5a4 4 0 0 1 0 7M17.5 6a7.5 7.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>'
    : '<path d="M15.5 9.5l5 5m0-5l-5 5" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>';
  return `<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor"/>${waves}</svg>`;
}

/** The mute switch and the settings button in the top bar. */
function renderPrefs() {
  const box = clear(document.getElementById("prefs"));
  box.append(
    h("button", { class: "btn small ghost icon", id: "sound-toggle", type: "button", "aria-pressed": String(prefs.sound),
      "aria-label": t("prefs.sound"), title: prefs.sound ? t("prefs.mute") : t("prefs.unmute"),
      onclick: () => setSound(!prefs.sound), html: speaker(prefs.sound) }),
    h("button", { class: "btn small ghost icon", id: "settings-btn", type: "button", "aria-label": t("prefs.title"),
      title: t("prefs.title"), onclick: showPrefs }, "⚙"),
  );
}

function showPrefs() {
  const dialog = clear(document.getElementById("dialog"));
  const box = (id, checked, label, hint, change) => h("label", { class: "check pref" },
    h("input", { type: "checkbox", id, checked, onchange: (ev) => change(ev.target.checked) }),
    h("span", {}, label, h("span", { class: "hint" }, hint)));
  const lang = h("select", { id: "pref-lang", onchange: () => setLanguage(lang.value).then(showPrefs) },
    LANGUAGES.map(([code, name]) => h("option", { value: code }, name)));
  lang.value = language();
  dialog.append(
    h("h2", {}, t("prefs.title")),
    h("label", { class: "pref-lang" }, t("lang.label"), lang),
    box("pref-sound", prefs.sound, t("prefs.sound"), t("prefs.sound_hint"), setSound),
    box("pref-motion", prefs.motion, t("prefs.motion"), t("prefs.motion_hint"), setMotion),
    h("div", { class: "row" }, h("button", { class: "btn primary", type: "button", id: "prefs-close",
      onclick: () => dialog.close("ok") }, t("common.close"))),
  );
  if (!dialog.open) dialog.showModal();
}

async function setLanguage(code) {
  await loadLanguage(code);
  localStorage.setItem("dp.lang", code);
  document.getElementById("lang-select").value = code;
  translateStatic();
  renderAccount();
  app.view?.render();
}
app.setLanguage = setLanguage;

// ------------------------------------------------------------------- account

async function refreshMe() {
  const { ok, data } = await api("/api/session");
  app.me = ok && data.id ? data : null;
  renderAccount();
  if (app.view instanceof LobbyView) app.view.render(); // "your tables"
  return app.me;
}
app.refreshMe = refreshMe;

function renderAccount() {
  const box = clear(document.getElementById("account"));
  if (!app.me) {
    box.append(
      h("button", { class: "btn small primary", id: "guest-btn", onclick: () => loginAs("guest") }, t("auth.guest")),
      h("button", { class: "btn small", id: "login-btn", onclick: () => showAuth("login") }, t("auth.login")),
      h("button", { class: "btn small", id: "register-btn", onclick: () => showAuth("register") }, t("auth.register")),
    );
    return;
  }
  box.append(...[
    h("span", { class: "me-name", id: "me-name" }, app.me.name),
    h("span", { class: "balance", id: "balance", title: t("account.balance") },
      h("span", { class: "sr-only" }, t("account.balance") + " "), chips(app.me.balance)),
    // The daily free chips are for registered players (the server refuses a guest).
    app.me.kind === "player" ? h("button", { class: "btn small", id: "topup-btn", onclick: dailyTopUp,
      title: t("account.free_chips_hint") }, t("account.free_chips")) : null,
    h("button", { class: "btn small ghost", id: "logout-btn", onclick: logout }, t("auth.logout")),
  ].filter(Boolean));
}

async function dailyTopUp() {
  const { ok, data } = await api("/api/daily-topup", { method: "POST" });
  if (!ok) return toast(errorText({ code: "daily_taken", message: data?.error }), "error");
  toast(data.granted ? t("account.granted", { n: chips(data.granted) }) : t("account.not_today"));
  await refreshMe();
}

async function logout() {
  await api("/api/logout", { method: "POST" });
  app.me = null;
  app.tableCache.clear();
  app.tournaments.clear(); // (the new connection follows no channel)
  app.finished.clear();
  renderAccount();
  app.socket.reconnect();
}

async function loginAs(kind, name = "", password = "") {
  const path = { guest: "/api/guest", login: "/api/login", register: "/api/register" }[kind];
  const body = kind === "guest" ? undefined : { name, password };
  const { ok, status, data } = await api(path, { method: "POST", body });
  if (!ok) {
    const code = { 401: "wrong_password", 429: "too_many_logins" }[status];
    return errorText({ code, message: data?.error });
  }
  await refreshMe();
  app.socket.reconnect(); // the websocket authenticates when it connects
  watchMyTournaments();
  const dialog = document.getElementById("dialog");
  if (dialog.open) dialog.close("ok");
  return null;
}
app.loginAs = loginAs;

/** The log-in dialog; resolves true when an account is logged in. */
function showAuth(mode = "choose") {
  const dialog = clear(document.getElementById("dialog"));
  const error = h("p", { class: "error", role: "alert" });
  const name = h("input", { id: "auth-name", autocomplete: "username", required: true, maxlength: 32 });
  const password = h("input", { id: "auth-password", type: "password", required: true,
    autocomplete: mode === "register" ? "new-password" : "current-password" });
  const submit = async (kind) => {
    error.textContent = "";
    const problem = await loginAs(kind, name.value.trim(), password.value);
    if (problem) error.textContent = problem;
  };
  const form = h("form", { method: "dialog", class: "auth-form", onsubmit: (ev) => {
    ev.preventDefault();
    submit(mode === "register" ? "register" : "login");
  } },
  h("label", {}, t("auth.name"), name),
  h("label", {}, t("auth.password"), password),
  error,
  h("div", { class: "row" },
    h("button", { class: "btn primary", type: "submit", id: "auth-submit" },
      mode === "register" ? t("auth.register") : t("auth.login")),
    h("button", { class: "btn", type: "button", onclick: () => showAuth(mode === "register" ? "login" : "register") },
      mode === "register" ? t("auth.have_account") : t("auth.new_account")),
  ));
  dialog.append(
    h("h2", {}, t("auth.title")),
    h("p", {}, t("auth.intro")),
    h("button", { class: "btn primary wide", id: "auth-guest", onclick: () => submit("guest") }, t("auth.guest")),
    h("p", { class: "or" }, t("auth.or")),
    form,
    h("button", { class: "btn ghost close", type: "button", "aria-label": t("common.close"),
      onclick: () => dialog.close("cancel") }, "×"),
  );
  if (!dialog.open) dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(Boolean(app.me)), { once: true });
  });
}
app.showAuth = showAuth;
app.requireAccount = async () => app.me || (await showAuth()) ? app.me : null;

// -------------------------------------------------------------- connection

function renderConn() {
  const el = document.getElementById("conn");
  el.className = `conn ${app.status}`;
  el.textContent = t(`conn.${app.status}`);
}

// -------------------------------------------------------------- tournaments

/** On start and after logging in: follow the tournaments this player is in, so
 * that the start (YourTable) or the end (Finished) reaches any page. */
async function watchMyTournaments() {
  if (!app.me) return;
  const { ok, data } = await api("/api/tournaments");
  if (ok) await findMyTournaments(app, data.tournaments ?? [], app.checkedTournaments);
}
app.checkedTournaments = new Set();

/** Watch a tournament's channel (its notices, YourTable, Finished), also across
 * reconnects. ``id``: the configured id or an instance id. ``keep``: false for a
 * look only (the start-up search), which lets ``unwatchTournament`` drop it;
 * any keeping watcher (a registration, the tournament's page) makes it stay.
 * Resolves with ``{instance, table, name}`` once the server answered. */
async function watchTournament(id, name = null, keep = true) {
  let watch = app.tournaments.get(id);
  if (!watch) {
    watch = { instance: null, table: null, name, keep, pending: null };
    app.tournaments.set(id, watch);
    watch.pending = subscribeTournament(id, watch);
  }
  if (name) watch.name = name;
  if (keep) watch.keep = true;
  await watch.pending;
  return app.tournaments.get(id) === watch ? watch : null;
}
app.watchTournament = watchTournament;

async function subscribeTournament(id, watch) {
  const reply = await app.socket.send({ type: "subscribe", table: id });
  if (reply.type !== "ok") {
    if (reply.code !== "offline" && app.tournaments.get(id) === watch) app.tournaments.delete(id);
    return;
  }
  const detail = reply.detail ?? {};
  watch.instance = detail.tournament ?? id;
  if (detail.table || !watch.table) watch.table = detail.table ?? null;
}

/** The tournament tables where this player plays now: [{id, instance, table, name}]. */
app.myTournamentTables = () => [...app.tournaments].filter(([, w]) => w.table && !app.finished.has(w.instance))
  .map(([id, w]) => ({ id, instance: w.instance, table: w.table, name: w.name }));

/** Stop following ``id``: ``force`` (its page closing, nothing else keeps it) or
 * a look-only watch. */
app.unwatchTournament = (id, force = false) => {
  const watch = app.tournaments.get(id);
  if (!watch || (!force && watch.keep) || watch.table) return;
  app.tournaments.delete(id);
  app.socket.send({ type: "unsubscribe", table: id });
};

/** The watch that follows channel ``instance`` (or a run of tournament ``id``). */
function watchOf(instance) {
  for (const [id, watch] of app.tournaments) {
    if (id === instance || watch.instance === instance) return watch;
  }
  for (const [id, watch] of app.tournaments) {
    if (!watch.instance && String(instance).startsWith(`${id}-`)) return watch;
  }
  return null;
}

/** ``YourTable``: the tournament seats this player (its start, or a move). */
function onYourTable(message) {
  const instance = message.channel ?? String(message.table).replace(/-t\d+$/, "");
  const watch = watchOf(instance);
  if (watch) watch.table = message.table;
  const view = app.view;
  if (view instanceof TableView && view.id === message.table) return;
  const here = view instanceof TournamentView
    || view instanceof LobbyView
    || (view instanceof TableView && view.table?.tournament);
  if (view instanceof TournamentView) view.refresh();
  if (here) {
    if (view instanceof TableView) {
      app.flash = { key: "tour.moved", params: { n: message.table_no } };
      if (view.table) view.table.you = null;
    } else {
      app.flash = { key: "tour.seated", params: { n: message.table_no } };
    }
    location.hash = `#/table/${encodeURIComponent(message.table)}`;
  } else {
    toast(t("tour.seated", { n: message.table_no }));
  }
}

/** ``Finished``: this player's tournament is over (place and prize). */
function tournamentFinished(e) {
  const known = app.finished.has(e.tournament); // (from the table and the channel)
  app.finished.set(e.tournament, e);
  for (const watch of app.tournaments.values()) {
    if (watch.instance === e.tournament) watch.table = null;
  }
  const view = app.view;
  if (view instanceof TableView && view.table?.tournament?.id === e.tournament && !view.table.finished) {
    view.table.finished = { tournament: e.tournament, places: e.places ?? [], prize: e.prize ?? 0 };
    view.render();
  }
  if (view instanceof TournamentView) view.refresh();
  if (!known && !(view instanceof TableView && view.table?.tournament?.id === e.tournament)) {
    const place = e.places?.[0] === 1 ? t("tour.you_won") : t("tour.you_finished", { place: places(e.places) });
    toast(`${place} ${e.prize ? t("tour.your_prize", { n: chips(e.prize) }) : ""}`.trim());
  }
  if (!known) refreshMe();
}
app.tournamentFinished = tournamentFinished;

function onMessage(message) {
  if (message.type === "YourTable") onYourTable(message);
  if (message.type === "event") {
    // YourTable and Finished are this player's alone: whichever channel brings them.
    const e = message.event;
    if (e.type === "YourTable") onYourTable({ ...e, channel: message.table });
    if (e.type === "Finished") tournamentFinished(e);
  }
  if (message.type === "event" && message.event.type === "TournamentCancelled" && watchOf(message.table)) {
    watchOf(message.table).table = null;
    toast(t("log.tournament_cancelled"));
    refreshMe(); // the refund
  }
  if (message.type === "lobby") {
    if (message.full) app.lobbyRows.clear();
    for (const row of message.tables ?? []) {
      if (row.status === "closed") app.lobbyRows.delete(row.id); // an operator closed it
      else app.lobbyRows.set(row.id, row);
    }
    registerTables(message.tables);
    if (message.full && message.tournaments) app.tournamentRows.clear();
    for (const row of message.tournaments ?? []) {
      if (row.status === "closed") app.tournamentRows.delete(row.id); // an operator cancelled it
      else app.tournamentRows.set(row.id, row);
    }
    for (const listener of app.lobbyListeners) listener();
  }
  app.view?.onMessage?.(message);
}

function onOpen(welcome) {
  app.welcome = welcome;
  app.socket.send({ type: "lobby" });
  for (const [id, watch] of app.tournaments) watch.pending = subscribeTournament(id, watch);
  app.view?.onOpen?.(welcome);
}

// ------------------------------------------------------------------ routing

function route() {
  const hash = location.hash || "#/lobby";
  const [, page, arg] = hash.split("/");
  app.view?.destroy?.();
  const main = clear(document.getElementById("view"));
  let view;
  if (page === "table" && arg) view = new TableView(app, decodeURIComponent(arg));
  else if (page === "history") view = new HistoryView(app);
  else if (page === "hand" && arg) view = new HandView(app, decodeURIComponent(arg));
  else if (page === "tournament" && arg) view = new TournamentView(app, decodeURIComponent(arg));
  else view = new LobbyView(app);
  app.view = view;
  document.body.dataset.page = page || "lobby";
  main.append(view.el);
  view.render();
  for (const link of document.querySelectorAll(".topnav a")) {
    const section = page === "tournament" ? "lobby" : page || "lobby";
    link.classList.toggle("active", link.getAttribute("href") === `#/${section}`);
  }
  if (app.welcome) view.onOpen?.(app.welcome);
}

/** The top bar's height, for what is laid out under it (toasts, the table). */
function watchTopbar() {
  const bar = document.querySelector(".topbar");
  const set = () => document.documentElement.style.setProperty("--top-h", `${bar.offsetHeight}px`);
  set();
  if (typeof ResizeObserver === "function") new ResizeObserver(set).observe(bar);
}

async function main() {
  initSound();
  onPrefs(() => {
    renderPrefs();
    app.view?.render();
  });
  watchTopbar();
  const select = document.getElementById("lang-select");
  for (const [code, name] of LANGUAGES) select.append(h("option", { value: code }, name));
  select.addEventListener("change", () => setLanguage(select.value));
  await setLanguage(pickLanguage());
  app.socket = new Socket({
    onMessage,
    onOpen,
    onStatus: (status) => {
      app.status = status;
      renderConn();
      app.view?.onStatus?.(status);
    },
  });
  await refreshMe();
  app.socket.connect();
  window.addEventListener("hashchange", route);
  route();
  watchMyTournaments();
  if ("serviceWorker" in navigator && location.protocol !== "file:") {
    navigator.serviceWorker.register("/sw.js").catch(() => undefined);
  }
  document.documentElement.dataset.ready = language();
}

window.drawpoker = app; // for the console and the browser tests

main();
