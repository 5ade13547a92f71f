"""``drawpoker verify FILE [--hand N] [--json]``: check the deck commitments: a player's
openings of the cards they saw, or an archive's every card from its seed."""

from __future__ import annotations

import argparse
import json

from drawpoker.commands import add_history_arguments
from drawpoker.history.files import read_hands
from drawpoker.history.verify import verify


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "verify",
        help="check a hand history against its deck commitments",
        description="For each hand of a player's history (the room's PHH download, or "
        "the JSON of GET /api/hands/{hand}): check "
        "each opening of the cards that player saw against the Merkle root published "
        "before the deal (or the reshuffle), that the opened cards are those the "
        "history shows, and that each lies where the deal puts it. For an archive "
        "with its seed: check that the seed's deck has the published root, then "
        "re-derive every card dealt (reshuffles included) and report where the "
        "history and the seed disagree. Exit status 1 if any hand fails.",
    )
    add_history_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    verdicts = [
        verify(data, number=number, source=args.file)
        for number, data in read_hands(args.file, args.hand, json_history=True)
    ]
    if args.json:
        rows = [
            {
                "hand": v.number,
                "ok": v.ok,
                "cards": v.cards,
                "opened": v.opened,
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
