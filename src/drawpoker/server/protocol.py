"""The websocket protocol: JSON messages with a ``type``, described by pydantic models.

Client messages are validated here, at the boundary, with strict types (an
amount of ``2.5`` or ``"2"`` is refused, not coerced). Server messages are
built as plain dicts by the actor for speed; their shapes are documented by
the ``Server*`` models below and in ``docs/protocol.md``.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
)

from drawpoker.cards import format_cards
from drawpoker.events import Event

PROTOCOL_VERSION = 1
MAX_FRAME = 4096  # bytes of one client message
TableId = Annotated[StrictStr, Field(min_length=1, max_length=32)]
ClientId = Annotated[StrictStr, Field(min_length=1, max_length=64)]
Chips = Annotated[StrictInt, Field(ge=1, le=10**12)]
CardText = Annotated[StrictStr, Field(min_length=2, max_length=3)]


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: ClientId | None = None  # echoed in the ``ok`` or ``error`` reply


class Hello(_Msg):
    type: Literal["hello"]
    protocol: StrictInt = PROTOCOL_VERSION


class Ping(_Msg):
    type: Literal["ping"]


class LobbySubscribe(_Msg):
    type: Literal["lobby"]
    game: Literal["draw", "italian"] | None = None
    structure: Literal["fixed-limit", "pot-limit", "no-limit"] | None = None
    kind: Literal["cash", "tournament"] | None = None


class Subscribe(_Msg):
    """Watch a table; ``since``: the last table version seen (reconnect)."""

    type: Literal["subscribe"]
    table: TableId
    since: Annotated[StrictInt, Field(ge=0)] | None = None
    epoch: Annotated[StrictStr, Field(max_length=16)] | None = None


class Unsubscribe(_Msg):
    type: Literal["unsubscribe"]
    table: TableId


class Sit(_Msg):
    type: Literal["sit"]
    table: TableId
    seat: Annotated[StrictInt, Field(ge=1, le=8)]
    buy_in: Chips
    post: StrictBool = True  # post a big blind to play at once (R9), or wait for it


class TopUp(_Msg):
    type: Literal["top_up"]
    table: TableId
    amount: Chips


class SitOut(_Msg):
    type: Literal["sit_out"]
    table: TableId


class SitIn(_Msg):
    type: Literal["sit_in"]
    table: TableId
    post: StrictBool = True  # post missed blinds now (R9), or wait for the big blind


class Leave(_Msg):
    type: Literal["leave"]
    table: TableId


class Act(_Msg):
    """A betting action: ``amount`` is the total to bet or raise TO."""

    type: Literal["act"]
    table: TableId
    hand_id: StrictStr
    action_id: ClientId
    action: Literal["fold", "check", "call", "bet", "raise"]
    amount: Chips | None = None


class Draw(_Msg):
    """Discard these cards (none: stand pat)."""

    type: Literal["draw"]
    table: TableId
    hand_id: StrictStr
    action_id: ClientId
    discard: Annotated[list[CardText], Field(max_length=5)]


class PreAction(_Msg):
    """R25: held by the server and carried out on the player's turn."""

    type: Literal["pre_action"]
    table: TableId
    hand_id: StrictStr
    pre: Literal["check_fold", "check", "call_any", "draw", "clear"]
    discard: Annotated[list[CardText], Field(max_length=5)] = []


class Chat(_Msg):
    type: Literal["chat"]
    table: TableId
    text: Annotated[StrictStr, Field(min_length=1, max_length=280)]


ClientMessage = Annotated[
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
    | Act
    | Draw
    | PreAction
    | Chat,
    Field(discriminator="type"),
]
_adapter: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
MESSAGE_TYPES = [
    "hello",
    "ping",
    "lobby",
    "subscribe",
    "unsubscribe",
    "sit",
    "top_up",
    "sit_out",
    "sit_in",
    "leave",
    "act",
    "draw",
    "pre_action",
    "chat",
]


class ProtocolError(ValueError):
    """A client message that cannot be understood; ``code`` is machine-readable."""

    def __init__(self, code: str, message: str, ref: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref


def parse(text: str | bytes) -> ClientMessage:
    """Validate one frame; raise ``ProtocolError`` with a clear message."""
    if len(text) > MAX_FRAME:
        raise ProtocolError("too_large", f"message of {len(text)} bytes; the limit is {MAX_FRAME}")
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as error:
        raise ProtocolError("bad_json", f"not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message is a JSON object with a 'type'")
    ref = data.get("id") if isinstance(data.get("id"), str) else None
    kind = data.get("type")
    if kind not in MESSAGE_TYPES:
        raise ProtocolError(
            "unknown_type",
            f"unknown message type {kind!r}; known: {', '.join(MESSAGE_TYPES)}",
            ref,
        )
    try:
        return _adapter.validate_python(data)
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'][1:]) or 'message'}: {e['msg']}"
            for e in error.errors()
        )
        raise ProtocolError("bad_field", f"{kind}: {problems}", ref) from None


def frame(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


_CARD_FIELDS = frozenset(("cards",))


def event_dict(event: Event) -> dict[str, Any]:
    """An engine event as JSON-ready data: ``type`` is the class name, cards as text."""
    out: dict[str, Any] = {"type": type(event).__name__}
    for f in dataclasses.fields(event):
        name = f.name
        if name == "visible_to":
            continue
        value = getattr(event, name)
        if name in _CARD_FIELDS:
            value = format_cards(value).split() if value else []
        elif isinstance(value, tuple):
            value = [list(v) if isinstance(v, tuple) else v for v in value]
        out[name] = value
    return out


# --------------------------------------------------------------- server shapes
# Documented shapes of what the server sends (built as dicts in the actor).


class ServerOk(BaseModel):
    type: Literal["ok"]
    ref: str | None
    detail: dict[str, Any] = {}


class ServerError(BaseModel):
    type: Literal["error"]
    ref: str | None
    code: str
    message: str


class ServerSnapshot(BaseModel):
    type: Literal["snapshot"]
    table: str
    v: int
    state: dict[str, Any]


class ServerEvent(BaseModel):
    type: Literal["event"]
    table: str
    v: int
    event: dict[str, Any]


class ServerLobby(BaseModel):
    type: Literal["lobby"]
    tables: list[dict[str, Any]]
