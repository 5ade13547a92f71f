"""``drawpoker bot``: N remote bots play on a drawpoker server over the websocket."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from drawpoker.bots import BOTS
from drawpoker.bots.remote import CashResult, RemoteBot, RemoteBotError, TournamentResult


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "bot",
        help="run bots that play on a server over the websocket, as people do",
        description="Start --count bots of --kind, each logged in as a guest (or one "
        "--name/--password account), at a cash --table (sit, play --hands hands, leave) "
        "or in a --tournament (register, play to the end). Progress goes to stderr; a "
        "summary (hands, chips won or lost; or places and prizes) to stdout.",
    )
    parser.add_argument("--server", default="http://127.0.0.1:8000", help="the server's URL")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--table", help="a cash table id (GET /api/tables)")
    where.add_argument("--tournament", help="a tournament id (GET /api/tournaments)")
    parser.add_argument("--kind", choices=tuple(BOTS), default="tag", help="the policy")
    parser.add_argument("--count", type=int, default=1, help="bots to run (default 1)")
    parser.add_argument(
        "--hands", type=int, default=20, help="cash: hands each bot plays (0: until Ctrl-C)"
    )
    parser.add_argument("--buy-in", type=int, default=None, help="cash: default the maximum")
    parser.add_argument(
        "--idle", type=float, default=60.0, help="cash: leave after this many seconds with no hand"
    )
    parser.add_argument("--name", default=None, help="log in to this account (one bot)")
    parser.add_argument("--password", default=None)
    parser.add_argument("--seed", default="", help="seeds the bots' randomness")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.count < 1:
        raise RemoteBotError("--count must be at least 1")
    if args.name and args.count != 1:
        raise RemoteBotError("--name logs in one account: use it with --count 1")
    return asyncio.run(_run(args))


async def _run(args: argparse.Namespace) -> int:
    err = Console(stderr=True, highlight=False)
    started = time.monotonic()

    def progress(text: str) -> None:
        if not args.quiet:
            err.print(f"[dim]{time.monotonic() - started:7.1f}s[/dim] {text}")

    async def one(i: int) -> CashResult | TournamentResult:
        async with RemoteBot(
            args.server,
            kind=args.kind,
            name=args.name,
            password=args.password,
            seed=f"{args.seed}/{args.kind}/{i}",
            progress=progress,
        ) as bot:
            if args.tournament:
                return await bot.play_tournament(args.tournament)
            return await bot.play_cash(args.table, hands=args.hands or None, buy_in=args.buy_in)

    tasks = [asyncio.create_task(one(i)) for i in range(args.count)]
    try:
        outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    except (KeyboardInterrupt, asyncio.CancelledError):
        for task in tasks:
            task.cancel()
        raise
    results = [o for o in outcomes if isinstance(o, CashResult | TournamentResult)]
    failures = [o for o in outcomes if isinstance(o, BaseException)]
    for failure in failures:
        if not isinstance(failure, Exception):
            raise failure
    if not results and failures:
        raise (
            failures[0]
            if isinstance(failures[0], RemoteBotError)
            else RemoteBotError(str(failures[0]))
        )
    elapsed = time.monotonic() - started
    if args.json:
        print(json.dumps(_summary(results, failures, elapsed), indent=2))
    else:
        _print(results, failures, elapsed)
    return 1 if failures else 0


def _row(result: CashResult | TournamentResult) -> dict[str, Any]:
    if isinstance(result, CashResult):
        return {
            "bot": result.bot,
            "table": result.table,
            "seat": result.seat,
            "hands": result.hands,
            "buy_in": result.buy_in,
            "cashed_out": result.cashed_out,
            "net": result.net,
            "errors": result.errors,
        }
    return {
        "bot": result.bot,
        "tournament": result.tournament,
        "places": list(result.places),
        "prize": result.prize,
        "hands": result.hands,
        "tables": result.tables,
        "net": result.balance_after - result.balance_before,
        "errors": result.errors,
    }


def _summary(
    results: list[CashResult | TournamentResult], failures: list[BaseException], elapsed: float
) -> dict[str, Any]:
    rows = sorted(
        (_row(r) for r in results), key=lambda row: (row.get("places") or [0], row["bot"])
    )
    return {
        "bots": rows,
        "hands": sum(r.hands for r in results),
        "net": sum(row["net"] for row in rows),
        "failed": [str(f) for f in failures],
        "seconds": round(elapsed, 1),
    }


def _print(
    results: list[CashResult | TournamentResult], failures: list[BaseException], elapsed: float
) -> None:
    out = Console(highlight=False)
    summary = _summary(results, failures, elapsed)
    tournament = any(isinstance(r, TournamentResult) for r in results)
    table = Table(title=f"{len(results)} bots, {summary['seconds']} s")
    table.add_column("bot")
    if tournament:
        for column in ("place", "prize", "hands", "net"):
            table.add_column(column, justify="right")
        for row in summary["bots"]:
            place = "-".join(str(p) for p in row["places"]) or "?"
            table.add_row(
                row["bot"], place, str(row["prize"]), str(row["hands"]), f"{row['net']:+d}"
            )
    else:
        for column in ("seat", "hands", "buy-in", "cashed out", "net"):
            table.add_column(column, justify="right")
        for row in summary["bots"]:
            table.add_row(
                row["bot"], str(row["seat"]), str(row["hands"]), str(row["buy_in"]),
                str(row["cashed_out"]), f"{row['net']:+d}",
            )  # fmt: skip
    out.print(table)
    hands, net = summary["hands"], summary["net"]
    out.print(f"hands played, summed over the bots: {hands}; chips won or lost in all: {net:+d}")
    for failure in failures:
        print(f"a bot failed: {failure}", file=sys.stderr)
