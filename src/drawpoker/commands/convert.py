"""``drawpoker convert FILE --to pokerstars|phh``: write a PHH history in another form."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from drawpoker.commands import add_history_arguments
from drawpoker.history import phh, pokerstars, pokerstars_read
from drawpoker.history.files import read_hands
from drawpoker.history.phh import HistoryError
from drawpoker.history.replay import replay


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "convert",
        help="convert hand histories between PHH and PokerStars-style text",
        description="A .phh/.phhs file: replay each hand through the engine and write it "
        "again, as PokerStars-style text (the archive view with every card, or one player's "
        "view with --seat) or as PHH the way drawpoker writes it (.phhs when several hands). "
        "A PokerStars-style text file (drawpoker's or PokerStars' own 5 Card Draw): write "
        "it as PHH, unseen cards as ??.",
    )
    add_history_arguments(parser)
    parser.add_argument("--to", required=True, choices=("pokerstars", "phh"))
    parser.add_argument(
        "--seat",
        type=int,
        metavar="S",
        help="PokerStars text as seat S sees it (default: all cards)",
    )
    parser.add_argument("-o", "--output", metavar="PATH", help="write here instead of stdout")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    source = Path(args.file)
    try:
        head = source.read_text(encoding="utf-8")
    except OSError as error:
        raise HistoryError(f"{args.file}: {error.strerror}") from None
    if pokerstars_read.is_pokerstars(head):
        return _from_pokerstars(args, head)
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
    _emit(args, text)
    return 0


def _from_pokerstars(args: argparse.Namespace, text: str) -> int:
    if args.to != "phh":
        raise HistoryError(f"{args.file}: already PokerStars text (convert it --to phh)")
    try:
        records = pokerstars_read.read_all(text)
    except HistoryError as error:
        raise HistoryError(f"{args.file}: {error}") from None
    if args.hand is not None:
        if not 1 <= args.hand <= len(records):
            raise HistoryError(f"{args.file}: there is no hand {args.hand}")
        records = [records[args.hand - 1]]
    out = phh.render(records[0]) if len(records) == 1 else phh.render_all(records)
    _emit(args, out)
    return 0


def _emit(args: argparse.Namespace, text: str) -> None:
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
