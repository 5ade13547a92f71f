// drawpoker service worker: the app shell works offline-first for a reload;
// everything is fetched from the network first so a new release shows at once.
// The game itself (websocket, /api) always goes to the server.

const CACHE = "drawpoker-shell-v3";
const SHELL = [
  "/",
  "/static/styles.css",
  "/static/app.js",
  "/static/net.js",
  "/static/dom.js",
  "/static/i18n.js",
  "/static/state.js",
  "/static/cards.js",
  "/static/lobby.js",
  "/static/table.js",
  "/static/felt.js",
  "/static/actions.js",
  "/static/seat.js",
  "/static/names.js",
  "/static/notes.js",
  "/static/sound.js",
  "/static/tourbar.js",
  "/static/myhand.js",
  "/static/tournament.js",
  "/static/history.js",
  "/static/icon.svg",
  "/static/i18n/en.json",
  "/static/i18n/it.json",
  "/static/i18n/es.json",
  "/static/i18n/fi.json",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).catch(() => undefined));
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys().then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k)))),
  );
  self.clients.claim();
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin) return;
  if (url.pathname.startsWith("/api/") || url.pathname === "/ws") return;
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        if (response.ok && (url.pathname === "/" || url.pathname.startsWith("/static/"))) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(event.request, copy));
        }
        return response;
      })
      .catch(() => caches.match(event.request).then((hit) => hit || Response.error())),
  );
});
