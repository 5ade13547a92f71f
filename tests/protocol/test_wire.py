"""Events on the wire: every engine event survives the JSON round trip,
the hand view rebuilt from the events a seat receives is ``Hand.view(seat)``
after every event, in every structure and preset; the rules from a snapshot; the
send rate under the server's limit."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from drawpoker.bots import make_bot
from drawpoker.events import SERVER, Event, HandStarted
from drawpoker.hand import Hand
from drawpoker.protocol import encode
from drawpoker.protocol.events import (
    UnknownEntry,
    WireError,
    entry_from_wire,
    event_from_wire,
    event_to_wire,
    legal_from_wire,
)
from drawpoker.protocol.mirror import HandMirror, rules_from_snapshot
from drawpoker.protocol.server import Turn
from drawpoker.room.events import PlayerSeated
from drawpoker.rules import Rules

RULES = {
    "no-limit": Rules.online(max_seats=6),
    "pot-limit": Rules.online(structure="pot-limit", max_seats=6),
    "fixed-limit": Rules.online(structure="fixed-limit", max_seats=6, antes=1),
    "italian": Rules.italian(invito=10, max_seats=6),
    "italian-showdown": Rules.italian(invito=10, max_seats=5, openers_check="showdown"),
}
KINDS = ("random", "calling-station", "tag", "random", "tag", "calling-station")


def _compare(mirror: HandMirror, hand: Hand, seat: int) -> None:
    want = hand.view(seat)
    got = mirror.view()
    keys = ("hand_id", "button", "pot") + (() if hand.is_over else ("highest",))
    for key in keys:  # the engine leaves ``highest`` as it was when a hand ends
        assert got[key] == want[key], (key, got, want)
    assert got["seats"] == want["seats"]


def _wire(event: Event) -> Event | None:
    data: dict[str, Any] = msgspec.json.decode(encode(event_to_wire(event)))
    return event_from_wire(data)


@pytest.mark.parametrize("name", sorted(RULES))
def test_mirror_matches_the_engine_view(name: str) -> None:
    rules = RULES[name]
    rng = random.Random(name)
    for number in range(40):
        n = rng.randint(2, rules.max_seats)
        seats = sorted(rng.sample(range(1, rules.max_seats + 1), n))
        stacks = {seat: rng.choice([3, 15, 60, 200, 1000]) for seat in seats}
        button = rng.choice(seats)
        hand = Hand(rules, stacks, button, seed=bytes([number]) * 32, hand_id=f"h{number}")
        bots = {seat: make_bot(KINDS[i % len(KINDS)], seed=seat) for i, seat in enumerate(seats)}
        for seat, bot in bots.items():
            bot.sit(seat, rules)
        mirrors = {seat: HandMirror(seat, rules.max_seats) for seat in seats}
        seen = 0
        snapshot_at = rng.randint(1, 8)
        while True:
            new = hand.events[seen:]
            seen = len(hand.events)
            for event in new:
                if event.visible_to == SERVER:
                    continue
                back = _wire(event)
                assert back == event
                for seat, mirror in mirrors.items():
                    if event.visible(seat):
                        mirror.apply(back, rules.big_blind)
            for seat, mirror in mirrors.items():
                _compare(mirror, hand, seat)
            if hand.is_over:
                break
            legal = hand.legal_actions()
            assert legal is not None
            snapshot_at -= 1
            if snapshot_at == 0:  # a client joining now starts from the snapshot
                mirrors[legal.seat] = HandMirror.from_view(
                    hand.view(legal.seat), legal.seat, rules.max_seats
                )
            assert legal_from_wire(legal.to_dict()) == legal
            view = mirrors[legal.seat].view()
            action = bots[legal.seat].decide(view, legal, hand.events_for(legal.seat))
            hand.act(action)


def test_server_room_and_unknown_entries() -> None:
    assert event_from_wire({"type": "Turn", "seat": 1}) is None
    seated = event_from_wire(
        {"type": "PlayerSeated", "seq": 4, "seat": 1, "name": "ann", "stack": 200, "post": True}
    )
    assert seated == PlayerSeated(seq=4, seat=1, player="ann", stack=200, post=True)
    turn = {"type": "Turn", "seat": 2, "street": "draw", "clock_s": 30.0, "hand_id": "t-1"}
    assert entry_from_wire(turn) == Turn(seat=2, street="draw", clock_s=30.0, hand_id="t-1")
    assert entry_from_wire({"type": "Fireworks", "colour": "red"}) == UnknownEntry(
        "Fireworks", {"type": "Fireworks", "colour": "red"}
    )


def test_rules_from_the_snapshot_summary() -> None:
    nl = rules_from_snapshot({"rules": "No Limit 1/2, 6-max", "max_seats": 6})
    assert (nl.structure, nl.small_blind, nl.big_blind, nl.max_seats) == ("no-limit", 1, 2, 6)
    fl = rules_from_snapshot({"rules": "Limit 4/8, 8-max"})
    assert fl.is_fixed_limit
    assert (fl.bet_sizes, fl.max_seats) == ((4, 8), 8)
    it = rules_from_snapshot({"rules": "Italian, invito 10, 5-max"})
    assert it.is_italian
    assert (it.invito, it.max_seats) == (10, 5)
    level = {"level": 3, "small_blind": 25, "big_blind": 50, "ante": 5, "minutes": 3}
    sng = rules_from_snapshot({"rules": "No Limit 5/10, 6-max", "tournament": {"level": level}})
    assert (sng.small_blind, sng.big_blind, sng.antes) == (25, 50, 5)
    assert rules_from_snapshot({"rules": "something new"}) == Rules.online()


def test_fields_with_a_default_may_be_missing_the_others_may_not() -> None:
    """A client reads the entries of a server that does not send a newer field
    (here the fairness fields of ``HandStarted``); a missing required one is refused."""
    started = {"type": "HandStarted", "seq": 2, "hand_id": "t-1", "button": 1,
               "stacks": [[1, 200], [3, 100]], "carried_pot": 0, "commitment": ""}  # fmt: skip
    event = event_from_wire(started)
    assert isinstance(event, HandStarted)
    assert (event.server_commitment, event.entropy, event.next_commitment) == ("", (), "")
    assert event.stacks == ((1, 200), (3, 100))
    with pytest.raises(WireError, match="hand_id"):
        event_from_wire({k: v for k, v in started.items() if k != "hand_id"})
