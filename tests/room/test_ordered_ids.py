"""IdHeap: a set of ids that finds its smallest (or largest) fast."""

from __future__ import annotations

import sys

from hypothesis import given
from hypothesis import strategies as st

from drawpoker.room.ordered_ids import IdHeap


def visited(heap: IdHeap, stop: int | None) -> list[int]:
    seen: list[int] = []

    def visit(item: int) -> bool:
        seen.append(item)
        return item == stop

    heap.search(visit)
    return seen


@given(
    st.lists(st.tuples(st.sampled_from(["add", "discard"]), st.integers(0, 40)), max_size=300),
    st.booleans(),
)
def test_behaves_as_a_sorted_set(ops: list[tuple[str, int]], largest_first: bool) -> None:
    heap = IdHeap(largest_first=largest_first)
    model: set[int] = set()
    for op, item in ops:
        if op == "add":
            heap.add(item)
            model.add(item)
        else:
            heap.discard(item)
            model.discard(item)
        assert len(heap) == len(model)
        assert set(heap) == model
        order = sorted(model, reverse=largest_first)
        assert heap.first() == (order[0] if order else None)
        assert visited(heap, None) == order  # every member, in order, once
        stop = order[len(order) // 2] if order else None
        assert visited(heap, stop) == order[: len(order) // 2 + 1]  # stops where told
        assert set(heap) == model  # a search changes nothing


def test_a_shrinking_set_is_copied_small() -> None:
    """Walking a set costs its peak size: after most members go, it is copied."""
    heap = IdHeap()
    for i in range(10_000):
        heap.add(i)
    big = sys.getsizeof(heap._live)
    for i in range(9_990):
        heap.discard(i)
    assert sys.getsizeof(heap._live) * 50 < big
    assert heap.first() == 9_990
    assert sorted(heap) == list(range(9_990, 10_000))
