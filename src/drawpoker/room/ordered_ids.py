"""``IdHeap``: a set of ints that finds its smallest (or largest) member fast.

A binary heap with lazy deletion: ``add`` is O(log n), ``discard`` O(1) (the
heap entry goes stale and is dropped when it comes to the top), ``first`` O(1)
amortised, ``search`` visits members in order at O(log n) each. Stale entries
never outnumber live ones by much: the heap is rebuilt from the live set when
they do, an O(n) cost paid for by the n discards before it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from heapq import heapify, heappop, heappush


class IdHeap:
    __slots__ = ("_heap", "_live", "_peak", "_sign")

    def __init__(self, *, largest_first: bool = False) -> None:
        self._heap: list[int] = []  # sign * id
        self._live: set[int] = set()
        self._peak = 0  # the most members since the set was last copied
        self._sign = -1 if largest_first else 1

    def __len__(self) -> int:
        return len(self._live)

    def __contains__(self, item: int) -> bool:
        return item in self._live

    def __iter__(self) -> Iterator[int]:
        """The members in no particular order."""
        return iter(self._live)

    def add(self, item: int) -> None:
        live = self._live
        if item in live:
            return
        live.add(item)
        size = len(live)
        if size > self._peak:
            self._peak = size
        heap = self._heap
        if len(heap) > 2 * size + 32:  # mostly stale: rebuild (item included)
            sign = self._sign
            self._heap = heap = [sign * x for x in live]
            heapify(heap)
        else:
            heappush(heap, self._sign * item)

    def discard(self, item: int) -> None:
        live = self._live
        live.discard(item)
        if len(live) * 8 < self._peak:  # a set never shrinks: copy it, or walks cost the peak
            self._live = set(live)
            self._peak = len(live)

    def first(self) -> int | None:
        """The smallest member (the largest with ``largest_first``), or None."""
        heap, live, sign = self._heap, self._live, self._sign
        while heap:
            item = sign * heap[0]
            if item in live:
                return item
            heappop(heap)
        return None

    def search(self, visit: Callable[[int], bool]) -> None:
        """Call ``visit`` on the members in order until it returns True. ``visit``
        must not change this set."""
        heap, live, sign = self._heap, self._live, self._sign
        taken: list[int] = []
        try:
            while heap:
                key = heappop(heap)
                if sign * key not in live or (taken and taken[-1] == key):
                    continue  # stale, or a duplicate of a member re-added
                taken.append(key)
                if visit(sign * key):
                    break
        finally:
            for key in taken:
                heappush(heap, key)
