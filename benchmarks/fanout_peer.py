"""The least a server can do for ``server_load.py``'s players: a peer to measure
drawpoker against in the same run, on the same machine.

It speaks just enough of drawpoker's protocol for the load generator -- guest
tokens, ``sit``, a hand of twenty checks dealt to each full table of six, an
``ok`` for every message -- and for every action does what any room must do at
least: one websocket message to each player at the table (the action and the
turn that follows, the next player's ``Legal`` and the actor's ``ok`` in the
same message). No rules, no storage, no fairness, no clock, no logs: one
asyncio protocol on uvloop, HTTP and websocket framing written inline (the
frame encoder is drawpoker's). Its CPU
time per action is the floor of a Python server of this shape on this machine;
most of it is the system calls that write to the players' sockets.

    .venv/bin/python benchmarks/fanout_peer.py --port 8123
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import hashlib
import json
import struct
from typing import Any, cast
from urllib.parse import urlsplit

import uvloop

from drawpoker.server.transport import text_frame  # the frames drawpoker writes

SEATS = 6
ACTIONS_PER_HAND = 20
BETWEEN_HANDS_S = 1.0
_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC11B85"
_LEGAL = {"draw": False, "check": True, "call": 0, "min_to": 0, "max_to": 0, "hand": []}


def unmask(data: bytes, key: bytes) -> bytes:
    size = len(data)
    mask = (key * (size // 4 + 1))[:size]
    return (int.from_bytes(data, "little") ^ int.from_bytes(mask, "little")).to_bytes(
        size, "little"
    )


class Room:
    def __init__(self) -> None:
        self.tables: dict[str, Table] = {}
        self.tokens = 0
        self.hands = 0

    def table(self, name: str) -> Table:
        table = self.tables.get(name)
        if table is None:
            table = self.tables[name] = Table(self, name)
        return table


class Table:
    def __init__(self, room: Room, name: str) -> None:
        self.room = room
        self.name = name
        self.seats: dict[int, Peer] = {}
        self.v = 0
        self.hand = 0
        self.actions = 0
        self.turn = 1

    def frame(self, event: dict[str, Any]) -> str:
        self.v += 1
        return json.dumps(
            {"type": "event", "table": self.name, "v": self.v, "event": event},
            separators=(",", ":"),
        )

    def sit(self, peer: Peer, seat: int) -> None:
        self.seats[seat] = peer
        if len(self.seats) == SEATS and self.hand == 0:
            self.deal()

    def deal(self) -> None:
        self.hand += 1
        self.actions = 0
        self.turn = 1
        hand_id = f"{self.name}-{self.hand}"
        started = self.frame({"type": "HandStarted", "hand_id": hand_id})
        for seat, peer in self.seats.items():
            frames = [started]
            if seat == self.turn:
                frames.append(self.frame({"type": "Legal", "hand_id": hand_id, "legal": _LEGAL}))
            peer.send(frames)

    def act(self, peer: Peer, seat: int, hand_id: str, ok: str) -> None:
        if seat != self.turn or hand_id != f"{self.name}-{self.hand}":
            peer.send([ok])
            return
        self.actions += 1
        done = self.actions >= ACTIONS_PER_HAND
        self.turn = seat % SEATS + 1
        public = [self.frame({"type": "Checked", "seat": seat, "hand_id": hand_id})]
        if done:
            public.append(self.frame({"type": "HandEnded", "hand_id": hand_id}))
            self.room.hands += 1
            asyncio.get_running_loop().call_later(BETWEEN_HANDS_S, self.deal)
        else:
            public.append(self.frame({"type": "Turn", "seat": self.turn, "hand_id": hand_id}))
        legal = self.frame({"type": "Legal", "hand_id": hand_id, "legal": _LEGAL})
        for other, player in self.seats.items():
            frames = list(public)
            if other == self.turn and not done:
                frames.append(legal)
            if player is peer:
                frames.append(ok)
            player.send(frames)


class Peer(asyncio.Protocol):
    """One connection: HTTP requests, then perhaps a websocket."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.transport: asyncio.Transport | None = None
        self.buffer = b""
        self.websocket = False
        self.table: Table | None = None
        self.seat = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if self.websocket:
            self.frames()
            return
        while not self.websocket:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head = self.buffer[:end].decode("latin-1").split("\r\n")
            headers = {}
            for line in head[1:]:
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
            length = int(headers.get("content-length", "0"))
            if len(self.buffer) < end + 4 + length:
                return
            self.buffer = self.buffer[end + 4 + length :]
            method, target = head[0].split(" ")[:2]
            self.request(method, target, headers)
        self.frames()

    def request(self, method: str, target: str, headers: dict[str, str]) -> None:
        assert self.transport is not None
        path = urlsplit(target).path
        if path == "/ws" and headers.get("upgrade", "").lower() == "websocket":
            accept = base64.b64encode(
                hashlib.sha1(headers["sec-websocket-key"].encode() + _GUID).digest()
            )
            self.transport.write(
                b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                b"Connection: Upgrade\r\nSec-WebSocket-Accept: " + accept + b"\r\n\r\n"
            )
            self.websocket = True  # whatever its token: every guest is welcome here
            return
        if path == "/api/guest" and method == "POST":
            self.room.tokens += 1
            body = json.dumps({"token": f"guest-{self.room.tokens}"}).encode()
        elif path == "/metrics":
            body = f"drawpoker_hands_total {self.room.hands}\n".encode()
        else:
            body = b'{"ok": true}'
        self.transport.write(
            b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: "
            + str(len(body)).encode()
            + b"\r\n\r\n"
            + body
        )

    def frames(self) -> None:
        buffer, at = self.buffer, 0
        while len(buffer) - at >= 6:
            opcode, size = buffer[at] & 0x0F, buffer[at + 1] & 0x7F
            head = 2
            if size == 126:
                if len(buffer) - at < 8:
                    break
                size, head = struct.unpack_from("!H", buffer, at + 2)[0], 4
            if len(buffer) - at < head + 4 + size:
                break
            key = buffer[at + head : at + head + 4]
            payload = unmask(buffer[at + head + 4 : at + head + 4 + size], key)
            at += head + 4 + size
            if opcode == 0x1:
                self.message(json.loads(payload))
            elif opcode == 0x8 and self.transport is not None:
                self.transport.close()
        self.buffer = buffer[at:]

    def message(self, msg: dict[str, Any]) -> None:
        ok = json.dumps({"type": "ok", "ref": msg.get("id"), "detail": {}}, separators=(",", ":"))
        if msg.get("type") == "sit":
            self.table = self.room.table(msg["table"])
            self.seat = int(msg["seat"])
            self.send([ok])
            self.table.sit(self, self.seat)
        elif self.table is not None and msg.get("type") in ("act", "draw"):
            self.table.act(self, self.seat, msg.get("hand_id", ""), ok)
        else:
            self.send([ok])

    def send(self, frames: list[str]) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(text_frame("\n".join(frames).encode()))


async def serve(port: int) -> None:
    room = Room()
    server = await asyncio.get_running_loop().create_server(
        lambda: Peer(room), "127.0.0.1", port, backlog=2048
    )
    async with server:
        await server.serve_forever()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, required=True)
    uvloop.run(serve(parser.parse_args().port))


if __name__ == "__main__":
    main()
