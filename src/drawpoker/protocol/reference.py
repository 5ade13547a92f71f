"""The protocol's reference, written from its own classes: every message of each
direction, every entry the server makes and every part of a snapshot, with its
fields and their defaults. ``docs/protocol.md`` carries it between two markers
(``scripts/protocol_reference.py`` rewrites it; a test checks it is current)."""

from __future__ import annotations

import msgspec

from drawpoker.protocol.client import CLIENT_MESSAGES, ClientMessage
from drawpoker.protocol.server import (
    SERVER_ENTRIES,
    SERVER_FRAMES,
    AccountInfo,
    ChatLine,
    HandSeat,
    HandView,
    Hint,
    LastHand,
    LegalInfo,
    LevelInfo,
    PreActionInfo,
    RunRow,
    SeatInfo,
    SeatOffer,
    TableRow,
    TableState,
    TournamentInfo,
    TournamentRow,
)
from drawpoker.protocol.version import PROTOCOL_VERSION

BEGIN = "<!-- protocol reference: generated from drawpoker.protocol; do not edit -->"
END = "<!-- end of the protocol reference -->"

PARTS: tuple[type[msgspec.Struct], ...] = (
    TableState,
    SeatInfo,
    PreActionInfo,
    HandView,
    HandSeat,
    LegalInfo,
    TournamentInfo,
    LevelInfo,
    LastHand,
    ChatLine,
    SeatOffer,
    Hint,
    AccountInfo,
    TableRow,
    TournamentRow,
    RunRow,
)


def _fields(cls: type[msgspec.Struct]) -> str:
    out = []
    for f in msgspec.structs.fields(cls):
        if f.name == "id" and issubclass(cls, ClientMessage):
            continue  # every client message may carry an ``id``
        text = f"`{f.encode_name}`"
        if f.default is not msgspec.NODEFAULT:
            text += f" = `{msgspec.json.encode(f.default).decode()}`"
        elif f.default_factory is not msgspec.NODEFAULT:
            text += f" = `{msgspec.json.encode(f.default_factory()).decode()}`"
        out.append(text)
    return ", ".join(out) or "—"


def _doc(cls: type) -> str:
    doc = (cls.__doc__ or "").strip().split("\n\n")[0]
    return " ".join(doc.split())


def _tag(cls: type[msgspec.Struct]) -> str:
    return str(cls.__struct_config__.tag)


def markdown() -> str:
    """The reference as markdown (between ``BEGIN`` and ``END``)."""
    lines = [BEGIN, "", f"Protocol version **{PROTOCOL_VERSION}**.", ""]
    lines += ["#### Client messages", "", "| `type` | fields | |", "| --- | --- | --- |"]
    lines += [f"| `{_tag(c)}` | {_fields(c)} | {_doc(c)} |" for c in CLIENT_MESSAGES]
    lines += ["", "#### Server frames", "", "| `type` | fields | |", "| --- | --- | --- |"]
    lines += [f"| `{_tag(c)}` | {_fields(c)} | {_doc(c)} |" for c in SERVER_FRAMES]
    lines += ["", "#### Entries the server makes (in `event` frames)", ""]
    lines += ["| `event.type` | fields | |", "| --- | --- | --- |"]
    lines += [f"| `{_tag(c)}` | {_fields(c)} | {_doc(c)} |" for c in SERVER_ENTRIES]
    lines += ["", "#### Snapshots and rows", "", "| part | fields | |", "| --- | --- | --- |"]
    lines += [f"| {c.__name__} | {_fields(c)} | {_doc(c)} |" for c in PARTS]
    lines += ["", END]
    return "\n".join(lines)


def replace(document: str) -> str:
    """``document`` with its reference section (between the markers) rewritten."""
    start, end = document.index(BEGIN), document.index(END) + len(END)
    return document[:start] + markdown() + document[end:]
