"""The room a server process runs: its store, its bus, its owner (the units it
holds: cash tables, tournament series and their tables) and its gateway (its
connections and the lobby they see).

The bus decides which units the process holds: all of them on the embedded
``LocalBus``; on ``RedisBus``, those whose lease it holds. Taking a unit bumps
its epoch in the database (writes of a previous owner are refused from then on),
cancels the hand it left in play and restores the unit from its saved state;
everything else is done by the actors themselves, through their mailboxes.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

from sqlalchemy import Connection

from drawpoker.protocol import client
from drawpoker.server import ledger, metrics, staff
from drawpoker.server.auth import Account
from drawpoker.server.bus import Bus, Closed, LocalBus, NoOwner
from drawpoker.server.gateway import Gateway
from drawpoker.server.lobby import Lobby
from drawpoker.server.owner import Owner
from drawpoker.server.recovery import cancel_unfinished
from drawpoker.server.store import Store
from drawpoker.server.table.cash import CashDesk
from drawpoker.server.tableconfig import TableConfig
from drawpoker.server.tournament import stored
from drawpoker.server.tournament.money import refund_abandoned
from drawpoker.server.tournament.run import Refused
from drawpoker.server.tournament.series import Series
from drawpoker.server.tournament.spec import TournamentSpec, spec_of_run, spec_of_table

log = logging.getLogger("drawpoker.server")
TABLES_LOOK_S = 2.0  # on a shared bus: how often to look for tables opened elsewhere
SUSPENDED_LOOK_S = 5.0  # ... and for accounts suspended elsewhere with connections here
LEDGER_CHECK_S = (3.0, 300.0)  # the books are checked this long after start, then this often
FIGURES_S = 2.0  # with --workers: how often this worker's gauges are shared


class Room:
    def __init__(
        self,
        store: Store,
        configs: list[TableConfig],
        tournaments: list[TournamentSpec] | None = None,
        *,
        bus: Bus | None = None,
    ) -> None:
        self.store = store
        self.configs = {config.id: config for config in configs}
        self.specs = {spec.id: spec for spec in tournaments or []}
        self.bus: Bus = bus or LocalBus()
        self.owner = Owner(self.bus)
        self.lobby = Lobby()
        self.gateway = Gateway(self.bus, self.lobby)
        self.bus.attach(self.owner, self.gateway)
        self.held: dict[str, CashDesk | Series] = {}  # the units this process holds
        self.cancelled: list[dict[str, Any]] = []  # hands cancelled by restarts and takeovers
        self._changing = asyncio.Lock()
        self._releasing: set[asyncio.Task[None]] = set()  # releases under way
        self._chores: list[asyncio.Task[None]] = []  # periodic looks and checks

    def units(self) -> list[str]:
        """Every unit of the room (the process holds some or all of them)."""
        return [f"t:{table}" for table in self.configs] + [f"s:{spec}" for spec in self.specs]

    async def start(self) -> None:
        if self.bus.alone:  # the only process: whatever a previous one left is over
            await self._cancel(cancel_unfinished)
        configs, closed = await self.store.run(staff.console_tables)
        specs, cancelled = await self.store.run(stored.console_tournaments)
        for table in closed:
            self.configs.pop(table, None)
        for spec_id in cancelled:
            self.specs.pop(spec_id, None)
        self.configs.update((config.id, config) for config in configs)  # the console's wins
        self.specs.update((spec.id, spec) for spec in specs)  # over the room file's
        await self.bus.start(self)
        chores = [self._check_books()]
        if not self.bus.alone:  # tables opened, accounts suspended, on other processes
            chores += [self._look_for_tables(), self._look_for_suspended()]
        if metrics.shared():
            chores.append(self._share_figures())
        self._chores = [asyncio.create_task(chore) for chore in chores]
        if self.bus.alone:  # runs of tournaments no longer in the room file
            resumed = {run.id for series in self._series() for run in series.runs()}
            for instance in await self.store.run(refund_abandoned, resumed):
                log.warning("tournament %s is not in the room any more; refunded", instance)
        self.lobby.start()

    async def open_table(self, config: TableConfig, *, by: Account, reason: str) -> None:
        """An operator's new cash table: stored (and audited), then played -- here
        at once with the embedded bus, or by whichever process takes it."""
        if config.id in self.configs or self.series_unit(config.id) or spec_of_table(config.id):
            raise staff.Conflict(f"there is already a table or tournament {config.id!r}")
        await self.store.run(lambda conn: staff.open_table(conn, config, by=by, reason=reason))
        await self.tables_opened()

    async def open_tournament(self, spec: TournamentSpec, *, by: Account, reason: str) -> None:
        """An operator's new tournament: stored (and audited), then run."""
        if spec.id in self.specs or spec.id in self.configs:
            raise staff.Conflict(f"there is already a table or tournament {spec.id!r}")
        await self.store.run(
            lambda conn: stored.save_spec(conn, spec, "open", by=by, reason=reason,
                                          action="schedule-tournament")
        )  # fmt: skip
        await self.tables_opened()

    async def tables_opened(self) -> None:
        """Add the tables and tournaments operators opened since the last look; the
        only process takes them at once (on a shared bus, the bus's passes share
        them out)."""
        configs, _ = await self.store.run(staff.console_tables, set(self.configs))
        specs, _ = await self.store.run(stored.console_tournaments, set(self.specs))
        self.configs.update((config.id, config) for config in configs)
        self.specs.update((spec.id, spec) for spec in specs)
        new = [f"t:{config.id}" for config in configs] + [f"s:{spec.id}" for spec in specs]
        if self.bus.alone:
            for unit in new:
                await self.take(unit)

    async def turn_away(self, account: Account, tables: list[str]) -> list[str]:
        """A suspended account: its connections here close, it stands up from its
        cash tables (cashed out through the ledger when its hand is over; it acts
        in none meanwhile, so its turns time out) and its registrations for
        tournaments not started yet are refunded (in a tournament in play it is
        blinded away). Other processes close its connections at their next look
        (``SUSPENDED_LOOK_S``). Returns the tournaments it was unregistered from."""
        self.gateway.drop_account(account.id, "account suspended")
        for table in tables:
            try:
                await self.bus.ask(
                    f"t:{table}", "leave", {"account": account, "msg": client.Leave(table=table)}
                )
            except Exception as problem:  # the seat is stood up when its owner answers again
                log.warning("%s: could not stand %s up (%s)", table, account.name, problem)
        unregistered = []
        for spec in sorted(self.specs):
            try:
                await self.bus.ask(f"s:{spec}", "unregister", {"account": account})
            except (Refused, NoOwner):
                continue  # not registered there (or no such tournament any more)
            except Exception as problem:
                log.warning("%s: could not unregister %s (%s)", spec, account.name, problem)
                continue
            unregistered.append(spec)
        return unregistered

    async def _look_for_suspended(self) -> None:
        """Close the connections of accounts suspended by another process."""
        while True:
            await asyncio.sleep(SUSPENDED_LOOK_S)
            try:
                found = await self.store.run(staff.suspended, sorted(self.gateway.accounts()))
            except Exception:
                log.exception("could not look for suspended accounts")
                continue
            for account_id in found:
                self.gateway.drop_account(account_id, "account suspended")

    async def _look_for_tables(self) -> None:
        while True:
            await asyncio.sleep(TABLES_LOOK_S)
            try:
                await self.tables_opened()
            except Exception:
                log.exception("could not look for tables opened elsewhere")

    async def _check_books(self) -> None:
        """Check the books now and then (``metrics.LEDGER_CHECKS``): every transaction
        sums to zero and every balance is its entries; a failure is logged as an error."""
        first, every = LEDGER_CHECK_S
        await asyncio.sleep(first)
        while True:
            started = time.perf_counter()
            try:
                await self.store.run(ledger.check_books)
                outcome = "balanced"
            except ledger.LedgerError as problem:
                log.error("the books do not balance: %s", problem)
                outcome = "unbalanced"
            except Exception:
                log.exception("could not check the books")
                outcome = "failed"
            metrics.LEDGER_CHECKS.labels(outcome).inc()
            metrics.LEDGER_CHECK_SECONDS.observe(time.perf_counter() - started)
            await asyncio.sleep(every)

    async def _share_figures(self) -> None:
        while True:
            await asyncio.sleep(FIGURES_S)
            metrics.refresh()

    async def _cancel(self, fn: Any) -> None:
        cancelled: list[dict[str, Any]] = await self.store.run(fn)
        for hand in cancelled:
            log.warning("cancelled unfinished hand %s; stacks restored", hand["hand_id"])
        self.cancelled.extend(cancelled)

    def _series(self) -> list[Series]:
        return [unit for unit in self.held.values() if isinstance(unit, Series)]

    async def take(self, unit: str) -> None:
        """Hold ``unit`` from now: take it over in the database (its epoch bumped,
        its hand in play cancelled), restore it and start it. Raises if it cannot."""
        async with self._changing:
            if unit in self.held:
                return
            kind, name = unit.split(":", 1)
            records = self.store.fenced(unit, on_stale=lambda: self._stale(unit))
            held: CashDesk | Series
            mine: Callable[[str], bool]  # the tables of the unit
            if kind == "t":
                config, status = await self.store.run(staff.stored_table, name)
                if status == "closed":  # closed by another process
                    self.configs.pop(name, None)
                    raise Closed(f"table {name} is closed")
                self.configs[name] = config = config or self.configs[name]
                held = CashDesk(config, records, self.bus)
                held.on_closed = lambda: self._closed(unit)
                actor: Any = held.actor
                mine = lambda table: table == name  # noqa: E731
            else:
                spec, status = await self.store.run(stored.stored_spec, name)
                if status == "cancelled":
                    self.specs.pop(name, None)
                    raise Closed(f"tournament {name} is cancelled")
                self.specs[name] = spec = spec or self.specs[name]
                held = actor = Series(spec, records, self.bus, self.owner)
                held.on_closed = lambda: self._closed(unit)
                mine = lambda table: spec_of_table(table) == name  # noqa: E731

            def cancel(conn: Connection) -> list[dict[str, Any]]:
                return cancel_unfinished(conn, mine, "the table's server stopped")

            cancelled = await records.take_over(self.bus.name, cancel) or []
            for hand in cancelled:
                log.warning(
                    "%s: cancelled unfinished hand %s; stacks restored", unit, hand["hand_id"]
                )
            self.cancelled.extend(cancelled)
            self.held[unit] = held
            self.owner.adopt(unit, actor)
            try:
                if isinstance(held, Series):
                    await held.restore()
                    held.start()
                else:
                    await held.start()
            except BaseException:
                await self._release(unit)
                raise

    async def release(self, unit: str) -> None:
        """Stop holding ``unit`` (its lease is lost or given up): its actors stop;
        whatever it has in play is the next owner's to cancel."""
        async with self._changing:
            await self._release(unit)

    async def _release(self, unit: str) -> None:
        held = self.held.pop(unit, None)
        if isinstance(held, Series):
            await held.stop()
        elif held is not None:
            await held.actor.mailbox.stop()
        self.owner.drop(unit)

    def _closed(self, unit: str) -> None:
        """An operator closed the table (its last player is cashed out) or cancelled
        the tournament (its last run is over): the room lets it go (the lobby has
        its last row, which says so)."""
        kind, name = unit.split(":", 1)
        (self.configs if kind == "t" else self.specs).pop(name, None)
        self._spawn(self.release(unit))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._releasing.add(task)
        task.add_done_callback(self._releasing.discard)

    def _stale(self, unit: str) -> None:
        """A write of ``unit`` was refused: another process holds it now."""
        log.error("%s was taken over by another process; letting it go", unit)
        self._spawn(self.release(unit))

    def figures(self) -> dict[str, int]:
        """This process's: connections open, units held, players at its cash tables."""
        seated = sum(
            len(unit.actor.players) for unit in self.held.values() if isinstance(unit, CashDesk)
        )
        return {"connections": len(self.gateway.open), "units": len(self.held), "seated": seated}

    def series_unit(self, name: str) -> str | None:
        """The unit that answers for a tournament (its id) or one of its runs: one
        this process knows, or one the lobby lists (scheduled on another process
        since this one last looked)."""
        listed = {i for i, row in self.lobby.tournament_rows.items() if row.status != "closed"}
        known = self.specs.keys() | listed
        spec = name if name in known else spec_of_run(name)
        return f"s:{spec}" if spec in known else None

    async def stop(self) -> None:
        for task in self._chores:
            task.cancel()
        await self.lobby.stop()
        await self.gateway.stop()
        await self.bus.stop(self)  # every unit released
        self.store.close()
