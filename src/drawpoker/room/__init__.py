"""The room: cash-table sessions and tournaments, synchronous and without I/O.

Driven by commands and a time value it is given; it calls the engine
(``drawpoker.hand.Hand``) for each hand. See ``docs/room.md``.
"""

from drawpoker.room.blinds import BlindPlan, Debt, plan_blinds
from drawpoker.room.errors import (
    BuyInOutOfRange,
    HandInProgress,
    NotEnoughPlayers,
    NotSeated,
    RoomError,
    SeatTaken,
    TournamentError,
)
from drawpoker.room.table import CashTable, DisconnectPolicy, HandRecord, Seat, TableConfig

__all__ = [
    "BlindPlan",
    "BuyInOutOfRange",
    "CashTable",
    "Debt",
    "DisconnectPolicy",
    "HandInProgress",
    "HandRecord",
    "NotEnoughPlayers",
    "NotSeated",
    "RoomError",
    "Seat",
    "SeatTaken",
    "TableConfig",
    "TournamentError",
    "plan_blinds",
]
