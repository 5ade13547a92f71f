"""Evaluator speed: drawpoker against treys, eval7, phevaluator and PokerKit.

All libraries evaluate the same random five-card hands in one process, each in
its own card format (converted before timing). Prints the median of several
repeats per call, the batch time per hand, and the time for all 2,598,960 hands.

    .venv/bin/python benchmarks/evaluator.py [--hands 20000] [--repeats 7]
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import time
from collections.abc import Callable
from itertools import combinations

import numpy as np

from drawpoker.cards import format_cards
from drawpoker.evaluator import evaluate, evaluate_many


def random_hands(count: int) -> list[list[int]]:
    rng = np.random.default_rng(secrets.randbits(64))
    return [rng.choice(52, 5, replace=False).tolist() for _ in range(count)]


def median_seconds(run: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def per_call_runners(hands: list[list[int]]) -> dict[str, Callable[[], object]]:
    texts = [format_cards(h).split() for h in hands]
    runners: dict[str, Callable[[], object]] = {}

    def drawpoker_run() -> None:
        for h in hands:
            evaluate(h)

    runners["drawpoker"] = drawpoker_run

    try:
        from treys import Card, Evaluator

        treys_eval = Evaluator()
        treys_hands = [[Card.new(t) for t in h] for h in texts]

        def treys_run() -> None:
            for h in treys_hands:
                treys_eval.evaluate(h[:2], h[2:])

        runners["treys"] = treys_run
    except ImportError:
        pass
    try:
        import eval7

        eval7_hands = [[eval7.Card(t) for t in h] for h in texts]
        eval7_evaluate = eval7.evaluate

        def eval7_run() -> None:
            for h in eval7_hands:
                eval7_evaluate(h)

        runners["eval7"] = eval7_run
    except ImportError:
        pass
    try:
        from phevaluator import evaluate_cards

        def phevaluator_run() -> None:
            for a, b, c, d, e in texts:
                evaluate_cards(a, b, c, d, e)

        runners["phevaluator"] = phevaluator_run
    except ImportError:
        pass
    try:
        from pokerkit import Card as PKCard
        from pokerkit import StandardHighHand

        pk_hands = [list(PKCard.parse("".join(h))) for h in texts]

        def pokerkit_run() -> None:
            for h in pk_hands:
                StandardHighHand(h)

        runners["pokerkit"] = pokerkit_run
    except ImportError:
        pass
    return runners


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()

    hands = random_hands(args.hands)
    print(f"per call, {args.hands:,} random hands, median of {args.repeats} repeats")
    runners = per_call_runners(hands)
    times: dict[str, list[float]] = {name: [] for name in runners}
    for _ in range(args.repeats):  # interleaved, so machine noise hits every library alike
        for name, run in runners.items():
            times[name].append(median_seconds(run, 1))
    results = {name: statistics.median(t) / args.hands * 1e9 for name, t in times.items()}
    ours = results["drawpoker"]
    for name, ns in results.items():
        ratio = ns / ours
        print(f"  {name:<12} {ns:8.0f} ns/call   drawpoker is {ratio:5.2f}x faster")

    array = np.array(hands, dtype=np.uint8)
    batch = median_seconds(lambda: evaluate_many(array), args.repeats) / args.hands * 1e9
    print(f"batch (evaluate_many), {args.hands:,} hands: {batch:.1f} ns/hand")
    if "treys" in results:
        print(f"  treys per call / drawpoker batch per hand: {results['treys'] / batch:.0f}x")

    every_hand = np.array(list(combinations(range(52), 5)), dtype=np.uint8)
    whole = median_seconds(lambda: evaluate_many(every_hand), args.repeats)
    print(
        f"all {len(every_hand):,} hands as one array: {whole * 1000:.1f} ms "
        f"({whole / len(every_hand) * 1e9:.1f} ns/hand)"
    )


if __name__ == "__main__":
    main()
