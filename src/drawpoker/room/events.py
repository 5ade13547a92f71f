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
