"""Five-card hand values: category, strength 1..7,462 and description.

A hand's key is the sum of one small int per card: a rank key, chosen so that
the sums of any five ranks (at most four alike) all differ, plus a 3-bit counter
for each of clubs, diamonds and hearts above bit 19 (spades count nowhere). The
counters say whether all five cards share a suit (one counter at 5, or all at 0),
which selects the flush half of one table indexed by the rank sum. The scalar
and the NumPy batch path use the same keys; every key stays below 2**28, so the
scalar path does only small-int arithmetic.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import IntEnum
from itertools import combinations_with_replacement
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from drawpoker.cards import RANK_NAMES, RANK_PLURALS


class Category(IntEnum):
    HIGH_CARD = 1
    PAIR = 2
    TWO_PAIR = 3
    THREE_OF_A_KIND = 4
    STRAIGHT = 5
    FLUSH = 6
    FULL_HOUSE = 7
    FOUR_OF_A_KIND = 8
    STRAIGHT_FLUSH = 9

    @property
    def label(self) -> str:
        return self.name.replace("_", " ").lower()


class HandValue(NamedTuple):
    """Higher ``strength`` wins; equal strength splits. Compares as its strength first."""

    strength: int
    category: Category
    description: str

    @property
    def is_royal(self) -> bool:
        return self.strength == MAX_STRENGTH

    @property
    def label(self) -> str:
        """``royal flush``, ``straight flush``, ..., ``high card``."""
        return "royal flush" if self.is_royal else self.category.label


MAX_STRENGTH = 7462
# Greedy-minimal keys with distinct sums for every multiset of five ranks.
RANK_KEYS = (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415)
_SUIT_SHIFT = 19  # 4 * 79415 + 43258 < 2**19; evaluate() inlines 19 and 0x7FFFF
_RANK_MASK = (1 << _SUIT_SHIFT) - 1
_FLUSH_HALF = 1 << _SUIT_SHIFT
_CARD_KEYS = [
    RANK_KEYS[c >> 2] + (1 << (_SUIT_SHIFT + 3 * (c & 3)) if c & 3 != 3 else 0) for c in range(52)
]
# Indexed by the three suit counters: the offset of the flush half, or 0.
_FLUSH_OFFSET = [0] * 512
for _counters in (0, 5, 5 << 3, 5 << 6):
    _FLUSH_OFFSET[_counters] = _FLUSH_HALF


def _straight_high(ranks: tuple[int, ...]) -> int:
    """High rank of a straight from five distinct ranks sorted high first, else -1."""
    if ranks[0] - ranks[4] == 4:
        return ranks[0]
    if ranks == (12, 3, 2, 1, 0):
        return 3  # the wheel, Five high
    return -1


def _describe(category: Category, order: tuple[int, ...]) -> str:
    name, plural = RANK_NAMES, RANK_PLURALS
    hi = order[0]
    low = name[hi - 4 if hi > 3 else 12]  # a straight's low card (the wheel starts at the Ace)
    if category is Category.STRAIGHT_FLUSH:
        return "a Royal Flush" if hi == 12 else f"a straight flush, {low} to {name[hi]}"
    if category is Category.FOUR_OF_A_KIND:
        return f"four of a kind, {plural[hi]}"
    if category is Category.FULL_HOUSE:
        return f"a full house, {plural[hi]} full of {plural[order[1]]}"
    if category is Category.FLUSH:
        return f"a flush, {name[hi]} high"
    if category is Category.STRAIGHT:
        return f"a straight, {low} to {name[hi]}"
    if category is Category.THREE_OF_A_KIND:
        return f"three of a kind, {plural[hi]}"
    if category is Category.TWO_PAIR:
        return f"two pair, {plural[hi]} and {plural[order[1]]}"
    if category is Category.PAIR:
        return f"a pair of {plural[hi]}"
    return f"high card {name[hi]}"


_PATTERNS = {
    (4, 1): Category.FOUR_OF_A_KIND,
    (3, 2): Category.FULL_HOUSE,
    (3, 1, 1): Category.THREE_OF_A_KIND,
    (2, 2, 1): Category.TWO_PAIR,
    (2, 1, 1, 1): Category.PAIR,
}


_Class = tuple[Category, tuple[int, ...], int, bool]


def _classes() -> list[_Class]:
    """Every equivalence class: (category, tie-break order, rank key sum, flush)."""
    classes: list[_Class] = []
    for multiset in combinations_with_replacement(range(12, -1, -1), 5):
        counts = Counter(multiset)
        if max(counts.values()) > 4:
            continue
        key = sum(RANK_KEYS[r] for r in multiset)
        if len(counts) == 5:
            high = _straight_high(multiset)
            if high >= 0:
                classes.append((Category.STRAIGHT, (high,), key, False))
                classes.append((Category.STRAIGHT_FLUSH, (high,), key, True))
            else:
                classes.append((Category.HIGH_CARD, multiset, key, False))
                classes.append((Category.FLUSH, multiset, key, True))
            continue
        order = tuple(sorted(counts, key=lambda r: (counts[r], r), reverse=True))
        pattern = tuple(counts[r] for r in order)
        classes.append((_PATTERNS[pattern], order, key, False))
    classes.sort(key=lambda c: (c[0], c[1]))
    return classes


def _build() -> tuple[tuple[HandValue, ...], list[HandValue]]:
    values = [HandValue(0, Category.HIGH_CARD, "")]  # index 0 unused: strengths start at 1
    table: list[HandValue] = [values[0]] * (2 * _FLUSH_HALF)
    seen = set()
    for strength, (category, order, key, flush) in enumerate(_classes(), start=1):
        value = HandValue(strength, category, _describe(category, order))
        values.append(value)
        index = key + _FLUSH_HALF if flush else key
        if index in seen:
            raise AssertionError(f"rank key collision at {key}")
        seen.add(index)
        table[index] = value
    if len(values) - 1 != MAX_STRENGTH:
        raise AssertionError(f"expected {MAX_STRENGTH} classes, built {len(values) - 1}")
    return tuple(values), table


VALUES, _TABLE = _build()
"""``VALUES[strength]`` is the ``HandValue`` of that strength (1..7,462)."""

CATEGORY_OF_STRENGTH = np.array([int(v.category) for v in VALUES], dtype=np.int8)
CATEGORY_OF_STRENGTH[0] = 0
CATEGORY_OF_STRENGTH.setflags(write=False)

CARD_KEYS = np.array(_CARD_KEYS, dtype=np.int32)
"""Each card's int32 key; a five-card hand's key is the sum (see ``strengths_of_keys``)."""
_BATCH_FLUSH_OFFSET = np.array(_FLUSH_OFFSET, dtype=np.int32)
_BATCH_TABLE = np.array([v.strength for v in _TABLE], dtype=np.int16)
for _array in (CARD_KEYS, _BATCH_FLUSH_OFFSET, _BATCH_TABLE):
    _array.setflags(write=False)


def evaluate(
    cards: Sequence[int],
    _keys: list[int] = _CARD_KEYS,
    _table: list[HandValue] = _TABLE,
    _flush_offset: list[int] = _FLUSH_OFFSET,
) -> HandValue:
    """The value of five distinct cards (ints 0-51 or ``Card``). Not validated here.

    The underscored defaults bind the tables as fast locals; never pass them.
    """
    a, b, c, d, e = cards
    key = _keys[a] + _keys[b] + _keys[c] + _keys[d] + _keys[e]
    return _table[(key & 0x7FFFF) + _flush_offset[key >> 19]]


def strengths_of_keys(keys: npt.NDArray[np.int32]) -> npt.NDArray[np.int16]:
    """Strengths of five-card hands given as sums of ``CARD_KEYS`` (any shape)."""
    index = keys & _RANK_MASK
    index += _BATCH_FLUSH_OFFSET[keys >> _SUIT_SHIFT]
    strengths: npt.NDArray[np.int16] = _BATCH_TABLE[index]
    return strengths


def evaluate_many(hands: npt.ArrayLike) -> npt.NDArray[np.int16]:
    """Strengths of an ``(N, 5)`` array of card ints, as an ``int16`` array of N."""
    array = np.asarray(hands)
    if array.ndim != 2 or array.shape[1] != 5:
        raise ValueError(f"expected an (N, 5) array of cards, got shape {array.shape}")
    columns = np.ascontiguousarray(array.T)
    keys = CARD_KEYS
    total = keys[columns[0]]
    for column in columns[1:]:
        total += keys[column]
    return strengths_of_keys(total)


__all__ = [
    "CARD_KEYS",
    "CATEGORY_OF_STRENGTH",
    "MAX_STRENGTH",
    "VALUES",
    "Category",
    "HandValue",
    "evaluate",
    "evaluate_many",
    "strengths_of_keys",
]
