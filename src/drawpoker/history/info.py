"""What a hand history says besides the play: names, table, time, money.

The engine knows seats and chips; a history also names the players, the table,
the moment, the currency and, in a tournament, the event and level. None of it
changes how a hand plays, so it travels beside the ``Hand`` as a ``HandInfo``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True, kw_only=True)
class Tournament:
    """A tournament hand: the event id, buy-in and fee as printed, and the level."""

    id: str
    buy_in: str = ""  # "$10"
    fee: str = ""  # "$1"
    level: int = 1


@dataclass(frozen=True, slots=True, kw_only=True)
class HandInfo:
    """The metadata of one hand. Every field is optional."""

    names: Mapping[int, str] = field(default_factory=dict)  # seat -> player name
    table: str = ""
    time: dt.datetime | None = None
    time_zone: str = ""  # "ET", "UTC"
    time_text: str = ""  # a header date written verbatim (PokerStars prints two zones)
    currency: str = ""  # "USD"
    currency_symbol: str = ""  # "$"
    tournament: Tournament | None = None
    commitment: str = ""  # the deck commitment, when the hand was rebuilt without its seed

    def name(self, seat: int) -> str:
        return self.names.get(seat) or f"Player{seat}"
