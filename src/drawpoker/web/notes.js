// Player notes: private lines about opponents, kept in this browser only
// (localStorage, per account: nobody else — not even the server — reads them).

import { h, clear } from "./dom.js";
import { t } from "./i18n.js";

const MAX = 1000;

function key(me) {
  return `dp.notes.${me?.id ?? "anon"}`;
}

function all(me) {
  try {
    return JSON.parse(localStorage.getItem(key(me)) || "{}");
  } catch {
    return {};
  }
}

/** My note on ``name`` ("" if none). */
export function noteOf(me, name) {
  return all(me)[name] ?? "";
}

export function saveNote(me, name, text) {
  const notes = all(me);
  const clean = String(text ?? "").trim().slice(0, MAX);
  if (clean) notes[name] = clean;
  else delete notes[name];
  localStorage.setItem(key(me), JSON.stringify(notes));
}

/** The notes dialog for one opponent; ``done`` runs after saving. */
export function notesDialog(me, name, done = () => undefined) {
  const dialog = clear(document.getElementById("dialog"));
  const area = h("textarea", { id: "note-text", rows: 5, maxlength: MAX, "aria-label": t("notes.label", { name }) });
  area.value = noteOf(me, name);
  dialog.append(h("form", { method: "dialog", onsubmit: (ev) => {
    ev.preventDefault();
    saveNote(me, name, area.value);
    dialog.close("ok");
    done();
  } },
  h("h2", {}, t("notes.title", { name })),
  h("p", { class: "hint" }, t("notes.private")),
  area,
  h("div", { class: "row" },
    h("button", { class: "btn primary", type: "submit", id: "note-save" }, t("notes.save")),
    h("button", { class: "btn", type: "button", onclick: () => dialog.close("cancel") }, t("common.cancel")))));
  dialog.showModal();
  area.focus();
}
