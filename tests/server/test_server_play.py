"""End to end: real websocket clients play complete hands against ``drawpoker serve``.

Six players at a 6-max table call everything and throw all five cards, so the
draw reshuffles; one lets the betting clock run out, another the draw clock
(R26 penalty); a spectator watches. Every frame every client received is then
checked for privacy, and the chips are counted.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import pytest

from .helpers import Client, Server, table
from .privacy import check_frames

pytestmark = pytest.mark.slow


async def play(
    client: Client,
    table_id: str,
    stop: asyncio.Event,
    skip: dict[str, int],
    max_call: int | None = None,
    discard: int = 5,
) -> None:
    """Act on every ``Legal`` for me: draw ``discard`` cards, else check, else call
    (fold above ``max_call``); once each ``skip`` kind ("bet", "draw") of the
    n-th hand I act in, do nothing (the clock runs out). Hands are counted by my
    own decisions, not by the hands started: a hand dealt before I sat, or while
    I wait for the big blind, is not mine."""
    done: set[tuple[str, int]] = set()
    streets: set[tuple[str, str]] = set()
    mine: list[str] = []  # the hands I acted in, in order
    seen = 0
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await client.wait(lambda f: False, timeout=0.05, start=seen)
        frames = client.frames[seen:]
        seen += len(frames)
        for f in frames:
            if f["type"] != "event" or f["table"] != table_id:
                continue
            e = f["event"]
            if e["type"] != "Legal":
                continue
            if e["hand_id"] not in mine:
                mine.append(e["hand_id"])
            hands = len(mine)
            legal = e["legal"]
            key = (e["hand_id"], f["v"])
            if key in done:
                continue
            done.add(key)
            kind = "draw" if legal["draw"] else "bet"
            first = (e["hand_id"], legal["street"]) not in streets
            streets.add((e["hand_id"], legal["street"]))
            if skip.get(kind) == hands and first:
                continue
            base = {"table": table_id, "hand_id": e["hand_id"], "action_id": f"a{len(done)}"}
            if legal["draw"]:
                await client.send({"type": "draw", **base, "discard": legal["hand"][:discard]})
            elif legal["check"]:
                await client.send({"type": "act", **base, "action": "check"})
            elif max_call is not None and legal["call"] > max_call:
                await client.send({"type": "act", **base, "action": "fold"})
            else:
                await client.send({"type": "act", **base, "action": "call"})


def test_six_clients_play_with_reshuffles_timeouts_and_a_spectator(
    tmp_path: Path, database: str | None
) -> None:
    server = Server(tmp_path, database, [table("t6", action_time=1.5, draw_time=1)]).start()
    try:
        asyncio.run(_play_six(server))
    finally:
        server.stop()


async def _play_six(server: Server) -> None:
    guests = [server.guest() for _ in range(6)]
    players = [await Client(server, g["token"], f"p{i}").connect() for i, g in enumerate(guests)]
    spectator = await Client(server, None, "spectator").connect()
    assert (await spectator.request({"type": "subscribe", "table": "t6"}))["type"] == "ok"
    for i, p in enumerate(players):
        reply = await p.request({"type": "sit", "table": "t6", "seat": i + 1, "buy_in": 400})
        assert reply["type"] == "ok", reply
        p.seat["t6"] = i + 1
    stop = asyncio.Event()
    skips: list[dict[str, int]] = [{} for _ in players]
    skips[4] = {"bet": 2}  # seat 5 lets the betting clock run out in its second hand
    skips[5] = {"draw": 3}  # seat 6 lets the draw clock run out in its third hand
    tasks = [
        asyncio.create_task(play(p, "t6", stop, s)) for p, s in zip(players, skips, strict=True)
    ]
    ended = 0
    while ended < 4:
        await spectator.wait(
            lambda f: f["type"] == "event" and f["event"]["type"] == "HandEnded", 30
        )
        ended = sum(1 for e in spectator.events("t6") if e["type"] == "HandEnded")
        # wait for the next one
        mark = len(spectator.frames)
        if ended < 4:
            await spectator.wait(
                lambda f: f["type"] == "event" and f["event"]["type"] == "HandEnded", 30, start=mark
            )
            ended = sum(1 for e in spectator.events("t6") if e["type"] == "HandEnded")
    stop.set()
    await asyncio.gather(*tasks)
    seen = spectator.events("t6")
    kinds = {e["type"] for e in seen}
    assert {"Reshuffled", "HandShown", "PotAwarded", "Turn"} <= kinds
    assert "DeckRevealed" not in kinds  # the seed stays with the server
    timeouts = [e for e in seen if e["type"] == "TimedOut"]
    assert any(e["street"] == "draw" and e["penalized"] for e in timeouts), timeouts
    assert any(e["street"] != "draw" for e in timeouts), timeouts
    for e in seen:
        assert e["type"] not in ("CardsReceived", "DiscardedCards", "Legal")
    # Versions have no gaps for the spectator (every public entry).
    versions = [f["v"] for f in spectator.frames if f["type"] == "event"]
    assert versions == sorted(versions)
    for p in players:
        check_frames(p.frames, p.raw, p.seat["t6"])
        mine = [e for e in p.events("t6") if e["type"] == "CardsReceived"]
        assert mine
        assert all(e["seat"] == p.seat["t6"] for e in mine)
    check_frames(spectator.frames, spectator.raw, None)
    await asyncio.gather(*(c.close() for c in [*players, spectator]))
    # Chips: no rake at this table, and a seat's stack changes only when a hand ends,
    # so balances plus seat stacks are exactly what the six guests started with.
    state = server.table("t6")["state"]
    stacks = {s["name"]: s["stack"] for s in state["seats"]}
    total = sum(server.me(g["token"])["balance"] + stacks[g["name"]] for g in guests)
    assert total == 6 * 10_000
