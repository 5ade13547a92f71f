"""What a hand reports: frozen, slotted events in the past tense.

Every event carries ``seq`` (numbered without gaps, from the hand's first
``seq``) and ``visible_to``: ``EVERYONE``, ``SERVER`` or a seat number. A
player's cards travel only in events that seat may see; the others see counts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, Final, TypeVar

EVERYONE: Final = -1
SERVER: Final = 0  # seats are numbered from 1


class Street(StrEnum):
    PRE_DRAW = "pre-draw"
    DRAW = "draw"
    POST_DRAW = "post-draw"
    SHOWDOWN = "showdown"
    OPENERS = "openers"  # R48: the players decide whether to ask to see the openers
    OVER = "over"


class PostKind(StrEnum):
    SMALL_BLIND = "small blind"
    BIG_BLIND = "big blind"
    DEAD_SMALL_BLIND = "dead small blind"  # missed blind posted on return (R9)
    ANTE = "ante"
    INVITO = "invito"  # R37


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    seq: int
    visible_to: int = EVERYONE

    def visible(self, viewer: int) -> bool:
        """May ``viewer`` (a seat, ``EVERYONE`` for a spectator, ``SERVER``) see it?"""
        return viewer == SERVER or self.visible_to == EVERYONE or self.visible_to == viewer


@dataclass(frozen=True, slots=True, kw_only=True)
class HandStarted(Event):
    hand_id: str
    button: int
    stacks: tuple[tuple[int, int], ...]  # (seat, stack) in seat order
    carried_pot: int
    commitment: str  # Merkle root of the deck in dealing order, "" for a stacked deck
    # How the deck seed was made (docs/fairness.md): SHA-256 of the room's seed,
    # the players' contributions mixed in ((seat, SHA-256 of the text) pairs), and
    # SHA-256 of the next hand's room seed. Empty when the hand was given its seed.
    server_commitment: str = ""
    entropy: tuple[tuple[int, str], ...] = ()
    next_commitment: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Posted(Event):
    seat: int
    kind: PostKind
    amount: int
    all_in: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsDealt(Event):
    """Public: how many cards each seat got, in dealing order."""

    seats: tuple[int, ...]
    count: int


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsReceived(Event):
    """Private to ``seat``: the cards it was dealt or drew."""

    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Folded(Event):
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Checked(Event):
    """A check, or a pass in the Italian game before anyone opens."""

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Called(Event):
    seat: int
    amount: int  # chips added
    all_in: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class BetPlaced(Event):
    """A first bet of a round (``opened``: the Italian opening; ``completed``:
    a fixed-limit completion of a short all-in bet)."""

    seat: int
    amount: int
    all_in: bool
    opened: bool = False
    completed: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Raised(Event):
    seat: int
    increment: int  # over the highest wager before the raise
    to: int
    all_in: bool
    full: bool  # a full raise: reopens the betting (R16, R19)


@dataclass(frozen=True, slots=True, kw_only=True)
class TimedOut(Event):
    """The clock ran out; the action taken follows as its own event (R26, R47)."""

    seat: int
    street: Street
    penalized: bool  # R26: may only check, call or fold after the draw


@dataclass(frozen=True, slots=True, kw_only=True)
class BettingRoundEnded(Event):
    street: Street
    pot: int  # every chip in the middle, carried pot included


@dataclass(frozen=True, slots=True, kw_only=True)
class UncalledBetReturned(Event):
    seat: int
    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class CardBurned(Event):
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class StoodPat(Event):
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Discarded(Event):
    """Public: ``seat`` threw ``count`` cards; ``now`` replacements come at once."""

    seat: int
    count: int
    now: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DiscardedCards(Event):
    """Private to ``seat``: which cards it threw."""

    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Reshuffled(Event):
    """R24: the stub and the eligible discards became a new stub of ``size``;
    ``excluded_seat``'s own discards stayed out."""

    size: int
    excluded_seat: int
    commitment: str = ""  # Merkle root of the new stub in dealing order


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsDelivered(Event):
    """Public: ``seat`` received ``count`` replacement cards (``deferred``: the
    rest of a discard beyond ``max_consecutive_draw``)."""

    seat: int
    count: int
    deferred: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class HandShown(Event):
    seat: int
    cards: tuple[int, ...]
    description: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Mucked(Event):
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class OpenersShown(Event):
    """R44/R45/R48: the opener's original five cards, the proof of openers."""

    seat: int
    cards: tuple[int, ...]
    valid: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class OpenersRequested(Event):
    """R48: ``seat`` asked to see the openers of ``opener``."""

    seat: int
    opener: int


@dataclass(frozen=True, slots=True, kw_only=True)
class OpenersDeclined(Event):
    """R48: ``seat`` did not ask to see the openers (a time-out declines)."""

    seat: int
    opener: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PenaltyPaid(Event):
    """R48: the false opener ``seat`` paid ``amount`` into the pot carried to the
    next hand; ``due`` is the penalty before the cap of the opener's stack."""

    seat: int
    amount: int
    due: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RakeTaken(Event):
    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PotAwarded(Event):
    """Pot ``index`` (0 = main) of ``amount`` (after rake) to ``shares``."""

    index: int
    amount: int
    shares: tuple[tuple[int, int], ...]  # (seat, chips)
    eligible: tuple[int, ...]
    showdown: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class PotCarried(Event):
    """R40, R43, R44: nobody wins; ``amount`` stays on the table for the next hand."""

    amount: int
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class DeckRevealed(Event):
    """After the hand, only at a table that reveals its seeds (``reveal_seed``;
    otherwise the server keeps it): the deck seed, from which the commitments and
    every card follow, and the room's seed it was mixed from."""

    seed: str  # hex
    server_seed: str = ""  # hex; "" when the hand was given its seed


@dataclass(frozen=True, slots=True, kw_only=True)
class HandEnded(Event):
    stacks: tuple[tuple[int, int], ...]  # (seat, final stack)
    rake: int
    carried_pot: int  # what stays on the table for the next hand
    reached_draw: bool


T = TypeVar("T")


def positional_maker(cls: type[T]) -> Callable[..., T]:
    """A fast constructor for a frozen, slotted dataclass without ``__post_init__``:
    every field positional, in declaration order (for events: ``seq``,
    ``visible_to``, then the event's own fields), no defaults.

    The same object as ``cls(**fields)`` (``==``, ``type``, ``repr``), built by
    setting the slots directly instead of through the keyword ``__init__`` and
    ``object.__setattr__``: the engine's hot paths build ~45 events a hand.
    Internal: callers pass trusted, complete values."""
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    lines = [f"def make({', '.join(names)}):", "    _self = _new(_cls)"]
    for i, name in enumerate(names):
        namespace[f"_set{i}"] = getattr(cls, name).__set__
        lines.append(f"    _set{i}(_self, {name})")
    lines.append("    return _self")
    exec("\n".join(lines), namespace)  # built from field names only
    maker: Callable[..., T] = namespace["make"]
    maker.__qualname__ = f"{cls.__name__}.positional"
    return maker
