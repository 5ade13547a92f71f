"""Plain-rules hand reading shared by the bots: the textbook draw, a pre-draw
score that orders starting hands, openers."""

from __future__ import annotations

from collections.abc import Sequence

from drawpoker.evaluator import Category, evaluate


def _ranks(cards: Sequence[int]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for c in cards:
        counts[c >> 2] = counts.get(c >> 2, 0) + 1
    return counts


def four_flush(cards: Sequence[int]) -> int:
    """The card off suit when four cards share a suit, else -1."""
    suits = [c & 3 for c in cards]
    for s in set(suits):
        if suits.count(s) == 4:
            return next(c for c in cards if c & 3 != s)
    return -1


def open_ended(cards: Sequence[int]) -> int:
    """The card to throw from an open-ended four-card straight draw, else -1.

    Four consecutive distinct ranks from 2-3-4-5 to T-J-Q-K (A-2-3-4 and J-Q-K-A
    can only fill one way)."""
    ranks = [c >> 2 for c in cards]
    distinct = set(ranks)
    for low in range(9):  # 2345 .. TJQK
        run = set(range(low, low + 4))
        if run <= distinct:
            leftover = [c for c in cards if c >> 2 not in run]
            if len(leftover) == 1:
                return leftover[0]
    return -1


def standard_discard(cards: Sequence[int], max_discard: int = 5) -> tuple[int, ...]:
    """The textbook draw: stand pat on a straight or better, draw 2 to trips,
    1 to two pair, 1 to a four-flush or an open-ended straight, 3 to a pair,
    else keep the highest card (or two if both are Jack or better)."""
    value = evaluate(cards)
    category = value.category
    ranks = _ranks(cards)
    if category >= Category.STRAIGHT:
        return ()
    if category == Category.FOUR_OF_A_KIND:
        return ()
    if category in (Category.THREE_OF_A_KIND, Category.TWO_PAIR, Category.PAIR):
        if category == Category.PAIR:
            flush = four_flush(cards)
            if flush >= 0 and max(ranks) < 9 and _pair_rank(ranks) < 6:
                return (flush,)  # small pair and a four-flush: draw to the flush
        thrown = tuple(c for c in cards if ranks[c >> 2] == 1)
    else:
        off = four_flush(cards)
        if off < 0:
            off = open_ended(cards)
        if off >= 0:
            thrown = (off,)
        else:
            order = sorted(cards, reverse=True)
            keep = 2 if order[1] >> 2 >= 9 else 1
            thrown = tuple(order[keep:])
    if len(thrown) > max_discard:
        thrown = tuple(sorted(thrown)[:max_discard])  # keep the highest of the rest
    return thrown


def _pair_rank(ranks: dict[int, int]) -> int:
    return max((r for r, n in ranks.items() if n >= 2), default=-1)


def predraw_score(cards: Sequence[int]) -> float:
    """Orders starting hands, higher better: pat hands 10+, trips 9+, two pair 8+,
    pairs 4-5 by rank, four-flush 4.6, open-ended 4.3, high cards 1-2."""
    value = evaluate(cards)
    category = value.category
    ranks = _ranks(cards)
    if category >= Category.STRAIGHT:
        return 10.0 + value.strength / 7462
    if category == Category.THREE_OF_A_KIND:
        return 9.0 + _pair_rank(ranks) / 13
    if category == Category.TWO_PAIR:
        return 8.0 + _pair_rank(ranks) / 13
    if category == Category.PAIR:
        return 4.0 + _pair_rank(ranks) / 13
    if four_flush(cards) >= 0:
        return 4.6
    if open_ended(cards) >= 0:
        return 4.3
    order = sorted(ranks, reverse=True)
    return 1.0 + order[0] / 13 + order[1] / 169


def has_openers(cards: Sequence[int], openers_rank: int) -> bool:
    """R38: a pair of ``openers_rank`` (Jacks = 9) or better."""
    value = evaluate(cards)
    if value.category > Category.PAIR:
        return True
    return value.category == Category.PAIR and _pair_rank(_ranks(cards)) >= openers_rank


def pair_rank(cards: Sequence[int]) -> int:
    """The highest paired rank, -1 if none."""
    return _pair_rank(_ranks(cards))
