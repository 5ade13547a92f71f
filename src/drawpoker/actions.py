"""What a player does (``Action``); what they may do is ``LegalActions`` (``drawpoker.legal``)."""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Final, cast

from drawpoker.cards import DECK, parse_cards
from drawpoker.errors import InvalidAction
from drawpoker.legal import LegalActions


class ActionKind(StrEnum):
    FOLD = "fold"
    CHECK = "check"  # also the Italian "pass" before an opening
    CALL = "call"
    BET = "bet"  # bet, raise, open or complete: ``amount`` is the wager TO this total
    DRAW = "draw"  # discard ``cards`` (none: stand pat)
    TIMEOUT = "timeout"  # the clock ran out (R26, R47, R48)
    ASK_OPENERS = "ask-openers"  # R48: ask to see the opener's openers
    DECLINE = "decline"  # R48: do not ask


class Action:
    """One player's action: ``Action(seat, kind, amount=0, cards=())``, checked on
    construction (``InvalidAction``, ``InvalidCards``). The constructors take
    ``object``: whatever a client sent is checked here, with a clear error.

    A plain class with final attributes, like ``LegalActions``: native and
    read-only at run time when the engine is compiled. It compares, hashes and
    prints by value.
    """

    __slots__ = ("amount", "cards", "kind", "seat")

    def __init__(
        self,
        seat: object,
        kind: object,
        amount: object = 0,
        cards: object = (),
        *,
        _checked: bool = False,  # the named constructors below checked the values
    ) -> None:
        # Parameters are ``object``: bad input from a client reaches ``_check`` (and
        # its InvalidAction), not the compiled class's own type check.
        if not _checked:
            kind, cards = _check(seat, kind, amount, cards)
        self.seat: Final[int] = cast(int, seat)
        self.kind: Final[ActionKind] = cast(ActionKind, kind)
        self.amount: Final[int] = cast(int, amount)
        self.cards: Final[tuple[int, ...]] = cast(tuple[int, ...], cards)

    def _values(self) -> tuple[int, ActionKind, int, tuple[int, ...]]:
        return (self.seat, self.kind, self.amount, self.cards)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Action):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return (
            f"Action(seat={self.seat!r}, kind={self.kind!r}, amount={self.amount!r}, "
            f"cards={self.cards!r})"
        )

    @classmethod
    def fold(cls, seat: object) -> Action:
        return cls._plain(seat, _FOLD)

    @classmethod
    def check(cls, seat: object) -> Action:
        return cls._plain(seat, _CHECK)

    @classmethod
    def call(cls, seat: object) -> Action:
        return cls._plain(seat, _CALL)

    @classmethod
    def bet(cls, seat: object, to: object) -> Action:
        """Bet, raise, open or complete to a total wager of ``to`` this round."""
        if type(seat) is int and type(to) is int and to > 0:
            return cls(seat, _BET, to, (), _checked=True)
        return cls(seat, _BET, to)

    @classmethod
    def draw(cls, seat: object, cards: object = ()) -> Action:
        if type(cards) is tuple and type(seat) is int:
            # Distinct card indexes, the usual case: as parse_cards, without its loop.
            known = [DECK[c] for c in cards if type(c) is int and 0 <= c < 52]
            if len(set(known)) == len(cards):
                return cls(seat, _DRAW, 0, tuple(known), _checked=True)
        return cls(seat, _DRAW, 0, cards)

    @classmethod
    def stand_pat(cls, seat: object) -> Action:
        return cls._plain(seat, _DRAW)

    @classmethod
    def timeout(cls, seat: object) -> Action:
        return cls._plain(seat, _TIMEOUT)

    @classmethod
    def ask_openers(cls, seat: object) -> Action:
        """R48: ask to see the openers at the end of the hand."""
        return cls._plain(seat, _ASK)

    @classmethod
    def decline(cls, seat: object) -> Action:
        """R48: let the openers go unseen."""
        return cls._plain(seat, _DECLINE)

    @classmethod
    def _plain(cls, seat: object, kind: ActionKind) -> Action:
        """An action without amount or cards: only the seat needs checking. Actions
        are values, so those of seats 1-8 are made once and shared."""
        if type(seat) is not int:
            return cls(seat, kind)
        return _PLAIN.get((seat, kind)) or cls(seat, kind, 0, (), _checked=True)


def _check(
    seat: object, kind: object, amount: object, cards: object
) -> tuple[ActionKind, tuple[int, ...]]:
    """The action's kind and cards as they are kept, or ``InvalidAction``/``InvalidCards``."""
    if type(seat) is not int:
        raise InvalidAction(f"seat must be an integer, not {seat!r}")
    if type(kind) is not ActionKind:
        known = _KINDS.get(kind) if isinstance(kind, str) else None
        if known is None:
            raise InvalidAction(f"unknown action {kind!r} (one of {', '.join(_KINDS)})")
        kind = known
    if type(amount) is not int:
        raise InvalidAction(f"amount must be a whole number of chips, not {amount!r}")
    if amount < 0:
        raise InvalidAction(f"amount must not be negative, got {amount}")
    if kind is ActionKind.BET:
        if amount == 0:
            raise InvalidAction("a bet or raise needs the amount to bet or raise to")
    elif amount:
        raise InvalidAction(f"{kind} takes no amount (call amounts are implied)")
    if not cards:
        return kind, ()
    if kind is not ActionKind.DRAW:
        raise InvalidAction(f"{kind} takes no cards")
    if not isinstance(cards, str | Iterable):
        raise InvalidAction(f"cards must be text or a sequence of cards, not {cards!r}")
    return kind, parse_cards(cards)


# Globals: reading an enum member through its class is ten times slower.
_FOLD, _CHECK, _CALL, _BET = ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.BET
_DRAW, _TIMEOUT = ActionKind.DRAW, ActionKind.TIMEOUT
_ASK, _DECLINE = ActionKind.ASK_OPENERS, ActionKind.DECLINE
_KINDS = {kind.value: kind for kind in ActionKind}
_PLAIN = {
    (seat, kind): Action(seat, kind, 0, (), _checked=True)
    for seat in range(1, 9)
    for kind in (_FOLD, _CHECK, _CALL, _DRAW, _TIMEOUT, _ASK, _DECLINE)
}

__all__ = ["Action", "ActionKind", "LegalActions"]
