"""Provably fair: verify checks the commitment, re-derives every card, and catches tampering."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

from drawpoker.cards import format_cards, parse_cards
from drawpoker.cli import main
from drawpoker.deck import commitment
from drawpoker.events import Reshuffled
from drawpoker.hand import Hand
from drawpoker.history import dumps, dumps_all, loads
from drawpoker.history.verify import verify
from drawpoker.rules import Rules
from drawpoker.tools.samples import random_hand

RULES = Rules.online(structure="no-limit", max_seats=8)


def hands(count: int, seed: int = 1, players: int = 8) -> list[Hand]:
    rng = random.Random(seed)
    return [random_hand(RULES, rng, players=players, big_draws=True) for _ in range(count)]


def test_fair_hands_verify_reshuffles_included() -> None:
    reshuffled = 0
    for hand in hands(60):
        verdict = verify(loads(dumps(hand)))
        assert verdict.ok, verdict.problems
        dealt = sum(len(c) for c in _dealt_cards(hand))
        assert verdict.cards == dealt
        reshuffled += any(isinstance(e, Reshuffled) for e in hand.events)
        assert verdict.reshuffles == hand.reshuffles
    assert reshuffled > 20


def _dealt_cards(hand: Hand) -> list[tuple[int, ...]]:
    from drawpoker.events import CardsReceived

    return [e.cards for e in hand.events if isinstance(e, CardsReceived)]


def _deal_lines(data: dict[str, Any]) -> list[int]:
    return [i for i, a in enumerate(data["actions"]) if a.startswith("d dh")]


@pytest.mark.parametrize("which", ["first deal", "replacement"])
def test_changed_card_is_detected(which: str) -> None:
    for hand in hands(10, seed=2, players=4):
        data = loads(dumps(hand))
        lines = _deal_lines(data)
        players = len(hand.players)
        index = lines[0] if which == "first deal" else (lines[players:] or lines)[-1]
        words = data["actions"][index].split()
        cards = list(parse_cards(words[3]))
        held = set().union(*(set(c) for c in _dealt_cards(hand)))
        stranger = next(c for c in range(52) if c not in held)
        cards[0] = parse_cards(format_cards([stranger]))[0]
        data["actions"][index] = f"d dh {words[2]} {format_cards(cards, '')}"
        verdict = verify(data)
        assert not verdict.ok
        problem = verdict.problems[0]
        assert f"action {index + 1} 'd dh {words[2]}" in problem
        assert "the seed deals" in problem
        assert f"{format_cards([stranger])} instead of" in problem


def test_changed_seed_is_detected() -> None:
    data = loads(dumps(hands(1, seed=3)[0]))
    seed = data["_seed"]
    data["_seed"] = ("0" if seed[0] != "0" else "1") + seed[1:]
    verdict = verify(data)
    assert not verdict.ok
    assert "the seed does not match the commitment" in verdict.problems[0]
    # A forger who also rewrites the commitment still cannot match the cards.
    data["_commitment"] = commitment(bytes.fromhex(data["_seed"]))
    verdict = verify(data)
    assert not verdict.ok
    assert "action 1 'd dh p1" in verdict.problems[0]


def test_swapped_action_is_detected() -> None:
    detected = 0
    for hand in hands(30, seed=4):
        data = loads(dumps(hand))
        acts = data["actions"]
        moves = [i for i, a in enumerate(acts) if a.startswith("p") and " sm" not in a]
        pairs = [(i, j) for i, j in itertools.pairwise(moves) if acts[i] != acts[j]]
        if not pairs:
            continue
        i, j = pairs[0]
        acts[i], acts[j] = acts[j], acts[i]
        verdict = verify(data)
        assert not verdict.ok, (i, j, acts)
        detected += 1
    assert detected >= 25


def test_missing_seed_or_commitment() -> None:
    data = loads(dumps(hands(1, seed=5)[0]))
    data.pop("_seed")
    assert "neither openings (_openings) nor the seed" in verify(data).problems[0]
    data.pop("_commitment")
    assert "no deck commitment" in verify(data).problems[0]


def test_cli_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    played = hands(3, seed=6)
    path = tmp_path / "fair.phhs"
    path.write_text(dumps_all(played))
    assert main(["verify", str(path)]) == 0
    assert capsys.readouterr().out.count(": fair:") == 3
    text = path.read_text()
    seed = loads(dumps(played[1]))["_seed"]
    path.write_text(text.replace(seed, seed[::-1]))
    assert main(["verify", str(path), "--json"]) == 1
    rows = json.loads(capsys.readouterr().out)
    assert [row["ok"] for row in rows] == [True, False, True]
    assert "commitment" in rows[1]["problems"][0]
