"""Engine speed: the same random-play policy through drawpoker and PokerKit.

Six players, no limit, blinds 1/2, stacks 200, a fresh deck each hand. Both
engines play ``drawpoker.simulate.random_action``'s policy: check or call three
times as often as a fold (facing a bet) or a bet, bet sizes leaning to the
minimum and maximum, random draws. Rounds alternate between the engines;
medians are reported.

    .venv/bin/python benchmarks/engine.py [--hands 1000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import warnings
from pathlib import Path

from drawpoker.rules import Rules
from drawpoker.simulate import DRAWS, simulate

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "engine"))

STACK, PLAYERS = 200, 6


def drawpoker_hands(hands: int, seed: int, checks: bool) -> float:
    rules = Rules.online(structure="no-limit", small_blind=1, big_blind=2)
    start = time.perf_counter()
    simulate(
        rules, PLAYERS, hands, random.Random(seed), stack=STACK,
        check_invariants=checks, timeout_rate=0.0,
    )  # fmt: skip
    return hands / (time.perf_counter() - start)


def pokerkit_hands(hands: int, seed: int) -> float:
    from pokerkit import Automation
    from pokerkit_draw import AUTOMATIONS, FiveCardDraw

    game = FiveCardDraw("no-limit", (1, 2), 2, 2)
    game.automations = (*AUTOMATIONS, Automation.HOLE_DEALING)
    rng = random.Random(seed)
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(hands):
            state = game.start([STACK] * PLAYERS)
            while state.status:
                if state.can_stand_pat_or_discard():
                    held = list(state.hole_cards[state.stand_patter_or_discarder_index])
                    state.stand_pat_or_discard(rng.sample(held, rng.choice(DRAWS)))
                    continue
                if state.can_deal_hole():
                    state.deal_hole()
                    continue
                choices = []
                if state.checking_or_calling_amount and state.can_fold():
                    choices.append("fold")
                choices += ["call"] * 3
                if state.can_complete_bet_or_raise_to():
                    choices.append("raise")
                choice = rng.choice(choices)
                if choice == "fold":
                    state.fold()
                elif choice == "call":
                    state.check_or_call()
                else:
                    low = state.min_completion_betting_or_raising_to_amount
                    high = state.max_completion_betting_or_raising_to_amount
                    state.complete_bet_or_raise_to(
                        rng.choice((low, low, high, rng.randint(low, high)))
                    )
    return hands / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    ours, ours_checked, theirs = [], [], []
    for round_number in range(args.rounds):
        ours.append(drawpoker_hands(args.hands, round_number, checks=False))
        ours_checked.append(drawpoker_hands(args.hands, round_number, checks=True))
        theirs.append(pokerkit_hands(max(args.hands // 10, 20), round_number))
    ours_median = statistics.median(ours)
    checked_median = statistics.median(ours_checked)
    theirs_median = statistics.median(theirs)
    print(f"6 players, no limit 1/2, stacks 200, random play; medians of {args.rounds} rounds")
    print(f"  drawpoker, invariant checks off: {ours_median:8,.0f} hands/s")
    print(f"  drawpoker, invariant checks on:  {checked_median:8,.0f} hands/s")
    print(f"  PokerKit:                        {theirs_median:8,.0f} hands/s")
    print(f"  drawpoker / PokerKit: {ours_median / theirs_median:.1f}x "
          f"(checks on: {checked_median / theirs_median:.1f}x)")  # fmt: skip


if __name__ == "__main__":
    main()
