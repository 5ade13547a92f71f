"""What a room file says about a tournament: ``TournamentSpec``, the default room's
tournaments, and reading them from a room file (its ``"tournaments"`` key)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from drawpoker.errors import InvalidConfig
from drawpoker.room.clock import ClockConfig
from drawpoker.room.structure import Level, standard_levels
from drawpoker.room.tournament import Kind, TournamentConfig
from drawpoker.rules import Structure

KINDS = {"sit-and-go": Kind.SIT_AND_GO, "scheduled": Kind.SCHEDULED}
_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,19}")
_RUN = re.compile(r"(?P<spec>.+)-[0-9a-f]{6}")  # a run: its tournament's id and 6 hex digits
_TABLE = re.compile(r"(?P<run>.+-[0-9a-f]{6})-t[0-9]+")  # a run's table: <run>-t<n>


def spec_of_run(name: str) -> str | None:
    """The tournament a run's id names (``<spec>-<6 hex digits>``), if it is one."""
    match = _RUN.fullmatch(name)
    return None if match is None else match["spec"]


def spec_of_table(name: str) -> str | None:
    """The tournament whose run a table id names (``<run>-t<n>``), if it is one."""
    match = _TABLE.fullmatch(name)
    return None if match is None else spec_of_run(match["run"])


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentSpec:
    """A tournament the room runs, again and again with ``repeat``."""

    id: str  # 1-20 characters: a-z, 0-9, "-"
    name: str
    kind: str = "sit-and-go"  # or "scheduled"
    structure: str = "no-limit"
    buy_in: int = 100
    fee: int = 10
    starting_stack: int = 1500
    max_entries: int = 6
    min_entries: int = 2  # scheduled: cancelled and refunded with fewer at the start time
    seats_per_table: int = 6
    level_minutes: float = 5.0
    levels: tuple[tuple[int, int, int, float], ...] = ()  # (sb, bb, ante, minutes); () = standard
    start_every_minutes: float = 60.0  # scheduled: a new run starts this often
    first_start_s: float = 600.0  # scheduled: the first run starts this long after the server
    bots: int = 0  # bot entrants the server registers (at most max_entries)
    bot_kinds: tuple[str, ...] = ("tag", "calling-station", "random")
    bot_register_s: float = 5.0  # one bot registers every this many seconds
    bot_think_s: float = 0.0  # the longest pause before a bot acts
    between_hands_s: float = 1.0
    action_time_s: float = 15.0  # a connected player's clock ...
    time_bank_s: float = 30.0  # ... and time bank (2 s back after each hand)
    repeat: bool = True  # a new run opens when one starts

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not _ID.fullmatch(self.id):
            raise InvalidConfig(f"tournament id {self.id!r}: 1-20 characters a-z, 0-9, '-'")
        if self.kind not in KINDS:
            raise InvalidConfig(f"tournament {self.id}: kind is one of {', '.join(KINDS)}")
        if not 0 <= self.bots <= self.max_entries:
            raise InvalidConfig(f"tournament {self.id}: bots must be 0-{self.max_entries}")
        for name in ("start_every_minutes", "bot_register_s", "action_time_s"):
            if not getattr(self, name) > 0:
                raise InvalidConfig(f"tournament {self.id}: {name} must be above 0")
        for name in ("first_start_s", "bot_think_s", "between_hands_s", "time_bank_s"):
            if not getattr(self, name) >= 0:
                raise InvalidConfig(f"tournament {self.id}: {name} must be 0 or more")
        self.tournament_config()  # fail now on a bad structure

    @property
    def scheduled(self) -> bool:
        return self.kind == "scheduled"

    def clock_config(self) -> ClockConfig:
        """The clock of a connected player at this tournament's tables."""
        return ClockConfig(action_s=self.action_time_s, time_bank_s=self.time_bank_s)

    def tournament_config(self, start_at: float = 0.0) -> TournamentConfig:
        levels = (
            tuple(Level(sb, bb, ante, minutes) for sb, bb, ante, minutes in self.levels)
            if self.levels
            else standard_levels(self.level_minutes)
        )
        try:
            return TournamentConfig(
                kind=KINDS[self.kind],
                structure=Structure(self.structure),
                buy_in=self.buy_in,
                fee=self.fee,
                starting_stack=self.starting_stack,
                levels=levels,
                seats_per_table=self.seats_per_table,
                max_entries=self.max_entries,
                min_entries=self.min_entries,
                start_at=start_at,
            )
        except ValueError as error:
            raise InvalidConfig(f"tournament {self.id}: {error}") from None

    def to_json(self) -> str:
        return json.dumps({name: getattr(self, name) for name in self.__dataclass_fields__})

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TournamentSpec:
        args = dict(data)
        if "levels" in args:
            args["levels"] = tuple(tuple(level) for level in args["levels"])
        if "bot_kinds" in args:
            args["bot_kinds"] = tuple(args["bot_kinds"])
        return cls(**args)


def default_tournaments() -> list[TournamentSpec]:
    """The default room: a 6-player sit & go that bots fill one by one, and a
    scheduled multi-table tournament every 30 minutes that bots register for."""
    return [
        TournamentSpec(
            id="sng-6",
            name="Sit & Go 6 No Limit 100+10",
            buy_in=100,
            fee=10,
            starting_stack=1500,
            max_entries=6,
            seats_per_table=6,
            level_minutes=3.0,
            bots=6,
            bot_register_s=20.0,
            bot_think_s=1.0,
            between_hands_s=2.0,
        ),
        TournamentSpec(
            id="mtt-30",
            name="Half-hourly No Limit 50+5",
            kind="scheduled",
            buy_in=50,
            fee=5,
            starting_stack=2000,
            max_entries=60,
            seats_per_table=6,
            level_minutes=4.0,
            start_every_minutes=30.0,
            first_start_s=600.0,
            bots=18,
            bot_register_s=20.0,
            bot_think_s=1.0,
            between_hands_s=2.0,
        ),
    ]


def load_tournaments(path: Path | None) -> list[TournamentSpec]:
    """The tournaments of a room file (its ``"tournaments"`` key, default none);
    without a room file, the default room's."""
    if path is None:
        return default_tournaments()
    try:
        data = json.loads(path.read_text())
        return [TournamentSpec.from_dict(t) for t in data.get("tournaments", [])]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise InvalidConfig(f"room file {path}: tournaments: {error}") from None
