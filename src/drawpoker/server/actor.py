"""One asyncio actor per table: it alone owns the table's state.

The table itself is the room layer's ``CashTable`` (seats, buy-ins, blinds and
the dead button, sit-outs, top-ups, the timeout policy, rake, the Italian
carried pot); the actor adds what needs I/O and a clock: accounts and the
ledger, timers (the action clock with a time bank, the draw clock, disconnect
grace), bots, pre-actions, and the connections watching the table.

Commands (from connections, timers and bots) go through one queue and are
handled in order. The actor keeps a versioned log of what it sent: each entry
is public or private to one account, so a reconnecting client gets exactly the
entries it may see after the version it last saw, or a snapshot.

Money: seat stacks live in the ledger (``stack:<table>:<account>``, a held
top-up included). They change at a buy-in, top-up or cash-out, and in the one
database transaction that records a finished hand; each of those transactions
also saves the table (``CashTable.to_dict``). A hand in progress moves nothing
in the database, so after a crash the saved table and the ledger both hold the
stacks from before the hand: restoring cancels it and every wagered chip is
back at its seat.
"""

from __future__ import annotations

import json
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, select

from drawpoker.actions import Action
from drawpoker.deck import new_seed
from drawpoker.events import Event, HandEnded, HandStarted, PotAwarded, PotCarried
from drawpoker.hand import Hand
from drawpoker.room import CashTable, RoomError
from drawpoker.room import TableConfig as RoomConfig
from drawpoker.room.events import PlayerLeft, SatOut
from drawpoker.server import ledger, protocol
from drawpoker.server.actor_base import BaseTableActor, SeatState, make_policy, pre_dict, seat_no
from drawpoker.server.actor_base import Conn as Conn
from drawpoker.server.actor_base import TableError as TableError
from drawpoker.server.auth import Account
from drawpoker.server.recovery import cancel_unfinished as cancel_unfinished
from drawpoker.server.store import Store, accounts, hand_players, hands, seats, tables
from drawpoker.server.tableconfig import TableConfig as TableConfig

log = logging.getLogger("drawpoker.server.actor")


class TableActor(BaseTableActor):
    """A cash table (``room.CashTable``) with its seats' money in the ledger."""

    def __init__(
        self,
        config: TableConfig,
        store: Store,
        *,
        on_change: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(config.id, on_change=on_change)
        self.config = config
        self.rules = config.build_rules()
        self.store = store
        self.table = CashTable(self.id, self._room_config())
        self.seat_states: dict[int, SeatState] = {}
        self.recent_hands: deque[tuple[float, int]] = deque(maxlen=200)  # (time, pot)
        self.restored: list[Event] = []
        self.action_time_s = config.action_time_s
        self.between_hands_s = config.between_hands_s
        self.bot_think_s = config.bot_think_s

    def _room_config(self) -> RoomConfig:
        return RoomConfig(
            rules=self.rules,
            min_buy_in=self.config.min_buy_in,
            max_buy_in=self.config.max_buy_in,
            action_time_s=self.config.action_time_s,
        )

    @property
    def hand(self) -> Hand | None:
        return self.table.hand

    @property
    def seats(self) -> dict[int, SeatState]:
        return self.seat_states

    def _apply(self, action: Action) -> list[Event]:
        return self.table.act(action, time.monotonic())

    def _timeout(self, seat: int) -> list[Event]:
        return self.table.timeout(seat, time.monotonic())

    async def _settle(self, event: Event) -> None:
        if isinstance(event, HandEnded):
            await self._record_hand(event)
        elif isinstance(event, PlayerLeft):
            await self._cash_out(event.seat, event.chips)
        elif isinstance(event, SatOut) and event.reason == "busted":
            s = self.seats.get(event.seat)
            if s is not None and s.bot is not None:
                await self._bot_rebuy(s)

    async def _connected(self, s: SeatState) -> None:
        await super()._connected(s)
        if s.connections == 1 and s.bot is None:
            self._events(self.table.reconnect(s.seat, time.monotonic()))

    async def _disconnected(self, s: SeatState) -> None:
        await self._publish_and_settle(self.table.disconnect(s.seat, time.monotonic()))
        self._later(self.config.disconnect_grace_s, self._grace_over, s.account.id)

    # ------------------------------------------------------------ plumbing

    async def start(self) -> None:
        await self.store.run(self._load)
        self.start_loop()
        if self.restored:  # a hand cancelled on restore, leaves applied
            await self._publish_and_settle(self.restored)
        bots = sum(1 for s in self.seats.values() if s.bot)
        for i in range(self.config.bots - bots):
            free = self._free_seat()
            if free is None:
                break
            await self._seat_bot(
                free, self.config.bot_kinds[(bots + i) % len(self.config.bot_kinds)]
            )
        now = time.monotonic()
        for s in self.seats.values():
            if s.bot is None:  # restored after a restart: nobody is connected yet
                s.away_since = now
                self.table.disconnect(s.seat, now)
                self._later(self.config.disconnect_grace_s, self._grace_over, s.account.id)
        self._schedule_next_hand(0.5)

    def snapshot(self, account_id: int | None) -> dict[str, Any]:
        me = self._seat_of(account_id)
        hand_view = self._hand_view(me, account_id)
        return {
            "table": self.id,
            "name": self.config.name,
            "epoch": self.epoch,
            "rules": self.rules.summary(),
            "max_seats": self.rules.max_seats,
            "min_buy_in": self.config.min_buy_in,
            "max_buy_in": self.config.max_buy_in,
            "button": self.table.button,
            "carried_pot": self.table.carried_pot,
            "you": None if me is None else me.seat,
            "pre_action": pre_dict(me),
            "seats": [self._seat_public(s) for s in sorted(self.seats.values(), key=seat_no)],
            "hand": hand_view,
        }

    def _seat_public(self, s: SeatState) -> dict[str, Any]:
        room_seat = self.table.seats[s.seat]
        return {
            "seat": s.seat,
            "name": s.account.name,
            "stack": room_seat.stack,
            "pending_top_up": room_seat.pending_top_up,
            "sitting_out": room_seat.sitting_out,
            "connected": s.bot is not None or s.connections > 0,
            "bot": s.bot is not None,
            "time_bank": round(s.time_bank, 1),
        }

    # ---------------------------------------------------------- watchers

    async def _grace_over(self, account_id: int) -> None:
        """Disconnect grace over: the player sits out; much later they leave."""
        s = self._seat_of(account_id)
        if s is None or s.connections or s.away_since is None:
            return
        if time.monotonic() - s.away_since + 0.05 < self.config.disconnect_grace_s:
            return
        await self._publish_and_settle(self.table.sit_out(s.seat))
        s.out_since = time.monotonic()
        self.on_change()
        self._later(self.config.sit_out_leave_s, self._left_too_long, account_id)

    async def _left_too_long(self, account_id: int) -> None:
        s = self._seat_of(account_id)
        if s is None or s.connections or s.out_since is None:
            return
        if time.monotonic() - s.out_since + 0.05 >= self.config.sit_out_leave_s:
            await self._publish_and_settle(self.table.leave(s.seat, time.monotonic()))

    # ------------------------------------------------------------ seating

    def _free_seat(self) -> int | None:
        return next((n for n in range(1, self.rules.max_seats + 1) if n not in self.seats), None)

    def _save(self, conn: Connection, state: str) -> None:
        """Save the room's table (``state``: ``to_dict`` as JSON, taken in the actor)
        in the transaction of the money move it belongs to."""
        conn.execute(tables.update().where(tables.c.id == self.id).values(state=state))

    def _load(self, conn: Connection) -> None:
        """Create the table row, or restore the table after a restart: the saved
        room table (a hand in play is cancelled), checked against the ledger."""
        row = conn.execute(select(tables.c.state).where(tables.c.id == self.id)).first()
        if row is None:
            conn.execute(
                tables.insert().values(id=self.id, config=self.config.to_json(), hand_number=0)
            )
        else:
            conn.execute(
                tables.update().where(tables.c.id == self.id).values(config=self.config.to_json())
            )
        if row is not None and row[0]:
            saved = json.loads(row[0])
            saved["config"] = CashTable(self.id, self._room_config()).to_dict()["config"]
            self.table, self.restored = CashTable.from_dict(saved)
        rows = conn.execute(
            select(seats.c.seat, accounts.c.id, accounts.c.name, accounts.c.kind)
            .join(accounts, accounts.c.id == seats.c.account_id)
            .where(seats.c.table_id == self.id)
        ).all()
        kinds = self.config.bot_kinds
        for seat, account_id, name, kind in rows:
            account = Account(int(account_id), name, kind)
            chips = ledger.balance(conn, ledger.stack(self.id, account.id))
            room_seat = self.table.seats.get(int(seat))
            if room_seat is None or room_seat.player != str(account.id):
                log.error(
                    "table %s seat %s: not in the saved table; seating from the ledger",
                    self.id,
                    seat,
                )
                self.table.sit(str(account.id), int(seat), self.config.min_buy_in)
                room_seat = self.table.seats[int(seat)]
                room_seat.stack = chips
            elif room_seat.stack + room_seat.pending_top_up != chips:
                saved = room_seat.stack + room_seat.pending_top_up
                log.error("table %s seat %s: saved %s, ledger %s", self.id, seat, saved, chips)
                room_seat.stack, room_seat.pending_top_up = chips, 0
            self.seats[int(seat)] = SeatState(
                seat=int(seat),
                account=account,
                bot=make_policy(kinds[int(seat) % len(kinds)], int(seat), self.rules)
                if kind == "bot"
                else None,
                time_bank=self.config.time_bank_s,
            )
        for seat in list(self.table.seats):
            if seat not in self.seats:  # the ledger has no such seat: drop it
                del self.table.seats[seat]
        self.table.carried_pot = ledger.balance(conn, ledger.carry(self.id))

    async def _seat_bot(self, seat: int, kind: str) -> None:
        name = f"bot-{self.id}-{seat}"
        buy_in = self.config.max_buy_in

        def refill(conn: Connection) -> Account:
            from drawpoker.server.auth import ensure_bot

            account = ensure_bot(conn, name)
            ledger.refill_bot(conn, account.id, buy_in)
            return account

        account = await self.store.run(refill)
        s = SeatState(seat, account, bot=make_policy(kind, seat, self.rules))
        await self._sit(s, buy_in, post=False)

    async def _sit(self, s: SeatState, amount: int, *, post: bool) -> None:
        """Seat a player: the room's table first, then one database transaction with
        the seat, the chips and the saved table; undone if the transaction fails."""
        account, seat = s.account, s.seat
        have = await self.store.run(lambda c: ledger.balance(c, ledger.player(account.id)))
        if have < amount:
            raise TableError(
                "insufficient_funds", f"your balance is {have} chips, {amount} are needed"
            )
        try:
            events = self.table.sit(str(account.id), seat, amount, post=post)
        except RoomError as error:
            raise TableError("bad_seat", str(error)) from None
        state = json.dumps(self.table.to_dict())

        def txn(c: Connection) -> None:
            c.execute(seats.insert().values(table_id=self.id, seat=seat, account_id=account.id))
            ledger.transfer(
                c, "buy-in", ledger.player(account.id), ledger.stack(self.id, account.id),
                amount, ref=self.id,
            )  # fmt: skip
            self._save(c, state)

        try:
            await self.store.run(txn)
        except Exception as error:
            del self.table.seats[seat]
            if isinstance(error, ledger.InsufficientFunds):
                raise TableError("insufficient_funds", str(error)) from None
            raise
        s.time_bank = self.config.time_bank_s
        self.seats[seat] = s
        self._events(events)
        self.on_change()

    async def sit(self, conn: Conn, seat: int, buy_in: int, post: bool = True) -> dict[str, Any]:
        account = self._need_account(conn)
        if self._seat_of(account.id) is not None:
            raise TableError("already_seated", "you already have a seat at this table")
        if not 1 <= seat <= self.rules.max_seats:
            raise TableError(
                "bad_seat", f"seat {seat} does not exist; seats are 1-{self.rules.max_seats}"
            )
        if len(self.seats) >= self.rules.max_seats:
            raise TableError("table_full", "the table is full")
        if seat in self.seats:
            raise TableError("seat_taken", f"seat {seat} is taken")
        lo, hi = self.config.min_buy_in, self.config.max_buy_in
        if not lo <= buy_in <= hi:
            raise TableError("bad_amount", f"the buy-in is {lo} to {hi} chips, not {buy_in}")
        s = SeatState(seat, account)
        await self._sit(s, buy_in, post=post)
        if conn not in self.watchers:
            await self.watch(conn, None, None)
        else:
            await self._connected(s)
        self._schedule_next_hand(self.config.between_hands_s)
        return {"seat": seat, "stack": buy_in}

    async def top_up(self, conn: Conn, amount: int) -> dict[str, Any]:
        s = self._need_seat(conn)
        await self._top_up(s, amount)
        return {
            "stack": self.table.seats[s.seat].stack,
            "pending": self.table.seats[s.seat].pending_top_up,
        }

    async def _top_up(self, s: SeatState, amount: int) -> None:
        """Chips from the balance to the seat (held until the hand ends during a hand)."""
        room_seat = self.table.seats[s.seat]
        account_id = s.account.id
        have = await self.store.run(lambda c: ledger.balance(c, ledger.player(account_id)))
        if have < amount:
            raise TableError(
                "insufficient_funds", f"your balance is {have} chips, {amount} are needed"
            )
        before = (room_seat.stack, room_seat.pending_top_up)
        try:
            events = self.table.top_up(s.seat, amount)
        except RoomError as error:
            raise TableError("bad_amount", str(error)) from None
        state = json.dumps(self.table.to_dict())

        def txn(c: Connection) -> None:
            ledger.transfer(
                c, "top-up", ledger.player(account_id), ledger.stack(self.id, account_id),
                amount, ref=self.id,
            )  # fmt: skip
            self._save(c, state)

        try:
            await self.store.run(txn)
        except Exception as error:
            room_seat.stack, room_seat.pending_top_up = before
            if isinstance(error, ledger.InsufficientFunds):
                raise TableError("insufficient_funds", str(error)) from None
            raise
        self._events(events)
        self._schedule_next_hand(self.config.between_hands_s)

    async def sit_out(self, conn: Conn) -> dict[str, Any]:
        s = self._need_seat(conn)
        await self._publish_and_settle(self.table.sit_out(s.seat))
        s.out_since = time.monotonic()
        self.on_change()
        return {}

    async def sit_in(self, conn: Conn, post: bool = True) -> dict[str, Any]:
        s = self._need_seat(conn)
        try:
            events = self.table.sit_in(s.seat, post=post)
        except RoomError as error:
            raise TableError("no_chips", str(error)) from None
        s.out_since = None
        await self._publish_and_settle(events)
        self.on_change()
        self._schedule_next_hand(self.config.between_hands_s)
        return {}

    async def leave(self, conn: Conn) -> dict[str, Any]:
        s = self._need_seat(conn)
        s.pre = s.pre_draw = None
        in_hand = self._in_hand(s)
        await self._publish_and_settle(self.table.leave(s.seat, time.monotonic()))
        return {"leaving": True} if in_hand else {"left": True}

    async def _cash_out(self, seat: int, chips: int) -> None:
        s = self.seats.pop(seat)
        account_id = s.account.id
        state = json.dumps(self.table.to_dict())

        def txn(c: Connection) -> None:
            c.execute(seats.delete().where(seats.c.table_id == self.id, seats.c.seat == seat))
            have = ledger.balance(c, ledger.stack(self.id, account_id))
            if have != chips:
                log.error(
                    "table %s: %s leaves with %s, the ledger holds %s",
                    self.id,
                    s.account.name,
                    chips,
                    have,
                )
            if have:
                ledger.transfer(
                    c, "cash-out", ledger.stack(self.id, account_id), ledger.player(account_id),
                    have, ref=self.id,
                )  # fmt: skip
            self._save(c, state)

        await self.store.run(txn)
        self.on_change()

    def _schedule_next_hand(self, delay: float) -> None:
        if self.next_hand_at is not None or self.stopped or self.table.in_hand:
            return
        self.next_hand_at = self._later(delay, self._start_hand)

    async def _start_hand(self) -> None:
        self.next_hand_at = None
        if not self.table.can_start():
            return
        seed = new_seed()
        events = self.table.start_hand(time.monotonic(), seed=seed)
        state = json.dumps(self.table.to_dict())
        started = next(e for e in events if isinstance(e, HandStarted))
        dealt = dict(started.stacks)
        self.hand_accounts = {seat: self.seats[seat].account.id for seat in dealt}
        players = {str(seat): [self.hand_accounts[seat], stack] for seat, stack in dealt.items()}
        hand_id = started.hand_id

        row = self._hand_row(hand_id, players, seed)

        def txn(c: Connection) -> None:
            c.execute(row)
            self._save(c, state)

        await self.store.run(txn)
        for s in self.seats.values():
            s.pre = s.pre_draw = None
        await self._publish_and_settle(events)

    async def _record_hand(self, ended: HandEnded) -> None:
        """One database transaction: the hand's chip moves, its history, the saved table."""
        record = self.table.last_record
        assert record is not None
        hand_events = self.hand_events
        state = json.dumps(self.table.to_dict())
        entries: list[tuple[str, int]] = []
        for seat, account_id in self.hand_accounts.items():
            entries.append((ledger.stack(self.id, account_id), record.net[seat]))
        if record.rake:
            entries.append((ledger.RAKE, record.rake))
        carry_delta = record.carried_out - record.carried_in
        if carry_delta:
            entries.append((ledger.carry(self.id), carry_delta))
        history = json.dumps([[e.visible_to, protocol.event_dict(e)] for e in hand_events])
        pot = record.rake + sum(
            e.amount for e in hand_events if isinstance(e, PotAwarded | PotCarried)
        )
        hand_id = record.hand_id
        accounts_in = dict(self.hand_accounts)
        net = dict(record.net)

        def txn(c: Connection) -> None:
            ledger.post(c, "hand", entries, ref=hand_id)
            c.execute(
                hands.update()
                .where(hands.c.id == hand_id)
                .values(
                    status="finished",
                    ended_at=time.time(),
                    history=history,
                    pot=pot,
                    rake=record.rake,
                )
            )
            c.execute(
                hand_players.insert(),
                [
                    {"hand_id": hand_id, "account_id": a, "net": net[seat]}
                    for seat, a in accounts_in.items()
                ],
            )
            self._save(c, state)

        await self.store.run(txn)
        self.recent_hands.append((time.monotonic(), pot))
        for s in self.seats.values():
            s.pre = s.pre_draw = None
            s.time_bank = min(self.config.time_bank_s, s.time_bank + 2.0)
        self.on_change()
        _ = ended

    async def _bot_rebuy(self, s: SeatState) -> None:
        amount = self.config.max_buy_in
        account_id = s.account.id

        await self.store.run(ledger.refill_bot, account_id, amount)
        await self._top_up(s, amount)
        self._events(self.table.sit_in(s.seat, post=False))

    # ----------------------------------------------------------- actions

    def summary(self) -> dict[str, Any]:
        rules = self.rules
        now = time.monotonic()
        last_hour = [(t, pot) for t, pot in self.recent_hands if t > now - 3600]
        pots = [pot for _, pot in list(self.recent_hands)[-50:]]
        blinds = f"{rules.small_blind}/{rules.big_blind}"
        stakes = f"{rules.invito}" if rules.is_italian else blinds
        return {
            "id": self.id,
            "name": self.config.name,
            "kind": self.config.kind,
            "game": "italian" if rules.is_italian else "draw",
            "structure": str(rules.structure),
            "stakes": stakes,
            "description": rules.summary(),
            "seats_taken": len(self.seats),
            "seats_total": rules.max_seats,
            "min_buy_in": self.config.min_buy_in,
            "max_buy_in": self.config.max_buy_in,
            "average_pot": sum(pots) // len(pots) if pots else 0,
            "hands_per_hour": _rate(last_hour, now),
            "players": [s.account.name for s in sorted(self.seats.values(), key=seat_no)],
        }


def _rate(samples: list[tuple[float, int]], now: float) -> int:
    """Hands per hour over the last hour (extrapolated over the first minutes)."""
    if len(samples) < 2:
        return 0
    span = min(max(now - samples[0][0], 60.0), 3600.0)
    return int(len(samples) * 3600 / span)
