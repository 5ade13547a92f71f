"""Hand.check_invariants notices a chip, a card, a kept count or a turn out of place."""

from __future__ import annotations

import pytest

from drawpoker.hand import Hand

from .helpers import NL, play, six


def fresh() -> Hand:
    hand = six(NL)
    play(hand, "4 r 6, 5 c")
    hand.check_invariants()
    return hand


def test_a_chip_out_of_place() -> None:
    hand = fresh()
    hand.players[0].stack += 1
    with pytest.raises(AssertionError, match="chips: 1201 on the table, 1200 at the start"):
        hand.check_invariants()


def test_a_card_twice() -> None:
    hand = fresh()
    hand.players[0].cards[0] = hand.players[1].cards[0]
    with pytest.raises(AssertionError, match="cards: 52 placed, twice: "):
        hand.check_invariants()


def test_a_kept_count_out_of_step() -> None:
    hand = fresh()
    hand.players[2].folded = True  # behind the hand's back: its live count says otherwise
    with pytest.raises(AssertionError, match=r"live, able, committed: kept \(6, 6, 15\)"):
        hand.check_invariants()


def test_the_turn() -> None:
    hand = fresh()
    hand._to_act = None
    with pytest.raises(AssertionError, match="nobody to act on the pre-draw"):
        hand.check_invariants()
