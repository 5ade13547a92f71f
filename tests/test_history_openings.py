"""A player's history holds what that player saw and nothing else, and proves it:
the openings of their cards verify against the commitments published before
the deal; a folded or mucked hand is never in it; a tampered card fails."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drawpoker.actions import Action
from drawpoker.cards import DECK, parse_card
from drawpoker.cli import main
from drawpoker.events import (
    EVERYONE,
    CardsReceived,
    DeckRevealed,
    HandShown,
    HandStarted,
    OpenersShown,
)
from drawpoker.fairness import open_cards
from drawpoker.hand import Hand
from drawpoker.history import loads
from drawpoker.history.openings import openings_for
from drawpoker.history.phh import dumps
from drawpoker.history.verify import verify
from drawpoker.protocol.events import event_to_wire
from drawpoker.rules import Rules
from drawpoker.tools.samples import random_hand

ONLINE = Rules.online(structure="no-limit", max_seats=8)
ITALIAN = Rules.italian(max_seats=6, openers_check="on_request")
CARD = re.compile(r"[2-9TJQKA][cdhs]")
HEX = re.compile(r"[0-9a-f]{64}")


def seen_by(hand: Hand, seat: int) -> set[int]:
    """Every card ``seat`` saw at the table: its own, and the hands shown."""
    seen: set[int] = set()
    for e in hand.events:
        mine = isinstance(e, CardsReceived) and e.seat == seat
        if mine or isinstance(e, (HandShown, OpenersShown)):
            seen.update(e.cards)  # type: ignore[attr-defined]
    return seen


def cards_in(text: str) -> set[int]:
    """Every card named in a history (hashes and salts, 64 hex digits, left out)."""
    text = HEX.sub("", text)
    return {int(parse_card(c)) for c in CARD.findall(text)}


def check_player_view(hand: Hand, seat: int) -> dict[str, Any]:
    text = dumps(hand, viewer=seat)
    data = loads(text)
    assert "_seed" not in data, "a player's history reveals the seed"
    # No card the player did not see, anywhere in the file (the openings included).
    leaked = cards_in(text) - seen_by(hand, seat)
    assert not leaked, f"seat {seat} learns {[str(DECK[c]) for c in leaked]}"
    verdict = verify(data)
    assert verdict.ok, verdict.problems
    openings = data.get("_openings", [])
    mine = {o["card"] for o in openings if o["seat"] == seat}
    assert mine == {str(DECK[c]) for c in _own(hand, seat)}
    shown = _shown(hand)
    for o in openings:
        if o["seat"] != seat:
            assert int(parse_card(o["card"])) in shown.get(o["seat"], set())
    return data


def _shown(hand: Hand) -> dict[int, set[int]]:
    out: dict[int, set[int]] = {}
    for e in hand.events:
        if isinstance(e, (HandShown, OpenersShown)):
            out.setdefault(e.seat, set()).update(e.cards)
    return out


def _own(hand: Hand, seat: int) -> set[int]:
    return {
        c for e in hand.events if isinstance(e, CardsReceived) and e.seat == seat for c in e.cards
    }


def test_every_players_history_verifies_and_holds_only_what_they_saw() -> None:
    rng = random.Random(17)
    reshuffles = folds = 0
    for _ in range(40):
        hand = random_hand(ONLINE, rng, big_draws=rng.random() < 0.5)
        reshuffles += hand.reshuffles > 0
        folds += any(p.folded for p in hand.players)
        for p in hand.players:
            check_player_view(hand, p.seat)
    assert reshuffles >= 3
    assert folds >= 20


def test_italian_openers_shown_are_opened_and_verify() -> None:
    rng = random.Random(4)
    shown = 0
    for _ in range(60):
        hand = random_hand(ITALIAN, rng)
        shown += any(isinstance(e, OpenersShown) for e in hand.events)
        for p in hand.players:
            check_player_view(hand, p.seat)
    assert shown


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 8))
def test_property_a_player_view_never_holds_an_unseen_card(seed: int, players: int) -> None:
    hand = random_hand(ONLINE, random.Random(seed), players=players)
    for p in hand.players:
        check_player_view(hand, p.seat)


def test_a_tampered_opening_or_commitment_fails() -> None:
    hand = random_hand(ONLINE, random.Random(3), players=4)
    seat = hand.players[0].seat
    data = loads(dumps(hand, viewer=seat))
    good = data["_openings"][0]["card"]
    other = next(str(c) for c in DECK if str(c) != good)
    bad = dict(data, _openings=[dict(data["_openings"][0], card=other), *data["_openings"][1:]])
    verdict = verify(bad)
    assert not verdict.ok
    assert any("does not match the commitment" in p for p in verdict.problems)
    # A card moved to another place of the deck (a valid opening of the wrong
    # position: the server would be handing out someone else's card) is caught.
    hand_cards = data["actions"][0].split()[3]
    swapped = dict(data)
    swapped["actions"] = [f"d dh p1 {hand_cards[2:4]}{hand_cards[:2]}{hand_cards[4:]}"]
    swapped["actions"] += data["actions"][1:]
    assert not verify(swapped).ok
    forged = dict(data, _commitment="00" * 32)
    assert not verify(forged).ok
    # And the history must not open a card it does not show.
    missing = dict(data, _openings=data["_openings"][1:])
    assert any("is not opened" in p for p in verify(missing).problems)


def test_the_seed_is_the_servers_unless_the_table_reveals_it() -> None:
    for reveal in (False, True):
        hand = Hand(ONLINE, {1: 100, 2: 100, 3: 100}, 1, seed=bytes(32), reveal_seed=reveal)
        while not hand.is_over:
            to_act = hand.to_act
            assert to_act is not None
            hand.act(Action.fold(to_act))
        (revealed,) = [e for e in hand.events if isinstance(e, DeckRevealed)]
        assert revealed.seed == bytes(32).hex()
        assert revealed.visible(EVERYONE) is reveal
        assert revealed.visible(1) is reveal
        assert (revealed in hand.events_for(EVERYONE)) is reveal
        text = dumps(hand, viewer=1)
        assert ("_seed" in text) is reveal


def cards_in_json(value: Any) -> set[int]:
    """Every card named in JSON data (strings that are exactly a card)."""
    if isinstance(value, str):
        return {int(parse_card(value))} if CARD.fullmatch(value) else set()
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    return set().union(*(cards_in_json(v) for v in items)) if items else set()


def json_history(hand: Hand, seat: int) -> dict[str, Any]:
    """What ``GET /api/hands/{hand}`` gives ``seat``: the events it may see, the
    commitment, the openings."""
    started = hand.events[0]
    assert isinstance(started, HandStarted)
    return {
        "events": [event_to_wire(e) for e in hand.events if e.visible(seat)],
        "commitment": started.commitment,
        "openings": [o.to_dict() for o in openings_for(hand, seat)],
    }


def test_a_json_history_verifies_with_every_place_followed_through_reshuffles() -> None:
    rng = random.Random(23)
    reshuffled = 0
    for _ in range(30):
        hand = random_hand(ONLINE, rng, big_draws=True)
        reshuffled += hand.reshuffles > 0
        for p in hand.players:
            data = json_history(hand, p.seat)
            text = json.dumps(data)
            assert not cards_in_json(json.loads(text)) - seen_by(hand, p.seat)
            verdict = verify(json.loads(text))
            assert verdict.ok, verdict.problems
            assert verdict.opened == len(data["openings"])
    assert reshuffled >= 10


def test_a_json_history_catches_a_card_from_the_wrong_place() -> None:
    """A server handing a player a card from another place of the committed deck
    (a valid opening, the wrong position) is caught, after a reshuffle too."""
    rng = random.Random(8)
    caught = 0
    for _ in range(20):
        hand = random_hand(ONLINE, rng, players=6, big_draws=True)
        seat = hand.players[2].seat
        data = json_history(hand, seat)
        seed = hand.seed
        assert seed is not None
        mine = [o for o in data["openings"] if o["seat"] == seat]
        last = mine[-1]
        order = hand.deck.orders[last["deck"]]
        other = next(i for i in range(len(order)) if i != last["position"])
        (forged,) = open_cards(seed, last["deck"], order, [(seat, other)])
        # Rewrite the history as if that card had been dealt: the opening verifies
        # against the root, but not at the place the deal gives it.
        for e in data["events"]:
            if e["type"] == "CardsReceived" and last["card"] in e["cards"]:
                e["cards"] = [
                    str(DECK[forged.card]) if c == last["card"] else c for c in e["cards"]
                ]
        data["openings"] = [o for o in data["openings"] if o is not last] + [forged.to_dict()]
        shown = [e for e in data["events"] if e["type"] == "HandShown"]
        if any(str(DECK[forged.card]) in e["cards"] for e in shown):
            continue  # a card shown by another player: not a forgery this test makes
        verdict = verify(data)
        assert not verdict.ok
        caught += 1
    assert caught >= 15


def test_the_cli_verifies_a_json_history(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hand = random_hand(ONLINE, random.Random(2), players=3)
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(json_history(hand, hand.players[0].seat)))
    assert main(["verify", str(path)]) == 0
    assert "fair for what you saw" in capsys.readouterr().out
    data = json.loads(path.read_text())
    data["openings"][0]["salt"] = "00" * 32
    path.write_text(json.dumps(data))
    assert main(["verify", str(path)]) == 1
    assert main(["replay", str(path)]) != 0  # a JSON history only verifies


@pytest.mark.parametrize(
    "rules",
    [
        Rules.online(structure="fixed-limit", max_seats=8, burn_cards=True),
        Rules.online(structure="pot-limit", max_seats=6, protect_last_card=True),
        Rules.online(structure="no-limit", max_seats=8, reshuffle_folded=True, reveal="winners"),
        Rules.italian(max_seats=6),
    ],
    ids=["burn", "protect-last", "reshuffle-folded-muck", "italian-deferred"],
)
def test_every_rule_variant_keeps_the_views_private_and_verifiable(rules: Rules) -> None:
    rng = random.Random(11)
    for _ in range(25):
        hand = random_hand(rules, rng, big_draws=True)
        for p in hand.players:
            check_player_view(hand, p.seat)
            data = json_history(hand, p.seat)
            assert not cards_in_json(data) - seen_by(hand, p.seat)
            verdict = verify(data)
            assert verdict.ok, verdict.problems
