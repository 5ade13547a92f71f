"""Payout tables: paid places by field size, prizes in whole chips summing to the pool."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drawpoker.room.payouts import paid_places, payout_table, share


@pytest.mark.parametrize(
    ("entries", "paid"),
    [(1, 1), (2, 1), (3, 1), (4, 2), (6, 2), (7, 3), (9, 3), (10, 3), (11, 3), (20, 3),
     (21, 4), (45, 7), (90, 14), (180, 27), (1000, 150)],
)  # fmt: skip
def test_paid_places_by_field_size(entries: int, paid: int) -> None:
    assert paid_places(entries) == paid


def test_paid_fraction_is_configurable() -> None:
    assert paid_places(100, Fraction(1, 5)) == 20
    assert paid_places(0) == 0


def test_small_fields_fixed_percentages() -> None:
    assert payout_table(2, 200) == [200]
    assert payout_table(6, 600) == [390, 210]
    assert payout_table(9, 900) == [450, 270, 180]
    assert payout_table(9, 901) == [451, 270, 180]  # the odd unit to first place


def test_large_field_shape() -> None:
    prizes = payout_table(1000, 100_000)
    assert len(prizes) == 150
    assert sum(prizes) == 100_000
    assert 0.12 < prizes[0] / 100_000 < 0.25
    assert prizes[-1] >= 150  # at least a buy-in and a half back for a min-cash


@settings(deadline=None)
@given(st.integers(1, 3000), st.integers(0, 10**9))
def test_prizes_sum_exactly_and_never_increase(entries: int, pool: int) -> None:
    prizes = payout_table(entries, pool)
    assert len(prizes) == paid_places(entries)
    assert sum(prizes) == (pool if prizes else 0)
    assert all(p >= 0 for p in prizes)
    assert all(a >= b for a, b in itertools.pairwise(prizes))


@settings(deadline=None)
@given(
    st.lists(st.integers(0, 10**6), min_size=1, max_size=20).map(sorted).map(lambda p: p[::-1]),
    st.data(),
)
def test_ties_share_the_places_prizes(prizes: list[int], data: st.DataObject) -> None:
    first = data.draw(st.integers(1, len(prizes) + 3))
    count = data.draw(st.integers(1, 5))
    places = list(range(first, first + count))
    shares = share(prizes, places, count)
    expected = sum(prizes[p - 1] for p in places if p <= len(prizes))
    assert sum(shares) == expected
    assert max(shares) - min(shares) <= 1
