"""A tournament's notices: what a lobby or a player needs to hear, numbered from 1.

The tournament and its seating both add to the one ``Notices`` (neither holds
the other, so dropping a tournament frees it at once). After a restore the
numbering goes on from where it was; the notices before it are not kept.
"""

from __future__ import annotations

from typing import Any

from drawpoker.events import Event


class Notices:
    __slots__ = ("base", "items")

    def __init__(self) -> None:
        self.items: list[Event] = []
        self.base = 0  # notices before a restore (not kept)

    @property
    def next_seq(self) -> int:
        return self.base + len(self.items) + 1

    def add(self, kind: type[Event], /, **fields: Any) -> None:
        self.items.append(kind(seq=self.next_seq, **fields))

    def since(self, seq: int) -> list[Event]:
        """Notices with ``seq`` greater than ``seq`` (those kept since a restore)."""
        return self.items[max(0, seq - self.base) :]
