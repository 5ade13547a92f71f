"""Tournament blind structures: levels by time, with optional antes."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from drawpoker.errors import InvalidConfig
from drawpoker.rules import Rules, Structure


@dataclass(frozen=True, slots=True)
class Level:
    small_blind: int
    big_blind: int
    ante: int = 0
    minutes: float = 10.0

    def __post_init__(self) -> None:
        for name in ("small_blind", "big_blind", "ante"):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise InvalidConfig(f"level {name} must be a non-negative int, got {value!r}")
        if self.big_blind < 1 or self.small_blind > self.big_blind:
            raise InvalidConfig(f"level {self.small_blind}/{self.big_blind}: need 0 <= sb <= bb")
        if self.minutes <= 0:
            raise InvalidConfig("a level lasts a positive number of minutes")


# Big blinds of the standard schedule; the small blind is half (rounded down).
_STANDARD_BIG_BLINDS = (
    20, 30, 40, 60, 80, 100, 150, 200, 300, 400, 500, 600, 800, 1000, 1200, 1500, 2000,
    2500, 3000, 4000, 5000, 6000, 8000, 10000, 12000, 15000, 20000, 25000, 30000, 40000,
    50000, 60000, 80000, 100000, 120000, 150000, 200000, 250000, 300000, 400000, 500000,
    600000, 800000, 1000000,
)  # fmt: skip


def standard_levels(
    minutes: float = 10.0, *, antes_from: int | None = None, scale: int = 1
) -> tuple[Level, ...]:
    """A doubling-ish schedule from 10/20 (times ``scale``). With ``antes_from``, an
    ante of an eighth of the big blind from that level (1-based) on."""
    levels = []
    for i, big in enumerate(_STANDARD_BIG_BLINDS, start=1):
        big *= scale
        ante = big // 8 if antes_from is not None and i >= antes_from else 0
        levels.append(Level(big // 2, big, ante, minutes))
    return tuple(levels)


def level_index(levels: tuple[Level, ...], elapsed_s: float) -> int:
    """The 0-based level in force ``elapsed_s`` seconds after the start (the last
    level stays once the schedule runs out)."""
    t = 0.0
    for i, level in enumerate(levels):
        t += level.minutes * 60.0
        if elapsed_s < t:
            return i
    return len(levels) - 1


@lru_cache(maxsize=256)
def rules_for(structure: Structure, level: Level, max_seats: int) -> Rules:
    """Tournament rules at a level: no rake, the fixed-limit cap never lifted (R15, R36)."""
    return Rules.online(
        structure=structure,
        small_blind=level.small_blind,
        big_blind=level.big_blind,
        antes=level.ante,
        max_seats=max_seats,
        fl_cap_lifted_heads_up=False,
        rake_percent=0,
    )
