"""Tournaments: sit & go and scheduled multi-table, synchronous and without I/O.

``Tournament`` takes registrations, seats the players, runs the blind clock from
the ``now`` values it is given, starts and plays hands at its tables through the
engine, balances and breaks tables, plays hand-for-hand on the money bubble,
orders eliminations and pays the prizes. A server (or the simulator in
``room.simulate``) drives it:

    t = Tournament(config, seed=b"...")
    t.register("ann", now)            # the caller took buy-in + fee from ann
    ...                               # a sit & go starts itself when full;
    t.start(now)                      # a scheduled one at its time
    for table_id in t.ready_tables(): # tables that may deal now
        t.start_hand(table_id, now, seed=...)
    t.act(table_id, action, now)      # or t.timeout(table_id, seat, now)
    t.results()                       # places and prizes

Money: each entry adds ``buy_in`` to the prize pool and ``fee`` to the house;
prizes are whole chip units that sum exactly to the prize pool.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

from drawpoker.actions import Action
from drawpoker.deck import new_seed
from drawpoker.errors import IllegalAction, InvalidConfig
from drawpoker.events import Event, Posted, PostKind
from drawpoker.hand import Hand
from drawpoker.room.balancing import (
    BlindRisk,
    blind_risk,
    fair_seat,
    largest,
    next_big_blind,
    smallest,
    table_to_break,
)
from drawpoker.room.blinds import NO_DEBT, BlindPlan, Debt, plan_blinds, seats_after
from drawpoker.room.errors import HandInProgress, NotEnoughPlayers, TournamentError
from drawpoker.room.events import (
    FinalTable,
    HandCancelled,
    HandForHand,
    LevelStarted,
    PlayerEliminated,
    PlayerMoved,
    RegistrationClosed,
    TableBroken,
    TournamentCancelled,
    TournamentFinished,
    TournamentStarted,
)
from drawpoker.room.payouts import payout_table, share
from drawpoker.room.structure import Level, level_index, rules_for, standard_levels
from drawpoker.rules import Structure


class Kind(StrEnum):
    SIT_AND_GO = "sit-and-go"  # starts when full
    SCHEDULED = "scheduled"  # starts at ``start_at`` if ``min_entries`` registered


class Status(StrEnum):
    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentConfig:
    kind: Kind = Kind.SIT_AND_GO
    structure: Structure = Structure.NO_LIMIT
    buy_in: int = 100  # to the prize pool
    fee: int = 10  # the house's
    starting_stack: int = 1500
    levels: tuple[Level, ...] = field(default_factory=standard_levels)
    seats_per_table: int = 8  # 2-8 (R2)
    max_entries: int = 9  # sit & go: starts when this many registered
    min_entries: int = 2  # scheduled: cancelled below this at the start time
    start_at: float = 0.0  # scheduled: the start time (seconds, the caller's clock)
    late_registration_levels: int = 0  # registration stays open through this level
    reentries: int = 0  # re-entries allowed per player during late registration
    paid_fraction: Fraction = Fraction(15, 100)
    hand_for_hand: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", Kind(self.kind))
        object.__setattr__(self, "structure", Structure(self.structure))
        for name in ("buy_in", "fee", "starting_stack", "max_entries", "min_entries"):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise InvalidConfig(f"{name} must be a non-negative int, got {value!r}")
        if self.starting_stack < 1:
            raise InvalidConfig("starting_stack must be at least 1")
        if not 2 <= self.seats_per_table <= 8:
            raise InvalidConfig(f"seats_per_table must be 2-8, got {self.seats_per_table}")
        if self.max_entries < 2 or self.min_entries < 2 or self.min_entries > self.max_entries:
            raise InvalidConfig("need 2 <= min_entries <= max_entries")
        if not self.levels:
            raise InvalidConfig("a tournament needs at least one level")
        if self.kind is Kind.SIT_AND_GO and (self.late_registration_levels or self.reentries):
            raise InvalidConfig("a sit & go has no late registration or re-entry")

    @property
    def entry_cost(self) -> int:
        return self.buy_in + self.fee


@dataclass(slots=True)
class Entry:
    """One entry (a player may have several with re-entry)."""

    entry_id: int
    player: str
    stack: int
    table: int | None = None
    seat: int | None = None
    eliminated: int = 0  # elimination group number (1 = first out); 0 = alive
    places: tuple[int, ...] = ()  # the place, or the places shared in a tie
    prize: int = 0
    posted_big_blind: bool = False  # in the last hand they played

    @property
    def alive(self) -> bool:
        return self.eliminated == 0

    @property
    def place(self) -> int | None:
        return self.places[0] if self.places else None


@dataclass(slots=True)
class Move:
    """A player moved between tables (balancing or breaking)."""

    entry_id: int
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    broke: bool  # the old table was broken
    at: float


@dataclass(slots=True)
class TableState:
    """One tournament table: who sits where and the positions of the last hand."""

    table_id: int
    seats: dict[int, int] = field(default_factory=dict)  # seat -> entry id
    button: int | None = None
    last_big_blind: int | None = None
    last_sb_position: int | None = None
    hand: Hand | None = None
    plan: BlindPlan | None = None
    start_stacks: dict[int, int] = field(default_factory=dict)  # entry id -> chips
    hands_played: int = 0
    next_seq: int = 1
    level: int = 0
    positions_before: tuple[int | None, int | None, int | None] = (None, None, None)


@dataclass(slots=True)
class HandSummary:
    """What the driver needs after each hand (plain data)."""

    table_id: int
    hand_id: str
    level: int
    dealt: tuple[int, ...]  # entry ids
    big_blind: int | None  # entry id that posted the positional big blind
    busted: tuple[int, ...]  # entry ids
    actions: int


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
        self.tables: dict[int, TableState] = {}
        self.prize_pool = 0
        self.fees = 0
        self.started_at: float | None = None
        self.registration_open = True
        self.moves: list[Move] = []
        self.hands_played = 0
        self.hand_for_hand_rounds = 0
        self.prizes: list[int] = []
        self._groups = 0
        self._out = 0  # entries eliminated
        self._placed = 0  # entries given a place
        self._unplaced: list[list[tuple[int, int]]] = []  # groups of (entry, start stack)
        self._pending_busts: list[tuple[int, int]] = []  # hand-for-hand round so far
        self._hfh_started: set[int] = set()  # tables that dealt this round
        self._hfh_round: set[int] | None = None  # tables yet to finish this round's hand
        self._next_table = 1
        self._entry_seq = 0
        self.last_summary: HandSummary | None = None
        self.notices: list[Event] = []  # what happened, numbered from 1 (see events.py)
        self._level_announced = -1
        self._notice_base = 0  # notices before a restore are not kept
        self._hfh_announced = False

    def notices_since(self, seq: int) -> list[Event]:
        """Notices with ``seq`` greater than ``seq`` (those kept since a restore)."""
        return self.notices[max(0, seq - self._notice_base) :]

    @property
    def next_notice_seq(self) -> int:
        return self._notice_base + len(self.notices) + 1

    def _notice(self, kind: type[Event], /, **fields: Any) -> None:
        self.notices.append(kind(seq=self.next_notice_seq, **fields))

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
        mine = [e for e in self.entries.values() if e.player == player]
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
        self.prize_pool += cfg.buy_in
        self.fees += cfg.fee
        if self.status is Status.RUNNING:
            self._seat_late(entry)
            self.balance(now)
        elif cfg.kind is Kind.SIT_AND_GO and len(self.entries) == cfg.max_entries:
            self.start(now)
        return entry

    def unregister(self, player: str) -> int:
        """Before the start: remove the entry; returns the refund (buy-in + fee)."""
        if self.status is not Status.REGISTERING:
            raise TournamentError("only before the start can a player unregister")
        entry = next((e for e in self.entries.values() if e.player == player), None)
        if entry is None:
            raise TournamentError(f"{player} is not registered")
        del self.entries[entry.entry_id]
        self.prize_pool -= self.config.buy_in
        self.fees -= self.config.fee
        return self.config.entry_cost

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
        per = self.config.seats_per_table
        n_tables = -(-len(ids) // per)
        for _ in range(n_tables):
            self._new_table()
        tables = list(self.tables.values())
        for i, entry_id in enumerate(ids):  # deal the entries round the tables
            table = tables[i % n_tables]
            seat = len(table.seats) + 1
            self._sit(entry_id, table, seat)
        self._notice(TournamentStarted, entries=len(self.entries), tables=n_tables)
        self._announce(now)
        if not self.registration_open:
            self._close_registration()

    # -------------------------------------------------------------- the clock

    def level_at(self, now: float) -> int:
        """The 0-based level in force at ``now``."""
        if self.started_at is None:
            return 0
        return level_index(self.config.levels, now - self.started_at)

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
        self._notice(
            RegistrationClosed,
            entries=len(self.entries),
            prize_pool=self.prize_pool,
            payouts=tuple(self.prizes),
        )
        for group in self._unplaced:
            self._place(group)
        self._unplaced = []
        self._maybe_finish()

    # ----------------------------------------------------------------- hands

    @property
    def alive(self) -> list[Entry]:
        return [e for e in self.entries.values() if e.alive]

    @property
    def alive_count(self) -> int:
        """Entries not yet eliminated (kept as a count: the simulator asks often)."""
        return len(self.entries) - self._out

    @property
    def paid(self) -> int:
        return len(self.prizes) if not self.registration_open else 0

    @property
    def hand_for_hand(self) -> bool:
        """On the money bubble with several tables: every table plays one hand at a
        time, together, so that eliminations in the same round are simultaneous."""
        if not self.config.hand_for_hand or self.registration_open or len(self.tables) < 2:
            return False
        remaining = self.alive_count
        return self.paid < remaining <= self.paid + len(self.tables)

    def ready_tables(self) -> list[int]:
        """Tables that may deal a hand now."""
        if self.status is not Status.RUNNING:
            return []
        hfh = self.hand_for_hand
        rnd = self._hfh_round
        out = []
        for table in self.tables.values():
            if table.hand is not None or len(table.seats) < 2:
                continue
            if (
                hfh
                and rnd is not None
                and (table.table_id in self._hfh_started or table.table_id not in rnd)
            ):
                continue  # hand-for-hand: wait for every table to finish this round
            out.append(table.table_id)
        return out

    def start_hand(self, table_id: int, now: float, *, seed: bytes | None = None) -> list[Event]:
        """Deal the next hand at ``table_id`` (one of ``ready_tables()``); the deck
        comes from ``seed`` (default: a fresh one from ``secrets``)."""
        table = self._table(table_id)
        if table.hand is not None:
            raise HandInProgress(f"table {table_id}: a hand is being played")
        if table_id not in self.ready_tables():
            raise TournamentError(f"table {table_id} may not deal now")
        self._close_registration_if_due(now)
        self._announce(now)
        level_no = self.level_at(now)
        level = self.config.levels[level_no]
        rules = rules_for(self.config.structure, level, self.config.seats_per_table)
        stacks = {seat: self.entries[e].stack for seat, e in table.seats.items()}
        candidates = {
            seat: _RECENT_BB if self.entries[e].posted_big_blind else NO_DEBT
            for seat, e in table.seats.items()
        }
        plan = plan_blinds(
            self.config.seats_per_table,
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
        table.start_stacks = {e: self.entries[e].stack for e in table.seats.values()}
        if self.hand_for_hand:
            if self._hfh_round is None:  # a round: every table able to play deals once
                self.hand_for_hand_rounds += 1
                self._hfh_round = {t for t, s in self.tables.items() if len(s.seats) >= 2}
            self._hfh_started.add(table_id)
        hand = Hand(
            rules,
            stacks,
            plan.button,
            seed=seed if seed is not None else new_seed(),
            posts=list(plan.posts),
            hand_id=f"{self.name or 'T'}-{table_id}-{table.hands_played}",
            first_seq=table.next_seq,
        )
        table.hand = hand
        table.next_seq = hand.next_seq
        events = list(hand.events)
        if hand.is_over:
            self._finish_hand(table, now)
        return events

    def act(self, table_id: int, action: Action, now: float) -> list[Event]:
        table = self._table(table_id)
        hand = table.hand
        if hand is None:
            raise HandInProgress(f"table {table_id}: no hand is being played")
        events = hand.act(action)
        table.next_seq = hand.next_seq
        if hand.is_over:
            self._finish_hand(table, now)
        return events

    def timeout(self, table_id: int, seat: int, now: float) -> list[Event]:
        hand = self._table(table_id).hand
        if hand is None or hand.to_act != seat:
            raise IllegalAction(f"table {table_id}: seat {seat} is not to act")
        return self.act(table_id, Action.timeout(seat), now)

    def _finish_hand(self, table: TableState, now: float) -> None:
        hand = table.hand
        assert hand is not None
        assert table.plan is not None
        result = hand.result
        dealt_entries = tuple(table.seats[s] for s in table.plan.dealt)
        bb_entry = None
        for e in hand.events:
            if isinstance(e, Posted) and e.kind is PostKind.BIG_BLIND:
                bb_entry = table.seats[e.seat]
                break
        busted = []
        for seat, stack in result.stacks.items():
            entry = self.entries[table.seats[seat]]
            entry.stack = stack
            entry.posted_big_blind = entry.entry_id == bb_entry
            if stack == 0:
                busted.append(entry.entry_id)
        for entry_id in busted:
            entry = self.entries[entry_id]
            del table.seats[entry.seat]  # type: ignore[arg-type]
            entry.table = entry.seat = None
        self.hands_played += 1
        self.last_summary = HandSummary(
            table.table_id,
            hand.hand_id,
            table.level,
            dealt_entries,
            bb_entry,
            tuple(busted),
            sum(1 for e in hand.events if type(e).__name__ in _ACTION_EVENTS),
        )
        start = table.start_stacks
        table.hand = None
        if self._hfh_round is not None:  # busted in this hand-for-hand round: together
            self._pending_busts += [(e, start[e]) for e in busted]
            self._hfh_round.discard(table.table_id)
        else:
            self._eliminate([(e, start[e]) for e in busted])
        self.balance(now)
        self._end_hfh_round_if_done()
        self._maybe_finish()
        if self.status is Status.RUNNING:
            self._announce(now)

    def _end_hfh_round_if_done(self) -> None:
        """The round is over when every table in it has played its hand (or was
        broken, or has too few players left to deal)."""
        rnd = self._hfh_round
        if rnd is None:
            return
        for t in list(rnd):
            table = self.tables.get(t)
            if table is None or (t not in self._hfh_started and len(table.seats) < 2):
                rnd.discard(t)
        if rnd:
            return
        self._hfh_round = None
        self._hfh_started.clear()
        group, self._pending_busts = self._pending_busts, []
        self._eliminate(group)

    # ------------------------------------------------------------ eliminations

    def _eliminate(self, group: list[tuple[int, int]]) -> None:
        if not group:
            return
        self._groups += 1
        self._out += len(group)
        for entry_id, _ in group:
            self.entries[entry_id].eliminated = self._groups
        if self.registration_open:
            self._unplaced.append(group)
        else:
            self._place(group)

    def _place(self, group: list[tuple[int, int]]) -> None:
        """Places for players busted together: more chips at the start of the hand
        finishes higher; equal chips share the places' prizes."""
        worst = len(self.entries) - self._placed  # the place of the first one out
        self._placed += len(group)
        ranked = sorted(group, key=lambda item: (-item[1], item[0]))
        best = worst - len(group) + 1
        k = 0
        while k < len(ranked):
            tied = [item for item in ranked[k:] if item[1] == ranked[k][1]]
            places = tuple(range(best + k, best + k + len(tied)))
            prizes = share(self.prizes, places, len(tied))
            for (entry_id, _), prize in zip(tied, prizes, strict=True):
                entry = self.entries[entry_id]
                entry.places = places
                entry.prize = prize
                self._notice(
                    PlayerEliminated,
                    entry=entry_id,
                    player=entry.player,
                    places=places,
                    prize=prize,
                )
            k += len(tied)

    def _maybe_finish(self) -> None:
        if self.status is not Status.RUNNING or self.registration_open:
            return
        if self.alive_count == 1 and not any(t.hand for t in self.tables.values()):
            winner = self.alive[0]
            winner.places = (1,)
            self._placed += 1
            winner.prize = self.prizes[0] if self.prizes else 0
            self.status = Status.FINISHED
            self._notice(
                TournamentFinished, winner=winner.entry_id, player=winner.player, prize=winner.prize
            )
            for table in self.tables.values():
                table.seats.clear()
            winner.table = winner.seat = None

    # ------------------------------------------------------------- balancing

    def balance(self, now: float) -> list[Move]:
        """Break tables and move players until the tables differ by at most one
        (only tables between hands give players); then make sure no table between
        hands would give the big blind twice in a row, if a swap can help it."""
        moves: list[Move] = []
        cap = self.config.seats_per_table
        while True:
            sizes = {t: len(s.seats) for t, s in self.tables.items()}
            victim = table_to_break(sizes, cap)
            if victim is not None and self.tables[victim].hand is None:
                moves += self._break(self.tables[victim], now)
                continue
            if victim is not None:  # to be broken when its hand ends: fill nothing there
                del sizes[victim]
            idle = [t for t, s in self.tables.items() if s.hand is None]
            source = largest(sizes, idle)
            if not sizes:
                break
            target = smallest(sizes)
            if source is None or sizes[source] - sizes[target] < 2:
                break
            src, dst = self.tables[source], self.tables[target]
            seat = self._mover(src, dst)
            moves.append(self._move(src, seat, dst, now, broke=False))
        moves += self._swap_away_big_blind_twice(now)
        self.moves += moves
        return moves

    def _mover(self, src: TableState, dst: TableState) -> int:
        """The seat at ``src`` whose player moves to ``dst``: the player who would be
        next in the big blind (they take the big blind at ``dst`` instead), unless
        that would leave ``src`` or ``dst`` giving the big blind twice in a row; then
        the next player in big blind order who does not."""
        cap = self.config.seats_per_table
        order = self._big_blind_order(src)
        for seat in order:
            rest = {s: e for s, e in src.seats.items() if s != seat}
            left = blind_risk(cap, rest, src.last_big_blind, self._recent_seats(src))
            there = self._risk_at(dst, src.seats[seat])[1]
            if left is not BlindRisk.TWICE and there in (BlindRisk.CLEAN, BlindRisk.PASSED):
                return seat
        return order[0]

    def _break(self, table: TableState, now: float) -> list[Move]:
        moves = []
        del self.tables[table.table_id]
        self._notice(TableBroken, table=table.table_id)
        final = len(self.tables) == 1
        self._hfh_started.discard(table.table_id)
        cap = self.config.seats_per_table
        # Players who just posted the big blind move first, each to a table where
        # somebody else is next in the big blind (the smallest such); the others
        # to the table with the fewest players.
        order = sorted(table.seats, key=lambda s: not self.entries[table.seats[s]].posted_big_blind)
        for seat in order:
            entry_id = table.seats[seat]
            sizes = {t: len(s.seats) for t, s in self.tables.items() if len(s.seats) < cap}
            choices = sorted(sizes, key=lambda t: (sizes[t], t))
            if self.entries[entry_id].posted_big_blind:
                risks = {t: self._risk_at(self.tables[t], entry_id)[1] for t in choices}
                choices.sort(key=lambda t: (risks[t], sizes[t], t))
            moves.append(self._move(table, seat, self.tables[choices[0]], now, broke=True))
        if final:
            [last] = self.tables.values()
            self._notice(FinalTable, table=last.table_id, players=len(last.seats))
        return moves

    def _recent_seats(self, table: TableState) -> set[int]:
        """Seats whose player will have posted the big blind in their last hand when
        ``table`` next deals (in a hand: its big blind and waiting players who had)."""
        plan = table.plan if table.hand is not None else None
        return {
            seat
            for seat, e in table.seats.items()
            if (
                seat == plan.big_blind
                if plan is not None and seat in plan.dealt
                else self.entries[e].posted_big_blind
            )
        }

    def _risk_at(self, dst: TableState, entry_id: int) -> tuple[int, BlindRisk]:
        """The seat ``entry_id`` would get at ``dst`` and the big-blind risk there."""
        cap = self.config.seats_per_table
        recent = self._recent_seats(dst)
        just_bb = self.entries[entry_id].posted_big_blind
        seat = fair_seat(cap, dst.seats, dst.last_big_blind, just_posted_big_blind=just_bb)
        if just_bb:
            recent.add(seat)
        sure = None
        if dst.hand is not None and dst.plan is not None:  # the dealt players may bust
            sure = {s for s in dst.seats if s not in dst.plan.dealt} | {seat}
        risk = blind_risk(cap, [*dst.seats, seat], dst.last_big_blind, recent, sure)
        return seat, risk

    def _swap_away_big_blind_twice(self, now: float) -> list[Move]:
        """A table between hands whose players all posted the big blind in their
        last hand swaps one of them with a player of another table between hands
        who did not, so that neither table gives it twice (the sizes stay)."""
        moves: list[Move] = []
        idle = [t for t in self.tables.values() if t.hand is None and len(t.seats) >= 2]
        for bad in idle:
            if self._risk(bad) is not BlindRisk.TWICE:
                continue
            swaps = [
                (max(risks), n, bad_seat, other, seat)
                for n, other in enumerate(idle)
                if other is not bad
                for bad_seat in self._big_blind_order(bad)
                for seat in self._big_blind_order(other)
                if not self.entries[other.seats[seat]].posted_big_blind
                and (risks := self._risks_after_swap(bad, bad_seat, other, seat))
            ]
            if not swaps:
                continue
            risk, _, bad_seat, other, seat = min(swaps, key=lambda s: s[:2])
            if risk is BlindRisk.TWICE:
                continue
            leaving = bad.seats.pop(bad_seat)  # first: either table may be full
            moves.append(self._move(other, seat, bad, now, broke=False))
            moves.append(self._seat_moved(leaving, bad, bad_seat, other, now, broke=False))
        return moves

    def _big_blind_order(self, table: TableState) -> list[int]:
        """The occupied seats in the order the big blind reaches them."""
        cap = self.config.seats_per_table
        first = next_big_blind(cap, table.seats, table.last_big_blind)
        return [first, *(s for s in seats_after(first, cap) if s in table.seats)]

    def _risk(self, table: TableState) -> BlindRisk:
        cap = self.config.seats_per_table
        return blind_risk(cap, table.seats, table.last_big_blind, self._recent_seats(table))

    def _risks_after_swap(
        self, a: TableState, a_seat: int, b: TableState, b_seat: int
    ) -> tuple[BlindRisk, BlindRisk]:
        """The risks at two tables between hands if their players at ``a_seat`` and
        ``b_seat`` changed tables (each seated as ``_seat_moved`` would)."""
        cap = self.config.seats_per_table
        out = []
        for src, seat, dst, dst_seat in ((b, b_seat, a, a_seat), (a, a_seat, b, b_seat)):
            mover = self.entries[src.seats[seat]].posted_big_blind
            seats = [s for s in dst.seats if s != dst_seat]
            new = fair_seat(cap, seats, dst.last_big_blind, just_posted_big_blind=mover)
            recent = self._recent_seats(dst) - {dst_seat} | ({new} if mover else set())
            out.append(blind_risk(cap, [*seats, new], dst.last_big_blind, recent))
        return out[0], out[1]

    def _move(
        self, src: TableState, seat: int, dst: TableState, now: float, *, broke: bool
    ) -> Move:
        return self._seat_moved(src.seats.pop(seat), src, seat, dst, now, broke=broke)

    def _seat_moved(
        self, entry_id: int, src: TableState, seat: int, dst: TableState, now: float, *, broke: bool
    ) -> Move:
        """Seat ``entry_id`` (who left ``src``'s ``seat``) at ``dst``, in the seat that
        gets the big blind next or, if they just posted it, in one that does not."""
        to_seat = fair_seat(
            self.config.seats_per_table,
            dst.seats,
            dst.last_big_blind,
            just_posted_big_blind=self.entries[entry_id].posted_big_blind,
        )
        self._sit(entry_id, dst, to_seat)
        self._notice(
            PlayerMoved,
            entry=entry_id,
            player=self.entries[entry_id].player,
            from_table=src.table_id,
            from_seat=seat,
            to_table=dst.table_id,
            to_seat=to_seat,
            broke=broke,
        )
        return Move(entry_id, src.table_id, seat, dst.table_id, to_seat, broke, now)

    def _seat_late(self, entry: Entry) -> None:
        sizes = {t: len(s.seats) for t, s in self.tables.items()}
        if all(n >= self.config.seats_per_table for n in sizes.values()):
            self._new_table()
            sizes = {t: len(s.seats) for t, s in self.tables.items()}
        table = self.tables[smallest(sizes)]
        seat = fair_seat(self.config.seats_per_table, table.seats, table.last_big_blind)
        self._sit(entry.entry_id, table, seat)

    def _new_table(self) -> TableState:
        table = TableState(self._next_table)
        self.tables[table.table_id] = table
        self._next_table += 1
        return table

    def _sit(self, entry_id: int, table: TableState, seat: int) -> None:
        table.seats[seat] = entry_id
        entry = self.entries[entry_id]
        entry.table = table.table_id
        entry.seat = seat

    def _table(self, table_id: int) -> TableState:
        try:
            return self.tables[table_id]
        except KeyError:
            raise TournamentError(f"no table {table_id}") from None

    # ---------------------------------------------------------------- results

    def chips_in_play(self) -> int:
        """Every tournament chip: stacks, plus the pots of hands being played."""
        total = 0
        for table in self.tables.values():
            hand = table.hand
            if hand is None or table.plan is None:
                total += sum(self.entries[e].stack for e in table.seats.values())
                continue
            dealt = set(table.plan.dealt)
            for seat, entry_id in table.seats.items():  # a player moved in waits
                total += hand.stack(seat) if seat in dealt else self.entries[entry_id].stack
            total += hand.pot_total
        seated = {e for t in self.tables.values() for e in t.seats.values()}
        total += sum(e.stack for e in self.entries.values() if e.entry_id not in seated)
        return total

    def standings(self) -> list[Entry]:
        """Entries by place (the living by chips, best first, after the placed)."""
        placed = sorted((e for e in self.entries.values() if e.places), key=lambda e: e.places)
        living = sorted((e for e in self.entries.values() if not e.places), key=lambda e: -e.stack)
        return living + placed if self.status is not Status.FINISHED else placed

    # ------------------------------------------------------------ persistence

    def to_dict(self) -> dict[str, Any]:
        """The tournament as plain data (JSON-ready). Stacks are those before any hand
        being played: restoring cancels such hands (every chip back to its seat)."""
        cfg = self.config
        return {
            "version": 1,
            "name": self.name,
            "config": {
                "kind": str(cfg.kind),
                "structure": str(cfg.structure),
                "buy_in": cfg.buy_in,
                "fee": cfg.fee,
                "starting_stack": cfg.starting_stack,
                "levels": [
                    [lv.small_blind, lv.big_blind, lv.ante, lv.minutes] for lv in cfg.levels
                ],
                "seats_per_table": cfg.seats_per_table,
                "max_entries": cfg.max_entries,
                "min_entries": cfg.min_entries,
                "start_at": cfg.start_at,
                "late_registration_levels": cfg.late_registration_levels,
                "reentries": cfg.reentries,
                "paid_fraction": str(cfg.paid_fraction),
                "hand_for_hand": cfg.hand_for_hand,
            },
            "status": str(self.status),
            "entries": [
                [
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
                for e in self.entries.values()
            ],
            "tables": [
                {
                    "id": t.table_id,
                    "seats": {str(seat): e for seat, e in t.seats.items()},
                    "button": t.button,
                    "last_big_blind": t.last_big_blind,
                    "last_sb_position": t.last_sb_position,
                    "hands_played": t.hands_played,
                    "next_seq": t.next_seq,
                    "in_hand": t.hand is not None,
                    "positions_before": list(t.positions_before),
                    "level": t.level,
                }
                for t in self.tables.values()
            ],
            "prize_pool": self.prize_pool,
            "fees": self.fees,
            "started_at": self.started_at,
            "registration_open": self.registration_open,
            "moves": [
                [m.entry_id, m.from_table, m.from_seat, m.to_table, m.to_seat, m.broke, m.at]
                for m in self.moves
            ],
            "hands_played": self.hands_played,
            "hand_for_hand_rounds": self.hand_for_hand_rounds,
            "prizes": list(self.prizes),
            "groups": self._groups,
            "out": self._out,
            "placed": self._placed,
            "unplaced": [[list(item) for item in group] for group in self._unplaced],
            "pending_busts": [list(item) for item in self._pending_busts],
            "hfh_started": sorted(self._hfh_started),
            "hfh_round": None if self._hfh_round is None else sorted(self._hfh_round),
            "next_table": self._next_table,
            "entry_seq": self._entry_seq,
            "rng": _rng_state(self._rng),
            "next_notice_seq": self.next_notice_seq,
            "level_announced": self._level_announced,
            "hfh_announced": self._hfh_announced,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> tuple[Tournament, dict[int, list[Event]]]:
        """Rebuild from ``to_dict``. Hands that were being played are cancelled; the
        events (``HandCancelled``, by table) continue each table's numbering."""
        c = data["config"]
        config = TournamentConfig(
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
        t = cls(config, name=data["name"])
        t.status = Status(data["status"])
        for eid, player, stack, table, seat, out, places, prize, posted in data["entries"]:
            t.entries[eid] = Entry(
                eid, player, stack, table, seat, out, tuple(places), prize, posted
            )
        events: dict[int, list[Event]] = {}
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
            t.tables[table.table_id] = table
            if row["in_hand"]:  # cancelled: the positions go back, the hand is replayed
                table.button, table.last_big_blind, table.last_sb_position = row["positions_before"]
                stacks = tuple(sorted((s, t.entries[e].stack) for s, e in table.seats.items()))
                cancelled = HandCancelled(
                    seq=table.next_seq,
                    hand_id=f"{t.name or 'T'}-{table.table_id}-{table.hands_played}",
                    stacks=stacks,
                    carried_pot=0,
                )
                table.next_seq += 1
                events[table.table_id] = [cancelled]
        t.prize_pool = data["prize_pool"]
        t.fees = data["fees"]
        t.started_at = data["started_at"]
        t.registration_open = data["registration_open"]
        t.moves = [Move(*m) for m in data["moves"]]
        t.hands_played = data["hands_played"]
        t.hand_for_hand_rounds = data["hand_for_hand_rounds"]
        t.prizes = list(data["prizes"])
        t._groups = data["groups"]
        t._out = data["out"]
        t._placed = data["placed"]
        t._unplaced = [[(a, b) for a, b in group] for group in data["unplaced"]]
        t._pending_busts = [(a, b) for a, b in data["pending_busts"]]
        t._hfh_started = set(data["hfh_started"]) - set(events)
        t._hfh_round = None if data["hfh_round"] is None else set(data["hfh_round"])
        t._next_table = data["next_table"]
        t._entry_seq = data["entry_seq"]
        t._rng.setstate(_rng_from(data["rng"]))
        t._notice_base = data["next_notice_seq"] - 1
        t._level_announced = data["level_announced"]
        t._hfh_announced = data["hfh_announced"]
        return t, events

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


_RECENT_BB = Debt(recent_big_blind=True)


def _rng_state(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def _rng_from(data: list[Any]) -> tuple[Any, ...]:
    version, internal, gauss = data
    return (version, tuple(internal), gauss)


_ACTION_EVENTS = frozenset(
    {"Folded", "Checked", "Called", "BetPlaced", "Raised", "StoodPat", "Discarded", "TimedOut"}
)
