"""One table's play, whatever the table: the hand in play, the clock, pre-actions.

``TableSession`` wraps a dealer -- a ``CashTable`` or a tournament's table --
which deals hands and applies actions, and adds what every table does between
the player's intentions and the engine: whose turn it is and until when
(``TurnClock``), the time bank, pre-actions carried out when the turn comes
(R25), and, where the table says so, absent players played at once.

Only a decision taken in the hand begins a new turn: a turn is identified by
the hand and its event count, so reconnecting, setting a pre-action that does
not apply, sitting out and in, or anything another player does besides acting
leaves the running clock alone.

Every method returns what happened, in order: the dealer's events (engine and
room events, numbered) and the session's own entries (``TurnStarted``,
``TimeBankStarted``, ``PreActionCancelled``), which carry no number.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from drawpoker.actions import Action
from drawpoker.errors import IllegalAction
from drawpoker.events import Event, HandEnded, HandStarted, Street
from drawpoker.hand import Hand
from drawpoker.legal import LegalActions
from drawpoker.room import preactions
from drawpoker.room.clock import ClockConfig, Expiry, TurnClock
from drawpoker.room.preactions import PreAction, PreKind


class Dealer(Protocol):
    """What a session needs of the table it plays: the hand in play and how to
    apply an action or a time-out to it."""

    @property
    def hand(self) -> Hand | None: ...

    def act(self, action: Action, now: float) -> list[Event]: ...

    def timeout(self, seat: int, now: float) -> list[Event]: ...


@dataclass(frozen=True, slots=True)
class TurnStarted:
    """``seat`` must decide within ``clock_s`` seconds; ``legal`` is private to them."""

    seat: int
    street: Street
    clock_s: float
    hand_id: str
    legal: LegalActions


@dataclass(frozen=True, slots=True)
class TimeBankStarted:
    seat: int
    seconds: float
    hand_id: str


@dataclass(frozen=True, slots=True)
class PreActionCancelled:
    """Private to ``seat``: its pre-action no longer applied when the turn came."""

    seat: int
    kind: str
    hand_id: str


SessionEntry = TurnStarted | TimeBankStarted | PreActionCancelled
Step = list[Event | SessionEntry]


class TableSession:
    """See the module docstring."""

    def __init__(self, dealer: Dealer, clock: ClockConfig, *, absent_acts_now: bool = False):
        self.dealer = dealer
        self.clock = TurnClock(clock)
        self.absent_acts_now = absent_acts_now  # tournaments: an absent player acts at once
        self.absent: set[int] = set()  # seats whose player is away
        self._betting: dict[int, PreAction] = {}
        self._draws: dict[int, PreAction] = {}

    @property
    def hand(self) -> Hand | None:
        return self.dealer.hand

    @property
    def deadline(self) -> float | None:
        turn = self.clock.turn
        return None if turn is None else turn.deadline

    # ---------------------------------------------------------------- commands

    def after(self, events: Sequence[Event], now: float) -> Step:
        """The dealer did something (dealt a hand, applied a room command): go on
        from there -- pre-actions, absent players, the next turn."""
        return self._settle(events, now)

    def act(self, action: Action, now: float) -> Step:
        """A player's own decision (``IllegalAction`` if it is not legal now)."""
        hand = self.dealer.hand
        if hand is None:
            raise IllegalAction(f"seat {action.seat}: no hand is being played")
        hand.validate(action)
        (self._draws if action.kind == "draw" else self._betting).pop(action.seat, None)
        self.clock.end(now)
        return self._settle(self.dealer.act(action, now), now)

    def expire(self, now: float) -> Step:
        """The timer of the turn fired: start the time bank, or time the player out."""
        turn = self.clock.turn
        expiry = self.clock.expire(now)
        if turn is None or expiry is None:
            return []
        if expiry is Expiry.BANK:
            seconds = round(self.clock.remaining(now), 1)
            return [TimeBankStarted(turn.seat, seconds, turn.hand_id)]
        (self._draws if turn.draw_clock else self._betting).pop(turn.seat, None)
        return self._settle(self.dealer.timeout(turn.seat, now), now)

    def pre_action(self, seat: int, kind: PreKind, now: float, cards: tuple[int, ...] = ()) -> Step:
        """Hold a pre-action (``IllegalAction`` if it cannot be held). On the player's
        own turn it is carried out at once if it applies; if it does not, nothing
        changes: the turn and its clock go on."""
        hand = self.dealer.hand
        if hand is None:
            raise IllegalAction(f"seat {seat}: no hand is being played")
        pre = preactions.make(hand, seat, kind, cards)
        (self._draws if kind == "draw" else self._betting)[seat] = pre
        turn = self.clock.turn
        if turn is None or turn.seat != seat or hand.to_act != seat:
            return []
        legal = hand.legal_actions()
        assert legal is not None
        action = preactions.resolve(pre, legal, hand)
        if action is None:
            return []  # kept for a later turn if it may apply then; the clock runs on
        return self.act(action, now)

    def clear_pre_actions(self, seat: int) -> None:
        self._betting.pop(seat, None)
        self._draws.pop(seat, None)

    def pre_action_of(self, seat: int) -> PreAction | None:
        """The held draw if there is one, else the betting pre-action."""
        return self._draws.get(seat) or self._betting.get(seat)

    # ---------------------------------------------------------------- the loop

    def _settle(self, events: Sequence[Event], now: float) -> Step:
        """Carry out what follows without anyone deciding: pre-actions and absent
        players on their turn; then begin the next turn (or none: the hand is over)."""
        out: Step = list(events)
        self._note(out)
        while True:
            hand = self.dealer.hand
            if hand is None or hand.is_over:
                self.clock.end(now)
                return out
            key = (hand.hand_id, hand.next_seq)
            turn = self.clock.turn
            if turn is not None and turn.key == key:
                return out  # the same decision is still due: its clock runs on
            legal = hand.legal_actions()
            assert legal is not None
            seat = legal.seat
            betting = legal.street is Street.PRE_DRAW or legal.street is Street.POST_DRAW
            pres = self._draws if legal.draw else self._betting if betting else {}
            held = pres.pop(seat, None)
            if held is not None:
                action = preactions.resolve(held, legal, hand)
                if action is not None:
                    out += self._noted(self.dealer.act(action, now))
                    continue
                out.append(PreActionCancelled(seat, held.kind, hand.hand_id))
            if self.absent_acts_now and seat in self.absent:
                out += self._noted(self.dealer.timeout(seat, now))
                continue
            started = self.clock.begin(key, seat, legal.street, now, draw_clock=hand.on_draw_clock)
            out.append(TurnStarted(seat, legal.street, started.deadline - now, key[0], legal))
            return out

    def _noted(self, events: list[Event]) -> list[Event]:
        self._note(events)
        return events

    def _note(self, entries: Sequence[Event | SessionEntry]) -> None:
        """A new hand clears pre-actions; a finished one refills the time banks."""
        for entry in entries:
            if isinstance(entry, HandStarted):
                self._betting.clear()
                self._draws.clear()
            elif isinstance(entry, HandEnded):
                self._betting.clear()
                self._draws.clear()
                self.clock.refill([seat for seat, _ in entry.stacks])
