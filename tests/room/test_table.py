"""Cash tables: seats, buy-ins, top-ups, sit-outs, blinds, timeouts, rake, carried pots."""

from __future__ import annotations

import itertools
import json

import pytest

from drawpoker.actions import Action
from drawpoker.errors import IllegalAction, InvalidConfig
from drawpoker.events import BettingRoundEnded, HandStarted, PostKind, PotCarried
from drawpoker.room.errors import (
    BuyInOutOfRange,
    HandInProgress,
    NotEnoughPlayers,
    NotSeated,
    SeatTaken,
)
from drawpoker.room.events import (
    BlindsMissed,
    HandCancelled,
    PlayerLeft,
    PlayerSeated,
    SatOut,
    ToppedUp,
)
from drawpoker.room.table import CashTable, DisconnectPolicy, TableConfig
from drawpoker.rules import Rules

from .helpers import fold_around, passive, seed

RULES = Rules.online(structure="no-limit", small_blind=1, big_blind=2, max_seats=6)


def table(rules: Rules = RULES, **kw: object) -> CashTable:
    return CashTable("t", TableConfig.in_big_blinds(rules, **kw))  # type: ignore[arg-type]


def seated(*seats: int, stack: int = 100, rules: Rules = RULES) -> CashTable:
    t = table(rules)
    for seat in seats:
        t.sit(f"p{seat}", seat, stack)
    return t


def posts(t: CashTable) -> list[tuple[int, PostKind, int]]:
    return t.posted


def test_config_buy_in_range_in_big_blinds() -> None:
    config = TableConfig.in_big_blinds(RULES)
    assert (config.min_buy_in, config.max_buy_in) == (40, 200)
    with pytest.raises(InvalidConfig):
        TableConfig(rules=RULES, min_buy_in=50, max_buy_in=40)


def test_sit_checks_seat_player_and_buy_in() -> None:
    t = table()
    [event] = t.sit("ann", 2, 100)
    assert isinstance(event, PlayerSeated)
    assert event.seq == 1
    with pytest.raises(SeatTaken, match="seat 2 is taken by ann"):
        t.sit("bob", 2, 100)
    with pytest.raises(SeatTaken, match="ann already sits at seat 2"):
        t.sit("ann", 3, 100)
    with pytest.raises(BuyInOutOfRange, match="outside 40-200"):
        t.sit("bob", 3, 39)
    with pytest.raises(BuyInOutOfRange):
        t.sit("bob", 3, 201)
    with pytest.raises(NotSeated, match="not a seat 1-6"):
        t.sit("bob", 7, 100)
    assert t.sit("bob", 3, 200)[0].seq == 2
    assert t.seat_of("bob") == 3


def test_hand_needs_two_players_able_to_play() -> None:
    t = seated(1)
    assert not t.can_start()
    with pytest.raises(NotEnoughPlayers, match="2 or more players"):
        t.start_hand(0.0, seed=seed(1))
    t.sit("p2", 2, 100)
    t.sit_out(2)
    assert not t.can_start()
    t.sit_in(2)
    assert t.can_start()
    t.start_hand(0.0, seed=seed(1))
    with pytest.raises(HandInProgress):
        t.start_hand(0.0, seed=seed(2))


def test_top_up_between_hands_up_to_the_maximum() -> None:
    t = seated(1, 2)
    [event] = t.top_up(1, 100)
    assert isinstance(event, ToppedUp)
    assert event.stack == 200
    with pytest.raises(BuyInOutOfRange, match="at most 0 chips"):
        t.top_up(1, 1)
    with pytest.raises(BuyInOutOfRange, match="at most 100"):
        t.top_up(2, 101)
    with pytest.raises(BuyInOutOfRange):
        t.top_up(2, 0)


def test_top_up_during_a_hand_applies_when_it_ends() -> None:
    t = seated(1, 2, 3)
    t.start_hand(0.0, seed=seed(1))
    dealt = t.dealt_in()[0]
    assert t.top_up(dealt, 50) == []
    assert t.seats[dealt].pending_top_up == 50
    chips = t.chips()
    assert chips == 350
    events = passive(t)
    topped = [e for e in events if isinstance(e, ToppedUp)]
    assert [(e.seat, e.amount) for e in topped] == [(dealt, 50)]
    assert t.seats[dealt].pending_top_up == 0
    assert t.chips() == 350


def test_leave_between_hands_gives_the_chips_back() -> None:
    t = seated(1, 2)
    [event] = t.leave(2)
    assert isinstance(event, PlayerLeft)
    assert (event.player, event.chips) == ("p2", 100)
    assert 2 not in t.seats
    with pytest.raises(NotSeated):
        t.leave(2)


def test_leave_during_a_hand_folds_and_leaves_at_the_end() -> None:
    t = seated(1, 2, 3)
    t.start_hand(0.0, seed=seed(3))
    hand = t.hand
    assert hand is not None
    first = hand.to_act
    assert first is not None
    events = t.leave(first)  # folds at once: it is their turn
    assert hand.player(first).folded
    assert not any(isinstance(e, PlayerLeft) for e in events)
    events += passive(t)
    left = [e for e in events if isinstance(e, PlayerLeft)]
    assert [(e.seat, e.chips) for e in left] == [(first, 100)]  # first to act posted nothing
    assert first not in t.seats
    assert left[0].seq > max(e.seq for e in hand.events)  # reported after the hand


def test_a_new_player_waits_for_the_big_blind_or_posts() -> None:
    t = seated(1, 2, 3)
    t.start_hand(0.0, seed=seed(1))  # button 1, sb 2, bb 3
    passive(t)
    t.sit("waits", 5, 100)  # waits for the big blind, which comes next: 3 -> 5
    t.start_hand(1.0, seed=seed(2))  # button 2, sb 3, bb 5
    assert t.last_big_blind == 5
    assert (5, PostKind.BIG_BLIND, 2) in posts(t)
    assert len([p for p in posts(t) if p[1] is PostKind.BIG_BLIND]) == 1
    passive(t)
    t.sit("waits2", 4, 100)  # between the button (3) and the next big blind (1): waits
    t.start_hand(2.0, seed=seed(3))  # button 3, sb 5, bb 1
    assert 4 not in t.dealt_in()
    passive(t)


def test_player_posting_to_come_in_is_dealt_at_once() -> None:
    t = seated(1, 2, 3, 4, rules=RULES.replace(max_seats=8))
    t.start_hand(0.0, seed=seed(1))  # button 1, sb 2, bb 3
    passive(t)
    t.sit("poster", 7, 100, post=True)
    t.sit("waiter", 8, 100)
    t.start_hand(1.0, seed=seed(2))  # button 2, sb 3, bb 4; next bb would be 7
    assert 7 not in t.dealt_in()  # it would post twice in a row: it waits one hand
    passive(t)
    t.start_hand(2.0, seed=seed(3))  # bb reaches 7
    assert t.last_big_blind == 7
    assert 8 not in t.dealt_in()
    passive(t)


def test_returning_player_posts_missed_blinds() -> None:
    t = seated(1, 2, 3, 4, 5, 6)
    t.start_hand(0.0, seed=seed(1))  # button 1, sb 2, bb 3
    passive(t)
    t.sit_out(4)
    events = t.start_hand(1.0, seed=seed(2))  # bb skips seat 4 -> 5
    missed = [e for e in events if isinstance(e, BlindsMissed)]
    assert [(e.seat, e.big_blind, e.small_blind) for e in missed] == [(4, True, True)]
    assert t.last_big_blind == 5
    passive(t)
    t.sit_in(4, post=True)
    t.start_hand(2.0, seed=seed(3))  # button 3, sb 5, bb 6
    assert 4 not in t.dealt_in()  # between the button and the big blind: waits
    passive(t)
    t.start_hand(3.0, seed=seed(4))  # button 5, sb 6, bb 1
    assert 4 in t.dealt_in()
    mine = [(kind, amount) for seat, kind, amount in posts(t) if seat == 4]
    assert mine == [(PostKind.BIG_BLIND, 2), (PostKind.DEAD_SMALL_BLIND, 1)]
    hand = t.hand
    assert hand is not None
    assert hand.player(4).wager == 2  # the big blind is live, the small blind dead
    assert hand.player(4).stack == t.seats[4].stack - 3  # the seat keeps its start stack
    assert hand.pot_total == 1 + 2 + 2 + 1
    events = passive(t)  # everyone calls 2 and checks: the dead chip stays in the pot
    ended = next(e for e in events if isinstance(e, BettingRoundEnded))
    assert ended.pot == 2 * len(t.plan.dealt) + 1  # type: ignore[union-attr]
    assert not t.seats[4].owe_big_blind


def test_returning_player_in_the_blinds_posts_only_the_big_blind() -> None:
    t = seated(1, 2, 3, 4)
    t.start_hand(0.0, seed=seed(1))  # bb 3
    passive(t)
    t.sit_out(4)
    t.start_hand(1.0, seed=seed(2))  # bb skips 4 -> 1
    passive(t)
    t.sit_in(4)  # waits for the big blind
    for n in range(3):
        t.start_hand(2.0 + n, seed=seed(3 + n))
        if 4 in t.dealt_in():
            break
        passive(t)
    assert t.last_big_blind == 4
    assert [(k, a) for s, k, a in posts(t) if s == 4] == [(PostKind.BIG_BLIND, 2)]


def test_dead_button_after_the_small_blind_leaves() -> None:
    t = seated(1, 2, 3, 4)
    t.start_hand(0.0, seed=seed(1))  # button 1, sb 2, bb 3
    passive(t)
    t.leave(2)
    events = t.start_hand(1.0, seed=seed(2))
    started = next(e for e in events if isinstance(e, HandStarted))
    assert started.button == 2  # the button on an empty seat (R7)
    assert posts(t) == [(3, PostKind.SMALL_BLIND, 1), (4, PostKind.BIG_BLIND, 2)]


def test_three_to_two_players_heads_up() -> None:
    t = seated(1, 2, 3)
    bb_history = []
    for n in range(3):
        t.start_hand(float(n), seed=seed(n))
        bb_history.append(t.last_big_blind)
        passive(t)
    t.leave(bb_history[-1] % 3 + 1)
    for n in range(4):
        t.start_hand(10.0 + n, seed=seed(10 + n))
        hand = t.hand
        assert hand is not None
        assert len(t.dealt_in()) == 2
        sb = [s for s, k, _ in posts(t) if k is PostKind.SMALL_BLIND]
        assert sb == [hand.button]  # heads-up the button posts the small blind (R6)
        assert hand.to_act == hand.button  # and acts first before the draw
        bb_history.append(t.last_big_blind)
        passive(t)
    for a, b in itertools.pairwise(bb_history):
        assert a != b


def test_two_timeouts_in_a_row_sit_out() -> None:
    t = seated(1, 2, 3)
    t.start_hand(0.0, seed=seed(1))
    first = t.to_act
    assert first is not None
    events = t.timeout(first, 20.0)  # folds (facing the big blind)
    assert t.hand is not None
    assert t.hand.player(first).folded
    passive(t)
    assert t.seats[first].timeouts == 1
    assert not t.seats[first].sitting_out
    for n in range(1, 6):
        t.start_hand(100.0 * n, seed=seed(1 + n))
        while t.hand is not None:
            events = t.timeout(first, 100.0 * n + 1) if t.to_act == first else passive_step(t)
        if first not in t.dealt_in() and t.seats[first].sitting_out:
            break
    assert t.seats[first].sitting_out
    assert any(isinstance(e, SatOut) and e.reason == "timeouts" for e in events)


def passive_step(t: CashTable) -> list:  # type: ignore[type-arg]
    assert t.hand is not None
    legal = t.hand.legal_actions()
    assert legal is not None
    if legal.draw:
        return t.act(Action.stand_pat(legal.seat), 0.0)
    if legal.check:
        return t.act(Action.check(legal.seat), 0.0)
    return t.act(Action.call(legal.seat), 0.0)


def test_an_action_resets_the_timeout_count() -> None:
    t = seated(1, 2, 3)
    t.start_hand(0.0, seed=seed(1))
    first = t.to_act
    assert first is not None
    t.timeout(first, 20.0)
    passive(t)
    assert t.seats[first].timeouts == 1
    t.start_hand(30.0, seed=seed(2))
    while t.to_act != first and t.hand is not None:
        passive_step(t)
    if t.hand is not None:
        passive_step(t)
        assert t.seats[first].timeouts == 0


def test_timeout_only_for_the_player_to_act() -> None:
    t = seated(1, 2, 3)
    t.start_hand(0.0, seed=seed(1))
    other = next(s for s in t.dealt_in() if s != t.to_act)
    with pytest.raises(IllegalAction, match="is not to act"):
        t.timeout(other, 5.0)


def test_disconnected_player_clock_then_check_fold_and_stand_pat() -> None:
    t = seated(1, 2, 3)
    t.start_hand(0.0, seed=seed(4))
    # sb (2) calls, bb (3) checks -> draw; seat 1 (first to act) disconnected
    first = t.to_act
    assert first == 1
    t.disconnect(1, 0.0)
    assert t.to_act == 1  # clock policy: still waiting for the clock (the session's)
    t.timeout(1, 20.0)
    hand = t.hand
    assert hand is not None
    assert hand.player(1).folded


def test_disconnected_player_immediate_policy_stands_pat() -> None:
    t = table(disconnect_policy=DisconnectPolicy.IMMEDIATE)
    for seat in (1, 2):
        t.sit(f"p{seat}", seat, 100)
    t.start_hand(0.0, seed=seed(5))  # heads-up: button 1 (sb) acts first
    assert t.to_act == 1
    t.act(Action.call(1), 0.0)
    t.disconnect(1, 1.0)
    t.act(Action.check(2), 1.0)  # big blind checks: the draw, seat 2 first
    t.act(Action.stand_pat(2), 2.0)
    hand = t.hand
    assert hand is not None
    assert hand.player(1).drew == 0  # stood pat at once
    assert hand.player(1).penalized  # R26
    passive(t)


def test_rake_is_reported_per_hand() -> None:
    rules = RULES.replace(rake_percent=10, rake_caps=((2, 5),))
    t = seated(1, 2, 3, rules=rules)
    t.start_hand(0.0, seed=seed(6))
    # everyone calls 2 and checks: pot 6, 10% = 0 ... raise it up first
    hand = t.hand
    assert hand is not None
    t.act(Action.bet(1, 20), 0.0)
    passive(t)
    record = t.last_record
    assert record is not None
    assert record.rake == 5  # 10% of 60 = 6, capped at 5
    assert t.rake_total == 5
    assert t.chips() + t.rake_total == 300
    t.start_hand(1.0, seed=seed(7))
    fold_around(t)  # everyone folds to the big blind: no draw, no rake (R13)
    assert t.last_record is not None
    assert t.last_record.rake == 0


def test_busted_player_sits_out_until_a_rebuy() -> None:
    for n in range(50):  # all in heads-up until someone loses everything (no split)
        t = seated(1, 2)
        t.start_hand(0.0, seed=seed(8 + n))
        hand = t.hand
        assert hand is not None
        legal = hand.legal_actions()
        assert legal is not None
        t.act(Action.bet(legal.seat, legal.max_to), 0.0)
        events = passive(t)
        if 0 in (t.seats[1].stack, t.seats[2].stack):
            break
    loser = 1 if t.seats[1].stack == 0 else 2
    assert any(isinstance(e, SatOut) and e.seat == loser and e.reason == "busted" for e in events)
    assert t.seats[loser].sitting_out
    assert not t.can_start()
    with pytest.raises(BuyInOutOfRange, match="rebuy"):
        t.top_up(loser, 10)
    with pytest.raises(BuyInOutOfRange, match="no chips"):
        t.sit_in(loser)
    t.top_up(loser, 40)
    t.sit_in(loser)
    assert t.can_start()


def test_events_numbered_without_gaps_across_hands() -> None:
    t = seated(1, 2, 3)
    seqs = [1, 2, 3]
    for n in range(4):
        events = t.start_hand(float(n), seed=seed(20 + n)) + passive(t)
        if n == 1:
            events += t.sit("late", 5, 100)
        if n == 2:
            events += t.sit_out(1)
        seqs += [e.seq for e in events]
    assert seqs == list(range(1, len(seqs) + 1))
    assert t.next_seq == len(seqs) + 1


def test_italian_table_carries_the_pot() -> None:
    rules = Rules.italian(invito=10, max_seats=4)
    t = CashTable("it", TableConfig.in_big_blinds(rules))
    for seat in (1, 2, 3):
        t.sit(f"p{seat}", seat, 500)
    buttons = []
    carried = 0
    for n in range(10):
        t.start_hand(float(n), seed=seed(30 + n))
        hand = t.hand
        assert hand is not None
        assert hand.carried_in == carried
        buttons.append(hand.button)
        events = passive(t)  # nobody opens (check = pass): the pot stays (R40)
        record = t.last_record
        assert record is not None
        if any(isinstance(e, PotCarried) for e in events):
            assert record.carried_out == t.carried_pot > 0
        carried = t.carried_pot
        assert t.chips() == 1500
    assert buttons[:4] == [1, 2, 3, 1]  # the deal passes clockwise (R37)
    assert t.carried_pot == 10 * 10  # nobody ever opened: every invito is still there


def test_state_round_trip_between_hands() -> None:
    t = seated(1, 2, 4)
    t.start_hand(0.0, seed=seed(1))
    passive(t)
    t.sit_out(2)
    data = json.loads(json.dumps(t.to_dict()))
    copy, events = CashTable.from_dict(data)
    assert events == []
    assert copy.to_dict() == t.to_dict()
    a = t.start_hand(5.0, seed=seed(2))
    b = copy.start_hand(5.0, seed=seed(2))
    assert a == b


def test_restore_mid_hand_cancels_it_and_returns_the_chips() -> None:
    t = seated(1, 2, 3)
    t.start_hand(0.0, seed=seed(1))
    passive(t)
    before = {seat: s.stack for seat, s in t.seats.items()}
    t.start_hand(1.0, seed=seed(2))
    hand = t.hand
    assert hand is not None
    t.act(Action.bet(hand.to_act, 10), 1.0)  # type: ignore[arg-type]
    data = json.loads(json.dumps(t.to_dict()))
    copy, events = CashTable.from_dict(data)
    [cancelled] = [e for e in events if isinstance(e, HandCancelled)]
    assert cancelled.seq == t.next_seq  # numbering continues
    assert {seat: s.stack for seat, s in copy.seats.items()} == before
    assert copy.chips() == 300
    copy.start_hand(2.0, seed=seed(3))
    assert copy.hand is not None
    assert copy.hand.button == hand.button  # the cancelled hand is replayed in place


def test_restore_mid_hand_keeps_blinds_owed() -> None:
    t = seated(1, 2, 3, 4, 5, 6)
    t.start_hand(0.0, seed=seed(1))  # button 1, sb 2, bb 3
    passive(t)
    t.sit_out(4)
    t.start_hand(1.0, seed=seed(2))  # bb skips 4: it owes both blinds
    passive(t)
    t.sit_in(4, post=True)
    t.start_hand(2.0, seed=seed(3))
    passive(t)
    t.start_hand(3.0, seed=seed(4))  # seat 4 posts its blinds here
    assert 4 in t.dealt_in()
    copy, _ = CashTable.from_dict(json.loads(json.dumps(t.to_dict())))
    assert copy.seats[4].owe_big_blind  # the cancelled hand did not settle the debt
    assert copy.seats[4].owe_small_blind
    copy.start_hand(4.0, seed=seed(5))
    mine = [(kind, amount) for seat, kind, amount in posts(copy) if seat == 4]
    assert mine == [(PostKind.BIG_BLIND, 2), (PostKind.DEAD_SMALL_BLIND, 1)]


def test_timeout_sent_as_an_action_counts() -> None:
    t = seated(1, 2, 3)
    t.start_hand(0.0, seed=seed(1))
    first = t.to_act
    assert first is not None
    t.act(Action.timeout(first), 20.0)
    assert t.seats[first].timeouts == 1


def test_snapshot_hides_other_players_cards() -> None:
    t = seated(1, 2, 3)
    t.sit("out", 5, 100)
    t.sit_out(5)
    t.start_hand(0.0, seed=seed(1))
    snap = json.loads(json.dumps(t.snapshot(1), default=str))
    assert [s["seat"] for s in snap["seats"]] == [1, 2, 3, 5]
    assert [s["in_hand"] for s in snap["seats"]] == [True, True, True, False]
    assert snap["seats"][3]["sitting_out"]
    cards = {s["seat"]: s["cards"] for s in snap["hand"]["seats"]}
    assert len(cards[1]) == 5
    assert cards[2] is None
    assert cards[3] is None
    assert snap["next_seq"] == t.next_seq


def test_failed_commands_change_nothing() -> None:
    t = seated(1, 2)
    t.sit_out(2)
    t.seats[2].stack = 0  # as if busted
    before = t.to_dict()
    with pytest.raises(BuyInOutOfRange):
        t.sit_in(2, post=True)
    with pytest.raises(BuyInOutOfRange):
        t.top_up(1, 101)
    with pytest.raises(BuyInOutOfRange):
        t.top_up(1, "5")  # type: ignore[arg-type]
    with pytest.raises(NotSeated):
        t.sit_out(6)
    assert t.to_dict() == before


def test_antes_only_table_deals_everyone_in_turn() -> None:
    rules = Rules.online(structure="fixed-limit", small_blind=0, big_blind=0, small_bet=4, antes=1)
    t = CashTable("antes", TableConfig(rules=rules, min_buy_in=20, max_buy_in=100))
    for seat in (1, 3, 4):
        t.sit(f"p{seat}", seat, 50)
    buttons = []
    for n in range(4):
        t.start_hand(float(n), seed=seed(40 + n))
        assert t.hand is not None
        buttons.append(t.hand.button)
        assert [k for _, k, _ in posts(t)] == [PostKind.ANTE] * 3
        passive(t)
    assert buttons == [1, 3, 4, 1]
    assert t.chips() == 150
