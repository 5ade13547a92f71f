"""Every worked example of RULES.md (blinds 1/2, fixed limit 2/4 unless stated;
button seat 1, small blind seat 2, big blind seat 3)."""

from __future__ import annotations

from drawpoker.actions import Action
from drawpoker.events import PotAwarded, PotCarried, Reshuffled, UncalledBetReturned
from drawpoker.hand import Hand
from drawpoker.pots import split
from drawpoker.rules import Rules

from .helpers import FL, NL, PL, legal_of, play, six, stacked


def test_six_players_order_of_action_and_draw() -> None:
    hand = six(FL)
    assert hand.to_act == 4
    play(hand, "4 c, 5 c, 6 c, 1 c, 2 c")
    legal = legal_of(hand)
    assert (legal.seat, legal.check, legal.max_to) == (3, True, 4)
    play(hand, "3 x")
    order = []
    while hand.street == "draw":
        order.append(hand.to_act)
        hand.act(Action.stand_pat(hand.to_act or 0))
    assert order == [2, 3, 4, 5, 6, 1]
    assert hand.to_act == 2


def test_heads_up_order() -> None:
    hand = Hand(FL, {1: 100, 2: 100}, 1, seed=bytes(32))
    posts = {(e.seat, e.amount) for e in hand.events if type(e).__name__ == "Posted"}
    assert posts == {(1, 1), (2, 2)}
    legal = legal_of(hand)
    assert legal.seat == 1
    assert (legal.fold, legal.call, legal.min_to, legal.max_to) == (True, 1, 4, 4)
    play(hand, "1 c, 2 x")
    assert hand.to_act == 2  # the big blind draws first
    play(hand, "2 p, 1 p")
    assert hand.to_act == 2  # and acts first after the draw


def test_fixed_limit_cap_before_the_draw() -> None:
    hand = six(FL)
    play(hand, "4 r 4, 5 r 6, 6 r 8")
    legal = legal_of(hand)
    assert legal.seat == 1
    assert (legal.call, legal.max_to) == (8, 0)  # capped: call 8 or fold
    play(hand, "1 c")
    legal = legal_of(hand)
    assert (legal.seat, legal.call, legal.max_to) == (2, 7, 0)
    play(hand, "2 c")
    legal = legal_of(hand)
    assert (legal.seat, legal.call, legal.max_to) == (3, 6, 0)


def test_fixed_limit_half_bet_all_in_is_a_full_raise_after_the_draw() -> None:
    hand = six(FL, {1: 200, 2: 200, 3: 200, 4: 8, 5: 200, 6: 200})
    play(hand, "4 c, 5 c, 6 f, 1 c, 2 c, 3 f")
    play(hand, "2 p, 4 p, 5 p, 1 p")
    play(hand, "2 b 4, 4 r 6")  # all in for 6: half a bet over 4, a full raise
    play(hand, "5 c, 1 c")
    legal = legal_of(hand)
    assert (legal.seat, legal.min_to, legal.max_to) == (2, 10, 10)
    play(hand, "2 r 10, 5 r 14")  # the cap: a bet and three raises
    legal = legal_of(hand)
    assert (legal.seat, legal.call, legal.max_to) == (1, 8, 0)


def test_pot_limit_sizes() -> None:
    hand = six(PL)
    legal = legal_of(hand)
    assert (legal.seat, legal.min_to, legal.max_to) == (4, 4, 7)
    play(hand, "4 r 7")
    legal = legal_of(hand)
    assert (legal.seat, legal.min_to, legal.max_to) == (5, 12, 24)
    heads_up = Hand(PL, {1: 100, 2: 100}, 1, seed=bytes(32))
    legal = legal_of(heads_up)
    assert (legal.seat, legal.min_to, legal.max_to) == (1, 4, 6)


def test_no_limit_short_all_in_does_not_reopen() -> None:
    hand = six(NL, {1: 200, 2: 200, 3: 200, 4: 200, 5: 10, 6: 200})
    play(hand, "4 r 7, 5 r 10")
    legal = legal_of(hand)
    assert (legal.seat, legal.min_to) == (6, 15)
    play(hand, "6 c, 1 c, 2 f, 3 c")
    legal = legal_of(hand)
    assert legal.seat == 4
    assert (legal.call, legal.max_to, legal.fold) == (3, 0, True)


def test_big_blind_all_in_short() -> None:
    rules = Rules.online(small_blind=50, big_blind=100, max_seats=8)
    hand = six(rules, {1: 1000, 2: 1000, 3: 60, 4: 1000, 5: 1000, 6: 1000})
    legal = legal_of(hand)
    assert (legal.seat, legal.call, legal.min_to) == (4, 100, 200)
    events = play(hand, "4 c, 5 f, 6 f, 1 f, 2 f")
    returned = [e for e in events if isinstance(e, UncalledBetReturned)]
    assert [(e.seat, e.amount) for e in returned] == [(4, 40)]
    assert hand.pot_total == 170


def test_side_pots() -> None:
    hand = Hand(NL, {1: 100, 2: 250, 3: 1000, 4: 400}, 4, seed=bytes(32))
    # button 4: small blind 1, big blind 2, seat 3 first to act.
    events = play(hand, "3 r 1000, 4 c, 1 c, 2 c")
    returned = [(e.seat, e.amount) for e in events if isinstance(e, UncalledBetReturned)]
    assert returned == [(3, 600)]
    play(hand, "1 p, 2 p, 3 p, 4 p")
    awards = [e for e in hand.events if isinstance(e, PotAwarded)]
    assert [(e.amount, e.eligible) for e in awards] == [
        (400, (1, 2, 3, 4)),
        (450, (2, 3, 4)),
        (300, (3, 4)),
    ]


def test_odd_chip_goes_left_of_the_button() -> None:
    assert split(25, [2, 5]) == [(2, 13), (5, 12)]
    # In a hand: seats 2 and 5 hold the same straight, seat 1 folds; pot of 7 (antes).
    rules = Rules.online(structure="no-limit", small_blind=1, big_blind=2, antes=1)
    deal = "2c 2d 9s 3c 3d Ts 4c 4d Js 5d 5c Ks 6d 6c Ah"  # seats 2, 5, 1 in turn
    hand = stacked(rules, {1: 50, 2: 50, 5: 50}, 1, deal)
    play(hand, "1 f, 2 c, 5 x, 2 p, 5 p, 2 x, 5 x")
    shares = [e.shares for e in hand.events if isinstance(e, PotAwarded)]
    assert shares == [((2, 4), (5, 3))]


def test_rake_five_percent_and_no_draw_no_rake() -> None:
    rules = Rules.online(structure="no-limit", rake_percent=5, rake_caps=())
    hand = Hand(rules, {1: 1870, 2: 1870}, 1, seed=bytes(32))
    play(hand, "1 r 1870, 2 c, 2 p, 1 p")
    assert hand.result.rake == 187
    hand = six(rules)
    play(hand, "4 r 10, 5 f, 6 f, 1 f, 2 f, 3 f")
    assert hand.result.rake == 0


def test_reshuffle_keeps_the_served_players_own_discards_out() -> None:
    hand = six(FL)
    assert len(hand.deck) == 22
    play(hand, "4 c, 5 c, 6 f, 1 c, 2 c, 3 x")
    cards = {seat: hand.cards(seat) for seat in (1, 2, 3, 4, 5)}
    for seat in (2, 3, 4):
        hand.act(Action.draw(seat, cards[seat]))
    hand.act(Action.draw(5, cards[5][:4]))
    assert len(hand.deck) == 3
    events = hand.act(Action.draw(1, cards[1][:4]))
    reshuffles = [e for e in events if isinstance(e, Reshuffled)]
    assert [(e.size, e.excluded_seat) for e in reshuffles] == [(22, 1)]
    assert len(hand.deck) == 18
    assert not set(hand.cards(1)) & set(cards[1][:4])


def test_italian_opening_sizes() -> None:
    rules = Rules.italian(invito=10, invito_others="same", max_seats=4)
    # Deal from left of the dealer (seat 4): seats 1, 2, 3, 4, one card at a time.
    deal = "2c Qs 3d 4h  7d Qh 8s 9c  9h 5c Jd Kc  Jc 6s 2h Ac  Kh 8d 4s Ts"
    hand = stacked(rules, dict.fromkeys((1, 2, 3, 4), 500), 4, deal)
    assert hand.pot_total == 40
    legal = legal_of(hand)
    assert (legal.seat, legal.max_to) == (1, 0)  # no openers: pass
    play(hand, "1 x")
    legal = legal_of(hand)
    assert (legal.seat, legal.min_to, legal.max_to) == (2, 10, 40)
    assert legal.bet_label == "open"
    play(hand, "2 b 40")
    legal = legal_of(hand)
    assert legal.seat == 3
    assert (legal.fold, legal.call, legal.min_to, legal.max_to) == (True, 40, 80, 280)


def test_italian_nobody_opens_pot_stays() -> None:
    rules = Rules.italian(invito=10, invito_others="same", max_seats=4)
    deal = "2c 3s 4d 5h  7d 8h 9s Jc  9h Tc Qd Kc  Jd 6s 2h Ac  Kh 8d 4s Ts"
    hand = stacked(rules, dict.fromkeys((1, 2, 3, 4), 500), 4, deal)
    events = play(hand, "1 x, 2 x, 3 x, 4 x")
    assert [e.amount for e in events if isinstance(e, PotCarried)] == [40]
    assert hand.result.carried_pot == 40
    stacks = hand.result.stacks
    following = Hand(rules, stacks, 1, seed=bytes(32), carried_pot=hand.result.carried_pot)
    assert following.pot_total == 80
    assert following.to_act == 2  # seat 1 deals; seat 2 speaks first
