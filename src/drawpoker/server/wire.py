"""What processes of one room send each other over the bus, as msgpack.

Six kinds of message, each a msgpack array whose first item names it:

- ``["a", id, reply_to, unit, op, args]``: ask ``unit``'s owner; answered by
- ``["r", id, ok, value]``: the value, or the refusal ``[kind, code, message]``;
- ``["t", unit, op, args]``: tell ``unit``'s owner, nobody waits;
- ``["e", origin, topic, v, audience, text, epoch]``: an entry of a unit's log;
- ``["l", kind, row]``: a lobby row (``table`` or ``tournament``);
- ``["b", [message, ...]]``: messages queued together for one channel, packed
  each, handled in order.

Arguments are plain values, accounts and client messages; answers are plain
values (structs arrive as maps). Refusals keep their kind, so the gateway that
asked answers its client exactly as if the unit were in its own process.
"""

from __future__ import annotations

import logging
from typing import Any

import msgspec

from drawpoker.errors import DrawPokerError
from drawpoker.protocol.client import ClientMessage
from drawpoker.protocol.codec import decode_client
from drawpoker.server.auth import Account
from drawpoker.server.bus import Moving, NoOwner
from drawpoker.server.errors import TableError
from drawpoker.server.tournament.run import Refused

log = logging.getLogger("drawpoker.server")

_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder()

ACCOUNT = "$account"
MESSAGE = "$msg"


def pack(message: list[Any]) -> bytes:
    return _encoder.encode(message)


def unpack(raw: bytes) -> list[Any]:
    message = _decoder.decode(raw)
    if not isinstance(message, list) or not message or not isinstance(message[0], str):
        raise ValueError("not a bus message")
    return message


def _arg(value: Any) -> Any:
    if isinstance(value, Account):
        return {ACCOUNT: [value.id, value.name, value.kind, value.role]}
    if isinstance(value, ClientMessage):
        return {MESSAGE: msgspec.json.encode(value)}
    return value


def _unarg(value: Any) -> Any:
    if isinstance(value, dict) and len(value) == 1:
        if ACCOUNT in value:
            account_id, name, kind, role = value[ACCOUNT]
            return Account(account_id, name, kind, role)
        if MESSAGE in value:
            return decode_client(value[MESSAGE])
    return value


def args_out(args: dict[str, Any]) -> dict[str, Any]:
    return {key: _arg(value) for key, value in args.items()}


def args_in(args: dict[str, Any]) -> dict[str, Any]:
    return {key: _unarg(value) for key, value in args.items()}


def value_out(value: Any) -> Any:
    return msgspec.to_builtins(value)


def refusal_out(problem: BaseException) -> list[Any]:
    """An exception raised by a unit, as ``[kind, code, message]``."""
    if isinstance(problem, TableError):
        return ["table", problem.code, str(problem)]
    if isinstance(problem, Refused):
        return ["refused", problem.status, str(problem)]
    if isinstance(problem, Moving):
        return ["moving", "", str(problem)]
    if isinstance(problem, NoOwner):
        return ["no_owner", "", str(problem)]
    if isinstance(problem, ValueError):
        return ["value", "", str(problem)]
    if isinstance(problem, DrawPokerError):  # the unit is stopping: its next owner answers
        return ["moving", "", str(problem)]
    return ["internal", "", type(problem).__name__]


def refusal_in(refusal: list[Any]) -> Exception:
    kind, code, message = refusal
    if kind == "table":
        return TableError(str(code), message)
    if kind == "refused":
        return Refused(int(code), message)
    if kind == "moving":
        return Moving(message)
    if kind == "no_owner":
        return NoOwner(message)
    if kind == "value":
        return ValueError(message)
    return RuntimeError(f"the unit's owner failed: {message}")
