"""``drawpoker odds HAND [--dead CARDS] [--json] [--top N]``: exact odds of every discard."""

from __future__ import annotations

import argparse
import json

from drawpoker.cards import format_cards
from drawpoker.evaluator import Category
from drawpoker.odds import CATEGORIES, check_hand, draw_odds

_SHORT = {
    Category.HIGH_CARD: "high",
    Category.PAIR: "pair",
    Category.TWO_PAIR: "2pair",
    Category.THREE_OF_A_KIND: "trips",
    Category.STRAIGHT: "str",
    Category.FLUSH: "flush",
    Category.FULL_HOUSE: "full",
    Category.FOUR_OF_A_KIND: "quads",
    Category.STRAIGHT_FLUSH: "sflush",
}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "odds",
        help="exact odds of every keep/discard choice of a hand",
        description="For each of the 32 ways to keep cards and draw, count every possible "
        "draw from the unseen cards: the chance of each final hand category and the "
        "expected value (the final hand's share of all five-card hands it beats). "
        "Best choice first.",
    )
    parser.add_argument("hand", metavar="HAND", help='five cards, e.g. "Jc Jd 8d 4d 2d"')
    parser.add_argument("--dead", default="", metavar="CARDS", help="cards known to be out of play")
    parser.add_argument("--top", type=int, default=32, metavar="N", help="show the best N")
    parser.add_argument("--json", action="store_true", help="print JSON (exact fractions)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    hand, dead = check_hand(args.hand, args.dead)
    options = draw_odds(hand, dead)[: max(args.top, 1)]
    if args.json:
        data = {
            "hand": format_cards(hand),
            "dead": format_cards(dead),
            "unseen": 47 - len(dead),
            "options": [option.to_dict() for option in options],
        }
        print(json.dumps(data, indent=2))
        return 0
    print(f"{format_cards(hand)}" + (f"  (dead: {format_cards(dead)})" if dead else ""))
    header = "  ".join(f"{_SHORT[c]:>6}" for c in CATEGORIES)
    print(f"{'choice':<28} {'ev':>6}  {header}")
    for option in options:
        cells = "  ".join(
            f"{100 * count / option.draws:>5.1f}%" if count else f"{'-':>6}"
            for count in option.counts
        )
        print(f"{option.label():<28} {option.ev:>6.4f}  {cells}")
    return 0
