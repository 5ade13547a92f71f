"""Subcommands of the ``drawpoker`` command line."""

from __future__ import annotations

import argparse


def add_history_arguments(parser: argparse.ArgumentParser) -> None:
    """``FILE`` and ``--hand N``, shared by the commands that read hand histories."""
    parser.add_argument(
        "file", metavar="FILE", help="a .phh/.phhs file, PokerStars text or a JSON history"
    )
    parser.add_argument("--hand", type=int, metavar="N", help="only hand N (from 1)")
