"""What operators do to a cash table: pause it (the hand in play ends, no other
is dealt), close it (no new seat or hand; every player stands up when the hand
in play ends, cashed out; then the room lets the table go) or change its config
(applied between hands). Each order is stored with its audit entry in one
fenced transaction of the table's own, and told to watchers and the lobby
(``TableChanged``, the row's ``status``). The desk keeps the status; this
helper changes it."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

import msgspec
from sqlalchemy import Connection

from drawpoker.protocol.server import TableChanged
from drawpoker.room import RoomError
from drawpoker.server import audit
from drawpoker.server.auth import Account
from drawpoker.server.errors import TableError
from drawpoker.server.store import tables
from drawpoker.server.tableconfig import TableConfig

if TYPE_CHECKING:
    from drawpoker.server.table.cash import CashDesk

log = logging.getLogger("drawpoker.server.table")
_ANNOUNCED = frozenset(field.name for field in msgspec.structs.fields(TableChanged))


class Operators:
    """See the module docstring."""

    def __init__(self, desk: CashDesk) -> None:
        self.desk = desk

    def max_seats(self) -> int:
        """The seats a newcomer may take: an edit waiting for the break may have fewer."""
        later = self.desk.new_config.build_rules().max_seats if self.desk.new_config else 99
        return min(self.desk.rules.max_seats, later)

    def refuse_if_closing(self) -> None:
        if self.desk.status in ("closing", "closed"):
            raise TableError("closing", "the table is closing: choose another in the lobby")

    async def _store_status(self, status: str, by: Account, reason: str, action: str) -> None:
        def txn(c: Connection) -> None:
            c.execute(
                tables.update().where(tables.c.id == self.desk.config.id).values(status=status)
            )
            audit.record(c, by, action, self.desk.config.id, reason, {"status": status})

        await self.desk.store.run(txn)

    def _announce(self) -> None:
        """Watchers and the lobby learn the table's status and config."""
        facts = {k: v for k, v in self.desk.facts(None).items() if k in _ANNOUNCED}
        facts["practice"] = self.desk.config.practice  # (the actor's, in a snapshot)
        self.desk.actor.log.publish(None, {"type": "TableChanged", **facts})
        self.desk.changed()

    async def pause(self, by: Account, reason: str, on: bool) -> dict[str, Any]:
        """Pause the table (the hand in play ends; no other is dealt) or resume it."""
        self.refuse_if_closing()
        status = "paused" if on else "open"
        if status != self.desk.status:
            await self._store_status(status, by, reason, "pause-table" if on else "resume-table")
            self.desk.status = status
            self._announce()
            self.desk.deal_after(self.desk.config.between_hands_s)
        return {"status": status}

    async def close(self, by: Account, reason: str) -> dict[str, Any]:
        """Close the table: no new seat or hand; every player stands up (at the end of
        the hand in play, if in it) and is cashed out; then the room lets it go."""
        self.refuse_if_closing()
        await self._store_status("closing", by, reason, "close-table")
        self.desk.status = "closing"
        self.desk.offer = None
        self.desk.waiting = []
        self._announce()
        await self.stand_everyone_up()
        return {"status": self.desk.status, "seated": len(self.desk.actor.players)}

    async def stand_everyone_up(self) -> None:
        """Closing: everyone leaves, cashed out -- once the hand in play is played
        out (``hand_over`` comes back here), so nobody's hand is folded for them."""
        desk = self.desk
        if desk.table.in_hand:
            return
        now = time.monotonic()
        for player in list(desk.actor.players.values()):
            desk.session.clear_pre_actions(player.seat)
            await desk.actor.run(desk.session.after(desk.table.leave(player.seat, now), now))
        if desk.status == "closing" and not desk.actor.players:
            await self.closed()

    async def closed(self) -> None:
        """The last player is cashed out: the table is closed for good."""
        table_id = self.desk.config.id

        def txn(c: Connection) -> None:
            c.execute(tables.update().where(tables.c.id == table_id).values(status="closed"))

        await self.desk.store.run(txn)
        self.desk.status = "closed"
        self._announce()
        log.info("table %s closed", table_id)
        if self.desk.on_closed is not None:
            self.desk.on_closed()

    async def reconfigure(self, by: Account, reason: str, config: dict[str, Any]) -> dict[str, Any]:
        """An operator's new config (checked by the caller; ``config`` as a room file
        writes it): stored and audited now, applied now or when the hand in play ends."""
        self.refuse_if_closing()
        new = TableConfig.from_dict(config)
        if new.id != self.desk.config.id:
            raise TableError("bad_config", f"this is table {self.desk.config.id}, not {new.id}")
        try:
            self.desk.table.check_config(new.room_config())
        except RoomError as problem:
            raise TableError("bad_config", str(problem)) from None
        changed = audit.changes(self.desk.config.to_json(), new.to_json())

        def txn(c: Connection) -> None:
            c.execute(
                tables.update()
                .where(tables.c.id == self.desk.config.id)
                .values(config=new.to_json(), origin="console")
            )
            audit.record(c, by, "edit-table", self.desk.config.id, reason, {"changed": changed})

        await self.desk.store.run(txn)
        self.desk.new_config = new
        if self.desk.table.in_hand:
            return {"changed": sorted(changed), "applies": "when the hand in play ends"}
        await self.apply_config()
        return {"changed": sorted(changed), "applies": "now"}

    async def apply_config(self) -> None:
        """The edit waiting for the break, now that no hand is in play."""
        desk = self.desk
        new, desk.new_config = desk.new_config, None
        if new is None:
            return
        rules = new.build_rules()
        try:
            desk.table.reconfigure(new.room_config(rules))
        except RoomError as problem:  # a seat was taken since: keep the edit for later
            log.error("table %s: the new config waits (%s)", desk.config.id, problem)
            desk.new_config = new
            return
        desk.config, desk.rules = new, rules
        desk.session.clock.config = new.clock_config(rules)
        desk.actor.practice = new.practice
        desk.actor.bot_think_s = new.bot_think_s
        await desk.bots_as_configured()
        self._announce()
        desk.deal_after(new.between_hands_s)
