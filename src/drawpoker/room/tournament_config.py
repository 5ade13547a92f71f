"""What a tournament is: its kind, status and configuration, and one entry."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from drawpoker.errors import InvalidConfig
from drawpoker.room.structure import Level, standard_levels
from drawpoker.rules import Structure


class Kind(StrEnum):
    SIT_AND_GO = "sit-and-go"  # starts when full
    SCHEDULED = "scheduled"  # starts at ``start_at`` if ``min_entries`` registered


class Status(StrEnum):
    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentConfig:
    kind: Kind = Kind.SIT_AND_GO
    structure: Structure = Structure.NO_LIMIT
    buy_in: int = 100  # to the prize pool
    fee: int = 10  # the house's
    starting_stack: int = 1500
    levels: tuple[Level, ...] = field(default_factory=standard_levels)
    seats_per_table: int = 8  # 2-8 (R2)
    max_entries: int = 9  # sit & go: starts when this many registered
    min_entries: int = 2  # scheduled: cancelled below this at the start time
    start_at: float = 0.0  # scheduled: the start time (seconds, the caller's clock)
    late_registration_levels: int = 0  # registration stays open through this level
    reentries: int = 0  # re-entries allowed per player during late registration
    paid_fraction: Fraction = Fraction(15, 100)
    hand_for_hand: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", Kind(self.kind))
        object.__setattr__(self, "structure", Structure(self.structure))
        for name in ("buy_in", "fee", "starting_stack", "max_entries", "min_entries"):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise InvalidConfig(f"{name} must be a non-negative int, got {value!r}")
        if self.starting_stack < 1:
            raise InvalidConfig("starting_stack must be at least 1")
        if not 2 <= self.seats_per_table <= 8:
            raise InvalidConfig(f"seats_per_table must be 2-8, got {self.seats_per_table}")
        if self.max_entries < 2 or self.min_entries < 2 or self.min_entries > self.max_entries:
            raise InvalidConfig("need 2 <= min_entries <= max_entries")
        if not self.levels:
            raise InvalidConfig("a tournament needs at least one level")
        if self.kind is Kind.SIT_AND_GO and (self.late_registration_levels or self.reentries):
            raise InvalidConfig("a sit & go has no late registration or re-entry")

    @property
    def entry_cost(self) -> int:
        return self.buy_in + self.fee


@dataclass(slots=True)
class Entry:
    """One entry (a player may have several with re-entry). The tournament changes
    it; callers read it."""

    entry_id: int
    player: str
    stack: int  # before the hand being played, if any
    table: int | None = None
    seat: int | None = None
    eliminated: int = 0  # elimination group number (1 = first out); 0 = alive
    places: tuple[int, ...] = ()  # the place, or the places shared in a tie
    prize: int = 0
    posted_big_blind: bool = False  # in the last hand they played

    @property
    def alive(self) -> bool:
        return self.eliminated == 0

    @property
    def place(self) -> int | None:
        return self.places[0] if self.places else None
