"""Engine and room events on the wire, both ways: one conversion each.

``event_to_wire`` makes the JSON-ready dict of an event (``type`` is the class
name, cards as text such as ``"As"``, tuples as lists, ``visible_to`` left out:
who may see an entry is the server's business). ``event_from_wire`` rebuilds
the dataclass from such a dict; ``entry_from_wire`` also knows the entries the
server makes (``Turn``, ``Legal``, ...) and returns ``UnknownEntry`` for a type
it does not know, so that a client never fails on a newer server's entry.

Room events name their player by account: the server sends ``name`` instead of
the room's ``player`` key, and ``event_from_wire`` puts it back in ``player``.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable, Mapping
from enum import Enum
from typing import Any

import msgspec

from drawpoker import events as engine_events
from drawpoker.cards import format_cards, parse_cards
from drawpoker.errors import DrawPokerError
from drawpoker.events import EVERYONE, Event, Street
from drawpoker.legal import LegalActions
from drawpoker.protocol.server import SERVER_ENTRIES, Entry, LegalInfo
from drawpoker.room import events as room_events

_PLAIN, _CARDS, _TUPLE, _PAIRS = 0, 1, 2, 3
_PRIVATE = frozenset(("CardsReceived", "DiscardedCards"))  # visible to their ``seat`` only


class WireError(DrawPokerError, ValueError):
    """A server message that does not have the documented shape."""


def _kind(name: str, hint: Any) -> int:
    if name == "cards":
        return _CARDS
    if typing.get_origin(hint) is tuple:
        inner = typing.get_args(hint)[0]
        return _PAIRS if typing.get_origin(inner) is tuple else _TUPLE
    return _PLAIN


def _from_json(kind: int, hint: Any) -> Callable[[Any], Any]:
    if kind == _CARDS:
        return lambda value: tuple(parse_cards(value)) if value else ()
    if kind == _PAIRS:
        return lambda value: tuple(tuple(item) for item in value)
    if kind == _TUPLE:
        return tuple
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint
    return lambda value: value


@dataclasses.dataclass(frozen=True, slots=True)
class _Shape:
    cls: type[Event]
    fields: tuple[tuple[str, int], ...]  # (name, kind) to write
    readers: tuple[tuple[str, str, Callable[[Any], Any]], ...]  # (field, wire key, convert)
    optional: frozenset[str]  # wire keys of fields with a default: may be missing


def _shapes() -> dict[str, _Shape]:
    shapes: dict[str, _Shape] = {}
    for module in (engine_events, room_events):
        for cls in vars(module).values():
            if not (isinstance(cls, type) and issubclass(cls, Event)) or cls is Event:
                continue
            hints = typing.get_type_hints(cls, vars(module) | vars(engine_events))
            names = [f.name for f in dataclasses.fields(cls) if f.name != "visible_to"]
            kinds = tuple((name, _kind(name, hints[name])) for name in names)
            readers = tuple(
                (name, "name" if name == "player" else name, _from_json(kind, hints[name]))
                for name, kind in kinds
            )
            optional = frozenset(
                "name" if f.name == "player" else f.name
                for f in dataclasses.fields(cls)
                if f.default is not dataclasses.MISSING
                or f.default_factory is not dataclasses.MISSING
            )
            shapes[cls.__name__] = _Shape(cls, kinds, readers, optional)
    return shapes


_SHAPES = _shapes()
ENGINE_EVENTS = frozenset(
    name for name, shape in _SHAPES.items() if shape.cls.__module__ == engine_events.__name__
)
"""The names of the engine's events (``HandStarted`` ... ``HandEnded``)."""
ROOM_EVENTS = frozenset(_SHAPES) - ENGINE_EVENTS
"""The names of the room's events (seats, sit-outs, tournament notices)."""


def event_to_wire(event: Event) -> dict[str, Any]:
    """An engine or room event as JSON-ready data (a room event keeps ``player``:
    the server, which knows the accounts, replaces it with ``name``)."""
    shape = _SHAPES[type(event).__name__]
    out: dict[str, Any] = {"type": shape.cls.__name__}
    for name, kind in shape.fields:
        value = getattr(event, name)
        if kind == _CARDS:
            value = format_cards(value).split() if value else []
        elif kind == _PAIRS:
            value = [list(v) for v in value]
        elif kind == _TUPLE:
            value = list(value)
        out[name] = value
    return out


def event_from_wire(data: Mapping[str, Any]) -> Event | None:
    """A JSON event back as its dataclass; ``None`` if it is not an engine or room event.

    ``visible_to`` is the seat for the private ``CardsReceived`` and
    ``DiscardedCards``, else everyone (the server sends no server-only event)."""
    shape = _SHAPES.get(str(data.get("type", "")))
    if shape is None:
        return None
    if "seq" not in data and "notice" in data:  # a tournament notice on a table's log
        data = {**data, "seq": data["notice"]}
    try:
        values = {
            name: convert(data[key])
            for name, key, convert in shape.readers
            if key in data or key not in shape.optional
        }
    except (KeyError, TypeError, ValueError) as error:
        raise WireError(f"malformed {shape.cls.__name__} event {dict(data)!r}: {error}") from None
    visible = values["seat"] if shape.cls.__name__ in _PRIVATE else EVERYONE
    return shape.cls(visible_to=visible, **values)


@dataclasses.dataclass(frozen=True, slots=True)
class UnknownEntry:
    """An entry of a type this client does not know (kept, never fatal)."""

    type: str
    data: dict[str, Any]


_ENTRY_DECODERS = {
    str(cls.__struct_config__.tag): msgspec.json.Decoder(cls) for cls in SERVER_ENTRIES
}


def entry_from_wire(data: Mapping[str, Any]) -> Event | Entry | UnknownEntry:
    """Any log entry: an engine or room event, a server entry (``Turn``, ``Legal``,
    ...), or ``UnknownEntry``."""
    kind = str(data.get("type", ""))
    if kind in _SHAPES:
        event = event_from_wire(data)
        assert event is not None
        return event
    decoder = _ENTRY_DECODERS.get(kind)
    if decoder is None:
        return UnknownEntry(kind, dict(data))
    try:
        entry: Entry = decoder.decode(msgspec.json.encode(data))
    except msgspec.ValidationError as error:
        raise WireError(f"malformed {kind} entry {dict(data)!r}: {error}") from None
    return entry


def legal_from_wire(data: Mapping[str, Any] | LegalInfo) -> LegalActions:
    """The ``legal`` of a ``Legal`` entry or of a snapshot's hand."""
    if isinstance(data, LegalInfo):
        data = msgspec.structs.asdict(data)
    try:
        return LegalActions(
            seat=int(data["seat"]),
            street=Street(data["street"]),
            fold=bool(data["fold"]),
            check=bool(data["check"]),
            call=int(data["call"]),
            call_all_in=bool(data.get("call_all_in", False)),
            min_to=int(data["min_to"]),
            max_to=int(data["max_to"]),
            bet_label=str(data.get("bet_label", "")),
            draw=bool(data["draw"]),
            max_discard=int(data.get("max_discard", 0)),
            hand=tuple(parse_cards(data["hand"])) if data.get("hand") else (),
            ask_openers=bool(data.get("ask_openers", False)),
            opener=int(data.get("opener") or 0),
            penalty=int(data.get("penalty") or 0),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise WireError(f"malformed legal actions {dict(data)!r}: {error}") from None
