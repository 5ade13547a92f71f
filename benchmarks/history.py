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

Prints the median CPU time (``time.process_time``, after a garbage collection; the
two sides' runs alternate, as the machine may be shared) of several repeats and the
ratio (PokerKit time / drawpoker time). Targets: writing at
least 10x faster, reading at least 3x faster.

    .venv/bin/python benchmarks/history.py [--hands 2000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
import warnings
from collections.abc import Callable

from drawpoker.hand import Hand
from drawpoker.history import dumps_all, loads_all, replay
from drawpoker.history.phh import record, render_all
from drawpoker.history.pokerkit_codes import DrawHandHistory, play
from drawpoker.rules import Rules
from drawpoker.tools.samples import random_hand


def played(count: int, seed: int) -> list[Hand]:
    rng = random.Random(seed)
    rules = [
        Rules.online(structure="no-limit", max_seats=8, rake_percent=5),
        Rules.online(structure="pot-limit", max_seats=8),
        Rules.online(structure="fixed-limit", max_seats=8, fl_cap_lifted_heads_up=False),
    ]
    return [random_hand(rules[i % 3], rng, hand_id=str(i)) for i in range(count)]


def cpu_seconds(run: Callable[[], object]) -> float:
    gc.collect()
    start = time.process_time()
    run()
    return time.process_time() - start


def medians(
    ours: Callable[[], object], theirs: Callable[[], object], repeats: int
) -> tuple[float, float]:
    """Median CPU seconds of each, the runs alternating so that a busy moment of a
    shared machine falls on both."""
    a, b = [], []
    for _ in range(repeats):
        a.append(cpu_seconds(ours))
        b.append(cpu_seconds(theirs))
    return statistics.median(a), statistics.median(b)


def measure_writes(
    hands: list[Hand], text: str, repeats: int
) -> tuple[tuple[float, float], tuple[float, float], int]:
    """(write, write from play) medians, and how many hands PokerKit can play."""
    records = [record(h) for h in hands]
    theirs = list(DrawHandHistory.loads_all(text))
    states = []
    for history in theirs:
        try:
            states.append((history.create_game(), play(history)))
        except ValueError:  # a rule PokerKit lacks (R16)
            continue

    def pokerkit_from_play() -> str:
        return DrawHandHistory.dumps_all(
            [DrawHandHistory.from_game_state(game, state) for game, state in states]
        )

    write = medians(lambda: render_all(records), lambda: DrawHandHistory.dumps_all(theirs), repeats)
    from_play = medians(lambda: dumps_all(hands), pokerkit_from_play, repeats)
    return write, from_play, len(states)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    warnings.simplefilter("ignore")  # PokerKit announces every reshuffle with a warning

    hands = played(args.hands, args.seed)
    text = render_all([record(h) for h in hands])
    want = [[h.result.stacks[p.seat] for p in h.players] for h in hands]
    write, play_write, playable = measure_writes(hands, text, args.repeats)
    del hands  # reading starts from the text alone

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
    read = medians(ours_read, pokerkit_read, args.repeats)
    rows = [
        ("write", *write, 10),
        ("write from play", play_write[0], play_write[1] * args.hands / playable, 10),
        ("read + replay", *read, 3),
    ]
    print(f"{args.hands} hands, {len(text) / 1e6:.2f} MB of PHH, median of {args.repeats} runs")
    print(f"PokerKit replays {agree}/{args.hands} hands to the same final stacks")
    print(f"(write from play: PokerKit time scaled from the {playable} hands it can play)")
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
