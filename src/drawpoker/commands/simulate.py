"""``drawpoker simulate``: random legal play with invariant checks after every action."""

from __future__ import annotations

import argparse
import random
import time

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

from drawpoker.rules import Rules
from drawpoker.tools.simulate import simulate


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="play random legal hands, checking the engine's invariants",
        description="Play N hands of random legal actions (random draws too) at one "
        "table, check chips, cards and turn after every action, and print hands per "
        "second and a summary.",
    )
    parser.add_argument("--hands", type=int, default=1000, help="hands to play (1000)")
    parser.add_argument("--players", type=int, default=6, choices=range(2, 9), metavar="2-8")
    parser.add_argument(
        "--structure", choices=["no-limit", "pot-limit", "fixed-limit"], default="no-limit"
    )
    parser.add_argument("--preset", choices=["online", "italian"], default="online")
    parser.add_argument("--seed", type=int, default=None, help="seed for a repeatable run")
    parser.add_argument("--rake", type=int, default=5, help="rake percent (online preset)")
    parser.add_argument(
        "--no-checks", action="store_true", help="skip the invariant checks (to time the engine)"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.hands < 1:
        raise SystemExit("drawpoker simulate: --hands must be at least 1")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**63)
    if args.preset == "italian":
        rules = Rules.italian(max_seats=max(args.players, 2))
    else:
        rules = Rules.online(
            structure=args.structure, max_seats=args.players, rake_percent=args.rake
        )
    console = Console(stderr=True)
    started = time.perf_counter()
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task("hands", total=args.hands)
        summary = simulate(
            rules,
            args.players,
            args.hands,
            random.Random(seed),
            check_invariants=not args.no_checks,
            progress=lambda done: progress.update(task, completed=done),
        )
    elapsed = time.perf_counter() - started
    checks = "off" if args.no_checks else "on"
    print(f"{rules.summary()}, {args.players} players, seed {seed}")
    print(f"{summary.hands} hands, {summary.actions} actions in {elapsed:.2f} s: "
          f"{summary.hands / elapsed:,.0f} hands/s (invariant checks {checks})")  # fmt: skip
    print(
        f"showdowns {summary.showdowns}, won uncontested {summary.uncontested}, "
        f"reshuffles {summary.reshuffles}, carried-over pots {summary.carried_pots}, "
        f"timeouts {summary.timeouts}, rake {summary.rake}"
    )
    print("every invariant held" if not args.no_checks else "no invariants checked")
    return 0
