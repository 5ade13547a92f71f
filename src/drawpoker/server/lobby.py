"""The lobby: every table's and tournament's row, and the connections watching it.

Rows are given to the lobby (``put_table``, ``put_tournament``) by the actors
that own the tables and tournaments, whenever their figures change; the lobby
never reads another actor's state. Subscribers get every row that passes their
filters at once, then the changed ones at most once a second; each frame is
encoded once per set of filters, whatever the number of subscribers.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass

from drawpoker.protocol import encode_text
from drawpoker.protocol.server import Lobby as LobbyFrame
from drawpoker.protocol.server import TableRow, TournamentRow
from drawpoker.server.viewers import Conn


@dataclass(frozen=True, slots=True)
class Filters:
    game: str | None = None  # draw (5 Card Draw) or italian
    structure: str | None = None
    kind: str | None = None  # cash or tournament
    stakes: str | None = None
    seats: str | None = None

    def table(self, row: TableRow) -> bool:
        if self.kind == "tournament":
            return False
        return (
            (not self.game or row.game == self.game)
            and (not self.structure or row.structure == self.structure)
            and (not self.kind or row.kind == self.kind)
            and (not self.stakes or row.stakes == self.stakes)
            and (not self.seats or str(row.seats_total) == self.seats)
        )

    def tournament(self, row: TournamentRow) -> bool:
        if self.kind == "cash":
            return False
        return (
            (not self.game or row.game == self.game)
            and (not self.structure or row.structure == self.structure)
            and (not self.seats or str(row.seats_per_table) == self.seats)
        )


class Lobby:
    """See the module docstring."""

    def __init__(self, tournament_rows: Callable[[], list[TournamentRow]] | None = None) -> None:
        self.table_rows: dict[str, TableRow] = {}
        self.tournament_rows: dict[str, TournamentRow] = {}
        self._pull_tournaments = tournament_rows
        self.subscribers: dict[Conn, Filters] = {}
        self._changed_tables: set[str] = set()
        self._changed_tournaments: set[str] = set()
        self._dirty = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ rows

    def put_table(self, row: TableRow) -> None:
        if self.table_rows.get(row.id) != row:
            self.table_rows[row.id] = row
            self._changed_tables.add(row.id)
            self._dirty.set()

    def put_tournament(self, row: TournamentRow) -> None:
        if self.tournament_rows.get(row.id) != row:
            self.tournament_rows[row.id] = row
            self._changed_tournaments.add(row.id)
            self._dirty.set()

    def drop_table(self, table_id: str) -> None:
        self.table_rows.pop(table_id, None)
        self._changed_tables.discard(table_id)

    def changed(self) -> None:
        """Something a pulled row shows may have changed (see ``tournament_rows``)."""
        self._dirty.set()

    def tables(self, filters: Filters | None = None) -> list[TableRow]:
        f = filters or Filters()
        return [row for row in self.table_rows.values() if row.status != "closed" and f.table(row)]

    def tournaments(self, filters: Filters | None = None) -> list[TournamentRow]:
        self._pull()
        f = filters or Filters()
        rows = self.tournament_rows.values()
        return [row for row in rows if row.status != "closed" and f.tournament(row)]

    def _pull(self) -> None:
        if self._pull_tournaments is not None:
            for row in self._pull_tournaments():
                self.put_tournament(row)

    # ------------------------------------------------------------ subscribers

    def subscribe(self, conn: Conn, filters: Filters) -> None:
        self.subscribers[conn] = filters
        frame = LobbyFrame(
            tables=self.tables(filters), tournaments=self.tournaments(filters), full=True
        )
        conn.send(encode_text(frame))

    def unsubscribe(self, conn: Conn) -> None:
        self.subscribers.pop(conn, None)

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="lobby")

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        """At most once a second, send the rows that changed."""
        while True:
            await self._dirty.wait()
            self._dirty.clear()
            self._pull()
            tables = [self.table_rows[t] for t in self._changed_tables if t in self.table_rows]
            tournaments = [self.tournament_rows[t] for t in self._changed_tournaments]
            self._changed_tables.clear()
            self._changed_tournaments.clear()
            if tables or tournaments:
                self._broadcast(tables, tournaments)
            await asyncio.sleep(1.0)

    def _broadcast(self, tables: list[TableRow], tournaments: list[TournamentRow]) -> None:
        frames: dict[Filters, str | None] = {}
        for conn, filters in list(self.subscribers.items()):
            if filters not in frames:
                mine = [r for r in tables if filters.table(r)]
                events = [r for r in tournaments if filters.tournament(r)]
                frame = LobbyFrame(tables=mine, tournaments=events, full=False)
                frames[filters] = encode_text(frame) if mine or events else None
            text = frames[filters]
            if text is not None:
                conn.send(text)
