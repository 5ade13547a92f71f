"""Players' entropy in the deck seed (docs/fairness.md): the room's seed is
committed one hand ahead, the seated players' texts are mixed in, the hand says
which, and the seed stays with the server unless the table reveals it."""

from __future__ import annotations

import hashlib

import pytest

from drawpoker.events import EVERYONE, DeckRevealed, HandStarted
from drawpoker.fairness import contribution_digest, mix
from drawpoker.room.errors import NotSeated
from drawpoker.room.table import CashTable, TableConfig
from drawpoker.rules import Rules

from .helpers import fold_around

RULES = Rules.online(structure="no-limit", small_blind=1, big_blind=2, max_seats=6)


def seated(reveal: bool = False) -> CashTable:
    t = CashTable("t", TableConfig.in_big_blinds(RULES, reveal_seed=reveal))
    for seat in (1, 2, 3):
        t.sit(f"p{seat}", seat, 100)
    return t


def started(events: list[object]) -> HandStarted:
    return next(e for e in events if isinstance(e, HandStarted))


def test_contributions_are_mixed_into_the_seed_committed_one_hand_ahead() -> None:
    t = seated()
    first = started(t.start_hand(0.0))
    assert first.entropy == ()
    assert first.next_commitment == t.next_commitment
    t.contribute(1, "correct horse")
    t.contribute(3, "battery staple")
    with pytest.raises(NotSeated):
        t.contribute(5, "nobody sits here")
    with pytest.raises(ValueError, match="1 to 64"):
        t.contribute(2, "")
    fold_around(t)
    second_events = t.start_hand(1.0)
    second = started(second_events)
    # The room's seed of this hand is the one committed in the previous hand.
    assert second.server_commitment == first.next_commitment
    assert second.entropy == (
        (1, contribution_digest("correct horse")),
        (3, contribution_digest("battery staple")),
    )
    hand = t.hand
    assert hand is not None
    assert hand.deal is not None
    assert hand.seed == mix(hand.deal.server_seed, second.entropy) == t.last_seed
    assert hashlib.sha256(hand.deal.server_seed).hexdigest() == second.server_commitment
    # The texts were used once: the next hand has none.
    fold_around(t)
    assert started(t.start_hand(2.0)).entropy == ()


@pytest.mark.parametrize("reveal", [False, True])
def test_the_seed_goes_to_everyone_only_at_a_table_that_reveals_it(reveal: bool) -> None:
    t = seated(reveal)
    events = t.start_hand(0.0) + fold_around(t)
    (revealed,) = [e for e in events if isinstance(e, DeckRevealed)]
    assert revealed.visible(EVERYONE) is reveal
    assert bytes.fromhex(revealed.seed) == t.last_seed
    # And the setting survives a restart (the saved table).
    restored, _ = CashTable.from_dict(t.to_dict())
    assert restored.config.reveal_seed is reveal
