"""The ``drawpoker`` command: one subcommand per module in ``drawpoker.commands``."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from drawpoker import __version__
from drawpoker.errors import DrawPokerError

# Each module defines ``register(subparsers)``, which adds its subcommand and
# sets ``handler`` (a function of the parsed arguments returning an exit status).
COMMAND_MODULES = (
    "drawpoker.commands.eval",
    "drawpoker.commands.demo",
    "drawpoker.commands.simulate",
    "drawpoker.commands.serve",
    "drawpoker.commands.odds",
    "drawpoker.commands.match",
    "drawpoker.commands.replay",
    "drawpoker.commands.convert",
    "drawpoker.commands.verify",
    "drawpoker.commands.simulate_tournament",
    "drawpoker.commands.bot",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="drawpoker", description="An online 5-Card Draw poker room and its tools."
    )
    parser.add_argument("--version", action="version", version=f"drawpoker {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        status: int = args.handler(args)
    except DrawPokerError as error:
        print(f"drawpoker {args.command}: {error}", file=sys.stderr)
        return 2
    return status


if __name__ == "__main__":
    sys.exit(main())
