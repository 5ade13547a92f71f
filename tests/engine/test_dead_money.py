"""R34: dead money goes to the pot. Levels are set only at the chips of players who
are all in; a dead small blind and a carried pot count for no level and join the
main pot; an ante or an invito counts in an all-in player's level.

The property tests play random hands under every forced-bet plan (blinds, antes,
a returning player's big blind and dead small blind, a new player's big blind,
every invito rule) and check each pot against a model of R34 built from the
public events alone: no pot is ever eligible to a single player unless every other
player folded or is all in for less.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drawpoker.cards import parse_cards
from drawpoker.deck import Deck
from drawpoker.events import (
    BetPlaced,
    BettingRoundEnded,
    Called,
    Event,
    Folded,
    HandStarted,
    PenaltyPaid,
    Posted,
    PostKind,
    PotAwarded,
    PotCarried,
    Raised,
    UncalledBetReturned,
)
from drawpoker.hand import Hand
from drawpoker.pots import Pot, build_pots
from drawpoker.rules import Rules

from .helpers import NL, dealt, play, random_action

ITALIAN = Rules.italian(invito=10, max_seats=4, checked_pot_stays=False)


def deck_for(max_seats: int, hands: dict[int, str], button: int) -> Deck:
    """A stacked deck that deals ``hands`` (seat -> five cards) from left of ``button``."""
    order = sorted(hands, key=lambda seat: (seat - button - 1) % max_seats)
    parsed = {seat: parse_cards(cards) for seat, cards in hands.items()}
    return Deck.stacked([parsed[seat][k] for k in range(5) for seat in order])


def awards(hand: Hand) -> list[tuple[int, tuple[tuple[int, int], ...], tuple[int, ...]]]:
    return [(e.amount, e.shares, e.eligible) for e in hand.events if isinstance(e, PotAwarded)]


# ---------------------------------------------------------------- build_pots


def test_nobody_all_in_makes_one_pot_whatever_the_dead_chips() -> None:
    # The dealer's invito of 10 over three calls of 40: one pot for all four.
    assert build_pots([50, 40, 40, 40], [True] * 4, [False] * 4) == [Pot(170, (0, 1, 2, 3))]


def test_levels_only_at_all_in_players() -> None:
    # Player 0 all in for 30 (10 invito + 20 wager); the others matched and bet on.
    pots = build_pots([30, 60, 60], [True] * 3, [True, False, False])
    assert pots == [Pot(90, (0, 1, 2)), Pot(60, (1, 2))]
    assert sum(p.amount for p in pots) == 150


def test_dead_chips_go_to_the_main_pot() -> None:
    pots = build_pots([100, 250, 250], [True] * 3, [True, True, False], extra=3)
    assert pots == [Pot(303, (0, 1, 2)), Pot(300, (1, 2))]


def test_a_folded_players_chips_above_every_level_join_the_last_pot() -> None:
    pots = build_pots([5, 5, 10], [True, True, False], [True, True, False])
    assert pots == [Pot(20, (0, 1))]


def test_all_in_on_dead_chips_alone_can_win_only_the_dead_chips() -> None:
    pots = build_pots([0, 2, 2], [True] * 3, [True, False, False], extra=1)
    assert pots == [Pot(1, (0, 1, 2)), Pot(4, (1, 2))]


@st.composite
def pot_inputs(draw: st.DrawFn) -> tuple[list[int], list[bool], list[bool], int]:
    """Chips as betting leaves them: the players neither folded nor all in matched
    the same wagers and differ only by dead chips."""
    n = draw(st.integers(2, 8))
    wager = draw(st.integers(0, 500))
    committed, live, all_in = [], [], []
    for _ in range(n):
        state = draw(st.sampled_from(["able", "all-in", "folded"]))
        posted = draw(st.integers(0, 20))
        if state == "all-in":  # an all-in player put in at least a chip
            committed.append(max(1, posted + draw(st.integers(0, wager))))
        elif state == "folded":
            committed.append(posted + draw(st.integers(0, wager)))
        else:
            committed.append(posted + wager)
        live.append(state != "folded")
        all_in.append(state == "all-in")
    if not any(live):
        live[0] = True
    return committed, live, all_in, draw(st.integers(0, 50))


@settings(max_examples=400, deadline=None)
@given(pot_inputs())
def test_build_pots_properties(data: tuple[list[int], list[bool], list[bool], int]) -> None:
    committed, live, all_in, extra = data
    pots = build_pots(committed, live, all_in, extra)
    assert sum(p.amount for p in pots) == sum(committed) + extra
    assert all(p.eligible for p in pots)
    assert all(live[i] for p in pots for i in p.eligible)
    able = [i for i in range(len(live)) if live[i] and not all_in[i]]
    for pot in pots:
        assert set(able) <= set(pot.eligible)  # a player not all in may win every pot
    for k, pot in enumerate(pots):
        if len(pot.eligible) == 1:
            (winner,) = pot.eligible
            for i in range(len(live)):
                if i != winner and live[i]:
                    assert all_in[i], (k, pots)
                    assert committed[i] < max(committed), (k, pots)
    # Eligibility shrinks from the main pot on.
    for a, b in itertools.pairwise(pots):
        assert set(b.eligible) < set(a.eligible)


# --------------------------------------------------------------- in the hand


def test_italian_dealer_who_loses_the_showdown_gets_nothing_back() -> None:
    """The report: dealer seat 4 posts 10, seat 1 opens, everyone calls, the dealer
    loses. The invito was paid into the pot and the best hand wins all of it."""
    hands = {1: "Qs Qd 4c 5h 7d", 2: "2s 3d 8d 9s Jd", 3: "2c 3c 8h 9h Jh", 4: "As Kh 7c 6s 5d"}
    hand = dealt(ITALIAN, hands, 4)
    play(hand, "1 b 10, 2 c, 3 c, 4 c, 1 p, 2 p, 3 p, 4 p, 1 x, 2 x, 3 x, 4 x")
    assert awards(hand) == [(50, ((1, 50),), (1, 2, 3, 4))]
    assert hand.result.net == {1: 40, 2: -10, 3: -10, 4: -20}


@pytest.mark.parametrize("others", ["none", "half", "one_less"])
def test_every_invito_rule_leaves_one_pot_when_nobody_is_all_in(others: str) -> None:
    rules = ITALIAN.replace(invito_others=others)
    hands = {1: "Qs Qd 4c 5h 7d", 2: "2s 3d 8d 9s Jd", 3: "2c 3c 8h 9h Jh", 4: "As Kh 7c 6s 5d"}
    hand = dealt(rules, hands, 4)
    play(hand, "1 b 10, 2 c, 3 f, 4 c, 1 p, 2 p, 4 p, 1 b 20, 2 c, 4 c")
    ((amount, shares, eligible),) = awards(hand)
    assert shares == ((1, amount),)
    assert eligible == (1, 2, 4)
    assert hand.result.net[4] == -(rules.invito + 30)


def test_all_in_dealer_wins_only_up_to_their_level() -> None:
    """An ante or invito counts in an all-in player's level (R34)."""
    hands = {1: "Qs Qd 4c 5h 7d", 2: "2s 3d 8d 9s Jd", 3: "2c 3c 8h 9h Jh", 4: "As Ah 7c 6s 5d"}
    hand = Hand(ITALIAN, {1: 500, 2: 500, 3: 500, 4: 30}, 4, deck=deck_for(4, hands, 4))
    # Dealer 4: invito 10, then all in for 20 more: a level of 30.
    play(hand, "1 b 10, 2 c, 3 f, 4 r 20, 1 c, 2 c, 1 p, 2 p, 4 p, 1 b 40, 2 c")
    assert awards(hand) == [
        (90, ((4, 90),), (1, 2, 4)),  # 30 from each: the dealer's level is 30
        (60, ((1, 60),), (1, 2)),
    ]


# Blinds 1/2 with seat 5 back after missing them (R9): big blind live, small dead.
RETURNING = [
    (2, PostKind.SMALL_BLIND, 1),
    (3, PostKind.BIG_BLIND, 2),
    (5, PostKind.BIG_BLIND, 2),
    (5, PostKind.DEAD_SMALL_BLIND, 1),
]


def test_returning_players_dead_small_blind_goes_to_the_main_pot() -> None:
    """R9: big blind live, small blind dead. The returning player loses the showdown
    and their dead blind goes to the winner, not back to them."""
    hands = {1: "2s 3d 8d 9s Jd", 2: "2c 3c 8h 9h Jh", 3: "Qs Qd 4c 5h 7d", 5: "4s 4h 7c 6s 5d"}
    deck = deck_for(8, hands, 1)
    hand = Hand(NL, {1: 100, 2: 100, 3: 100, 5: 100}, 1, deck=deck, posts=RETURNING)
    play(hand, "5 x, 1 f, 2 f, 3 x, 3 p, 5 p, 3 x, 5 x")
    assert awards(hand) == [(6, ((3, 6),), (3, 5))]
    assert hand.result.net == {1: 0, 2: -1, 3: 4, 5: -3}


def test_dead_small_blind_of_an_all_in_player_counts_for_no_level() -> None:
    """Seat 5 returns with 10 chips: big blind 2, dead small blind 1, all in for 7
    more. Its level is 9 (its wagers); its dead chip joins the main pot."""
    hands = {1: "2s 3d 8d 9s Jd", 2: "2c 3c 8h 9h Jh", 3: "Qs Qd 4c 5h 7d", 5: "As Ah 7c 6s 5d"}
    deck = deck_for(8, hands, 1)
    hand = Hand(NL, {1: 100, 2: 100, 3: 100, 5: 10}, 1, deck=deck, posts=RETURNING)
    play(hand, "5 r 9, 1 f, 2 f, 3 c, 3 p, 5 p")
    assert awards(hand) == [(1 + 1 + 9 + 9, ((5, 20),), (3, 5))]
    assert hand.result.net == {1: 0, 2: -1, 3: -9, 5: 10}


# ------------------------------------------------------------ the property


@dataclass
class _Model:
    """R34 from the public events alone: each seat's chips toward a level, its dead
    chips, its stack, folded or all in."""

    stack: dict[int, int]
    level: dict[int, int] = field(default_factory=dict)
    dead: int = 0
    wager: dict[int, int] = field(default_factory=dict)
    folded: set[int] = field(default_factory=set)

    def put(self, seat: int, chips: int) -> None:
        self.stack[seat] -= chips
        self.wager[seat] = self.wager.get(seat, 0) + chips

    def apply(self, e: Event) -> None:
        if isinstance(e, Posted):
            self.stack[e.seat] -= e.amount
            if e.kind is PostKind.DEAD_SMALL_BLIND:
                self.dead += e.amount
            elif e.kind in (PostKind.SMALL_BLIND, PostKind.BIG_BLIND):
                self.wager[e.seat] = self.wager.get(e.seat, 0) + e.amount
            else:
                self.level[e.seat] = self.level.get(e.seat, 0) + e.amount
        elif isinstance(e, Called):
            self.put(e.seat, e.amount)
        elif isinstance(e, (BetPlaced, Raised)):
            to = e.amount if isinstance(e, BetPlaced) else e.to
            self.put(e.seat, to - self.wager.get(e.seat, 0))
        elif isinstance(e, UncalledBetReturned):
            self.put(e.seat, -e.amount)
        elif isinstance(e, BettingRoundEnded):
            for seat, chips in self.wager.items():
                self.level[seat] = self.level.get(seat, 0) + chips
            self.wager = {}
        elif isinstance(e, Folded):
            self.folded.add(e.seat)


def check_pots(hand: Hand) -> None:
    started = hand.events[0]
    assert isinstance(started, HandStarted)
    model = _Model(stack=dict(started.stacks))
    for e in hand.events:
        model.apply(e)
        if isinstance(e, (PotAwarded, PotCarried, PenaltyPaid)):
            break
    seats = [p.seat for p in hand.players]
    live = [s for s in seats if s not in model.folded]
    all_in = {s for s in live if model.stack[s] == 0}
    for pot in [e for e in hand.events if isinstance(e, PotAwarded)]:
        for s in pot.eligible:
            assert s in live
        if len(pot.eligible) == 1 and len(live) > 1:
            # Only chips above the level of every other live player, all in for less.
            (winner,) = pot.eligible
            top = max(model.level.values())
            for s in live:
                if s != winner:
                    assert s in all_in, f"pot {pot} eligible to {winner} alone, {s} not all in"
                    assert model.level.get(s, 0) < top, pot
        for s in live:
            if s not in all_in:
                assert s in pot.eligible, f"seat {s} matched every bet but may not win {pot}"


@st.composite
def forced_bet_plans(draw: st.DrawFn) -> tuple[Rules, dict[int, int], int, list | None]:
    """Every forced-bet plan: blinds with or without antes, a returning player's big
    blind and dead small blind, a new player's big blind, and every invito rule."""
    max_seats = draw(st.integers(2, 8))
    seats = sorted(
        draw(st.lists(st.integers(1, max_seats), min_size=2, max_size=max_seats, unique=True))
    )
    stacks = {seat: draw(st.integers(1, 120)) for seat in seats}
    button = draw(st.sampled_from(seats))
    if draw(st.booleans()):
        rules = Rules.italian(
            max_seats=max_seats,
            invito=draw(st.integers(1, 20)),
            invito_others=draw(st.sampled_from(["none", "half", "one_less", "same"])),
            openers_check=draw(st.sampled_from(["server", "showdown", "on_request"])),
            checked_pot_stays=draw(st.booleans()),
            reveal=draw(st.sampled_from(["all", "winners"])),
        )
        return rules, stacks, button, None
    big = draw(st.integers(2, 10))
    small = draw(st.integers(1, big))
    rules = Rules.online(
        structure=draw(st.sampled_from(["no-limit", "pot-limit", "fixed-limit"])),
        max_seats=max_seats,
        small_blind=small,
        big_blind=big,
        antes=draw(st.sampled_from([0, 0, 1, 3])),
        reveal=draw(st.sampled_from(["all", "winners"])),
    )
    if len(seats) < 3 or draw(st.booleans()):
        return rules, stacks, button, None  # the engine's own blinds
    order = [s for s in seats if s > button] + [s for s in seats if s <= button]
    posts: list = [(order[0], PostKind.SMALL_BLIND, small), (order[1], PostKind.BIG_BLIND, big)]
    for seat in order[2:]:
        plan = draw(st.sampled_from(["none", "none", "returning", "new"]))
        if plan == "returning":
            posts += [(seat, PostKind.BIG_BLIND, big), (seat, PostKind.DEAD_SMALL_BLIND, small)]
        elif plan == "new":
            posts.append((seat, PostKind.BIG_BLIND, big))
    return rules, stacks, button, posts


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(forced_bet_plans(), st.integers(0, 2**32))
def test_no_pot_is_won_alone_by_dead_money(plan: tuple, seed: int) -> None:
    rules, stacks, button, posts = plan
    rng = random.Random(seed)
    carried = rng.choice([0, 0, 25]) if rules.is_italian else 0
    hand = Hand(rules, stacks, button, seed=rng.randbytes(32), posts=posts, carried_pot=carried)
    for _ in range(300):
        legal = hand.legal_actions()
        if legal is None:
            break
        hand.act(random_action(legal, rng, timeout_rate=0.02))
        hand.check_invariants()
    assert hand.is_over
    check_pots(hand)
    result = hand.result
    assert (
        sum(result.stacks.values()) + result.rake + result.carried_pot
        == sum(stacks.values()) + carried
    )


def test_a_pot_alone_is_only_for_chips_an_all_in_player_did_not_match() -> None:
    """Seat 1 opens all in for 10; the dealer (invito 10) calls: it put in 20, and
    the 10 that seat 1 did not match is the dealer's alone."""
    hands = {1: "Qs Qd 4c 5h 7d", 2: "2s 3d 8d 9s Jd", 3: "2c 3c 8h 9h Jh", 4: "As Kh 7c 6s 5d"}
    hand = Hand(ITALIAN, {1: 10, 2: 500, 3: 500, 4: 500}, 4, deck=deck_for(4, hands, 4))
    play(hand, "1 b 10, 2 f, 3 f, 4 c, 1 p, 4 p")
    assert awards(hand) == [(20, ((1, 20),), (1, 4)), (10, ((4, 10),), (4,))]
    check_pots(hand)
