"""Random legal play in every structure and both presets, invariants after every action."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drawpoker.actions import Action
from drawpoker.events import CardsReceived, DiscardedCards, Event
from drawpoker.hand import Hand
from drawpoker.rules import Rules

from .helpers import random_action


@st.composite
def tables(draw: st.DrawFn) -> tuple[Rules, dict[int, int], int, int]:
    italian = draw(st.booleans())
    max_seats = draw(st.integers(2, 8))
    if italian:
        rules = Rules.italian(
            max_seats=max_seats,
            invito=draw(st.integers(1, 20)),
            invito_others=draw(st.sampled_from(["none", "half", "one_less", "same"])),
            openers_check=draw(st.sampled_from(["server", "showdown", "on_request"])),
            false_opener_penalty=draw(st.sampled_from(["pot", 1, 25, 1000])),
            checked_pot_stays=draw(st.booleans()),
            reveal=draw(st.sampled_from(["all", "winners"])),
        )
    else:
        big = draw(st.integers(2, 10))
        rules = Rules.online(
            structure=draw(st.sampled_from(["no-limit", "pot-limit", "fixed-limit"])),
            max_seats=max_seats,
            small_blind=draw(st.integers(1, big)),
            big_blind=big,
            antes=draw(st.sampled_from([0, 0, 1])),
            rake_percent=draw(st.sampled_from([0, 5, 10])),
            reshuffle_folded=draw(st.booleans()),
            protect_last_card=draw(st.booleans()),
            burn_cards=draw(st.booleans()),
            max_consecutive_draw=draw(st.integers(1, 5)),
            fl_cap_lifted_heads_up=draw(st.booleans()),
            reveal=draw(st.sampled_from(["all", "winners"])),
        )
    seats = draw(st.lists(st.integers(1, max_seats), min_size=2, max_size=max_seats, unique=True))
    stacks = {seat: draw(st.integers(1, 400)) for seat in seats}
    button = draw(st.integers(1, max_seats))
    carried = draw(st.sampled_from([0, 0, 37])) if italian else 0
    return rules, stacks, button, carried


def check_event_stream(events: list[Event], first_seq: int) -> None:
    assert [e.seq for e in events] == list(range(first_seq, first_seq + len(events)))
    thrown: dict[int, set[int]] = {}
    for event in events:
        if isinstance(event, DiscardedCards):
            thrown.setdefault(event.seat, set()).update(event.cards)
        elif isinstance(event, CardsReceived):
            assert not thrown.get(event.seat, set()) & set(event.cards), "own discard received"


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.integers(0, 2**32), st.integers(1, 1000))
def test_random_play_keeps_every_invariant(
    table: tuple[Rules, dict[int, int], int, int], seed: int, first_seq: int
) -> None:
    rules, stacks, button, carried = table
    rng = random.Random(seed)
    hand = Hand(
        rules, stacks, button, seed=rng.randbytes(32), carried_pot=carried, first_seq=first_seq
    )
    hand.check_invariants()
    for _ in range(200):
        legal = hand.legal_actions()
        if legal is None:
            break
        assert (
            legal.draw or legal.fold or legal.check or legal.call or legal.max_to
        ) != legal.ask_openers  # R48: the request is a phase of its own
        assert legal.seat == hand.to_act
        hand.act(random_action(legal, rng, timeout_rate=0.02))
        hand.check_invariants()
    assert hand.is_over
    check_event_stream(hand.events, first_seq)
    result = hand.result
    assert (
        sum(result.stacks.values()) + result.rake + result.carried_pot
        == sum(stacks.values()) + carried
    )
    if not result.reached_draw:
        assert result.rake == 0


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 5), st.booleans(), st.booleans())
def test_reshuffle_heavy_eight_handed_draws(
    seed: int, max_consecutive_draw: int, italian: bool, protect_last_card: bool
) -> None:
    """Eight players who all draw five force reshuffles and, with deferred
    deliveries, reshuffles between a player's two deliveries; nobody ever gets
    their own discard and the stub never runs dry."""
    rng = random.Random(seed)
    options = {"max_seats": 8, "max_consecutive_draw": max_consecutive_draw}
    rules = (
        Rules.italian(**options, openers_check="showdown")
        if italian
        else Rules.online(structure="fixed-limit", protect_last_card=protect_last_card, **options)
    )
    hand = Hand(rules, dict.fromkeys(range(1, 9), 100), rng.randint(1, 8), seed=rng.randbytes(32))
    while hand.street == "pre-draw":
        legal = hand.legal_actions()
        assert legal is not None
        if legal.call:
            hand.act(Action.call(legal.seat))
        elif legal.max_to and italian:
            hand.act(Action.bet(legal.seat, legal.min_to))  # somebody opens
        else:
            hand.act(Action.check(legal.seat))
    while hand.street == "draw":
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(Action.draw(legal.seat, legal.hand))
        hand.check_invariants()
    assert hand.reshuffles >= 1
    check_event_stream(hand.events, 1)
