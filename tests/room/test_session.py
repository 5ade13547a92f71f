"""The table session: turns and their clock, the time bank, pre-actions, absent
players -- and, above all, that nothing but a decision in the hand (or the time
bank, once) moves the running clock of the player to act."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drawpoker.actions import Action
from drawpoker.errors import IllegalAction
from drawpoker.events import Folded, Street, TimedOut
from drawpoker.room.clock import ClockConfig, Turn
from drawpoker.room.session import (
    PreActionCancelled,
    TableSession,
    TimeBankStarted,
    TurnStarted,
)
from drawpoker.room.table import CashTable, TableConfig
from drawpoker.rules import Rules

from .helpers import seed

RULES = Rules.online(structure="no-limit", small_blind=1, big_blind=2, max_seats=6)
CLOCK = ClockConfig(action_s=20.0, draw_s=30.0, time_bank_s=10.0, bank_refill_s=2.0)


def dealt(*seats: int, clock: ClockConfig = CLOCK, n: int = 1) -> tuple[CashTable, TableSession]:
    table = CashTable("t", TableConfig.in_big_blinds(RULES))
    for s in seats:
        table.sit(f"p{s}", s, 100)
    session = TableSession(table, clock)
    for s in seats:
        session.clock.seat(s)
    step = session.after(table.start_hand(0.0, seed=seed(n)), 0.0)
    assert isinstance(step[-1], TurnStarted)
    return table, session


def turn_of(session: TableSession) -> Turn:
    turn = session.clock.turn
    assert turn is not None
    return turn


def test_a_turn_starts_with_the_action_clock_and_times_out_at_its_deadline() -> None:
    table, session = dealt(1, 2, 3)
    turn = turn_of(session)
    assert (turn.seat, turn.deadline) == (table.to_act, 20.0)
    session.clock.banks[turn.seat] = 0.0
    assert session.expire(19.9) == []
    step = session.expire(20.0)
    assert any(isinstance(e, TimedOut) and e.seat == turn.seat for e in step)
    assert any(isinstance(e, Folded) and e.seat == turn.seat for e in step)  # facing the blind
    nxt = turn_of(session)
    assert nxt.seat != turn.seat
    assert nxt.started_at == 20.0
    assert nxt.deadline == 40.0


def test_the_time_bank_runs_once_and_keeps_what_is_not_used() -> None:
    _table, session = dealt(1, 2, 3)
    seat = turn_of(session).seat
    [bank] = session.expire(20.0)
    assert bank == TimeBankStarted(seat, 10.0, turn_of(session).hand_id)
    assert turn_of(session).deadline == 30.0
    assert turn_of(session).bank
    assert session.clock.bank(seat, 24.0) == 6.0  # counting down
    session.act(Action.call(seat), 24.0)  # acted with 6 s left in the bank
    assert session.clock.banks[seat] == 6.0
    assert turn_of(session).seat != seat


def test_the_bank_runs_once_per_turn_and_not_in_the_draw() -> None:
    table, session = dealt(1, 2)  # heads-up: the button (small blind) acts first
    seat = turn_of(session).seat
    session.expire(20.0)  # the bank starts
    step = session.expire(30.0)  # ... and runs out: time-out, and the hand is over
    assert any(isinstance(e, TimedOut) for e in step)
    assert table.hand is None
    assert session.clock.banks[seat] == CLOCK.bank_refill_s  # empty, then refilled
    table, session = dealt(1, 2, 3, n=2)
    while turn_of(session).street is not Street.DRAW:
        legal = table.hand.legal_actions()  # type: ignore[union-attr]
        assert legal is not None
        session.act(Action.check(legal.seat) if legal.check else Action.call(legal.seat), 1.0)
    turn = turn_of(session)
    assert turn.deadline == 1.0 + CLOCK.draw_s
    step = session.expire(turn.deadline)  # no bank in the draw: stands pat at once
    assert next(e for e in step if isinstance(e, TimedOut)).seat == turn.seat


def test_reconnecting_leaving_the_table_view_and_sitting_out_leave_the_clock_alone() -> None:
    table, session = dealt(1, 2, 3)
    turn = turn_of(session)
    seat = turn.seat
    other = next(s for s in table.dealt_in() if s != seat)
    for now, events in (
        (5.0, table.disconnect(seat, 5.0)),
        (6.0, table.reconnect(seat, 6.0)),
        (7.0, table.sit_out(seat)),
        (8.0, table.sit_in(seat)),
        (9.0, table.disconnect(other, 9.0)),
        (10.0, table.sit_out(other)),
    ):
        assert session.after(events, now) == []
        assert turn_of(session) == turn


def test_a_pre_action_that_does_not_apply_on_your_turn_leaves_the_clock() -> None:
    _table, session = dealt(1, 2, 3)
    turn = turn_of(session)
    seat = turn.seat  # facing the big blind: check is not possible
    with pytest.raises(IllegalAction, match="check is not possible"):
        session.pre_action(seat, "check", 5.0)
    assert session.pre_action(seat, "draw", 6.0, ()) == []  # held for the draw
    assert turn_of(session) == turn
    step = session.pre_action(seat, "fold_any", 7.0)  # applies at once: folds
    assert any(isinstance(e, Folded) and e.seat == seat for e in step)
    assert turn_of(session).seat != seat


def test_pre_actions_are_carried_out_or_cancelled_when_the_turn_comes() -> None:
    table, session = dealt(1, 2, 3, 4)
    plan = table.plan
    assert plan is not None
    assert plan.button == 1
    assert turn_of(session).seat == 4
    session.pre_action(2, "call", 1.0)  # the small blind: call 1 more
    session.pre_action(1, "call_any", 1.0)
    session.pre_action(3, "check_fold", 1.0)
    step = session.act(Action.bet(4, 8), 2.0)  # a raise to 8: the prices change
    called = [(type(e).__name__, getattr(e, "seat", None)) for e in step]
    assert ("Called", 1) in called  # call any: carried out at once
    assert PreActionCancelled(2, "call", table.hand.hand_id) in step  # type: ignore[union-attr]
    assert turn_of(session).seat == 2  # the small blind decides now, on a fresh clock
    assert turn_of(session).started_at == 2.0
    step = session.act(Action.fold(2), 3.0)
    assert PreActionCancelled(3, "check_fold", table.hand.hand_id) in step  # type: ignore[union-attr]
    assert turn_of(session).seat == 3


def test_an_absent_player_is_played_at_once_where_the_table_says_so() -> None:
    table = CashTable("t", TableConfig.in_big_blinds(RULES))
    for s in (1, 2, 3):
        table.sit(f"p{s}", s, 100)
    session = TableSession(table, CLOCK, absent_acts_now=True)
    session.absent = {1, 2, 3}
    step = session.after(table.start_hand(0.0, seed=seed(2)), 0.0)
    assert not any(isinstance(e, TurnStarted) for e in step)
    assert table.hand is None  # everyone checked or folded, stood pat: the hand is over


ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(["act", "pre", "disconnect", "reconnect", "sit_out", "sit_in", "expire"]),
        st.integers(0, 5),
        st.floats(0.0, 3.0),
    ),
    max_size=60,
)


@settings(max_examples=150, deadline=None)
@given(ACTIONS, st.integers(1, 10_000))
def test_only_a_decision_or_the_bank_moves_the_deadline(
    script: list[tuple[str, int, float]], n: int
) -> None:
    """Whatever players do besides deciding, the turn in play keeps its deadline;
    a new turn begins exactly when the hand's event count changed."""
    table, session = dealt(1, 2, 3, 4, n=n)
    now = 0.0
    pres = ["check", "check_fold", "call", "call_any", "fold_any", "draw"]
    for what, k, dt in script:
        hand = table.hand
        if hand is None:
            break
        now += dt
        before = session.clock.turn
        seq = hand.next_seq
        seat = [1, 2, 3, 4][k % 4]
        try:
            if what == "act":
                legal = hand.legal_actions()
                assert legal is not None
                action = (
                    Action.stand_pat(legal.seat)
                    if legal.draw
                    else Action.check(legal.seat)
                    if legal.check
                    else Action.call(legal.seat)
                )
                step = session.act(action, now)
            elif what == "pre":
                step = session.pre_action(seat, pres[k], now)  # type: ignore[arg-type]
            elif what == "expire":
                step = session.expire(now)
            else:
                step = session.after(
                    getattr(table, what)(seat, *([now] if "connect" in what else [])), now
                )
        except IllegalAction:
            continue
        after = session.clock.turn
        hand = table.hand
        if hand is None or after is None:
            continue
        banked = any(isinstance(e, TimeBankStarted) for e in step)
        if hand.next_seq == seq and not banked:
            assert after == before, (what, seat)
        if before is not None and after.key != before.key:
            assert hand.next_seq != seq
        if banked:
            assert before is not None
            assert after.number == before.number
            assert after.bank
        assert after.street in (Street.PRE_DRAW, Street.DRAW, Street.POST_DRAW)
