"""The messages between a tournament and its tables: orders, finished hands,
cancelled hands, seating changes, saved changes."""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drawpoker.actions import Action
from drawpoker.errors import IllegalAction
from drawpoker.events import HandEnded, HandStarted
from drawpoker.fairness import contribution_digest, mix
from drawpoker.room import tournament_serial
from drawpoker.room.errors import HandInProgress, TournamentError
from drawpoker.room.events import HandCancelled
from drawpoker.room.structure import Level, standard_levels
from drawpoker.room.tournament import Status, Tournament, TournamentConfig
from drawpoker.room.tournament_orders import (
    HandFinished,
    HandOrder,
    SeatedPlayer,
    TableSeats,
)
from drawpoker.room.tournament_serial import apply_save_changes
from drawpoker.room.tournament_table import TournamentTable
from drawpoker.rules import Structure
from drawpoker.tools.tournament_sim import simple_policy, simulate, sit_and_go_config

from .helpers import seed
from .tournament_driver import Driver

LEVELS = (Level(10, 20, 0, 10), Level(15, 30, 0, 10), Level(25, 50, 5, 10))
GOLDEN = Path(__file__).parent.parent / "golden" / "tournament"


def running(players: int = 20, seats: int = 6, name: str = "") -> Tournament:
    config = TournamentConfig(max_entries=players, seats_per_table=seats, levels=LEVELS)
    t = Tournament(config, seed=b"protocol", name=name)
    for i in range(players):
        t.register(f"p{i}", 0.0)
    assert t.status is Status.RUNNING
    return t


def played_out(t: Tournament, table: TournamentTable, rng: random.Random) -> HandFinished:
    """Play the table's hand to its end without telling the tournament."""
    while table.in_hand:
        hand = table.hand
        assert hand is not None
        legal = hand.legal_actions()
        assert legal is not None
        table.act(simple_policy(hand, legal, rng), 0.0)
    assert table.finished is not None
    return table.finished


def state(t: Tournament) -> str:
    return json.dumps([tournament_serial.to_dict(t), [repr(n) for n in t.notices], t.hands_played])


# ------------------------------------------------------------------ orders


def test_an_order_is_everything_a_table_needs() -> None:
    t = running(name="cup")
    order = t.start_hand(2, 700.0)  # level 2
    table = t.tables[2]
    assert order.table_id == 2
    assert order.hand_id == "cup-2-1"
    assert order.number == 1
    assert order.level == 1
    assert (order.rules.small_blind, order.rules.big_blind) == (15, 30)
    assert order.rules.rake_percent == 0
    assert order.seats == {
        seat: SeatedPlayer(e, t.entries[e].player, 1500) for seat, e in table.seats.items()
    }
    assert order.plan.dealt == tuple(sorted(table.seats))
    assert order.first_seq == 1
    assert table.order is order
    assert table.in_hand
    assert 2 not in t.ready_tables()
    assert not t.is_ready(2)
    with pytest.raises(HandInProgress, match="cup-2-1 is being played"):
        t.start_hand(2, 700.0)
    with pytest.raises(TournamentError, match="no table 9"):
        t.start_hand(9, 700.0)
    # an order goes over the wire unchanged
    again = HandOrder.from_dict(json.loads(json.dumps(order.to_dict())))
    assert again == order


def test_the_table_deals_exactly_the_order() -> None:
    t = running()
    order = t.start_hand(1, 0.0)
    table = TournamentTable(1)
    events = table.start_hand(order, seed=seed(3))
    started = events[0]
    assert isinstance(started, HandStarted)
    assert started.hand_id == order.hand_id
    assert started.seq == order.first_seq
    assert started.button == order.plan.button
    assert dict(started.stacks) == order.stacks()
    assert table.seats == order.seats
    assert table.in_hand
    assert table.finished is None
    with pytest.raises(HandInProgress):
        table.reseat({})
    with pytest.raises(HandInProgress):
        table.start_hand(order, seed=seed(4))
    with pytest.raises(TournamentError, match="order for table 1"):
        TournamentTable(2).start_hand(order, seed=seed(3))
    hand = table.hand
    assert hand is not None
    assert hand.to_act is not None
    not_to_act = next(s for s in order.plan.dealt if s != hand.to_act)
    with pytest.raises(IllegalAction, match=f"seat {not_to_act} is not to act"):
        table.timeout(not_to_act, 0.0)
    table.timeout(hand.to_act, 0.0)  # R47: checks or folds
    finished = played_out(t, table, random.Random(1))
    ended = hand.events[-1]
    assert isinstance(ended, HandEnded)
    assert finished == HandFinished(
        table_id=1, hand_id=order.hand_id, stacks=dict(ended.stacks), next_seq=ended.seq + 1
    )
    assert HandFinished.from_dict(json.loads(json.dumps(finished.to_dict()))) == finished
    for seat, chips in ended.stacks:  # the table shows what the hand left
        assert table.seats[seat].stack == chips == table.stack(seat)
    with pytest.raises(HandInProgress, match="no hand"):
        table.act(Action.fold(1), 0.0)
    assert table.take_finished() == finished  # handed over: the table lets the hand go
    assert table.hand is None
    assert table.finished is None
    with pytest.raises(HandInProgress, match="no hand is over"):
        table.take_finished()


def test_finish_hand_refuses_what_does_not_match_and_changes_nothing() -> None:
    t = running()
    order = t.start_hand(1, 0.0)
    table = TournamentTable(1, order.seats)
    table.start_hand(order, seed=seed(5))
    good = played_out(t, table, random.Random(2))
    t.start_hand(2, 0.0)  # another table in a hand: untouched by what follows
    before = state(t)
    stacks = dict(good.stacks)
    a, b, *_ = sorted(stacks)
    hand_id, nxt = good.hand_id, good.next_seq
    bad = [
        ((9, hand_id, stacks, nxt), "no table 9"),
        ((3, hand_id, stacks, nxt), "table 3: no hand is being played"),
        ((1, "T-1-2", stacks, nxt), "table 1 is playing hand T-1-1, not 'T-1-2'"),
        ((1, hand_id, {k: v for k, v in stacks.items() if k != a}, nxt), "were dealt in"),
        ((1, hand_id, {**stacks, 7: 0}, nxt), "were dealt in"),
        ((1, hand_id, {**stacks, a: stacks[a] + 1}, nxt), "started with"),
        ((1, hand_id, {**stacks, a: stacks[a] - 1}, nxt), "no rake"),
        (
            (1, hand_id, {**stacks, a: -1, b: stacks[b] + stacks[a] + 1}, nxt),
            f"seat {a} ends with -1 chips",
        ),
        ((1, hand_id, {**stacks, a: float(stacks[a])}, nxt), "ends with"),
        ((1, hand_id, stacks, order.first_seq), "is not after the hand's first event"),
    ]
    for args, message in bad:
        with pytest.raises(TournamentError, match=message):
            t.finish_hand(*args, now=0.0)  # type: ignore[arg-type]
        assert state(t) == before, message
    summary = t.hand_finished(good, 0.0)
    assert summary.hand_id == hand_id
    assert summary.dealt == tuple(order.seats[s].entry_id for s in order.plan.dealt)
    bb_seat = order.plan.big_blind
    assert summary.big_blind == order.seats[bb_seat].entry_id
    assert t.entries[summary.big_blind].posted_big_blind
    assert t.tables[1].next_seq == nxt
    assert not t.tables[1].in_hand
    with pytest.raises(TournamentError, match="no hand is being played"):
        t.hand_finished(good, 0.0)  # the same message twice: refused
    assert t.chips_in_play() == 20 * 1500


def test_cancel_hand_puts_everything_back() -> None:
    t = running()
    rng = random.Random(3)
    driver = Driver(t)
    driver.run(3, rng, 0.0)
    table_state = t.tables[1]
    positions = (table_state.button, table_state.last_big_blind, table_state.last_sb_position)
    stacks = {e: t.entries[e].stack for e in table_state.seats.values()}
    order = t.start_hand(1, 200.0)
    table = driver.tables[1]
    table.start_hand(order, seed=seed(9))
    for _ in range(3):
        hand = table.hand
        assert hand is not None
        legal = hand.legal_actions()
        assert legal is not None
        table.act(simple_policy(hand, legal, rng), 200.0)
    with pytest.raises(TournamentError, match="not 'T-1-99'"):
        t.cancel_hand(1, "T-1-99", 200.0)
    with pytest.raises(TournamentError, match="before the hand's first event"):
        t.cancel_hand(1, order.hand_id, 200.0, next_seq=order.first_seq - 1)
    cancelled = t.cancel_hand(1, order.hand_id, 200.0, next_seq=table.next_seq)
    assert isinstance(cancelled, HandCancelled)
    assert cancelled.seq == table.next_seq
    assert cancelled.hand_id == order.hand_id
    assert dict(cancelled.stacks) == {s: t.entries[e].stack for s, e in table_state.seats.items()}
    assert {e: t.entries[e].stack for e in table_state.seats.values()} == stacks
    assert (table_state.button, table_state.last_big_blind, table_state.last_sb_position) == (
        positions
    )
    assert not table_state.in_hand
    assert t.is_ready(1)
    with pytest.raises(TournamentError, match="no hand is being played"):
        t.hand_finished(played_out(t, table, rng), 200.0)  # too late: cancelled
    again = t.start_hand(1, 200.0)  # dealt again in place, as a new hand
    assert again.plan == order.plan
    assert again.number == order.number + 1
    assert again.first_seq == cancelled.seq + 1
    assert again.seats == order.seats


def test_seating_changes_name_exactly_the_tables_whose_seating_changed() -> None:
    t = running(players=60, seats=6)
    rng = random.Random(4)
    driver = Driver(t)
    now = 0.0
    changed_seen = broken_seen = 0
    while t.status is Status.RUNNING:
        ready = t.ready_tables()
        for table_id in ready:
            driver.deal(table_id, now, rng.randbytes(32))
        for table_id in ready:
            table = driver.tables[table_id]
            message = played_out(t, table, rng)
            seats = {k: dict(v.seats) for k, v in t.tables.items()}
            t.hand_finished(message, now)
            after = {k: dict(v.seats) for k, v in t.tables.items()}
            expected = {k for k in seats.keys() | after.keys() if seats.get(k) != after.get(k)}
            changes = t.take_seating_changes()
            assert changes == expected
            for table_id in changes:
                told = t.table_seats(table_id)
                assert isinstance(told, TableSeats)
                assert told.closed == (table_id not in t.tables or t.status is Status.FINISHED)
                broken_seen += told.closed
                if not told.closed:
                    assert {s: p.entry_id for s, p in told.seats.items()} == after[table_id]
                    driver.held.add(table_id)  # given when its hand is over (or now)
            changed_seen += len(changes)
            for table_id in list(driver.held):
                if table_id not in t.tables:
                    driver.held.discard(table_id)
                    driver.tables.pop(table_id, None)
                elif not driver.tables[table_id].in_hand:
                    driver.held.discard(table_id)
                    driver.tables[table_id].reseat(t.table_seats(table_id).seats)
        now += 60.0
    assert changed_seen > 20
    assert broken_seen >= 9


def test_only_the_changed_tables_are_saved() -> None:
    t = running(players=40)
    doc = tournament_serial.take_save_changes(t)  # the first time: everything
    assert doc == tournament_serial.to_dict(t)
    rng = random.Random(6)
    driver = Driver(t)
    now = 0.0
    while t.status is Status.RUNNING:
        ready = t.ready_tables()
        for table_id in ready:
            driver.deal(table_id, now, rng.randbytes(32))
            changes = tournament_serial.take_save_changes(t)
            ids = [row["id"] for row in changes["tables"]]
            assert ids == [table_id] or (t.hand_for_hand and table_id in ids)  # a new round
            assert changes["entries"] == []
            doc = apply_save_changes(doc, json.loads(json.dumps(changes)))
        for table_id in ready:
            driver.play(table_id, now, rng)
            changes = tournament_serial.take_save_changes(t)
            assert "config" not in changes["header"]
            doc = apply_save_changes(doc, json.loads(json.dumps(changes)))
            assert doc == tournament_serial.to_dict(t)
        now += 60.0
    assert doc == tournament_serial.to_dict(t)


def test_format_1_is_still_read() -> None:
    """A tournament saved by the format-1 code in the middle of hands at tables
    1, 3 and 4 (table 1 three actions in)."""
    data = json.loads((GOLDEN / "format-1-mid-hand.json").read_text())
    assert data["version"] == 1
    t, events = tournament_serial.from_dict(data)
    assert sorted(events) == [1, 3, 4]
    for table_id, [cancelled] in events.items():
        row = next(r for r in data["tables"] if r["id"] == table_id)
        assert isinstance(cancelled, HandCancelled)
        assert cancelled.seq == row["next_seq"]
        assert cancelled.hand_id == f"v1-{table_id}-{row['hands_played']}"
        assert t.tables[table_id].next_seq == row["next_seq"] + 1
        before = row["positions_before"]
        table = t.tables[table_id]
        assert [table.button, table.last_big_blind, table.last_sb_position] == before
    assert t.chips_in_play() == 20 * 1500
    assert tournament_serial.to_dict(t)["version"] == 2
    assert t.take_seating_changes() == set(t.tables)  # every table is told its seating
    Driver(t).run(10_000, random.Random(8), 1000.0)
    assert t.status is Status.FINISHED
    assert sum(e.prize for e in t.entries.values()) == t.prize_pool == 2000


# ----------------------------------------------- random tournaments by messages


@settings(max_examples=12, deadline=None)
@given(
    players=st.integers(2, 40),
    seats=st.integers(2, 8),
    structure=st.sampled_from(list(Structure)),
    seed_text=st.text(max_size=6),
)
def test_random_tournaments_through_the_messages(
    players: int, seats: int, structure: Structure, seed_text: str
) -> None:
    """Orders, actions at tables in any order, cancelled hands and finished hands
    in any order: the chips stay, everybody is seated once, the saved changes
    rebuild the tournament, and places and prizes come out whole."""
    config = sit_and_go_config(
        players, structure, seats_per_table=min(seats, players), levels=standard_levels(5.0)
    )
    rng = random.Random(seed_text)
    t = Tournament(config, seed=seed_text)
    doc = tournament_serial.take_save_changes(t)
    for i in range(players):
        t.register(f"b{i}", 0.0)
    driver = Driver(t)
    total = players * config.starting_stack
    now = 0.0
    for _step in range(200_000):
        if t.status is not Status.RUNNING:
            break
        playing = [k for k, table in driver.tables.items() if table.in_hand]
        ready = t.ready_tables()
        roll = rng.random()
        if ready and (not playing or roll < 0.3):
            driver.deal(rng.choice(ready), now, rng.randbytes(32))
        elif playing and roll < 0.31:
            table_id = rng.choice(playing)
            table = driver.tables[table_id]
            order = table.order
            assert order is not None
            t.cancel_hand(table_id, order.hand_id, now, next_seq=table.next_seq)
            driver.tables[table_id] = TournamentTable(table_id, t.table_seats(table_id).seats)
            driver.held.discard(table_id)
            driver.sync()
        elif playing:
            driver.act_once(rng.choice(playing), now, rng)
        now += 5.0
        t.seating.check()  # the index agrees with the tables and with room.balancing
        assert t.chips_in_play() == total
        seated = [e for table in t.tables.values() for e in table.seats.values()]
        assert len(seated) == len(set(seated))
        assert {e.entry_id for e in t.alive} >= set(seated)
        if t.status is Status.RUNNING:  # at the end the winner leaves the table
            assert len(seated) + len(t._pending_busts) == t.alive_count
        in_hand = {k for k, table in t.tables.items() if table.in_hand}
        assert in_hand == {k for k, table in driver.tables.items() if table.in_hand}
        for k, table in driver.tables.items():
            if k not in driver.held:
                assert {s: p.entry_id for s, p in table.seats.items()} == t.tables[k].seats
        if rng.random() < 0.05:
            doc = apply_save_changes(doc, tournament_serial.take_save_changes(t))
            assert doc == tournament_serial.to_dict(t)
    assert t.status is Status.FINISHED
    n = len(t.entries)
    winners = [e for e in t.entries.values() if e.places == (1,)]
    assert len(winners) == 1
    assert winners[0].stack == total
    groups = Counter(e.places for e in t.entries.values())
    assert all(len(places) == count for places, count in groups.items())
    assert sorted(p for places in groups for p in places) == list(range(1, n + 1))
    assert sum(e.prize for e in t.entries.values()) == t.prize_pool
    assert apply_save_changes(
        doc, tournament_serial.take_save_changes(t)
    ) == tournament_serial.to_dict(t)


# ------------------------------------------------------ the work per hand


def work_per_hand(players: int, rounds: int) -> float:
    """Tables examined by balancing (big-blind risks worked out) per finished hand."""
    t = Tournament(sit_and_go_config(players), seed="work")
    for i in range(players):
        t.register(f"b{i}", 0.0)
    driver = Driver(t)
    driver.run(rounds, random.Random(1), 0.0)
    return t.seating.examined / len(driver.summaries)


def test_balancing_work_per_hand_does_not_grow_with_the_tables() -> None:
    # 100 tables and 1,000 tables, the same number of rounds: the old algorithm
    # worked out the risk at every table after every hand (about 50 and 500 a hand).
    small = work_per_hand(800, 6)
    large = work_per_hand(8_000, 6)
    assert small < 4
    assert large < 4
    assert large < 1.5 * small


@pytest.mark.slow
def test_ten_thousand_players() -> None:
    result = simulate(sit_and_go_config(10_000), 10_000, seed="ten thousand")
    t = result.tournament
    assert t.status is Status.FINISHED
    assert sum(e.prize for e in t.entries.values()) == t.prize_pool == 1_000_000
    assert len(t.prizes) == 1500
    assert result.max_table_spread <= 1
    assert result.big_blind_twice == result.big_blind_twice_forced
    assert t.seating.examined < 4 * result.hands


def test_what_shrinks_is_copied_small() -> None:
    """Dicts never shrink, and walking one costs its peak: the tables and the
    living entries are copied as the field shrinks (else a late hand of a big
    tournament would pay for every table and entry there ever was)."""
    result = simulate(sit_and_go_config(2_000), 2_000, seed="shrink")
    t = result.tournament
    assert len(t.tables) == 1
    assert sys.getsizeof(t.tables) < sys.getsizeof({k: k for k in range(16)})
    assert sys.getsizeof(t._alive) < sys.getsizeof({k: k for k in range(16)})
    assert len(t.seating._risk_check) <= 1


def test_a_tournament_table_mixes_its_players_entropy_in() -> None:
    """docs/fairness.md: the seated players' texts go into the next hand's seed,
    the room's seed was committed before; the seed stays the server's."""
    t = running()
    order = t.start_hand(1, 0.0)
    table = TournamentTable(1, order.seats)
    committed = table.next_commitment
    seat = order.plan.dealt[0]
    table.contribute(seat, "my luck")
    with pytest.raises(TournamentError, match="nobody sits at seat 99"):
        table.contribute(99, "x")
    events = table.start_hand(order)
    started = events[0]
    assert isinstance(started, HandStarted)
    assert started.server_commitment == committed
    assert started.entropy == ((seat, contribution_digest("my luck")),)
    hand = table.hand
    assert hand is not None
    assert hand.deal is not None
    assert hand.seed == mix(hand.deal.server_seed, started.entropy)
    assert not hand.reveal_seed
