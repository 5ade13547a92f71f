"""The privacy check applied to every frame every test client received."""

from __future__ import annotations

import re
from typing import Any

PRIVATE = ("CardsReceived", "DiscardedCards")
HEX64 = re.compile(r"[0-9a-f]{64}")


def check_frames(frames: list[dict[str, Any]], raw: list[str], seat: int | None) -> None:
    """``seat``: the client's seat at the (single) table, None for a spectator.

    No other player's hole cards or discards, no legal actions of another seat,
    never the seed (the tables of these tests do not reveal seeds, and a seed
    would rebuild every folded hand), and no 64-hex string but the published
    commitments (the deck's, each reshuffle's, the room seed's, the players'
    contributions)."""
    published: set[str] = set()
    for i, frame in enumerate(frames):
        if frame["type"] == "snapshot":
            hand = frame["state"]["hand"]
            if hand:
                for s in hand["seats"]:
                    assert s["cards"] is None or s["seat"] == seat, (
                        f"snapshot shows seat {s['seat']}'s cards to seat {seat}"
                    )
                legal = hand["legal"]
                assert legal is None or legal["seat"] == seat
                assert "seed" not in raw[i]
                # A client that joins mid-hand learns the commitment here.
                published.add(hand["commitment"])
            continue
        if frame["type"] != "event":
            continue
        event = frame["event"]
        kind = event["type"]
        assert "visible_to" not in event
        if kind == "HandStarted":
            published.update((event["commitment"], event["server_commitment"]))
            published.add(event["next_commitment"])
            published.update(digest for _, digest in event["entropy"])
        elif kind == "Reshuffled":
            published.add(event["commitment"])
        elif kind in PRIVATE:
            assert seat is not None, f"{kind} reached a spectator"
            assert event["seat"] == seat, f"{kind} of seat {event['seat']} reached seat {seat}"
        elif kind == "Legal":
            assert seat is not None
            assert event["legal"]["seat"] == seat
        assert kind != "DeckRevealed", "the seed was sent: it rebuilds every folded hand"
        for token in HEX64.findall(raw[i]):
            assert token in published, f"unexpected 64-hex string in {raw[i][:200]}"
