"""Shared helpers for the room tests."""

from __future__ import annotations

from collections.abc import Callable

from drawpoker.actions import Action
from drawpoker.events import Event
from drawpoker.room.table import CashTable


def seed(n: int) -> bytes:
    return n.to_bytes(32, "big")


def passive(table: CashTable, now: float = 0.0) -> list[Event]:
    """Play the running hand to its end: check, else call; stand pat."""
    return _play_out(table, now, Action.call)


def fold_around(table: CashTable, now: float = 0.0) -> list[Event]:
    """Everyone folds to the big blind (or checks when they may)."""
    return _play_out(table, now, Action.fold)


def _play_out(table: CashTable, now: float, facing_a_bet: Callable[[int], Action]) -> list[Event]:
    """Stand pat in the draw, check when possible, else ``facing_a_bet``; never ask
    to see the openers (R48)."""
    events: list[Event] = []
    while table.hand is not None:
        legal = table.hand.legal_actions()
        assert legal is not None
        if legal.draw:
            action = Action.stand_pat(legal.seat)
        elif legal.ask_openers:  # R48: nobody asks to see the openers
            action = Action.decline(legal.seat)
        elif legal.check:
            action = Action.check(legal.seat)
        else:
            action = facing_a_bet(legal.seat)
        events += table.act(action, now)
    return events
