"""The privacy check applied to every frame every test client received."""

from __future__ import annotations

import hashlib
import re
from typing import Any

PRIVATE = ("CardsReceived", "DiscardedCards")
HEX64 = re.compile(r"[0-9a-f]{64}")


def check_frames(frames: list[dict[str, Any]], raw: list[str], seat: int | None) -> None:
    """``seat``: the client's seat at the (single) table, None for a spectator.

    No other player's hole cards or discards, no legal actions of another seat,
    no seed before the hand ends (and the seed matches the commitment)."""
    commitments: dict[str, str] = {}
    current = ""
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
                current = hand["hand_id"]
                commitments[current] = hand["commitment"]
            continue
        if frame["type"] != "event":
            continue
        event = frame["event"]
        kind = event["type"]
        assert "visible_to" not in event
        if kind == "HandStarted":
            current = event["hand_id"]
            commitments[current] = event["commitment"]
        elif kind in PRIVATE:
            assert seat is not None, f"{kind} reached a spectator"
            assert event["seat"] == seat, f"{kind} of seat {event['seat']} reached seat {seat}"
        elif kind == "Legal":
            assert seat is not None
            assert event["legal"]["seat"] == seat
        elif kind == "DeckRevealed":
            seed = event["seed"]
            assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitments[current]
            for earlier in raw[:i]:
                assert seed not in earlier, "the seed was sent before the hand ended"
        for token in HEX64.findall(raw[i]):
            assert token in commitments.values() or kind == "DeckRevealed", (
                f"unexpected 64-hex string in {raw[i][:200]}"
            )
