"""The messages between a tournament and its tables, as plain data.

A tournament and each of its tables own their state alone and talk only by
these values (a server passes them between actors; ``tools.tournament_sim`` passes
them in one process):

- ``HandOrder`` (tournament -> table): deal this hand -- its id, level, rules,
  every seated player with the stack they start it with, the blinds plan and
  the table's next event number.
- ``HandFinished`` (table -> tournament): the hand is over -- the final stack of
  every seat dealt in, and the table's next event number.
- ``TableSeats`` (tournament -> table): who sits where now (after players moved,
  busted, or the table was broken); sent only to the tables whose seating
  changed (``Tournament.take_seating_changes``).
- ``HandSummary`` (the tournament's answer to ``finish_hand``): who was dealt,
  who posted the big blind, who busted.

Each has ``to_dict`` / ``from_dict`` (JSON-ready) for a bus between processes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from drawpoker.events import PostKind
from drawpoker.room.blinds import BlindPlan
from drawpoker.room.serial import rules_from_dict, rules_to_dict
from drawpoker.rules import Rules


class SeatedPlayer(NamedTuple):
    """One seat's player: the entry, the player's name and their stack."""

    entry_id: int
    player: str
    stack: int


def _seats_to_list(seats: Mapping[int, SeatedPlayer]) -> list[list[Any]]:
    return [[seat, s.entry_id, s.player, s.stack] for seat, s in seats.items()]


def _seats_from_list(rows: list[list[Any]]) -> dict[int, SeatedPlayer]:
    return {int(seat): SeatedPlayer(int(e), str(p), int(st)) for seat, e, p, st in rows}


def plan_to_dict(plan: BlindPlan) -> dict[str, Any]:
    return {
        "button": plan.button,
        "small_blind": plan.small_blind,
        "big_blind": plan.big_blind,
        "dealt": list(plan.dealt),
        "posts": [[seat, str(kind), amount] for seat, kind, amount in plan.posts],
        "sb_position": plan.sb_position,
        "missed": [list(m) for m in plan.missed],
        "fresh": plan.fresh,
    }


def plan_from_dict(data: Mapping[str, Any]) -> BlindPlan:
    return BlindPlan(
        button=data["button"],
        small_blind=data["small_blind"],
        big_blind=data["big_blind"],
        dealt=tuple(data["dealt"]),
        posts=tuple((seat, PostKind(kind), amount) for seat, kind, amount in data["posts"]),
        sb_position=data["sb_position"],
        missed=tuple((seat, big, small) for seat, big, small in data["missed"]),
        fresh=data["fresh"],
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class HandOrder:
    """Deal hand ``hand_id`` (the table's ``number``-th) at ``table_id``."""

    table_id: int
    hand_id: str
    number: int  # 1 = the table's first hand
    level: int  # 0-based
    rules: Rules  # the level's (``structure.rules_for``)
    seats: Mapping[int, SeatedPlayer]  # every seated player; ``plan.dealt`` are dealt in
    plan: BlindPlan  # button, blinds, the seats dealt in, the posts for ``Hand``
    first_seq: int  # the number of the hand's first event at this table

    @property
    def dealt(self) -> tuple[int, ...]:
        return self.plan.dealt

    def stacks(self) -> dict[int, int]:
        """The stacks the dealt seats start the hand with."""
        return {seat: self.seats[seat].stack for seat in self.plan.dealt}

    def to_dict(self) -> dict[str, Any]:
        return {
            "table_id": self.table_id,
            "hand_id": self.hand_id,
            "number": self.number,
            "level": self.level,
            "rules": rules_to_dict(self.rules),
            "seats": _seats_to_list(self.seats),
            "plan": plan_to_dict(self.plan),
            "first_seq": self.first_seq,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HandOrder:
        return cls(
            table_id=data["table_id"],
            hand_id=data["hand_id"],
            number=data["number"],
            level=data["level"],
            rules=rules_from_dict(data["rules"]),
            seats=_seats_from_list(data["seats"]),
            plan=plan_from_dict(data["plan"]),
            first_seq=data["first_seq"],
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class HandFinished:
    """Hand ``hand_id`` at ``table_id`` is over: ``stacks`` (seat -> final chips) of
    every seat dealt in; the table's events continue from ``next_seq``."""

    table_id: int
    hand_id: str
    stacks: Mapping[int, int]
    next_seq: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "table_id": self.table_id,
            "hand_id": self.hand_id,
            "stacks": [[seat, chips] for seat, chips in self.stacks.items()],
            "next_seq": self.next_seq,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HandFinished:
        return cls(
            table_id=data["table_id"],
            hand_id=data["hand_id"],
            stacks={int(seat): chips for seat, chips in data["stacks"]},
            next_seq=data["next_seq"],
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class TableSeats:
    """Who sits at ``table_id`` now, with their stacks (those before the hand in
    play, if any). ``closed``: the table was broken, or the tournament is over."""

    table_id: int
    seats: Mapping[int, SeatedPlayer]
    closed: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "table_id": self.table_id,
            "seats": _seats_to_list(self.seats),
            "closed": self.closed,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableSeats:
        return cls(
            table_id=data["table_id"], seats=_seats_from_list(data["seats"]), closed=data["closed"]
        )


@dataclass(frozen=True, slots=True)
class HandSummary:
    """What ``Tournament.finish_hand`` tells its caller (entry ids)."""

    table_id: int
    hand_id: str
    level: int
    dealt: tuple[int, ...]  # entry ids
    big_blind: int | None  # the entry that posted the positional big blind
    busted: tuple[int, ...]
