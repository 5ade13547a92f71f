"""A unit's log: what an actor said, each entry for everyone or for one account,
numbered, kept for replays, and handed to the bus for every gateway with a viewer.

Each entry is encoded once, when it is published. A watcher that comes back with
the version it last saw (and the log's epoch) gets the entries it missed that it
may see; one that comes back too late, or to another epoch (a restarted or moved
owner), gets a snapshot instead.

Side entries (chat) are numbered in the same sequence but kept apart, in a short
ring of their own: however much is said, the log keeps what happened at the
table, and a replay still carries it whole (with the chat lines still kept).

Presence -- who is watching -- is kept here by connection (gateway, connection
number): a seated player with no connection watching anywhere is away. Watching
again from the same connection changes nothing, so a gateway may always resync.
"""

from __future__ import annotations

import json
import secrets
from collections import Counter, deque
from collections.abc import Callable
from typing import Any, Protocol

from drawpoker.protocol import encode_text
from drawpoker.protocol.server import EventFrame, Snapshot, TableState

LOG_SIZE = 4000  # entries kept for replay
SIDE_SIZE = 100  # chat lines kept for replay, apart from the log


class Outlet(Protocol):
    """Where a published entry goes: the bus, to the gateways with a viewer."""

    def __call__(
        self, topic: str, v: int | None, audience: int | None, text: str, epoch: str | None
    ) -> None: ...


class TableLog:
    def __init__(self, name: str, outlet: Outlet, *, size: int = LOG_SIZE) -> None:
        self.name = name
        self.outlet = outlet
        self.epoch = secrets.token_hex(4)
        self.v = 0
        self.log: deque[tuple[int, int | None, str]] = deque(maxlen=size)
        self.side: deque[tuple[int, int | None, str]] = deque(maxlen=SIDE_SIZE)
        self.viewers: dict[tuple[str, int], int | None] = {}  # (gateway, conn) -> account
        self.present: Counter[int] = Counter()  # account id -> connections watching

    def publish(self, audience: int | None, payload: dict[str, Any], *, side: bool = False) -> None:
        """Append an entry for everyone (``audience`` None) or one account, and send
        it; a ``side`` entry (chat) goes to the side ring instead of the log."""
        self.v += 1
        text = encode_text(EventFrame(table=self.name, v=self.v, event=payload))
        (self.side if side else self.log).append((self.v, audience, text))
        self.outlet(self.name, self.v, audience, text, self.epoch)

    def unsay(self, name: str, text: str) -> None:
        """Drop the chat lines in which ``name`` said ``text`` from the side ring."""
        line = {"type": "Chat", "name": name, "text": text}

        def deleted(entry: tuple[int, int | None, str]) -> bool:
            event = json.loads(entry[2]).get("event", {})
            return {key: event.get(key) for key in line} == line

        self.side = deque((e for e in self.side if not deleted(e)), maxlen=SIDE_SIZE)

    def since(
        self,
        account_id: int | None,
        since: int | None,
        epoch: str | None,
        snapshot: Callable[[int | None], TableState],
    ) -> tuple[list[str], dict[str, Any]]:
        """What a returning watcher missed that it may see, or a snapshot; and the
        reply's detail (``v``: the version it now stands at)."""
        oldest = self.log[0][0] if self.log else self.v + 1
        if since is not None and epoch == self.epoch and since <= self.v and since + 1 >= oldest:
            entries = [*self.log, *(e for e in self.side if e[0] > since)]
            if self.side:
                entries.sort(key=lambda e: e[0])
            missed = [text for v, aud, text in entries if v > since and aud in (None, account_id)]
            return missed, {"replayed": len(missed), "v": self.v, "epoch": self.epoch}
        state = snapshot(account_id)
        text = encode_text(Snapshot(table=self.name, v=self.v, state=state))
        return [text], {"snapshot": True, "v": self.v, "epoch": self.epoch}

    def attach(self, gateway: str, conn: int, account_id: int | None) -> bool:
        """Connection ``conn`` of ``gateway`` watches (again: no change); True if
        the account was away until now."""
        key = (gateway, conn)
        if key in self.viewers:
            return False
        self.viewers[key] = account_id
        if account_id is None:
            return False
        self.present[account_id] += 1
        return self.present[account_id] == 1

    def detach(self, gateway: str, conn: int) -> int | None:
        """Connection ``conn`` of ``gateway`` stops watching: its account if it is
        now away."""
        key = (gateway, conn)
        if key not in self.viewers:
            return None
        account_id = self.viewers.pop(key)
        return account_id if account_id is not None and self._gone(account_id) else None

    def drop_gateway(self, gateway: str) -> list[int]:
        """A gateway is gone with its connections: the accounts now away."""
        away = []
        for key in [k for k in self.viewers if k[0] == gateway]:
            account_id = self.viewers.pop(key)
            if account_id is not None and self._gone(account_id):
                away.append(account_id)
        return away

    def _gone(self, account_id: int) -> bool:
        self.present[account_id] -= 1
        if self.present[account_id] > 0:
            return False
        del self.present[account_id]
        return True

    def is_present(self, account_id: int) -> bool:
        return self.present[account_id] > 0
