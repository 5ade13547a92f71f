"""``drawpoker match BOT BOT [...] --hands N --structure S --seed S``: a duplicate match."""

from __future__ import annotations

import argparse
import json

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from drawpoker.bots import BOTS
from drawpoker.rules import OpenersCheck, Rules, Structure
from drawpoker.tools.match import play_match


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "match",
        help="play bots against each other in a duplicate match",
        description="Every bot plays every deck from every seat (one session per rotation "
        "of the seats, the same decks in each), which cancels most of the luck. Reports "
        "big blinds per 100 hands with a 95%% confidence interval. "
        f"Bots: {', '.join(BOTS)}.",
    )
    parser.add_argument("bots", nargs="+", metavar="BOT", help="2 to 8 bot names (repeat freely)")
    parser.add_argument("--hands", type=int, default=2000, help="hands to play in total")
    parser.add_argument(
        "--structure",
        choices=[s.value for s in Structure],
        default=None,
        help="betting structure (default: no-limit; italian: pot-limit)",
    )
    parser.add_argument("--preset", choices=["online", "italian"], default="online")
    parser.add_argument(
        "--openers-check",
        choices=[c.value for c in OpenersCheck],
        default="server",
        help="italian: who checks openers (R44)",
    )
    parser.add_argument("--seed", default="1", help="match seed: same seed, same decks")
    parser.add_argument("--stack", type=int, default=100, help="starting stack in big blinds")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(handler=run)


def build_rules(args: argparse.Namespace) -> Rules:
    if args.preset == "italian":
        return Rules.italian(openers_check=args.openers_check)
    return Rules.online(structure=args.structure or "no-limit", small_blind=1, big_blind=2)


def run(args: argparse.Namespace) -> int:
    rules = build_rules(args)
    console = Console(stderr=True)
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("hands"),
        TimeRemainingColumn(),
        console=console,
        disable=args.quiet or args.json,
    ) as bar:
        total = -(-args.hands // len(args.bots)) * len(args.bots)
        task = bar.add_task(" vs ".join(args.bots), total=total)
        result = play_match(
            args.bots,
            rules,
            args.hands,
            args.seed,
            stack_bb=args.stack,
            progress=lambda done: bar.update(task, completed=done),
        )
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
        return 0
    unit = "invito" if rules.is_italian else "bb"
    table = Table(
        title=f"{result.rules.summary()}: {result.hands:,} hands ({result.decks:,} decks × "
        f"{len(args.bots)} seatings), seed {args.seed!r}, {result.seconds:.0f} s"
    )
    table.add_column("bot")
    table.add_column("seats", justify="right")
    table.add_column(f"{unit}/100", justify="right")
    table.add_column("95% interval", justify="right")
    table.add_column("ms/decision", justify="right")
    for r in result.results:
        colour = "green" if r.low > 0 else "red" if r.high < 0 else "yellow"
        table.add_row(
            r.name,
            str(r.seats),
            f"[{colour}]{r.bb_per_100:+.2f}[/{colour}]",
            f"{r.low:+.2f} to {r.high:+.2f}",
            f"{r.mean_decision_ms:.2f}",
        )
    Console().print(table)
    return 0
