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
from drawpoker.room.payouts import paid_places, payout_table
from drawpoker.room.structure import Level, standard_levels
from drawpoker.room.table import CashTable, DisconnectPolicy, HandRecord, Seat, TableConfig
from drawpoker.room.tournament import Entry, Kind, Status, Tournament, TournamentConfig
from drawpoker.room.tournament_orders import (
    HandFinished,
    HandOrder,
    HandSummary,
    SeatedPlayer,
    TableSeats,
)
from drawpoker.room.tournament_table import TournamentTable

__all__ = [
    "BlindPlan",
    "BuyInOutOfRange",
    "CashTable",
    "Debt",
    "DisconnectPolicy",
    "Entry",
    "HandFinished",
    "HandInProgress",
    "HandOrder",
    "HandRecord",
    "HandSummary",
    "Kind",
    "Level",
    "NotEnoughPlayers",
    "NotSeated",
    "RoomError",
    "Seat",
    "SeatTaken",
    "SeatedPlayer",
    "Status",
    "TableConfig",
    "TableSeats",
    "Tournament",
    "TournamentConfig",
    "TournamentError",
    "TournamentTable",
    "paid_places",
    "payout_table",
    "plan_blinds",
    "standard_levels",
]
