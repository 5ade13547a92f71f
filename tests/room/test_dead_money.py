"""Dead money at a cash table (R9, R34, R37): a returning player's dead small blind
and the dealer's invito are paid into the pot that the best hand wins; the request
to see the openers (R48) runs on the draw clock and a time-out declines."""

from __future__ import annotations

from drawpoker.actions import Action, LegalActions
from drawpoker.events import OpenersDeclined, PostKind, PotAwarded, TimedOut
from drawpoker.room.clock import ClockConfig
from drawpoker.room.session import TableSession
from drawpoker.room.table import CashTable, TableConfig
from drawpoker.rules import Rules

from .helpers import passive, seed
from .test_table import posts, seated


def open_and_call(legal: LegalActions | None) -> Action:
    """Open at the minimum when one may, else call, else check; stand pat at the draw."""
    assert legal is not None
    if legal.draw:
        return Action.stand_pat(legal.seat)
    if legal.max_to and legal.bet_label == "open":
        return Action.bet(legal.seat, legal.min_to)
    if legal.call:
        return Action.call(legal.seat)
    return Action.check(legal.seat)


def test_a_returning_players_dead_small_blind_is_won_by_the_best_hand() -> None:
    t = seated(1, 2, 3, 4, 5, 6)
    t.start_hand(0.0, seed=seed(1))
    passive(t)
    t.sit_out(4)
    t.start_hand(1.0, seed=seed(2))
    passive(t)
    t.sit_in(4, post=True)
    t.start_hand(2.0, seed=seed(3))
    passive(t)
    t.start_hand(3.0, seed=seed(4))
    mine = [(kind, amount) for seat, kind, amount in posts(t) if seat == 4]
    assert mine == [(PostKind.BIG_BLIND, 2), (PostKind.DEAD_SMALL_BLIND, 1)]
    dealt = list(t.dealt_in())
    events = passive(t)  # everyone calls 2 and checks to the showdown
    (pot,) = [e for e in events if isinstance(e, PotAwarded)]
    assert pot.amount == 2 * len(dealt) + 1  # one pot, the dead chip in it
    assert sorted(pot.eligible) == sorted(dealt)
    record = t.last_record
    assert record is not None
    assert sum(record.net.values()) == 0
    if 4 not in [seat for seat, _ in pot.shares]:
        assert record.net[4] == -3  # the dead chip is not returned to its poster


def italian_table(**rules: object) -> CashTable:
    t = CashTable("it", TableConfig.in_big_blinds(Rules.italian(invito=10, max_seats=4, **rules)))
    for seat in (1, 2, 3):
        t.sit(f"p{seat}", seat, 500)
    return t


def test_the_dealers_invito_goes_to_the_best_hand() -> None:
    """Everyone opens or calls and checks down; the pot is one, for all."""
    paid = lost = 0
    for n in range(20):
        t = italian_table(checked_pot_stays=False, openers_check="showdown")
        t.start_hand(0.0, seed=seed(100 + n))
        hand = t.hand
        assert hand is not None
        dealer = hand.button
        events = []
        while t.hand is not None:
            events += t.act(open_and_call(t.hand.legal_actions()), 0.0)
        record = t.last_record
        assert record is not None
        pots = [e for e in events if isinstance(e, PotAwarded)]
        if record.carried_out:
            continue  # a false opener (R44): the pot stayed
        (pot,) = pots
        assert pot.amount == 40  # the invito and three wagers of 10
        paid += 1
        if dealer not in [seat for seat, _ in pot.shares]:
            assert record.net[dealer] == -20
            lost += 1
        assert t.chips() == 1500
    assert paid >= 5
    assert lost >= 2


def test_the_request_to_see_the_openers_runs_on_the_draw_clock() -> None:
    t = italian_table(openers_check="on_request", checked_pot_stays=False, draw_time_s=30)
    session = TableSession(t, ClockConfig(action_s=15.0, draw_s=30.0, time_bank_s=20.0))
    for seat in t.seats:
        session.clock.seat(seat)
    session.after(t.start_hand(0.0, seed=seed(7)), 0.0)
    now = 0.0
    while t.hand is not None and not t.hand.legal_actions().ask_openers:  # type: ignore[union-attr]
        session.act(open_and_call(t.hand.legal_actions()), now)
    assert t.hand is not None
    turn = session.clock.turn
    assert turn is not None
    assert turn.deadline == now + 30  # the draw clock, not the action clock
    events = session.expire(now + 30)  # no time bank on the draw clock
    assert [type(e) for e in events[:2]] == [TimedOut, OpenersDeclined]
    events = session.expire(now + 60)
    assert any(isinstance(e, OpenersDeclined) for e in events)
    assert t.hand is None
    assert t.chips() == 1500
