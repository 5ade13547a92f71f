// A tournament table's line (the tournament, the level and its blinds, the next
// level and when, the players left), the moved message and the finishing place.

import { h, clear, chips, duration } from "./dom.js";
import { t, places } from "./i18n.js";

/** The tournament line (level, blinds, next level, players left), the moved
 * message and the finishing place. */
export function renderTournament(view) {
  const table = view.table;
  const bar = view.el.querySelector("#tour-bar");
  if (!table || !bar) return;
  const tour = table.tournament;
  bar.hidden = !tour;
  const flash = clear(view.el.querySelector("#flash"));
  if (!view.flash && view.app.flash) {
    view.flash = view.app.flash;
    view.app.flash = null;
    const shown = view.flash;
    setTimeout(() => {
      if (view.flash === shown) {
        view.flash = null;
        renderTournament(view);
      }
    }, 20000);
  }
  const message = view.flash;
  flash.hidden = !message;
  if (message) {
    flash.append(h("span", {}, t(message.key, message.params)),
      h("button", { class: "btn small ghost", "aria-label": t("common.close"),
        onclick: () => { view.flash = null; renderTournament(view); } }, "×"));
  }
  renderFinished(view);
  if (!tour) return;
  const blinds = (l) => (l.ante ? t("tour.blinds_ante", { sb: chips(l.small_blind), bb: chips(l.big_blind),
    ante: chips(l.ante) }) : t("tour.blinds", { sb: chips(l.small_blind), bb: chips(l.big_blind) }));
  const level = tour.level;
  const next = tour.next_level;
  clear(bar).append(...[
    h("span", { class: "tour-name" }, tour.name ?? "", " · ", t("tour.table_no", { n: tour.table_no })),
    level ? h("span", { class: "tour-level", id: "tour-level" },
      h("strong", {}, t("tour.level_n", { n: level.level })), " ", blinds(level)) : null,
    next ? h("span", { class: "tour-next", id: "tour-next" }, t("tour.next_level"), " ", blinds(next)) : null,
    tour.levelEnds ? h("span", { class: "tour-clock" }, t("tour.next_in"), " ",
      h("span", { id: "tour-next-in", role: "timer" }, duration((tour.levelEnds - Date.now()) / 1000))) : null,
    typeof tour.players_left === "number"
      ? h("span", { class: "tour-left", id: "tour-left" },
        t("tour.players_left", { n: tour.players_left, of: tour.entries ?? tour.players_left }))
      : null,
  ].filter(Boolean));
}

function renderFinished(view) {
  const box = view.el.querySelector("#finished");
  const done = view.table?.finished;
  // Built once per change: the table plays on and re-renders, the link stays put.
  const key = JSON.stringify([done, document.documentElement.lang]);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  clear(box);
  box.hidden = !done;
  if (!done) return;
  const won = done.places[0] === 1;
  box.append(
    h("h2", { id: "finished-place" }, won ? t("tour.you_won") : t("tour.you_finished", { place: places(done.places) })),
    h("p", { id: "finished-prize" }, done.prize ? t("tour.your_prize", { n: chips(done.prize) }) : t("tour.no_prize")),
    h("a", { class: "btn primary", id: "finished-back", href: `#/tournament/${encodeURIComponent(done.tournament)}` },
      t("tour.back_to_lobby")),
  );
}
