"""A cash table's desk: the room layer's ``CashTable`` and its money in the ledger.

Seat stacks live in the ledger (``stack:<table>:<account>``, a held top-up
included). They change at a buy-in, top-up or cash-out, and in the one database
transaction that records a finished hand; each of those transactions also saves
the table (``CashTable.to_dict``). A hand in progress moves nothing in the
database, so after a crash the saved table and the ledger both hold the stacks
from before the hand: restoring cancels it and every wagered chip is back at
its seat.

Operators pause, close and change the table through its ``operators`` helper;
the desk keeps the status (``open``, ``paused``, ``closing``, ``closed``) that
decides whether a hand is dealt and a seat may be taken.

Away players: a seated player with no connection watching is shown disconnected
and their clock runs as usual; after ``disconnect_grace_s`` they sit out, and
after ``sit_out_leave_s`` away they leave and the stack returns to the balance.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import msgspec
from sqlalchemy import Connection, select

from drawpoker.events import Event, HandEnded, PotAwarded, PotCarried
from drawpoker.protocol import client
from drawpoker.protocol.server import SeatInfo, SeatOffer, TableRow
from drawpoker.protocol.stakes import stakes_of
from drawpoker.room import CashTable, RoomError
from drawpoker.room.events import PlayerLeft, SatOut
from drawpoker.room.session import TableSession
from drawpoker.server import hand_records, ledger
from drawpoker.server.auth import Account, ensure_bot
from drawpoker.server.bus import Bus
from drawpoker.server.errors import TableError
from drawpoker.server.housebot import HouseBot, Policy
from drawpoker.server.store import Records, accounts, seats, tables
from drawpoker.server.table.actor import Player, TableActor
from drawpoker.server.table.operators import Operators
from drawpoker.server.tableconfig import TableConfig

if TYPE_CHECKING:
    from drawpoker.rules import Rules

log = logging.getLogger("drawpoker.server.table")


def make_policy(kind: str, seat: int, rules: Rules) -> Policy:
    """A bot by name: ``house`` (the server's own) or one of ``drawpoker.bots``."""
    if kind == "house":
        return HouseBot(rules)
    from drawpoker.bots import make_bot

    bot = make_bot(kind, seed=secrets.token_bytes(16))
    bot.sit(seat, rules)
    return bot


class CashDesk:
    """See the module docstring."""

    def __init__(self, config: TableConfig, store: Records, bus: Bus) -> None:
        self.config = config
        self.rules = config.build_rules()
        self.store = store
        self.table = CashTable(config.id, config.room_config(self.rules))
        session = TableSession(self.table, config.clock_config(self.rules))
        self.actor = TableActor(config.id, session, bus=bus, bot_think_s=config.bot_think_s)
        self.actor.desk = self
        self.actor.practice = config.practice
        self.recent_hands: deque[tuple[float, int]] = deque(maxlen=200)  # (time, pot)
        self.out_since: dict[int, float] = {}  # account id -> sitting out since (monotonic)
        self.auto_top_ups: dict[int, int] = {}  # account id -> the stack to top up to
        self.waiting: list[Account] = []  # the waiting list of the full table, in order
        self.offer: tuple[int, int, float] | None = None  # (account id, seat, until: monotonic)
        self._statuses: dict[int, tuple[str | None, bool, bool]] = {}  # the SeatStatus sent
        self._next_hand_due = False
        self._restored: list[Event] = []
        self.status = "open"  # open, paused, closing, closed (``operators``)
        self.on_closed: Callable[[], None] | None = None  # the room lets the table go
        self.new_config: TableConfig | None = None  # an operator's, for the next break
        self.operators = Operators(self)

    @property
    def session(self) -> TableSession:
        return self.actor.session

    # ------------------------------------------------------------ start

    async def start(self) -> None:
        """Create the table's row or restore it (a hand in play is cancelled, its
        chips back at their seats), seat the bots, then deal when players are there."""
        await self.store.run(self._load)
        self.session.dealer = self.table
        actor = self.actor
        actor.mailbox.start()
        now = time.monotonic()
        for player in actor.players.values():
            self.session.clock.seat(player.seat)
        if self._restored:
            await actor.call(actor.run, self.session.after(self._restored, now))
        await actor.call(self.bots_as_configured)
        await actor.call(self._nobody_connected_yet)
        if self.status == "closing":  # closed while the previous owner ran it
            await actor.call(self.operators.stand_everyone_up)

    async def bots_as_configured(self) -> None:
        """Seat bots up to the config's count, or stand the extra ones up."""
        if self.status == "closing":
            return
        bots = [p for _, p in sorted(self.actor.players.items()) if p.bot is not None]
        now = time.monotonic()
        for extra in bots[self.config.bots :]:
            await self.actor.run(self.session.after(self.table.leave(extra.seat, now), now))
        for i in range(self.config.bots - len(bots)):
            free = self._free_seat()
            if free is None:
                break
            kind = self.config.bot_kinds[(len(bots) + i) % len(self.config.bot_kinds)]
            await self._seat_bot(free, kind)

    async def _nobody_connected_yet(self) -> None:
        """After a restart nobody is watching: every person is away from now."""
        now = time.monotonic()
        for player in self.actor.players.values():
            if player.bot is None:
                player.away_since = now
                self.table.disconnect(player.seat, now)
                self.actor.mailbox.later(
                    self.config.disconnect_grace_s, self._grace_over, player.account.id
                )
        self.changed()
        self.deal_after(0.5)

    def _load(self, conn: Connection) -> None:
        """Create the table row, or restore the table after a restart: the saved
        room table (a hand in play is cancelled), checked against the ledger."""
        row = conn.execute(
            select(tables.c.state, tables.c.status).where(tables.c.id == self.config.id)
        ).first()
        if row is None:
            conn.execute(
                tables.insert().values(
                    id=self.config.id, config=self.config.to_json(), hand_number=0
                )
            )
        else:
            conn.execute(
                tables.update()
                .where(tables.c.id == self.config.id)
                .values(config=self.config.to_json())
            )
        if row is not None:
            self.status = row.status if row.status in ("paused", "closing") else "open"
        if row is not None and row[0]:
            saved = json.loads(row[0])
            saved["config"] = self.table.to_dict()["config"]
            self.table, self._restored = CashTable.from_dict(saved)
        rows = conn.execute(
            select(seats.c.seat, accounts.c.id, accounts.c.name, accounts.c.kind)
            .join(accounts, accounts.c.id == seats.c.account_id)
            .where(seats.c.table_id == self.config.id)
        ).all()
        kinds = self.config.bot_kinds
        for seat_no, account_id, name, kind in rows:
            seat = int(seat_no)
            account = Account(int(account_id), name, kind)
            chips = ledger.balance(conn, ledger.stack(self.config.id, account.id))
            room_seat = self.table.seats.get(seat)
            if room_seat is None or room_seat.player != str(account.id):
                log.error("table %s seat %s: not in the saved table; seating from the ledger",
                          self.config.id, seat)  # fmt: skip
                self.table.sit(str(account.id), seat, self.config.min_buy_in)
                room_seat = self.table.seats[seat]
                room_seat.stack = chips
            elif room_seat.stack + room_seat.pending_top_up != chips:
                saved_chips = room_seat.stack + room_seat.pending_top_up
                log.error("table %s seat %s: saved %s, ledger %s",
                          self.config.id, seat, saved_chips, chips)  # fmt: skip
                room_seat.stack, room_seat.pending_top_up = chips, 0
            bot = make_policy(kinds[seat % len(kinds)], seat, self.rules) if kind == "bot" else None
            self.actor.players[seat] = Player(seat, account, bot=bot)
        for seat in list(self.table.seats):
            if seat not in self.actor.players:  # the ledger has no such seat: drop it
                del self.table.seats[seat]
        self.table.carried_pot = ledger.balance(conn, ledger.carry(self.config.id))

    def _state(self) -> str:
        """The room's table as saved (``CashTable.to_dict`` as JSON)."""
        return msgspec.json.encode(self.table.to_dict()).decode()

    def _save(self, conn: Connection, state: str) -> None:
        """Save the room's table (``to_dict`` as JSON, taken in the actor) in the
        transaction of the money move it belongs to."""
        hand_records.save_table(conn, self.config.id, state)

    # ------------------------------------------------------------ what the actor asks

    def name(self) -> str:
        return self.config.name

    def facts(self, account_id: int | None) -> dict[str, Any]:
        offer = None
        if self.offer is not None and self.offer[0] == account_id:
            left = round(max(0.0, self.offer[2] - time.monotonic()), 1)
            offer = SeatOffer(seat=self.offer[1], until_s=left)
        return {
            **stakes_of(self.rules),
            "name": self.config.name,
            "rules": self.rules.summary(),
            "max_seats": self.rules.max_seats,
            "min_buy_in": self.config.min_buy_in,
            "max_buy_in": self.config.max_buy_in,
            "button": self.table.button,
            "carried_pot": self.table.carried_pot,
            "waiting_list": [a.name for a in self.waiting],
            "seat_offer": offer,
            "auto_top_up": None if account_id is None else self.auto_top_ups.get(account_id),
            "status": self.status,
        }

    def _waiting(self, seat: int) -> str | None:
        """How a seat not in the hand comes in: ``post``, ``big_blind``, ``next_hand``."""
        room_seat = self.table.seats[seat]
        if room_seat.sitting_out or seat in self.table.dealt_in():
            return None
        if room_seat.owe_big_blind:
            return "post" if room_seat.post else "big_blind"
        return "next_hand" if self.table.in_hand else None

    def _status(self, seat: int) -> tuple[str | None, bool, bool]:
        room_seat = self.table.seats[seat]
        return self._waiting(seat), bool(room_seat.pending_sit_out), room_seat.pending_leave

    def _statuses_changed(self) -> None:
        """A public ``SeatStatus`` for each seat whose way into the next hand changed."""
        now = {seat: self._status(seat) for seat in self.actor.players if seat in self.table.seats}
        for seat, status in now.items():
            if self._statuses.get(seat) != status:
                waiting, sit_out_next, leaving = status
                self.actor.log.publish(
                    None,
                    {"type": "SeatStatus", "seat": seat, "waiting": waiting,
                     "sit_out_next": sit_out_next, "leaving": leaving},
                )  # fmt: skip
        self._statuses = now

    def seat_info(self, player: Player) -> SeatInfo:
        room_seat = self.table.seats[player.seat]
        waiting = self._waiting(player.seat)
        return SeatInfo(
            seat=player.seat,
            name=player.account.name,
            stack=room_seat.stack,
            pending_top_up=room_seat.pending_top_up,
            sitting_out=room_seat.sitting_out,
            connected=not self.actor.is_away(player),
            bot=player.bot is not None,
            time_bank=self.actor.time_bank(player),
            waiting=waiting,
            sit_out_next=bool(room_seat.pending_sit_out),
            leaving=room_seat.pending_leave,
        )

    async def settle(self, events: list[Event]) -> None:
        """What follows from published events: a finished hand is recorded, who left
        is cashed out, a busted bot buys in again."""
        for event in events:
            if isinstance(event, HandEnded):
                await self._record_hand()
                await self._auto_top_ups()
            elif isinstance(event, PlayerLeft):
                await self._cash_out(event.seat, event.chips)
            elif isinstance(event, SatOut) and event.reason == "busted":
                player = self.actor.players.get(event.seat)
                if player is not None and player.bot is not None and self.status != "closing":
                    await self._bot_rebuy(player)

    def hand_over(self) -> None:
        self._statuses_changed()
        if self.status == "closing":
            self.actor.post(self.operators.stand_everyone_up)
        elif self.new_config is not None:
            self.actor.post(self.operators.apply_config)
        self.deal_after(self.config.between_hands_s)

    def ops(self) -> dict[str, Any]:
        """The messages only a cash table takes: its players' seat commands."""
        return {
            "sit": self.sit,
            "top_up": self.top_up,
            "sit_out": self.sit_out,
            "sit_in": self.sit_in,
            "leave": self.leave,
            "sit_out_next": self.sit_out_next,
            "auto_top_up": self.auto_top_up,
            "wait": self.wait,
            "unwait": self.unwait,
            "entropy": self.entropy,
            "pause": self.operators.pause,
            "close": self.operators.close,
            "reconfigure": self.operators.reconfigure,
        }

    async def away(self, player: Player) -> None:
        now = time.monotonic()
        await self.actor.run(self.session.after(self.table.disconnect(player.seat, now), now))
        self.actor.mailbox.later(
            self.config.disconnect_grace_s, self._grace_over, player.account.id
        )

    async def back(self, player: Player) -> None:
        self.actor.publish(list(self.table.reconnect(player.seat, time.monotonic())))

    # ------------------------------------------------------------ away players

    async def _grace_over(self, account_id: int) -> None:
        """Disconnect grace over: the player sits out; much later they leave."""
        player = self.actor.player_of(account_id)
        if player is None or player.away_since is None:
            return
        now = time.monotonic()
        if now - player.away_since + 0.05 < self.config.disconnect_grace_s:
            return
        await self.actor.run(self.session.after(self.table.sit_out(player.seat), now))
        self.out_since[account_id] = now
        self.changed()
        self.actor.mailbox.later(self.config.sit_out_leave_s, self._left_too_long, account_id)

    async def _left_too_long(self, account_id: int) -> None:
        player = self.actor.player_of(account_id)
        since = self.out_since.get(account_id)
        if player is None or player.away_since is None or since is None:
            return
        now = time.monotonic()
        if now - since + 0.05 >= self.config.sit_out_leave_s:
            await self.actor.run(self.session.after(self.table.leave(player.seat, now), now))

    # ------------------------------------------------------------ seats

    def _free_seat(self) -> int | None:
        players = self.actor.players
        return next((n for n in range(1, self.rules.max_seats + 1) if n not in players), None)

    async def _seat_bot(self, seat: int, kind: str) -> None:
        name = f"bot-{self.config.id}-{seat}"
        buy_in = self.config.max_buy_in

        def refill(conn: Connection) -> Account:
            account = ensure_bot(conn, name)
            ledger.refill_bot(conn, account.id, buy_in)
            return account

        account = await self.store.run(refill)
        player = Player(seat, account, bot=make_policy(kind, seat, self.rules))
        await self._sit(player, buy_in, post=False)

    async def _sit(self, player: Player, amount: int, *, post: bool) -> None:
        """Seat a player: the room's table first, then one database transaction with
        the seat, the chips and the saved table; undone if the transaction fails."""
        account, seat, table_id = player.account, player.seat, self.config.id
        try:
            events = self.table.sit(str(account.id), seat, amount, post=post)
        except RoomError as error:
            raise TableError("bad_seat", str(error)) from None
        state = self._state()

        def txn(c: Connection) -> None:
            c.execute(seats.insert().values(table_id=table_id, seat=seat, account_id=account.id))
            ledger.transfer(
                c, "buy-in", ledger.player(account.id), ledger.stack(table_id, account.id),
                amount, ref=table_id,
            )  # fmt: skip
            self._save(c, state)

        try:
            await self.store.run(txn)
        except Exception as error:
            del self.table.seats[seat]
            if isinstance(error, ledger.InsufficientFunds):
                raise TableError("insufficient_funds", str(error)) from None
            raise
        self.actor.players[seat] = player
        self.session.clock.seat(seat)
        self.actor.publish(list(events))
        self.changed()

    async def sit(self, account: Account | None, msg: client.Sit) -> dict[str, Any]:
        """Take a seat (the gateway then watches the table for the connection)."""
        account = self.actor.need_account(account)
        seat, buy_in, max_seats = msg.seat, msg.buy_in, self.operators.max_seats()
        self.operators.refuse_if_closing()
        if self.actor.player_of(account.id) is not None:
            raise TableError("already_seated", "you already have a seat at this table")
        if not 1 <= seat <= max_seats:
            raise TableError("bad_seat", f"seat {seat} does not exist; seats are 1-{max_seats}")
        if len(self.actor.players) >= max_seats:
            raise TableError("table_full", "the table is full")
        if seat in self.actor.players:
            raise TableError("seat_taken", f"seat {seat} is taken")
        offer = self._current_offer()
        if offer is not None and offer[1] == seat and offer[0] != account.id:
            raise TableError("seat_taken", f"seat {seat} is held for the first on the waiting list")
        if (
            offer is not None
            and offer[0] != account.id
            and len(self.actor.players) + 1 >= max_seats
        ):
            raise TableError("table_full", "the last seat is held for the waiting list")
        lo, hi = self.config.min_buy_in, self.config.max_buy_in
        if not lo <= buy_in <= hi:
            raise TableError("bad_amount", f"the buy-in is {lo} to {hi} chips, not {buy_in}")
        await self._sit(Player(seat, account), buy_in, post=msg.post)
        if offer is not None and offer[0] == account.id:
            self.offer = None
        self._leave_waiting_list(account.id)
        self.deal_after(self.config.between_hands_s)
        return {"seat": seat, "stack": buy_in}

    async def top_up(self, account: Account | None, msg: client.TopUp) -> dict[str, Any]:
        player = self.actor.need_player(account)
        await self._top_up(player, msg.amount)
        room_seat = self.table.seats[player.seat]
        return {"stack": room_seat.stack, "pending": room_seat.pending_top_up}

    async def _top_up(self, player: Player, amount: int) -> None:
        """Chips from the balance to the seat (held until the hand ends during a hand)."""
        room_seat = self.table.seats[player.seat]
        account_id, table_id = player.account.id, self.config.id
        before = (room_seat.stack, room_seat.pending_top_up)
        try:
            events = self.table.top_up(player.seat, amount)
        except RoomError as error:
            raise TableError("bad_amount", str(error)) from None
        state = self._state()

        def txn(c: Connection) -> None:
            ledger.transfer(
                c, "top-up", ledger.player(account_id), ledger.stack(table_id, account_id),
                amount, ref=table_id,
            )  # fmt: skip
            self._save(c, state)

        try:
            await self.store.run(txn)
        except Exception as error:
            room_seat.stack, room_seat.pending_top_up = before
            if isinstance(error, ledger.InsufficientFunds):
                raise TableError("insufficient_funds", str(error)) from None
            raise
        self.actor.publish(list(events))
        self.deal_after(self.config.between_hands_s)

    async def sit_out(self, account: Account | None, msg: client.SitOut) -> dict[str, Any]:
        player = self.actor.need_player(account)
        now = time.monotonic()
        await self.actor.run(self.session.after(self.table.sit_out(player.seat), now))
        self.out_since[player.account.id] = now
        self.changed()
        return {}

    async def sit_in(self, account: Account | None, msg: client.SitIn) -> dict[str, Any]:
        player = self.actor.need_player(account)
        try:
            events = self.table.sit_in(player.seat, post=msg.post)
        except RoomError as error:
            raise TableError("no_chips", str(error)) from None
        self.out_since.pop(player.account.id, None)
        await self.actor.run(self.session.after(events, time.monotonic()))
        self.changed()
        self.deal_after(self.config.between_hands_s)
        return {"waiting": self._waiting(player.seat)}

    async def leave(self, account: Account | None, msg: client.Leave) -> dict[str, Any]:
        player = self.actor.need_player(account)
        self.session.clear_pre_actions(player.seat)
        in_hand = self.actor.in_hand(player)
        now = time.monotonic()
        await self.actor.run(self.session.after(self.table.leave(player.seat, now), now))
        return {"leaving": True} if in_hand else {"left": True}

    async def _cash_out(self, seat: int, chips: int) -> None:
        player = self.actor.players.pop(seat)
        self.session.clock.unseat(seat)
        self.out_since.pop(player.account.id, None)
        account_id, table_id = player.account.id, self.config.id
        state = self._state()

        def txn(c: Connection) -> None:
            c.execute(seats.delete().where(seats.c.table_id == table_id, seats.c.seat == seat))
            have = ledger.balance(c, ledger.stack(table_id, account_id))
            if have != chips:
                log.error("table %s: %s leaves with %s, the ledger holds %s",
                          table_id, player.account.name, chips, have)  # fmt: skip
            if have:
                ledger.transfer(
                    c, "cash-out", ledger.stack(table_id, account_id), ledger.player(account_id),
                    have, ref=table_id,
                )  # fmt: skip
            self._save(c, state)

        await self.store.run(txn)
        self.changed()
        self._offer_seat()
        if self.status == "closing" and not self.actor.players:
            await self.operators.closed()

    async def _bot_rebuy(self, player: Player) -> None:
        amount = self.config.max_buy_in
        await self.store.run(ledger.refill_bot, player.account.id, amount)
        await self._top_up(player, amount)
        self.actor.publish(list(self.table.sit_in(player.seat, post=False)))

    async def sit_out_next(self, account: Account | None, msg: client.SitOutNext) -> dict[str, Any]:
        """Sit out from the next hand (or take that back, before the hand ends)."""
        player = self.actor.need_player(account)
        room_seat = self.table.seats[player.seat]
        now = time.monotonic()
        if msg.on:
            events = self.table.sit_out(player.seat)
            if room_seat.sitting_out:
                self.out_since[player.account.id] = now
        elif room_seat.pending_sit_out:
            room_seat.pending_sit_out = ""
            events = []
        else:
            events = []
        await self.actor.run(self.session.after(events, now))
        self.changed()
        return {"sit_out_next": bool(room_seat.pending_sit_out) or room_seat.sitting_out}

    async def auto_top_up(self, account: Account | None, msg: client.AutoTopUp) -> dict[str, Any]:
        """Top the stack up to ``amount`` between hands whenever it is below."""
        player = self.actor.need_player(account)
        if msg.amount is None:
            self.auto_top_ups.pop(player.account.id, None)
            return {"auto_top_up": None}
        lo, hi = self.config.min_buy_in, self.config.max_buy_in
        if not lo <= msg.amount <= hi:
            raise TableError("bad_amount", f"the target is {lo} to {hi} chips, not {msg.amount}")
        self.auto_top_ups[player.account.id] = msg.amount
        if not self.table.in_hand:
            await self._auto_top_up(player)
        return {"auto_top_up": msg.amount}

    async def _auto_top_ups(self) -> None:
        for player in list(self.actor.players.values()):
            if player.account.id in self.auto_top_ups:
                await self._auto_top_up(player)

    async def _auto_top_up(self, player: Player) -> None:
        room_seat = self.table.seats.get(player.seat)
        target = self.auto_top_ups.get(player.account.id)
        if room_seat is None or target is None:
            return
        short = target - room_seat.stack - room_seat.pending_top_up
        if short <= 0:
            return
        if room_seat.stack + room_seat.pending_top_up == 0:
            short = max(short, self.config.min_buy_in)  # a rebuy is at least the minimum
        try:
            await self._top_up(player, short)
        except TableError as problem:  # not enough chips: tell the player, keep the setting
            self.actor.log.publish(
                player.account.id,
                {"type": "AutoTopUpFailed", "amount": short, "reason": str(problem)},
            )

    async def wait(self, account: Account | None, msg: client.Wait) -> dict[str, Any]:
        account = self.actor.need_account(account)
        self.operators.refuse_if_closing()
        if self.actor.player_of(account.id) is not None:
            raise TableError("already_seated", "you already have a seat at this table")
        if len(self.actor.players) < self.rules.max_seats and self._current_offer() is None:
            raise TableError("not_full", "the table has a free seat: sit down")
        if all(a.id != account.id for a in self.waiting):
            self.waiting.append(account)
            self._waiting_list_changed()
        return {"position": 1 + [a.id for a in self.waiting].index(account.id)}

    async def entropy(self, account: Account | None, msg: client.Entropy) -> dict[str, Any]:
        """A seated player's random text for the next hand's deck seed."""
        player = self.actor.need_player(account)
        self.table.contribute(player.seat, msg.text)
        return {"next_commitment": self.table.next_commitment}

    async def unwait(self, account: Account | None, msg: client.Unwait) -> dict[str, Any]:
        account = self.actor.need_account(account)
        self._leave_waiting_list(account.id)
        if self.offer is not None and self.offer[0] == account.id:
            self.offer = None
            self._offer_seat()
        return {}

    def _leave_waiting_list(self, account_id: int) -> None:
        if any(a.id == account_id for a in self.waiting):
            self.waiting = [a for a in self.waiting if a.id != account_id]
            self._waiting_list_changed()

    def _waiting_list_changed(self) -> None:
        names = [a.name for a in self.waiting]
        self.actor.log.publish(None, {"type": "WaitingList", "names": names})
        self.changed()

    def _current_offer(self) -> tuple[int, int, float] | None:
        if self.offer is not None and self.offer[2] < time.monotonic():
            self.offer = None
        return self.offer

    def _offer_seat(self) -> None:
        """A seat is free: hold it for the first on the waiting list, for a while."""
        if self._current_offer() is not None or not self.waiting:
            return
        seat = self._free_seat()
        if seat is None:
            return
        account = self.waiting.pop(0)
        until = time.monotonic() + self.config.seat_offer_s
        self.offer = (account.id, seat, until)
        self._waiting_list_changed()
        self.actor.log.publish(
            account.id, {"type": "SeatOffered", "seat": seat, "until_s": self.config.seat_offer_s}
        )
        self.actor.mailbox.later(self.config.seat_offer_s + 0.1, self._offer_lapsed, account.id)

    async def _offer_lapsed(self, account_id: int) -> None:
        if self.offer is not None and self.offer[0] == account_id:
            seat = self.offer[1]
            self.offer = None
            self.actor.log.publish(account_id, {"type": "SeatOfferExpired", "seat": seat})
        self._offer_seat()

    # ------------------------------------------------------------ hands

    def deal_after(self, delay: float) -> None:
        due = self._next_hand_due or self.table.in_hand  # (a hand's end deals the next)
        if due or self.status != "open" or self.actor.mailbox.stopped:
            return
        self._next_hand_due = True
        self.actor.mailbox.later(delay, self._start_hand)

    async def _start_hand(self) -> None:
        self._next_hand_due = False
        if self.status != "open" or not self.table.can_start():
            return
        now = time.monotonic()
        events = self.table.start_hand(now)  # the seed: the room's, mixed with the players'
        seed = self.table.last_seed
        state = self._state()
        started = self.actor.started(events)
        accounts_in = self.actor.hand_accounts
        players = {str(seat): [accounts_in[seat], stack] for seat, stack in started.stacks}
        row = self.actor.hand_row(started.hand_id, players, seed)

        def txn(c: Connection) -> None:
            hand_records.dealt(c, row)
            self._save(c, state)

        await self.store.run(txn)
        await self.actor.run(self.session.after(events, now))

    async def _record_hand(self) -> None:
        """One database transaction: the hand's chip moves, its history, the saved table."""
        record = self.table.last_record
        assert record is not None
        table_id = self.config.id
        state = self._state()
        entries: list[tuple[str, int]] = [
            (ledger.stack(table_id, account_id), record.net[seat])
            for seat, account_id in self.actor.hand_accounts.items()
        ]
        if record.rake:
            entries.append((ledger.RAKE, record.rake))
        carry_delta = record.carried_out - record.carried_in
        if carry_delta:
            entries.append((ledger.carry(table_id), carry_delta))
        history = self.actor.history()
        hand_events = self.actor.hand_events
        pot = record.rake + sum(
            e.amount for e in hand_events if isinstance(e, PotAwarded | PotCarried)
        )
        hand_id = record.hand_id
        accounts_in = self.actor.hand_accounts
        nets = {account_id: record.net[seat] for seat, account_id in accounts_in.items()}

        def txn(c: Connection) -> None:
            ledger.post(c, "hand", entries, ref=hand_id)
            hand_records.finished(
                c, hand_id, ended_at=time.time(), history=history, pot=pot, rake=record.rake,
                nets=nets,
            )  # fmt: skip
            self._save(c, state)

        await self.store.run(txn)
        self.recent_hands.append((time.monotonic(), pot))
        self.changed()

    # ------------------------------------------------------------ lobby

    def changed(self) -> None:
        self._statuses_changed()
        self.actor.bus.put_table(self.summary())

    def summary(self) -> TableRow:
        rules = self.rules
        now = time.monotonic()
        last_hour = [(t, pot) for t, pot in self.recent_hands if t > now - 3600]
        pots = [pot for _, pot in list(self.recent_hands)[-50:]]
        blinds = f"{rules.small_blind}/{rules.big_blind}"
        return TableRow(
            id=self.config.id,
            name=self.config.name,
            kind=self.config.kind,
            game="italian" if rules.is_italian else "draw",
            structure=str(rules.structure),
            stakes=f"{rules.invito}" if rules.is_italian else blinds,
            description=rules.summary(),
            seats_taken=len(self.actor.players),
            seats_total=rules.max_seats,
            min_buy_in=self.config.min_buy_in,
            max_buy_in=self.config.max_buy_in,
            average_pot=sum(pots) // len(pots) if pots else 0,
            hands_per_hour=_rate(last_hour, now),
            players=[p.account.name for _, p in sorted(self.actor.players.items())],
            practice=self.config.practice,
            waiting=len(self.waiting),
            status=self.status,
            **{k: v for k, v in stakes_of(rules).items() if k not in ("game", "structure")},
        )


def _rate(samples: list[tuple[float, int]], now: float) -> int:
    """Hands per hour over the last hour (extrapolated over the first minutes)."""
    if len(samples) < 2:
        return 0
    span = min(max(now - samples[0][0], 60.0), 3600.0)
    return int(len(samples) * 3600 / span)
