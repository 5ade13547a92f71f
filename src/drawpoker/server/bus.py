"""The bus between gateways and owners.

Every process of a room is a gateway (the websocket clients connected to it) and
an owner (some units: tables ``t:<table>``, tournament series ``s:<spec>``). The
gateway never touches a unit's state: it ``ask``s the unit's owner (request and
reply) or ``tell``s it (one way), and the owner's units ``publish`` their log
entries, which reach every gateway ``follow``ing the unit (its public entries,
and the private ones of the accounts it has a viewer for); lobby rows go to
every gateway too. An owner ``claim``s the units it adopts, so that gateways
find it.

``LocalBus`` is the bus of one process (the embedded default): the owner and the
gateway are in the same event loop, and a message is a method call. ``RedisBus``
(``server/redis_bus.py``) carries the same messages between processes.
"""

from __future__ import annotations

from typing import Any, Protocol

from drawpoker.protocol.server import TableRow, TournamentRow


class Owner(Protocol):
    """The owner side of a process, as the bus sees it."""

    def has(self, unit: str) -> bool: ...

    async def dispatch(self, unit: str, op: str, args: dict[str, Any]) -> Any: ...

    def post(self, unit: str, op: str, args: dict[str, Any]) -> None: ...


class Gateway(Protocol):
    """The gateway side of a process, as the bus sees it."""

    def deliver(
        self, topic: str, v: int | None, audience: int | None, text: str, epoch: str | None
    ) -> None: ...

    def put_table(self, row: TableRow) -> None: ...

    def put_tournament(self, row: TournamentRow) -> None: ...

    def following(self) -> list[tuple[str, int | None]]: ...

    def resync_all(self) -> None: ...

    def resync_table(self, table: str) -> None: ...


class Holder(Protocol):
    """The room of a process, as the bus sees it: the units it may hold."""

    held: dict[str, Any]  # the units it holds now

    def units(self) -> list[str]: ...

    async def take(self, unit: str) -> None: ...

    async def release(self, unit: str) -> None: ...


class Bus(Protocol):
    name: str  # this process, as gateways and owners know it
    alone: bool  # no other process serves the room

    def attach(self, owner: Owner, gateway: Gateway) -> None: ...

    async def start(self, room: Holder) -> None:
        """Hold the units this process is to hold, and keep holding them."""
        ...

    async def stop(self, room: Holder) -> None:
        """Release every unit held, and let go of the bus."""
        ...

    async def health(self) -> str | None:
        """None if the bus answers, else what is wrong (``/health``)."""
        ...

    async def ask(self, unit: str, op: str, args: dict[str, Any]) -> Any: ...

    def tell(self, unit: str, op: str, args: dict[str, Any]) -> None: ...

    def publish(
        self,
        unit: str,
        topic: str,
        v: int | None,
        audience: int | None,
        text: str,
        epoch: str | None = None,
    ) -> None: ...

    async def follow(self, unit: str, audience: int | None) -> None: ...

    def unfollow(self, unit: str, audience: int | None) -> None: ...

    def claim(self, unit: str) -> None: ...

    def unclaim(self, unit: str) -> None: ...

    def put_table(self, row: TableRow) -> None: ...

    def put_tournament(self, row: TournamentRow) -> None: ...


class Closed(Exception):
    """The unit is no longer the room's (an operator closed the table)."""


class NoOwner(LookupError):
    """No owner answers for the unit: there is no such table or tournament."""


class Moving(NoOwner):
    """The unit exists but its owner does not answer (it died, or the unit is
    being taken over): ask again in a moment."""


class LocalBus:
    """One process: gateway and owner in the same event loop."""

    name = "local"
    alone = True

    def __init__(self) -> None:
        self.owner: Owner | None = None
        self.gateway: Gateway | None = None

    def attach(self, owner: Owner, gateway: Gateway) -> None:
        self.owner, self.gateway = owner, gateway

    async def start(self, room: Holder) -> None:
        for unit in room.units():
            await room.take(unit)

    async def stop(self, room: Holder) -> None:
        for unit in list(room.held):
            await room.release(unit)

    async def health(self) -> str | None:
        return None  # in the process: it answers while the process does

    async def ask(self, unit: str, op: str, args: dict[str, Any]) -> Any:
        owner = self.owner
        if owner is None or not owner.has(unit):
            raise NoOwner(unit)
        return await owner.dispatch(unit, op, args)

    def tell(self, unit: str, op: str, args: dict[str, Any]) -> None:
        owner = self.owner
        if owner is not None and owner.has(unit):
            owner.post(unit, op, args)

    def publish(
        self,
        unit: str,
        topic: str,
        v: int | None,
        audience: int | None,
        text: str,
        epoch: str | None = None,
    ) -> None:
        if self.gateway is not None:
            self.gateway.deliver(topic, v, audience, text, epoch)

    async def follow(self, unit: str, audience: int | None) -> None:
        """Every entry of the process already reaches its gateway."""

    def unfollow(self, unit: str, audience: int | None) -> None:
        """See ``follow``."""

    def claim(self, unit: str) -> None:
        """The process owns every unit: nobody else needs to find it."""

    def unclaim(self, unit: str) -> None:
        """See ``claim``."""

    def put_table(self, row: TableRow) -> None:
        if self.gateway is not None:
            self.gateway.put_table(row)

    def put_tournament(self, row: TournamentRow) -> None:
        if self.gateway is not None:
            self.gateway.put_tournament(row)
