"""A cash table as a room file describes it: its rules (as data), buy-ins,
clocks and bots. Each value is defined here once; the room layer gets its own
pieces (``room_config``, ``clock_config``)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from drawpoker.room import TableConfig as RoomTableConfig
from drawpoker.room.clock import ClockConfig
from drawpoker.rules import Rules


@dataclass(frozen=True, slots=True)
class TableConfig:
    id: str
    name: str
    rules: dict[str, Any]  # Rules.online/italian keyword arguments, "preset" included
    min_buy_in: int
    max_buy_in: int
    action_time_s: float = 15.0  # the betting clock (the draw's is the rules' draw_time_s)
    time_bank_s: float = 30.0  # each player's time bank; 2 s back after every hand
    disconnect_grace_s: float = 60.0  # away this long: sat out
    sit_out_leave_s: float = 600.0  # sat out and away this long: stood up, chips cashed out
    between_hands_s: float = 2.0
    bots: int = 0
    bot_think_s: tuple[float, float] = (0.5, 1.5)
    bot_kinds: tuple[str, ...] = ("house",)  # names in drawpoker.bots, or "house"
    kind: str = "cash"
    practice: bool = False  # hints for the player to act: hand strength, best discard
    seat_offer_s: float = 30.0  # a freed seat is held this long for the first on the waiting list
    # Reveal each hand's deck seed to everyone at its end (docs/fairness.md). Off by
    # default: the seed rebuilds every card, folded and mucked hands included.
    reveal_seed: bool = False

    def build_rules(self) -> Rules:
        args = dict(self.rules)
        preset = args.pop("preset", "online")
        if "rake_percent" in args:
            args["rake_percent"] = Fraction(str(args["rake_percent"]))
        if "rake_caps" in args:
            args["rake_caps"] = tuple(tuple(c) for c in args["rake_caps"])
        return Rules.italian(**args) if preset == "italian" else Rules.online(**args)

    def room_config(self, rules: Rules | None = None) -> RoomTableConfig:
        return RoomTableConfig(
            rules=rules or self.build_rules(),
            min_buy_in=self.min_buy_in,
            max_buy_in=self.max_buy_in,
            reveal_seed=self.reveal_seed,
        )

    def clock_config(self, rules: Rules | None = None) -> ClockConfig:
        rules = rules or self.build_rules()
        return ClockConfig(
            action_s=self.action_time_s, draw_s=rules.draw_time_s, time_bank_s=self.time_bank_s
        )

    def to_json(self) -> str:
        data = {k: getattr(self, k) for k in self.__dataclass_fields__}
        return json.dumps(data)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableConfig:
        data = dict(data)
        for key in ("bot_think_s", "bot_kinds"):
            if key in data:
                data[key] = tuple(data[key])
        return cls(**data)
