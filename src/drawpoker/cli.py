"""The ``drawpoker`` command: one subcommand per module in ``drawpoker.commands``.

Start-up is kept short: only the module of the subcommand being run is imported
(``drawpoker --help`` imports none), so the evaluator's tables, numpy, the server
and the terminal client load only for the subcommands that use them
(``benchmarks/startup.py`` measures it).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from drawpoker import __version__
from drawpoker.errors import DrawPokerError

# Each module defines ``register(subparsers)``, which adds its subcommand and
# sets ``handler`` (a function of the parsed arguments returning an exit status).
# The one-line help is repeated here so that the list of commands needs no import
# (tests/test_cli.py checks that both say the same).
COMMANDS: dict[str, tuple[str, str]] = {
    "eval": ("drawpoker.commands.eval", "evaluate five-card hands and say which wins"),
    "demo": ("drawpoker.commands.demo", "bots play one hand in the terminal"),
    "simulate": (
        "drawpoker.commands.simulate",
        "play random legal hands, checking the engine's invariants",
    ),
    "serve": ("drawpoker.commands.serve", "run the poker room server"),
    "admin": (
        "drawpoker.commands.admin",
        "staff accounts and roles, the audit log (on the server's database)",
    ),
    "play": ("drawpoker.commands.play", "play on a server in the terminal (a full-screen client)"),
    "odds": ("drawpoker.commands.odds", "exact odds of every keep/discard choice of a hand"),
    "match": ("drawpoker.commands.match", "play bots against each other in a duplicate match"),
    "replay": (
        "drawpoker.commands.replay",
        "replay a .phh/.phhs hand history through the rules engine",
    ),
    "convert": (
        "drawpoker.commands.convert",
        "convert hand histories between PHH and PokerStars-style text",
    ),
    "verify": (
        "drawpoker.commands.verify",
        "check a hand history against its deck commitments",
    ),
    "simulate-tournament": (
        "drawpoker.commands.simulate_tournament",
        "run a whole tournament with bots at simulated time",
    ),
    "bot": (
        "drawpoker.commands.bot",
        "run bots that play on a server over the websocket, as people do",
    ),
}
COMMAND_MODULES = tuple(module for module, _help in COMMANDS.values())


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser; with ``only``, the options of that one subcommand are loaded and the
    others are listed by name and help alone (``only=""``: none is loaded)."""
    parser = argparse.ArgumentParser(
        prog="drawpoker", description="An online 5-Card Draw poker room and its tools."
    )
    parser.add_argument("--version", action="version", version=f"drawpoker {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module, help_text) in COMMANDS.items():
        if only is None or only == name:
            importlib.import_module(module).register(subparsers)
        else:
            subparsers.add_parser(name, help=help_text)
    return parser


def _command(argv: Sequence[str]) -> str:
    """The subcommand named on the command line ("" if none)."""
    for arg in argv:
        if not arg.startswith("-"):
            return arg if arg in COMMANDS else ""
    return ""


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(only=_command(argv)).parse_args(argv)
    try:
        status: int = args.handler(args)
    except DrawPokerError as error:
        print(f"drawpoker {args.command}: {error}", file=sys.stderr)
        return 2
    return status


if __name__ == "__main__":
    sys.exit(main())
