"""Hand-history speed: drawpoker's PHH writer and reader against PokerKit's, same hands.

2,000 random hands (no, pot and fixed limit, reshuffles included) are played by
the engine, then, in one process:

- writing, like for like: ``drawpoker.history.phh.render_all`` from PHH records
  (typed fields and action strings, built before timing) against PokerKit's
  ``HandHistory.dumps_all`` from ``HandHistory`` objects of the same hands;
- writing from play: the engine's events to text (``dumps_all`` of the played
  hands: records built, then rendered) against PokerKit's
  ``HandHistory.from_game_state`` of the finished states, then ``dumps_all``;
- reading: parse the ``.phhs`` text, validate every action and replay each hand to
  its final stacks: ``loads_all`` + ``replay`` against PokerKit's ``loads_all`` and
  iterating every hand's states to the end.

Prints the median CPU time (``time.process_time``: the machine may be shared) of
several repeats and the ratio (PokerKit time / drawpoker time). Targets: writing at
least 10x faster, reading at least 3x faster.

    .venv/bin/python benchmarks/history.py [--hands 2000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import warnings
from collections.abc import Callable

from drawpoker.hand import Hand
from drawpoker.history import dumps_all, loads_all, replay
from drawpoker.history.phh import record, render_all
from drawpoker.history.pokerkit_codes import DrawHandHistory, play
from drawpoker.history.samples import random_hand
from drawpoker.rules import Rules


def played(count: int, seed: int) -> list[Hand]:
    rng = random.Random(seed)
    rules = [
        Rules.online(structure="no-limit", max_seats=8, rake_percent=5),
        Rules.online(structure="pot-limit", max_seats=8),
        Rules.online(structure="fixed-limit", max_seats=8, fl_cap_lifted_heads_up=False),
    ]
    return [random_hand(rules[i % 3], rng, hand_id=str(i)) for i in range(count)]


def median_seconds(run: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    warnings.simplefilter("ignore")  # PokerKit announces every reshuffle with a warning

    hands = played(args.hands, args.seed)
    records = [record(h) for h in hands]
    text = render_all(records)
    theirs = list(DrawHandHistory.loads_all(text))
    states = []
    for history in theirs:
        try:
            states.append((history.create_game(), play(history)))
        except ValueError:  # a rule PokerKit lacks (R16)
            continue
    want = [[h.result.stacks[p.seat] for p in h.players] for h in hands]

    def ours_read() -> list[list[int]]:
        out = []
        for data in loads_all(text):
            hand = replay(data).hand
            out.append([p.stack for p in hand.players])
        return out

    def pokerkit_read() -> list[list[int] | None]:
        out: list[list[int] | None] = []
        for history in DrawHandHistory.loads_all(text):
            try:
                *_, last = history  # every state, to the end of the hand
            except ValueError:  # a rule PokerKit lacks (R16), see tests/test_history_pokerkit.py
                out.append(None)
                continue
            out.append(list(last.stacks))
        return out

    agree = sum(a == b for a, b in zip(pokerkit_read(), want, strict=True))
    assert ours_read() == want

    def pokerkit_from_play() -> str:
        return DrawHandHistory.dumps_all(
            [DrawHandHistory.from_game_state(game, state) for game, state in states]
        )

    rows = [
        ("write", median_seconds(lambda: render_all(records), args.repeats),
         median_seconds(lambda: DrawHandHistory.dumps_all(theirs), args.repeats), 10),
        ("write from play", median_seconds(lambda: dumps_all(hands), args.repeats),
         median_seconds(pokerkit_from_play, args.repeats) * len(hands) / len(states), 10),
        ("read + replay", median_seconds(ours_read, args.repeats),
         median_seconds(pokerkit_read, args.repeats), 3),
    ]  # fmt: skip
    print(f"{args.hands} hands, {len(text) / 1e6:.2f} MB of PHH, median of {args.repeats} runs")
    print(f"PokerKit replays {agree}/{args.hands} hands to the same final stacks")
    print(f"(write from play: PokerKit time scaled from the {len(states)} hands it can play)")
    print(f"{'':<16} {'drawpoker':>12} {'PokerKit':>12} {'ratio':>8} {'target':>8}")
    for name, ours, pk, target in rows:
        ratio = pk / ours
        mark = "ok" if ratio >= target else "MISSED"
        print(
            f"{name:<16} {ours * 1e3:>10.1f}ms {pk * 1e3:>10.1f}ms {ratio:>7.1f}x"
            f" {'>=' + str(target) + 'x':>6} {mark}"
        )


if __name__ == "__main__":
    main()
