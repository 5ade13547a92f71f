"""``drawpoker play``: the terminal client (``drawpoker.tui``), loaded only when run."""

from __future__ import annotations

import argparse
import os
import sys


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play on a server in the terminal (a full-screen client)",
        description="A full-screen terminal client: log in, register or play as a guest, "
        "the lobby, cash tables and tournaments, chat, your hand histories. Keys are listed "
        "at the bottom of each screen (docs/tui.md).",
    )
    parser.add_argument("--server", default="http://127.0.0.1:8000", help="the server's URL")
    parser.add_argument("--user", default=None, help="the account name to log in with")
    parser.add_argument(
        "--lang", choices=("en", "it", "es", "fi"), default=None, help="default: from $LANG"
    )
    parser.add_argument(
        "--ascii",
        action="store_true",
        help="cards as 'As Kd', no colour or Unicode suits (also when NO_COLOR is set)",
    )
    parser.add_argument("--log", default=None, help="write the client's log to this file")
    parser.add_argument("--first-screen", action="store_true", help=argparse.SUPPRESS)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.log:
        import logging

        logging.basicConfig(
            filename=args.log, level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s"
        )
    from drawpoker.tui.app import PokerApp

    app = PokerApp(
        args.server,
        user=args.user,
        lang=args.lang,
        ascii_mode=args.ascii or bool(os.environ.get("NO_COLOR")),
        first_screen_only=args.first_screen,
    )
    # --first-screen (benchmarks/startup.py, benchmarks/tui_startup.py): draw the log-in
    # screen once and stop; headless unless on a terminal.
    status = app.run(headless=args.first_screen and not sys.stdout.isatty())
    started = os.environ.get("DRAWPOKER_STARTED_AT")  # set by the benchmarks
    if args.first_screen and started and app.first_screen_at is not None:
        print(f"first screen {1000 * (app.first_screen_at - float(started)):.1f} ms")
    return int(status or 0)
