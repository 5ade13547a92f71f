"""One table of a running tournament, as a websocket table.

The table's state is the room layer's ``Tournament`` (its ``TableState`` and the
hand in play); the run (``tournaments.Run``) owns the tournament and its table
actors. The actor plays hands as a cash table's actor does -- clocks, time bank,
pre-actions, bots, a versioned log with reconnection -- and records each
finished hand (with its tournament and level) in the same database transaction
as the saved tournament, so a restart resumes from the last finished hand.

A player not connected to the table is played at once by the server: check,
else fold; stand pat at the draw. Their stack is blinded off, never removed.
"""

from __future__ import annotations

import json
import logging
import time
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection

from drawpoker.actions import Action
from drawpoker.deck import new_seed
from drawpoker.events import Event, HandEnded, HandStarted, PotAwarded
from drawpoker.hand import Hand
from drawpoker.room.tournament import TableState
from drawpoker.server import protocol
from drawpoker.server.actor_base import BaseTableActor, SeatState, pre_dict, seat_no
from drawpoker.server.store import hand_players, hands

log = logging.getLogger("drawpoker.server.tournaments")

if TYPE_CHECKING:
    from drawpoker.server.tournaments import Run


def table_id(instance: str, table_no: int) -> str:
    """The websocket table id of a tournament table."""
    return f"{instance}-t{table_no}"


class TournamentTableActor(BaseTableActor):
    def __init__(self, run: Run, table_no: int) -> None:
        super().__init__(table_id(run.id, table_no), on_change=run.on_change)
        self.run = run
        self.table_no = table_no
        spec = run.spec
        self.action_time_s = spec.action_time_s
        self.between_hands_s = spec.between_hands_s
        self.bot_think_s = (spec.bot_think_s / 2, spec.bot_think_s)
        self.closed = False  # the table was broken, or the tournament is over

    @property
    def table(self) -> TableState | None:
        return self.run.tournament.tables.get(self.table_no)

    @property
    def hand(self) -> Hand | None:
        table = self.table
        return table.hand if table is not None else None

    @property
    def seats(self) -> dict[int, SeatState]:
        table = self.table
        if table is None:
            return {}
        return {seat: self.run.seat_state(entry, seat) for seat, entry in table.seats.items()}

    def _apply(self, action: Action) -> list[Event]:
        return self.run.tournament.act(self.table_no, action, time.time())

    def _timeout(self, seat: int) -> list[Event]:
        return self.run.tournament.timeout(self.table_no, seat, time.time())

    def _plays_for_absent(self, s: SeatState) -> bool:
        return s.account.id not in self.watchers.values()

    async def _settle(self, event: Event) -> None:
        if isinstance(event, HandEnded):
            try:
                await self._record_hand()
            except Exception:  # the tournament goes on; the next record saves it whole
                log.exception("tournament table %s: the hand could not be recorded", self.id)
            await self.run.after_hand()

    # ------------------------------------------------------------ hands

    def _schedule_next_hand(self, delay: float) -> None:
        if self.next_hand_at is not None or self.stopped or self.closed or self.hand is not None:
            return
        if self.table_no not in self.run.tournament.ready_tables():
            return  # the run pokes the table again when it may deal
        self.next_hand_at = self._later(delay, self._start_hand)

    async def _start_hand(self) -> None:
        self.next_hand_at = None
        t = self.run.tournament
        if self.closed or self.table_no not in t.ready_tables():
            return
        seed = new_seed()
        events = t.start_hand(self.table_no, time.time(), seed=seed)
        table = self.table
        assert table is not None
        assert table.plan is not None
        seats = self.seats
        self.hand_accounts = {seat: seats[seat].account.id for seat in table.plan.dealt}
        started = next(e for e in events if isinstance(e, HandStarted))
        hand = table.hand
        assert hand is not None
        for seat in table.plan.dealt:
            bot = seats[seat].bot
            sit = getattr(bot, "sit", None)
            if sit is not None:
                sit(seat, hand.rules)
        players = {str(seat): [self.hand_accounts[seat], stack] for seat, stack in started.stacks}
        about = json.dumps(self.run.hand_header(self.table_no, table.level))

        row = self._hand_row(started.hand_id, players, seed, tournament=about)
        state = self.run.state_json()  # with this hand in play: a restart cancels it
        status = self.run.saved_status()

        def txn(c: Connection) -> None:
            c.execute(row)
            self.run.save(c, state, status)

        await self.run.store.run(txn)
        for s in seats.values():
            s.pre = s.pre_draw = None
        await self._publish_and_settle(events)

    async def _record_hand(self) -> None:
        """One database transaction: the hand's history, the prizes of players who
        busted in the money, and the saved tournament."""
        hand_events = self.hand_events
        started = next(e for e in hand_events if isinstance(e, HandStarted))
        start = dict(started.stacks)
        ended = next(e for e in reversed(hand_events) if isinstance(e, HandEnded))
        final = dict(ended.stacks)
        history = json.dumps([[e.visible_to, protocol.event_dict(e)] for e in hand_events])
        pot = sum(e.amount for e in hand_events if isinstance(e, PotAwarded))
        accounts_in = dict(self.hand_accounts)
        run = self.run
        due = run.prizes_due()  # who busted in the money, in this hand or before
        run.paid_entries.update(due)  # now, so another table's record does not pay them too
        state = run.state_json()
        status = run.saved_status()

        def txn(c: Connection) -> None:
            c.execute(
                hands.update()
                .where(hands.c.id == started.hand_id)
                .values(status="finished", ended_at=time.time(), history=history, pot=pot)
            )
            c.execute(
                hand_players.insert(),
                [
                    {"hand_id": started.hand_id, "account_id": a, "net": final[s] - start[s]}
                    for s, a in accounts_in.items()
                ],
            )
            run.credit(c, due)
            run.save(c, state, status)

        try:
            await run.store.run(txn)
        except Exception:
            for entry_id in due:
                run.paid_entries.pop(entry_id, None)
            raise
        for s in self.seats.values():
            s.pre = s.pre_draw = None
            s.time_bank = min(self.run.spec.time_bank_s, s.time_bank + 2.0)
        self.on_change()

    # ------------------------------------------------------------ views

    def snapshot(self, account_id: int | None) -> dict[str, Any]:
        me = self._seat_of(account_id)
        hand_view = self._hand_view(me, account_id)
        table = self.table
        spec = self.run.spec
        return {
            "table": self.id,
            "name": f"{spec.name} - table {self.table_no}",
            "epoch": self.epoch,
            "rules": self.run.rules_now().summary(),
            "max_seats": spec.seats_per_table,
            "min_buy_in": None,
            "max_buy_in": None,
            "button": table.button if table is not None else None,
            "carried_pot": 0,
            "you": None if me is None else me.seat,
            "pre_action": pre_dict(me),
            "seats": [self._seat_public(s) for s in sorted(self.seats.values(), key=seat_no)],
            "hand": hand_view,
            "tournament": {**self.run.level_info(), "table_no": self.table_no},
        }

    def _seat_public(self, s: SeatState) -> dict[str, Any]:
        hand = self.hand
        t = self.run.tournament
        entry = t.entries[self.run.entry_of(s)]
        dealt = hand is not None and s.seat in self.hand_accounts
        return {
            "seat": s.seat,
            "name": s.account.name,
            "stack": hand.stack(s.seat) if dealt and hand is not None else entry.stack,
            "pending_top_up": 0,
            "sitting_out": False,
            "connected": s.bot is not None or s.account.id in self.watchers.values(),
            "bot": s.bot is not None,
            "time_bank": round(s.time_bank, 1),
        }
