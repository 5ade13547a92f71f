"""A gateway's viewers: its connections watching each topic (a table, or a
tournament's channel), and the delivery of the entries the bus brings them.

An entry goes to a connection only if it is for everyone or for that
connection's account: this is where the redaction the owner decided (each entry
tagged with its audience) is carried out for the sockets. A connection that has
just asked to watch is "syncing": entries that arrive before its replay or
snapshot are held, then sent after it in order, the ones already covered dropped.

Each view remembers the last entry it was sent and the epoch of the log it came
from: an entry of another epoch means the unit has a new owner (a takeover), and
the view is resynced from there, as after a gap in the bus.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from drawpoker.server.auth import Account


class Conn(Protocol):
    """What the server needs of a connection."""

    id: int  # unique in its gateway
    account: Account | None

    def send(self, text: str) -> None: ...


@dataclass(slots=True)
class View:
    account_id: int | None
    syncing: bool = True
    held: list[tuple[int | None, str | None, str]] = field(default_factory=list)
    v: int | None = None  # the last entry sent (a resync starts after it) ...
    epoch: str | None = None  # ... of this owner's log


class Viewers:
    def __init__(self, on_stale: Callable[[str, Conn], None] | None = None) -> None:
        self.topics: dict[str, dict[Conn, View]] = {}
        self.on_stale = on_stale  # an entry of another owner's log came: resync the view

    def add(self, topic: str, conn: Conn) -> bool:
        """``conn`` starts watching ``topic`` (syncing); True if it is new here."""
        views = self.topics.setdefault(topic, {})
        if conn in views:
            views[conn].syncing = True
            return False
        views[conn] = View(conn.account.id if conn.account else None)
        return True

    def remove(self, topic: str, conn: Conn) -> bool:
        """``conn`` stops watching; True if it did."""
        views = self.topics.get(topic)
        if views is None or conn not in views:
            return False
        del views[conn]
        if not views:
            del self.topics[topic]
        return True

    def view(self, topic: str, conn: Conn) -> View | None:
        views = self.topics.get(topic)
        return None if views is None else views.get(conn)

    def synced(
        self, topic: str, conn: Conn, texts: list[str], v: int | None, epoch: str | None
    ) -> None:
        """The replay (or snapshot) for ``conn`` came: send it, then what was held
        that it does not cover (and that is of the same owner's log)."""
        view = self.view(topic, conn)
        if view is None:
            return
        for text in texts:
            conn.send(text)
        view.v, view.epoch = v, epoch
        for held_v, held_epoch, text in view.held:
            if held_epoch is not None and epoch is not None and held_epoch != epoch:
                continue
            if v is None or held_v is None or held_v > v:
                conn.send(text)
                view.v = held_v
        view.held.clear()
        view.syncing = False

    def deliver(
        self, topic: str, v: int | None, audience: int | None, text: str, epoch: str | None
    ) -> None:
        views = self.topics.get(topic)
        if not views:
            return
        stale = []
        for conn, view in views.items():
            if audience is not None and audience != view.account_id:
                continue
            if view.syncing:
                view.held.append((v, epoch, text))
            elif epoch is not None and view.epoch is not None and epoch != view.epoch:
                stale.append(conn)  # the unit has another owner now
            else:
                conn.send(text)
                view.v = v
        if stale and self.on_stale is not None:
            for conn in stale:
                self.on_stale(topic, conn)
