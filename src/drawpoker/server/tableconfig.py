"""A table's configuration: its rules (as data), buy-ins, clocks and bots."""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from drawpoker.rules import Rules


@dataclass(frozen=True, slots=True)
class TableConfig:
    id: str
    name: str
    rules: dict[str, Any]  # Rules.online/italian keyword arguments, "preset" included
    min_buy_in: int
    max_buy_in: int
    action_time_s: float = 15.0
    time_bank_s: float = 30.0
    disconnect_grace_s: float = 60.0
    sit_out_leave_s: float = 600.0
    between_hands_s: float = 2.0
    bots: int = 0
    bot_think_s: tuple[float, float] = (0.5, 1.5)
    bot_kinds: tuple[str, ...] = ("house",)  # names in drawpoker.bots, or "house"
    kind: str = "cash"

    def build_rules(self) -> Rules:
        args = dict(self.rules)
        preset = args.pop("preset", "online")
        if "rake_percent" in args:
            args["rake_percent"] = Fraction(str(args["rake_percent"]))
        if "rake_caps" in args:
            args["rake_caps"] = tuple(tuple(c) for c in args["rake_caps"])
        return Rules.italian(**args) if preset == "italian" else Rules.online(**args)

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
