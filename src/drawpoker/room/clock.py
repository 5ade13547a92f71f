"""The table's clock: the turn of the player to act, its deadline, and the time banks.

Pure data driven by the time values it is given. A turn begins when a new
decision is due (``begin``); nothing else moves its deadline except the time
bank, once per turn, when the action clock runs out (``expire``). When the
player acts while their bank runs, the seconds they did not use stay in their
bank (``end``). The draw has its own clock (R26) and no time bank.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from drawpoker.errors import InvalidConfig
from drawpoker.events import Street


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockConfig:
    action_s: float = 15.0  # betting clock
    draw_s: float = 30.0  # the draw clock (R26: the rules' draw_time_s)
    time_bank_s: float = 30.0  # what a player starts with and the most a bank holds
    bank_refill_s: float = 2.0  # back in every bank after each hand
    min_bank_s: float = 1.0  # a bank below this is not started

    def __post_init__(self) -> None:
        if not (self.action_s > 0 and self.draw_s > 0):
            raise InvalidConfig("the action and draw clocks must be above 0 seconds")
        if min(self.time_bank_s, self.bank_refill_s, self.min_bank_s) < 0:
            raise InvalidConfig("time bank settings must not be negative")


class Expiry(Enum):
    BANK = "bank"  # the action clock ran out: the time bank now runs
    TIMEOUT = "timeout"  # the turn is over: the server acts for the player (R26, R47)


@dataclass(frozen=True, slots=True)
class Turn:
    """The decision due now: ``key`` identifies it (the hand and its event count),
    so that only a decision taken in the hand begins a new turn."""

    key: tuple[str, int]
    seat: int
    street: Street
    number: int  # turns of this clock, counted from 1: a timer's token
    started_at: float
    deadline: float
    bank: bool = False  # the time bank is running
    draw_clock: bool = False  # the draw's clock (R26; R48's request too): no time bank

    @property
    def hand_id(self) -> str:
        return self.key[0]


class TurnClock:
    """One table's clock; see the module docstring."""

    def __init__(self, config: ClockConfig) -> None:
        self.config = config
        self.banks: dict[int, float] = {}  # seat -> seconds in the time bank
        self.turn: Turn | None = None
        self._count = 0

    def seat(self, seat: int, bank: float | None = None) -> None:
        """A player sits (with a full bank unless ``bank`` says otherwise)."""
        self.banks[seat] = self.config.time_bank_s if bank is None else bank

    def unseat(self, seat: int) -> None:
        self.banks.pop(seat, None)

    def bank(self, seat: int, now: float) -> float:
        """The seconds in ``seat``'s bank now (a running bank counts down)."""
        turn = self.turn
        if turn is not None and turn.bank and turn.seat == seat:
            return max(0.0, turn.deadline - now)
        return self.banks.get(seat, 0.0)

    def begin(
        self, key: tuple[str, int], seat: int, street: Street, now: float, *, draw_clock: bool
    ) -> Turn:
        """A new decision is due: the clock of ``seat`` starts (``draw_clock``: the
        draw's clock, R26, rather than the betting clock)."""
        self.end(now)
        self._count += 1
        seconds = self.config.draw_s if draw_clock else self.config.action_s
        self.turn = Turn(key, seat, street, self._count, now, now + seconds, False, draw_clock)
        return self.turn

    def end(self, now: float) -> None:
        """The turn is over: a running bank keeps what was not used."""
        turn = self.turn
        if turn is not None and turn.bank:
            self.banks[turn.seat] = max(0.0, turn.deadline - now)
        self.turn = None

    def expire(self, now: float) -> Expiry | None:
        """Called when the deadline may have passed: None if it has not; BANK if the
        time bank starts now (once per turn, betting only); TIMEOUT otherwise."""
        turn = self.turn
        if turn is None or now < turn.deadline:
            return None
        bank = self.banks.get(turn.seat, 0.0)
        if not turn.bank and not turn.draw_clock and bank >= self.config.min_bank_s:
            self.banks[turn.seat] = 0.0
            self.turn = Turn(
                turn.key, turn.seat, turn.street, turn.number, turn.started_at, now + bank, True
            )
            return Expiry.BANK
        self.end(now)
        return Expiry.TIMEOUT

    def remaining(self, now: float) -> float:
        turn = self.turn
        return 0.0 if turn is None else max(0.0, turn.deadline - now)

    def refill(self, seats: list[int] | None = None) -> None:
        """After a hand: ``bank_refill_s`` back in the banks of ``seats`` (default all)."""
        cap = self.config.time_bank_s
        for seat in self.banks if seats is None else seats:
            if seat in self.banks:
                self.banks[seat] = min(cap, self.banks[seat] + self.config.bank_refill_s)
