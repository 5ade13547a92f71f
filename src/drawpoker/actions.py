"""What a player does (``Action``); what they may do is ``LegalActions`` (``drawpoker.legal``)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from drawpoker.cards import DECK, parse_cards
from drawpoker.errors import InvalidAction
from drawpoker.events import positional_maker
from drawpoker.legal import LegalActions


class ActionKind(StrEnum):
    FOLD = "fold"
    CHECK = "check"  # also the Italian "pass" before an opening
    CALL = "call"
    BET = "bet"  # bet, raise, open or complete: ``amount`` is the wager TO this total
    DRAW = "draw"  # discard ``cards`` (none: stand pat)
    TIMEOUT = "timeout"  # the clock ran out (R26, R47)


@dataclass(frozen=True, slots=True)
class Action:
    seat: int
    kind: ActionKind
    amount: int = 0
    cards: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if type(self.seat) is not int:
            raise InvalidAction(f"seat must be an integer, not {self.seat!r}")
        if type(self.kind) is not ActionKind:
            try:
                object.__setattr__(self, "kind", ActionKind(self.kind))
            except ValueError:
                kinds = ", ".join(k.value for k in ActionKind)
                raise InvalidAction(f"unknown action {self.kind!r} (one of {kinds})") from None
        if type(self.amount) is not int:
            raise InvalidAction(f"amount must be a whole number of chips, not {self.amount!r}")
        if self.amount < 0:
            raise InvalidAction(f"amount must not be negative, got {self.amount}")
        if self.kind is ActionKind.BET:
            if self.amount == 0:
                raise InvalidAction("a bet or raise needs the amount to bet or raise to")
        elif self.amount:
            raise InvalidAction(f"{self.kind} takes no amount (call amounts are implied)")
        if self.cards:
            if self.kind is not ActionKind.DRAW:
                raise InvalidAction(f"{self.kind} takes no cards")
            object.__setattr__(self, "cards", parse_cards(self.cards))

    @classmethod
    def fold(cls, seat: int) -> Action:
        return cls._plain(seat, _FOLD)

    @classmethod
    def check(cls, seat: int) -> Action:
        return cls._plain(seat, _CHECK)

    @classmethod
    def call(cls, seat: int) -> Action:
        return cls._plain(seat, _CALL)

    @classmethod
    def bet(cls, seat: int, to: int) -> Action:
        """Bet, raise, open or complete to a total wager of ``to`` this round."""
        if type(seat) is int and type(to) is int and to > 0:
            return _make(seat, _BET, to, ())
        return cls(seat, _BET, to)

    @classmethod
    def draw(cls, seat: int, cards: str | tuple[int, ...] = ()) -> Action:
        if type(cards) is tuple and type(seat) is int:
            # Distinct card indexes, the usual case: as parse_cards, without its loop.
            known = [DECK[c] for c in cards if type(c) is int and 0 <= c < 52]
            if len(set(known)) == len(cards):
                return _make(seat, _DRAW, 0, tuple(known))
        return cls(seat, _DRAW, 0, parse_cards(cards) if isinstance(cards, str) else cards)

    @classmethod
    def stand_pat(cls, seat: int) -> Action:
        return cls._plain(seat, _DRAW)

    @classmethod
    def timeout(cls, seat: int) -> Action:
        return cls._plain(seat, _TIMEOUT)

    @classmethod
    def _plain(cls, seat: int, kind: ActionKind) -> Action:
        """An action without amount or cards: only the seat needs checking. Actions
        are values, so those of seats 1-8 are made once and shared."""
        if type(seat) is not int:
            return cls(seat, kind)
        return _PLAIN.get((seat, kind)) or _make(seat, kind, 0, ())


# The named constructors above check what they were given and skip ``__post_init__``.
_make = positional_maker(Action)
# Globals: reading an enum member through its class is ten times slower.
_FOLD, _CHECK, _CALL, _BET = ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.BET
_DRAW, _TIMEOUT = ActionKind.DRAW, ActionKind.TIMEOUT
_PLAIN = {
    (seat, kind): _make(seat, kind, 0, ())
    for seat in range(1, 9)
    for kind in (_FOLD, _CHECK, _CALL, _DRAW, _TIMEOUT)
}

__all__ = ["Action", "ActionKind", "LegalActions"]
