"""The owner side of a process: the units it owns (tables ``t:<id>``, tournament
series ``s:<spec>``), each an actor with a mailbox, and the messages the bus
brings them, carried out in the unit's mailbox, in order."""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from drawpoker.server.bus import Bus, Moving, NoOwner
from drawpoker.server.errors import TableError
from drawpoker.server.mailbox import Mailbox, MailboxClosed

log = logging.getLogger("drawpoker.server")

Op = Callable[..., Awaitable[Any]]
CASH_OPS = frozenset(
    ("sit", "top_up", "sit_out", "sit_in", "leave", "sit_out_next", "auto_top_up", "wait", "unwait")
)


class Unit(Protocol):
    mailbox: Mailbox

    def ops(self) -> dict[str, Op]: ...


class Owner:
    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self.units: dict[str, Unit] = {}
        self._ops: dict[str, dict[str, Op]] = {}

    def adopt(self, unit: str, actor: Unit) -> None:
        self.units[unit] = actor
        self._ops[unit] = actor.ops()
        self.bus.claim(unit)

    def drop(self, unit: str) -> None:
        if self.units.pop(unit, None) is not None:
            self.bus.unclaim(unit)
        self._ops.pop(unit, None)

    def has(self, unit: str) -> bool:
        return unit in self.units

    def _op(self, unit: str, op: str) -> tuple[Unit, Op]:
        actor = self.units.get(unit)
        if actor is None:
            raise NoOwner(unit)
        fn = self._ops[unit].get(op)
        if fn is None:
            if unit.startswith("t:") and op in CASH_OPS:
                raise TableError("not_here", f"{op} is for cash tables, not a tournament table")
            raise TableError("not_here", f"{op}: not a message for {unit}")
        return actor, fn

    async def dispatch(self, unit: str, op: str, args: dict[str, Any]) -> Any:
        """Carry out ``op`` in the unit's mailbox and answer (a refusal raises)."""
        actor, fn = self._op(unit, op)
        try:
            return await actor.mailbox.call(functools.partial(fn, **args))
        except MailboxClosed:  # let go meanwhile: closed, or taken by another process
            raise Moving(unit) from None

    def post(self, unit: str, op: str, args: dict[str, Any]) -> None:
        """Carry out ``op`` in the unit's mailbox; nobody waits for the answer."""
        try:
            actor, fn = self._op(unit, op)
        except (NoOwner, TableError) as problem:
            log.warning("%s %s: %s", unit, op, problem)
            return
        actor.mailbox.post(functools.partial(fn, **args))
