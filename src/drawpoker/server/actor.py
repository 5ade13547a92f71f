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

import asyncio
import json
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from sqlalchemy import Connection, select

from drawpoker.actions import Action
from drawpoker.cards import format_cards, parse_cards
from drawpoker.deck import commitment, new_seed
from drawpoker.errors import DrawPokerError, IllegalAction, InvalidAction, InvalidCards
from drawpoker.events import (
    EVERYONE,
    SERVER,
    BetPlaced,
    BettingRoundEnded,
    Event,
    HandEnded,
    HandStarted,
    PotAwarded,
    PotCarried,
    Raised,
    Street,
)
from drawpoker.hand import Hand
from drawpoker.room import CashTable, RoomError
from drawpoker.room import TableConfig as RoomConfig
from drawpoker.room.events import PlayerLeft, SatOut
from drawpoker.rules import Rules
from drawpoker.server import ledger, protocol
from drawpoker.server.auth import Account
from drawpoker.server.housebot import HouseBot, Policy
from drawpoker.server.recovery import cancel_unfinished as cancel_unfinished
from drawpoker.server.store import Store, accounts, hand_players, hands, seats, tables
from drawpoker.server.tableconfig import TableConfig as TableConfig

log = logging.getLogger("drawpoker.server.actor")
LOG_SIZE = 4000


class TableError(DrawPokerError, ValueError):
    """A request the table refuses; ``code`` is machine-readable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Conn(Protocol):
    """What the actor needs from a connection."""

    account: Account | None

    def send(self, text: str) -> None: ...


@dataclass(slots=True)
class PreAct:
    kind: str  # check_fold, check, call_any, draw
    cards: tuple[int, ...]
    hand_id: str
    street: Street
    mark: int  # the table's wager mark when it was set


@dataclass(slots=True)
class SeatState:
    """What the server keeps about a seat besides the room's ``Seat``."""

    seat: int
    account: Account
    bot: Policy | None = None
    connections: int = 0
    time_bank: float = 0.0
    pre: PreAct | None = None  # a betting pre-action (check/fold, check, call any)
    pre_draw: PreAct | None = None  # a draw held for the player's draw turn (R25)
    action_ids: deque[str] = field(default_factory=lambda: deque(maxlen=256))
    away_since: float | None = None  # disconnected since (monotonic)
    out_since: float | None = None  # sitting out since (monotonic)


Command = tuple[Callable[..., Awaitable[Any]], tuple[Any, ...], "asyncio.Future[Any] | None"]


def make_policy(kind: str, seat: int, rules: Rules) -> Policy:
    """A bot by name: ``house`` (the server's own) or one of ``drawpoker.bots``."""
    if kind == "house":
        return HouseBot()
    from drawpoker.bots import make_bot

    bot = make_bot(kind, seed=secrets.token_bytes(16))
    bot.sit(seat, rules)
    return bot


class TableActor:
    def __init__(
        self,
        config: TableConfig,
        store: Store,
        *,
        on_change: Callable[[], None] | None = None,
    ) -> None:
        self.config = config
        self.id = config.id
        self.rules = config.build_rules()
        self.store = store
        self.on_change = on_change or (lambda: None)
        self.queue: asyncio.Queue[Command] = asyncio.Queue()
        self.table = CashTable(self.id, self._room_config())
        self.seats: dict[int, SeatState] = {}
        self.hand_accounts: dict[int, int] = {}  # seat -> account id, this hand
        self.v = 0
        self.epoch = secrets.token_hex(4)
        self.log: deque[tuple[int, int | None, str]] = deque(maxlen=LOG_SIZE)
        self.watchers: dict[Conn, int | None] = {}  # connection -> account id (None: anonymous)
        self.turn_token = 0
        self.turn_deadline = 0.0
        self.wager_mark = 0
        self.next_hand_at: asyncio.TimerHandle | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.task: asyncio.Task[None] | None = None
        self.recent_hands: deque[tuple[float, int]] = deque(maxlen=200)  # (time, pot)
        self.rng = random.Random()
        self.stopped = False
        self.restored: list[Event] = []
        self.hand_events: list[Event] = []  # the current (or last) hand's, for its record

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

    # ------------------------------------------------------------ plumbing

    async def start(self) -> None:
        await self.store.run(self._load)
        self.task = asyncio.create_task(self._loop(), name=f"table-{self.id}")
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

    async def stop(self) -> None:
        self.stopped = True
        if self.task:
            self.task.cancel()
        for handle in (self.timer, self.next_hand_at):
            if handle:
                handle.cancel()

    async def _loop(self) -> None:
        while True:
            fn, args, fut = await self.queue.get()
            try:
                result = await fn(*args)
            except (TableError, DrawPokerError, ValueError) as error:
                if fut is not None and not fut.done():
                    fut.set_exception(error)
                elif fut is None:
                    log.warning("table %s: %s", self.id, error)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # keep the table alive; report to the caller
                log.exception("table %s: internal error", self.id)
                if fut is not None and not fut.done():
                    fut.set_exception(error)
            else:
                if fut is not None and not fut.done():
                    fut.set_result(result)

    async def call(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> Any:
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.queue.put_nowait((fn, args, fut))
        return await fut

    def post(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> None:
        self.queue.put_nowait((fn, args, None))

    def _later(
        self, delay: float, fn: Callable[..., Awaitable[Any]], *args: Any
    ) -> asyncio.TimerHandle:
        loop = asyncio.get_running_loop()
        return loop.call_later(max(delay, 0.0), self.post, fn, *args)

    # ---------------------------------------------------------- the log

    def _publish(self, audience: int | None, payload: dict[str, Any]) -> None:
        """Append an entry for everyone (``audience`` None) or one account, and send it."""
        self.v += 1
        text = protocol.frame({"type": "event", "table": self.id, "v": self.v, "event": payload})
        self.log.append((self.v, audience, text))
        for conn, account_id in list(self.watchers.items()):
            if audience is None or audience == account_id:
                conn.send(text)

    def _table_event(self, kind: str, audience: int | None = None, **fields: Any) -> None:
        self._publish(audience, {"type": kind, **fields})

    def _events(self, events: list[Event]) -> None:
        """Publish the table's events (the engine's and the room's), each to whom may see it."""
        for event in events:
            if event.visible_to == SERVER:
                continue
            if event.visible_to == EVERYONE:
                audience = None
            else:
                audience = self.hand_accounts.get(event.visible_to, -1)
            if isinstance(event, BetPlaced | Raised | BettingRoundEnded):
                self.wager_mark += 1
            if isinstance(event, HandStarted):
                self.hand_events = []
            self.hand_events.append(event)
            payload = protocol.event_dict(event)
            player = payload.pop("player", None)
            if player is not None:  # room events name the player by account id
                payload["name"] = self._name_of(int(player))
            self._publish(audience, payload)

    def _name_of(self, account_id: int) -> str:
        for s in self.seats.values():
            if s.account.id == account_id:
                return s.account.name
        return str(account_id)

    def snapshot(self, account_id: int | None) -> dict[str, Any]:
        me = self._seat_of(account_id)
        viewer = me.seat if me is not None else EVERYONE
        hand = self.hand
        hand_view: dict[str, Any] | None = None
        if hand is not None and not hand.is_over:
            if viewer != EVERYONE and self.hand_accounts.get(viewer) != account_id:
                viewer = EVERYONE
            hand_view = hand.view(viewer)
            hand_view["commitment"] = commitment(hand.seed) if hand.seed else ""
            hand_view["clock_s"] = max(0.0, round(self.turn_deadline - time.monotonic(), 1))
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
            "pre_action": _pre_dict(me),
            "seats": [self._seat_public(s) for s in sorted(self.seats.values(), key=_seat_no)],
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

    async def watch(self, conn: Conn, since: int | None, epoch: str | None) -> dict[str, Any]:
        account_id = conn.account.id if conn.account else None
        first = conn not in self.watchers
        self.watchers[conn] = account_id
        s = self._seat_of(account_id)
        if s is not None and first:
            await self._connected(s)
        oldest = self.log[0][0] if self.log else self.v + 1
        if since is not None and epoch == self.epoch and since <= self.v and since + 1 >= oldest:
            missed = [text for v, aud, text in self.log if v > since and aud in (None, account_id)]
            for text in missed:
                conn.send(text)
            return {"replayed": len(missed), "v": self.v, "epoch": self.epoch}
        state = self.snapshot(account_id)
        conn.send(
            protocol.frame({"type": "snapshot", "table": self.id, "v": self.v, "state": state})
        )
        return {"snapshot": True, "v": self.v, "epoch": self.epoch}

    async def _connected(self, s: SeatState) -> None:
        s.connections += 1
        s.away_since = None
        if s.connections == 1 and s.bot is None:
            self._events(self.table.reconnect(s.seat, time.monotonic()))

    async def unwatch(self, conn: Conn) -> None:
        account_id = self.watchers.pop(conn, None)
        s = self._seat_of(account_id)
        if s is not None and s.bot is None:
            s.connections = max(0, s.connections - 1)
            if s.connections == 0:
                s.away_since = time.monotonic()
                await self._publish_and_settle(self.table.disconnect(s.seat, s.away_since))
                self._later(self.config.disconnect_grace_s, self._grace_over, s.account.id)

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

    def _seat_of(self, account_id: int | None) -> SeatState | None:
        if account_id is None:
            return None
        for s in self.seats.values():
            if s.account.id == account_id:
                return s
        return None

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
            have = ledger.balance(conn, ledger.player(account.id))
            if have < buy_in:
                ledger.transfer(
                    conn, "bot-refill", ledger.BANK, ledger.player(account.id), buy_in - have
                )
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

    def _need_account(self, conn: Conn) -> Account:
        if conn.account is None:
            raise TableError("not_logged_in", "log in or play as a guest first")
        return conn.account

    def _need_seat(self, conn: Conn) -> SeatState:
        s = self._seat_of(self._need_account(conn).id)
        if s is None:
            raise TableError("not_seated", "you have no seat at this table")
        return s

    def _in_hand(self, s: SeatState) -> bool:
        hand = self.hand
        return (
            hand is not None and not hand.is_over and self.hand_accounts.get(s.seat) == s.account.id
        )

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

    async def chat(self, conn: Conn, text: str) -> dict[str, Any]:
        account = self._need_account(conn)
        self._table_event("Chat", name=account.name, text=text)
        return {}

    # ------------------------------------------------------------ hands

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

        def txn(c: Connection) -> None:
            c.execute(
                hands.insert().values(
                    id=hand_id,
                    table_id=self.id,
                    status="running",
                    started_at=time.time(),
                    players=json.dumps(players),
                    commitment=commitment(seed),
                    seed=seed.hex(),
                    pot=0,
                    rake=0,
                )
            )
            self._save(c, state)

        await self.store.run(txn)
        for s in self.seats.values():
            s.pre = s.pre_draw = None
        await self._publish_and_settle(events)

    async def _publish_and_settle(self, events: list[Event]) -> None:
        """Publish the events, then what follows from them: record a finished hand
        (ledger and history), cash out who left, rebuy busted bots, and start the
        next turn or the next hand."""
        self._events(events)
        for event in events:
            if isinstance(event, HandEnded):
                await self._record_hand(event)
            elif isinstance(event, PlayerLeft):
                await self._cash_out(event.seat, event.chips)
            elif isinstance(event, SatOut) and event.reason == "busted":
                s = self.seats.get(event.seat)
                if s is not None and s.bot is not None:
                    await self._bot_rebuy(s)
        await self._next_turn()

    async def _next_turn(self) -> None:
        """Carry out pre-actions, then start the clock for the player to act (or
        schedule the next hand)."""
        while True:
            hand = self.hand
            if hand is None or hand.is_over:
                if self.timer:
                    self.timer.cancel()
                self._schedule_next_hand(self.config.between_hands_s)
                return
            legal = hand.legal_actions()
            assert legal is not None
            s = self.seats[legal.seat]
            pre = self._pre_action_for(s, hand)
            if pre is None:
                break
            await self._publish_and_settle_once(self.table.act(pre, time.monotonic()))
        self.turn_token += 1
        clock = float(self.rules.draw_time_s) if legal.draw else self.config.action_time_s
        self.turn_deadline = time.monotonic() + clock
        if self.timer:
            self.timer.cancel()
        self.timer = self._later(clock, self._clock_ran_out, self.turn_token)
        self._table_event(
            "Turn", seat=legal.seat, street=str(legal.street), clock_s=clock, hand_id=hand.hand_id
        )
        self._table_event(
            "Legal", audience=s.account.id, hand_id=hand.hand_id, legal=legal.to_dict()
        )
        if s.bot is not None:
            lo, hi = self.config.bot_think_s
            self._later(self.rng.uniform(lo, hi), self._bot_turn, self.turn_token)

    async def _publish_and_settle_once(self, events: list[Event]) -> None:
        """As ``_publish_and_settle`` without starting the next turn (the caller loops)."""
        self._events(events)
        for event in events:
            if isinstance(event, HandEnded):
                await self._record_hand(event)
            elif isinstance(event, PlayerLeft):
                await self._cash_out(event.seat, event.chips)
            elif isinstance(event, SatOut) and event.reason == "busted":
                s = self.seats.get(event.seat)
                if s is not None and s.bot is not None:
                    await self._bot_rebuy(s)

    def _pre_action_for(self, s: SeatState, hand: Hand) -> Action | None:
        legal = hand.legal_actions()
        assert legal is not None
        pre = s.pre_draw if legal.draw else s.pre
        if pre is None:
            return None  # a held draw waits for the draw, betting pre-actions for betting
        chosen: Action | None = None
        if legal.draw:
            s.pre_draw = None
            if all(c in legal.hand for c in pre.cards):
                chosen = Action.draw(s.seat, pre.cards)
        else:
            s.pre = None
            same = pre.mark == self.wager_mark and pre.street == legal.street
            if pre.kind == "call_any" and pre.street == legal.street:
                chosen = Action.call(s.seat) if legal.call else Action.check(s.seat)
            elif same and pre.kind == "check" and legal.check:
                chosen = Action.check(s.seat)
            elif same and pre.kind == "check_fold":
                chosen = Action.check(s.seat) if legal.check else Action.fold(s.seat)
        if chosen is None:
            self._table_event(
                "PreActionCancelled", audience=s.account.id, pre=pre.kind, hand_id=hand.hand_id
            )
        return chosen

    async def _clock_ran_out(self, token: int) -> None:
        hand = self.hand
        if token != self.turn_token or hand is None or hand.is_over:
            return
        seat = hand.to_act
        assert seat is not None
        s = self.seats[seat]
        if hand.street is not Street.DRAW and s.time_bank >= 1.0:
            spend = s.time_bank
            s.time_bank = 0.0
            self.turn_token += 1
            self.turn_deadline = time.monotonic() + spend
            self.timer = self._later(spend, self._clock_ran_out, self.turn_token)
            self._table_event("TimeBank", seat=seat, seconds=round(spend, 1), hand_id=hand.hand_id)
            return
        if hand.street is Street.DRAW:
            s.pre_draw = None
        else:
            s.pre = None
        await self._publish_and_settle(self.table.timeout(seat, time.monotonic()))

    async def _bot_turn(self, token: int) -> None:
        hand = self.hand
        if token != self.turn_token or hand is None or hand.is_over:
            return
        legal = hand.legal_actions()
        assert legal is not None
        s = self.seats[legal.seat]
        if s.bot is None:
            return
        try:
            action = s.bot.decide(hand.view(legal.seat), legal, hand.events_for(legal.seat))
            hand.validate(action)
        except (DrawPokerError, ValueError, KeyError, IndexError):
            log.exception("table %s: bot at seat %s failed; it checks or folds", self.id, s.seat)
            action = Action.timeout(legal.seat)
        await self._publish_and_settle(self.table.act(action, time.monotonic()))

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

        def refill(c: Connection) -> None:
            have = ledger.balance(c, ledger.player(account_id))
            if have < amount:
                ledger.transfer(
                    c, "bot-refill", ledger.BANK, ledger.player(account_id), amount - have
                )

        await self.store.run(refill)
        await self._top_up(s, amount)
        self._events(self.table.sit_in(s.seat, post=False))

    # ----------------------------------------------------------- actions

    def _check_action(self, s: SeatState, hand_id: str, action_id: str) -> Hand:
        if action_id in s.action_ids:
            raise TableError("duplicate_action", f"action id {action_id!r} was already used")
        hand = self.hand
        if hand is None or hand.is_over or hand.hand_id != hand_id:
            current = hand.hand_id if hand is not None and not hand.is_over else "none"
            raise TableError(
                "stale_hand", f"hand {hand_id!r} is not in play (current hand: {current})"
            )
        if not self._in_hand(s):
            raise TableError("not_in_hand", "you are not dealt into this hand")
        return hand

    async def act(self, conn: Conn, msg: protocol.Act) -> dict[str, Any]:
        s = self._need_seat(conn)
        hand = self._check_action(s, msg.hand_id, msg.action_id)
        kind = msg.action
        if kind in ("bet", "raise"):
            if msg.amount is None:
                raise TableError("bad_amount", f"{kind} needs an amount: the total to {kind} to")
            action = Action.bet(s.seat, msg.amount)
        else:
            if msg.amount is not None:
                raise TableError("bad_amount", f"{kind} takes no amount")
            action = {"fold": Action.fold, "check": Action.check, "call": Action.call}[kind](s.seat)
        return await self._perform(s, hand, action, msg.action_id)

    async def draw(self, conn: Conn, msg: protocol.Draw) -> dict[str, Any]:
        s = self._need_seat(conn)
        hand = self._check_action(s, msg.hand_id, msg.action_id)
        action = Action.draw(s.seat, _cards(msg.discard))
        return await self._perform(s, hand, action, msg.action_id)

    async def _perform(
        self, s: SeatState, hand: Hand, action: Action, action_id: str
    ) -> dict[str, Any]:
        try:
            hand.validate(action)
        except IllegalAction as error:
            raise TableError("illegal_action", str(error)) from None
        s.action_ids.append(action_id)
        if action.kind == "draw":
            s.pre_draw = None
        else:
            s.pre = None  # a held draw stays for the draw
        await self._publish_and_settle(self.table.act(action, time.monotonic()))
        return {"action_id": action_id}

    async def pre_action(self, conn: Conn, msg: protocol.PreAction) -> dict[str, Any]:
        s = self._need_seat(conn)
        hand = self.hand
        if hand is None or hand.is_over or hand.hand_id != msg.hand_id:
            raise TableError("stale_hand", f"hand {msg.hand_id!r} is not in play")
        if not self._in_hand(s):
            raise TableError("not_in_hand", "you are not dealt into this hand")
        if msg.pre == "clear":
            s.pre = s.pre_draw = None
            return {"pre": None}
        cards: tuple[int, ...] = ()
        player = hand.player(s.seat)
        if player.folded:
            raise TableError("not_in_hand", "you have folded")
        if msg.pre == "draw":
            if hand.street not in (Street.PRE_DRAW, Street.DRAW) or player.drew is not None:
                raise TableError("illegal_action", "the draw is over for you")
            cards = _cards(msg.discard)
            if len(cards) > self.rules.max_discard:
                raise TableError(
                    "illegal_action", f"you may discard at most {self.rules.max_discard} cards"
                )
            missing = [c for c in cards if c not in player.cards]
            if missing:
                raise TableError("illegal_action", f"you do not hold {format_cards(missing)}")
        elif hand.street not in (Street.PRE_DRAW, Street.POST_DRAW):
            raise TableError("illegal_action", "betting pre-actions are for the betting rounds")
        elif msg.discard:
            raise TableError("bad_field", f"{msg.pre} takes no cards")
        pre = PreAct(msg.pre, cards, hand.hand_id, hand.street, self.wager_mark)
        if msg.pre == "draw":
            s.pre_draw = pre
        else:
            s.pre = pre
        if hand.to_act == s.seat:
            await self._next_turn()
        return {"pre": msg.pre}

    # ------------------------------------------------------------ lobby

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
            "players": [s.account.name for s in sorted(self.seats.values(), key=_seat_no)],
        }


def _seat_no(s: SeatState) -> int:
    return s.seat


def _rate(samples: list[tuple[float, int]], now: float) -> int:
    """Hands per hour over the last hour (extrapolated over the first minutes)."""
    if len(samples) < 2:
        return 0
    span = min(max(now - samples[0][0], 60.0), 3600.0)
    return int(len(samples) * 3600 / span)


def _cards(texts: list[str]) -> tuple[int, ...]:
    try:
        return tuple(parse_cards(texts))
    except (InvalidCards, InvalidAction) as error:
        raise TableError("bad_cards", str(error)) from None


def _pre_dict(s: SeatState | None) -> dict[str, Any] | None:
    """The pre-action a snapshot shows: the held draw first, else the betting one."""
    pre = None if s is None else s.pre_draw or s.pre
    if pre is None:
        return None
    return {"pre": pre.kind, "discard": format_cards(pre.cards).split()}
