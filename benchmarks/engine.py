"""Engine speed: the same random-play policy through drawpoker and PokerKit.

Six players, no limit, blinds 1/2, every hand from fresh stacks of 200, a fresh
deck each hand (drawpoker: from a 32-byte seed; PokerKit: its own shuffle). Both
engines play ``drawpoker.tools.simulate``'s policy (``random_bet`` and
``random_discard``, which ``random_action`` wraps): check or call three times as
often as a fold (facing a bet) or a bet, bet sizes leaning to the minimum and
maximum, random draws. Each engine is driven the way its API is meant to be
used: drawpoker asks ``legal_actions()`` and calls ``act(Action)``; PokerKit
asks its ``can_*`` queries and amount properties and calls its operations, with
every step a room does not choose automated (posting, collecting, dealing,
showdown, pushing chips), and no burn card (drawpoker's default rules burn none).

drawpoker runs as installed: with ``make``, its engine core is compiled with
mypyc (``drawpoker._native``; the first line says which modules). A third run
sets ``DRAWPOKER_PURE=1`` to measure the same engine as Python source.

The figures come from child processes, each running both engines in turn
(rounds alternate between them). Time is the CPU time of the benchmark's thread
(``time.thread_time``), so a shared, busy machine slows both engines less
unevenly than wall-clock time would; the ratio is the median of each round's
ratio, with the range over the rounds:

- invariant checks off: ``python -O``, so PokerKit's ``assert`` statements (its
  own internal checks) are compiled out; drawpoker runs no checks (compiled,
  then pure Python).
- invariant checks on: plain ``python`` (PokerKit's asserts run); drawpoker calls
  ``Hand.check_invariants()`` after the deal and after every action (chips
  conserved, every card once, the turn).

    .venv/bin/python benchmarks/engine.py [--hands 1000] [--rounds 5]
    .venv/bin/python -O benchmarks/engine.py --only drawpoker --hands 300  # one engine,
        # one round, in this process; instructions per hand of the measured loop alone:
    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=functools_reduce \
        .venv/bin/python -O benchmarks/engine.py --only drawpoker --hands 300
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import statistics
import subprocess
import sys
import time
import warnings
from pathlib import Path

from drawpoker._native import compiled_modules
from drawpoker.actions import ActionKind
from drawpoker.hand import Hand
from drawpoker.rules import Rules
from drawpoker.tools.simulate import random_action, random_bet, random_discard

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "engine"))

STACK, PLAYERS = 200, 6


def drawpoker_hands(hands: int, seed: int, checks: bool) -> float:
    rules = Rules.online(structure="no-limit", small_blind=1, big_blind=2)
    stacks = dict.fromkeys(range(1, PLAYERS + 1), STACK)
    rng = random.Random(seed)
    start = time.thread_time()
    for number in range(hands):
        hand = Hand(
            rules,
            stacks,
            number % PLAYERS + 1,
            seed=rng.randbytes(32),
            hand_id=str(number),
            commit=False,  # the rules only, as PokerKit: no deck commitments (fairness.md)
        )
        if checks:
            hand.check_invariants()
        while (legal := hand.legal_actions()) is not None:
            hand.act(random_action(legal, rng))
            if checks:
                hand.check_invariants()
        hand.result  # noqa: B018 - the stacks a room takes away
    return hands / (time.thread_time() - start)


def pokerkit_hands(hands: int, seed: int) -> float:
    from pokerkit import Automation
    from pokerkit_draw import AUTOMATIONS, FiveCardDraw

    game = FiveCardDraw("no-limit", (1, 2), 2, 2, burn=False)
    game.automations = (*AUTOMATIONS, Automation.HOLE_DEALING)
    rng = random.Random(seed)
    random.seed(seed)  # PokerKit shuffles with the global random module
    start = time.thread_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(hands):
            state = game.start([STACK] * PLAYERS)
            while state.status:
                drawing = state.standing_pat_or_discarding_statuses  # no raise-and-catch query
                if any(drawing):
                    held = state.hole_cards[drawing.index(True)]
                    state.stand_pat_or_discard(random_discard(rng, held, 5))
                    continue
                low = high = 0
                if state.can_complete_bet_or_raise_to():
                    low = state.min_completion_betting_or_raising_to_amount
                    high = state.max_completion_betting_or_raising_to_amount
                may_fold = bool(state.checking_or_calling_amount) and state.can_fold()
                kind, amount = random_bet(rng, may_fold, low, high)
                if kind is ActionKind.BET:
                    state.complete_bet_or_raise_to(amount)
                elif kind is ActionKind.FOLD:
                    state.fold()
                else:
                    state.check_or_call()
            state.stacks  # noqa: B018 - the stacks a room takes away
    return hands / (time.thread_time() - start)


def child(hands: int, rounds: int) -> None:
    """One process: rounds alternating between the engines; prints JSON."""
    checks = __debug__  # ``python -O``: PokerKit's asserts are off, and so are ours
    ours, theirs = [], []
    for round_number in range(rounds):
        ours.append(drawpoker_hands(hands, round_number, checks))
        theirs.append(pokerkit_hands(max(hands // 10, 20), round_number))
    print(json.dumps({"checks": checks, "drawpoker": ours, "pokerkit": theirs}))


def run_child(optimize: bool, pure: bool, hands: int, rounds: int) -> dict[str, list[float]]:
    flags = ["-O"] if optimize else []
    args = [sys.executable, *flags, __file__, "--child", f"--hands={hands}", f"--rounds={rounds}"]
    env = dict(os.environ, DRAWPOKER_PURE="1") if pure else None
    output = subprocess.run(args, check=True, capture_output=True, text=True, env=env).stdout
    result: dict[str, list[float]] = json.loads(output)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="drawpoker hands a round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", choices=["drawpoker", "pokerkit"], help=argparse.SUPPRESS)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.only:
        play = functools.partial(drawpoker_hands, checks=__debug__)
        if args.only == "pokerkit":
            play = pokerkit_hands
        play(1, 99)  # imports and first calls, outside the measured call
        # The one call made through functools.reduce, so that callgrind can count it
        # alone: --collect-atstart=no --toggle-collect=functools_reduce
        rate = functools.reduce(lambda _, __: play(args.hands, 0), [0, 0])
        print(f"{rate:,.0f} hands/s")
        return
    if args.child:
        child(args.hands, args.rounds)
        return
    load = os.getloadavg()[0]
    compiled = ", ".join(compiled_modules()) or "none: run scripts/build_native.py"
    print(f"6 players, no limit 1/2, stacks 200, random play; medians of {args.rounds} rounds")
    print(f"drawpoker modules compiled with mypyc: {compiled}")
    runs = ((True, False, "off"), (True, True, "off, pure Python"), (False, False, "on"))
    for optimize, pure, label in runs:
        result = run_child(optimize, pure, args.hands, args.rounds)
        ours = statistics.median(result["drawpoker"])
        theirs = statistics.median(result["pokerkit"])
        ratios = [a / b for a, b in zip(result["drawpoker"], result["pokerkit"], strict=True)]
        print(f"  invariant checks {label + ':':17} drawpoker {ours:8,.0f} hands/s, "
              f"PokerKit {theirs:6,.0f} hands/s, ratio {statistics.median(ratios):5.1f}x "
              f"(rounds {min(ratios):.1f}x-{max(ratios):.1f}x)")  # fmt: skip
    print(f"  load average: {load:.2f} before, {os.getloadavg()[0]:.2f} after")


if __name__ == "__main__":
    main()
