"""One test (at least) per numbered rule of RULES.md that the engine decides.

R6 (3 to 2 players), R7 (moving the button), R9 (new and returning players),
R14 (marks) and R25 (pre-actions) are decided between hands or by the server:
their tests live with the room and the server. The worked examples are in
``test_worked_examples.py``.
"""

from __future__ import annotations

import pytest

from drawpoker.actions import Action
from drawpoker.cards import format_cards, parse_cards
from drawpoker.errors import IllegalAction, InvalidConfig
from drawpoker.events import (
    CardBurned,
    CardsDelivered,
    Checked,
    Discarded,
    Folded,
    HandShown,
    Mucked,
    OpenersShown,
    Posted,
    PostKind,
    PotAwarded,
    PotCarried,
    RakeTaken,
    Reshuffled,
    TimedOut,
    UncalledBetReturned,
)
from drawpoker.hand import Hand
from drawpoker.rules import Rules

from .helpers import FL, NL, PL, dealt, kinds, legal_of, play, six

ITALIAN = Rules.italian(invito=10, max_seats=4)


def finish_draw(hand: Hand) -> None:
    while hand.street == "draw":
        hand.act(Action.stand_pat(hand.to_act or 0))


# ---------------------------------------------------------------- deal


def test_r01_52_cards_and_optional_burn() -> None:
    hand = six(NL)
    assert len(hand.deck) == 52 - 30
    play(hand, "4 c, 5 c, 6 c, 1 c, 2 c, 3 x")
    assert CardBurned not in map(type, hand.events)
    burning = six(NL.replace(burn_cards=True))
    events = play(burning, "4 c, 5 c, 6 c, 1 c, 2 c, 3 x")
    assert isinstance(events[-1], CardBurned)
    assert len(burning.deck) == 21


def test_r02_two_to_max_seats_players_with_chips() -> None:
    assert Rules.online().max_seats == 6
    with pytest.raises(InvalidConfig, match="needs 2 to 6 players, got 1"):
        Hand(Rules.online(), {1: 100}, 1, seed=bytes(32))
    with pytest.raises(InvalidConfig, match="needs 2 to 6 players, got 7"):
        Hand(Rules.online(), dict.fromkeys(range(1, 8), 100), 1, seed=bytes(32))
    with pytest.raises(InvalidConfig, match="seat 2 needs a stack of at least 1 chip"):
        Hand(Rules.online(), {1: 100, 2: 0}, 1, seed=bytes(32))
    with pytest.raises(InvalidConfig, match="seat 7 is not a seat 1-6"):
        Hand(Rules.online(), {1: 100, 7: 100}, 1, seed=bytes(32))


def test_r03_one_card_at_a_time_from_left_of_the_button() -> None:
    order = "As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s Ah Kh"
    hand = Hand(NL, {2: 100, 5: 100, 7: 100}, 5, deck=_deck(order))
    # Left of button 5: seat 7, then 2, then 5.
    assert format_cards(hand.cards(7)) == "As Js 8s 5s 2s"
    assert format_cards(hand.cards(2)) == "Ks Ts 7s 4s Ah"
    assert format_cards(hand.cards(5)) == "Qs 9s 6s 3s Kh"
    heads_up = Hand(NL, {1: 100, 2: 100}, 1, deck=_deck(order))
    assert heads_up.cards(2)[0] == parse_cards("As")[0]  # the big blind gets the first card


def _deck(order: str):  # type: ignore[no-untyped-def]
    from drawpoker.deck import Deck

    return Deck.stacked(order)


def test_r04_same_seed_same_deal_and_reshuffles() -> None:
    script = "4 c, 5 c, 6 c, 1 c, 2 c, 3 x"

    def run() -> list[object]:
        hand = six(FL, seed=b"s" * 32)
        play(hand, script)
        for seat in (2, 3, 4, 5, 6, 1):
            hand.act(Action.draw(seat, hand.cards(seat)))
        return list(hand.events)

    first, second = run(), run()
    assert first == second
    assert any(isinstance(e, Reshuffled) for e in first)


# ---------------------------------------------------------------- blinds


def test_r05_blinds_left_of_the_button_and_live() -> None:
    hand = six(NL)
    posts = [(e.seat, e.kind, e.amount) for e in hand.events if isinstance(e, Posted)]
    assert posts == [(2, PostKind.SMALL_BLIND, 1), (3, PostKind.BIG_BLIND, 2)]
    play(hand, "4 f, 5 f, 6 f, 1 f")
    assert legal_of(hand).call == 1  # the small blind counts toward the call


def test_r06_heads_up_button_posts_small_blind() -> None:
    hand = Hand(NL, {3: 100, 6: 100}, 6, seed=bytes(32))
    posts = {e.seat: e.kind for e in hand.events if isinstance(e, Posted)}
    assert posts == {6: PostKind.SMALL_BLIND, 3: PostKind.BIG_BLIND}
    assert hand.to_act == 6
    play(hand, "6 c, 3 x, 3 p, 6 p")
    assert hand.to_act == 3  # the button acts last after the draw


def test_r07_button_on_an_empty_seat() -> None:
    hand = Hand(NL, {1: 100, 3: 100, 4: 100}, 2, seed=bytes(32))
    posts = [(e.seat, e.kind) for e in hand.events if isinstance(e, Posted)]
    assert posts == [(3, PostKind.SMALL_BLIND), (4, PostKind.BIG_BLIND)]
    assert hand.to_act == 1
    room_posts = [(4, PostKind.BIG_BLIND, 2)]  # the room skips the small blind
    hand = Hand(NL, {1: 100, 3: 100, 4: 100}, 2, seed=bytes(32), posts=room_posts)
    assert [e.seat for e in hand.events if isinstance(e, Posted)] == [4]
    assert hand.to_act == 1


def test_r08_small_blind_all_in_for_less() -> None:
    hand = six(NL, {1: 100, 2: 1, 3: 100, 4: 100, 5: 100, 6: 100})
    posted = [e for e in hand.events if isinstance(e, Posted)]
    assert (posted[0].amount, posted[0].all_in) == (1, True)
    events = play(hand, "4 f, 5 f, 6 f, 1 f")
    assert hand.street == "draw"  # the all-in small blind is in; the big blind need not act
    assert [(e.seat, e.amount) for e in events if isinstance(e, UncalledBetReturned)] == [(3, 1)]
    big_blind_short = six(NL, {1: 100, 2: 100, 3: 1, 4: 100, 5: 100, 6: 100})
    assert legal_of(big_blind_short).call == 2  # the full big blind is the call
    assert legal_of(big_blind_short).min_to == 4  # and the minimum bet


def test_r09_antes_dead_and_off_by_default() -> None:
    assert Rules.online().antes == 0
    hand = six(NL.replace(antes=1))
    antes = [e.seat for e in hand.events if isinstance(e, Posted) and e.kind == PostKind.ANTE]
    assert antes == [2, 3, 4, 5, 6, 1]
    assert hand.pot_total == 6 + 3
    assert legal_of(hand).call == 2  # antes are dead: the call is still the big blind
    missed = [
        (3, PostKind.BIG_BLIND, 2),
        (5, PostKind.BIG_BLIND, 2),
        (5, PostKind.DEAD_SMALL_BLIND, 1),
    ]
    returning = six(NL, posts=missed)
    assert returning.pot_total == 5
    assert legal_of(returning).seat == 4
    play(returning, "4 c")
    assert legal_of(returning).call == 0  # seat 5's big blind is live, its small blind dead


# ---------------------------------------------------------------- first round


def test_r10_first_to_act() -> None:
    assert six(NL).to_act == 4
    assert Hand(NL, {1: 100, 2: 100}, 1, seed=bytes(32)).to_act == 1
    antes_only = Rules.online(
        structure="fixed-limit", small_blind=0, big_blind=0, antes=1, small_bet=2
    )
    assert six(antes_only).to_act == 2  # without blinds: left of the button
    italian = Hand(ITALIAN, dict.fromkeys((1, 2, 3, 4), 100), 3, seed=bytes(32))
    assert italian.to_act == 4


def test_r11_big_blind_option() -> None:
    hand = six(NL)
    play(hand, "4 c, 5 c, 6 c, 1 c, 2 c")
    legal = legal_of(hand)
    assert (legal.seat, legal.check, legal.min_to) == (3, True, 4)
    play(hand, "3 r 6")
    assert hand.street == "pre-draw"
    assert hand.to_act == 4


def test_r12_everyone_acts_after_a_full_raise() -> None:
    hand = six(NL)
    play(hand, "4 c, 5 c, 6 r 10, 1 c, 2 c, 3 c")
    assert hand.to_act == 4  # seat 4 and 5 have not matched the raise
    play(hand, "4 c, 5 c")
    assert hand.street == "draw"


def test_r13_everyone_folds_before_the_draw() -> None:
    hand = six(NL.replace(rake_percent=10))
    events = play(hand, "4 r 6, 5 f, 6 f, 1 f, 2 f, 3 f")
    assert not hand.result.reached_draw
    assert hand.result.rake == 0
    assert not [e for e in events if isinstance(e, (HandShown, Mucked, RakeTaken))]
    assert hand.result.net[4] == 3


# ---------------------------------------------------------------- structures


def test_r15_fixed_limit_sizes_and_heads_up_cap() -> None:
    hand = six(FL)
    assert (legal_of(hand).min_to, legal_of(hand).max_to) == (4, 4)
    play(hand, "4 c, 5 f, 6 f, 1 f, 2 f, 3 x, 3 p, 4 p")
    assert (legal_of(hand).min_to, legal_of(hand).max_to) == (4, 4)  # the big bet
    play(hand, "3 b 4, 4 r 8, 3 r 12, 4 r 16")
    assert legal_of(hand).max_to == 20  # heads-up on a cash table: no cap
    tournament = six(FL.replace(fl_cap_lifted_heads_up=False))
    play(tournament, "4 c, 5 f, 6 f, 1 f, 2 f, 3 x, 3 p, 4 p, 3 b 4, 4 r 8, 3 r 12, 4 r 16")
    assert legal_of(tournament).max_to == 0


def test_r15_capped_round_stays_capped() -> None:
    hand = six(FL)
    play(hand, "4 r 4, 5 r 6, 6 r 8, 1 f, 2 f")
    legal = legal_of(hand)
    assert (legal.seat, legal.max_to) == (3, 0)  # capped with 4 players in
    play(hand, "3 f")
    assert (legal_of(hand).seat, legal_of(hand).max_to) == (4, 0)  # two left, still capped


def test_r16_short_all_in_bet_called_or_completed() -> None:
    hand = six(FL, {1: 100, 2: 100, 3: 3, 4: 100, 5: 100, 6: 100})
    play(hand, "4 c, 5 c, 6 f, 1 f, 2 f, 3 x, 3 p, 4 p, 5 p, 3 b 1")  # all in: a quarter bet
    legal = legal_of(hand)
    assert (legal.call, legal.min_to, legal.max_to, legal.bet_label) == (1, 4, 4, "complete")


def test_r16_less_than_half_a_bet_does_not_reopen() -> None:
    hand = six(FL, {1: 100, 2: 100, 3: 100, 4: 100, 5: 5, 6: 100})
    play(hand, "4 r 4, 5 r 5")  # all in 1 over 4: half of the small bet, a full raise
    assert legal_of(hand).max_to == 7  # the next raise is to 5 + 2
    short = six(FL, {1: 100, 2: 100, 3: 100, 4: 100, 5: 7, 6: 100})
    play(short, "4 c, 5 c, 6 f, 1 f, 2 f, 3 x, 3 p, 4 p, 5 p")
    play(short, "3 b 4, 4 c, 5 r 5")  # all in 1 over 4: under half of the big bet
    for seat in (3, 4):
        legal = legal_of(short)
        assert (legal.seat, legal.call, legal.max_to) == (seat, 1, 0)
        play(short, f"{seat} c")


def test_r17_no_limit_minimums() -> None:
    hand = six(NL)
    assert (legal_of(hand).min_to, legal_of(hand).max_to) == (4, 200)
    play(hand, "4 r 10")
    assert legal_of(hand).min_to == 18
    play(hand, "5 f, 6 f, 1 f, 2 f, 3 c, 3 p, 4 p")
    assert (legal_of(hand).min_to, legal_of(hand).bet_label) == (2, "bet")


def test_r18_pot_limit_bet_is_the_pot() -> None:
    hand = six(PL)
    play(hand, "4 c, 5 f, 6 f, 1 f, 2 f, 3 x, 3 p, 4 p")
    assert (legal_of(hand).min_to, legal_of(hand).max_to) == (2, 5)
    play(hand, "3 b 5")
    assert (legal_of(hand).min_to, legal_of(hand).max_to) == (10, 20)


def test_r19_short_all_ins_adding_up_reopen() -> None:
    stacks = {1: 200, 2: 200, 3: 200, 4: 200, 5: 15, 6: 20}
    hand = six(NL, stacks)
    play(hand, "4 r 10, 5 r 15, 6 r 20, 1 f, 2 f, 3 c")  # 5 + 5: over the full raise of 8
    legal = legal_of(hand)
    assert (legal.seat, legal.call, legal.min_to) == (4, 10, 28)
    one_short = six(NL, {**stacks, 6: 16})
    play(one_short, "4 r 10, 5 r 15, 6 r 16, 1 f, 2 f, 3 c")  # 5 + 1: not a full raise
    legal = legal_of(one_short)
    assert (legal.seat, legal.call, legal.max_to) == (4, 6, 0)


def test_r20_uncalled_chips_return_unraked() -> None:
    hand = six(NL.replace(rake_percent=10, rake_caps=()))
    play(hand, "4 c, 5 f, 6 f, 1 f, 2 f, 3 x, 3 p, 4 p, 3 x, 4 b 50")
    events = play(hand, "3 f")
    assert [(e.seat, e.amount) for e in events if isinstance(e, UncalledBetReturned)] == [(4, 50)]
    assert hand.result.rake == 0  # 10% of the pot of 5, rounded down


# ---------------------------------------------------------------- draw


def test_r21_all_in_players_draw() -> None:
    hand = six(NL, {1: 200, 2: 200, 3: 200, 4: 5, 5: 200, 6: 200})
    play(hand, "4 r 5, 5 f, 6 f, 1 f, 2 f, 3 c")
    assert hand.street == "draw"
    assert hand.to_act == 3
    play(hand, "3 p")
    assert hand.to_act == 4  # the all-in player draws too


def test_r22_heads_up_big_blind_draws_first() -> None:
    hand = Hand(NL, {1: 100, 2: 100}, 1, seed=bytes(32))
    play(hand, "1 c, 2 x")
    assert hand.to_act == 2


def test_r23_deferred_delivery_beyond_max_consecutive_draw() -> None:
    rules = NL.replace(max_consecutive_draw=3, max_discard=5)
    hand = six(rules)
    play(hand, "4 c, 5 f, 6 f, 1 f, 2 f, 3 x")
    events = hand.act(Action.draw(3, hand.cards(3)))
    delivered = [(e.seat, e.count, e.deferred) for e in events if isinstance(e, CardsDelivered)]
    assert delivered == [(3, 3, False)]
    assert len(hand.cards(3)) == 3
    events = hand.act(Action.draw(4, hand.cards(4)[:4]))
    delivered = [(e.seat, e.count, e.deferred) for e in events if isinstance(e, CardsDelivered)]
    assert delivered == [(4, 3, False), (3, 2, True), (4, 1, True)]
    assert len(hand.cards(3)) == len(hand.cards(4)) == 5


def test_r23_max_discard() -> None:
    hand = six(NL.replace(max_discard=3))
    play(hand, "4 c, 5 f, 6 f, 1 f, 2 f, 3 x")
    with pytest.raises(IllegalAction, match=r"seat 3 \(draw\): may discard at most 3 cards, not 4"):
        hand.act(Action.draw(3, hand.cards(3)[:4]))


def test_r24_folded_hands_join_the_reshuffle_only_when_asked() -> None:
    for reshuffle_folded, size in ((False, 22), (True, 27)):
        hand = six(FL.replace(reshuffle_folded=reshuffle_folded))
        play(hand, "4 c, 5 c, 6 f, 1 c, 2 c, 3 x")
        for seat in (2, 3, 4):
            hand.act(Action.draw(seat, hand.cards(seat)))
        hand.act(Action.draw(5, hand.cards(5)[:4]))
        events = hand.act(Action.draw(1, hand.cards(1)[:4]))
        assert [e.size for e in events if isinstance(e, Reshuffled)] == [size]


def test_r24_protect_last_card() -> None:
    hand = six(FL.replace(protect_last_card=True))
    play(hand, "4 c, 5 c, 6 f, 1 c, 2 c, 3 x")
    for seat in (2, 3, 4):
        hand.act(Action.draw(seat, hand.cards(seat)))
    assert len(hand.deck) == 7
    hand.act(Action.draw(5, hand.cards(5)[:3]))
    assert len(hand.deck) == 4
    events = hand.act(Action.draw(1, hand.cards(1)[:4]))  # 4 needed, 3 usable
    assert any(isinstance(e, Reshuffled) for e in events)


def test_r24_several_reshuffles_in_one_hand() -> None:
    rules = Rules.online(structure="fixed-limit", max_seats=8)
    hand = Hand(rules, dict.fromkeys(range(1, 9), 100), 8, seed=bytes(32))
    play(hand, "3 c, 4 c, 5 c, 6 c, 7 c, 8 c, 1 c, 2 x")
    for seat in range(1, 9):
        hand.act(Action.draw(seat, hand.cards(seat)))
    assert hand.reshuffles >= 2
    hand.check_invariants()


def test_r26_draw_timeout_stands_pat_and_penalizes() -> None:
    hand = six(NL)
    play(hand, "4 c, 5 f, 6 f, 1 f, 2 f, 3 x")
    before = hand.cards(3)
    events = hand.act(Action.timeout(3))
    assert kinds(events)[:2] == ["TimedOut", "StoodPat"]
    assert isinstance(events[0], TimedOut)
    assert events[0].penalized
    assert hand.cards(3) == before
    play(hand, "4 p")
    legal = legal_of(hand)
    assert (legal.seat, legal.check, legal.max_to) == (3, True, 0)  # may not bet
    play(hand, "3 x, 4 b 10")
    legal = legal_of(hand)
    assert (legal.call, legal.max_to) == (10, 0)  # nor raise
    free = six(NL.replace(draw_timeout_penalty=False))
    play(free, "4 c, 5 f, 6 f, 1 f, 2 f, 3 x, 3 t, 4 p")
    assert legal_of(free).max_to > 0
    assert Rules.online().draw_time_s == 30


def test_r27_no_exchange_after_the_draw() -> None:
    hand = six(NL)
    play(hand, "4 c, 5 f, 6 f, 1 f, 2 f, 3 x, 3 p, 4 p")
    with pytest.raises(IllegalAction, match=r"seat 3 \(post-draw\): no drawing now"):
        hand.act(Action.draw(3, hand.cards(3)[:1]))


# ---------------------------------------------------------------- second round


def test_r28_first_to_act_after_the_draw_skips_all_in() -> None:
    hand = six(NL, {1: 200, 2: 10, 3: 200, 4: 200, 5: 200, 6: 200})
    play(hand, "4 c, 5 f, 6 f, 1 c, 2 r 10, 3 c, 4 c, 1 c")
    finish_draw(hand)
    assert hand.to_act == 3  # seat 2 is all in


def test_r29_second_round_skipped() -> None:
    hand = six(NL, {1: 200, 2: 200, 3: 10, 4: 200, 5: 200, 6: 200})
    play(hand, "4 r 10, 5 f, 6 f, 1 f, 2 f, 3 c")
    finish_draw(hand)
    assert hand.is_over
    assert hand.result.showdown


def test_r30_fold_after_the_draw_is_raked() -> None:
    hand = six(NL.replace(rake_percent=10, rake_caps=()))
    play(hand, "4 r 20, 5 f, 6 f, 1 f, 2 f, 3 c, 3 p, 4 p, 3 x, 4 b 20, 3 f")
    assert hand.result.rake == 4  # 10% of 41
    assert not hand.result.showdown


# ---------------------------------------------------------------- showdown


HANDS = {1: "As Ad Ac 2h 3d", 2: "Ks Kd 4c 5h 7d", 3: "Qs Qd 8c 9h Jd"}


def test_r31_reveal_all_or_winners() -> None:
    for reveal, shown in (("all", {1, 2, 3}), ("winners", {1})):
        hand = dealt(NL.replace(reveal=reveal), HANDS, 3)
        play(hand, "3 c, 1 c, 2 x, 1 p, 2 p, 3 p, 1 x, 2 x, 3 x")
        assert {e.seat for e in hand.events if isinstance(e, HandShown)} == shown


def test_r31_all_in_shows_every_hand() -> None:
    rules = NL.replace(reveal="winners")
    hand = dealt(rules, HANDS, 3)
    play(hand, "3 r 500, 1 c, 2 c, 1 p, 2 p, 3 p")
    assert {e.seat for e in hand.events if isinstance(e, HandShown)} == {1, 2, 3}


def test_r32_showing_order() -> None:
    hand = dealt(NL, HANDS, 3)
    play(hand, "3 c, 1 c, 2 x, 1 p, 2 p, 3 p, 1 x, 2 b 10, 3 c, 1 c")
    assert [e.seat for e in hand.events if isinstance(e, HandShown)] == [2, 3, 1]
    checked = dealt(NL, HANDS, 3)
    play(checked, "3 c, 1 c, 2 x, 1 p, 2 p, 3 p, 1 x, 2 x, 3 x")
    assert [e.seat for e in checked.events if isinstance(e, HandShown)] == [1, 2, 3]


def test_r33_cards_speak() -> None:
    hand = dealt(NL, HANDS, 3)
    play(hand, "3 c, 1 c, 2 x, 1 p, 2 p, 3 p, 1 x, 2 x, 3 x")
    awards = [e for e in hand.events if isinstance(e, PotAwarded)]
    assert [e.shares for e in awards] == [((1, 6),)]
    shown = {e.seat: e.description for e in hand.events if isinstance(e, HandShown)}
    assert shown == {
        1: "three of a kind, Aces",
        2: "a pair of Kings",
        3: "a pair of Queens",
    }


def test_r34_folded_chips_stay_but_win_nothing() -> None:
    hand = six(NL, {1: 200, 2: 200, 3: 200, 4: 30, 5: 200, 6: 200})
    play(hand, "4 r 30, 5 r 80, 6 f, 1 f, 2 f, 3 c, 3 p, 4 p, 5 p, 3 b 50, 5 f")
    pots = [(e.amount, e.eligible) for e in hand.events if isinstance(e, PotAwarded)]
    assert pots == [(1 + 30 * 3, (3, 4)), (50 * 2, (3,))]  # seat 5's chips, no claim


def test_r35_odd_chips_clockwise_from_left_of_the_button() -> None:
    from drawpoker.pots import split

    assert split(11, [4, 6, 1]) == [(4, 4), (6, 4), (1, 3)]


def test_r36_rake_caps_by_players_dealt() -> None:
    rules = NL.replace(rake_percent=10, rake_caps=((2, 1), (3, 2), (5, 3)))
    assert [rules.rake_cap(n) for n in (2, 3, 4, 5, 8)] == [1, 2, 2, 3, 3]
    hand = six(rules)
    play(hand, "4 r 100, 5 c, 6 f, 1 f, 2 f, 3 f, 4 p, 5 p, 4 x, 5 x")
    assert hand.result.rake == 3
    tournament = six(NL)
    play(tournament, "4 r 100, 5 c, 6 f, 1 f, 2 f, 3 f, 4 p, 5 p, 4 x, 5 x")
    assert tournament.result.rake == 0


def test_r36_rake_taken_from_each_pot_in_proportion() -> None:
    from drawpoker.pots import Pot, rake_pots

    assert rake_pots([Pot(400, (0,)), Pot(450, (0,)), Pot(300, (0,))], 57) == [21, 22, 14]


# ---------------------------------------------------------------- italian


def test_r37_invito_posts() -> None:
    for others, pot in (("none", 10), ("half", 10 + 3 * 5), ("one_less", 10 + 3 * 9), ("same", 40)):
        rules = Rules.italian(invito=10, invito_others=others, max_seats=4)
        hand = Hand(rules, dict.fromkeys((1, 2, 3, 4), 100), 2, seed=bytes(32))
        posts = [e for e in hand.events if isinstance(e, Posted)]
        assert posts[0].seat == 2  # the dealer posts the invito
        assert all(e.kind == PostKind.INVITO for e in posts)
        assert hand.pot_total == pot


def test_r38_openers_and_everyone_may_then_raise() -> None:
    hands = {1: "Js Jd 4c 5h 7d", 2: "Ts Td 8c 9h Kd", 3: "2s 3d 8d 9s Qd", 4: "As Kh 7c 6s 5d"}
    hand = dealt(ITALIAN, hands, 4)
    assert legal_of(hand).bet_label == "open"
    assert not legal_of(hand).fold  # nobody has opened: pass or open
    play(hand, "1 x")
    assert legal_of(hand).max_to == 0  # tens are not openers
    play(hand, "2 x, 3 x, 4 x")
    assert hand.result.carried_pot == 10
    hand = dealt(ITALIAN, hands, 3)  # dealer 3: seat 4 speaks first
    play(hand, "4 x, 1 b 10, 2 c, 3 f")
    legal = legal_of(hand)
    assert (legal.seat, legal.call, legal.min_to) == (4, 10, 20)  # who passed may raise
    play(hand, "4 r 20")
    assert hand.to_act == 1


def test_r41_everyone_folds_to_the_opener() -> None:
    hands = {1: "Js Jd 4c 5h 7d", 2: "Ts Td 8c 9h Kd", 3: "2s 3d 8d 9s Qd", 4: "As Kh 7c 6s 5d"}
    hand = dealt(ITALIAN, hands, 4)
    play(hand, "1 b 10, 2 f, 3 f, 4 f")
    assert hand.is_over
    assert not hand.result.reached_draw
    assert hand.result.net[1] == 10


def test_r42_italian_draws_three_at_once() -> None:
    assert Rules.italian().max_consecutive_draw == 3
    hands = {1: "Js Jd 4c 5h 7d", 2: "Ts Td 8c 9h Kd", 3: "2s 3d 8d 9s Qd", 4: "As Kh 7c 6s 5d"}
    hand = dealt(ITALIAN, hands, 4)
    play(hand, "1 b 10, 2 c, 3 f, 4 f")
    events = play(hand, "1 d 4c5h7d, 2 d Ts Td 8c 9h Kd")
    delivered = [(e.seat, e.count, e.deferred) for e in events if isinstance(e, CardsDelivered)]
    assert delivered == [(1, 3, False), (2, 3, False), (2, 2, True)]


def test_r43_opener_first_and_checked_pot_stays() -> None:
    hands = {1: "Ts Td 8c 9h Kd", 2: "Js Jd 4c 5h 7d", 3: "2s 3d 8d 9s Qd", 4: "As Kh 7c 6s 5d"}
    hand = dealt(ITALIAN, hands, 4)
    play(hand, "1 x, 2 b 10, 3 f, 4 f, 1 c, 1 p, 2 p")
    assert hand.to_act == 2  # the opener speaks first after the draw
    events = play(hand, "2 x, 1 x")
    carried = [e for e in events if isinstance(e, PotCarried)]
    assert [e.amount for e in carried] == [30]
    assert hand.result.carried_pot == 30
    paying = dealt(ITALIAN.replace(checked_pot_stays=False), hands, 4)
    play(paying, "1 x, 2 b 10, 3 f, 4 f, 1 c, 1 p, 2 p, 2 x, 1 x")
    assert paying.result.showdown
    assert paying.result.carried_pot == 0


def test_r44_server_offers_the_open_only_with_openers() -> None:
    hands = {1: "Ts Td 8c 9h Kd", 2: "Js Jd 4c 5h 7d", 3: "2s 3d 8d 9s Qd", 4: "As Kh 7c 6s 5d"}
    hand = dealt(ITALIAN, hands, 4)
    with pytest.raises(IllegalAction, match=r"seat 1 \(pre-draw\): may not bet or raise now"):
        hand.act(Action.bet(1, 10))


def test_r44_false_opener_cannot_win_at_showdown() -> None:
    rules = ITALIAN.replace(openers_check="showdown", checked_pot_stays=False)
    hands = {1: "Ts Td 8c 9h Kd", 2: "Qs Qd 4c 5h 7d", 3: "2s 3d 8d 9s Jd", 4: "As Kh 7c 6s 5d"}
    hand = dealt(rules, hands, 4)
    play(hand, "1 b 10, 2 c, 3 f, 4 f, 1 p, 2 p, 1 x, 2 x")
    proof = [e for e in hand.events if isinstance(e, OpenersShown)]
    assert [(e.seat, e.valid) for e in proof] == [(1, False)]
    assert hand.result.net[2] == 20  # the best other hand takes the pot
    # Tens beat sixes, but the false opener still cannot win.
    hands[2] = "6h 6c 4c 5h 7d"
    hand = dealt(rules, hands, 4)
    play(hand, "1 b 10, 2 c, 3 f, 4 f, 1 p, 2 p, 1 x, 2 x")
    assert hand.result.net[2] == 20


def test_r44_false_opener_alone_leaves_the_pot() -> None:
    rules = ITALIAN.replace(openers_check="showdown")
    hands = {1: "Ts Td 8c 9h Kd", 2: "Qs Qd 4c 5h 7d", 3: "2s 3d 8d 9s Jd", 4: "As Kh 7c 6s 5d"}
    hand = dealt(rules, hands, 4)
    events = play(hand, "1 b 10, 2 f, 3 f, 4 f")
    assert [(e.seat, e.amount) for e in events if isinstance(e, UncalledBetReturned)] == [(1, 10)]
    assert [e.amount for e in events if isinstance(e, PotCarried)] == [10]  # the invito
    assert hand.result.net[1] == 0


def test_r45_opener_may_break_openers() -> None:
    rules = ITALIAN.replace(openers_check="showdown", checked_pot_stays=False)
    hands = {1: "Js Jd Ts Qs Ks", 2: "Qh Qd 4c 5h 7d", 3: "2s 3d 8d 9s Jh", 4: "Ah Kh 7c 6s 5d"}
    hand = dealt(rules, hands, 4, draws="As")
    play(hand, "1 b 10, 2 c, 3 f, 4 f, 1 d Jd, 2 p, 1 x, 2 x")  # breaks jacks for a flush draw
    proof = [e for e in hand.events if isinstance(e, OpenersShown)]
    assert [(e.seat, format_cards(e.cards), e.valid) for e in proof] == [
        (1, "Js Jd Ts Qs Ks", True)
    ]
    assert hand.result.net[1] == 20  # the royal flush wins


def test_r47_betting_timeout_checks_or_folds() -> None:
    hand = six(NL)
    events = hand.act(Action.timeout(4))
    assert kinds(events) == ["TimedOut", "Folded"]
    play(hand, "5 c, 6 c, 1 c, 2 c")
    events = hand.act(Action.timeout(3))
    assert isinstance(events[1], Checked)
    assert not any(isinstance(e, Folded) for e in events)


def test_illegal_actions_name_seat_street_and_range_and_change_nothing() -> None:
    hand = six(PL)
    play(hand, "4 r 7")
    before = hand.view()
    with pytest.raises(IllegalAction, match=r"seat 5 \(pre-draw\) may raise to 12–24, not 25"):
        hand.act(Action.bet(5, 25))
    with pytest.raises(IllegalAction, match="not your turn, seat 5 is to act"):
        hand.act(Action.call(6))
    with pytest.raises(IllegalAction, match="cannot check facing a bet"):
        hand.act(Action.check(5))
    with pytest.raises(IllegalAction, match=r"seat 8 \(pre-draw\): not dealt into this hand"):
        hand.act(Action.fold(8))
    assert hand.view() == before
    assert isinstance(IllegalAction("x"), ValueError)


def test_discard_of_cards_not_held() -> None:
    hand = six(NL)
    play(hand, "4 c, 5 f, 6 f, 1 f, 2 f, 3 x")
    other = hand.cards(4)[0]
    with pytest.raises(IllegalAction, match=r"does not hold"):
        hand.act(Action.draw(3, (other,)))
    events = hand.act(Action.draw(3, hand.cards(3)[:2]))
    assert [(e.seat, e.count) for e in events if isinstance(e, Discarded)] == [(3, 2)]


def test_r09_r20_a_dead_small_blind_is_never_returned() -> None:
    """Seat 5 returns: big blind live, small blind dead; everyone checks or folds."""
    posts = [
        (2, PostKind.SMALL_BLIND, 1),
        (3, PostKind.BIG_BLIND, 2),
        (5, PostKind.BIG_BLIND, 2),
        (5, PostKind.DEAD_SMALL_BLIND, 1),
    ]
    hand = Hand(NL, {1: 100, 2: 100, 3: 100, 5: 100}, 1, seed=bytes(32), posts=posts)
    assert hand.pot_total == 6
    events = play(hand, "5 x, 1 f, 2 f, 3 x")
    assert not [e for e in events if isinstance(e, UncalledBetReturned)]
    assert hand.pot_total == 6
    play(hand, "3 p, 5 p, 3 b 10, 5 f")  # an uncalled bet returns exactly the bet
    assert hand.result.net == {1: 0, 2: -1, 3: 4, 5: -3}
