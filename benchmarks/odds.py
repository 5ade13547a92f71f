"""Exact draw odds speed: all 32 keep/discard choices of a hand.

Three methods count the same 2,598,960 draws (sum of C(47, k) over the 32
choices) for the same random hands, in one process:

- ``drawpoker.odds``: key sums of the drawn cards built once per k and shared
  by every choice that draws k (one addition per draw), then a few vectorised
  table look-ups and a ``bincount`` per choice;
- NumPy index arrays: the combinations of the 47 unseen cards per k as index
  arrays, each choice's (N, 5) hands through ``evaluate_many``;
- plain Python: ``itertools.combinations`` and ``evaluate`` per draw.

Prints medians, the cost per counted draw and the ratios.

    .venv/bin/python benchmarks/odds.py [--hands 7] [--python-hands 2]
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import time
from collections import Counter
from collections.abc import Callable
from itertools import combinations
from math import comb

import numpy as np

from drawpoker.cards import format_cards
from drawpoker.evaluator import CATEGORY_OF_STRENGTH, evaluate, evaluate_many
from drawpoker.odds import DrawTable

DRAWS_PER_HAND = sum(comb(5, k) * comb(47, k) for k in range(6))  # 2,598,960


def odds_module(hand: list[int]) -> object:
    return DrawTable(hand).options()


def index_arrays() -> Callable[[list[int]], object]:
    combos = {k: np.array(list(combinations(range(47), k)), dtype=np.intp) for k in range(1, 6)}

    def run(hand: list[int]) -> object:
        unseen = np.array([c for c in range(52) if c not in hand], dtype=np.int8)
        results = []
        for k in range(6):
            for thrown in combinations(hand, k):
                keep = [c for c in hand if c not in thrown]
                if k == 0:
                    hands = np.array([keep], dtype=np.int8)
                else:
                    drawn = unseen[combos[k]]
                    kept = np.broadcast_to(np.array(keep, dtype=np.int8), (len(drawn), 5 - k))
                    hands = np.hstack([kept, drawn])
                strengths = evaluate_many(hands)
                results.append(np.bincount(CATEGORY_OF_STRENGTH[strengths], minlength=10))
        return results

    return run


def plain_python(hand: list[int]) -> object:
    unseen = [c for c in range(52) if c not in hand]
    results = []
    for k in range(6):
        for thrown in combinations(hand, k):
            keep = [c for c in hand if c not in thrown]
            counts: Counter[int] = Counter()
            for drawn in combinations(unseen, k):
                counts[evaluate(keep + list(drawn)).category] += 1
            results.append(counts)
    return results


def median_ms(run: Callable[[list[int]], object], hands: list[list[int]]) -> float:
    times = []
    for hand in hands:
        start = time.perf_counter()
        run(hand)
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=7, help="hands timed for the fast methods")
    parser.add_argument("--python-hands", type=int, default=2, help="hands for plain Python")
    args = parser.parse_args()
    rng = np.random.default_rng(secrets.randbits(64))
    hands = [[int(c) for c in rng.choice(52, 5, replace=False)] for _ in range(args.hands)]
    odds_module(hands[0])  # warm up: NumPy, caches
    indexed = index_arrays()
    indexed(hands[0])
    # Same answers before timing anything.
    table = DrawTable(hands[0])
    ref = plain_python(hands[0]) if args.python_hands else None
    if ref is not None:
        choices = [t for k in range(6) for t in combinations(hands[0], k)]
        for counts, thrown in zip(ref, choices, strict=True):  # type: ignore[call-overload]
            got = table.option(thrown).counts
            assert got == tuple(counts[c] for c in range(1, 10)), thrown
    rows = [
        ("drawpoker.odds (shared key sums)", median_ms(odds_module, hands), len(hands)),
        ("NumPy index arrays + evaluate_many", median_ms(indexed, hands), len(hands)),
    ]
    if args.python_hands:
        py_hands = hands[: args.python_hands]
        rows.append(("plain Python enumeration", median_ms(plain_python, py_hands), len(py_hands)))
    print(
        f"all 32 choices of a hand = {DRAWS_PER_HAND:,} draws counted; "
        f"e.g. {format_cards(hands[0])}"
    )
    base = rows[0][1]
    print(f"{'method':<38} {'hands':>5} {'median ms':>10} {'ns/draw':>8} {'× drawpoker':>12}")
    for name, ms, n in rows:
        per_draw = ms * 1e6 / DRAWS_PER_HAND
        print(f"{name:<38} {n:>5} {ms:>10.1f} {per_draw:>8.1f} {ms / base:>12.1f}")


if __name__ == "__main__":
    main()
