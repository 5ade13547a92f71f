"""The duplicate match harness and ``drawpoker match``."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import pytest

from drawpoker import bots as bots_module
from drawpoker.actions import Action, LegalActions
from drawpoker.bots import Bot
from drawpoker.bots.simple import CallingStation
from drawpoker.cli import main
from drawpoker.errors import InvalidConfig
from drawpoker.events import CardsReceived, Event, Street
from drawpoker.rules import Rules
from drawpoker.tools.match import deck_seed, play_match

NL = Rules.online(structure="no-limit", small_blind=1, big_blind=2)
FL = Rules.online(structure="fixed-limit", small_blind=1, big_blind=2)


def test_deck_seeds_are_deterministic_and_distinct() -> None:
    assert deck_seed("S", 0) == deck_seed("S", 0)
    assert len(deck_seed("S", 0)) == 32
    seeds = {deck_seed(s, i) for s in ("S", "T") for i in range(100)}
    assert len(seeds) == 200


class Recorder(CallingStation):
    """A calling station that records the first cards it is dealt each hand."""

    name = "recorder"
    log: ClassVar[list[tuple[str, int, int, tuple[int, ...]]]] = []

    def decide(
        self, view: Mapping[str, Any], legal: LegalActions, events: Sequence[Event]
    ) -> Action:
        return super().decide(view, legal, events)

    def observe(self, events: Sequence[Event]) -> None:
        first = next(e for e in events if isinstance(e, CardsReceived))
        hand_id = events[0].hand_id  # type: ignore[attr-defined]
        Recorder.log.append((hand_id, self.seat, id(self), first.cards))


def test_duplicate_every_bot_plays_every_deck_from_every_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(bots_module.BOTS, "recorder", Recorder)
    Recorder.log = []
    result = play_match(["recorder", "tag", "random"], FL, 9, "dup")
    assert result.decks == 3
    assert result.hands == 9
    by_hand: dict[str, list[tuple[int, int, tuple[int, ...]]]] = {}
    for hand_id, seat, bot, cards in Recorder.log:
        by_hand.setdefault(hand_id, []).append((seat, bot, cards))
    assert len(by_hand) == 3
    for rows in by_hand.values():
        assert sorted(seat for seat, _, _ in rows) == [1, 2, 3]  # once from each seat
        assert len({bot for _, bot, _ in rows}) == 3  # one instance per session
    # The same deck deals the same cards to a seat whoever sits there: the recorder's
    # seat-1 cards in one session are the tag's seat-1 cards in another.
    seat_cards = {(hand_id, seat): cards for hand_id, seat, _, cards in Recorder.log}
    assert len(set(seat_cards.values())) == 9


def test_results_are_zero_sum_and_reproducible() -> None:
    a = play_match(["shark", "tag", "calling-station"], NL, 30, "zero")
    total = sum(r.bb_per_100 * r.seats for r in a.results)
    assert total == pytest.approx(0.0, abs=1e-9)
    b = play_match(["shark", "tag", "calling-station"], NL, 30, "zero")
    assert [r.bb_per_100 for r in a.results] == [r.bb_per_100 for r in b.results]
    c = play_match(["shark", "tag", "calling-station"], NL, 30, "other")
    assert [r.bb_per_100 for r in a.results] != [r.bb_per_100 for r in c.results]
    heads_up = play_match(["tag", "random"], FL, 20, "hu")
    assert heads_up.results[0].bb_per_100 == -heads_up.results[1].bb_per_100
    assert heads_up.results[0].ci95 == heads_up.results[1].ci95 > 0


def test_the_order_of_the_bots_does_not_matter() -> None:
    """Every rotation of the seats is played, so listing the bots in another order
    plays the same sessions."""
    result = play_match(["tag", "calling-station"], FL, 40, "same")
    mirrored = play_match(["calling-station", "tag"], FL, 40, "same")
    assert result.results[0].bb_per_100 == mirrored.results[1].bb_per_100 != 0


def test_copies_are_pooled_and_progress_reported() -> None:
    seen: list[int] = []
    result = play_match(["shark", "random", "random"], NL, 7, "pool", progress=seen.append)
    assert seen == [3, 6, 9]
    assert [r.name for r in result.results] == ["shark", "random"]
    assert [r.seats for r in result.results] == [1, 2]
    assert result.results[1].hands == 18


def test_italian_carries_the_pot() -> None:
    result = play_match(["tag", "calling-station"], Rules.italian(), 40, "it", stack_bb=50)
    assert result.unit == 10
    assert {r.name for r in result.results} == {"tag", "calling-station"}


def test_bad_matches() -> None:
    with pytest.raises(InvalidConfig, match="2 to 8 bots"):
        play_match(["shark"], NL, 10, "x")
    with pytest.raises(InvalidConfig, match="hands"):
        play_match(["shark", "tag"], NL, 0, "x")


def test_cli(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["match", "shark", "random", "--hands", "20", "--structure", "fixed-limit"]
    assert main([*args, "--seed", "7", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hands"] == 20
    assert data["structure"] == "fixed-limit"
    assert [r["bot"] for r in data["results"]] == ["shark", "random"]
    assert main([*args, "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "bb/100" in out
    assert "shark" in out
    assert main(["match", "shark", "fish"]) == 2
    assert "unknown bot 'fish'" in capsys.readouterr().err
    assert main(["match", "shark", "tag", "--preset", "italian", "--hands", "4", "--quiet"]) == 0
    assert "invito/100" in capsys.readouterr().out


def test_bot_base_class_must_decide() -> None:
    with pytest.raises(NotImplementedError):
        Bot().decide({}, LegalActions(seat=1, street=Street.PRE_DRAW), [])
