// What a table is called, on every screen: one naming function, translated.
//
// Facts come from a lobby row, a table snapshot or a hand-history row; the server's
// structured fields are used when present, else the one-line rules summary
// ("No Limit 1/2, 6-max", "Limit 2/4, 6-max" — the bets —, "Italian, invito 10, 6-max").
//
// A table is called by what it plays; when the room has several tables that play
// the same, the room's own name for each is added to tell them apart
// ("5 Card Draw · No Limit 1/2 · Aase"), the same way on every screen.
//
// Stakes are written as PokerStars writes them: blinds for no limit and pot limit
// ("No Limit 1/2"), the small and the big bet for fixed limit ("Limit 2/4", whose
// blinds are 1/2: R15), the invito for the Italian game. Where a player must know
// both, the details line says them: "Blinds 1/2 · bets 2/4 · 6-max".

import { t } from "./i18n.js";
import { chips } from "./dom.js";

const SUMMARY = /^(?:(Limit|Pot Limit|No Limit) (\d+)\/(\d+)|Italian, invito (\d+)), (\d+)-max/;
const STRUCTURES = { Limit: "fixed-limit", "Pot Limit": "pot-limit", "No Limit": "no-limit" };

function num(value) {
  const n = Number(value);
  return value === null || value === undefined || value === "" || !Number.isFinite(n) ? null : n;
}

/** The facts of a table: {game, structure, sb, bb, smallBet, bigBet, ante, invito,
 * seats, practice, openers}, from whatever the server sent (null where unknown). */
export function factsOf(src = {}) {
  const f = {
    game: src.game ?? null,
    structure: src.structure ?? null,
    sb: num(src.small_blind),
    bb: num(src.big_blind),
    smallBet: num(src.small_bet),
    bigBet: num(src.big_bet),
    ante: num(src.ante) ?? 0,
    invito: num(src.invito),
    seats: num(src.max_seats ?? src.seats_total ?? src.seats),
    practice: Boolean(src.practice),
    openers: src.openers ?? null,
  };
  const summary = typeof src.rules === "string" ? src.rules : src.description;
  const m = SUMMARY.exec(summary || "");
  if (m) {
    if (m[4]) {
      f.game ??= "italian";
      f.invito ??= Number(m[4]);
    } else {
      f.game ??= "draw";
      f.structure ??= STRUCTURES[m[1]];
      if (f.structure === "fixed-limit") {
        f.smallBet ??= Number(m[2]);
        f.bigBet ??= Number(m[3]);
      } else {
        f.sb ??= Number(m[2]);
        f.bb ??= Number(m[3]);
      }
    }
    f.seats ??= Number(m[5]);
  }
  if (typeof src.stakes === "string") {
    const parts = src.stakes.split("/").map(Number);
    if (f.game === "italian" || parts.length === 1) f.invito ??= parts[0];
    else {
      f.sb ??= parts[0];
      f.bb ??= parts[1];
    }
  }
  const level = src.tournament?.level;
  if (level && f.game !== "italian") {
    f.sb = num(level.small_blind) ?? f.sb;
    f.bb = num(level.big_blind) ?? f.bb;
    f.ante = num(level.ante) ?? f.ante;
    if (f.structure === "fixed-limit") {
      f.smallBet = f.bb;
      f.bigBet = f.bb === null ? null : 2 * f.bb;
    }
  }
  if (f.structure === "fixed-limit") {
    // R15: the big blind is the small bet, the small blind half of it; the big bet twice it.
    if (f.smallBet === null && f.bb !== null) f.smallBet = f.bb;
    if (f.bigBet === null && f.smallBet !== null) f.bigBet = 2 * f.smallBet;
    if (f.bb === null && f.smallBet !== null) f.bb = f.smallBet;
    if (f.sb === null && f.smallBet !== null) f.sb = Math.max(1, Math.floor(f.smallBet / 2));
  }
  if (f.game === "italian") f.structure ??= "pot-limit";
  f.game ??= "draw";
  return f;
}

const pair = (a, b) => `${chips(a ?? "?")}/${chips(b ?? "?")}`;

/** The game's name: "5 Card Draw", "Italian poker". */
export function gameName(f) {
  return f.game === "italian" ? t("game.italian") : t("game.draw");
}

/** The limit's name: "Limit", "Pot Limit", "No Limit". */
export function structureName(structure) {
  return t(`structure.${structure || "no-limit"}`);
}

/** The stakes as a table's name says them: "1/2", "2/4" (fixed limit: the bets), "invito 10". */
export function stakesText(f) {
  if (f.game === "italian") return t("names.invito", { n: chips(f.invito ?? "?") });
  if (f.structure === "fixed-limit") return pair(f.smallBet, f.bigBet);
  return pair(f.sb, f.bb);
}

/** The limit and stakes: "No Limit 1/2", "Limit 2/4", "invito 10". */
export function limitText(f) {
  if (f.game === "italian") return stakesText(f);
  return `${structureName(f.structure)} ${stakesText(f)}`;
}

/** A table's title: "5 Card Draw · No Limit 1/2", "Italian poker · invito 10". */
export function tableTitle(f) {
  return t("names.title", { game: gameName(f), limit: limitText(f) });
}

/** The blinds as a player must know them: "Blinds 1/2" (", ante 1"). */
export function blindsText(f) {
  if (f.game === "italian") return t("names.invito_each", { n: chips(f.invito ?? "?") });
  const blinds = pair(f.sb, f.bb);
  return f.ante ? t("names.blinds_ante", { blinds, ante: chips(f.ante) }) : t("names.blinds", { blinds });
}

/** The details line: "Blinds 1/2 · bets 2/4 · 6-max", "Jacks or better to open · 6-max". */
export function tableDetails(f) {
  const parts = [];
  if (f.game === "italian") {
    parts.push(t("names.invito_each", { n: chips(f.invito ?? "?") }), openersText(f));
  } else {
    parts.push(blindsText(f));
    if (f.structure === "fixed-limit") parts.push(t("names.bets", { bets: pair(f.smallBet, f.bigBet) }));
  }
  if (f.seats) parts.push(t("lobby.max", { n: f.seats }));
  if (f.practice) parts.push(t("names.practice"));
  return parts.join(" · ");
}

/** What opens in the Italian game: "Jacks or better to open" (R38). */
export function openersText(f) {
  const rank = String(f.openers || "JJ")[0];
  return t("names.openers", { ranks: t(`ranks.${rank}`) });
}

/** A tournament table's title: "Sunday sit & go · Table 2". */
export function tournamentTableTitle(tour) {
  return `${tour.name ?? ""} · ${t("tour.table_no", { n: tour.table_no })}`;
}

const known = new Map(); // table id -> {title facts, the room's name}: the lobby's rows

/** The lobby's cash tables, so that every screen names alike tables apart. */
export function registerTables(rows) {
  for (const row of rows ?? []) known.set(row.id, { facts: factsOf(row), name: row.name });
}

/** A cash table's name on every screen: its title, and the room's name for it when
 * another table plays the same. */
export function tableName(f, id = null, ownName = null) {
  const title = tableTitle(f);
  if (!id) return title;
  const twin = [...known].some(([other, r]) => other !== id && tableTitle(r.facts) === title);
  const name = ownName ?? known.get(id)?.name;
  return twin && name ? `${title} · ${name}` : title;
}
