"""What the gateway writes to a connection: frames batched per turn of the event
loop, in order, as valid websocket frames; a client that lets too much pile up
closed with 1013; a peer gone stops the writing."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from websockets.frames import Frame, Opcode
from websockets.streams import StreamReader

from drawpoker.server import gateway
from drawpoker.server.gateway import BATCH, SEND_BUDGET, AsgiFrames, Connection, Flusher
from drawpoker.server.transport import FRAMES, text_frame


class Writer:
    """A ``FrameWriter`` that keeps what it is given; ``unsent`` is what it
    reports as still waiting for the peer (None: the peer is gone)."""

    def __init__(self) -> None:
        self.messages: list[str] = []
        self.unsent: int | None = 0

    def write_text(self, data: bytes) -> int | None:
        if self.unsent is None:
            return None
        self.messages.append(data.decode())
        return self.unsent


class Socket:
    """The part of a Starlette ``WebSocket`` a connection uses."""

    def __init__(self, writer: Writer | None) -> None:
        self.scope: dict[str, Any] = {"extensions": {FRAMES: writer} if writer else {}}
        self.closed: list[tuple[int, str]] = []
        self.sent: list[str] = []

    async def close(self, code: int, reason: str) -> None:
        self.closed.append((code, reason))

    async def send_text(self, text: str) -> None:
        await asyncio.sleep(0)  # the ASGI server takes its time
        self.sent.append(text)


def connection(writer: Writer | None = None) -> tuple[Connection, Socket]:
    ws = Socket(writer)
    return Connection(ws, None, Flusher()), ws  # type: ignore[arg-type]


async def turns(n: int = 4) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


def parse(data: bytes) -> Frame:
    reader = StreamReader()
    reader.feed_data(data)
    reader.feed_eof()
    parser = Frame.parse(reader.read_exact, mask=False)
    try:
        next(parser)
    except StopIteration as done:
        frame: Frame = done.value
        assert reader.at_eof()  # nothing left over
        return frame
    raise AssertionError("the frame is incomplete")


@pytest.mark.parametrize("size", [0, 1, 125, 126, 65_535, 65_536, 200_000])
def test_a_text_frame_is_what_a_websocket_client_reads(size: int) -> None:
    data = ("é" * size).encode()[:size]
    frame = parse(text_frame(data))
    assert frame.opcode is Opcode.TEXT
    assert frame.fin
    assert frame.data == data


def test_what_one_turn_sends_goes_as_one_message_with_what_it_woke() -> None:
    async def main() -> list[str]:
        writer = Writer()
        conn, _ = connection(writer)
        conn.send("a")
        await asyncio.sleep(0)  # a task the command woke queues its events
        conn.send("b")
        await turns()
        conn.send("c")
        await turns()
        return writer.messages

    assert asyncio.run(main()) == ["a\nb", "c"]


@given(st.lists(st.integers(min_value=1, max_value=BATCH), min_size=1, max_size=12))
def test_frames_go_in_order_in_messages_of_at_most_a_batch(sizes: list[int]) -> None:
    frames = [f"{i}".ljust(size, "x") for i, size in enumerate(sizes)]

    async def main() -> list[str]:
        writer = Writer()
        conn, _ = connection(writer)
        for frame in frames:
            conn.send(frame)
        await turns()
        return writer.messages

    messages = asyncio.run(main())
    assert [f for m in messages for f in m.split("\n")] == frames
    assert all(len(m) <= BATCH or "\n" not in m for m in messages)
    assert len(messages) <= len(frames)


def test_a_client_that_lets_too_much_pile_up_is_closed_with_1013() -> None:
    async def main() -> tuple[list[str], list[tuple[int, str]], bool]:
        writer = Writer()
        conn, ws = connection(writer)
        writer.unsent = SEND_BUDGET + 1
        conn.send("a" * (BATCH - 10))
        conn.send("b" * (BATCH - 10))  # not written: the connection is closing
        await turns()
        conn.send("c")  # nor anything after
        await turns()
        return writer.messages, ws.closed, conn.dropped

    messages, closed, dropped = asyncio.run(main())
    assert [m[0] for m in messages] == ["a"]
    assert dropped
    assert closed == [(1013, "too slow: reconnect and resync")]


def test_a_connection_closed_soon_sends_what_was_queued_first() -> None:
    async def main() -> tuple[list[str], list[tuple[int, str]]]:
        writer = Writer()
        conn, ws = connection(writer)
        conn.send("last words")
        conn.close_soon(4001, "replaced by a newer connection")
        conn.send("never")
        await turns()
        return writer.messages, ws.closed

    assert asyncio.run(main()) == (["last words"], [(4001, "replaced by a newer connection")])


def test_nothing_is_written_once_the_peer_is_gone() -> None:
    async def main() -> tuple[list[str], bool]:
        writer = Writer()
        conn, _ = connection(writer)
        writer.unsent = None
        conn.send("a")
        await turns()
        conn.send("b")
        await turns()
        return writer.messages, conn.dropped

    assert asyncio.run(main()) == ([], True)


def test_one_connection_failing_does_not_stop_the_others(monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken(Writer):
        def write_text(self, data: bytes) -> int | None:
            raise RuntimeError("the socket broke")

    async def main() -> tuple[list[str], bool]:
        flusher = Flusher()
        broken = Connection(Socket(Broken()), None, flusher)  # type: ignore[arg-type]
        writer = Writer()
        healthy = Connection(Socket(writer), None, flusher)  # type: ignore[arg-type]
        broken.send("x")
        healthy.send("y")
        await turns()
        return writer.messages, broken.dropped

    monkeypatch.setattr(gateway.log, "exception", lambda *a, **k: None)
    assert asyncio.run(main()) == (["y"], True)


def test_without_the_frames_extension_messages_are_sent_in_order_by_asgi() -> None:
    async def main() -> tuple[list[str], int]:
        conn, ws = connection(None)
        assert isinstance(conn.writer, AsgiFrames)
        for i in range(3):
            conn.send(f"m{i}")
            await turns()
        conn.send("m3")
        conn.send("m4")
        await turns(12)
        return ws.sent, conn.writer.queued

    assert asyncio.run(main()) == (["m0", "m1", "m2", "m3\nm4"], 0)
