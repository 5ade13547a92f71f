"""Exact draw odds: every keep/discard choice of a five-card hand, counted exactly.

For a hand and the cards known to be out of play (``dead``), the ``n`` unseen
cards are every other card (47 without dead cards). Discarding ``k`` cards gives
``C(n, k)`` equally likely draws; each is evaluated and counted by final hand
category and by strength. Counts are exact integers; probabilities are
``fractions.Fraction``.

The method (``docs/odds.md``): a hand's evaluator key is the sum of its cards'
keys, so the final key of a draw is ``sum(kept keys) + sum(drawn keys)``. The
drawn-key sums depend only on ``k`` and the unseen cards, not on which cards
are kept, so they are computed once per ``k`` (with one NumPy addition per
draw, walking the combinations in colexicographic order) and shared by all
``C(5, k)`` choices that discard ``k`` cards. Each choice then costs a few
vectorised table look-ups per draw and one ``bincount``.

Expected value uses a rank-aware utility: ``PERCENTILE[strength]``, the share
of all 2,598,960 five-card hands that the final hand beats (ties count half).
The lowest pair of deuces scores 0.50, the best pair of aces 0.92, a flush at
least 0.997: it is the equity of the final hand against one random five-card hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt

from drawpoker.cards import DECK, Card, format_cards, parse_cards
from drawpoker.errors import InvalidCards
from drawpoker.evaluator import (
    CARD_KEYS,
    CATEGORY_OF_STRENGTH,
    MAX_STRENGTH,
    VALUES,
    Category,
    evaluate,
    strengths_of_keys,
)

ALL_HANDS = comb(52, 5)
CATEGORIES = tuple(Category)  # HIGH_CARD .. STRAIGHT_FLUSH; counts are indexed by category - 1

# Five-card hands per strength class: a rank pattern times its suit choices.
_HANDS_PER_CATEGORY = {
    Category.HIGH_CARD: 4**5 - 4,
    Category.STRAIGHT: 4**5 - 4,
    Category.FLUSH: 4,
    Category.STRAIGHT_FLUSH: 4,
    Category.PAIR: 6 * 4**3,
    Category.TWO_PAIR: 6 * 6 * 4,
    Category.THREE_OF_A_KIND: 4 * 4 * 4,
    Category.FULL_HOUSE: 4 * 6,
    Category.FOUR_OF_A_KIND: 4,
}


def _percentiles() -> npt.NDArray[np.float64]:
    counts = np.array([0] + [_HANDS_PER_CATEGORY[v.category] for v in VALUES[1:]], dtype=np.float64)
    if counts.sum() != ALL_HANDS:
        raise AssertionError("strength classes do not cover the 2,598,960 hands")
    below = np.cumsum(counts) - counts
    result: npt.NDArray[np.float64] = (below + counts / 2) / ALL_HANDS
    result[0] = 0.0
    result.setflags(write=False)
    return result


PERCENTILE = _percentiles()
"""``PERCENTILE[strength]``: the share of all five-card hands that a hand of that
strength beats, ties counting half (the default utility)."""

HANDS_PER_STRENGTH = np.array(
    [0] + [_HANDS_PER_CATEGORY[v.category] for v in VALUES[1:]], dtype=np.int64
)
HANDS_PER_STRENGTH.setflags(write=False)

# First strength of each category, for turning a strength histogram into category counts.
_CATEGORY_STARTS = np.searchsorted(CATEGORY_OF_STRENGTH[1:], np.arange(1, 10)) + 1


# ------------------------------------------------------------------ combinations


@cache
def _colex(k: int) -> npt.NDArray[np.intp]:
    """The k-subsets of range(47) as rows in colexicographic order (largest element
    first), so that the subsets of range(n) are the first C(n, k) rows."""
    rows = np.array(list(combinations(range(47), k)), dtype=np.intp).reshape(-1, k)
    order = np.lexsort(rows.T)  # the last column is the primary key
    result: npt.NDArray[np.intp] = np.ascontiguousarray(rows[order])
    result.setflags(write=False)
    return result


_GATHER_UP_TO = 3  # small draws: gather through index arrays; larger: build incrementally


def _drawn_key_sums(
    unseen: Sequence[int], kmax: int, sums: list[npt.NDArray[np.int32]] | None = None
) -> list[npt.NDArray[np.int32]]:
    """``sums[k]``: evaluator key sums of every k-card draw from ``unseen``, in colex order.

    Small k: one gather per drawn card through the colex index arrays. Larger k:
    built from ``sums[k - 1]`` with one addition per draw, because the draws whose
    highest card is ``unseen[top]`` are the (k-1)-draws of the cards below it plus
    that card. ``sums`` continues a list already built for smaller k.
    """
    keys = CARD_KEYS[np.asarray(unseen, dtype=np.intp)]
    n = len(unseen)
    sums = list(sums) if sums else [np.zeros(1, dtype=np.int32)]
    for k in range(len(sums), kmax + 1):
        if k <= _GATHER_UP_TO:
            rows = _colex(k)[: comb(n, k)]
            out = keys[rows[:, 0]]
            for j in range(1, k):
                out = out + keys[rows[:, j]]
            sums.append(out.astype(np.int32, copy=False))
            continue
        previous = sums[k - 1]
        out = np.empty(comb(n, k), dtype=np.int32)
        pos = 0
        for top in range(k - 1, n):
            size = comb(top, k - 1)
            np.add(previous[:size], keys[top], out=out[pos : pos + size])
            pos += size
        sums.append(out)
    return sums


def _histogram(drawn: npt.NDArray[np.int32], kept_key: int) -> npt.NDArray[np.int64]:
    """Strength histogram (length 7,463) of ``kept_key + drawn`` hand keys."""
    strengths = strengths_of_keys(drawn + np.int32(kept_key))
    return np.bincount(strengths, minlength=MAX_STRENGTH + 1)


# ---------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class DrawOption:
    """One keep/discard choice and the exact distribution of the final hand.

    ``counts[c - 1]`` is how many of the ``draws`` equally likely draws end in
    category ``c`` (``Category.HIGH_CARD`` = 1 ... ``STRAIGHT_FLUSH`` = 9).
    ``ev`` is the expected utility (by default the final hand's percentile
    among all five-card hands).
    """

    keep: tuple[Card, ...]
    discard: tuple[Card, ...]
    draws: int
    counts: tuple[int, ...]
    ev: float

    @property
    def k(self) -> int:
        """How many cards are drawn."""
        return len(self.discard)

    def count(self, category: Category) -> int:
        return self.counts[category - 1]

    def probability(self, category: Category) -> Fraction:
        """Exact chance that the final hand is ``category``."""
        return Fraction(self.counts[category - 1], self.draws)

    def at_least(self, category: Category) -> Fraction:
        """Exact chance that the final hand is ``category`` or better."""
        return Fraction(sum(self.counts[category - 1 :]), self.draws)

    def improves(self) -> Fraction:
        """Chance that the final category beats the category of the kept cards alone.

        The kept cards' category counts pairs, trips and quads only (fewer than
        five cards make no straight or flush): one pair drawing three improves
        1,552/5,405 times.
        """
        kept = _kept_category(self.keep)
        if kept is Category.STRAIGHT_FLUSH:
            return Fraction(0)
        return self.at_least(Category(kept + 1))

    def label(self) -> str:
        if not self.discard:
            return "stand pat"
        kept = format_cards(self.keep) if self.keep else "nothing"
        return f"keep {kept}, draw {self.k}"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: cards as text, each category's count, fraction and percentage."""
        categories = {}
        for category, count in zip(CATEGORIES, self.counts, strict=True):
            if count:
                fraction = Fraction(count, self.draws)
                categories[category.label] = {
                    "count": count,
                    "fraction": f"{fraction.numerator}/{fraction.denominator}",
                    "percent": round(100 * count / self.draws, 4),
                }
        return {
            "keep": [str(c) for c in self.keep],
            "discard": [str(c) for c in self.discard],
            "draw": self.k,
            "draws": self.draws,
            "ev": round(self.ev, 6),
            "categories": categories,
        }


def _kept_category(keep: Sequence[int]) -> Category:
    """Pairs, trips and quads among fewer than five cards (five: the evaluator)."""
    if len(keep) == 5:
        return evaluate(keep).category
    counts = sorted(sum(1 for c in keep if c >> 2 == r) for r in {c >> 2 for c in keep})
    counts.reverse()
    if not counts or counts[0] == 1:
        return Category.HIGH_CARD
    if counts[0] == 4:
        return Category.FOUR_OF_A_KIND
    if counts[0] == 3:
        return Category.FULL_HOUSE if len(counts) > 1 and counts[1] == 2 else Category(4)
    return Category.TWO_PAIR if len(counts) > 1 and counts[1] == 2 else Category.PAIR


def check_hand(
    hand: Iterable[int | str] | str, dead: Iterable[int | str] | str = ()
) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """Parse and check a five-card hand and dead cards (no card twice)."""
    cards = parse_cards(hand)
    if len(cards) != 5:
        raise InvalidCards(f"a hand has 5 cards, got {len(cards)}: {format_cards(cards)!r}")
    dead_cards = parse_cards(dead)
    both = set(cards) & set(dead_cards)
    if both:
        raise InvalidCards(f"{format_cards(sorted(both))} is both in the hand and dead")
    if len(dead_cards) > 42:
        raise InvalidCards(f"at most 42 dead cards leave 5 to draw, got {len(dead_cards)}")
    return cards, dead_cards


class DrawTable:
    """Exact odds for the discard choices of one hand; built once, queried many times.

    ``histogram(discard)`` is the strength histogram of one choice (cached);
    ``option(discard)`` its ``DrawOption``; ``options()`` all 32 choices best first.
    """

    __slots__ = ("_histograms", "_sums", "dead", "hand", "unseen", "utility")

    def __init__(
        self,
        hand: Sequence[int],
        dead: Sequence[int] = (),
        utility: npt.NDArray[np.float64] = PERCENTILE,
    ) -> None:
        self.hand = tuple(DECK[c] for c in hand)
        self.dead = tuple(DECK[c] for c in dead)
        out = set(self.hand) | set(self.dead)
        self.unseen = tuple(c for c in DECK if c not in out)
        self.utility = utility
        self._sums: list[npt.NDArray[np.int32]] = []
        self._histograms: dict[tuple[int, ...], npt.NDArray[np.int64]] = {}

    def _drawn(self, k: int) -> npt.NDArray[np.int32]:
        if len(self._sums) <= k:
            self._sums = _drawn_key_sums(self.unseen, k, self._sums)
        return self._sums[k]

    def histogram(self, discard: Iterable[int]) -> npt.NDArray[np.int64]:
        """Counts of final strengths (index = strength 1..7,462) over every draw."""
        thrown = frozenset(discard)
        key = tuple(sorted(thrown))
        cached = self._histograms.get(key)
        if cached is not None:
            return cached
        keep = [c for c in self.hand if c not in thrown]
        if len(keep) + len(thrown) != 5:
            raise InvalidCards(f"cannot discard {format_cards(sorted(thrown))}: not all held")
        k = len(thrown)
        if k > len(self.unseen):
            raise InvalidCards(f"only {len(self.unseen)} unseen cards, cannot draw {k}")
        kept_key = int(CARD_KEYS[keep].sum()) if keep else 0
        histogram = _histogram(self._drawn(k), kept_key)
        self._histograms[key] = histogram
        return histogram

    def option(self, discard: Iterable[int]) -> DrawOption:
        thrown = tuple(sorted(DECK[c] for c in discard))
        histogram = self.histogram(thrown)
        draws = int(histogram.sum())
        counts = np.add.reduceat(histogram, _CATEGORY_STARTS)
        ev = float(histogram @ self.utility) / draws
        keep = tuple(c for c in self.hand if c not in thrown)
        return DrawOption(keep, thrown, draws, tuple(int(x) for x in counts), ev)

    def options(self, max_discard: int = 5) -> tuple[DrawOption, ...]:
        """Every choice of up to ``max_discard`` cards, best first (highest ``ev``;
        then fewer cards drawn)."""
        choices = [
            self.option(thrown)
            for k in range(min(max_discard, len(self.unseen)) + 1)
            for thrown in combinations(self.hand, k)
        ]
        choices.sort(key=lambda o: (-o.ev, o.k, o.discard))
        return tuple(choices)


def draw_odds(
    hand: Iterable[int | str] | str,
    dead: Iterable[int | str] | str = (),
    *,
    max_discard: int = 5,
    utility: npt.NDArray[np.float64] = PERCENTILE,
) -> tuple[DrawOption, ...]:
    """All keep/discard choices of ``hand`` (32 by default) with exact odds, best first.

    ``dead``: cards known to be out of play (seen, folded, discarded by you).
    ``utility[strength]`` scores a final hand (default ``PERCENTILE``).
    """
    cards, dead_cards = check_hand(hand, dead)
    return DrawTable(cards, dead_cards, utility).options(max_discard)


def option_odds(
    hand: Iterable[int | str] | str,
    discard: Iterable[int | str] | str,
    dead: Iterable[int | str] | str = (),
) -> DrawOption:
    """The exact odds of one choice: ``option_odds("Jc Jd 8d 4d 2d", "8d 4d 2d")``."""
    cards, dead_cards = check_hand(hand, dead)
    thrown = parse_cards(discard)
    missing = [c for c in thrown if c not in cards]
    if missing:
        raise InvalidCards(f"{format_cards(missing)} is not in the hand {format_cards(cards)}")
    return DrawTable(cards, dead_cards).option(thrown)


__all__ = [
    "ALL_HANDS",
    "HANDS_PER_STRENGTH",
    "PERCENTILE",
    "DrawOption",
    "DrawTable",
    "check_hand",
    "draw_odds",
    "option_odds",
]
