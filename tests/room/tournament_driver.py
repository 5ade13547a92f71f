"""Play a tournament's hands as a server's actors would: messages only.

``Driver`` keeps one ``TournamentTable`` per table, sends each the seating the
tournament reports as changed (a table in a hand gets it when the hand is
over), passes orders to tables and ``HandFinished`` back.
"""

from __future__ import annotations

import random

from drawpoker.events import Event
from drawpoker.room.tournament import Status, Tournament
from drawpoker.room.tournament_orders import HandSummary
from drawpoker.room.tournament_table import TournamentTable
from drawpoker.tools.tournament_sim import simple_policy


class Driver:
    def __init__(self, t: Tournament) -> None:
        self.t = t
        self.tables: dict[int, TournamentTable] = {}
        self.held: set[int] = set()
        self.summaries: list[HandSummary] = []
        t.take_seating_changes()  # a table for every table there is, as it is now
        for table_id in t.tables:
            assert not t.tables[table_id].in_hand
            self.tables[table_id] = TournamentTable(table_id, t.table_seats(table_id).seats)

    def sync(self) -> None:
        """Send every changed seating (held back from tables in a hand)."""
        t = self.t
        for table_id in sorted(t.take_seating_changes()):
            seats = t.table_seats(table_id)
            if seats.closed:
                table = self.tables.pop(table_id, None)
                assert table is None or not table.in_hand
                continue
            table = self.tables.setdefault(table_id, TournamentTable(table_id))
            if table.in_hand:
                self.held.add(table_id)
            else:
                table.reseat(seats.seats)

    def deal(self, table_id: int, now: float, seed: bytes | None = None) -> list[Event]:
        order = self.t.start_hand(table_id, now)
        table = self.tables[table_id]
        assert table_id in self.held or table.seats == order.seats
        self.held.discard(table_id)
        return table.start_hand(order, seed=seed)

    def act_once(self, table_id: int, now: float, rng: random.Random) -> None:
        """One action at ``table_id`` (and the hand's end, if it ends)."""
        table = self.tables[table_id]
        hand = table.hand
        assert hand is not None
        legal = hand.legal_actions()
        assert legal is not None
        table.act(simple_policy(hand, legal, rng), now)
        if table.finished is not None:
            self.finish(table_id, now)

    def finish(self, table_id: int, now: float) -> HandSummary:
        table = self.tables[table_id]
        summary = self.t.hand_finished(table.take_finished(), now)
        self.summaries.append(summary)
        if table_id in self.held and table_id in self.t.tables:
            self.held.discard(table_id)
            table.reseat(self.t.table_seats(table_id).seats)
        self.sync()
        return summary

    def play(self, table_id: int, now: float, rng: random.Random) -> None:
        """Play the hand at ``table_id`` to its end."""
        table = self.tables[table_id]  # gone once the hand is over, if broken then
        while table.in_hand:
            self.act_once(table_id, now, rng)

    def round(self, now: float, rng: random.Random) -> list[int]:
        """Every table that may deal deals; the hands are played one after another."""
        ready = self.t.ready_tables()
        for table_id in ready:
            self.deal(table_id, now, rng.randbytes(32))
        for table_id in ready:
            self.play(table_id, now, rng)
        return ready

    def run(self, rounds: int, rng: random.Random, now: float) -> float:
        for _ in range(rounds):
            if self.t.status is not Status.RUNNING:
                break
            self.round(now, rng)
            now += 60.0
        return now
