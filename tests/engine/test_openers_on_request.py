"""R48: openers on request. Anyone may open; when the hand ends, every other player
dealt in may, in turn clockwise from the opener, ask to see the openers. A false
opener pays a penalty into the carried pot and forfeits the hand (R44)."""

from __future__ import annotations

import pytest

from drawpoker.actions import Action
from drawpoker.cards import format_cards
from drawpoker.errors import IllegalAction, InvalidAction, InvalidConfig
from drawpoker.events import (
    SERVER,
    HandShown,
    OpenersDeclined,
    OpenersRequested,
    OpenersShown,
    PenaltyPaid,
    PotAwarded,
    PotCarried,
    Street,
    TimedOut,
)
from drawpoker.hand import Hand
from drawpoker.rules import Rules

from .helpers import dealt, kinds, legal_of, play

ON_REQUEST = Rules.italian(invito=10, max_seats=4, openers_check="on_request",
                           checked_pot_stays=False)  # fmt: skip
# Seat 1 holds no openers (tens); seat 2 queens; seats 3 and 4 nothing.
FALSE = {1: "Ts Td 8c 9h Kd", 2: "Qs Qd 4c 5h 7d", 3: "2s 3d 8d 9s Jd", 4: "As Kh 7c 6s 5d"}
# Seat 1 opens with jacks.
TRUE = {1: "Js Jd 8c 9h Kd", 2: "Qs Qd 4c 5h 7d", 3: "2s 3d 8d 9s 3h", 4: "As Kh 7c 6s 5d"}
SHOWDOWN = "1 b 10, 2 c, 3 f, 4 f, 1 p, 2 p, 1 x, 2 x"  # queens beat tens


def awards(hand: Hand) -> list[tuple[int, tuple[tuple[int, int], ...]]]:
    return [(e.amount, e.shares) for e in hand.events if isinstance(e, PotAwarded)]


def test_anyone_may_open() -> None:
    hand = dealt(ON_REQUEST, FALSE, 4)
    assert legal_of(hand).bet_label == "open"


def test_after_the_showdown_each_other_player_in_turn_may_ask() -> None:
    hand = dealt(ON_REQUEST, FALSE, 4)
    play(hand, SHOWDOWN)
    assert hand.street == Street.OPENERS
    assert not hand.is_over
    assert not awards(hand)  # the award waits for the requests
    legal = legal_of(hand)
    assert (legal.seat, legal.ask_openers, legal.opener, legal.penalty) == (2, True, 1, 30)
    assert not (legal.fold)
    assert not (legal.check)
    assert not (legal.call)
    assert not (legal.max_to)
    assert not (legal.draw)
    assert legal.describe() == "ask to see the openers of seat 1 or decline"
    assert hand.on_draw_clock
    hand.act(Action.decline(2))
    assert legal_of(hand).seat == 3  # folded players are asked too, clockwise
    hand.act(Action.decline(3))
    assert legal_of(hand).seat == 4
    events = hand.act(Action.decline(4))
    assert kinds(events)[:2] == ["OpenersDeclined", "PotAwarded"]
    # Nobody asked: the pot is paid as the cards say, the openers are never shown.
    assert awards(hand) == [(30, ((2, 30),))]
    assert not [e for e in hand.events if isinstance(e, OpenersShown)]
    assert [e.seat for e in hand.events if isinstance(e, OpenersDeclined)] == [2, 3, 4]


def test_nobody_asks_and_a_false_opener_keeps_the_pot() -> None:
    hands = {**FALSE, 2: "Qs 9d 4c 5h 7d"}  # tens now win
    hand = dealt(ON_REQUEST, hands, 4)
    play(hand, SHOWDOWN + ", 2 decline, 3 decline, 4 decline")
    assert awards(hand) == [(30, ((1, 30),))]
    assert hand.result.net[1] == 20
    assert not [e for e in hand.events if isinstance(e, OpenersShown)]


def test_asked_false_opener_pays_the_pot_and_forfeits() -> None:
    hands = {**FALSE, 2: "Qs 9d 4c 5h 7d"}  # tens win on the cards
    hand = dealt(ON_REQUEST, hands, 4)
    play(hand, SHOWDOWN + ", 2 decline")
    pot = hand.pot_total
    assert pot == 30  # invito 10, the open and the call
    events = hand.act(Action.ask_openers(3))
    assert kinds(events) == [
        "OpenersRequested",
        "OpenersShown",
        "PenaltyPaid",
        "PotCarried",
        "PotAwarded",
        "HandEnded",
    ]
    requested, shown, penalty, carried, award = events[:5]
    assert isinstance(requested, OpenersRequested)
    assert (requested.seat, requested.opener) == (3, 1)
    assert isinstance(shown, OpenersShown)
    assert (shown.seat, format_cards(shown.cards), shown.valid) == (1, "Ts Td 8c 9h Kd", False)
    assert isinstance(penalty, PenaltyPaid)
    assert (penalty.seat, penalty.amount, penalty.due) == (
        1,
        30,
        30,
    )
    assert isinstance(carried, PotCarried)
    assert carried.amount == 30
    assert isinstance(award, PotAwarded)
    assert award.shares == ((2, 30),)
    result = hand.result
    assert result.carried_pot == 30
    assert result.net == {1: -40, 2: 20, 3: 0, 4: -10}


def test_asked_true_opener_shows_and_nothing_else_changes() -> None:
    hand = dealt(ON_REQUEST, TRUE, 4)
    play(hand, SHOWDOWN)
    events = hand.act(Action.ask_openers(2))
    assert kinds(events)[:3] == ["OpenersRequested", "OpenersShown", "PotAwarded"]
    assert isinstance(events[1], OpenersShown)
    assert events[1].valid
    assert awards(hand) == [(30, ((2, 30),))]  # queens beat jacks
    assert hand.result.carried_pot == 0


def test_a_false_opener_who_won_uncontested_leaves_the_pot() -> None:
    hand = dealt(ON_REQUEST, FALSE, 4)
    play(hand, "1 b 10, 2 f, 3 f, 4 f")
    assert hand.street == Street.OPENERS
    assert legal_of(hand).penalty == 10  # the pot: the invito (the open came back)
    hand.act(Action.ask_openers(2))
    assert not awards(hand)
    assert [e.amount for e in hand.events if isinstance(e, PotCarried)] == [10, 10]
    assert hand.result.carried_pot == 20
    assert hand.result.net == {1: -10, 2: 0, 3: 0, 4: -10}


def test_fixed_penalty_capped_by_the_openers_stack() -> None:
    rules = ON_REQUEST.replace(false_opener_penalty=500)
    hand = dealt(rules, FALSE, 4)  # stacks of 500
    play(hand, SHOWDOWN)
    assert legal_of(hand).penalty == 490  # 500 due, 490 behind
    events = hand.act(Action.ask_openers(2))
    (paid,) = [e for e in events if isinstance(e, PenaltyPaid)]
    assert (paid.amount, paid.due) == (490, 500)
    assert hand.result.stacks[1] == 0


def test_a_folded_opener_still_pays_but_the_pot_goes_by_the_cards() -> None:
    hand = dealt(ON_REQUEST, FALSE, 4)
    play(hand, "1 b 10, 2 r 40, 3 f, 4 f, 1 f")
    legal = legal_of(hand)
    assert (legal.seat, legal.opener) == (2, 1)
    hand.act(Action.ask_openers(2))
    assert awards(hand) == [(30, ((2, 30),))]
    assert hand.result.carried_pot == 30
    assert hand.result.net[1] == -40


def test_a_timeout_declines() -> None:
    hand = dealt(ON_REQUEST, FALSE, 4)
    play(hand, SHOWDOWN)
    events = hand.act(Action.timeout(2))
    assert kinds(events) == ["TimedOut", "OpenersDeclined"]
    assert isinstance(events[0], TimedOut)
    assert events[0].street == Street.OPENERS
    assert not events[0].penalized


def test_only_the_request_is_legal_in_the_phase() -> None:
    hand = dealt(ON_REQUEST, FALSE, 4)
    with pytest.raises(IllegalAction, match=r"nobody may ask for the openers now"):
        hand.act(Action.ask_openers(1))
    play(hand, SHOWDOWN)
    with pytest.raises(IllegalAction, match=r"seat 2 \(openers\): the hand is over; may ask"):
        hand.act(Action.check(2))
    with pytest.raises(IllegalAction, match=r"not your turn, seat 2 is to act"):
        hand.act(Action.ask_openers(3))
    with pytest.raises(IllegalAction, match=r"not your turn"):
        hand.act(Action.decline(1))  # the opener is never asked
    assert Action(2, "ask-openers") == Action.ask_openers(2)
    with pytest.raises(InvalidAction):
        Action(2, "ask-openers", 5)


def test_reveal_winners_shows_a_mucked_hand_that_wins_by_the_forfeit() -> None:
    rules = ON_REQUEST.replace(reveal="winners")
    hands = {**FALSE, 2: "Qs 9d 4c 5h 7d"}  # tens win on the cards, queen high mucks
    hand = dealt(rules, hands, 4)
    play(hand, SHOWDOWN)
    assert [e.seat for e in hand.events if isinstance(e, HandShown)] == [1]
    hand.act(Action.ask_openers(2))
    assert [e.seat for e in hand.events if isinstance(e, HandShown)] == [1, 2]
    assert awards(hand) == [(30, ((2, 30),))]


def test_checked_pot_stays_and_the_penalty_joins_it() -> None:
    rules = ON_REQUEST.replace(checked_pot_stays=True)
    hand = dealt(rules, FALSE, 4)
    play(hand, SHOWDOWN)  # nobody bets after the draw: the pot stays (R43)
    assert hand.street == Street.OPENERS
    hand.act(Action.ask_openers(2))
    assert hand.result.carried_pot == 30 + 30
    assert hand.result.net == {1: -40, 2: -10, 3: 0, 4: -10}


def test_the_view_offers_the_request_to_the_player_only() -> None:
    hand = dealt(ON_REQUEST, FALSE, 4)
    play(hand, SHOWDOWN)
    assert hand.view(2)["legal"]["ask_openers"] is True
    assert hand.view(2)["legal"]["opener"] == 1
    assert hand.view(3)["legal"] is None
    assert hand.view(SERVER)["street"] == "openers"


def test_nobody_opens_means_nobody_asks() -> None:
    hand = dealt(ON_REQUEST, FALSE, 4)
    play(hand, "1 x, 2 x, 3 x, 4 x")
    assert hand.is_over


@pytest.mark.parametrize("penalty", [0, -5, "half", 2.5])
def test_penalty_must_be_pot_or_a_positive_amount(penalty: object) -> None:
    with pytest.raises(InvalidConfig, match="false_opener_penalty"):
        Rules.italian(openers_check="on_request", false_opener_penalty=penalty)


def test_other_presets_keep_working() -> None:
    """server mode (R44) never enters the phase."""
    hand = dealt(Rules.italian(invito=10, max_seats=4, checked_pot_stays=False), TRUE, 4)
    play(hand, SHOWDOWN)
    assert hand.is_over
    assert isinstance(hand, Hand)
