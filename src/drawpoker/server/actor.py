"""One asyncio actor per table: it alone owns the table's state.

Commands (from connections, timers and bots) go through one queue and are
handled in order. The actor keeps a versioned log of what it sent: each entry
is public or private to one account, so a reconnecting client gets exactly the
entries it may see after the version it last saw, or a snapshot.

Money: seat stacks live in the ledger (``stack:<table>:<account>``); they
change only between hands (buy-in, top-up, cash-out) and in the one database
transaction that records a finished hand. A hand in progress moves nothing in
the database, so after a crash the stacks in the ledger are those from before
the hand: cancelling it returns every wagered chip to its seat.
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
from fractions import Fraction
from typing import Any, Protocol

from sqlalchemy import Connection, select

from drawpoker.actions import Action, LegalActions
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
    Raised,
    Street,
)
from drawpoker.hand import Hand
from drawpoker.rules import Rules
from drawpoker.server import ledger, protocol
from drawpoker.server.auth import Account
from drawpoker.server.housebot import HouseBot, Policy
from drawpoker.server.store import Store, hand_players, hands, seats, tables

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


@dataclass(frozen=True, slots=True)
class TableConfig:
    id: str
    name: str
    rules: dict[str, Any]  # Rules.online/italian keyword arguments, "preset" included
    min_buy_in: int
    max_buy_in: int
    action_time_s: float = 15.0
    time_bank_s: float = 30.0
    disconnect_grace_s: float = 60.0
    sit_out_leave_s: float = 600.0
    between_hands_s: float = 2.0
    bots: int = 0
    bot_think_s: tuple[float, float] = (0.5, 1.5)
    kind: str = "cash"

    def build_rules(self) -> Rules:
        args = dict(self.rules)
        preset = args.pop("preset", "online")
        if "rake_percent" in args:
            args["rake_percent"] = Fraction(str(args["rake_percent"]))
        if "rake_caps" in args:
            args["rake_caps"] = tuple(tuple(c) for c in args["rake_caps"])
        return Rules.italian(**args) if preset == "italian" else Rules.online(**args)

    def to_json(self) -> str:
        data = {k: getattr(self, k) for k in self.__dataclass_fields__}
        return json.dumps(data)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableConfig:
        data = dict(data)
        if "bot_think_s" in data:
            data["bot_think_s"] = tuple(data["bot_think_s"])
        return cls(**data)


@dataclass(slots=True)
class PreAct:
    kind: str  # check_fold, check, call_any, draw
    cards: tuple[int, ...]
    hand_id: str
    street: Street
    mark: int  # the table's wager mark when it was set


@dataclass(slots=True)
class SeatState:
    seat: int
    account: Account
    stack: int
    bot: Policy | None = None
    connections: int = 0
    sitting_out: bool = False
    leaving: bool = False
    pending_topup: int = 0
    time_bank: float = 0.0
    pre: PreAct | None = None
    action_ids: deque[str] = field(default_factory=lambda: deque(maxlen=256))
    away_since: float | None = None  # disconnected since (monotonic)
    out_since: float | None = None  # sitting out since (monotonic)


Command = tuple[Callable[..., Awaitable[Any]], tuple[Any, ...], "asyncio.Future[Any] | None"]


class TableActor:
    def __init__(
        self,
        config: TableConfig,
        store: Store,
        *,
        on_change: Callable[[], None] | None = None,
        bot_factory: Callable[[], Policy] = HouseBot,
    ) -> None:
        self.config = config
        self.id = config.id
        self.rules = config.build_rules()
        self.store = store
        self.on_change = on_change or (lambda: None)
        self.bot_factory = bot_factory
        self.queue: asyncio.Queue[Command] = asyncio.Queue()
        self.seats: dict[int, SeatState] = {}
        self.hand: Hand | None = None
        self.hand_accounts: dict[int, int] = {}  # seat -> account id, this hand
        self.button = 0
        self.carried = 0  # Italian: chips left on the table
        self.engine_seq = 1
        self.v = 0
        self.epoch = secrets.token_hex(4)
        self.log: deque[tuple[int, int | None, str]] = deque(maxlen=LOG_SIZE)
        self.watchers: dict[Conn, int | None] = {}  # connection -> account id (None: anonymous)
        self.turn_token = 0
        self.turn_deadline = 0.0
        self.wager_mark = 0
        self.hand_number = 0
        self.next_hand_at: asyncio.TimerHandle | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.task: asyncio.Task[None] | None = None
        self.recent_hands: deque[tuple[float, int]] = deque(maxlen=200)  # (time, pot)
        self.rng = random.Random()
        self.stopped = False

    # ------------------------------------------------------------ plumbing

    async def start(self) -> None:
        await self.store.run(self._load)
        for _ in range(self.config.bots - sum(1 for s in self.seats.values() if s.bot)):
            free = self._free_seat()
            if free is None:
                break
            await self._seat_bot(free)
        self.task = asyncio.create_task(self._loop(), name=f"table-{self.id}")
        self._schedule_next_hand(0.5)
        now = time.monotonic()
        for s in self.seats.values():
            if s.bot is None:  # restored after a restart: nobody is connected yet
                s.away_since = now
                self._later(self.config.disconnect_grace_s, self._grace_over, s.account.id)

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

    def _engine_events(self, events: list[Event]) -> None:
        for event in events:
            if event.visible_to == SERVER:
                continue
            if event.visible_to == EVERYONE:
                audience = None
            else:
                audience = self.hand_accounts.get(event.visible_to, -1)
            if isinstance(event, BetPlaced | Raised | BettingRoundEnded):
                self.wager_mark += 1
            self._publish(audience, protocol.event_dict(event))
        self.engine_seq = events[-1].seq + 1 if events else self.engine_seq

    def snapshot(self, account_id: int | None) -> dict[str, Any]:
        seat_of = self._seat_of(account_id)
        viewer = seat_of.seat if seat_of is not None else EVERYONE
        hand = self.hand
        hand_view: dict[str, Any] | None = None
        if hand is not None and not hand.is_over:
            if viewer != EVERYONE and viewer not in self.hand_accounts:
                viewer_in_hand = EVERYONE
            else:
                viewer_in_hand = viewer
            hand_view = hand.view(viewer_in_hand)
            legal = hand_view.get("legal")
            hand_view["legal"] = protocol.legal_dict(legal) if legal is not None else None
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
            "button": self.button,
            "carried_pot": self.carried,
            "you": None if seat_of is None else seat_of.seat,
            "pre_action": None
            if seat_of is None or seat_of.pre is None
            else {"pre": seat_of.pre.kind, "discard": format_cards(seat_of.pre.cards).split()},
            "seats": [
                self._seat_public(s) for s in sorted(self.seats.values(), key=lambda s: s.seat)
            ],
            "hand": hand_view,
        }

    def _seat_public(self, s: SeatState) -> dict[str, Any]:
        return {
            "seat": s.seat,
            "name": s.account.name,
            "stack": s.stack,
            "sitting_out": s.sitting_out,
            "connected": s.bot is not None or s.connections > 0,
            "bot": s.bot is not None,
            "time_bank": round(s.time_bank, 1),
        }

    # ---------------------------------------------------------- watchers

    async def watch(self, conn: Conn, since: int | None, epoch: str | None) -> dict[str, Any]:
        account_id = conn.account.id if conn.account else None
        first = True
        if conn in self.watchers:
            first = False
        self.watchers[conn] = account_id
        s = self._seat_of(account_id)
        if s is not None and first:
            s.connections += 1
            s.away_since = None
        oldest = self.log[0][0] if self.log else self.v + 1
        if since is not None and epoch == self.epoch and since <= self.v and since + 1 >= oldest:
            missed = [text for v, aud, text in self.log if v > since and aud in (None, account_id)]
            for text in missed:
                conn.send(text)
            return {"replayed": len(missed), "v": self.v, "epoch": self.epoch}
        conn.send(
            protocol.frame(
                {
                    "type": "snapshot",
                    "table": self.id,
                    "v": self.v,
                    "state": self.snapshot(account_id),
                }
            )
        )
        return {"snapshot": True, "v": self.v, "epoch": self.epoch}

    async def unwatch(self, conn: Conn) -> None:
        account_id = self.watchers.pop(conn, None)
        s = self._seat_of(account_id)
        if s is not None and s.bot is None:
            s.connections = max(0, s.connections - 1)
            if s.connections == 0:
                s.away_since = time.monotonic()
                self._later(self.config.disconnect_grace_s, self._grace_over, s.account.id)

    async def _grace_over(self, account_id: int) -> None:
        """Disconnect grace over: the player sits out; much later they leave."""
        s = self._seat_of(account_id)
        if s is None or s.connections or s.away_since is None:
            return
        away = time.monotonic() - s.away_since
        if away + 0.05 < self.config.disconnect_grace_s:
            return
        if not s.sitting_out:
            s.sitting_out = True
            s.out_since = time.monotonic()
            self._table_event("SatOut", seat=s.seat, reason="disconnected")
            self.on_change()
        self._later(self.config.sit_out_leave_s, self._left_too_long, account_id)

    async def _left_too_long(self, account_id: int) -> None:
        s = self._seat_of(account_id)
        if s is None or s.connections or not s.sitting_out or s.out_since is None:
            return
        if time.monotonic() - s.out_since + 0.05 >= self.config.sit_out_leave_s:
            await self._request_leave(s)

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

    def _load(self, conn: Connection) -> None:
        """Create the table row, or restore its seats and stacks after a restart."""
        row = conn.execute(select(tables.c.hand_number).where(tables.c.id == self.id)).first()
        if row is None:
            conn.execute(
                tables.insert().values(id=self.id, config=self.config.to_json(), hand_number=0)
            )
        else:
            self.hand_number = int(row[0])
            conn.execute(
                tables.update().where(tables.c.id == self.id).values(config=self.config.to_json())
            )
        self.carried = ledger.balance(conn, ledger.carry(self.id))
        from drawpoker.server.store import accounts

        rows = conn.execute(
            select(seats.c.seat, accounts.c.id, accounts.c.name, accounts.c.kind)
            .join(accounts, accounts.c.id == seats.c.account_id)
            .where(seats.c.table_id == self.id)
        ).all()
        for seat, account_id, name, kind in rows:
            account = Account(int(account_id), name, kind)
            chips = ledger.balance(conn, ledger.stack(self.id, account.id))
            self.seats[int(seat)] = SeatState(
                seat=int(seat),
                account=account,
                stack=chips,
                bot=self.bot_factory() if kind == "bot" else None,
                time_bank=self.config.time_bank_s,
                sitting_out=chips == 0,
            )

    async def _seat_bot(self, seat: int) -> None:
        name = f"bot-{self.id}-{seat}"
        buy_in = self.config.max_buy_in

        def txn(conn: Connection) -> Account:
            from drawpoker.server.auth import ensure_bot

            account = ensure_bot(conn, name)
            have = ledger.balance(conn, ledger.player(account.id))
            if have < buy_in:
                ledger.transfer(
                    conn, "bot-refill", ledger.BANK, ledger.player(account.id), buy_in - have
                )
            self._buy_in_txn(conn, account.id, seat, buy_in)
            return account

        account = await self.store.run(txn)
        self.seats[seat] = SeatState(
            seat=seat,
            account=account,
            stack=buy_in,
            bot=self.bot_factory(),
            time_bank=self.config.time_bank_s,
        )

    def _buy_in_txn(self, conn: Connection, account_id: int, seat: int, amount: int) -> None:
        conn.execute(seats.insert().values(table_id=self.id, seat=seat, account_id=account_id))
        ledger.transfer(
            conn,
            "buy-in",
            ledger.player(account_id),
            ledger.stack(self.id, account_id),
            amount,
            ref=self.id,
        )

    async def sit(self, conn: Conn, seat: int, buy_in: int) -> dict[str, Any]:
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

        def txn(c: Connection) -> None:
            self._buy_in_txn(c, account.id, seat, buy_in)

        try:
            await self.store.run(txn)
        except ledger.InsufficientFunds as error:
            raise TableError("insufficient_funds", str(error)) from None
        s = SeatState(seat=seat, account=account, stack=buy_in, time_bank=self.config.time_bank_s)
        s.connections = sum(1 for a in self.watchers.values() if a == account.id)
        if conn not in self.watchers:
            await self.watch(conn, None, None)
            s.connections = 1
        self.seats[seat] = s
        self._table_event("SeatTaken", seat=seat, name=account.name, stack=buy_in)
        self.on_change()
        if self.hand is None:
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
        return (
            self.hand is not None
            and not self.hand.is_over
            and self.hand_accounts.get(s.seat) == s.account.id
        )

    async def top_up(self, conn: Conn, amount: int) -> dict[str, Any]:
        s = self._need_seat(conn)
        room = self.config.max_buy_in - s.stack - s.pending_topup
        if amount > room:
            raise TableError(
                "bad_amount",
                f"you may add at most {max(room, 0)} chips "
                f"(the maximum stack is {self.config.max_buy_in})",
            )
        if self._in_hand(s):
            # Checked now, moved after the hand (R9: between hands only).
            have = await self.store.run(lambda c: ledger.balance(c, ledger.player(s.account.id)))
            if have < amount + s.pending_topup:
                raise TableError(
                    "insufficient_funds", f"your balance is {have} chips, {amount} are needed"
                )
            s.pending_topup += amount
            return {"pending": s.pending_topup}
        await self._move_topup(s, amount)
        return {"stack": s.stack}

    async def _move_topup(self, s: SeatState, amount: int) -> None:
        try:
            await self.store.run(
                lambda c: ledger.transfer(
                    c,
                    "top-up",
                    ledger.player(s.account.id),
                    ledger.stack(self.id, s.account.id),
                    amount,
                    ref=self.id,
                )
            )
        except ledger.InsufficientFunds as error:
            raise TableError("insufficient_funds", str(error)) from None
        s.stack += amount
        if s.sitting_out and s.out_since is None:
            s.sitting_out = False  # busted players come back when they top up
        self._table_event("ToppedUp", seat=s.seat, amount=amount, stack=s.stack)
        if self.hand is None:
            self._schedule_next_hand(self.config.between_hands_s)

    async def sit_out(self, conn: Conn) -> dict[str, Any]:
        s = self._need_seat(conn)
        if not s.sitting_out:
            s.sitting_out = True
            s.out_since = time.monotonic()
            self._table_event("SatOut", seat=s.seat, reason="asked")
            self.on_change()
        return {}

    async def sit_in(self, conn: Conn) -> dict[str, Any]:
        s = self._need_seat(conn)
        if s.stack == 0:
            raise TableError("no_chips", "top up before sitting in")
        if s.sitting_out:
            s.sitting_out = False
            s.out_since = None
            self._table_event("SatIn", seat=s.seat)
            self.on_change()
            if self.hand is None:
                self._schedule_next_hand(self.config.between_hands_s)
        return {}

    async def leave(self, conn: Conn) -> dict[str, Any]:
        s = self._need_seat(conn)
        return await self._request_leave(s)

    async def _request_leave(self, s: SeatState) -> dict[str, Any]:
        if self._in_hand(s):
            s.leaving = True
            s.pre = None
            if self.hand is not None and self.hand.to_act == s.seat:
                await self._act_now(s.seat, self._fold_or_check(s.seat))
            return {"leaving": True}
        await self._cash_out(s)
        return {"left": True}

    async def _cash_out(self, s: SeatState) -> None:
        amount = s.stack
        account_id = s.account.id

        def txn(c: Connection) -> None:
            c.execute(seats.delete().where(seats.c.table_id == self.id, seats.c.seat == s.seat))
            if amount:
                ledger.transfer(
                    c,
                    "cash-out",
                    ledger.stack(self.id, account_id),
                    ledger.player(account_id),
                    amount,
                    ref=self.id,
                )

        await self.store.run(txn)
        del self.seats[s.seat]
        self._table_event("SeatLeft", seat=s.seat, name=s.account.name, cashed_out=amount)
        self.on_change()

    async def chat(self, conn: Conn, text: str) -> dict[str, Any]:
        account = self._need_account(conn)
        self._table_event("Chat", name=account.name, text=text)
        return {}

    # ------------------------------------------------------------ hands

    def _schedule_next_hand(self, delay: float) -> None:
        if self.next_hand_at is not None or self.stopped:
            return
        self.next_hand_at = self._later(delay, self._start_hand)

    def _eligible(self) -> list[SeatState]:
        return [
            s for s in self.seats.values() if not s.sitting_out and not s.leaving and s.stack > 0
        ]

    async def _start_hand(self) -> None:
        self.next_hand_at = None
        if self.hand is not None and not self.hand.is_over:
            return
        players = self._eligible()
        if len(players) < 2:
            self.hand = None
            return
        n = self.rules.max_seats
        taken = sorted(s.seat for s in players)
        self.button = next((x for x in taken if x > self.button), taken[0]) if taken else 1
        self.hand_number += 1
        hand_id = f"{self.id}-{self.hand_number}"
        seed = new_seed()
        stacks = {s.seat: s.stack for s in players}
        self.hand_accounts = {s.seat: s.account.id for s in players}
        record = {str(s.seat): [s.account.id, s.stack] for s in players}
        number = self.hand_number

        def txn(c: Connection) -> None:
            c.execute(tables.update().where(tables.c.id == self.id).values(hand_number=number))
            c.execute(
                hands.insert().values(
                    id=hand_id,
                    table_id=self.id,
                    status="running",
                    started_at=time.time(),
                    players=json.dumps(record),
                    commitment=commitment(seed),
                    seed=seed.hex(),
                    pot=0,
                    rake=0,
                )
            )

        await self.store.run(txn)
        for s in players:
            s.pre = None
        assert 1 <= self.button <= n
        self.hand = Hand(
            self.rules,
            stacks,
            self.button,
            seed=seed,
            carried_pot=self.carried,
            hand_id=hand_id,
            first_seq=self.engine_seq,
        )
        self._engine_events(self.hand.events)
        self.on_change()
        await self._next_turn()

    async def _next_turn(self) -> None:
        """After every change: finish the hand, or start the next player's turn."""
        hand = self.hand
        while hand is not None and not hand.is_over:
            seat = hand.to_act
            assert seat is not None
            s = self.seats[seat]
            pre = self._pre_action_for(s, hand)
            if pre is None and s.leaving:
                pre = self._fold_or_check(seat)
            if pre is None:
                break
            self._apply(pre)
        if hand is None:
            return
        if hand.is_over:
            await self._finish_hand()
            return
        legal = hand.legal_actions()
        assert legal is not None
        s = self.seats[legal.seat]
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
            "Legal", audience=s.account.id, hand_id=hand.hand_id, legal=protocol.legal_dict(legal)
        )
        if s.bot is not None:
            lo, hi = self.config.bot_think_s
            self._later(self.rng.uniform(lo, hi), self._bot_turn, self.turn_token)

    def _fold_or_check(self, seat: int) -> Action:
        legal = self.hand.legal_actions() if self.hand else None
        if legal is not None and legal.draw:
            return Action.stand_pat(seat)
        if legal is not None and legal.fold:
            return Action.fold(seat)
        return Action.check(seat)

    def _pre_action_for(self, s: SeatState, hand: Hand) -> Action | None:
        pre = s.pre
        if pre is None:
            return None
        legal = hand.legal_actions()
        assert legal is not None
        chosen: Action | None = None
        if pre.kind == "draw":
            if legal.draw:
                s.pre = None
                if all(c in legal.hand for c in pre.cards):
                    chosen = Action.draw(s.seat, pre.cards)
            else:
                return None  # waits for the draw
        else:
            if legal.draw:
                return None  # betting pre-actions wait for a betting turn
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

    def _apply(self, action: Action) -> None:
        assert self.hand is not None
        events = self.hand.act(action)
        self._engine_events(events)

    async def _act_now(self, seat: int, action: Action) -> None:
        self._apply(action)
        await self._next_turn()

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
        await self._act_now(seat, Action.timeout(seat))

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
        except (DrawPokerError, ValueError):
            action = self._fold_or_check(legal.seat)
        await self._act_now(legal.seat, action)

    async def _finish_hand(self) -> None:
        hand = self.hand
        assert hand is not None
        if self.timer:
            self.timer.cancel()
        result = hand.result
        start = {p.seat: p.start for p in hand.players}
        entries: list[tuple[str, int]] = []
        for seat, account_id in self.hand_accounts.items():
            delta = result.stacks[seat] - start[seat]
            entries.append((ledger.stack(self.id, account_id), delta))
        if result.rake:
            entries.append((ledger.RAKE, result.rake))
        carry_delta = result.carried_pot - self.carried
        if carry_delta:
            entries.append((ledger.carry(self.id), carry_delta))
        history = json.dumps([[e.visible_to, protocol.event_dict(e)] for e in hand.events])
        pot = sum(amount for amount, _ in result.pots) + result.rake
        hand_id = hand.hand_id
        accounts = dict(self.hand_accounts)

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
                    rake=result.rake,
                )
            )
            c.execute(
                hand_players.insert(),
                [
                    {"hand_id": hand_id, "account_id": a, "net": result.net[seat]}
                    for seat, a in accounts.items()
                ],
            )

        await self.store.run(txn)
        for seat, chips in result.stacks.items():
            self.seats[seat].stack = chips
        self.carried = result.carried_pot
        self.recent_hands.append((time.monotonic(), pot))
        self.hand = None
        for s in list(self.seats.values()):
            s.pre = None
            if s.leaving:
                await self._cash_out(s)
                continue
            if s.pending_topup:
                amount, s.pending_topup = s.pending_topup, 0
                try:
                    await self._move_topup(s, amount)
                except TableError as error:
                    self._table_event("TopUpFailed", audience=s.account.id, message=str(error))
            if s.stack == 0:
                if s.bot is not None:
                    await self._bot_rebuy(s)
                elif not s.sitting_out:
                    s.sitting_out = True
                    self._table_event("SatOut", seat=s.seat, reason="no chips")
            s.time_bank = min(self.config.time_bank_s, s.time_bank + 2.0)
        self.on_change()
        self._schedule_next_hand(self.config.between_hands_s)

    async def _bot_rebuy(self, s: SeatState) -> None:
        amount = self.config.max_buy_in
        account_id = s.account.id

        def txn(c: Connection) -> None:
            have = ledger.balance(c, ledger.player(account_id))
            if have < amount:
                ledger.transfer(
                    c, "bot-refill", ledger.BANK, ledger.player(account_id), amount - have
                )
            ledger.transfer(
                c,
                "top-up",
                ledger.player(account_id),
                ledger.stack(self.id, account_id),
                amount,
                ref=self.id,
            )

        await self.store.run(txn)
        s.stack = amount
        self._table_event("ToppedUp", seat=s.seat, amount=amount, stack=s.stack)

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
        s.pre = None
        await self._act_now(s.seat, action)
        return {"action_id": action_id}

    async def pre_action(self, conn: Conn, msg: protocol.PreAction) -> dict[str, Any]:
        s = self._need_seat(conn)
        hand = self.hand
        if hand is None or hand.is_over or hand.hand_id != msg.hand_id:
            raise TableError("stale_hand", f"hand {msg.hand_id!r} is not in play")
        if not self._in_hand(s):
            raise TableError("not_in_hand", "you are not dealt into this hand")
        if msg.pre == "clear":
            s.pre = None
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
        s.pre = PreAct(msg.pre, cards, hand.hand_id, hand.street, self.wager_mark)
        if hand.to_act == s.seat:
            await self._next_turn()
        return {"pre": msg.pre}

    # ------------------------------------------------------------ lobby

    def summary(self) -> dict[str, Any]:
        rules = self.rules
        now = time.monotonic()
        last_hour = [(t, pot) for t, pot in self.recent_hands if t > now - 3600]
        pots = [pot for _, pot in list(self.recent_hands)[-50:]]
        return {
            "id": self.id,
            "name": self.config.name,
            "kind": self.config.kind,
            "game": "italian" if rules.is_italian else "draw",
            "structure": str(rules.structure),
            "stakes": f"{rules.invito}"
            if rules.is_italian
            else f"{rules.small_blind}/{rules.big_blind}",
            "description": rules.summary(),
            "seats_taken": len(self.seats),
            "seats_total": rules.max_seats,
            "min_buy_in": self.config.min_buy_in,
            "max_buy_in": self.config.max_buy_in,
            "average_pot": sum(pots) // len(pots) if pots else 0,
            "hands_per_hour": len(last_hour)
            if last_hour and now - last_hour[0][0] > 600
            else _rate(last_hour, now),
            "players": [s.account.name for s in sorted(self.seats.values(), key=lambda s: s.seat)],
        }


def _rate(samples: list[tuple[float, int]], now: float) -> int:
    """Hands per hour extrapolated from under ten minutes of play."""
    if len(samples) < 2:
        return 0
    span = max(now - samples[0][0], 60.0)
    return int(len(samples) * 3600 / span)


def _cards(texts: list[str]) -> tuple[int, ...]:
    try:
        return tuple(parse_cards(texts))
    except (InvalidCards, InvalidAction) as error:
        raise TableError("bad_cards", str(error)) from None


def cancel_unfinished(conn: Connection) -> list[dict[str, Any]]:
    """Start-up: cancel every hand left running by a crash. No chip moved in the
    ledger during the hand, so each seat's stack is already what it was before
    the hand (every wagered chip back to its seat); record that."""
    cancelled = []
    for hand_id, players_json in conn.execute(
        select(hands.c.id, hands.c.players).where(hands.c.status == "running")
    ).all():
        players = json.loads(players_json)
        returned = {seat: stack for seat, (_, stack) in players.items()}
        conn.execute(
            hands.update()
            .where(hands.c.id == hand_id)
            .values(status="cancelled", ended_at=time.time())
        )
        ledger.post(
            conn,
            "hand-cancelled",
            [],
            ref=hand_id,
            memo={"reason": "server restart", "stacks_restored": returned},
        )
        cancelled.append({"hand_id": hand_id, "stacks": returned})
    return cancelled


_ = (HandEnded, HandStarted, LegalActions)
