"""Tournaments: registration, start, levels, hands, eliminations, hand-for-hand."""

from __future__ import annotations

import json
import random

import pytest

from drawpoker.errors import InvalidConfig
from drawpoker.events import Posted, PostKind
from drawpoker.room import tournament_serial
from drawpoker.room.errors import HandInProgress, NotEnoughPlayers, TournamentError
from drawpoker.room.events import HandCancelled
from drawpoker.room.structure import Level, level_index, rules_for, standard_levels
from drawpoker.room.tournament import Kind, Status, Tournament, TournamentConfig
from drawpoker.rules import Structure

from .helpers import seed
from .tournament_driver import Driver

LEVELS = (Level(10, 20, 0, 10), Level(15, 30, 0, 10), Level(25, 50, 5, 10))


def sng(n: int = 6, **kw: object) -> TournamentConfig:
    return TournamentConfig(max_entries=n, seats_per_table=min(n, 8), levels=LEVELS, **kw)  # type: ignore[arg-type]


def scheduled(**kw: object) -> TournamentConfig:
    base: dict[str, object] = {
        "kind": Kind.SCHEDULED,
        "max_entries": 100,
        "min_entries": 4,
        "start_at": 1000.0,
        "levels": LEVELS,
        "seats_per_table": 6,
    }
    return TournamentConfig(**(base | kw))  # type: ignore[arg-type]


def test_config_is_checked() -> None:
    with pytest.raises(InvalidConfig, match="seats_per_table"):
        TournamentConfig(seats_per_table=9)
    with pytest.raises(InvalidConfig, match="late registration"):
        TournamentConfig(late_registration_levels=2)
    with pytest.raises(InvalidConfig, match="min_entries"):
        TournamentConfig(kind=Kind.SCHEDULED, min_entries=10, max_entries=5)
    assert TournamentConfig(buy_in=100, fee=9).entry_cost == 109


def test_levels_by_time() -> None:
    assert level_index(LEVELS, 0) == 0
    assert level_index(LEVELS, 599.9) == 0
    assert level_index(LEVELS, 600) == 1
    assert level_index(LEVELS, 10**9) == 2  # the last level stays
    levels = standard_levels(5, antes_from=3)
    assert levels[0].ante == 0
    assert levels[2].ante == levels[2].big_blind // 8
    rules = rules_for(Structure.FIXED_LIMIT, LEVELS[1], 8)
    assert not rules.fl_cap_lifted_heads_up  # R15: tournaments always capped
    assert rules.rake_percent == 0  # R36: no rake in tournaments
    assert (rules.small_blind, rules.big_blind) == (15, 30)


def test_sit_and_go_starts_when_full() -> None:
    t = Tournament(sng(6), seed=b"x")
    for i in range(5):
        t.register(f"p{i}", 0.0)
    assert t.status is Status.REGISTERING
    with pytest.raises(TournamentError, match="already registered"):
        t.register("p1", 0.0)
    assert t.unregister("p4") == 110  # buy-in and fee back
    assert (t.prize_pool, t.fees) == (400, 40)
    t.register("p4", 1.0)
    t.register("p5", 2.0)
    assert t.status is Status.RUNNING
    assert t.started_at == 2.0
    assert len(t.tables) == 1
    assert sorted(t.tables[1].seats) == [1, 2, 3, 4, 5, 6]
    assert (t.prize_pool, t.fees) == (600, 60)
    with pytest.raises(TournamentError, match="registration is closed"):
        t.register("late", 3.0)
    with pytest.raises(TournamentError, match="only before the start"):
        t.unregister("p0")


def test_sit_and_go_over_several_tables() -> None:
    t = Tournament(sng(20), seed=b"x")
    for i in range(20):
        t.register(f"p{i}", 0.0)
    sizes = sorted(len(table.seats) for table in t.tables.values())
    assert sizes == [6, 7, 7]
    seated = [e for table in t.tables.values() for e in table.seats.values()]
    assert sorted(seated) == sorted(t.entries)


def test_scheduled_cancelled_below_the_minimum() -> None:
    t = Tournament(scheduled(), seed=b"x")
    for i in range(3):
        t.register(f"p{i}", 0.0)
    t.tick(999.0)
    assert t.status is Status.REGISTERING
    t.tick(1000.0)
    assert t.status is Status.CANCELLED
    with pytest.raises(TournamentError, match="cancelled"):
        t.register("p9", 1001.0)


def test_scheduled_starts_at_its_time() -> None:
    t = Tournament(scheduled(), seed=b"x")
    for i in range(13):
        t.register(f"p{i}", 0.0)
    t.tick(1000.0)
    assert t.status is Status.RUNNING
    assert sorted(len(table.seats) for table in t.tables.values()) == [4, 4, 5]
    with pytest.raises(TournamentError, match="not registering"):
        t.start(1000.0)


def test_start_needs_two_entries() -> None:
    t = Tournament(scheduled(min_entries=2), seed=b"x")
    t.register("solo", 0.0)
    with pytest.raises(NotEnoughPlayers):
        t.start(0.0)


def test_late_registration_and_reentry() -> None:
    t = Tournament(scheduled(late_registration_levels=2, reentries=1), seed=b"x")
    for i in range(6):
        t.register(f"p{i}", 0.0)
    t.tick(1000.0)
    late = t.register("late", 1100.0)  # level 1: still open
    assert late.table is not None
    with pytest.raises(TournamentError, match="still playing"):
        t.register("late", 1100.0)
    # bust "late" by hand (through the seating: its tables are indexed) and re-enter
    late.stack = 0
    t.seating.unsit(t.tables[late.table], late.seat)  # type: ignore[arg-type]
    t._eliminate([(late.entry_id, 1500)])
    again = t.register("late", 1200.0)
    assert again.entry_id != late.entry_id
    assert again.stack == 1500
    assert [e.entry_id for e in t.entries_of("late")] == [late.entry_id, again.entry_id]
    again.stack = 0
    t.seating.unsit(t.tables[again.table], again.seat)  # type: ignore[index, arg-type]
    t._eliminate([(again.entry_id, 1500)])
    with pytest.raises(TournamentError, match="every re-entry"):
        t.register("late", 1300.0)
    assert (t.prize_pool, t.fees) == (8 * 100, 8 * 10)
    t.tick(1000.0 + 20 * 60)  # level 3: registration closes, the payouts are fixed
    assert not t.registration_open
    with pytest.raises(TournamentError, match="closed"):
        t.register("later", 2300.0)
    assert late.places == (8,)  # the first out of 8 entries
    assert again.places == (7,)


def test_hand_uses_the_level_blinds_and_antes() -> None:
    t = Tournament(sng(3), seed=b"x")
    for i in range(3):
        t.register(f"p{i}", 0.0)
    events = Driver(t).deal(1, 1250.0, seed(1))  # level 3: 25/50, ante 5
    kinds = [(e.kind, e.amount) for e in events if isinstance(e, Posted)]
    assert kinds.count((PostKind.ANTE, 5)) == 3
    assert (PostKind.SMALL_BLIND, 25) in kinds
    assert (PostKind.BIG_BLIND, 50) in kinds
    order = t.tables[1].order
    assert order is not None
    assert (order.level, order.rules.big_blind, order.rules.antes) == (2, 50, 5)
    with pytest.raises(HandInProgress):
        t.start_hand(1, 1250.0)


def test_eliminated_together_more_chips_finishes_higher() -> None:
    t = Tournament(sng(6), seed=b"x")
    for i in range(6):
        t.register(f"p{i}", 0.0)
    assert t.prizes == [390, 210]
    t._eliminate([(1, 300), (2, 900)])  # two out in one hand
    assert t.entries[2].places == (5,)
    assert t.entries[1].places == (6,)
    t._eliminate([(3, 500), (4, 500)])  # equal chips: they share 3rd and 4th
    assert t.entries[3].places == t.entries[4].places == (3, 4)
    t._eliminate([(5, 100), (6, 100)])  # a tie for 1st-2nd would share 390 + 210
    assert t.entries[5].places == (1, 2)
    assert t.entries[5].prize + t.entries[6].prize == 600
    assert {t.entries[5].prize, t.entries[6].prize} == {300}


def test_tied_bubble_players_share_the_prize() -> None:
    t = Tournament(sng(9), seed=b"x")
    for i in range(9):
        t.register(f"p{i}", 0.0)
    for k in range(1, 6):
        t._eliminate([(k, 1000 + k)])
    t._eliminate([(6, 700), (7, 700)])  # 4th and 3rd: 180 shared
    assert t.entries[6].prize + t.entries[7].prize == 180
    assert t.entries[6].places == (3, 4)


def test_hands_at_tables_and_chips_conserved() -> None:
    t = Tournament(sng(16), seed=b"x")
    for i in range(16):
        t.register(f"p{i}", 0.0)
    total = t.chips_in_play()
    assert total == 16 * 1500
    rng = random.Random(1)
    now = 0.0
    driver = Driver(t)
    for n in range(30):
        ready = t.ready_tables()
        for table_id in ready:
            driver.deal(table_id, now, seed(100 + n * 10 + table_id))
        assert t.chips_in_play() == total  # the stacks before the hands in play
        for table_id in ready:
            if table_id in t.tables:
                driver.play(table_id, now + 30, rng)
                assert t.chips_in_play() == total  # players may move into busy tables
        assert t.chips_in_play() == total
        sizes = [len(table.seats) for table in t.tables.values()]
        assert max(sizes) - min(sizes) <= 1
        now += 60.0
        if t.status is not Status.RUNNING:
            break
    assert t.hands_played >= 30


def test_hand_for_hand_on_the_bubble() -> None:
    """Near the money every table plays one hand and waits for the others."""
    config = TournamentConfig(max_entries=24, seats_per_table=4, levels=LEVELS)
    t = Tournament(config, seed=b"bubble")
    for i in range(24):
        t.register(f"p{i}", 0.0)
    paid = len(t.prizes)
    rng = random.Random(5)
    now = 0.0
    seen_hfh = False
    driver = Driver(t)
    for n in range(3000):
        if t.status is not Status.RUNNING:
            break
        ready = t.ready_tables()
        if t.hand_for_hand and len(ready) >= 2:
            seen_hfh = True
            alive_before = len(t.alive)
            first, *others = ready
            driver.deal(first, now, seed(7 * n))  # one table deals before the others
            driver.play(first, now, rng)
            assert first not in t.ready_tables()  # and waits until they have played
            assert not t.is_ready(first)
            for table_id in others:
                if table_id in t.ready_tables():
                    driver.deal(table_id, now, seed(7 * n + table_id))
            for table_id in others:
                if table_id in t.tables:
                    driver.play(table_id, now, rng)
            assert t._hfh_round is None  # the round is over
            out = alive_before - len(t.alive)
            groups = {e.eliminated for e in t.entries.values() if e.eliminated}
            if out:
                last = max(groups)
                together = [e for e in t.entries.values() if e.eliminated == last]
                assert len(together) == out  # one elimination group per round
        else:
            for table_id in ready:
                driver.deal(table_id, now, seed(7 * n + table_id))
            for table_id in ready:
                if table_id in t.tables:
                    driver.play(table_id, now, rng)
        now += 60.0
        assert len(t.alive) > paid or not t.hand_for_hand
    assert seen_hfh
    assert t.status is Status.FINISHED


def drive(t: Tournament, rounds: int, rng: random.Random, now: float) -> float:
    return Driver(t).run(rounds, rng, now)


def test_state_round_trip_between_hands() -> None:
    t = Tournament(TournamentConfig(max_entries=30, levels=LEVELS), seed=b"persist")
    for i in range(30):
        t.register(f"p{i}", 0.0)
    now = drive(t, 15, random.Random(1), 0.0)
    data = json.loads(json.dumps(tournament_serial.to_dict(t)))
    copy, events = tournament_serial.from_dict(data)
    assert events == {}
    assert tournament_serial.to_dict(copy) == tournament_serial.to_dict(t)
    drive(t, 10_000, random.Random(2), now)
    drive(copy, 10_000, random.Random(2), now)
    assert t.status is Status.FINISHED
    assert copy.results() == t.results()


def test_restore_mid_hand_cancels_the_hands() -> None:
    t = Tournament(TournamentConfig(max_entries=20, levels=LEVELS), seed=b"crash")
    for i in range(20):
        t.register(f"p{i}", 0.0)
    rng = random.Random(3)
    driver = Driver(t)
    now = driver.run(5, rng, 0.0)
    before = {e.entry_id: e.stack for e in t.entries.values()}
    ready = t.ready_tables()
    for table_id in ready:
        driver.deal(table_id, now, rng.randbytes(32))
    table_id, other = ready[0], ready[1]
    driver.act_once(table_id, now, rng)
    next_seq = driver.tables[table_id].next_seq  # the table's, beyond what was saved
    other_order = driver.tables[other].order
    assert other_order is not None
    data = json.loads(json.dumps(tournament_serial.to_dict(t)))
    copy, events = tournament_serial.from_dict(data, next_seqs={table_id: next_seq})
    assert sorted(events) == sorted(ready)
    [cancelled] = events[table_id]
    assert isinstance(cancelled, HandCancelled)
    assert cancelled.seq == next_seq
    [cancelled] = events[other]  # no later number known: the hand's first
    assert isinstance(cancelled, HandCancelled)
    assert cancelled.seq == other_order.first_seq
    assert {e.entry_id: e.stack for e in copy.entries.values()} == before
    assert copy.chips_in_play() == 20 * 1500
    assert sorted(copy.ready_tables()) == sorted(ready)
    drive(copy, 10_000, rng, now)
    assert copy.status is Status.FINISHED


def test_entries_capped_during_late_registration_too() -> None:
    t = Tournament(scheduled(max_entries=5, late_registration_levels=2))
    for i in range(4):
        t.register(f"p{i}", 0.0)
    t.tick(1000.0)
    t.register("late", 1001.0)
    with pytest.raises(TournamentError, match="full"):
        t.register("later", 1002.0)
    table_id = t.ready_tables()[0]
    driver = Driver(t)
    driver.deal(table_id, 1003.0)  # no seed: a fresh one from secrets
    assert t.tables[table_id].in_hand
    assert driver.tables[table_id].in_hand


# ------------------------------------------------- the big blind twice in a row


def arranged(cap: int, tables: dict[int, tuple[int, dict[int, bool]]]) -> Tournament:
    """A running tournament whose tables are set by hand, all between hands:
    ``{table: (last big blind seat, {seat: posted the big blind last hand})}``.
    The players are entries 1, 2, ... in the order given. (Built as a saved
    tournament and restored: the seating is indexed, so it is set as a whole.)"""
    n = sum(len(seats) for _, seats in tables.values())
    t = Tournament(
        TournamentConfig(max_entries=n, seats_per_table=cap, levels=LEVELS), seed="arranged"
    )
    for i in range(n):
        t.register(f"p{i + 1}", 0.0)
    assert t.status is Status.RUNNING
    data = tournament_serial.to_dict(t)
    rows = {row[0]: row for row in data["entries"]}
    data["tables"] = []
    entry = 0
    for table_id, (last_bb, seats) in tables.items():
        row: dict[str, object] = {
            "id": table_id,
            "seats": {},
            "button": (last_bb - 3) % cap + 1,
            "last_big_blind": last_bb,
            "last_sb_position": (last_bb - 2) % cap + 1,
            "hands_played": 5,
            "next_seq": 1,
            "in_hand": False,
            "positions_before": [None, None, None],
            "level": 0,
            "hfh_round": False,
            "hfh_started": False,
        }
        for seat, posted in seats.items():
            entry += 1
            row["seats"][str(seat)] = entry  # type: ignore[index]
            rows[entry][3:5] = [table_id, seat]
            rows[entry][8] = posted
        data["tables"].append(row)
    data["next_table"] = max(tables) + 1
    restored, _ = tournament_serial.from_dict(data)
    return restored


def big_blind_of_next_hand(t: Tournament, table_id: int) -> tuple[int, bool]:
    """The entry that posts the big blind at ``table_id``'s next hand, and whether
    they had posted it in their last hand too."""
    plan = t.start_hand(table_id, 10.0).plan
    assert t.tables[table_id].plan == plan
    entry = t.tables[table_id].seats[plan.big_blind]
    return entry, t.entries[entry].posted_big_blind


def test_balancing_does_not_take_a_tables_only_player_due_the_big_blind() -> None:
    # Found by the random tournaments (49 players, 4 seats, pot limit, seed "0.8748"):
    # two broken tables sent their big blinds (entries 3 and 4 here) to table 1,
    # whose own big blind (entry 1, seat 1) had just posted; table 3 then lost two
    # players, and balancing moved the one player of table 1 due the big blind
    # (entry 2, seat 2). Everyone left at table 1 had posted the big blind last hand.
    t = arranged(4, {1: (1, {1: True, 2: False, 3: True, 4: True}), 3: (4, {1: False, 4: True})})
    [move] = t.balance(5.0)
    assert (move.from_table, move.to_table) == (1, 3)
    assert move.entry_id != 2  # not the only one at table 1 who did not just post it
    assert sorted(len(table.seats) for table in t.tables.values()) == [3, 3]
    for table_id in (1, 3):
        entry, twice = big_blind_of_next_hand(t, table_id)
        assert not twice, (table_id, entry)


def test_a_table_of_big_blinds_swaps_a_player_with_a_table_between_hands() -> None:
    # Found by the random tournaments (65 players, 3 seats, no limit, seed "0.7649"):
    # a broken table's big blind (entry 2) was moved into seat 3 of a heads-up table
    # in a hand; the player there who was not in the big blind went out, leaving two
    # players who had both just posted it. Another table between hands has two
    # players who did not: one of them swaps with one of the big blinds.
    t = arranged(3, {5: (1, {1: True, 3: True}), 3: (3, {1: False, 2: False, 3: True})})
    moves = t.balance(5.0)
    assert len(moves) == 2  # a swap: the table sizes stay
    assert sorted((m.from_table, m.to_table) for m in moves) == [(3, 5), (5, 3)]
    assert {len(t.tables[5].seats), len(t.tables[3].seats)} == {2, 3}
    for table_id in (5, 3):
        entry, twice = big_blind_of_next_hand(t, table_id)
        assert not twice, (table_id, entry)


def test_the_last_two_big_blinds_cannot_avoid_it() -> None:
    # Found by the random tournaments (31 players, 3 seats, fixed limit, seed ""): the
    # last four players sat two by two at two tables (3 seats: no table takes four).
    # In the same round table 4 (entry 16 in the big blind, seat 2) and table 5
    # (entry 23 in the big blind, seat 1) each lost their other player. Table 5 is
    # broken; entry 23 goes to table 4, seat 3. Both players left posted the big
    # blind in their last hand: one of them must post it again, whatever the seats.
    t = arranged(3, {4: (2, {2: True}), 5: (1, {1: True})})
    [move] = t.balance(5.0)
    assert (move.entry_id, move.from_table, move.to_table, move.to_seat) == (2, 5, 4, 3)
    assert list(t.tables) == [4]
    entry, twice = big_blind_of_next_hand(t, 4)
    assert twice  # unavoidable: nobody else is left
    plan = t.tables[4].plan
    assert plan is not None
    # R7 still holds: the big blind moves on from seat 2 to the next player, the
    # newcomer in seat 3; heads-up the other player has the button and small blind.
    assert (plan.big_blind, plan.button, plan.small_blind) == (3, 2, 2)
    assert entry == 2
