"""Seating a tournament: its tables, who sits where, balancing and breaking.

``Seating`` owns the tournament's tables (``TableState``: seat -> entry id and
the positions of the last hand) and applies the rules of ``room.balancing``
after every finished hand. Its cost does not grow with the number of tables:

- the tables are indexed by player count (one ``IdHeap`` per count, for all
  tables, for the tables between hands and for those in a hand), so the
  largest and smallest table, the table to break and the table with room for
  a moved player are found without looking at the others;
- only the tables whose seating changed (and the table that finished) are
  checked for giving the big blind twice in a row;
- the tables that may deal are a maintained set, not a scan.

Ties are broken as a scan of every table in id order would break them (the
lowest id; the highest for the table to break), so the seating is the same as
that of the straightforward algorithm. ``examined`` counts the tables whose
big-blind risk was worked out (the unit of balancing work).

Every change of a table's seating is recorded three times over: for the
driver (``take_changes``: which tables to send a new seating), for the
tournament's hand-for-hand bookkeeping (``take_touched``) and for saving
(``dirty``, ``removed``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from drawpoker.room.balancing import (
    BlindRisk,
    blind_risk,
    fair_seat,
    largest,
    next_big_blind,
    smallest,
    table_to_break,
)
from drawpoker.room.blinds import BlindPlan, seats_after
from drawpoker.room.events import FinalTable, PlayerMoved, TableBroken
from drawpoker.room.ordered_ids import IdHeap
from drawpoker.room.tournament_config import Entry, TournamentConfig
from drawpoker.room.tournament_orders import HandOrder, SeatedPlayer, TableSeats

Notice = Callable[..., None]


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
    """One tournament table as the tournament sees it: who sits where (the truth,
    changed only by the tournament), the positions of the last hand, and the
    hand in play (``order``), if any."""

    table_id: int
    seats: dict[int, int] = field(default_factory=dict)  # seat -> entry id
    button: int | None = None
    last_big_blind: int | None = None
    last_sb_position: int | None = None
    order: HandOrder | None = None  # the hand in play
    plan: BlindPlan | None = None  # of the hand in play, or of the last one
    hands_played: int = 0  # hands dealt (a cancelled hand counts: its id is used)
    next_seq: int = 1  # the table's next event number, as of the last finished hand
    level: int = 0  # of the last hand dealt
    positions_before: tuple[int | None, int | None, int | None] = (None, None, None)

    @property
    def in_hand(self) -> bool:
        return self.order is not None


class Seating:
    """A tournament's tables. See the module docstring."""

    def __init__(
        self,
        config: TournamentConfig,
        entries: dict[int, Entry],
        notice: Notice,
        dirty_entries: set[int],
    ) -> None:
        self.cap = cap = config.seats_per_table
        self.entries = entries
        self._notice = notice
        self._dirty_entries = dirty_entries
        self.tables: dict[int, TableState] = {}  # replaced by a copy as it shrinks
        self._tables_peak = 0
        self.moves: list[Move] = []
        self.next_table = 1
        self.seated = 0  # players seated at all tables
        self.in_hand = 0  # tables with a hand in play
        self._lo = [IdHeap() for _ in range(cap + 1)]  # by size: lowest id first
        self._hi = [IdHeap(largest_first=True) for _ in range(cap + 1)]
        self._idle = [IdHeap() for _ in range(cap + 1)]  # between hands, by size
        self._busy = [IdHeap() for _ in range(cap + 1)]  # in a hand, by size
        self._may_deal = IdHeap()  # between hands with 2 or more players
        self._count = [0] * (cap + 1)  # tables by size
        self._idle_count = [0] * (cap + 1)  # tables between hands by size
        self._waiting: set[int] = set()  # in a hand, with a player not dealt in
        self._risk_check: set[int] = set()  # big-blind risk may have changed
        self._changes: set[int] = set()  # seating changed: for the driver
        self._touched: set[int] = set()  # seating changed: for the tournament
        self.dirty: set[int] = set()  # changed since the last save
        self.removed: set[int] = set()  # broken since the last save
        self.examined = 0

    # ------------------------------------------------------------ the index

    def _index(self, table: TableState) -> None:
        n, tid = len(table.seats), table.table_id
        self._lo[n].add(tid)
        self._hi[n].add(tid)
        self._count[n] += 1
        if table.order is None:
            self._idle[n].add(tid)
            self._idle_count[n] += 1
            if n >= 2:
                self._may_deal.add(tid)
        else:
            self._busy[n].add(tid)

    def _unindex(self, table: TableState) -> None:
        n, tid = len(table.seats), table.table_id
        self._lo[n].discard(tid)
        self._hi[n].discard(tid)
        self._count[n] -= 1
        if table.order is None:
            self._idle[n].discard(tid)
            self._idle_count[n] -= 1
            self._may_deal.discard(tid)
        else:
            self._busy[n].discard(tid)

    def _seats_changed(self, table_id: int) -> None:
        self._changes.add(table_id)
        self._touched.add(table_id)
        self._risk_check.add(table_id)
        self.dirty.add(table_id)

    def new_table(self) -> TableState:
        table = TableState(self.next_table)
        self.next_table += 1
        self.add_table(table)
        return table

    def add_table(self, table: TableState) -> None:
        """Index a table (a new one, or one being restored)."""
        self.tables[table.table_id] = table
        self._tables_peak = max(self._tables_peak, len(self.tables))
        self.seated += len(table.seats)
        if table.order is not None:
            self.in_hand += 1
        self._index(table)
        self._seats_changed(table.table_id)

    def _remove(self, table: TableState) -> None:
        self._unindex(table)
        del self.tables[table.table_id]
        if len(self.tables) * 4 < self._tables_peak:  # a dict never shrinks: copy it
            self.tables = dict(self.tables)
            self._tables_peak = len(self.tables)
        self.seated -= len(table.seats)
        if table.order is not None:
            self.in_hand -= 1
        self._waiting.discard(table.table_id)
        self._risk_check.discard(table.table_id)
        self._seats_changed(table.table_id)
        self.dirty.discard(table.table_id)
        self.removed.add(table.table_id)

    def _resized(self, table: TableState, was: int) -> None:
        """``table`` went from ``was`` players to its present count."""
        n, tid = len(table.seats), table.table_id
        self._lo[was].discard(tid)
        self._hi[was].discard(tid)
        self._lo[n].add(tid)
        self._hi[n].add(tid)
        self._count[was] -= 1
        self._count[n] += 1
        if table.order is None:
            self._idle[was].discard(tid)
            self._idle[n].add(tid)
            self._idle_count[was] -= 1
            self._idle_count[n] += 1
            if n >= 2:
                self._may_deal.add(tid)
            else:
                self._may_deal.discard(tid)
        else:
            self._busy[was].discard(tid)
            self._busy[n].add(tid)

    def sit(self, entry_id: int, table: TableState, seat: int) -> None:
        table.seats[seat] = entry_id
        self._resized(table, len(table.seats) - 1)
        self.seated += 1
        entry = self.entries[entry_id]
        entry.table = table.table_id
        entry.seat = seat
        self._dirty_entries.add(entry_id)
        if table.order is not None:
            self._waiting.add(table.table_id)
        self._seats_changed(table.table_id)

    def unsit(self, table: TableState, seat: int) -> int:
        """Take the player from ``seat`` (the caller seats them elsewhere, or not)."""
        if table.table_id in self.tables:
            entry_id = table.seats.pop(seat)
            self._resized(table, len(table.seats) + 1)
            self.seated -= 1
            self._seats_changed(table.table_id)
        else:  # a table being broken: already out of the index
            entry_id = table.seats.pop(seat)
        entry = self.entries[entry_id]
        entry.table = entry.seat = None
        self._dirty_entries.add(entry_id)
        return entry_id

    def set_order(self, table: TableState, order: HandOrder | None) -> None:
        """A hand starts (``order``) or is over (None) at ``table``."""
        n, tid = len(table.seats), table.table_id
        if (order is None) != (table.order is None):  # the size stays: only these move
            if order is None:
                self.in_hand -= 1
                self._busy[n].discard(tid)
                self._idle[n].add(tid)
                self._idle_count[n] += 1
                if n >= 2:
                    self._may_deal.add(tid)
            else:
                self.in_hand += 1
                self._idle[n].discard(tid)
                self._idle_count[n] -= 1
                self._may_deal.discard(tid)
                self._busy[n].add(tid)
        table.order = order
        self.dirty.add(tid)
        if order is None:
            self._waiting.discard(tid)
            self._risk_check.add(tid)  # new positions, new big blinds
        else:
            self._risk_check.discard(tid)

    def clear(self) -> None:
        """The tournament is over: nobody sits anywhere."""
        for table in self.tables.values():
            self._unindex(table)
            self.seated -= len(table.seats)
            table.seats.clear()
            self._index(table)
            self._seats_changed(table.table_id)

    # ----------------------------------------------------------- queries

    def may_deal(self) -> list[int]:
        """Tables between hands with 2 or more players, by id."""
        return sorted(self._may_deal)

    def can_deal(self, table_id: int) -> bool:
        return table_id in self._may_deal

    def seats_of(self, table_id: int) -> TableSeats:
        """Who sits at ``table_id`` now (closed: a broken table)."""
        table = self.tables.get(table_id)
        if table is None:
            return TableSeats(table_id=table_id, seats={}, closed=True)
        entries = self.entries
        return TableSeats(
            table_id=table_id,
            seats={
                seat: SeatedPlayer(e, entries[e].player, entries[e].stack)
                for seat, e in table.seats.items()
            },
        )

    def take_changes(self) -> set[int]:
        out, self._changes = self._changes, set()
        return out

    def take_touched(self) -> set[int]:
        out, self._touched = self._touched, set()
        return out

    def _smallest(self, exclude: int | None = None, below: int | None = None) -> int | None:
        """The table with the fewest players (ties: the lowest id), other than
        ``exclude``, with fewer than ``below`` players if given."""
        top = self.cap + 1 if below is None else below
        counts = self._count
        for n in range(top):
            if not counts[n]:
                continue
            heap = self._lo[n]
            found = heap.first()
            if found != exclude:
                return found
            if counts[n] > 1:
                return _first_where(heap, lambda tid: tid != exclude)
        return None

    def _to_break(self) -> int | None:
        """``balancing.table_to_break`` from the index: the smallest table (ties:
        the highest id) when the others can seat its players."""
        count = len(self.tables)
        if count < 2:
            return None
        counts = self._count
        for n in range(self.cap + 1):
            if counts[n]:
                room = self.cap * (count - 1) - (self.seated - n)
                return self._hi[n].first() if room >= n else None
        return None

    def check(self) -> None:
        """Raise ``AssertionError`` if the index disagrees with the tables, or picks
        other tables than ``room.balancing``'s functions over every table. O(tables):
        for tests."""
        tables = self.tables
        sizes = {tid: len(t.seats) for tid, t in tables.items()}
        idle = {tid for tid, t in tables.items() if t.order is None}
        for n in range(self.cap + 1):
            of_size = {tid for tid, size in sizes.items() if size == n}
            assert set(self._lo[n]) == set(self._hi[n]) == of_size, n
            assert set(self._idle[n]) == of_size & idle, n
            assert set(self._busy[n]) == of_size - idle, n
            assert self._count[n] == len(of_size), n
            assert self._idle_count[n] == len(of_size & idle), n
            assert self._lo[n].first() == min(of_size, default=None), n
            assert self._hi[n].first() == max(of_size, default=None), n
        assert set(self._may_deal) == {tid for tid in idle if sizes[tid] >= 2}
        assert self.seated == sum(sizes.values())
        assert self.in_hand == len(tables) - len(idle)
        assert self._waiting == {
            tid
            for tid, t in tables.items()
            if t.order is not None and any(s not in t.order.plan.dealt for s in t.seats)
        }
        for tid, t in tables.items():
            assert all(self.entries[e].table == tid for e in t.seats.values())
        if not sizes:
            return
        victim = table_to_break(sizes, self.cap)
        assert self._to_break() == victim
        assert self._smallest() == smallest(sizes)
        rest = {tid: n for tid, n in sizes.items() if tid != victim}
        if rest:
            assert self._smallest(exclude=victim) == smallest(rest)
        biggest = next(
            (self._idle[n].first() for n in range(self.cap, -1, -1) if self._idle[n]), None
        )
        assert biggest == largest(sizes, idle)

    # ------------------------------------------------------------ seating

    def deal(self, ids: list[int]) -> None:
        """Open ``ceil(N / seats)`` tables and deal the entries round them."""
        n_tables = -(-len(ids) // self.cap)
        tables = [self.new_table() for _ in range(n_tables)]
        for i, entry_id in enumerate(ids):
            table = tables[i % n_tables]
            self.sit(entry_id, table, len(table.seats) + 1)

    def seat_late(self, entry_id: int) -> None:
        """A late entry sits at the smallest table (a new one if all are full)."""
        found = self._smallest()
        if found is None or len(self.tables[found].seats) >= self.cap:
            table = self.new_table()
        else:
            table = self.tables[found]
        self.sit(entry_id, table, fair_seat(self.cap, table.seats, table.last_big_blind))

    # ------------------------------------------------------------- balancing

    def balance(self, now: float) -> list[Move]:
        """Break tables and move players until the tables differ by at most one
        (only tables between hands give players); then make sure no table between
        hands whose seating changed would give the big blind twice in a row, if a
        swap can help it."""
        moves: list[Move] = []
        cap = self.cap
        while True:
            victim = self._to_break()
            if victim is not None and self.tables[victim].order is None:
                moves += self._break(self.tables[victim], now)
                continue
            if len(self.tables) - (victim is not None) == 0:
                break
            source = None
            for n in range(cap, -1, -1):  # the largest table between hands
                if self._idle_count[n]:
                    source = self._idle[n].first()
                    break
            target = self._smallest(exclude=victim)  # a victim in a hand gets nobody
            if source is None or target is None:
                break
            src, dst = self.tables[source], self.tables[target]
            if len(src.seats) - len(dst.seats) < 2:
                break
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
        cap = self.cap
        order = self._big_blind_order(src)
        recent = self._recent_seats(src)
        for seat in order:
            rest = [s for s in src.seats if s != seat]
            self.examined += 1
            left = blind_risk(cap, rest, src.last_big_blind, recent)
            there = self._risk_at(dst, src.seats[seat])[1]
            if left is not BlindRisk.TWICE and there in (BlindRisk.CLEAN, BlindRisk.PASSED):
                return seat
        return order[0]

    def _break(self, table: TableState, now: float) -> list[Move]:
        moves = []
        self._remove(table)
        self._notice(TableBroken, table=table.table_id)
        final = len(self.tables) == 1
        # Players who just posted the big blind move first, each to a table where
        # somebody else is next in the big blind (the smallest such); the others
        # to the table with the fewest players.
        entries = self.entries
        order = sorted(table.seats, key=lambda s: not entries[table.seats[s]].posted_big_blind)
        for seat in order:
            entry_id = table.seats[seat]
            target: int | None
            if entries[entry_id].posted_big_blind:
                target = self._break_target_for_big_blind(entry_id)
            else:
                target = self._smallest(below=self.cap)
            assert target is not None  # a table is broken only when the others have room
            moves.append(self._move(table, seat, self.tables[target], now, broke=True))
        if final:
            [last] = self.tables.values()
            self._notice(FinalTable, table=last.table_id, players=len(last.seats))
        return moves

    def _break_target_for_big_blind(self, entry_id: int) -> int:
        """Of the tables with room, the first by (big-blind risk there, players, id).

        Only a table between hands, or one in a hand where a player waits who was
        not dealt in, can be ``CLEAN`` for a player who just posted the big blind:
        at a table in a hand where everyone was dealt in, the players who did not
        post it may all bust, so the risk there is ``UNSURE``. The search stops at
        the first ``CLEAN`` table by (players, id)."""
        best: tuple[BlindRisk, int, int] | None = None  # (risk, players, table id)
        clean: list[int] = []

        def consider(tid: int, n: int) -> bool:
            nonlocal best
            risk = self._risk_at(self.tables[tid], entry_id)[1]
            if best is None or (risk, n, tid) < best:
                best = (risk, n, tid)
            if risk is BlindRisk.CLEAN:
                clean.append(tid)
                return True
            return False

        waiting = self._waiting
        for n in range(self.cap):

            def visit(tid: int, n: int = n) -> bool:
                return consider(tid, n)

            self._idle[n].search(visit)
            for tid in sorted(t for t in waiting if len(self.tables[t].seats) == n):
                consider(tid, n)
            if clean:
                return min(clean)
            busy = _first_where(self._busy[n], lambda tid: tid not in waiting)
            if busy is not None:
                consider(busy, n)  # UNSURE, as every later one of its size
        assert best is not None
        return best[2]

    def _recent_seats(self, table: TableState) -> set[int]:
        """Seats whose player will have posted the big blind in their last hand when
        ``table`` next deals (in a hand: its big blind and waiting players who had)."""
        plan = table.order.plan if table.order is not None else None
        entries = self.entries
        return {
            seat
            for seat, e in table.seats.items()
            if (
                seat == plan.big_blind
                if plan is not None and seat in plan.dealt
                else entries[e].posted_big_blind
            )
        }

    def _risk_at(self, dst: TableState, entry_id: int) -> tuple[int, BlindRisk]:
        """The seat ``entry_id`` would get at ``dst`` and the big-blind risk there."""
        self.examined += 1
        cap = self.cap
        recent = self._recent_seats(dst)
        just_bb = self.entries[entry_id].posted_big_blind
        seat = fair_seat(cap, dst.seats, dst.last_big_blind, just_posted_big_blind=just_bb)
        if just_bb:
            recent.add(seat)
        sure = None
        if dst.order is not None:  # the dealt players may bust
            dealt = dst.order.plan.dealt
            sure = {s for s in dst.seats if s not in dealt} | {seat}
        risk = blind_risk(cap, [*dst.seats, seat], dst.last_big_blind, recent, sure)
        return seat, risk

    def _swap_away_big_blind_twice(self, now: float) -> list[Move]:
        """A table between hands whose players all posted the big blind in their
        last hand swaps one of them with a player of another table between hands
        who did not, so that neither table gives it twice (the sizes stay).

        Only tables whose seating or positions changed are looked at (a table's
        risk changes only then), and those that could not be helped before; the
        partner is the first table by id with the lowest resulting risk (the
        search stops at the first that leaves both tables ``CLEAN``)."""
        moves: list[Move] = []
        tables = self.tables
        # A new set each time: a set never shrinks, and this one once held every table.
        check, self._risk_check = self._risk_check, set()
        for bad_id in sorted(check):
            bad = tables.get(bad_id)
            if bad is None or bad.order is not None or len(bad.seats) < 2:
                continue
            if self._risk(bad) is not BlindRisk.TWICE:
                continue
            best = self._best_swap(bad)
            if best is None or best[0] is BlindRisk.TWICE:
                self._risk_check.add(bad_id)  # looked at again after the next change
                continue
            _, bad_seat, other, seat = best
            leaving = self.unsit(bad, bad_seat)  # first: either table may be full
            moves.append(self._move(other, seat, bad, now, broke=False))
            moves.append(self._seat_moved(leaving, bad, bad_seat, other, now, broke=False))
        return moves

    def _best_swap(self, bad: TableState) -> tuple[BlindRisk, int, TableState, int] | None:
        """The swap for ``bad``: (the worse risk of the two tables after it, the seat
        at ``bad``, the other table, its seat), the first of the lowest risk."""
        tables, entries = self.tables, self.entries
        bad_order = self._big_blind_order(bad)
        best: list[tuple[BlindRisk, int, TableState, int]] = []

        def visit(other_id: int) -> bool:
            if other_id == bad.table_id:
                return False
            other = tables[other_id]
            self.examined += 1
            for bad_seat in bad_order:
                for seat in self._big_blind_order(other):
                    if entries[other.seats[seat]].posted_big_blind:
                        continue
                    risk = max(self._risks_after_swap(bad, bad_seat, other, seat))
                    if not best or risk < best[0][0]:
                        best[:] = [(risk, bad_seat, other, seat)]
                        if risk is BlindRisk.CLEAN:
                            return True
            return False

        self._may_deal.search(visit)
        return best[0] if best else None

    def _big_blind_order(self, table: TableState) -> list[int]:
        """The occupied seats in the order the big blind reaches them."""
        cap = self.cap
        first = next_big_blind(cap, table.seats, table.last_big_blind)
        return [first, *(s for s in seats_after(first, cap) if s in table.seats)]

    def _risk(self, table: TableState) -> BlindRisk:
        self.examined += 1
        return blind_risk(self.cap, table.seats, table.last_big_blind, self._recent_seats(table))

    def _risks_after_swap(
        self, a: TableState, a_seat: int, b: TableState, b_seat: int
    ) -> tuple[BlindRisk, BlindRisk]:
        """The risks at two tables between hands if their players at ``a_seat`` and
        ``b_seat`` changed tables (each seated as ``_seat_moved`` would)."""
        cap = self.cap
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
        return self._seat_moved(self.unsit(src, seat), src, seat, dst, now, broke=broke)

    def _seat_moved(
        self, entry_id: int, src: TableState, seat: int, dst: TableState, now: float, *, broke: bool
    ) -> Move:
        """Seat ``entry_id`` (who left ``src``'s ``seat``) at ``dst``, in the seat that
        gets the big blind next or, if they just posted it, in one that does not."""
        entry = self.entries[entry_id]
        to_seat = fair_seat(
            self.cap,
            dst.seats,
            dst.last_big_blind,
            just_posted_big_blind=entry.posted_big_blind,
        )
        self.sit(entry_id, dst, to_seat)
        self._notice(
            PlayerMoved,
            entry=entry_id,
            player=entry.player,
            from_table=src.table_id,
            from_seat=seat,
            to_table=dst.table_id,
            to_seat=to_seat,
            broke=broke,
        )
        return Move(entry_id, src.table_id, seat, dst.table_id, to_seat, broke, now)


def _first_where(heap: IdHeap, accept: Callable[[int], bool]) -> int | None:
    """The first member of ``heap`` (in its order) that ``accept`` accepts."""
    found: list[int] = []

    def visit(tid: int) -> bool:
        if accept(tid):
            found.append(tid)
            return True
        return False

    heap.search(visit)
    return found[0] if found else None
