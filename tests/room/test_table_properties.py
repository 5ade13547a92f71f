"""Property-based: random joins, leaves, sit-outs, top-ups, timeouts and busts over
hundreds of hands. Every chip is accounted for, nobody is dealt in who should not be."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drawpoker.actions import Action
from drawpoker.events import Event, Posted, PostKind
from drawpoker.room.errors import RoomError
from drawpoker.room.events import PlayerLeft
from drawpoker.room.table import CashTable, DisconnectPolicy, TableConfig
from drawpoker.rules import Rules

from .helpers import seed

PLAYERS = [f"p{i}" for i in range(10)]
START_BALANCE = 1_000

RULES = {
    "no-limit": Rules.online(
        structure="no-limit",
        small_blind=1,
        big_blind=2,
        max_seats=6,
        rake_percent=5,
        rake_caps=((2, 2), (3, 4)),
    ),
    "fixed-limit": Rules.online(structure="fixed-limit", small_blind=1, big_blind=2, max_seats=4),
    "pot-limit": Rules.online(
        structure="pot-limit", small_blind=1, big_blind=2, max_seats=8, antes=1, rake_percent=10
    ),
    "italian": Rules.italian(invito=2, max_seats=5, invito_others="half"),
}


def random_action(legal_seat: int, table: CashTable, rng: random.Random) -> Action:
    hand = table.hand
    assert hand is not None
    legal = hand.legal_actions()
    assert legal is not None
    if legal.draw:
        k = rng.randint(0, legal.max_discard)
        return Action.draw(legal.seat, tuple(rng.sample(list(legal.hand), k)))
    options = []
    if legal.fold:
        options.append(Action.fold(legal.seat))
    if legal.check:
        options += [Action.check(legal.seat)] * 3
    if legal.call:
        options += [Action.call(legal.seat)] * 3
    if legal.max_to:
        options.append(Action.bet(legal.seat, legal.min_to))
        if rng.random() < 0.2:
            options.append(Action.bet(legal.seat, legal.max_to))
    return rng.choice(options)


class Harness:
    def __init__(self, rules: Rules, policy: DisconnectPolicy) -> None:
        config = TableConfig(rules=rules, min_buy_in=20, max_buy_in=100, disconnect_policy=policy)
        self.table = CashTable("prop", config)
        self.balances = dict.fromkeys(PLAYERS, START_BALANCE)
        self.total = START_BALANCE * len(PLAYERS)
        self.now = 0.0
        self.seq = 1
        self.hands = 0

    def take(self, events: list[Event]) -> None:
        for e in events:
            assert e.seq == self.seq, (e, self.seq)
            self.seq += 1
            if isinstance(e, PlayerLeft):
                self.balances[e.player] += e.chips

    def check_money(self) -> None:
        t = self.table
        assert sum(self.balances.values()) + t.chips() + t.rake_total == self.total
        assert all(b >= 0 for b in self.balances.values())
        assert all(s.stack >= 0 for s in t.seats.values())

    def command(self, op: int, player: int, seat: int, amount: int, flag: bool) -> None:
        t = self.table
        name = PLAYERS[player]
        seat = seat % t.rules.max_seats + 1
        try:
            if op == 0:
                buy_in = min(20 + amount, self.balances[name])
                events = t.sit(name, seat, buy_in, post=flag)
                self.balances[name] -= buy_in
            elif op == 1:
                events = t.leave(seat)
            elif op == 2:
                events = t.sit_out(seat)
            elif op == 3:
                events = t.sit_in(seat, post=flag)
            elif op == 4:
                who = t.seats[seat].player if seat in t.seats else name
                top = min(20 + amount, self.balances[who])
                events = t.top_up(seat, top)
                self.balances[who] -= top
            elif op == 5:
                events = t.disconnect(seat, self.now)
            else:
                events = t.reconnect(seat, self.now)
        except RoomError:
            return
        self.take(events)

    def play_hand(self, rng: random.Random) -> None:
        t = self.table
        before = {
            seat: (s.player, s.sitting_out, s.stack, s.owe_big_blind, s.owe_small_blind, s.post)
            for seat, s in t.seats.items()
        }
        if not t.can_start():
            return
        self.now += 60.0
        events = t.start_hand(self.now, seed=seed(rng.getrandbits(64)))
        self.take(events)
        self.hands += 1
        plan = t.plan
        assert plan is not None
        dealt = set(plan.dealt)
        exempt = len(dealt) == 2 or plan.fresh or t.rules.is_italian  # nobody owes
        posted: dict[int, list[PostKind]] = {}
        for e in events:
            if isinstance(e, Posted):
                posted.setdefault(e.seat, []).append(e.kind)
        for seat, (_player, out, stack, owe_bb, owe_sb, post) in before.items():
            able = not out and stack > 0
            if seat in dealt:
                assert able, f"seat {seat} dealt in while sitting out or broke"
                if (owe_bb or owe_sb) and not exempt and seat != plan.big_blind:
                    assert post, f"seat {seat} owed blinds, was not in the big blind, did not post"
                    if owe_bb:
                        assert PostKind.BIG_BLIND in posted.get(seat, []) or t.rules.is_italian
            elif able and not (owe_bb or owe_sb) and not t.rules.is_italian:
                raise AssertionError(f"seat {seat} could play and owed nothing but sat out")
        self.check_money()
        while t.hand is not None:
            self.now += 1.0
            to_act = t.to_act
            assert to_act is not None
            if rng.random() < 0.05:
                self.take(t.timeout(to_act, self.now))
            else:
                self.take(t.act(random_action(to_act, t, rng), self.now))
            if rng.random() < 0.02:
                self.command(rng.randrange(7), rng.randrange(10), rng.randrange(8), 50, True)
            self.check_money()
        self.check_money()


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    rules=st.sampled_from(sorted(RULES)),
    policy=st.sampled_from(list(DisconnectPolicy)),
    hand_seed=st.integers(0, 2**32),
    script=st.lists(
        st.tuples(
            st.sampled_from([0, 0, 1, 2, 3, 3, 4, 4, 5, 6, 7, 7, 7]),  # 7: play a hand
            st.integers(0, 9),
            st.integers(0, 7),
            st.integers(0, 80),
            st.booleans(),
        ),
        min_size=50,
        max_size=150,
    ),
)
def test_random_sessions_keep_every_chip(
    rules: str, policy: DisconnectPolicy, hand_seed: int, script: list[tuple[int, ...]]
) -> None:
    h = Harness(RULES[rules], policy)
    rng = random.Random(hand_seed)
    for op, player, seat, amount, flag in script:
        if op == 7:
            h.play_hand(rng)
        else:
            h.command(op, player, seat, amount, flag)
            if rng.random() < 0.7:  # hands are the most common thing that happens
                h.play_hand(rng)
        h.check_money()
    # everyone leaves: every chip is back in a balance or in the rake (or a carried pot)
    for seat in list(h.table.seats):
        h.take(h.table.leave(seat))
    assert sum(h.balances.values()) + h.table.rake_total + h.table.carried_pot == h.total


def test_a_long_session_plays_hundreds_of_hands() -> None:
    h = Harness(RULES["no-limit"], DisconnectPolicy.CLOCK)
    rng = random.Random(7)
    ops = [0, 0, 0, 1, 2, 3, 3, 3, 4, 4, 5, 6, 6]
    for _ in range(600):
        h.command(rng.choice(ops), rng.randrange(10), rng.randrange(8), rng.randrange(80),
                  rng.random() < 0.5)  # fmt: skip
        h.play_hand(rng)
        h.play_hand(rng)
    assert h.hands > 500
    assert h.table.rake_total > 0
