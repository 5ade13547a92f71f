"""A tournament as plain data: whole (``to_dict``), or what changed since the last
save (``take_save_changes``), and back (``from_dict``).

Format 2 (format 1 is still read) is a JSON-ready dict: a header of scalars
(status, pool, counters, the seating draw's random state, the payouts), the
``config``, and four collections -- ``entries`` (one row per entry), ``tables``
(one row per table, hand-for-hand membership included), ``moves`` and
``unplaced`` (both only ever appended to, or emptied).

A server saves after every finished hand. A whole save costs O(entries); a
change set costs O(what changed): the header without the config (and without
the payouts and random state unless they changed), the rows of the entries and
tables changed, the ids of those removed, and the moves and unplaced groups
added. ``apply_save_changes(document, changes)`` turns the document saved
before into the current one (a saver keeping rows in a database writes the
rows instead). The first ``take_save_changes()`` of a tournament (new, or
restored) gives the whole document.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from drawpoker.events import Event
from drawpoker.room.structure import Level
from drawpoker.room.tournament import Tournament
from drawpoker.room.tournament_config import Entry, Kind, Status, TournamentConfig
from drawpoker.room.tournament_seating import Move, TableState
from drawpoker.rules import Structure

VERSION = 2


def config_to_dict(cfg: TournamentConfig) -> dict[str, Any]:
    return {
        "kind": str(cfg.kind),
        "structure": str(cfg.structure),
        "buy_in": cfg.buy_in,
        "fee": cfg.fee,
        "starting_stack": cfg.starting_stack,
        "levels": [[lv.small_blind, lv.big_blind, lv.ante, lv.minutes] for lv in cfg.levels],
        "seats_per_table": cfg.seats_per_table,
        "max_entries": cfg.max_entries,
        "min_entries": cfg.min_entries,
        "start_at": cfg.start_at,
        "late_registration_levels": cfg.late_registration_levels,
        "reentries": cfg.reentries,
        "paid_fraction": str(cfg.paid_fraction),
        "hand_for_hand": cfg.hand_for_hand,
    }


def config_from_dict(c: Mapping[str, Any]) -> TournamentConfig:
    return TournamentConfig(
        kind=Kind(c["kind"]),
        structure=Structure(c["structure"]),
        buy_in=c["buy_in"],
        fee=c["fee"],
        starting_stack=c["starting_stack"],
        levels=tuple(Level(sb, bb, ante, minutes) for sb, bb, ante, minutes in c["levels"]),
        seats_per_table=c["seats_per_table"],
        max_entries=c["max_entries"],
        min_entries=c["min_entries"],
        start_at=c["start_at"],
        late_registration_levels=c["late_registration_levels"],
        reentries=c["reentries"],
        paid_fraction=Fraction(c["paid_fraction"]),
        hand_for_hand=c["hand_for_hand"],
    )


def _entry_row(e: Entry) -> list[Any]:
    return [
        e.entry_id,
        e.player,
        e.stack,
        e.table,
        e.seat,
        e.eliminated,
        list(e.places),
        e.prize,
        e.posted_big_blind,
    ]


def _table_row(t: Tournament, table: TableState) -> dict[str, Any]:
    rnd = t._hfh_round
    return {
        "id": table.table_id,
        "seats": {str(seat): e for seat, e in table.seats.items()},
        "button": table.button,
        "last_big_blind": table.last_big_blind,
        "last_sb_position": table.last_sb_position,
        "hands_played": table.hands_played,
        "next_seq": table.next_seq,
        "in_hand": table.order is not None,
        "positions_before": list(table.positions_before),
        "level": table.level,
        "hfh_round": rnd is not None and table.table_id in rnd,
        "hfh_started": table.table_id in t._hfh_started,
    }


def _move_row(m: Move) -> list[Any]:
    return [m.entry_id, m.from_table, m.from_seat, m.to_table, m.to_seat, m.broke, m.at]


def _header(t: Tournament, *, whole: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "version": VERSION,
        "name": t.name,
        "status": str(t.status),
        "prize_pool": t.prize_pool,
        "fees": t.fees,
        "started_at": t.started_at,
        "registration_open": t.registration_open,
        "hands_played": t.hands_played,
        "hand_for_hand_rounds": t.hand_for_hand_rounds,
        "groups": t.places.groups,
        "out": t.places.out,
        "placed": t.places.placed,
        "pending_busts": [list(item) for item in t._pending_busts],
        "hfh_round_open": t._hfh_round is not None,
        "next_table": t.seating.next_table,
        "entry_seq": t._entry_seq,
        "next_notice_seq": t.next_notice_seq,
        "level_announced": t._level_announced,
        "hfh_announced": t._hfh_announced,
    }
    if whole:
        out["config"] = config_to_dict(t.config)
    if whole or t._dirty_prizes:
        out["prizes"] = list(t.prizes)
    if whole or t._dirty_rng:
        out["rng"] = _rng_state(t._rng)
    return out


def to_dict(t: Tournament) -> dict[str, Any]:
    return {
        **_header(t, whole=True),
        "entries": [_entry_row(e) for e in t.entries.values()],
        "tables": [_table_row(t, table) for table in t.tables.values()],
        "moves": [_move_row(m) for m in t.moves],
        "unplaced": [[list(item) for item in group] for group in t.places.unplaced],
    }


def _mark_saved(t: Tournament) -> None:
    t._saved_once = True
    t._dirty_entries.clear()
    t._removed_entries.clear()
    t.seating.dirty.clear()
    t.seating.removed.clear()
    t._saved_moves = len(t.moves)
    t._saved_unplaced = len(t.places.unplaced)
    t._dirty_prizes = t._dirty_rng = False


def take_save_changes(t: Tournament) -> dict[str, Any]:
    """See the module docstring."""
    if not t._saved_once:
        whole = to_dict(t)
        _mark_saved(t)
        return whole
    entries, tables = t.entries, t.tables
    changes = {
        "version": VERSION,
        "changes": True,
        "header": _header(t, whole=False),
        "entries": [_entry_row(entries[e]) for e in sorted(t._dirty_entries) if e in entries],
        "removed_entries": sorted(t._removed_entries),
        "tables": [_table_row(t, tables[x]) for x in sorted(t.seating.dirty) if x in tables],
        "removed_tables": sorted(x for x in t.seating.removed if x not in tables),
        "moves": [t._saved_moves, [_move_row(m) for m in t.moves[t._saved_moves :]]],
        "unplaced": [
            t._saved_unplaced,
            [[list(item) for item in group] for group in t.places.unplaced[t._saved_unplaced :]],
        ],
    }
    _mark_saved(t)
    return changes


def apply_save_changes(document: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    """The document ``changes`` (from ``take_save_changes``) makes of ``document``
    (the one saved before it). A whole document replaces it."""
    if not changes.get("changes"):
        return copy.deepcopy(dict(changes))
    out = dict(document)
    out.update(copy.deepcopy(changes["header"]))
    entries = {row[0]: row for row in document["entries"]}
    for entry_id in changes["removed_entries"]:
        entries.pop(entry_id, None)
    for row in changes["entries"]:
        entries[row[0]] = copy.deepcopy(row)
    out["entries"] = list(entries.values())
    tables = {row["id"]: row for row in document["tables"]}
    for table_id in changes["removed_tables"]:
        tables.pop(table_id, None)
    for row in changes["tables"]:
        tables[row["id"]] = copy.deepcopy(row)
    out["tables"] = list(tables.values())  # a new table has the highest id yet
    for key in ("moves", "unplaced"):
        start, added = changes[key]
        out[key] = list(document[key][:start]) + copy.deepcopy(added)
    return out


def from_dict(
    data: Mapping[str, Any], *, next_seqs: Mapping[int, int] | None = None
) -> tuple[Tournament, dict[int, list[Event]]]:
    version = data.get("version")
    if version not in (1, 2):
        raise ValueError(f"unknown tournament format {version!r}")
    t = Tournament(config_from_dict(data["config"]), name=data["name"])
    t.status = Status(data["status"])
    for eid, player, stack, table, seat, out, places, prize, posted in data["entries"]:
        entry = Entry(eid, player, stack, table, seat, out, tuple(places), prize, posted)
        t.entries[eid] = entry
        t._by_player.setdefault(player, []).append(entry)
        if entry.alive:
            t._alive[eid] = entry
    t._alive_peak = len(t._alive)
    t.prize_pool = data["prize_pool"]
    t.fees = data["fees"]
    t.started_at = data["started_at"]
    t.registration_open = data["registration_open"]
    t.seating.moves[:] = [Move(*m) for m in data["moves"]]
    t.hands_played = data["hands_played"]
    t.hand_for_hand_rounds = data["hand_for_hand_rounds"]
    t.prizes = list(data["prizes"])
    t.places.groups = data["groups"]
    t.places.out = data["out"]
    t.places.placed = data["placed"]
    t.places.unplaced = [[(a, b) for a, b in group] for group in data["unplaced"]]
    t._pending_busts = [(a, b) for a, b in data["pending_busts"]]
    if version == 1:
        t._hfh_started = set(data["hfh_started"])
        t._hfh_round = None if data["hfh_round"] is None else set(data["hfh_round"])
    else:
        t._hfh_started = {row["id"] for row in data["tables"] if row["hfh_started"]}
        rnd = {row["id"] for row in data["tables"] if row["hfh_round"]}
        t._hfh_round = rnd if data["hfh_round_open"] else None
    t.seating.next_table = data["next_table"]
    t._entry_seq = data["entry_seq"]
    t._rng.setstate(_rng_from(data["rng"]))
    t._notices.base = data["next_notice_seq"] - 1
    t._level_announced = data["level_announced"]
    t._hfh_announced = data["hfh_announced"]
    in_hand = []
    for row in data["tables"]:
        table = TableState(row["id"])
        table.seats = {int(seat): e for seat, e in row["seats"].items()}
        table.button = row["button"]
        table.last_big_blind = row["last_big_blind"]
        table.last_sb_position = row["last_sb_position"]
        table.hands_played = row["hands_played"]
        table.next_seq = row["next_seq"]
        table.level = row["level"]
        before = row["positions_before"]
        table.positions_before = (before[0], before[1], before[2])
        t.seating.add_table(table)
        if row["in_hand"]:
            in_hand.append(table)
    _mark_saved(t)  # the document given is the last save
    events: dict[int, list[Event]] = {}
    seqs = next_seqs or {}
    for table in in_hand:  # cancelled: the positions go back, the hand is dealt again
        seq = max(table.next_seq, seqs.get(table.table_id, table.next_seq))
        events[table.table_id] = [t._cancelled(table, seq)]
    return t, events


def _rng_state(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def _rng_from(data: list[Any]) -> tuple[Any, ...]:
    version, internal, gauss = data
    return (version, tuple(internal), gauss)
