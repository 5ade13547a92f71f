"""The wire protocol, below the server and every client: typed messages for each
direction (``client``, ``server``), the engine's and the room's events on the
wire (``events``) and one codec (``codec``). Documented in docs/protocol.md."""

from drawpoker.protocol.codec import (
    MAX_DEPTH,
    MAX_FRAME,
    MESSAGE_TYPES,
    ProtocolError,
    decode_client,
    decode_frame,
    encode,
    encode_text,
    frames,
    join,
)
from drawpoker.protocol.version import PROTOCOL_VERSION

__all__ = [
    "MAX_DEPTH",
    "MAX_FRAME",
    "MESSAGE_TYPES",
    "PROTOCOL_VERSION",
    "ProtocolError",
    "decode_client",
    "decode_frame",
    "encode",
    "encode_text",
    "frames",
    "join",
]
