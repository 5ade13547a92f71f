"""Tournaments: sit & go and scheduled multi-table, synchronous and without I/O.

``Tournament`` is the state a tournament's actor owns alone: registration, the
blind clock (from the ``now`` values it is given), the seating (``Seating``:
balancing and breaking tables), hand-for-hand play on the money bubble,
eliminations, places and prizes. It plays no hand itself: it gives a table an
order to deal (``HandOrder``) and hears back when the hand is over
(``finish_hand``), exchanging only plain data with the table's side
(``TournamentTable``, which plays the hand through the engine):

    t = Tournament(config, seed=b"...")
    t.register("ann", now)                  # the caller took buy-in + fee from ann
    ...                                     # a sit & go starts itself when full;
    t.start(now)                            # a scheduled one at its time
    for table_id in t.take_seating_changes():
        send(table_id, t.table_seats(table_id))  # who sits where (closed: broken)
    for table_id in t.ready_tables():       # tables that may deal now
        send(table_id, t.start_hand(table_id, now))   # a HandOrder
    ...                                     # the table plays it, then:
    t.finish_hand(table_id, hand_id, stacks, next_seq, now)   # a HandFinished
    t.results()                             # places and prizes

Money: each entry adds ``buy_in`` to the prize pool and ``fee`` to the house;
prizes are whole chip units that sum exactly to the prize pool. A finished
hand must give back exactly the chips its players were dealt with (tournaments
take no rake); ``finish_hand`` refuses anything else and changes nothing.

The work done per finished hand does not grow with the field: the tables are
indexed by player count (``tournament_seating``), the living entries, the
players' entries and the tables that may deal are kept as they change, and a
saver can take only what changed since its last save (``tournament_serial.take_save_changes``).
"""

from __future__ import annotations

import hashlib
import random
from bisect import bisect_right
from collections.abc import Mapping
from typing import Any

from drawpoker.deck import new_seed
from drawpoker.events import Event, PostKind
from drawpoker.room.blinds import NO_DEBT, Debt, plan_blinds
from drawpoker.room.errors import HandInProgress, NotEnoughPlayers, TournamentError
from drawpoker.room.events import (
    HandCancelled,
    HandForHand,
    LevelStarted,
    RegistrationClosed,
    TournamentCancelled,
    TournamentFinished,
    TournamentStarted,
)
from drawpoker.room.payouts import payout_table
from drawpoker.room.structure import rules_for
from drawpoker.room.tournament_config import Entry, Kind, Status, TournamentConfig
from drawpoker.room.tournament_notices import Notices
from drawpoker.room.tournament_orders import (
    HandFinished,
    HandOrder,
    HandSummary,
    SeatedPlayer,
    TableSeats,
)
from drawpoker.room.tournament_places import Places
from drawpoker.room.tournament_seating import Move, Seating, TableState

__all__ = [
    "Entry",
    "HandFinished",
    "HandOrder",
    "HandSummary",
    "Kind",
    "Move",
    "SeatedPlayer",
    "Status",
    "TableSeats",
    "TableState",
    "Tournament",
    "TournamentConfig",
]

_RECENT_BB = Debt(recent_big_blind=True)


class Tournament:
    """See the module docstring and ``docs/room.md``."""

    def __init__(
        self, config: TournamentConfig, *, seed: bytes | str | None = None, name: str = ""
    ) -> None:
        self.config = config
        self.name = name
        self.status = Status.REGISTERING
        if seed is None:
            seed = new_seed()  # the seating draw; tests and simulations pass one
        seed_bytes = seed.encode() if isinstance(seed, str) else seed
        self._rng = random.Random(hashlib.sha256(b"seating:" + seed_bytes).digest())
        self.entries: dict[int, Entry] = {}
        self._by_player: dict[str, list[Entry]] = {}
        self._alive: dict[int, Entry] = {}  # entries not eliminated, in entry order
        self._alive_peak = 0
        # What changed since the last ``take_save_changes`` (tournament_serial):
        self._dirty_entries: set[int] = set()
        self._removed_entries: set[int] = set()
        self._saved_moves = 0
        self._saved_unplaced = 0
        self._dirty_prizes = True
        self._dirty_rng = True
        self._saved_once = False
        self._notices = Notices()
        self.seating = Seating(config, self.entries, self._notices.add, self._dirty_entries)
        self.prize_pool = 0
        self.fees = 0
        self.started_at: float | None = None
        self.registration_open = True
        self.hands_played = 0
        self.hand_for_hand_rounds = 0
        self.prizes: list[int] = []
        self.places = Places(self.entries, self._notices.add, self._dirty_entries)
        self._pending_busts: list[tuple[int, int]] = []  # hand-for-hand round so far
        self._hfh_started: set[int] = set()  # tables that dealt this round
        self._hfh_round: set[int] | None = None  # tables yet to finish this round's hand
        self._touched_hfh: set[int] = set()  # round tables whose seating changed
        self._entry_seq = 0
        self.last_summary: HandSummary | None = None
        self.notices: list[Event] = self._notices.items  # numbered from 1 (events.py)
        self._level_announced = -1
        self._hfh_announced = False
        ends, total = [], 0.0
        for level in config.levels:  # as ``structure.level_index`` adds them up
            total += level.minutes * 60.0
            ends.append(total)
        self._level_ends = ends

    # ---------------------------------------------------------------- notices

    def notices_since(self, seq: int) -> list[Event]:
        """Notices with ``seq`` greater than ``seq`` (those kept since a restore)."""
        return self._notices.since(seq)

    @property
    def next_notice_seq(self) -> int:
        return self._notices.next_seq

    def _notice(self, kind: type[Event], /, **fields: Any) -> None:
        self._notices.add(kind, **fields)

    @property
    def moves(self) -> list[Move]:
        return self.seating.moves

    @property
    def tables(self) -> dict[int, TableState]:
        """The tables (read only: the seating changes them), by id."""
        return self.seating.tables

    # ------------------------------------------------------------ registration

    def register(self, player: str, now: float) -> Entry:
        """Enter (or re-enter) ``player``; the caller took ``entry_cost`` from them."""
        cfg = self.config
        if self.status in (Status.FINISHED, Status.CANCELLED):
            raise TournamentError(f"the tournament is {self.status}")
        if self.status is Status.RUNNING:
            self._close_registration_if_due(now)
            if not self.registration_open:
                raise TournamentError("registration is closed")
        mine = self._by_player.get(player, [])
        if any(e.alive for e in mine):
            raise TournamentError(f"{player} is already registered and still playing")
        if mine and len(mine) > cfg.reentries:
            raise TournamentError(f"{player} has used every re-entry ({cfg.reentries})")
        if mine and self.status is Status.REGISTERING:
            raise TournamentError(f"{player} is already registered")
        if len(self.entries) >= cfg.max_entries:
            raise TournamentError(f"the tournament is full ({cfg.max_entries} entries)")
        self._entry_seq += 1
        entry = Entry(self._entry_seq, player, cfg.starting_stack)
        self.entries[entry.entry_id] = entry
        self._by_player.setdefault(player, []).append(entry)
        self._alive[entry.entry_id] = entry
        self._alive_peak = max(self._alive_peak, len(self._alive))
        self._dirty_entries.add(entry.entry_id)
        self.prize_pool += cfg.buy_in
        self.fees += cfg.fee
        if self.status is Status.RUNNING:
            self.seating.seat_late(entry.entry_id)
            self.balance(now)
        elif cfg.kind is Kind.SIT_AND_GO and len(self.entries) == cfg.max_entries:
            self.start(now)
        return entry

    def unregister(self, player: str) -> int:
        """Before the start: remove the entry; returns the refund (buy-in + fee)."""
        if self.status is not Status.REGISTERING:
            raise TournamentError("only before the start can a player unregister")
        mine = self._by_player.pop(player, None)
        if not mine:
            raise TournamentError(f"{player} is not registered")
        [entry] = mine  # no re-entry before the start
        del self.entries[entry.entry_id]
        del self._alive[entry.entry_id]
        self._dirty_entries.discard(entry.entry_id)
        self._removed_entries.add(entry.entry_id)
        self.prize_pool -= self.config.buy_in
        self.fees -= self.config.fee
        return self.config.entry_cost

    def entries_of(self, player: str) -> list[Entry]:
        """``player``'s entries, first first."""
        return list(self._by_player.get(player, ()))

    def tick(self, now: float) -> None:
        """Time passes: a scheduled tournament starts (or is cancelled) at its time;
        late registration closes after its last level."""
        if self.status is Status.REGISTERING and self.config.kind is Kind.SCHEDULED:
            if now >= self.config.start_at:
                if len(self.entries) >= self.config.min_entries:
                    self.start(now)
                else:
                    self.status = Status.CANCELLED  # refund: every entry's cost
                    self._notice(TournamentCancelled, entries=len(self.entries))
        elif self.status is Status.RUNNING:
            self._close_registration_if_due(now)
            self._announce(now)

    def start(self, now: float) -> None:
        """Draw for seats and open the tables."""
        if self.status is not Status.REGISTERING:
            raise TournamentError(f"the tournament is {self.status}, not registering")
        if len(self.entries) < 2:
            raise NotEnoughPlayers("a tournament needs 2 or more entries")
        self.status = Status.RUNNING
        self.started_at = now
        self.registration_open = self.config.late_registration_levels > 0
        ids = list(self.entries)
        self._rng.shuffle(ids)
        self._dirty_rng = True
        self.seating.deal(ids)
        self._notice(TournamentStarted, entries=len(self.entries), tables=len(self.tables))
        self._announce(now)
        if not self.registration_open:
            self._close_registration()

    # -------------------------------------------------------------- the clock

    def level_at(self, now: float) -> int:
        """The 0-based level in force at ``now`` (``structure.level_index``)."""
        if self.started_at is None:
            return 0
        return min(bisect_right(self._level_ends, now - self.started_at), len(self._level_ends) - 1)

    def _close_registration_if_due(self, now: float) -> None:
        if self.registration_open and self.level_at(now) >= self.config.late_registration_levels:
            self._close_registration()

    def _announce(self, now: float) -> None:
        level_no = self.level_at(now)
        if level_no > self._level_announced:
            self._level_announced = level_no
            level = self.config.levels[level_no]
            self._notice(
                LevelStarted,
                level=level_no + 1,
                small_blind=level.small_blind,
                big_blind=level.big_blind,
                ante=level.ante,
            )
        hfh = self.hand_for_hand
        if hfh != self._hfh_announced:
            self._hfh_announced = hfh
            self._notice(HandForHand, on=hfh)

    def _close_registration(self) -> None:
        self.registration_open = False
        self.prizes = payout_table(
            len(self.entries), self.prize_pool, paid_fraction=self.config.paid_fraction
        )
        self._dirty_prizes = True
        self._notice(
            RegistrationClosed,
            entries=len(self.entries),
            prize_pool=self.prize_pool,
            payouts=tuple(self.prizes),
        )
        self.places.settle(self.prizes)
        self._saved_unplaced = 0
        self._maybe_finish()

    # ------------------------------------------------------------ the seating

    @property
    def alive(self) -> list[Entry]:
        return list(self._alive.values())

    @property
    def alive_count(self) -> int:
        """Entries not yet eliminated."""
        return len(self._alive)

    @property
    def paid(self) -> int:
        return len(self.prizes) if not self.registration_open else 0

    @property
    def hand_for_hand(self) -> bool:
        """On the money bubble with several tables: every table plays one hand at a
        time, together, so that eliminations in the same round are simultaneous."""
        if self.registration_open or not self.config.hand_for_hand:
            return False
        tables = len(self.seating.tables)
        paid = len(self.prizes)
        return tables >= 2 and paid < len(self._alive) <= paid + tables

    def balance(self, now: float) -> list[Move]:
        """Break tables and move players until the tables differ by at most one
        (only tables between hands give players); see ``Seating.balance``."""
        moves = self.seating.balance(now)
        for table_id in self.seating.take_touched():
            if table_id not in self.tables:
                self._hfh_started.discard(table_id)
                self._touched_hfh.add(table_id)
            elif self._hfh_round is not None and table_id in self._hfh_round:
                self._touched_hfh.add(table_id)
        return moves

    def take_seating_changes(self) -> set[int]:
        """The tables whose seating changed since the last call (broken ones
        included): send each its ``table_seats``. After a restore: every table."""
        return self.seating.take_changes()

    def table_seats(self, table_id: int) -> TableSeats:
        """Who sits at ``table_id`` now, with their stacks before any hand in play
        (``closed``: the table was broken, or the tournament is over)."""
        if not 0 < table_id < self.seating.next_table:
            raise TournamentError(f"no table {table_id}")
        if self.status is Status.FINISHED:
            return TableSeats(table_id=table_id, seats={}, closed=True)
        return self.seating.seats_of(table_id)

    def ready_tables(self) -> list[int]:
        """Tables that may deal a hand now, by id."""
        if self.status is not Status.RUNNING:
            return []
        ids = self.seating.may_deal()
        rnd = self._hfh_round
        if rnd is not None and self.hand_for_hand:  # wait for every table of the round
            started = self._hfh_started
            ids = [t for t in ids if t in rnd and t not in started]
        return ids

    def is_ready(self, table_id: int) -> bool:
        """May ``table_id`` deal a hand now? (``table_id in ready_tables()``, cheaply.)"""
        if self.status is not Status.RUNNING or not self.seating.can_deal(table_id):
            return False
        rnd = self._hfh_round
        if rnd is not None and self.hand_for_hand:
            return table_id in rnd and table_id not in self._hfh_started
        return True

    def _table(self, table_id: int) -> TableState:
        try:
            return self.seating.tables[table_id]
        except KeyError:
            raise TournamentError(f"no table {table_id}") from None

    # ----------------------------------------------------------------- hands

    def start_hand(self, table_id: int, now: float) -> HandOrder:
        """The order to deal the next hand at ``table_id`` (one of ``ready_tables()``);
        the table is in a hand until ``finish_hand`` or ``cancel_hand``."""
        table = self._table(table_id)
        if table.order is not None:
            raise HandInProgress(f"table {table_id}: hand {table.order.hand_id} is being played")
        if not self.is_ready(table_id):
            raise TournamentError(f"table {table_id} may not deal now")
        self._close_registration_if_due(now)
        self._announce(now)
        cfg = self.config
        level_no = self.level_at(now)
        level = cfg.levels[level_no]
        entries = self.entries
        candidates = {}
        seats = {}
        for seat, e in table.seats.items():
            entry = entries[e]
            candidates[seat] = _RECENT_BB if entry.posted_big_blind else NO_DEBT
            seats[seat] = SeatedPlayer(e, entry.player, entry.stack)
        plan = plan_blinds(
            cfg.seats_per_table,
            candidates,
            last_big_blind=table.last_big_blind,
            last_sb_position=table.last_sb_position,
            last_button=table.button,
            small_blind=level.small_blind,
            big_blind=level.big_blind,
        )
        assert plan is not None
        table.positions_before = (table.button, table.last_big_blind, table.last_sb_position)
        table.button = plan.button
        table.last_big_blind = plan.big_blind
        table.last_sb_position = plan.sb_position
        table.plan = plan
        table.level = level_no
        table.hands_played += 1
        if self.hand_for_hand:
            if self._hfh_round is None:  # a round: every table able to play deals once
                self.hand_for_hand_rounds += 1
                self._hfh_round = {t for t, s in self.tables.items() if len(s.seats) >= 2}
                self.seating.dirty.update(self._hfh_round)
            self._hfh_started.add(table_id)
        order = HandOrder(
            table_id=table_id,
            hand_id=f"{self.name or 'T'}-{table_id}-{table.hands_played}",
            number=table.hands_played,
            level=level_no,
            rules=rules_for(cfg.structure, level, cfg.seats_per_table),
            seats=seats,
            plan=plan,
            first_seq=table.next_seq,
        )
        self.seating.set_order(table, order)
        return order

    def finish_hand(
        self, table_id: int, hand_id: str, stacks: Mapping[int, int], next_seq: int, now: float
    ) -> HandSummary:
        """Hand ``hand_id`` at ``table_id`` is over: ``stacks`` (seat -> final chips) of
        exactly the seats dealt in, which must hold the chips they were dealt with;
        the table's events continue from ``next_seq``. Then busts, eliminations,
        hand-for-hand, balancing. Refused (``TournamentError``, nothing changed)
        if any of that does not match the hand in play."""
        table = self._table(table_id)
        order = self._check_in_hand(table, hand_id)
        dealt = order.plan.dealt
        if len(stacks) != len(dealt) or any(seat not in stacks for seat in dealt):
            raise TournamentError(
                f"hand {hand_id}: final stacks for seats {sorted(stacks, key=str)}, "
                f"but seats {list(dealt)} were dealt in"
            )
        seats = order.seats
        began = ended = 0
        for seat in dealt:
            chips = stacks[seat]
            if type(chips) is not int or chips < 0:
                raise TournamentError(f"hand {hand_id}: seat {seat} ends with {chips!r} chips")
            began += seats[seat].stack
            ended += chips
        if ended != began:
            raise TournamentError(
                f"hand {hand_id}: the final stacks add up to {ended} chips, but the players "
                f"dealt in started with {began} (a tournament hand takes no rake)"
            )
        if type(next_seq) is not int or next_seq <= order.first_seq:
            raise TournamentError(
                f"hand {hand_id}: next_seq {next_seq!r} is not after the hand's first event "
                f"({order.first_seq})"
            )
        bb_seat = next((s for s, kind, _ in order.plan.posts if kind is PostKind.BIG_BLIND), None)
        bb_entry = table.seats[bb_seat] if bb_seat is not None else None
        start: dict[int, int] = {}
        busted = []
        entries, dirty = self.entries, self._dirty_entries
        for seat, chips in stacks.items():
            entry_id = table.seats[seat]
            entry = entries[entry_id]
            start[entry_id] = entry.stack
            entry.stack = chips
            entry.posted_big_blind = entry_id == bb_entry
            dirty.add(entry_id)
            if chips == 0:
                busted.append(entry_id)
        for entry_id in busted:
            at = self.entries[entry_id].seat
            assert at is not None
            self.seating.unsit(table, at)
        self.hands_played += 1
        table.next_seq = next_seq
        summary = HandSummary(
            table_id,
            hand_id,
            table.level,
            tuple(seats[s].entry_id for s in dealt),
            bb_entry,
            tuple(busted),
        )
        self.last_summary = summary
        self.seating.set_order(table, None)
        if self._hfh_round is not None:  # busted in this hand-for-hand round: together
            self._pending_busts += [(e, start[e]) for e in busted]
            self._hfh_round.discard(table_id)
        else:
            self._eliminate([(e, start[e]) for e in busted])
        self._after_hand(now)
        return summary

    def hand_finished(self, message: HandFinished, now: float) -> HandSummary:
        """``finish_hand`` with a ``HandFinished`` message."""
        return self.finish_hand(
            message.table_id, message.hand_id, message.stacks, message.next_seq, now
        )

    def cancel_hand(
        self, table_id: int, hand_id: str, now: float, *, next_seq: int | None = None
    ) -> HandCancelled:
        """Hand ``hand_id`` will never finish (its table failed): every chip goes back
        where it was before the hand (the stacks never changed here), the positions
        go back so that the hand is dealt again in place, and the table is between
        hands. ``next_seq``: the table's next event number if its events went beyond
        what the tournament knows (default: the hand's first event number). Returns
        ``HandCancelled``, numbered in the table's sequence."""
        table = self._table(table_id)
        order = self._check_in_hand(table, hand_id)
        seq = order.first_seq if next_seq is None else next_seq
        if type(seq) is not int or seq < order.first_seq:
            raise TournamentError(
                f"hand {hand_id}: next_seq {next_seq!r} is before the hand's first event "
                f"({order.first_seq})"
            )
        event = self._cancelled(table, seq)
        self._after_hand(now)
        return event

    def _check_in_hand(self, table: TableState, hand_id: str) -> HandOrder:
        order = table.order
        if order is None:
            raise TournamentError(
                f"table {table.table_id}: no hand is being played (not {hand_id!r})"
            )
        if hand_id != order.hand_id:
            raise TournamentError(
                f"table {table.table_id} is playing hand {order.hand_id}, not {hand_id!r}"
            )
        return order

    def _cancelled(self, table: TableState, seq: int) -> HandCancelled:
        """Undo the start of the hand in play at ``table`` (see ``cancel_hand``)."""
        table.button, table.last_big_blind, table.last_sb_position = table.positions_before
        table.plan = None
        order = table.order
        hand_id = order.hand_id if order is not None else self.hand_id_of(table)
        entries = self.entries
        stacks = tuple(sorted((s, entries[e].stack) for s, e in table.seats.items()))
        table.next_seq = seq + 1
        if order is not None:
            self.seating.set_order(table, None)
        if table.table_id in self._hfh_started:  # it deals this round's hand again
            self._hfh_started.discard(table.table_id)
        self.seating.dirty.add(table.table_id)
        return HandCancelled(seq=seq, hand_id=hand_id, stacks=stacks, carried_pot=0)

    def hand_id_of(self, table: TableState) -> str:
        """The id of ``table``'s last hand dealt."""
        return f"{self.name or 'T'}-{table.table_id}-{table.hands_played}"

    def _after_hand(self, now: float) -> None:
        self.balance(now)
        self._end_hfh_round_if_done()
        self._maybe_finish()
        if self.status is Status.RUNNING:
            self._announce(now)

    def _end_hfh_round_if_done(self) -> None:
        """The round is over when every table in it has played its hand (or was
        broken, or has too few players left to deal): only the tables whose
        seating changed can have left it otherwise than by finishing."""
        touched, self._touched_hfh = self._touched_hfh, set()
        rnd = self._hfh_round
        if rnd is None:
            return
        for t in touched:
            table = self.tables.get(t)
            if table is None or (t not in self._hfh_started and len(table.seats) < 2):
                rnd.discard(t)
        if rnd:
            return
        self._hfh_round = None
        self.seating.dirty.update(t for t in self._hfh_started if t in self.tables)
        self._hfh_started.clear()
        group, self._pending_busts = self._pending_busts, []
        self._eliminate(group)

    # ------------------------------------------------------------ eliminations

    def _eliminate(self, group: list[tuple[int, int]]) -> None:
        """``group`` (entry, chips at the start of the hand) is out, together."""
        alive = self._alive
        for entry_id, _ in group:
            alive.pop(entry_id, None)
        if len(alive) * 4 < self._alive_peak:  # a dict never shrinks: copy it
            self._alive = dict(alive)
            self._alive_peak = len(alive)
        self.places.eliminate(group, self.prizes, field_final=not self.registration_open)

    def _maybe_finish(self) -> None:
        if self.status is not Status.RUNNING or self.registration_open:
            return
        if self.alive_count == 1 and self.seating.in_hand == 0:
            winner = next(iter(self._alive.values()))
            self.places.crown(winner, self.prizes)
            self.status = Status.FINISHED
            self._notice(
                TournamentFinished, winner=winner.entry_id, player=winner.player, prize=winner.prize
            )
            self.seating.clear()
            winner.table = winner.seat = None
            self._dirty_entries.add(winner.entry_id)

    # ---------------------------------------------------------------- results

    def chips_in_play(self) -> int:
        """Every tournament chip: the stacks, as before any hand being played (a
        hand's chips are its players' until it finishes)."""
        return sum(e.stack for e in self._alive.values())

    def standings(self) -> list[Entry]:
        """Entries by place (the living by chips, best first, after the placed)."""
        placed = sorted((e for e in self.entries.values() if e.places), key=lambda e: e.places)
        living = sorted((e for e in self.entries.values() if not e.places), key=lambda e: -e.stack)
        return living + placed if self.status is not Status.FINISHED else placed

    def results(self) -> dict[str, Any]:
        """Plain data: places, prizes, pool, fees."""
        return {
            "status": str(self.status),
            "entries": len(self.entries),
            "prize_pool": self.prize_pool,
            "fees": self.fees,
            "paid_places": len(self.prizes),
            "payouts": list(self.prizes),
            "standings": [
                {
                    "entry": e.entry_id,
                    "player": e.player,
                    "places": list(e.places),
                    "prize": e.prize,
                    "stack": e.stack,
                }
                for e in self.standings()
            ],
            "hands": self.hands_played,
            "moves": len(self.moves),
        }
