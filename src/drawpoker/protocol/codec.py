"""The one codec: client messages in and out, server frames in and out.

``decode_client`` is the server's boundary: size first, then nesting depth,
then strict typing, each refusal a ``ProtocolError`` with a machine-readable
``code`` and a sentence. ``encode`` writes a message of either direction;
``decode_frame`` is what clients (bots, the terminal client, the tests) read
server frames with.

A websocket message from the server carries one or more frames, one compact
JSON object a line (what one command caused goes out together, in one message):
``frames(text)`` splits it. A client sends one message a frame.
"""

from __future__ import annotations

from typing import Any

import msgspec

from drawpoker.protocol.client import CLIENT_MESSAGES, AnyClientMessage
from drawpoker.protocol.server import AnyFrame

MAX_FRAME = 4096  # bytes of one client message
MAX_DEPTH = 8  # nesting of arrays and objects in a client message (the deepest needs 2)

MESSAGE_TYPES: tuple[str, ...] = tuple(str(cls.__struct_config__.tag) for cls in CLIENT_MESSAGES)

_client_decoder = msgspec.json.Decoder(AnyClientMessage)
_frame_decoder = msgspec.json.Decoder(AnyFrame)
_encoder = msgspec.json.Encoder()


class ProtocolError(ValueError):
    """A message that cannot be understood; ``code`` is machine-readable and ``ref``
    the message's ``id`` when it could be read."""

    def __init__(self, code: str, message: str, ref: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref


def nesting(text: str | bytes) -> int:
    """The deepest nesting of arrays and objects in a JSON text (brackets inside
    strings are not counted)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return text.count("[") + text.count("{")  # the usual case: cheap and exact enough
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def decode_client(text: str | bytes) -> AnyClientMessage:
    """Validate one client frame; raise ``ProtocolError`` with a clear message."""
    size = len(text)
    if isinstance(text, str) and size * 4 > MAX_FRAME:  # a character may take 4 bytes
        size = len(text.encode("utf-8", "replace"))
    if size > MAX_FRAME:
        raise ProtocolError("too_large", f"message of {size} bytes; the limit is {MAX_FRAME}")
    depth = nesting(text)
    if depth > MAX_DEPTH:
        raise ProtocolError(
            "too_deep", f"message nested {depth} levels deep; the limit is {MAX_DEPTH}"
        )
    try:
        message: AnyClientMessage = _client_decoder.decode(text)
    except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError) as error:
        raise _explain(text, error) from None
    return message


def _explain(text: str | bytes, error: Exception) -> ProtocolError:
    """The precise refusal of a frame the typed decoder rejected."""
    try:
        data = msgspec.json.decode(text)
    except (msgspec.DecodeError, UnicodeDecodeError) as bad:
        return ProtocolError("bad_json", f"not valid JSON: {bad}")
    if not isinstance(data, dict):
        return ProtocolError("bad_message", "a message is a JSON object with a 'type'")
    ref = data.get("id") if isinstance(data.get("id"), str) else None
    kind = data.get("type")
    if kind not in MESSAGE_TYPES:
        known = ", ".join(MESSAGE_TYPES)
        return ProtocolError("unknown_type", f"unknown message type {kind!r}; known: {known}", ref)
    return ProtocolError("bad_field", f"{kind}: {error}", ref)


def encode(message: msgspec.Struct | dict[str, Any]) -> bytes:
    """A message of either direction as compact JSON bytes."""
    return _encoder.encode(message)


def encode_text(message: msgspec.Struct | dict[str, Any]) -> str:
    """As ``encode``, as text (what a websocket text frame carries)."""
    return _encoder.encode(message).decode()


def frames(text: str) -> list[str]:
    """The frames of one websocket message from the server, in order."""
    return text.split("\n")


def join(texts: list[str]) -> str:
    """Frames as one websocket message (compact JSON never holds a raw newline)."""
    return "\n".join(texts)


def decode_frame(text: str | bytes) -> AnyFrame:
    """A server frame as its typed class (``msgspec.ValidationError`` if malformed)."""
    frame: AnyFrame = _frame_decoder.decode(text)
    return frame
