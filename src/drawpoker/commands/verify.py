"""``drawpoker verify FILE [--hand N] [--json]``: check the deck commitment and every card."""

from __future__ import annotations

import argparse
import json

from drawpoker.commands import add_history_arguments
from drawpoker.history.files import read_hands
from drawpoker.history.verify import verify


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "verify",
        help="check a hand history against its deck commitment and revealed seed",
        description="For each hand: check that SHA-256 of the revealed seed is the "
        "commitment published before the deal, then re-derive every card dealt "
        "(reshuffles included) and report where the history and the seed disagree. "
        "Exit status 1 if any hand fails.",
    )
    add_history_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    verdicts = [
        verify(data, number=number, source=args.file)
        for number, data in read_hands(args.file, args.hand)
    ]
    if args.json:
        rows = [
            {
                "hand": v.number,
                "ok": v.ok,
                "cards": v.cards,
                "reshuffles": v.reshuffles,
                "problems": v.problems,
            }
            for v in verdicts
        ]
        print(json.dumps(rows, indent=2))
    else:
        for v in verdicts:
            print(v.describe())
    return 0 if all(v.ok for v in verdicts) else 1
