"""Tournaments run by the server: sit & gos and scheduled multi-table tournaments.

Each configured tournament (``TournamentSpec``) has a ``TournamentRunner``. It
keeps one run (``Run``) open for registration -- a sit & go starts the moment
it is full, a scheduled tournament at its start time -- and the runs being
played. A run owns the room layer's ``Tournament`` and one websocket table actor
per tournament table (``tournament_table.TournamentTableActor``); those play
their hands at the same time, and after each hand the tournament balances and
breaks tables, eliminates and places players. Notices (levels, moves,
eliminations, the end) go to the tournament's channel and to its tables, with a
private ``Moved``, ``YourTable`` and ``Finished`` for the player concerned.

Money (ledger accounts, see ``ledger.py``): registering moves ``buy_in + fee``
from ``player:<id>`` to ``pool:<instance>`` (the buy-in) and ``house:fees`` (the
fee) in one transaction; unregistering before the start reverses it; a prize
moves from the pool to the player's balance in the transaction that records the
hand they busted in, the winner's at the end, so the pool ends at exactly 0.
Tournament chips are not ledger chips: they live in the ``Tournament``, saved
(``tournaments`` table) in the transaction of each registration and of each
finished hand.

On start-up a run left by a stopped or crashed server resumes: a registering
one keeps its entrants; a running one continues from its last finished hand
(a hand in play is cancelled, every chip back to its seat); a finished one not
yet paid is paid (a failed payout waits for that). A pool whose run cannot be
restored, or a run whose tables cannot open, is refunded: every registration and
fee booked to it, exactly as it was paid.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import Connection, select

from drawpoker.events import Event
from drawpoker.room.errors import RoomError, TournamentError
from drawpoker.room.events import (
    LevelStarted,
    PlayerEliminated,
    PlayerMoved,
    TournamentFinished,
    TournamentStarted,
)
from drawpoker.room.structure import Level, rules_for
from drawpoker.room.tournament import Entry, Status, Tournament
from drawpoker.rules import Rules
from drawpoker.server import ledger, protocol
from drawpoker.server.actor_base import Conn, SeatState, make_policy
from drawpoker.server.auth import Account, ensure_bot
from drawpoker.server.store import (
    Store,
    ledger_balances,
    ledger_entries,
    ledger_tx,
    tournaments,
)
from drawpoker.server.tournament_spec import TournamentSpec
from drawpoker.server.tournament_table import TournamentTableActor, table_id

log = logging.getLogger("drawpoker.server.tournaments")

FEES = "house:fees"
REGISTER = "sng-register"
UNREGISTER = "sng-unregister"
PRIZES = "sng-prizes"
REFUND = "sng-refund"
KEEP_FINISHED = 20  # finished runs kept in memory for the API
NOTICES = 500  # the latest tournament notices shown in the detail
TABLES_KEPT_S = 120.0  # a finished run's tables answer this long (clients see the end)
START_PAUSE_S = 2.0  # between the start (or a resume) and the first hands


def pool(instance: str) -> str:
    """The prize pool account of one tournament run."""
    return f"pool:{instance}"


class TournamentRefused(RoomError, ValueError):
    """A registration or unregistration that cannot be done (HTTP 400/404/409)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class Run:
    """One run of a tournament: its ``Tournament``, entrants, tables and watchers."""

    def __init__(
        self,
        runner: TournamentRunner,
        instance_id: str,
        tournament: Tournament,
        accounts: dict[str, Account] | None = None,
    ) -> None:
        self.runner = runner
        self.spec = runner.spec
        self.store = runner.store
        self.on_change = runner.on_change
        self.id = instance_id
        self.tournament = tournament
        self.accounts: dict[str, Account] = accounts or {}  # player key -> account
        self.seat_states: dict[int, SeatState] = {}  # entry id -> the player at a table
        self.actors: dict[int, TournamentTableActor] = {}
        self.watchers: dict[Conn, int | None] = {}  # the tournament channel
        self.notices_sent = tournament.next_notice_seq - 1
        self.created_at = time.time()
        self.finished_at: float | None = None
        self.paid_entries: dict[int, int] = {}  # entry id -> prize credited
        self.cancelled = False  # too few entries, or tables that could not open: refunded
        self._ticker: asyncio.Task[None] | None = None
        self._ending = False

    # ------------------------------------------------------------ the players

    def name_of(self, key: str) -> str:
        account = self.accounts.get(key)
        return account.name if account else key

    def seat_state(self, entry_id: int, seat: int) -> SeatState:
        """The server's state of an entry's player (time bank, pre-actions, bot),
        which follows them from table to table."""
        s = self.seat_states.get(entry_id)
        if s is None:
            account = self.accounts[self.tournament.entries[entry_id].player]
            kinds = self.spec.bot_kinds
            bot = (
                make_policy(kinds[account.id % len(kinds)], seat, self.rules_now())
                if account.kind == "bot"
                else None
            )
            s = SeatState(seat, account, bot=bot, time_bank=self.spec.time_bank_s)
            self.seat_states[entry_id] = s
        s.seat = seat
        return s

    def entry_of(self, s: SeatState) -> int:
        return next(e for e, state in self.seat_states.items() if state is s)

    def entry_for(self, account_id: int | None) -> Entry | None:
        """This account's entry (the living one, after a re-entry)."""
        mine = [
            e
            for e in self.tournament.entries.values()
            if (a := self.accounts.get(e.player)) is not None and a.id == account_id
        ]
        return next((e for e in mine if e.alive), mine[-1] if mine else None)

    def table_of(self, account_id: int) -> str | None:
        """The websocket table id where this account is seated now."""
        entry = self.entry_for(account_id)
        if entry is None or entry.table is None:
            return None
        return table_id(self.id, entry.table)

    def is_bot(self, key: str) -> bool:
        account = self.accounts.get(key)
        return account is not None and account.kind == "bot"

    # ------------------------------------------------------------ the clock

    def rules_now(self) -> Rules:
        cfg = self.tournament.config
        level = cfg.levels[self.tournament.level_at(time.time())]
        return rules_for(cfg.structure, level, cfg.seats_per_table)

    def level_info(self) -> dict[str, Any]:
        """The level in force, the next one and when it starts."""
        t = self.tournament
        levels = t.config.levels
        now = time.time()
        level_no = t.level_at(now)
        next_in = None
        if t.started_at is not None and t.status is Status.RUNNING:
            ends = t.started_at + sum(lv.minutes * 60 for lv in levels[: level_no + 1])
            next_in = max(0.0, round(ends - now, 1))
        following = levels[level_no + 1] if level_no + 1 < len(levels) else None
        return {
            "id": self.id,
            "name": self.spec.name,
            "level": _level(levels[level_no], level_no),
            "next_level": None if following is None else _level(following, level_no + 1),
            "next_in_s": next_in,
            "players_left": t.alive_count,
            "entries": len(t.entries),
        }

    def hand_header(self, table_no: int, level_no: int) -> dict[str, Any]:
        """What a hand record keeps about its tournament (for histories and replays)."""
        cfg = self.tournament.config
        level = cfg.levels[level_no]
        return {
            "id": self.id,
            "name": self.spec.name,
            "buy_in": cfg.buy_in,
            "fee": cfg.fee,
            "structure": str(cfg.structure),
            "seats_per_table": cfg.seats_per_table,
            "table_no": table_no,
            "level": level_no + 1,
            "small_blind": level.small_blind,
            "big_blind": level.big_blind,
            "ante": level.ante,
        }

    # ------------------------------------------------------------ saving

    def state_json(self) -> str:
        return saved_state(self.tournament, self.accounts, self.paid_entries)

    @property
    def paid(self) -> dict[int, int]:
        """Prizes credited so far, by account id."""
        return _by_account(self, self.paid_entries)

    def prizes_by_account(self) -> dict[int, int]:
        """Every prize won, by account id."""
        t = self.tournament
        return _by_account(self, {e.entry_id: e.prize for e in t.entries.values() if e.prize})

    def prizes_due(self) -> dict[int, int]:
        """Prizes of placed entries not credited yet: entry id -> prize."""
        return {
            e.entry_id: e.prize
            for e in self.tournament.entries.values()
            if e.prize and e.entry_id not in self.paid_entries
        }

    def credit(self, c: Connection, due: Mapping[int, int]) -> None:
        """Credit ``due`` (entry id -> prize) from the pool, in the caller's transaction."""
        if not due:
            return
        t = self.tournament
        by_account: dict[int, int] = {}
        places: dict[str, list[int]] = {}
        for entry_id, prize in due.items():
            entry = t.entries[entry_id]
            account = self.accounts[entry.player].id
            by_account[account] = by_account.get(account, 0) + prize
            places[str(account)] = list(entry.places)
        entries = [(pool(self.id), -sum(due.values()))]
        entries += [(ledger.player(a), prize) for a, prize in by_account.items()]
        ledger.post(
            c, PRIZES, entries, ref=self.id, memo={"places": places}, no_overdraft=(pool(self.id),)
        )

    def saved_status(self) -> str:
        return "cancelled" if self.cancelled else str(self.tournament.status)

    def save(self, c: Connection, state: str, status: str) -> None:
        """Save the run in the caller's transaction (the money move or hand it goes with)."""
        values = {"status": status, "state": state, "updated_at": time.time()}
        done = c.execute(tournaments.update().where(tournaments.c.id == self.id).values(**values))
        if done.rowcount == 0:
            c.execute(tournaments.insert().values(id=self.id, spec=self.spec.id, **values))

    # ------------------------------------------------------------ playing

    async def begin(self, restored: Mapping[int, list[Event]] | None = None) -> None:
        """Open the tables (after a restart: with the cancelled hands' events)."""
        self._sync_tables()
        for table_no, events in (restored or {}).items():
            actor = self.actors.get(table_no)
            if actor is not None:
                actor._events(events)
        self.distribute()
        self._ticker = asyncio.create_task(self._tick(), name=f"tournament-{self.id}")
        self.poke(START_PAUSE_S)  # time for the players to reach their tables
        self.on_change()

    def _sync_tables(self) -> None:
        for table_no in self.tournament.tables:
            if table_no not in self.actors:
                actor = TournamentTableActor(self, table_no)
                self.actors[table_no] = actor
                self.runner.tables[actor.id] = actor
                actor.start_loop()

    def _close_broken_tables(self) -> None:
        for table_no, actor in self.actors.items():
            if table_no not in self.tournament.tables and not actor.closed:
                actor.closed = True

    def poke(self, pause: float = 0.0) -> None:
        """Tables that may deal start their next hand (after the usual pause)."""
        for actor in self.actors.values():
            if not actor.closed:
                actor._schedule_next_hand(self.spec.between_hands_s + pause)

    async def _tick(self) -> None:
        """The blind clock and the waiting tables, once a second."""
        while self.tournament.status is Status.RUNNING:
            await asyncio.sleep(1.0)
            self.tournament.tick(time.time())
            self.distribute()
            self.poke()

    async def after_hand(self) -> None:
        """A hand ended at one of the tables: moves, eliminations, the end."""
        self._sync_tables()  # a late entry may have opened a table
        self.distribute()
        self._close_broken_tables()
        if self.tournament.status is Status.FINISHED:
            if not self._ending:
                self._ending = True
                task = asyncio.create_task(self.finish(), name=f"tournament-end-{self.id}")
                self.runner.tasks.add(task)
                task.add_done_callback(self.runner.tasks.discard)
        else:
            self.poke()
        self.on_change()

    async def finish(self) -> None:
        """Pay what is left of the prizes and retire the run (a payout that fails
        waits for the next start: the pool keeps the chips)."""
        try:
            await self.runner.pay(self)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception(
                "tournament %s: the payout failed; it is retried at the next start", self.id
            )
            return
        self.finished_at = time.time()
        if self._ticker is not None:
            self._ticker.cancel()
        self.on_change()
        self.runner.retire(self)
        await asyncio.sleep(TABLES_KEPT_S)
        await self.close()

    async def cancel(self, reason: str) -> None:
        """Refund every entry (buy-in and fee) and save the run as cancelled."""
        self.cancelled = True
        state = self.state_json()

        def txn(c: Connection) -> None:
            refund_instance(c, self.id, reason)
            self.save(c, state, "cancelled")

        await self.store.run(txn)

    async def close(self) -> None:
        for actor in self.actors.values():
            actor.closed = True
            await actor.stop()
            self.runner.tables.pop(actor.id, None)
        if self._ticker is not None:
            self._ticker.cancel()

    # ------------------------------------------------------------ telling

    def distribute(self) -> None:
        """New tournament notices to the channel and to every table's log, and the
        private ``Moved``, ``YourTable`` and ``Finished`` to the players concerned."""
        t = self.tournament
        fresh = t.notices_since(self.notices_sent)
        if not fresh:
            return
        self.notices_sent = fresh[-1].seq
        for notice in fresh:
            payload = _notice(notice, self.name_of)
            if isinstance(notice, LevelStarted):  # with the clock: minutes, the next level
                info = self.level_info()
                payload |= {
                    "minutes": info["level"]["minutes"],
                    "next_level": info["next_level"],
                    "next_in_s": info["next_in_s"],
                }
            self._channel(None, payload)
            on_table = {k: v for k, v in payload.items() if k != "seq"}
            on_table["notice"] = notice.seq
            for actor in self.actors.values():
                if not actor.stopped:
                    actor._publish(None, on_table)
            if isinstance(notice, TournamentStarted):
                for entry in t.entries.values():
                    self._your_table(entry.player, entry.table, entry.seat)
            elif isinstance(notice, PlayerMoved):
                account = self.accounts.get(notice.player)
                old = self.actors.get(notice.from_table)
                if account is not None and old is not None:
                    moved = {
                        "type": "Moved",
                        "table": table_id(self.id, notice.to_table),
                        "table_no": notice.to_table,
                        "seat": notice.to_seat,
                    }
                    old._publish(account.id, moved)
                self._your_table(notice.player, notice.to_table, notice.to_seat)
            elif isinstance(notice, PlayerEliminated | TournamentFinished):
                places = list(notice.places) if isinstance(notice, PlayerEliminated) else [1]
                self._finished(notice.player, places, notice.prize)

    def _channel(self, account_id: int | None, payload: dict[str, Any]) -> None:
        text = protocol.frame({"type": "event", "table": self.id, "event": payload})
        for conn, watcher in list(self.watchers.items()):
            if account_id is None or watcher == account_id:
                conn.send(text)

    def _your_table(self, key: str, table_no: int | None, seat: int | None) -> None:
        account = self.accounts.get(key)
        if account is None or table_no is None:
            return
        payload = {
            "type": "YourTable",
            "table": table_id(self.id, table_no),
            "table_no": table_no,
            "seat": seat,
        }
        self._channel(account.id, payload)

    def _finished(self, key: str, places: list[int], prize: int) -> None:
        account = self.accounts.get(key)
        if account is None:
            return
        payload = {"type": "Finished", "tournament": self.id, "places": places, "prize": prize}
        self._channel(account.id, payload)
        for actor in self.actors.values():
            if not actor.stopped:
                actor._publish(account.id, payload)

    def watch(self, conn: Conn) -> dict[str, Any]:
        account_id = conn.account.id if conn.account is not None else None
        self.watchers[conn] = account_id
        entry = self.entry_for(account_id)
        if entry is None or entry.table is None:
            return {"tournament": self.id, "table": None, "table_no": None, "seat": None}
        return {
            "tournament": self.id,
            "table": table_id(self.id, entry.table),
            "table_no": entry.table,
            "seat": entry.seat,
        }

    def unwatch(self, conn: Conn) -> None:
        self.watchers.pop(conn, None)

    def status(self) -> str:
        """The run's status; "paying" between its last hand and the payout."""
        if self.cancelled:
            return str(Status.CANCELLED)
        status = self.tournament.status
        if status is Status.FINISHED and self.finished_at is None:
            return "paying"
        return str(status)


class TournamentRunner:
    """Registration, the runs being played and their payouts for one ``TournamentSpec``."""

    def __init__(
        self,
        spec: TournamentSpec,
        store: Store,
        *,
        tables: dict[str, TournamentTableActor] | None = None,
        on_change: Callable[[], None] | None = None,
    ) -> None:
        self.spec = spec
        self.store = store
        self.tables: dict[str, TournamentTableActor] = {} if tables is None else tables
        self.on_change = on_change or (lambda: None)
        self.lock = asyncio.Lock()
        self.last_start = 0.0
        self.current = self._new_run()
        self.running: dict[str, Run] = {}
        self.finished: list[Run] = []
        self.tasks: set[asyncio.Task[None]] = set()
        self._stopping = False

    # ------------------------------------------------------------ lifecycle

    def _new_run(self) -> Run:
        instance_id = f"{self.spec.id}-{secrets.token_hex(3)}"
        start_at = 0.0
        if self.spec.scheduled:
            now = time.time()
            every = self.spec.start_every_minutes * 60
            start_at = (
                now + self.spec.first_start_s
                if not self.last_start
                else max(self.last_start + every, now + min(every, 60.0))
            )
            self.last_start = start_at
        t = Tournament(self.spec.tournament_config(start_at), name=instance_id)
        return Run(self, instance_id, t)

    def start(self) -> None:
        self._spawn(self._clock(), f"tournament-clock-{self.spec.id}")
        if self.spec.bots:
            self._spawn(self._bots(), f"tournament-bots-{self.spec.id}")

    def _spawn(self, coro: Any, name: str) -> None:
        task = asyncio.create_task(coro, name=name)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def stop(self) -> None:
        self._stopping = True
        for run in [*self.running.values(), self.current]:
            await run.close()
        tasks = list(self.tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def runs(self) -> list[Run]:
        return [self.current, *self.running.values(), *self.finished]

    def instance(self, instance_id: str) -> Run | None:
        if instance_id == self.spec.id:
            return self.current
        return next((r for r in self.runs() if r.id == instance_id), None)

    def run_for(self, name: str, account_id: int | None) -> Run | None:
        """The run a channel subscription names: an instance id, or the spec id (the
        run this account plays in, else the one open for registration)."""
        if name != self.spec.id:
            return self.instance(name)
        for run in [*self.running.values(), self.current]:
            if any(a.id == account_id for a in run.accounts.values()):
                return run
        return self.current

    # ------------------------------------------------------------ restoring

    async def restore(self) -> list[str]:
        """Resume the runs a previous server left (see the module docstring);
        returns their ids."""

        def read(c: Connection) -> list[tuple[str, str]]:
            rows = c.execute(
                select(tournaments.c.id, tournaments.c.state)
                .where(
                    tournaments.c.spec == self.spec.id,
                    tournaments.c.status.in_(("registering", "running", "finished")),
                )
                .order_by(tournaments.c.updated_at)
            ).all()
            return [(str(i), str(s)) for i, s in rows]

        restored = []
        for instance_id, state in await self.store.run(read):
            data = json.loads(state)
            t, cancelled = Tournament.from_dict(data["tournament"])
            accounts = {
                key: Account(int(a), str(name), str(kind))
                for key, (a, name, kind) in data["accounts"].items()
            }
            run = Run(self, instance_id, t, accounts)
            run.paid_entries = {int(e): int(p) for e, p in data.get("paid", {}).items()}
            restored.append(instance_id)
            if t.status is Status.REGISTERING:
                if self.spec.scheduled:
                    self.last_start = max(self.last_start, t.config.start_at)
                self.current = run
            elif t.status is Status.RUNNING:
                log.warning("tournament %s resumes after a restart", instance_id)
                self.running[run.id] = run
                await run.begin(cancelled)
            elif t.status is Status.FINISHED:
                self.running[run.id] = run
                self._spawn(run.finish(), f"tournament-end-{run.id}")
            else:  # cancelled for too few entries before it could be saved so
                await run.cancel("too few entries")
        return restored

    # ---------------------------------------------------------- registration

    async def register(self, account: Account) -> dict[str, Any]:
        async with self.lock:
            run = self.current
            key = str(account.id)
            if run.tournament.status is not Status.REGISTERING:
                raise TournamentRefused(409, f"{run.id} has started; registration is closed")
            if key in run.accounts:
                raise TournamentRefused(409, "you are already registered")
            if len(run.tournament.entries) >= run.tournament.config.max_entries:
                raise TournamentRefused(409, f"{run.id} is full")
            trial = _copy(run.tournament)
            try:
                trial.register(key, time.time())  # a sit & go starts itself when full
            except TournamentError as error:
                raise TournamentRefused(409, str(error)) from None
            spec = self.spec
            accounts = {**run.accounts, key: account}
            state = saved_state(trial, accounts, {})

            def txn(c: Connection) -> None:
                ledger.post(
                    c,
                    REGISTER,
                    [
                        (ledger.player(account.id), -(spec.buy_in + spec.fee)),
                        (pool(run.id), spec.buy_in),
                        (FEES, spec.fee),
                    ],
                    ref=run.id,
                    memo={"buy_in": spec.buy_in, "fee": spec.fee},
                    no_overdraft=(ledger.player(account.id),),
                )
                run.save(c, state, str(trial.status))

            try:
                await self.store.run(txn)
            except ledger.InsufficientFunds as error:
                raise TournamentRefused(
                    400, f"not enough chips for {spec.buy_in}+{spec.fee}: {error}"
                ) from None
            run.tournament = trial
            run.accounts = accounts
            if trial.status is Status.RUNNING:
                await self._begin(run)
            self.on_change()
            return {"tournament": run.id, "registered": len(trial.entries), "status": run.status()}

    async def unregister(self, account: Account) -> dict[str, Any]:
        async with self.lock:
            run = self.current
            key = str(account.id)
            if key not in run.accounts:
                raise TournamentRefused(409, "you are not registered")
            if run.tournament.status is not Status.REGISTERING:
                raise TournamentRefused(409, f"{run.id} has started; you cannot unregister")
            trial = _copy(run.tournament)
            refund = trial.unregister(key)
            spec = self.spec
            accounts = {k: a for k, a in run.accounts.items() if k != key}
            state = saved_state(trial, accounts, {})

            def txn(c: Connection) -> None:
                ledger.post(
                    c,
                    UNREGISTER,
                    [
                        (pool(run.id), -spec.buy_in),
                        (FEES, -spec.fee),
                        (ledger.player(account.id), spec.buy_in + spec.fee),
                    ],
                    ref=run.id,
                    no_overdraft=(pool(run.id),),
                )
                run.save(c, state, str(trial.status))

            await self.store.run(txn)
            run.tournament = trial
            run.accounts = accounts
            self.on_change()
            return {"tournament": run.id, "registered": len(trial.entries), "refund": refund}

    async def _begin(self, run: Run) -> None:
        """The run starts: its tables open; a new run opens for registration. If the
        tables cannot open, the run is cancelled: every buy-in and fee refunded."""
        self.running[run.id] = run
        try:
            await run.begin()
        except Exception:
            log.exception("tournament %s could not start; cancelled and refunded", run.id)
            await run.close()
            await run.cancel("server error")
            run.finished_at = time.time()
            self.retire(run)
        if self.spec.repeat and not self._stopping:
            self.current = self._new_run()
        self.on_change()

    async def _clock(self) -> None:
        """A scheduled tournament starts (or is cancelled and refunded) at its time."""
        while not self._stopping:
            await asyncio.sleep(1.0)
            if not self.spec.scheduled:
                continue
            async with self.lock:
                run = self.current
                t = run.tournament
                if t.status is not Status.REGISTERING or time.time() < t.config.start_at:
                    continue
                t.tick(time.time())
                status = _status(t)
                if status is Status.RUNNING:
                    state = run.state_json()
                    await self.store.run(run.save, state, "running")
                    await self._begin(run)
                elif status is Status.CANCELLED:
                    log.info("tournament %s cancelled: too few entries", run.id)
                    run.distribute()  # TournamentCancelled to the channel
                    await run.cancel("too few entries")
                    run.finished_at = time.time()
                    self.retire(run)
                    self.current = self._new_run()
                    self.on_change()

    async def _bots(self) -> None:
        """Bots register one at a time (leaving any places beyond ``bots`` to people)."""
        spec = self.spec
        while not self._stopping:
            await asyncio.sleep(spec.bot_register_s)
            run = self.current
            t = run.tournament
            mine = sum(1 for a in run.accounts.values() if a.kind == "bot")
            if t.status is not Status.REGISTERING or mine >= spec.bots:
                continue
            if len(t.entries) >= t.config.max_entries:
                continue
            taken = {a.name for a in run.accounts.values()}
            n = next(k for k in range(1, spec.max_entries + 2) if f"bot-{spec.id}-{k}" not in taken)
            name = f"bot-{spec.id}-{n}"
            cost = spec.buy_in + spec.fee

            def refill(c: Connection, name: str = name, cost: int = cost) -> Account:
                account = ensure_bot(c, name)
                ledger.refill_bot(c, account.id, cost)
                return account

            try:
                account = await self.store.run(refill)
                await self.register(account)
            except TournamentRefused as error:
                log.info("bot %s not registered: %s", name, error)
            except Exception:
                log.exception("bot %s could not register", name)

    # ------------------------------------------------------------ the end

    async def pay(self, run: Run) -> None:
        """Credit what the ledger has not credited yet of each prize (each finisher's
        was, in the record of the hand they busted in) and save the run as ``paid``:
        the pool ends at 0."""
        t = run.tournament
        total = sum(e.prize for e in t.entries.values())
        if total != t.prize_pool:
            raise ledger.LedgerError(f"{run.id}: prizes {total}, the pool {t.prize_pool}")
        run.paid_entries.update(run.prizes_due())
        state = run.state_json()

        def txn(c: Connection) -> None:
            owed = run.prizes_by_account()
            for account, amount in prizes_credited(c, run.id).items():
                owed[account] = owed.get(account, 0) - amount
            if any(amount < 0 for amount in owed.values()):
                raise ledger.LedgerError(f"{run.id}: more credited than won: {owed}")
            rest = {a: amount for a, amount in owed.items() if amount}
            if rest:
                entries = [(pool(run.id), -sum(rest.values()))]
                entries += [(ledger.player(a), amount) for a, amount in rest.items()]
                ledger.post(c, PRIZES, entries, ref=run.id, no_overdraft=(pool(run.id),))
            held = ledger.balance(c, pool(run.id))
            if held:
                raise ledger.LedgerError(f"{pool(run.id)} holds {held} after the prizes")
            run.save(c, state, "paid")

        await self.store.run(txn)

    def retire(self, run: Run) -> None:
        self.running.pop(run.id, None)
        self.finished.insert(0, run)
        del self.finished[KEEP_FINISHED:]
        self.on_change()

    # ------------------------------------------------------------ the API

    def you(self, account_id: int) -> dict[str, Any]:
        """Where this account stands: registered for the open run, and the runs it
        still plays in (with its table)."""
        key = str(account_id)
        playing = []
        for run in self.running.values():
            entry = run.entry_for(account_id)
            if entry is not None and entry.alive:
                playing.append({"instance": run.id, "table": run.table_of(account_id)})
        return {"registered": key in self.current.accounts, "playing": playing}

    def summary(self) -> dict[str, Any]:
        """The lobby row: the run open for registration, and the runs in play."""
        spec = self.spec
        run = self.current
        t = run.tournament
        tc = t.config
        return {
            "id": spec.id,
            "instance": run.id,
            "name": spec.name,
            "kind": spec.kind,
            "game": "draw",
            "structure": str(tc.structure),
            "buy_in": tc.buy_in,
            "fee": tc.fee,
            "starting_chips": tc.starting_stack,
            "level_minutes": tc.levels[0].minutes,
            "levels": [_level(lv, i) for i, lv in enumerate(tc.levels[:12])],
            "registered": len(t.entries),
            "max_entries": tc.max_entries,
            "min_entries": tc.min_entries if spec.scheduled else tc.max_entries,
            "seats_per_table": tc.seats_per_table,
            "starts": "at a time" if spec.scheduled else "when full",
            "starts_at": tc.start_at if spec.scheduled else None,
            "prize_pool": t.prize_pool,
            "status": run.status(),
            "running": [
                {
                    "instance": r.id,
                    "players_left": r.tournament.alive_count,
                    "entries": len(r.tournament.entries),
                    "status": r.status(),
                }
                for r in self.running.values()
            ],
            "finished": [r.id for r in self.finished],
        }

    def detail(self, run: Run) -> dict[str, Any]:
        """Players, tables, chip counts, levels, payouts and standings of one run."""
        t = run.tournament
        info = run.level_info()

        def stack_of(entry_id: int) -> int:
            e = t.entries[entry_id]
            table = t.tables.get(e.table) if e.table is not None else None
            hand = table.hand if table else None
            plan = table.plan if table else None
            if hand is not None and plan is not None and e.seat in plan.dealt:
                return hand.stack(e.seat)
            return e.stack

        def account_id(key: str) -> int | None:
            account = run.accounts.get(key)
            return account.id if account else None

        players = [
            {
                "name": run.name_of(e.player),
                "account": account_id(e.player),
                "bot": run.is_bot(e.player),
                "chips": stack_of(e.entry_id) if e.alive else 0,
                "table": e.table,
                "table_id": None if e.table is None else table_id(run.id, e.table),
                "seat": e.seat,
                "places": list(e.places),
                "prize": e.prize,
            }
            for e in t.entries.values()
        ]
        tables = [
            {
                "id": table.table_id,
                "table_id": table_id(run.id, table.table_id),
                "hands": table.hands_played,
                "in_hand": table.hand is not None,
                "seats": [
                    {"seat": seat, "name": run.name_of(t.entries[e].player), "chips": stack_of(e)}
                    for seat, e in sorted(table.seats.items())
                ],
            }
            for table in t.tables.values()
        ]
        standings = [
            {
                "place": e.places[0],
                "places": list(e.places),
                "name": run.name_of(e.player),
                "account": account_id(e.player),
                "prize": e.prize,
            }
            for e in t.standings()
            if e.places
        ]
        row = self.summary()
        return {
            **{k: v for k, v in row.items() if k not in ("instance", "running", "finished")},
            "id": run.id,
            "tournament": self.spec.id,
            "sit_and_go": self.spec.id,
            "registered": len(t.entries),
            "starts_at": t.config.start_at if self.spec.scheduled else None,
            "prize_pool": t.prize_pool,
            "status": run.status(),
            "started_at": t.started_at,
            "finished_at": run.finished_at,
            "level": {**info["level"], "next_in_s": info["next_in_s"]},
            "next_level": info["next_level"],
            "players_left": info["players_left"],
            "payouts": list(t.prizes),
            "hands": t.hands_played,
            "players": players,
            "tables": tables,
            "standings": sorted(standings, key=lambda s: s["place"]),
            "paid": {str(a): p for a, p in run.paid.items()},
            "notices": [_notice(n, run.name_of) for n in t.notices[-NOTICES:]],
        }


def _by_account(run: Run, by_entry: Mapping[int, int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for entry_id, prize in by_entry.items():
        account = run.accounts[run.tournament.entries[entry_id].player]
        out[account.id] = out.get(account.id, 0) + prize
    return out


def prizes_credited(conn: Connection, instance: str) -> dict[int, int]:
    """What the ledger credited to players as prizes of one run, by account id."""
    rows = conn.execute(
        select(ledger_entries.c.account, ledger_entries.c.amount)
        .join(ledger_tx, ledger_tx.c.id == ledger_entries.c.tx_id)
        .where(ledger_tx.c.ref == instance, ledger_tx.c.kind == PRIZES)
    ).all()
    out: dict[int, int] = {}
    for account, amount in rows:
        if str(account).startswith("player:"):
            key = int(str(account).split(":", 1)[1])
            out[key] = out.get(key, 0) + int(amount)
    return out


def saved_state(t: Tournament, accounts: Mapping[str, Account], paid: Mapping[int, int]) -> str:
    """A run as saved: the tournament, its entrants' accounts, the prizes credited."""
    return json.dumps(
        {
            "tournament": t.to_dict(),
            "accounts": {key: [a.id, a.name, a.kind] for key, a in accounts.items()},
            "paid": {str(e): prize for e, prize in paid.items()},
        }
    )


def _copy(t: Tournament) -> Tournament:
    """A registering tournament's copy, to try a change before it is saved."""
    copy, _ = Tournament.from_dict(t.to_dict())
    return copy


def _notice(event: Event, name: Callable[[str], str]) -> dict[str, Any]:
    """A tournament notice as JSON-ready data, the player named by account name."""
    payload = protocol.event_dict(event)
    player = payload.pop("player", None)
    if player is not None:
        payload["name"] = name(str(player))
    return payload


def _level(level: Level, index: int) -> dict[str, Any]:
    return {
        "level": index + 1,
        "small_blind": level.small_blind,
        "big_blind": level.big_blind,
        "ante": level.ante,
        "minutes": level.minutes,
    }


def refund_abandoned(conn: Connection, resumed: set[str]) -> list[str]:
    """Cancel the runs a previous server left with chips in their pool that did not
    resume (``resumed``): reverse every registration (buy-in and fee) booked to them."""
    rows = conn.execute(
        select(ledger_balances.c.account).where(
            ledger_balances.c.account.like("pool:%"), ledger_balances.c.amount != 0
        )
    ).all()
    cancelled = []
    for (account,) in rows:
        instance = account.split(":", 1)[1]
        if instance in resumed:
            continue
        refund_instance(conn, instance, "server restarted")
        conn.execute(
            tournaments.update()
            .where(tournaments.c.id == instance)
            .values(status="cancelled", updated_at=time.time())
        )
        cancelled.append(instance)
    return cancelled


def refund_instance(conn: Connection, instance: str, reason: str) -> None:
    """Cancel one instance: reverse, in one transaction, the net of its registrations
    and unregistrations (each player's buy-in and fee back; its pool to 0)."""
    moves = conn.execute(
        select(ledger_entries.c.account, ledger_entries.c.amount)
        .join(ledger_tx, ledger_tx.c.id == ledger_entries.c.tx_id)
        .where(ledger_tx.c.ref == instance, ledger_tx.c.kind.in_((REGISTER, UNREGISTER)))
    ).all()
    net: dict[str, int] = {}
    for acct, amount in moves:
        net[acct] = net.get(acct, 0) + int(amount)
    entries = [(acct, -amount) for acct, amount in net.items() if amount]
    if entries:
        ledger.post(conn, REFUND, entries, ref=instance, memo={"rule": reason})


def _status(t: Tournament) -> Status:
    """The status read afresh (mypy narrows ``t.status`` across calls that change it)."""
    return t.status
