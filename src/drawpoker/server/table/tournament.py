"""A tournament table's desk: the room layer's ``TournamentTable``, dealing the hands
its tournament orders and sending each result back.

The tournament's actor (``server.tournament.run``) owns the tournament; this
table owns its hand. They talk by messages only: ``seat`` (who sits here now),
``deal`` (a ``HandOrder``), ``notice`` (a tournament notice for the table's
log), ``level`` (the level in force) and ``close``, one way; ``hand_done`` (the
``HandFinished`` and the hand's record), the other. A player who is not watching
the table is played at once by the server: check, else fold; stand pat at the
draw. Their stack is blinded off, never removed.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass
from typing import Any

from drawpoker.events import Event, PotAwarded
from drawpoker.protocol import client
from drawpoker.protocol.server import SeatInfo, TournamentInfo
from drawpoker.protocol.stakes import stakes_of
from drawpoker.room.clock import ClockConfig
from drawpoker.room.session import TableSession
from drawpoker.room.tournament_orders import HandOrder, TableSeats
from drawpoker.room.tournament_table import TournamentTable
from drawpoker.rules import Rules
from drawpoker.server import hand_records
from drawpoker.server.auth import Account
from drawpoker.server.bus import Bus
from drawpoker.server.store import Records
from drawpoker.server.table.actor import Player, TableActor
from drawpoker.server.table.cash import make_policy

log = logging.getLogger("drawpoker.server.tournaments")
CLOSED_KEPT_S = 120.0  # a closed table still answers this long (its players see the end)


def table_id(instance: str, table_no: int) -> str:
    """The websocket table id of a tournament table."""
    return f"{instance}-t{table_no}"


@dataclass(frozen=True, slots=True)
class HandRecord:
    """What the tournament writes about a finished hand, with its result."""

    hand_id: str
    history: str  # the stored events
    pot: int
    nets: dict[int, int]  # account id -> chips won (negative: lost)
    banks: dict[int, float]  # entry id -> time bank left (it follows the player)


class TournamentDesk:
    """See the module docstring."""

    def __init__(
        self,
        run: str,
        series: str,
        table_no: int,
        clock: ClockConfig,
        store: Records,
        bus: Bus,
        *,
        name: str,
        rules: Rules,
        bot_think_s: tuple[float, float],
        bot_kinds: tuple[str, ...],
    ) -> None:
        self.run = run  # the run's id ...
        self.series = series  # ... and the unit that answers for it: ``s:<spec>``
        self.bus = bus
        self.table_no = table_no
        self.title = name
        self.rules = rules  # the level in force (from the tournament's ``level``)
        self.store = store
        self.bot_kinds = bot_kinds
        self.table = TournamentTable(table_no)
        session = TableSession(self.table, clock, absent_acts_now=True)
        self.actor = TableActor(
            table_id(run, table_no), session, bus=bus, bot_think_s=bot_think_s, hands_label=series
        )
        self.actor.desk = self
        self.entries: dict[int, int] = {}  # seat -> entry id
        self.info: TournamentInfo | None = None
        self.closed = False
        self._start: dict[int, int] = {}  # seat -> chips at the start of the hand in play
        self._pending: TableSeats | None = None  # the seating for after the hand in play

    @property
    def session(self) -> TableSession:
        return self.actor.session

    def start(self) -> None:
        self.actor.mailbox.start()

    # ------------------------------------------------------------ messages in

    async def seat(
        self, seats: TableSeats, accounts: dict[str, Account], banks: dict[int, float]
    ) -> None:
        """Who sits here now. Players moved here during a hand take their seats at
        once (they are dealt in from the next hand); the room table's seating waits
        for the hand's end."""
        self._seat_players(seats, accounts, banks)
        if self.table.in_hand:
            self._pending = seats
            return
        self._pending = None
        self.table.reseat(seats.seats, closed=seats.closed)
        if seats.closed:
            await self.close()

    def _seat_players(
        self, seats: TableSeats, accounts: dict[str, Account], banks: dict[int, float]
    ) -> None:
        actor = self.actor
        clock = self.session.clock
        dealt = self.actor.hand_accounts if self.table.in_hand else {}
        for seat in [s for s in actor.players if s not in seats.seats and s not in dealt]:
            del actor.players[seat]
            self.entries.pop(seat, None)
            clock.unseat(seat)
            self.session.absent.discard(seat)
        for seat, placed in seats.seats.items():
            player = actor.players.get(seat)
            if player is not None and self.entries.get(seat) == placed.entry_id:
                continue
            account = accounts[placed.player]
            bot = None
            if account.kind == "bot":
                kind = self.bot_kinds[account.id % len(self.bot_kinds)]
                bot = make_policy(kind, seat, self.rules)
            actor.players[seat] = Player(seat, account, bot=bot)
            self.entries[seat] = placed.entry_id
            clock.seat(seat, banks.get(placed.entry_id))
            if bot is None and not actor.log.is_present(account.id):
                self.session.absent.add(seat)
            else:
                self.session.absent.discard(seat)

    async def deal(
        self,
        order: HandOrder,
        accounts: dict[str, Account],
        banks: dict[int, float],
        about: dict[str, Any],
    ) -> None:
        """Deal the hand the tournament ordered (its ``HandOrder``); ``about``: what
        the hand's record keeps of its tournament."""
        if self.closed:
            log.error("table %s: an order for a closed table (%s)", self.actor.id, order.hand_id)
            return
        self._pending = None
        self._seat_players(TableSeats(table_id=self.table_no, seats=order.seats), accounts, banks)
        now = time.monotonic()
        events = self.table.start_hand(order)  # the seed: the room's, mixed with the players'
        hand = self.table.hand
        assert hand is not None
        assert hand.seed is not None
        seed = hand.seed
        for seat in order.dealt:
            bot = self.actor.players[seat].bot
            sit = getattr(bot, "sit", None)
            if sit is not None:  # the level's rules for the bot's model
                sit(seat, order.rules)
        started = self.actor.started(events)
        self._start = dict(started.stacks)
        players = {
            str(seat): [self.actor.hand_accounts[seat], stack] for seat, stack in started.stacks
        }
        row = self.actor.hand_row(started.hand_id, players, seed)
        row["tournament"] = json.dumps(about)

        await self.store.run(hand_records.dealt, row)
        await self.actor.run(self.session.after(events, now))

    async def notice(self, audience: int | None, payload: dict[str, Any]) -> None:
        """A tournament notice (or a private ``Moved``/``Finished``) for the table's log."""
        self.actor.log.publish(audience, payload)

    async def cancelled(self, events: list[Event]) -> None:
        """A hand the tournament cancelled (after a restart), on the table's log."""
        self.actor.publish(list(events))

    async def level(self, info: TournamentInfo, rules: Rules) -> None:
        """The level in force (shown with the table; the rules of its blinds)."""
        self.info = info
        self.rules = rules

    async def close(self) -> None:
        """Broken, or the tournament is over: no more hands; the table still answers
        for a while (its players see the end), then stops."""
        if self.closed:
            return
        self.closed = True
        self.actor.mailbox.later(CLOSED_KEPT_S, self._stop)

    async def _stop(self) -> None:
        self.bus.tell(self.series, "table_gone", {"run": self.run, "table": self.actor.id})
        await self.actor.mailbox.stop()

    # ------------------------------------------------------------ what the actor asks

    def name(self) -> str:
        return self.title

    def facts(self, account_id: int | None) -> dict[str, Any]:
        order = self.table.order
        rules = order.rules if order is not None else self.rules
        return {
            **stakes_of(rules),
            "name": self.name(),
            "rules": rules.summary(),
            "max_seats": rules.max_seats,
            "min_buy_in": None,
            "max_buy_in": None,
            "button": order.plan.button if order is not None else None,
            "carried_pot": 0,
            "tournament": self.info,
        }

    def seat_info(self, player: Player) -> SeatInfo:
        seat = player.seat
        waiting = self._pending.seats.get(seat) if self._pending is not None else None
        return SeatInfo(
            seat=seat,
            name=player.account.name,
            stack=waiting.stack
            if seat not in self.table.seats and waiting
            else self.table.stack(seat),
            connected=not self.actor.is_away(player),
            bot=player.bot is not None,
            time_bank=self.actor.time_bank(player),
        )

    async def settle(self, events: list[Event]) -> None:
        ended = self.actor.ended(events)
        if ended is None:
            return
        finished = self.table.take_finished()
        start = self._start
        accounts = self.actor.hand_accounts
        record = HandRecord(
            hand_id=finished.hand_id,
            history=self.actor.history(),
            pot=sum(e.amount for e in self.actor.hand_events if isinstance(e, PotAwarded)),
            nets={accounts[s]: finished.stacks[s] - start[s] for s in finished.stacks},
            banks={
                self.entries[s]: self.session.clock.banks.get(s, 0.0)
                for s in self.actor.players
                if s in self.entries
            },
        )
        args = {"run": self.run, "table_no": self.table_no, "finished": finished, "record": record}
        self.bus.tell(self.series, "hand_done", args)
        pending, self._pending = self._pending, None
        if pending is not None:
            self.table.reseat(pending.seats, closed=pending.closed)
            if pending.closed:
                await self.close()

    async def away(self, player: Player) -> None:
        self.session.absent.add(player.seat)

    async def back(self, player: Player) -> None:
        self.session.absent.discard(player.seat)

    def hand_over(self) -> None:
        """The tournament orders the next hand."""

    def ops(self) -> dict[str, Any]:
        """The messages a tournament table takes from its tournament."""
        return {
            "seat": self.seat,
            "deal": self.deal,
            "notice": self.notice,
            "cancelled": self.cancelled,
            "level": self.level,
            "close": self.close,
            "entropy": self.entropy,
        }

    async def entropy(self, account: Account | None, msg: client.Entropy) -> dict[str, Any]:
        """A seated player's random text for the next hand's deck seed."""
        player = self.actor.need_player(account)
        self.table.contribute(player.seat, msg.text)
        return {"next_commitment": self.table.next_commitment}
