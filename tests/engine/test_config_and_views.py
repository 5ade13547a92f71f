"""Rules configuration errors, malformed actions, and what each viewer may see."""

from __future__ import annotations

from fractions import Fraction

import pytest

from drawpoker._native import compiled_modules
from drawpoker.actions import Action, ActionKind, LegalActions
from drawpoker.cards import format_cards
from drawpoker.errors import InvalidAction, InvalidCards, InvalidConfig
from drawpoker.events import EVERYONE, SERVER, CardsReceived, DiscardedCards, HandShown
from drawpoker.rules import OpenersCheck, Preset, Rules, Structure

from .helpers import NL, play, six


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"max_seats": 9}, "max_seats: must be 2 to 8, got 9"),
        ({"max_seats": 1}, "max_seats: must be 2 to 8, got 1"),
        ({"big_blind": -2}, "big_blind: must not be negative, got -2"),
        ({"small_blind": 5, "big_blind": 2}, "small_blind: 5 is above the big blind 2"),
        (
            {"structure": "fixed-limit", "small_blind": 0, "big_blind": 0, "antes": 1},
            "small_bet: fixed limit needs bet sizes",
        ),
        ({"structure": "no-limit", "big_blind": 0, "small_blind": 0}, "big_blind:"),
        ({"structure": "spread-limit"}, "structure: 'spread-limit' is not one of"),
        ({"big_blind": 2.5}, "big_blind: must be an integer, not 2.5"),
        ({"rake_percent": "lots"}, "rake_percent: 'lots' is not a number"),
        ({"rake_percent": 101}, "rake_percent: must be 0 to 100"),
        ({"max_discard": 6}, "max_discard: must be 1 to 5, got 6"),
        ({"openers": "JQ"}, "openers: must be a pair like 'JJ'"),
        ({"invito": 10}, "invito: only the italian preset has an invito"),
        ({"rake_caps": ((2, -1),)}, "rake_caps: entry 0 must be"),
    ],
)
def test_impossible_online_configuration_names_the_field(
    overrides: dict[str, object], message: str
) -> None:
    with pytest.raises(InvalidConfig, match=message.replace("(", r"\(")):
        Rules.online(**overrides)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"invito": 0}, "invito: the italian preset needs an invito"),
        ({"big_blind": 2}, "small_blind: the italian preset has no blinds"),
        ({"structure": "no-limit"}, "structure: the italian preset bets pot-limited"),
        ({"invito_others": "double"}, "invito_others: 'double' is not one of"),
        ({"openers_check": "never"}, "openers_check: 'never' is not one of"),
    ],
)
def test_impossible_italian_configuration_names_the_field(
    overrides: dict[str, object], message: str
) -> None:
    with pytest.raises(InvalidConfig, match=message):
        Rules.italian(**overrides)


def test_presets_and_defaults() -> None:
    online = Rules.online()
    assert (online.preset, online.structure, online.max_seats) == (
        Preset.ONLINE,
        Structure.NO_LIMIT,
        6,
    )
    assert (online.max_discard, online.max_consecutive_draw, online.draw_time_s) == (5, 5, 30)
    assert online.draw_timeout_penalty
    assert not online.burn_cards
    assert not online.reshuffle_folded
    assert not online.protect_last_card
    assert online.fl_max_raises == 3
    italian = Rules.italian()
    assert (italian.openers, italian.openers_rank, italian.raise_pot_multiple) == ("JJ", 9, 2)
    assert italian.max_consecutive_draw == 3
    assert italian.checked_pot_stays
    assert italian.openers_check is OpenersCheck.SERVER
    assert Rules.italian(openers="QQ").openers_rank == 10
    assert Rules.online(rake_percent="4.5").rake_percent == Fraction(9, 2)
    assert Rules.online(structure="fixed-limit").summary() == "Limit 2/4, 6-max"


def test_rules_are_frozen_and_keyword_only() -> None:
    rules = Rules.online()
    with pytest.raises(AttributeError):
        rules.max_seats = 8  # type: ignore[misc]
    with pytest.raises(TypeError):
        Rules("online")  # type: ignore[misc]


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Action(1, "shove"), "unknown action 'shove'"),
        (lambda: Action(1, "bet", -5), "amount must not be negative, got -5"),
        (lambda: Action(1, "bet", 2.5), "amount must be a whole number of chips, not 2.5"),
        (lambda: Action(1, "bet"), "a bet or raise needs the amount"),
        (lambda: Action(1, "call", 4), "call takes no amount"),
        (lambda: Action("1", "fold"), "seat must be an integer"),
        (lambda: Action(1, "fold", 0, (3,)), "fold takes no cards"),
        (lambda: Action(1, ["bet"]), "unknown action \\['bet'\\]"),
        (lambda: Action(1, "draw", 0, 5), "cards must be text or a sequence of cards, not 5"),
    ],
)
def test_malformed_actions(build: object, message: str) -> None:
    with pytest.raises(InvalidAction, match=message):
        build()  # type: ignore[operator]


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Action.fold("1"), "seat must be an integer"),  # type: ignore[arg-type]
        (lambda: Action.timeout(True), "seat must be an integer"),
        (lambda: Action.bet(1, 0), "a bet or raise needs the amount"),
        (lambda: Action.bet(1, -5), "amount must not be negative, got -5"),
        (lambda: Action.bet(1, 2.5), "amount must be a whole number"),  # type: ignore[arg-type]
        (lambda: Action.draw(1.0, "As"), "seat must be an integer"),  # type: ignore[arg-type]
    ],
)
def test_malformed_named_actions(build: object, message: str) -> None:
    """The named constructors take a fast path only for well-formed values."""
    with pytest.raises(InvalidAction, match=message):
        build()  # type: ignore[operator]


def test_named_actions_equal_the_dataclass_constructor() -> None:
    assert Action.fold(2) == Action(2, ActionKind.FOLD)
    assert Action.check(2) == Action(2, ActionKind.CHECK)
    assert Action.call(2) == Action(2, ActionKind.CALL)
    assert Action.bet(2, 9) == Action(2, ActionKind.BET, 9)
    assert Action.stand_pat(2) == Action(2, ActionKind.DRAW)
    assert Action.timeout(2) == Action(2, ActionKind.TIMEOUT)
    drawn = Action.draw(2, (51, 0))
    assert drawn == Action(2, ActionKind.DRAW, 0, (51, 0)) == Action.draw(2, "As 2c")
    assert [type(c).__name__ for c in drawn.cards] == ["Card", "Card"]


def test_actions_and_legal_actions_are_values() -> None:
    """Equal by value, hashable, read-only (at run time when the engine is compiled:
    ``Final`` attributes; mypy holds the Python source to the same)."""
    assert Action(1, "draw", 0, [0, 1]) == Action.draw(1, (0, 1))
    assert len({Action.call(3), Action(3, "call"), Action.fold(3)}) == 2
    assert (
        repr(Action.bet(2, 9)) == "Action(seat=2, kind=<ActionKind.BET: 'bet'>, amount=9, cards=())"
    )
    legal = six(NL).legal_actions()
    assert legal is not None
    assert legal == LegalActions(**legal_fields(legal))
    assert hash(legal) == hash(LegalActions(**legal_fields(legal)))
    if "actions" not in compiled_modules():
        pytest.skip("the Python source: attributes are read-only for mypy only")
    with pytest.raises(AttributeError):
        Action.call(3).seat = 4  # type: ignore[misc]
    with pytest.raises(AttributeError):
        legal.max_to = 10**6  # type: ignore[misc]


def legal_fields(legal: LegalActions) -> dict[str, object]:
    names = ("seat", "street", "fold", "check", "call", "call_all_in", "min_to", "max_to")
    names += ("bet_label", "draw", "max_discard", "hand")
    return {name: getattr(legal, name) for name in names}


def test_draw_of_a_bad_or_repeated_card() -> None:
    with pytest.raises(InvalidCards, match="'Zz' is not a card"):
        Action.draw(1, "Zz")
    with pytest.raises(InvalidCards, match="appears twice"):
        Action.draw(1, "As As")


def test_each_seat_sees_only_its_own_cards() -> None:
    hand = six(NL)
    play(hand, "4 c, 5 c, 6 f, 1 f, 2 f, 3 x")
    for seat in (3, 4, 5):
        hand.act(Action.draw(seat, hand.cards(seat)[:2]))
    play(hand, "3 x, 4 x, 5 x")
    shown_at = min(e.seq for e in hand.events if isinstance(e, HandShown))
    for viewer in (1, 2, 3, 4, 5, 6, EVERYONE):
        for event in hand.events_for(viewer):
            if isinstance(event, (CardsReceived, DiscardedCards)):
                assert event.seat == viewer
            if isinstance(event, HandShown):
                assert event.seq >= shown_at
    everything = hand.events_for(SERVER)
    assert len(everything) == len(hand.events)
    mid = six(NL)
    play(mid, "4 c, 5 c, 6 f, 1 f, 2 f, 3 x")
    view = mid.view(4)
    cards = {s["seat"]: s["cards"] for s in view["seats"]}
    assert cards[4] == format_cards(mid.cards(4)).split()
    assert all(cards[s] is None for s in (1, 2, 3, 5, 6))
    spectator = mid.view(EVERYONE)
    assert all(s["cards"] is None for s in spectator["seats"])
    assert spectator["legal"] is None
    assert "seed" not in str(spectator)
