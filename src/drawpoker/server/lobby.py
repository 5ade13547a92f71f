"""The lobby: the room's tables, their live figures, filters and subscribers."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from drawpoker.server import protocol
from drawpoker.server.actor import Conn, TableActor, TableConfig

# drawpoker.bots by name; the shark (up to ~25 ms a decision) is left out of the
# default room so that bots never hold a table actor's event loop for long.
BOT_KINDS = ("tag", "calling-station", "random")


def default_room() -> list[TableConfig]:
    """Cash tables of each structure at two stakes, 6-max and 8-max, online and
    Italian, with bots seated so a newcomer can play at once."""
    configs = []
    for structure, short in (("fixed-limit", "fl"), ("pot-limit", "pl"), ("no-limit", "nl")):
        for sb, bb in ((1, 2), (5, 10)):
            for seats in (6, 8):
                rules: dict[str, Any] = {
                    "preset": "online",
                    "structure": structure,
                    "small_blind": sb,
                    "big_blind": bb,
                    "max_seats": seats,
                    "rake_percent": "5",
                    "rake_caps": [[2, bb], [3, 2 * bb], [5, 3 * bb]],
                }
                name = {"fl": "Limit", "pl": "Pot Limit", "nl": "No Limit"}[short]
                configs.append(
                    TableConfig(
                        id=f"{short}-{bb}-{seats}",
                        name=f"{name} {sb}/{bb} {seats}-max",
                        rules=rules,
                        min_buy_in=20 * bb,
                        max_buy_in=100 * bb,
                        bots=2 if seats == 6 else 3,
                        bot_kinds=BOT_KINDS,
                    )
                )
    for invito in (10, 50):
        for seats in (6, 8):
            configs.append(
                TableConfig(
                    id=f"it-{invito}-{seats}",
                    name=f"Italian invito {invito} {seats}-max",
                    rules={
                        "preset": "italian",
                        "invito": invito,
                        "max_seats": seats,
                        "rake_percent": "5",
                        "rake_caps": [[2, invito], [3, 2 * invito], [5, 3 * invito]],
                    },
                    min_buy_in=20 * invito,
                    max_buy_in=100 * invito,
                    bots=2 if seats == 6 else 3,
                    bot_kinds=BOT_KINDS,
                )
            )
    return configs


def matches(summary: dict[str, Any], filters: dict[str, str | None]) -> bool:
    for key in ("game", "structure", "kind", "stakes"):
        want = filters.get(key)
        if want and summary.get(key) != want:
            return False
    seats = filters.get("seats")
    return not (seats and str(summary.get("seats_total", summary.get("seats_per_table"))) != seats)


def tournament_matches(summary: dict[str, Any], filters: dict[str, str | None]) -> bool:
    """A tournament row against lobby filters: ``kind`` is ``tournament`` or ``cash``."""
    if filters.get("kind") == "cash":
        return False
    return matches(summary, {**filters, "kind": None})


class Lobby:
    """The cash tables' rows, and the tournaments' rows from ``tournaments``, to
    every subscriber: all at once, then the changed ones at most once a second."""

    def __init__(self, tournaments: Callable[[], list[dict[str, Any]]] | None = None) -> None:
        self.tournament_rows = tournaments or list
        self.actors: dict[str, TableActor] = {}
        self.subscribers: dict[Conn, dict[str, str | None]] = {}
        self._dirty = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._last: dict[str, dict[str, Any]] = {}
        self._last_tournaments: dict[str, dict[str, Any]] = {}

    def add(self, actor: TableActor) -> None:
        self.actors[actor.id] = actor

    def changed(self) -> None:
        self._dirty.set()

    def tables(self, filters: dict[str, str | None] | None = None) -> list[dict[str, Any]]:
        rows = [a.summary() for a in self.actors.values()]
        return [r for r in rows if matches(r, filters or {})]

    def tournaments(self, filters: dict[str, str | None] | None = None) -> list[dict[str, Any]]:
        return [r for r in self.tournament_rows() if tournament_matches(r, filters or {})]

    def subscribe(self, conn: Conn, filters: dict[str, str | None]) -> None:
        self.subscribers[conn] = filters
        conn.send(
            protocol.frame(
                {
                    "type": "lobby",
                    "tables": self.tables(filters),
                    "tournaments": self.tournaments(filters),
                    "full": True,
                }
            )
        )

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
        """At most once a second, send the tables whose figures changed."""
        while True:
            await self._dirty.wait()
            self._dirty.clear()
            rows = {r["id"]: r for r in self.tables()}
            changed = [r for tid, r in rows.items() if self._last.get(tid) != r]
            self._last = rows
            events = {r["id"]: r for r in self.tournaments()}
            moved = [r for tid, r in events.items() if self._last_tournaments.get(tid) != r]
            self._last_tournaments = events
            if changed or moved:
                self._broadcast(changed, moved)
            await asyncio.sleep(1.0)

    def _broadcast(self, tables: list[dict[str, Any]], tournaments: list[dict[str, Any]]) -> None:
        for conn, filters in list(self.subscribers.items()):
            mine = [r for r in tables if matches(r, filters)]
            events = [r for r in tournaments if tournament_matches(r, filters)]
            if mine or events:
                conn.send(
                    protocol.frame(
                        {"type": "lobby", "tables": mine, "tournaments": events, "full": False}
                    )
                )
