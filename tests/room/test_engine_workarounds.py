"""Engine behaviour the room works around. Each test is a strict xfail: when the
engine is fixed it passes, the suite fails, and the workaround can go."""

from __future__ import annotations

import pytest

from drawpoker.actions import Action
from drawpoker.events import BettingRoundEnded, PostKind, UncalledBetReturned
from drawpoker.hand import Hand
from drawpoker.rules import Rules

RULES = Rules.online(structure="no-limit", small_blind=1, big_blind=2, max_seats=6)


@pytest.mark.xfail(
    strict=True,
    reason="engine: _return_uncalled compares total committed chips, dead posts included, "
    "so a dead small blind comes back as an uncalled bet (room.table.DEAD_BLIND_WORKAROUND)",
)
def test_engine_keeps_a_dead_small_blind_in_the_pot() -> None:
    # button 1, small blind 2, big blind 3; seat 5 returns: big blind live, small blind dead
    posts = [
        (2, PostKind.SMALL_BLIND, 1),
        (3, PostKind.BIG_BLIND, 2),
        (5, PostKind.BIG_BLIND, 2),
        (5, PostKind.DEAD_SMALL_BLIND, 1),
    ]
    hand = Hand(RULES, {1: 100, 2: 100, 3: 100, 5: 100}, 1, seed=bytes(32), posts=posts)
    assert hand.pot_total == 6
    events = hand.apply([Action.check(5), Action.fold(1), Action.fold(2), Action.check(3)])
    assert not [e for e in events if isinstance(e, UncalledBetReturned)]  # nothing was bet
    ended = next(e for e in events if isinstance(e, BettingRoundEnded))
    assert ended.pot == 6  # the dead small blind stays in the pot (R9)
