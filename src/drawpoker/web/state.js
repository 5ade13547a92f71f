// The table as the server describes it: a snapshot, then events applied in order.
// Pure data, no DOM: the live table and the replayer share it. The client never
// decides a rule: amounts, legal actions and results all come from the server.

import { factsOf } from "./names.js";

const LOG_LIMIT = 300;
const ACTS = new Set(["Folded", "Checked", "Called", "BetPlaced", "Raised", "StoodPat", "Discarded", "TimedOut",
  "OpenersRequested", "OpenersDeclined"]);

export function fromSnapshot(state, myName, now = Date.now()) {
  const facts = factsOf(state);
  const table = {
    id: state.table,
    name: state.name,
    epoch: state.epoch,
    rules: state.rules,
    facts,
    italian: facts.game === "italian",
    limit: facts.structure === "fixed-limit",
    maxSeats: state.max_seats,
    minBuyIn: state.min_buy_in,
    maxBuyIn: state.max_buy_in,
    button: state.button,
    carried: state.carried_pot,
    you: state.you,
    myName,
    preAction: state.pre_action,
    seats: {},
    hand: null,
    log: [],
    chat: [],
    result: null,
    lastResult: null,
    deadline: null,
    clockKind: null,
    clockTotal: 0,
    notice: null,
    tournament: state.tournament ? tournamentState(state.tournament) : null,
    moved: null, // the private Moved entry: where this player goes next
    finished: null, // the private Finished entry: this player's place and prize
    waitingList: Array.isArray(state.waiting_list) ? [...state.waiting_list] : [],
    offer: state.seat_offer ? { seat: state.seat_offer.seat, until: now + state.seat_offer.until_s * 1000 } : null,
    autoTopUp: "auto_top_up" in state ? state.auto_top_up : undefined, // my target (null: off)
    status: state.status ?? "open", // open, paused, closing, closed (an operator's)
  };
  if (Array.isArray(state.chat)) table.chat = state.chat.map((line) => ({ name: line.name, text: line.text }));
  for (const s of state.seats) table.seats[s.seat] = { ...s };
  const h = state.hand;
  if (h) {
    table.hand = {
      id: h.hand_id,
      street: h.street,
      button: h.button,
      toAct: h.to_act,
      pot: h.pot,
      highest: h.highest,
      commitment: h.commitment,
      players: {},
      legal: h.legal,
      blinds: {},
      seed: null,
      myHand: h.my_hand ?? null,
      hint: h.hint ?? null,
      dealtAt: 0,
    };
    for (const p of h.seats) {
      table.hand.players[p.seat] = {
        seat: p.seat,
        stack: p.stack,
        wager: p.wager,
        committed: p.committed,
        folded: p.folded,
        allIn: p.all_in,
        count: p.card_count,
        cards: p.cards ? [...p.cards] : null,
        drew: p.drew,
        penalized: p.penalized,
        last: null,
        shown: null,
      };
    }
    if (h.to_act) {
      table.clockTotal = Math.max(h.clock_s ?? 0, 1);
      table.deadline = now + (h.clock_s ?? 0) * 1000;
      table.clockKind = h.bank_running ? "bank" : h.street === "draw" ? "draw" : "act";
    }
  }
  restoreStory(table, state, now);
  return table;
}

/** A table with the same seats and nothing else, to replay a story into. */
function shadowOf(table) {
  const shadow = fromSnapshot({
    table: table.id, name: table.name, epoch: table.epoch, rules: table.rules, max_seats: table.maxSeats,
    min_buy_in: 0, max_buy_in: 0, button: table.button, carried_pot: 0, you: table.you, pre_action: null,
    seats: Object.values(table.seats), hand: null,
  }, table.myName);
  shadow.facts = table.facts;
  shadow.italian = table.italian;
  shadow.limit = table.limit;
  return shadow;
}

/** The snapshot's ``story`` (the hand in play, as this viewer saw it) and
 * ``last_hand``: the hand log, blind and last-action labels, the drew badges and
 * the last hand's result, as if the client had watched them happen. The snapshot's
 * own figures (stacks, wagers, cards, the clock) stay authoritative. */
export function restoreStory(table, state, now = Date.now()) {
  const last = state.last_hand;
  if (last && Array.isArray(last.story) && last.story.length) {
    const shadow = shadowOf(table);
    for (const e of last.story) apply(shadow, e, now);
    table.log.push(...shadow.log);
    if (shadow.result) table.lastResult = shadow.result;
  }
  const story = state.story;
  if (!Array.isArray(story) || !story.length) return;
  const shadow = shadowOf(table);
  for (const e of story) apply(shadow, e, now);
  table.log.push(...shadow.log);
  if (table.log.length > LOG_LIMIT) table.log.splice(0, table.log.length - LOG_LIMIT);
  const hand = table.hand;
  const replayed = shadow.hand;
  if (!hand || !replayed || replayed.id !== hand.id) {
    if (!hand && shadow.result) table.lastResult = shadow.result;
    return;
  }
  hand.blinds = { ...replayed.blinds };
  hand.myHand ??= replayed.myHand;
  for (const [seat, p] of Object.entries(hand.players)) {
    const q = replayed.players[seat];
    if (!q) continue;
    p.last = q.last;
    if (p.drew === null || p.drew === undefined) p.drew = q.drew;
    p.penalized = Boolean(p.penalized || q.penalized);
    p.shown ??= q.shown;
  }
  table.result = shadow.result;
}

/** The snapshot's ``tournament`` object, with the level's end as a clock time. */
export function tournamentState(t, now = Date.now()) {
  return {
    ...t,
    levelEnds: typeof t.next_in_s === "number" ? now + t.next_in_s * 1000 : null,
    levels: t.levels ?? null, // the schedule, when the client fetched it
  };
}

function log(table, key, params = {}, cls = "") {
  table.log.push({ key, params, cls });
  if (table.log.length > LOG_LIMIT) table.log.splice(0, table.log.length - LOG_LIMIT);
}

function put(p, chips) {
  p.stack -= chips;
  p.committed += chips;
}

/** The result of the hand in play, made when the first hand is shown or pot paid:
 * self-contained (names and shown hands), so it can be shown after the next deal. */
function resultOf(table) {
  if (!table.result) {
    const names = {};
    for (const [seat, s] of Object.entries(table.seats)) names[seat] = s.name;
    table.result = { handId: table.hand?.id ?? null, pots: [], carried: 0, shown: [], names };
  }
  return table.result;
}

/** The acting player's turn is over: a running time bank keeps what was not used. */
function endTurn(table, now) {
  const hand = table.hand;
  if (!hand || !hand.toAct) return;
  const seat = table.seats[hand.toAct];
  if (table.clockKind === "bank" && seat && table.deadline) {
    seat.time_bank = Math.max(0, Math.round((table.deadline - now) / 100) / 10);
  }
  hand.toAct = null;
  hand.legal = null;
  table.deadline = null;
  table.clockKind = null;
}

/** Apply one event (engine or table) to ``table``; returns the table. */
export function apply(table, e, now = Date.now()) {
  const hand = table.hand;
  const p = hand && e.seat !== undefined ? hand.players[e.seat] : null;
  const who = (seat) => table.seats[seat]?.name ?? `#${seat}`;
  if (hand && ACTS.has(e.type) && e.seat === hand.toAct) endTurn(table, now);
  switch (e.type) {
    case "HandStarted": {
      table.button = e.button;
      table.carried = e.carried_pot;
      if (table.result) table.lastResult = table.result;
      table.result = null;
      table.hand = {
        id: e.hand_id,
        street: "pre-draw",
        button: e.button,
        toAct: null,
        pot: e.carried_pot,
        highest: 0,
        commitment: e.commitment,
        players: {},
        legal: null,
        blinds: {},
        seed: null,
        myHand: null,
        hint: null,
        dealtAt: now,
      };
      for (const [seat, stack] of e.stacks) {
        table.hand.players[seat] = {
          seat, stack, wager: 0, committed: 0, folded: false, allIn: false, count: 0,
          cards: null, drew: null, penalized: false, last: null, shown: null,
        };
        if (table.seats[seat]) table.seats[seat].waiting = null;
      }
      table.preAction = null;
      log(table, "log.hand_started", { id: e.hand_id }, "sep");
      break;
    }
    case "Posted":
      if (!p) break;
      put(p, e.amount);
      hand.pot += e.amount;
      if (e.kind === "small blind" || e.kind === "big blind") {
        p.wager += e.amount;
        hand.highest = Math.max(hand.highest, p.wager);
      }
      p.allIn = e.all_in;
      hand.blinds[e.seat] = e.kind;
      p.last = { key: `post.${e.kind.replace(/ /g, "_")}`, params: { n: e.amount } };
      log(table, `log.post.${e.kind.replace(/ /g, "_")}`, { who: who(e.seat), n: e.amount });
      break;
    case "CardsDealt":
      if (!hand) break;
      for (const seat of e.seats) {
        const q = hand.players[seat];
        if (q) {
          q.count = e.count;
          if (q.cards === null && seat === table.you) q.cards = [];
        }
      }
      break;
    case "CardsReceived":
      if (!p) break;
      if (!p.cards) p.cards = [];
      for (const card of e.cards) {
        const hole = p.cards.indexOf(null);
        if (hole >= 0) p.cards[hole] = card;
        else p.cards.push(card);
      }
      p.count = p.cards.filter(Boolean).length;
      if (hand.street === "draw" || hand.street === "post-draw") {
        p.fresh = [...e.cards];
        log(table, "log.you_received", { cards: e.cards }, "private");
      }
      break;
    case "Folded":
      if (!p) break;
      p.folded = true;
      p.count = 0;
      p.last = { key: "act.folds" };
      log(table, "log.folds", { who: who(e.seat) });
      break;
    case "Checked": {
      if (!p) break;
      const passes = table.italian && hand.street === "pre-draw" && hand.highest === 0;
      p.last = { key: passes ? "act.passes" : "act.checks" };
      log(table, passes ? "log.passes" : "log.checks", { who: who(e.seat) });
      break;
    }
    case "Called":
      if (!p) break;
      put(p, e.amount);
      p.wager += e.amount;
      hand.pot += e.amount;
      p.allIn = e.all_in;
      p.last = { key: e.all_in ? "act.calls_all_in" : "act.calls", params: { n: e.amount } };
      log(table, "log.calls", { who: who(e.seat), n: e.amount });
      break;
    case "BetPlaced": {
      if (!p) break;
      const add = e.amount - p.wager;
      put(p, add);
      p.wager = e.amount;
      hand.pot += add;
      hand.highest = e.amount;
      p.allIn = e.all_in;
      const kind = e.opened ? "opens" : e.completed ? "completes" : "bets";
      p.last = { key: `act.${kind}`, params: { n: e.amount } };
      log(table, `log.${kind}`, { who: who(e.seat), n: e.amount });
      break;
    }
    case "Raised": {
      if (!p) break;
      const add = e.to - p.wager;
      put(p, add);
      p.wager = e.to;
      hand.pot += add;
      hand.highest = e.to;
      p.allIn = e.all_in;
      p.last = { key: "act.raises", params: { n: e.to } };
      log(table, "log.raises", { who: who(e.seat), n: e.to });
      break;
    }
    case "TimedOut":
      if (p) p.penalized = Boolean(e.penalized);
      if (e.seat === table.you && table.you) {
        table.notice = { key: e.penalized ? "notice.penalized" : "notice.timed_out", sound: "alert" };
      }
      log(table, e.penalized ? "log.timed_out_penalized" : "log.timed_out", { who: who(e.seat) });
      break;
    case "UncalledBetReturned":
      if (!p) break;
      p.stack += e.amount;
      p.committed -= e.amount;
      p.wager = Math.max(0, p.wager - e.amount);
      hand.pot -= e.amount;
      log(table, "log.returned", { who: who(e.seat), n: e.amount });
      break;
    case "BettingRoundEnded":
      if (!hand) break;
      for (const q of Object.values(hand.players)) {
        q.wager = 0;
        if (q.last && !q.folded && !q.allIn) q.last = null;
      }
      hand.pot = e.pot;
      hand.highest = 0;
      endTurn(table, now);
      hand.street = e.street === "pre-draw" ? "draw" : "showdown";
      break;
    case "StoodPat":
      if (!p) break;
      p.drew = 0;
      p.last = { key: "act.stands_pat" };
      log(table, "log.stands_pat", { who: who(e.seat) });
      break;
    case "Discarded":
      if (!p) break;
      p.drew = e.count;
      p.last = { key: "act.discards", params: { n: e.count } };
      log(table, "log.discards", { who: who(e.seat), n: e.count });
      break;
    case "DiscardedCards":
      if (!p || !p.cards) break;
      p.cards = p.cards.map((c) => (e.cards.includes(c) ? null : c));
      break;
    case "Reshuffled":
      log(table, "log.reshuffled", { n: e.size });
      break;
    case "CardsDelivered":
      break;
    case "HandShown":
      if (!p) break;
      p.cards = [...e.cards];
      p.shown = e.description;
      p.last = null;
      resultOf(table).shown.push({ seat: e.seat, cards: [...e.cards], desc: e.description });
      log(table, "log.shows", { who: who(e.seat), cards: e.cards, desc: e.description }, "show");
      break;
    case "Mucked":
      if (!p) break;
      p.last = { key: "act.mucks" };
      log(table, "log.mucks", { who: who(e.seat) });
      break;
    case "OpenersRequested": // R48
      log(table, "log.openers_asked", { who: who(e.seat), opener: who(e.opener) });
      break;
    case "OpenersDeclined":
      log(table, "log.openers_declined", { who: who(e.seat), opener: who(e.opener) });
      break;
    case "OpenersShown":
      log(table, e.valid ? "log.openers" : "log.false_openers", { who: who(e.seat), cards: e.cards },
        e.valid ? "show" : "penalty");
      table.notice = { key: e.valid ? "notice.openers" : "notice.false_openers", params: { who: who(e.seat), cards: e.cards },
        kind: e.valid ? "info" : "warn" };
      break;
    case "PenaltyPaid": // R48: into the pot carried to the next hand
      if (p) p.stack -= e.amount;
      log(table, "log.penalty_paid", { who: who(e.seat), n: e.amount }, "penalty");
      if (e.amount > 0) table.notice = { key: "notice.penalty_paid", params: { who: who(e.seat), n: e.amount }, kind: "warn" };
      break;
    case "RakeTaken":
      log(table, "log.rake", { n: e.amount });
      break;
    case "PotAwarded": {
      if (!hand) break;
      const result = resultOf(table);
      result.pots.push({ index: e.index, amount: e.amount, shares: e.shares, showdown: e.showdown });
      for (const [seat, chips] of e.shares) {
        const winner = hand.players[seat];
        if (winner) winner.won = (winner.won ?? 0) + chips;
        const desc = hand.players[seat]?.shown ?? "";
        const key = `${e.index === 0 ? "log.wins_main" : "log.wins_side"}${desc ? "_with" : ""}`;
        log(table, key, { who: who(seat), n: chips, i: e.index, desc }, "win");
      }
      break;
    }
    case "PotCarried":
      if (!hand) break;
      resultOf(table).carried = e.amount;
      log(table, "log.carried", { n: e.amount });
      break;
    case "DeckRevealed":
      if (hand) hand.seed = e.seed;
      break;
    case "HandEnded":
      if (!hand) break;
      endTurn(table, now);
      hand.street = "over";
      table.carried = e.carried_pot;
      for (const [seat, stack] of e.stacks) {
        if (hand.players[seat]) hand.players[seat].stack = stack;
        if (table.seats[seat]) table.seats[seat].stack = stack;
      }
      if (!table.result) resultOf(table).carried = e.carried_pot;
      table.preAction = null;
      break;
    // ------------------------------------------------------------ table events
    case "Turn":
      if (!hand || e.hand_id !== hand.id) break;
      endTurn(table, now);
      hand.toAct = e.seat;
      hand.street = e.street;
      hand.legal = null;
      hand.hint = null;
      table.deadline = now + e.clock_s * 1000;
      table.clockTotal = e.clock_s;
      table.clockKind = e.street === "draw" ? "draw" : "act";
      if (typeof e.time_bank === "number" && table.seats[e.seat]) table.seats[e.seat].time_bank = e.time_bank;
      break;
    case "Legal":
      if (hand && e.hand_id === hand.id) {
        hand.legal = e.legal;
        if (e.my_hand) hand.myHand = e.my_hand;
        hand.hint = e.hint ?? null;
      }
      break;
    case "MyHand":
      if (hand && (!e.hand_id || e.hand_id === hand.id)) hand.myHand = e.description ?? e.my_hand ?? null;
      break;
    case "TimeBank":
      table.deadline = now + e.seconds * 1000;
      table.clockTotal = e.seconds;
      table.clockKind = "bank";
      if (table.seats[e.seat]) table.seats[e.seat].time_bank = e.seconds;
      log(table, "log.time_bank", { who: who(e.seat), n: e.seconds });
      break;
    case "PreActionCancelled":
      table.preAction = null;
      table.notice = { key: e.pre === "draw" ? "notice.pre_draw_cancelled" : "notice.pre_cancelled" };
      break;
    case "TableChanged": { // an operator paused, resumed, closed or changed the table
      const before = table.status ?? "open";
      Object.assign(table, { name: e.name, rules: e.rules, facts: factsOf(e), maxSeats: e.max_seats,
        minBuyIn: e.min_buy_in, maxBuyIn: e.max_buy_in, status: e.status });
      const key = e.status !== before ? `notice.table_${e.status}` : "notice.table_changed";
      table.notice = { key, kind: e.status === "open" ? "info" : "warn" };
      log(table, key, {});
      break;
    }
    case "WaitingList":
      table.waitingList = [...(e.names ?? [])];
      break;
    case "SeatOffered":
      table.offer = { seat: e.seat, until: now + (e.until_s ?? 0) * 1000 };
      table.notice = { key: "notice.seat_offered", params: { n: e.seat }, sound: "turn" };
      break;
    case "AutoTopUpFailed":
      table.notice = { key: "notice.auto_topup_failed", params: { n: e.amount }, text: e.reason, kind: "error" };
      break;
    case "SeatStatus":
      if (table.seats[e.seat]) {
        for (const k of ["waiting", "sit_out_next", "leaving"]) if (k in e) table.seats[e.seat][k] = e[k];
      }
      break;
    case "SeatTaken":
    case "PlayerSeated": {
      const name = e.name ?? e.player;
      table.seats[e.seat] = {
        seat: e.seat, name, stack: e.stack, sitting_out: false, connected: true,
        bot: Boolean(e.bot), time_bank: null, // (the server's bank comes with the next snapshot)
        waiting: e.waiting ?? (table.italian ? "next_hand" : e.post ? "post" : "big_blind"),
      };
      table.waitingList = table.waitingList.filter((n) => n !== name);
      if (name === table.myName) {
        table.you = e.seat;
        table.offer = null;
      }
      log(table, "log.sat_down", { who: name, n: e.stack });
      break;
    }
    case "SeatLeft":
    case "PlayerLeft":
      delete table.seats[e.seat];
      if (table.you === e.seat) table.you = null;
      log(table, "log.left", { who: e.name ?? e.player });
      break;
    case "BlindsMissed":
      log(table, "log.blinds_missed", { who: who(e.seat) });
      break;
    case "ConnectionChanged":
      if (table.seats[e.seat]) table.seats[e.seat].connected = e.connected;
      break;
    case "HandCancelled":
      for (const [seat, stack] of e.stacks ?? []) {
        if (table.seats[seat]) table.seats[seat].stack = stack;
      }
      table.hand = null;
      table.deadline = null;
      log(table, "log.cancelled", { id: e.hand_id });
      break;
    case "SatOut":
      if (table.seats[e.seat]) {
        table.seats[e.seat].sitting_out = true;
        table.seats[e.seat].sit_out_next = false;
      }
      log(table, "log.sat_out", { who: who(e.seat) });
      break;
    case "SatIn":
      if (table.seats[e.seat]) {
        table.seats[e.seat].sitting_out = false;
        if ("waiting" in e) table.seats[e.seat].waiting = e.waiting;
      }
      log(table, "log.sat_in", { who: who(e.seat) });
      break;
    case "ToppedUp":
      if (table.seats[e.seat]) {
        table.seats[e.seat].stack = e.stack;
        table.seats[e.seat].sitting_out = false;
      }
      log(table, "log.topped_up", { who: who(e.seat), n: e.amount });
      break;
    case "TopUpFailed":
      table.notice = { key: "notice.top_up_failed", text: e.message };
      break;
    // ------------------------------------------------------- tournament tables
    case "LevelStarted": {
      const tour = table.tournament;
      if (tour) {
        const level = { level: e.level, small_blind: e.small_blind, big_blind: e.big_blind, ante: e.ante ?? 0 };
        const known = tour.levels?.find((l) => l.level === e.level);
        level.minutes = e.minutes ?? known?.minutes ?? null;
        tour.level = level;
        tour.next_level = tour.levels?.find((l) => l.level === e.level + 1) ?? null;
        tour.levelEnds = level.minutes ? now + level.minutes * 60000 : null;
        table.facts = factsOf({ rules: table.rules, max_seats: table.maxSeats, tournament: { level } });
      }
      log(table, e.ante ? "log.level_ante" : "log.level",
        { level: e.level, sb: e.small_blind, bb: e.big_blind, ante: e.ante }, "sep");
      break;
    }
    case "PlayerMoved":
      log(table, "log.player_moved", { who: e.name, n: e.to_table }, "tour");
      break;
    case "TableBroken":
      log(table, "log.table_broken", { n: e.table_no ?? e.table ?? "" }, "tour");
      break;
    case "HandForHand":
      log(table, e.on === false ? "log.hand_for_hand_off" : "log.hand_for_hand", {}, "tour");
      break;
    case "FinalTable":
      log(table, "log.final_table", { n: e.table }, "tour");
      break;
    case "PlayerEliminated": {
      const place = (e.places ?? [])[0];
      if (table.tournament && typeof table.tournament.players_left === "number" && place) {
        table.tournament.players_left = Math.min(table.tournament.players_left, place - 1);
      }
      log(table, e.prize ? "log.eliminated_prize" : "log.eliminated",
        { who: e.name, places: e.places ?? [], n: e.prize ?? 0 }, "tour");
      break;
    }
    case "TournamentFinished":
      log(table, "log.tournament_won", { who: e.name, n: e.prize ?? 0 }, "win");
      break;
    case "Moved":
      table.moved = { table: e.table, tableNo: e.table_no, seat: e.seat };
      log(table, "log.you_moved", { n: e.table_no }, "private");
      break;
    case "Finished":
      table.finished = { tournament: e.tournament, places: e.places ?? [], prize: e.prize ?? 0 };
      break;
    case "ChatDeleted": // by a moderator
      table.chat = table.chat.filter((line) => line.name !== e.name || line.text !== e.text);
      break;
    case "Chat":
      table.chat.push({ name: e.name, text: e.text });
      if (table.chat.length > 100) table.chat.shift();
      break;
    default:
      break;
  }
  return table;
}

/** Pots for display: main and side pots from what each player put in. */
export function pots(hand) {
  if (!hand) return [];
  const players = Object.values(hand.players);
  const levels = [...new Set(players.filter((p) => p.allIn && !p.folded).map((p) => p.committed))]
    .sort((a, b) => a - b);
  const inPlay = players.reduce((sum, p) => sum + p.committed, 0);
  const carried = hand.pot - inPlay;
  if (!levels.length) return [hand.pot];
  const out = [];
  let floor = 0;
  for (const level of [...levels, Infinity]) {
    let amount = 0;
    for (const p of players) amount += Math.max(0, Math.min(p.committed, level) - floor);
    if (amount > 0) out.push(amount);
    floor = level;
  }
  if (out.length) out[0] += carried;
  return out;
}

/** Rebuild a finished hand's table from its events, up to ``step`` events. */
export function replayTo(events, step, me, nameOf = (seat) => `#${seat}`) {
  const started = events.find((e) => e.type === "HandStarted");
  const table = fromSnapshot(
    {
      table: "", name: "", epoch: "", rules: "", max_seats: 8, min_buy_in: 0, max_buy_in: 0,
      button: started ? started.button : 0, carried_pot: 0, you: me, pre_action: null, seats: [],
      hand: null,
    },
    "",
  );
  if (started) {
    for (const [seat, stack] of started.stacks) {
      table.seats[seat] = { seat, name: nameOf(seat), stack, sitting_out: false, connected: true, bot: false };
    }
  }
  for (const e of events.slice(0, step)) apply(table, e);
  return table;
}
