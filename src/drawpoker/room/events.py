"""What a table reports besides the hands: seat changes, in the past tense.

They are ``drawpoker.events.Event`` subclasses, numbered in the same ``seq``
sequence as the hands' events (a table numbers every event without gaps) and
visible to everyone. Changes asked for during a hand are reported when it ends.
"""

from __future__ import annotations

from dataclasses import dataclass

from drawpoker.events import Event


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerSeated(Event):
    seat: int
    player: str
    stack: int
    post: bool  # True: posts a big blind to be dealt in; False: waits for the big blind


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerLeft(Event):
    seat: int
    player: str
    chips: int  # back to the player's balance


@dataclass(frozen=True, slots=True, kw_only=True)
class ToppedUp(Event):
    seat: int
    amount: int
    stack: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SatOut(Event):
    seat: int
    reason: str  # "request", "timeouts", "busted", "disconnected"


@dataclass(frozen=True, slots=True, kw_only=True)
class SatIn(Event):
    seat: int
    post: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class BlindsMissed(Event):
    """The blinds passed a player who sat out: owed on return (R9)."""

    seat: int
    big_blind: bool
    small_blind: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class ConnectionChanged(Event):
    seat: int
    connected: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class HandCancelled(Event):
    """A hand that could not finish (server restart): every chip went back to its seat."""

    hand_id: str
    stacks: tuple[tuple[int, int], ...]
    carried_pot: int


# ------------------------------------------------------------- tournaments
# Numbered in one sequence per tournament (``Tournament.notices``).


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentStarted(Event):
    entries: int
    tables: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentCancelled(Event):
    entries: int  # every entry is refunded its buy-in and fee


@dataclass(frozen=True, slots=True, kw_only=True)
class LevelStarted(Event):
    level: int  # 1-based
    small_blind: int
    big_blind: int
    ante: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RegistrationClosed(Event):
    entries: int
    prize_pool: int
    payouts: tuple[int, ...]  # prize by place, first place first


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerMoved(Event):
    entry: int
    player: str
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    broke: bool  # the old table was broken


@dataclass(frozen=True, slots=True, kw_only=True)
class TableBroken(Event):
    table: int


@dataclass(frozen=True, slots=True, kw_only=True)
class FinalTable(Event):
    table: int
    players: int


@dataclass(frozen=True, slots=True, kw_only=True)
class HandForHand(Event):
    on: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerEliminated(Event):
    entry: int
    player: str
    places: tuple[int, ...]  # one place, or the places shared in a tie
    prize: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentFinished(Event):
    winner: int  # entry id
    player: str
    prize: int
