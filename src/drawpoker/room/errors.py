"""The errors the room raises: each a ``DrawPokerError`` naming the seat or player."""

from __future__ import annotations

from drawpoker.errors import DrawPokerError


class RoomError(DrawPokerError, ValueError):
    """A room command that cannot be carried out now (the state is unchanged)."""


class SeatTaken(RoomError):
    """The seat is occupied, or the player already sits at this table."""


class NotSeated(RoomError):
    """No player at this seat, or the player is not at this table."""


class BuyInOutOfRange(RoomError):
    """A buy-in or top-up outside the table's minimum and maximum."""


class NotEnoughPlayers(RoomError):
    """A hand needs 2 or more players able to play (R2)."""


class HandInProgress(RoomError):
    """The command needs the table between hands (or a hand that is running)."""


class TournamentError(RoomError):
    """A tournament command that is not allowed now: registration closed, busted, ..."""
