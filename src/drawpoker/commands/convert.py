"""``drawpoker convert FILE --to pokerstars|phh``: write a PHH history in another form."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from drawpoker.history import phh, pokerstars
from drawpoker.history.files import read_hands
from drawpoker.history.replay import replay


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "convert",
        help="convert a .phh/.phhs history to PokerStars-style text or to drawpoker's PHH",
        description="Replay each hand through the engine and write it again: as "
        "PokerStars-style text (the archive view with every card, or one player's view "
        "with --seat), or as PHH the way drawpoker writes it (.phhs when several hands).",
    )
    parser.add_argument("file", metavar="FILE", help="a .phh or .phhs file")
    parser.add_argument("--to", required=True, choices=("pokerstars", "phh"))
    parser.add_argument("--hand", type=int, metavar="N", help="only hand N (from 1)")
    parser.add_argument(
        "--seat",
        type=int,
        metavar="S",
        help="PokerStars text as seat S sees it (default: all cards)",
    )
    parser.add_argument("-o", "--output", metavar="PATH", help="write here instead of stdout")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    replayed = [
        replay(data, source=args.file, number=number)
        for number, data in read_hands(args.file, args.hand)
    ]
    if args.to == "pokerstars":
        text = "\n\n".join(
            pokerstars.write(r.hand, r.info, viewer=args.seat).rstrip("\n") for r in replayed
        )
        text += "\n"
    elif len(replayed) == 1:
        text = phh.dumps(replayed[0].hand, replayed[0].info)
    else:
        text = phh.dumps_all((r.hand, r.info) for r in replayed)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0
