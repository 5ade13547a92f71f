"""``drawpoker simulate-tournament``: a whole tournament with bots at simulated time."""

from __future__ import annotations

import argparse
import json
import secrets
from dataclasses import replace

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from drawpoker.errors import InvalidConfig
from drawpoker.room.structure import standard_levels
from drawpoker.room.tournament import Kind, Tournament
from drawpoker.tools.tournament_sim import (
    BotPolicy,
    Policy,
    simple_policy,
    simulate,
    sit_and_go_config,
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "simulate-tournament",
        help="run a whole tournament with bots at simulated time",
        description="Register bots in a sit & go of --players entries, play it to the end "
        "at simulated time (blinds rising by level, tables balanced and broken, "
        "hand-for-hand on the bubble) and print the standings, payouts, number of hands "
        "and table moves.",
    )
    parser.add_argument("--players", type=int, default=90, help="entries (2 or more)")
    parser.add_argument(
        "--structure", choices=("no-limit", "pot-limit", "fixed-limit"), default="no-limit"
    )
    parser.add_argument("--seed", default=None, help="any text; the same seed, the same run")
    parser.add_argument("--seats", type=int, default=8, choices=range(2, 9), metavar="2-8")
    parser.add_argument("--stack", type=int, default=1500, help="starting stack")
    parser.add_argument("--buy-in", type=int, default=100, help="to the prize pool")
    parser.add_argument("--fee", type=int, default=10, help="the house's, per entry")
    parser.add_argument("--level-minutes", type=float, default=8.0)
    parser.add_argument("--antes-from", type=int, default=None, help="antes from this level")
    parser.add_argument(
        "--bots",
        default=None,
        help="comma-separated drawpoker.bots names dealt round the players "
        "(e.g. shark,tag); default: the simulator's fast built-in policy",
    )
    parser.add_argument(
        "--scheduled",
        action="store_true",
        help="a scheduled multi-table tournament (late registration and re-entry allowed) "
        "rather than a sit & go",
    )
    parser.add_argument(
        "--late-levels", type=int, default=0, help="scheduled: late registration levels"
    )
    parser.add_argument("--reentries", type=int, default=0, help="scheduled: per player")
    parser.add_argument(
        "--reentry-chance",
        type=float,
        default=0.5,
        help="chance a busted bot re-enters while it may (default 0.5)",
    )
    parser.add_argument("--top", type=int, default=20, help="standings rows to print")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress display")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.players < 2:
        raise InvalidConfig(f"--players must be 2 or more, not {args.players}")
    seed = args.seed if args.seed is not None else secrets.token_hex(8)
    config = sit_and_go_config(
        args.players,
        args.structure,
        seats_per_table=min(args.seats, args.players),
        starting_stack=args.stack,
        buy_in=args.buy_in,
        fee=args.fee,
        levels=standard_levels(args.level_minutes, antes_from=args.antes_from),
    )
    if args.scheduled:
        config = replace(
            config,
            kind=Kind.SCHEDULED,
            max_entries=args.players * (1 + args.reentries),
            late_registration_levels=args.late_levels,
            reentries=args.reentries,
        )
    elif args.late_levels or args.reentries:
        raise InvalidConfig("--late-levels and --reentries need --scheduled")
    err = Console(stderr=True)
    show = not (args.quiet or args.json)
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[info]}"),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=not show,
    ) as bar:
        task = bar.add_task("players out", total=args.players - 1, info="")

        def progress(t: Tournament, now: float) -> None:
            entries = len(t.entries)
            bar.update(task, total=entries - 1)
            out = entries - t.alive_count
            level = t.config.levels[t.level_at(now)]
            info = (
                f"{len(t.tables)} tables · level {t.level_at(now) + 1} "
                f"({level.small_blind}/{level.big_blind}) · {t.hands_played} hands"
            )
            bar.update(task, completed=min(out, entries - 1), info=info)

        policy: Policy = simple_policy
        if args.bots:
            policy = BotPolicy([k.strip() for k in args.bots.split(",") if k.strip()], seed=seed)
        result = simulate(
            config,
            args.players,
            seed=seed,
            policy=policy,
            progress=progress,
            reentry_chance=args.reentry_chance if args.reentries else 0.0,
        )
    t = result.tournament
    summary = result.summary() | {
        "seed": seed,
        "max_table_spread": result.max_table_spread,
        "big_blind_twice": result.big_blind_twice,
    }
    if args.json:
        print(json.dumps(summary | {"results": t.results()}, indent=2))
        return 0
    entries = len(t.entries)
    kind = "scheduled" if args.scheduled else "sit & go"
    print(
        f"{args.players} players ({entries} entries, {kind}), {args.structure}, seed {seed}: "
        f"{result.hands} hands, "
        f"{result.moves} table moves, {t.hand_for_hand_rounds} hand-for-hand rounds, "
        f"{result.simulated_seconds / 3600:.1f} simulated hours, "
        f"{result.machine_seconds:.2f} s of machine time "
        f"({result.hands / max(result.cpu_seconds, 1e-9):,.0f} hands a second of CPU)"
    )
    print(
        f"prize pool {t.prize_pool} ({entries} x {args.buy_in}), "
        f"fees {t.fees} ({entries} x {args.fee}), {len(t.prizes)} places paid"
    )
    table = Table(title="Standings")
    table.add_column("place", justify="right")
    table.add_column("player")
    table.add_column("prize", justify="right")
    for entry in t.standings()[: args.top]:
        places = entry.places
        place = str(places[0]) if len(places) == 1 else f"{places[0]}-{places[-1]} (tie)"
        table.add_row(place, entry.player, str(entry.prize) if entry.prize else "")
    Console().print(table)
    payouts = ", ".join(f"{i}: {p}" for i, p in enumerate(t.prizes, start=1))
    print(f"payouts by place: {payouts}")
    return 0
