"""The room a server runs: the default room, or a room file's tables and
tournaments (JSON: ``{"tables": [...], "tournaments": [...]}``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from drawpoker.errors import InvalidConfig
from drawpoker.server.tableconfig import TableConfig

# drawpoker.bots by name; the shark (up to ~25 ms a decision) is left out of the
# default room so that bots never hold a table actor's event loop for long.
BOT_KINDS = ("tag", "calling-station", "random")


def default_room() -> list[TableConfig]:
    """Cash tables of each structure at two stakes, 6-max and 8-max, online and
    Italian, with bots seated so a newcomer can play at once."""
    configs = []
    for structure, short in (("fixed-limit", "fl"), ("pot-limit", "pl"), ("no-limit", "nl")):
        for sb, bb in ((1, 2), (5, 10)):
            for seats in (6, 8):
                rules: dict[str, Any] = {
                    "preset": "online",
                    "structure": structure,
                    "small_blind": sb,
                    "big_blind": bb,
                    "max_seats": seats,
                    "rake_percent": "5",
                    "rake_caps": [[2, bb], [3, 2 * bb], [5, 3 * bb]],
                }
                name = {"fl": "Limit", "pl": "Pot Limit", "nl": "No Limit"}[short]
                configs.append(
                    TableConfig(
                        id=f"{short}-{bb}-{seats}",
                        name=f"{name} {sb}/{bb} {seats}-max",
                        rules=rules,
                        min_buy_in=20 * bb,
                        max_buy_in=100 * bb,
                        bots=2 if seats == 6 else 3,
                        bot_kinds=BOT_KINDS,
                    )
                )
    for invito in (10, 50):
        for seats in (6, 8):
            configs.append(
                TableConfig(
                    id=f"it-{invito}-{seats}",
                    name=f"Italian invito {invito} {seats}-max",
                    rules={
                        "preset": "italian",
                        "invito": invito,
                        "max_seats": seats,
                        "rake_percent": "5",
                        "rake_caps": [[2, invito], [3, 2 * invito], [5, 3 * invito]],
                    },
                    min_buy_in=20 * invito,
                    max_buy_in=100 * invito,
                    bots=2 if seats == 6 else 3,
                    bot_kinds=BOT_KINDS,
                )
            )
    return configs


def load_tables(path: Path | None) -> list[TableConfig]:
    """The cash tables of a room file (its ``"tables"`` key); without one, the default room's."""
    if path is None:
        return default_room()
    try:
        data = json.loads(path.read_text())
        return [TableConfig.from_dict(t) for t in data["tables"]]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise InvalidConfig(f"room file {path}: {error}") from None
