"""One run of a tournament, as an actor: it alone owns the room layer's
``Tournament``, its entrants, its channel and its saves.

Everything that changes the tournament passes through the run's mailbox, one
command at a time: registrations (from its series), the blind clock (a timer
message each second), and each table's ``hand_done``. The run talks to its
tables only by messages: ``seat`` (who sits there now), ``deal`` (an order to
deal a hand), ``notice``, ``level``, ``close``; the tables answer ``hand_done``.

Money (``money.py``): a registration is paid and saved in one transaction; an
order to deal is saved (the table is in a hand: a restart cancels that hand)
before the table gets it; a finished hand's record, the prizes of whoever
busted in the money and the saved tournament go in one transaction. The ledger
is the one record of what was paid.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy import Connection

from drawpoker.events import Event
from drawpoker.protocol import encode_text
from drawpoker.protocol.events import event_to_wire
from drawpoker.protocol.server import EventFrame, LevelInfo, TournamentInfo
from drawpoker.room import tournament_serial
from drawpoker.room.errors import TournamentError
from drawpoker.room.events import (
    LevelStarted,
    PlayerEliminated,
    PlayerMoved,
    TournamentFinished,
    TournamentStarted,
)
from drawpoker.room.structure import Level, rules_for
from drawpoker.room.tournament import Status, Tournament
from drawpoker.room.tournament_orders import HandFinished
from drawpoker.rules import Rules
from drawpoker.server import hand_records, ledger
from drawpoker.server.auth import Account
from drawpoker.server.bus import Bus
from drawpoker.server.mailbox import Mailbox
from drawpoker.server.store import Records
from drawpoker.server.table.tournament import HandRecord, TournamentDesk, table_id
from drawpoker.server.tournament import money
from drawpoker.server.tournament.spec import TournamentSpec

if TYPE_CHECKING:
    from drawpoker.server.owner import Owner


class Series(Protocol):
    """What a run knows of its series' actor: the spec, the store, the bus, the
    process's owner (which adopts the run's tables), where to post."""

    spec: TournamentSpec
    store: Records
    bus: Bus
    owner: Owner
    unit: str

    def post(self, fn: Any, *args: Any) -> None: ...

    async def run_started(self, run: RunActor) -> None: ...

    async def run_changed(self, run: RunActor, facts: dict[str, Any]) -> None: ...

    async def run_over(self, run: RunActor) -> None: ...


log = logging.getLogger("drawpoker.server.tournaments")
NOTICES = 500  # the latest tournament notices shown in the detail
START_PAUSE_S = 2.0  # between the start (or a resume) and the first hands
TICK_S = 1.0


class Refused(TournamentError, ValueError):
    """A registration or unregistration that cannot be done (HTTP 400/404/409)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class RunActor:
    """See the module docstring."""

    def __init__(
        self,
        series: Series,
        instance_id: str,
        tournament: Tournament,
        accounts: dict[str, Account] | None = None,
        paid: dict[int, int] | None = None,
    ) -> None:
        self.series = series
        self.spec: TournamentSpec = series.spec
        self.store: Records = series.store
        self.id = instance_id
        self.tournament = tournament
        self.accounts: dict[str, Account] = accounts or {}  # player key -> account
        self.paid_entries: dict[int, int] = paid or {}  # entry id -> prize credited
        self.mailbox = Mailbox(f"tournament-{instance_id}")
        self.desks: dict[int, TournamentDesk] = {}
        self.banks: dict[int, float] = {}  # entry id -> time bank (it follows the player)
        self.notices_sent = tournament.next_notice_seq - 1
        self.finished_at: float | None = None
        self.cancelled = False  # too few entries, or tables that could not open: refunded
        self._rest_until: dict[int, float] = {}  # table -> when it may deal again (monotonic)

    def start(self) -> None:
        self.mailbox.start()

    def post(self, fn: Any, *args: Any) -> None:
        self.mailbox.post(fn, *args)

    async def call(self, fn: Any, *args: Any) -> Any:
        return await self.mailbox.call(fn, *args)

    # ------------------------------------------------------------ the players

    def name_of(self, key: str) -> str:
        account = self.accounts.get(key)
        return account.name if account else key

    def entry_for(self, account_id: int | None) -> Any:
        """This account's entry (the living one, after a re-entry)."""
        if account_id is None:
            return None
        mine = self.tournament.entries_of(str(account_id))
        return next((e for e in mine if e.alive), mine[-1] if mine else None)

    async def table_for(self, account_id: int | None) -> str | None:
        """``table_of`` as a command, for whoever asks from outside the run."""
        return self.table_of(account_id)

    def table_of(self, account_id: int | None) -> str | None:
        entry = self.entry_for(account_id)
        if entry is None or entry.table is None:
            return None
        return table_id(self.id, entry.table)

    # ------------------------------------------------------------ registration

    async def register(self, account: Account) -> dict[str, Any]:
        key, t = str(account.id), self.tournament
        if t.status is not Status.REGISTERING:
            raise Refused(409, f"{self.id} has started; registration is closed")
        if key in self.accounts:
            raise Refused(409, "you are already registered")
        if len(t.entries) >= t.config.max_entries:
            raise Refused(409, f"{self.id} is full")
        trial = _copy(t)
        try:
            trial.register(key, time.time())  # a sit & go starts itself when full
        except TournamentError as error:
            raise Refused(409, str(error)) from None
        accounts = {**self.accounts, key: account}
        state = money.state_json(tournament_serial.to_dict(trial), accounts, {})
        spec, buy_in, fee = self.spec, t.config.buy_in, t.config.fee  # the run's own terms

        def txn(c: Connection) -> None:
            money.register(c, self.id, account, buy_in, fee)
            money.save(c, self.id, spec.id, state, str(trial.status))

        try:
            await self.store.run(txn)
        except ledger.InsufficientFunds as error:
            raise Refused(400, f"not enough chips for {buy_in}+{fee}: {error}") from None
        self.tournament, self.accounts = trial, accounts
        if trial.status is Status.RUNNING:
            await self.begin()
        self._changed()
        return {"tournament": self.id, "registered": len(trial.entries), "status": self.status()}

    async def unregister(self, account: Account) -> dict[str, Any]:
        key, t = str(account.id), self.tournament
        if key not in self.accounts:
            raise Refused(409, "you are not registered")
        if t.status is not Status.REGISTERING:
            raise Refused(409, f"{self.id} has started; you cannot unregister")
        trial = _copy(t)
        refund = trial.unregister(key)
        accounts = {k: a for k, a in self.accounts.items() if k != key}
        state = money.state_json(tournament_serial.to_dict(trial), accounts, {})
        spec, buy_in, fee = self.spec, t.config.buy_in, t.config.fee  # what was paid

        def txn(c: Connection) -> None:
            money.unregister(c, self.id, account, buy_in, fee)
            money.save(c, self.id, spec.id, state, str(trial.status))

        await self.store.run(txn)
        self.tournament, self.accounts = trial, accounts
        self._changed()
        return {"tournament": self.id, "registered": len(trial.entries), "refund": refund}

    async def start_at_time(self) -> str:
        """A scheduled run's time has come: it starts, or is cancelled and refunded
        (too few entries). Returns the status."""
        t = self.tournament
        if t.status is not Status.REGISTERING:
            return self.status()
        t.tick(time.time())
        status = _status(t)  # read afresh: tick changes it
        if status is Status.RUNNING:
            await self.store.run(self._save, self._state(), "running")
            await self.begin()
        elif status is Status.CANCELLED:
            log.info("tournament %s cancelled: too few entries", self.id)
            self._distribute()  # TournamentCancelled to the channel
            await self.cancel("too few entries")
        self._changed()
        return self.status()

    # ------------------------------------------------------------ playing

    async def begin(self, restored: Mapping[int, list[Event]] | None = None) -> None:
        """Open the tables (after a restart, with the cancelled hands' events), then
        deal after a pause (time for the players to reach their tables). If the
        tables cannot open, the run is cancelled: every buy-in and fee refunded."""
        try:
            for table_no in sorted(self.tournament.tables):
                self._open_table(table_no)
            self._send_seating()
            for table_no, events in (restored or {}).items():
                if table_no in self.desks:  # on the table's log, before it deals again
                    self._tell(table_no, "cancelled", events=events)
            self._distribute()
        except Exception:
            log.exception("tournament %s could not start; cancelled and refunded", self.id)
            await self.close()
            await self.cancel("server error")
            return
        self.mailbox.later(START_PAUSE_S, self._deal_ready)
        self.mailbox.later(TICK_S, self._tick)
        self.series.post(self.series.run_started, self)

    def _open_table(self, table_no: int) -> TournamentDesk:
        desk = self.desks.get(table_no)
        if desk is None:
            spec = self.spec
            desk = TournamentDesk(
                self.id,
                self.series.unit,
                table_no,
                spec.clock_config(),
                self.store,
                self.series.bus,
                name=f"{spec.name} - table {table_no}",
                rules=self.rules_now(),
                bot_think_s=(spec.bot_think_s / 2, spec.bot_think_s),
                bot_kinds=spec.bot_kinds,
            )
            self.desks[table_no] = desk
            self.series.owner.adopt(f"t:{desk.actor.id}", desk.actor)
            desk.start()
            self._tell(table_no, "level", info=self.table_info(table_no), rules=self.rules_now())
        return desk

    def _send_seating(self) -> None:
        """Tell the tables whose seating changed who sits there now (a broken table:
        nobody, and it closes)."""
        t = self.tournament
        for table_no in sorted(t.take_seating_changes()):
            if table_no in t.tables:
                self._open_table(table_no)  # a late entry may have opened one
            elif table_no not in self.desks:
                continue
            seats = t.table_seats(table_no)
            accounts = self._accounts_of(seats.seats)
            self._tell(table_no, "seat", seats=seats, accounts=accounts, banks=dict(self.banks))

    def _accounts_of(self, seats: Mapping[int, Any]) -> dict[str, Account]:
        return {s.player: self.accounts[s.player] for s in seats.values()}

    async def _tick(self) -> None:
        """The blind clock and the waiting tables, once a second."""
        if self.tournament.status is not Status.RUNNING:
            return
        self.tournament.tick(time.time())
        self._distribute()
        await self._deal_ready()
        self.mailbox.later(TICK_S, self._tick)

    async def _deal_ready(self) -> None:
        """Order every table that may deal, and has rested ``between_hands_s`` since
        its last hand, to deal its next hand: the orders are saved first (a restart
        then cancels those hands), then sent."""
        t = self.tournament
        clock = time.monotonic()
        ready = [n for n in t.ready_tables() if self._rest_until.get(n, 0.0) <= clock]
        if not ready:
            return
        now = time.time()
        orders = [t.start_hand(table_no, now) for table_no in ready]
        await self.store.run(self._save, self._state(), "running")
        for order in orders:
            about = self.hand_header(order.table_id, order.level)
            accounts = self._accounts_of(order.seats)
            banks = dict(self.banks)
            self._tell(
                order.table_id, "deal", order=order, accounts=accounts, banks=banks, about=about
            )
        self._distribute()

    async def hand_done(self, table_no: int, finished: HandFinished, record: HandRecord) -> None:
        """A table's hand is over: the tournament takes the result (busts, places,
        balancing); one transaction records the hand, credits the prizes of whoever
        busted in the money and saves the tournament; then the tables hear of it."""
        t = self.tournament
        try:
            t.hand_finished(finished, time.time())
        except TournamentError:
            log.exception("tournament %s: table %s's result refused", self.id, table_no)
            return
        self.banks.update(record.banks)
        due = self._prizes_due()
        state = self._state(extra_paid=due)
        status = self._saved_status()
        won = self._by_account(due)
        places = {self.accounts[t.entries[e].player].id: list(t.entries[e].places) for e in due}

        def txn(c: Connection) -> None:
            hand_records.finished(
                c, record.hand_id, ended_at=time.time(), history=record.history,
                pot=record.pot, rake=0, nets=record.nets,
            )  # fmt: skip
            money.credit(c, self.id, won, places)
            self._save(c, state, status)

        try:
            await self.store.run(txn)
        except Exception:  # the tournament goes on; the next record saves it whole
            log.exception("tournament %s: hand %s could not be recorded", self.id, record.hand_id)
        else:
            self.paid_entries.update(due)
        self._send_seating()
        self._distribute()
        if t.status is Status.FINISHED:
            await self._finish()
        else:  # this table rests a moment; others freed by the hand may deal now
            pause = self.spec.between_hands_s
            self._rest_until[table_no] = time.monotonic() + pause
            self.mailbox.later(pause, self._deal_ready)
            await self._deal_ready()
        self._changed()

    async def _finish(self) -> None:
        """Pay what is left of the prizes and close the tables (a payout that fails
        waits for the next start: the pool keeps the chips)."""
        t = self.tournament
        if sum(e.prize for e in t.entries.values()) != t.prize_pool:
            log.error("tournament %s: the prizes do not add up to the pool", self.id)
            return
        won = self._by_account({e.entry_id: e.prize for e in t.entries.values() if e.prize})
        state = self._state(extra_paid=self._prizes_due())

        def txn(c: Connection) -> None:
            money.pay_rest(c, self.id, won)
            self._save(c, state, "paid")

        try:
            await self.store.run(txn)
        except Exception:
            log.exception("tournament %s: the payout failed; retried at the next start", self.id)
            return
        self.paid_entries.update(self._prizes_due())
        self.finished_at = time.time()
        await self.close()
        self.series.post(self.series.run_over, self)

    async def finish_restored(self) -> None:
        """A run the previous server finished but did not pay: pay it now."""
        await self._finish()

    async def cancel(self, reason: str) -> None:
        """Refund every entry (buy-in and fee) and save the run as cancelled."""
        self.cancelled = True
        state = self._state()

        def txn(c: Connection) -> None:
            money.refund(c, self.id, reason)
            self._save(c, state, "cancelled")

        await self.store.run(txn)
        self.finished_at = time.time()
        self.series.post(self.series.run_over, self)

    async def close(self) -> None:
        for table_no in self.desks:
            self._tell(table_no, "close")

    async def table_gone(self, actor_id: str) -> None:
        """A closed table stopped: nothing answers for it any more."""
        self.series.owner.drop(f"t:{actor_id}")

    def _tell(self, table_no: int, op: str, **args: Any) -> None:
        """A message to one of the run's tables, wherever its owner is."""
        self.series.bus.tell(f"t:{table_id(self.id, table_no)}", op, args)

    # ------------------------------------------------------------ saving

    def _state(self, extra_paid: Mapping[int, int] | None = None) -> str:
        paid = {**self.paid_entries, **(extra_paid or {})}
        return money.state_json(tournament_serial.to_dict(self.tournament), self.accounts, paid)

    def _save(self, c: Connection, state: str, status: str) -> None:
        money.save(c, self.id, self.spec.id, state, status)

    def _saved_status(self) -> str:
        return "cancelled" if self.cancelled else str(self.tournament.status)

    def _prizes_due(self) -> dict[int, int]:
        """Prizes of placed entries not credited yet: entry id -> prize."""
        return {
            e.entry_id: e.prize
            for e in self.tournament.entries.values()
            if e.prize and e.entry_id not in self.paid_entries
        }

    def _by_account(self, by_entry: Mapping[int, int]) -> dict[int, int]:
        out: dict[int, int] = {}
        for entry_id, prize in by_entry.items():
            account = self.accounts[self.tournament.entries[entry_id].player]
            out[account.id] = out.get(account.id, 0) + prize
        return out

    # ------------------------------------------------------------ telling

    def _distribute(self) -> None:
        """New notices to the channel and every table's log, and the private
        ``Moved``, ``YourTable`` and ``Finished`` to the players concerned."""
        t = self.tournament
        fresh = t.notices_since(self.notices_sent)
        if not fresh:
            return
        self.notices_sent = fresh[-1].seq
        for notice in fresh:
            payload = self._notice(notice)
            if isinstance(notice, LevelStarted):  # with the clock: minutes, the next level
                info = self.level_info()
                payload |= {
                    "minutes": info["level"]["minutes"],
                    "next_level": info["next_level"],
                    "next_in_s": info["next_in_s"],
                }
                rules = self.rules_now()
                for table_no in self.desks:
                    self._tell(table_no, "level", info=self.table_info(table_no), rules=rules)
            self._channel(None, payload)
            on_table = {k: v for k, v in payload.items() if k != "seq"}
            on_table["notice"] = notice.seq
            self._to_tables(None, on_table)
            if isinstance(notice, TournamentStarted):
                for entry in t.entries.values():
                    self._your_table(entry.player, entry.table, entry.seat)
            elif isinstance(notice, PlayerMoved):
                account = self.accounts.get(notice.player)
                old = self.desks.get(notice.from_table)
                if account is not None and old is not None:
                    moved = {
                        "type": "Moved",
                        "table": table_id(self.id, notice.to_table),
                        "table_no": notice.to_table,
                        "seat": notice.to_seat,
                    }
                    old.actor.post(old.notice, account.id, moved)
                self._your_table(notice.player, notice.to_table, notice.to_seat)
            elif isinstance(notice, PlayerEliminated | TournamentFinished):
                places = list(notice.places) if isinstance(notice, PlayerEliminated) else [1]
                self._finished(notice.player, places, notice.prize)

    def _notice(self, event: Event) -> dict[str, Any]:
        payload = event_to_wire(event)
        player = payload.pop("player", None)
        if player is not None:
            payload["name"] = self.name_of(str(player))
        return payload

    def _to_tables(self, audience: int | None, payload: dict[str, Any]) -> None:
        for table_no in self.desks:
            self._tell(table_no, "notice", audience=audience, payload=payload)

    def _channel(self, account_id: int | None, payload: dict[str, Any]) -> None:
        """An entry of the tournament's channel, for everyone or one account."""
        text = encode_text(EventFrame(table=self.id, event=payload))
        self.series.bus.publish(self.series.unit, self.id, None, account_id, text)

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
        self._to_tables(account.id, payload)

    async def watch(self, account_id: int | None) -> dict[str, Any]:
        """Where the tournament seats this account (the reply to subscribing to the
        channel, whose entries then reach the watcher's gateway by the bus)."""
        entry = self.entry_for(account_id)
        if entry is None or entry.table is None:
            return {"tournament": self.id, "table": None, "table_no": None, "seat": None}
        return {
            "tournament": self.id,
            "table": table_id(self.id, entry.table),
            "table_no": entry.table,
            "seat": entry.seat,
        }

    def _changed(self) -> None:
        self.series.post(self.series.run_changed, self, self.facts())

    # ------------------------------------------------------------ views

    def status(self) -> str:
        """The run's status; "paying" between its last hand and the payout."""
        if self.cancelled:
            return str(Status.CANCELLED)
        status = self.tournament.status
        if status is Status.FINISHED and self.finished_at is None:
            return "paying"
        return str(status)

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
            "level": level_dict(levels[level_no], level_no),
            "next_level": None if following is None else level_dict(following, level_no + 1),
            "next_in_s": next_in,
            "players_left": t.alive_count,
            "entries": len(t.entries),
        }

    def table_info(self, table_no: int) -> TournamentInfo:
        info = self.level_info()
        nxt = info["next_level"]
        return TournamentInfo(
            id=self.id,
            name=self.spec.name,
            table_no=table_no,
            level=LevelInfo(**info["level"]),
            next_level=None if nxt is None else LevelInfo(**nxt),
            next_in_s=info["next_in_s"],
            players_left=info["players_left"],
            entries=info["entries"],
        )

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

    def facts(self) -> dict[str, Any]:
        """What the series shows of this run (its lobby row's figures)."""
        t = self.tournament
        return {
            "config": t.config,
            "status": self.status(),
            "registered": len(t.entries),
            "players_left": t.alive_count,
            "prize_pool": t.prize_pool,
            "start_at": t.config.start_at,
            "bots": sum(1 for a in self.accounts.values() if a.kind == "bot"),
            "names": {a.name for a in self.accounts.values()},
            "members": {a.id for a in self.accounts.values()},
        }

    async def where(self, account_id: int) -> dict[str, Any] | None:
        """Where this account plays in this run (None: it does not, or not any more)."""
        entry = self.entry_for(account_id)
        if entry is None or not entry.alive:
            return None
        return {"instance": self.id, "table": self.table_of(account_id)}

    async def detail(self) -> dict[str, Any]:
        """Players, tables, chip counts, levels, payouts and standings."""
        t = self.tournament
        info = self.level_info()

        def account_id(key: str) -> int | None:
            account = self.accounts.get(key)
            return account.id if account else None

        players = [
            {
                "name": self.name_of(e.player),
                "account": account_id(e.player),
                "bot": (a := self.accounts.get(e.player)) is not None and a.kind == "bot",
                "chips": e.stack if e.alive else 0,
                "table": e.table,
                "table_id": None if e.table is None else table_id(self.id, e.table),
                "seat": e.seat,
                "places": list(e.places),
                "prize": e.prize,
            }
            for e in t.entries.values()
        ]
        tables = [
            {
                "id": table.table_id,
                "table_id": table_id(self.id, table.table_id),
                "hands": table.hands_played,
                "in_hand": table.order is not None,
                "seats": [
                    {
                        "seat": seat,
                        "name": self.name_of(t.entries[e].player),
                        "chips": t.entries[e].stack,
                    }
                    for seat, e in sorted(table.seats.items())
                ],
            }
            for table in t.tables.values()
        ]
        standings = [
            {
                "place": e.places[0],
                "places": list(e.places),
                "name": self.name_of(e.player),
                "account": account_id(e.player),
                "prize": e.prize,
            }
            for e in t.standings()
            if e.places
        ]
        return {
            "id": self.id,
            "registered": len(t.entries),
            "starts_at": t.config.start_at if self.spec.scheduled else None,
            "prize_pool": t.prize_pool,
            "status": self.status(),
            "started_at": t.started_at,
            "finished_at": self.finished_at,
            "level": {**info["level"], "next_in_s": info["next_in_s"]},
            "next_level": info["next_level"],
            "players_left": info["players_left"],
            "payouts": list(t.prizes),
            "hands": t.hands_played,
            "players": players,
            "tables": tables,
            "standings": sorted(standings, key=lambda s: s["place"]),
            "paid": {str(a): p for a, p in self._by_account(self.paid_entries).items()},
            "notices": [self._notice(n) for n in t.notices[-NOTICES:]],
        }


def level_dict(level: Level, index: int) -> dict[str, Any]:
    return {
        "level": index + 1,
        "small_blind": level.small_blind,
        "big_blind": level.big_blind,
        "ante": level.ante,
        "minutes": level.minutes,
    }


def _status(t: Tournament) -> Status:
    return t.status


def _copy(t: Tournament) -> Tournament:
    """A registering tournament's copy, to try a change before it is saved."""
    copy, _ = tournament_serial.from_dict(json.loads(json.dumps(tournament_serial.to_dict(t))))
    return copy
