"""Messages a client sends: one ``msgspec.Struct`` per ``type``, strictly typed.

An amount of ``2.5`` or ``"2"``, a string seat, an unknown field are refused,
never coerced. Every message may carry an ``id`` (echoed as ``ref`` in the
``ok`` or ``error`` that answers it).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from drawpoker.protocol.version import PROTOCOL_VERSION

TableId = Annotated[str, Meta(min_length=1, max_length=32)]
ClientId = Annotated[str, Meta(min_length=1, max_length=64)]
HandId = Annotated[str, Meta(min_length=1, max_length=64)]
Chips = Annotated[int, Meta(ge=1, le=10**12)]
SeatNo = Annotated[int, Meta(ge=1, le=8)]
CardText = Annotated[str, Meta(min_length=2, max_length=3)]
Discard = Annotated[list[CardText], Meta(max_length=5)]


ActionName = Literal["fold", "check", "call", "bet", "raise", "ask_openers", "decline"]


class ClientMessage(
    msgspec.Struct,
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
    kw_only=True,
    omit_defaults=True,
):
    """Base of every client message; ``type`` is the class's tag."""

    id: ClientId | None = None

    @property
    def type(self) -> str:
        return str(self.__struct_config__.tag)


class TableMessage(ClientMessage, frozen=True, kw_only=True):
    """A message about one table (or a tournament's channel)."""

    table: TableId


class Hello(ClientMessage, tag="hello", frozen=True, kw_only=True):
    """Optional version check."""

    protocol: Annotated[int, Meta(ge=0, le=1_000)] = PROTOCOL_VERSION


class Ping(ClientMessage, tag="ping", frozen=True, kw_only=True):
    """Answered by ``pong``."""


class LobbySubscribe(ClientMessage, tag="lobby", frozen=True, kw_only=True):
    """Lobby rows, then the changed ones at most once a second."""

    game: Literal["draw", "italian"] | None = None
    structure: Literal["fixed-limit", "pot-limit", "no-limit"] | None = None
    kind: Literal["cash", "tournament"] | None = None


class Subscribe(TableMessage, tag="subscribe", frozen=True, kw_only=True):
    """Watch a table: a snapshot, or the missed entries after version ``since``."""

    since: Annotated[int, Meta(ge=0, le=2**53)] | None = None  # a JavaScript-safe integer
    epoch: Annotated[str, Meta(max_length=16)] | None = None


class Unsubscribe(TableMessage, tag="unsubscribe", frozen=True, kw_only=True):
    """Stop watching a table."""


class Sit(TableMessage, tag="sit", frozen=True, kw_only=True):
    """Take a seat with a buy-in; ``post``: post a big blind to play at once (R9)."""

    seat: SeatNo
    buy_in: Chips
    post: bool = True


class TopUp(TableMessage, tag="top_up", frozen=True, kw_only=True):
    """Add chips up to the table maximum (held until the hand ends)."""

    amount: Chips


class SitOut(TableMessage, tag="sit_out", frozen=True, kw_only=True):
    """Skip hands from the next one."""


class SitIn(TableMessage, tag="sit_in", frozen=True, kw_only=True):
    """Come back; ``post``: post missed blinds now, or wait for the big blind (R9)."""

    post: bool = True


class Leave(TableMessage, tag="leave", frozen=True, kw_only=True):
    """Stand up; the stack goes back to the balance."""


class SitOutNext(TableMessage, tag="sit_out_next", frozen=True, kw_only=True):
    """Sit out from the next hand (``on``), or take that back."""

    on: bool


class AutoTopUp(TableMessage, tag="auto_top_up", frozen=True, kw_only=True):
    """Between hands, top the stack up to ``amount`` when it is below (null: off)."""

    amount: Chips | None


class Wait(TableMessage, tag="wait", frozen=True, kw_only=True):
    """Join the waiting list of a full table (a seat is offered when one frees)."""


class Unwait(TableMessage, tag="unwait", frozen=True, kw_only=True):
    """Leave the waiting list."""


class Act(TableMessage, tag="act", frozen=True, kw_only=True):
    """A decision other than the draw: a betting action (``amount`` is the total to
    bet or raise TO), or, at the end of a hand with openers on request (R48), ask
    to see the openers or decline."""

    hand_id: HandId
    action_id: ClientId
    action: ActionName
    amount: Chips | None = None


class Draw(TableMessage, tag="draw", frozen=True, kw_only=True):
    """Discard these cards (none: stand pat)."""

    hand_id: HandId
    action_id: ClientId
    discard: Discard


class PreAction(TableMessage, tag="pre_action", frozen=True, kw_only=True):
    """R25: held by the server and carried out on the player's turn: ``draw`` (the
    ``discard``), ``check``, ``check_fold``, ``call`` (the amount to call now;
    cancelled if it changes), ``call_any``, ``fold_any``; ``clear`` drops them."""

    hand_id: HandId
    pre: Literal["check_fold", "check", "call", "call_any", "fold_any", "draw", "clear"]
    discard: Discard = msgspec.field(default_factory=list)


class Chat(TableMessage, tag="chat", frozen=True, kw_only=True):
    """A chat line to everyone watching the table."""

    text: Annotated[str, Meta(min_length=1, max_length=280)]


class Entropy(TableMessage, tag="entropy", frozen=True, kw_only=True):
    """A seated player's random text (1-64 characters), mixed into the deck seed of
    the table's next hand (``docs/fairness.md``); the latest one before the deal
    counts. A client sends a fresh one after each ``HandStarted``."""

    text: Annotated[str, Meta(min_length=1, max_length=64)]


AnyClientMessage = (
    Hello
    | Ping
    | LobbySubscribe
    | Subscribe
    | Unsubscribe
    | Sit
    | TopUp
    | SitOut
    | SitIn
    | Leave
    | SitOutNext
    | AutoTopUp
    | Wait
    | Unwait
    | Act
    | Draw
    | PreAction
    | Chat
    | Entropy
)
"""The union a server decodes."""

CLIENT_MESSAGES: tuple[type[ClientMessage], ...] = (
    Hello,
    Ping,
    LobbySubscribe,
    Subscribe,
    Unsubscribe,
    Sit,
    TopUp,
    SitOut,
    SitIn,
    Leave,
    SitOutNext,
    AutoTopUp,
    Wait,
    Unwait,
    Act,
    Draw,
    PreAction,
    Chat,
    Entropy,
)
"""Every client message class, in the order the documentation lists them."""

CASH_ONLY: tuple[type[ClientMessage], ...] = (
    Sit,
    TopUp,
    SitOut,
    SitIn,
    Leave,
    SitOutNext,
    AutoTopUp,
    Wait,
    Unwait,
)
"""Messages for cash tables only (a tournament table answers ``not_here``)."""
