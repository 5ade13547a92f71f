"""``drawpoker demo``: deal a hand from a fresh seed and show the showdown."""

from __future__ import annotations

import argparse

from drawpoker.cards import format_cards
from drawpoker.deck import Deck, commitment, new_seed
from drawpoker.evaluator import evaluate


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("demo", help="deal a demo hand in the terminal")
    parser.add_argument("--players", type=int, default=4, choices=range(2, 9), metavar="2-8")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    seed = new_seed()
    print(f"deck commitment {commitment(seed)}")
    deck = Deck.from_seed(seed)
    hands = [deck.deal(5) for _ in range(args.players)]
    values = [evaluate(hand) for hand in hands]
    best = max(v.strength for v in values)
    for seat, (hand, value) in enumerate(zip(hands, values, strict=True), start=1):
        mark = "  wins" if value.strength == best else ""
        print(f"seat {seat}: {format_cards(hand)}  {value.description}{mark}")
    print(f"seed {seed.hex()}")
    return 0
