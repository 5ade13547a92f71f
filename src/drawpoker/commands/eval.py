"""``drawpoker eval HAND [HAND ...]``: value of each hand and which wins."""

from __future__ import annotations

import argparse
import json

from drawpoker.cards import format_cards, parse_cards
from drawpoker.errors import InvalidCards
from drawpoker.evaluator import evaluate


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "eval",
        help="evaluate five-card hands and say which wins",
        description="Print each hand's category, strength (1-7462, higher wins) and "
        "description, and which hand wins or that they split.",
    )
    parser.add_argument(
        "hands", nargs="+", metavar="HAND", help='five cards, e.g. "Ah Kh Qh Jh Th"'
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    hands = []
    for text in args.hands:
        cards = parse_cards(text)
        if len(cards) != 5:
            raise InvalidCards(f"{text!r} has {len(cards)} cards; a hand has 5")
        hands.append(cards)
    values = [evaluate(cards) for cards in hands]
    best = max(value.strength for value in values)
    winners = [i for i, value in enumerate(values) if value.strength == best]
    names = [format_cards(cards) for cards in hands]
    if len(hands) == 1:
        verdict = ""
    elif len(winners) == 1:
        verdict = f"{names[winners[0]]} wins"
    else:
        verdict = "split: " + ", ".join(names[i] for i in winners)
    if args.json:
        rows = [
            {
                "hand": name,
                "category": value.label,
                "strength": value.strength,
                "description": value.description,
            }
            for name, value in zip(names, values, strict=True)
        ]
        print(json.dumps({"hands": rows, "winners": winners, "verdict": verdict}, indent=2))
        return 0
    for name, value in zip(names, values, strict=True):
        print(f"{name}  {value.label:<15}  {value.strength:>4}  {value.description}")
    if verdict:
        print(verdict)
    return 0
