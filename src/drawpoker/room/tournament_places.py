"""Eliminations, places and prizes: who finished where, and with what.

Players out in the same hand (or hand-for-hand round) are one group: more
chips at the start of the hand finishes higher; equal chips tie and share the
places' prizes (``payouts.share``). During late registration the field is not
final, so groups wait (``unplaced``) and are placed when registration closes.
"""

from __future__ import annotations

from collections.abc import Sequence

from drawpoker.room.events import PlayerEliminated
from drawpoker.room.payouts import share
from drawpoker.room.tournament_config import Entry
from drawpoker.room.tournament_seating import Notice

Group = list[tuple[int, int]]  # (entry id, chips at the start of the hand)


class Places:
    __slots__ = ("_dirty", "_notice", "entries", "groups", "out", "placed", "unplaced")

    def __init__(self, entries: dict[int, Entry], notice: Notice, dirty: set[int]) -> None:
        self.entries = entries
        self._notice = notice
        self._dirty = dirty  # entries changed since the last save
        self.groups = 0  # elimination groups so far
        self.out = 0  # entries eliminated
        self.placed = 0  # entries given a place
        self.unplaced: list[Group] = []  # eliminated during late registration

    def eliminate(self, group: Group, prizes: Sequence[int], *, field_final: bool) -> None:
        """``group`` is out; placed at once if the field is final, else held."""
        if not group:
            return
        self.groups += 1
        self.out += len(group)
        for entry_id, _ in group:
            self.entries[entry_id].eliminated = self.groups
            self._dirty.add(entry_id)
        if field_final:
            self.place(group, prizes)
        else:
            self.unplaced.append(group)

    def settle(self, prizes: Sequence[int]) -> None:
        """Registration closed: place the groups held, first out first."""
        for group in self.unplaced:
            self.place(group, prizes)
        self.unplaced = []

    def place(self, group: Group, prizes: Sequence[int]) -> None:
        """The next places from the bottom for ``group`` (see the module docstring)."""
        worst = len(self.entries) - self.placed  # the place of the first one out
        self.placed += len(group)
        ranked = sorted(group, key=lambda item: (-item[1], item[0]))
        best = worst - len(group) + 1
        k = 0
        while k < len(ranked):
            tied = [item for item in ranked[k:] if item[1] == ranked[k][1]]
            places = tuple(range(best + k, best + k + len(tied)))
            shares = share(prizes, places, len(tied))
            for (entry_id, _), prize in zip(tied, shares, strict=True):
                entry = self.entries[entry_id]
                entry.places = places
                entry.prize = prize
                self._dirty.add(entry_id)
                self._notice(
                    PlayerEliminated,
                    entry=entry_id,
                    player=entry.player,
                    places=places,
                    prize=prize,
                )
            k += len(tied)

    def crown(self, winner: Entry, prizes: Sequence[int]) -> None:
        """The last one standing: first place."""
        winner.places = (1,)
        winner.prize = prizes[0] if prizes else 0
        self.placed += 1
        self._dirty.add(winner.entry_id)
