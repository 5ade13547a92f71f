"""Seats for moved players, which table to break, which player moves."""

from __future__ import annotations

import pytest

from drawpoker.room.balancing import (
    BlindRisk,
    blind_risk,
    fair_seat,
    largest,
    next_big_blind,
    smallest,
    table_to_break,
)


def test_next_big_blind_is_the_next_occupied_seat() -> None:
    assert next_big_blind(8, {1, 3, 6}, 3) == 6
    assert next_big_blind(8, {1, 3, 6}, 6) == 1
    assert next_big_blind(8, {1, 3, 6}, 7) == 1
    assert next_big_blind(8, {2, 5}, None) == 2


def test_fair_seat_is_the_next_big_blind() -> None:
    # last big blind seat 3; seats 4 and 7 empty: seat 4 gets the big blind next
    assert fair_seat(8, {1, 2, 3, 5, 6, 8}, 3) == 4
    # no empty seat before the next player: the first empty seat after the big blind
    assert fair_seat(8, {1, 2, 3, 4, 6, 8}, 3) == 5


def test_fair_seat_never_twice_in_the_big_blind() -> None:
    occupied = {1, 2, 3, 6, 8}
    assert fair_seat(8, occupied, 3) == 4
    seat = fair_seat(8, occupied, 3, just_posted_big_blind=True)
    assert seat in (5, 7)
    assert seat == 7  # seat 5 would still be next (4 is empty): 7 is behind seat 6
    # only the next big blind seat is free: no choice
    assert fair_seat(8, {1, 2, 3, 5, 6, 7, 8}, 3, just_posted_big_blind=True) == 4


def test_fair_seat_full_table() -> None:
    with pytest.raises(ValueError, match="full"):
        fair_seat(2, {1, 2}, 1)


def test_break_when_the_others_can_seat_the_players() -> None:
    assert table_to_break({1: 8, 2: 8, 3: 2}, 8) is None
    assert table_to_break({1: 7, 2: 7, 3: 2}, 8) == 3
    assert table_to_break({1: 4, 2: 4}, 8) == 2  # the final table is table 1
    assert table_to_break({1: 5}, 8) is None


def test_largest_and_smallest() -> None:
    sizes = {1: 6, 2: 8, 3: 8, 4: 5}
    assert smallest(sizes) == 4
    assert largest(sizes, [1, 2, 3, 4]) == 2
    assert largest(sizes, [1, 4]) == 1
    assert largest(sizes, []) is None


def test_blind_risk() -> None:
    # last big blind seat 1; seat 2 is next in turn
    assert blind_risk(4, {1, 2, 3}, 1, recent={1}) is BlindRisk.CLEAN
    assert blind_risk(4, {1, 2, 3}, 1, recent={1, 2}) is BlindRisk.PASSED
    assert blind_risk(4, {1, 2, 3}, 1, recent={1, 2, 3}) is BlindRisk.TWICE
    # in a hand: seat 2 was dealt in and may go out; seat 3 waits and stays
    assert blind_risk(4, {1, 2, 3}, 1, recent={1, 3}, sure={3}) is BlindRisk.UNSURE
    assert blind_risk(4, {1, 2, 3}, 1, recent={1}, sure={3}) is BlindRisk.CLEAN
    assert blind_risk(4, {1, 2}, None, recent={1}) is BlindRisk.CLEAN  # a new table
