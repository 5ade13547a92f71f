"""``drawpoker demo``: bots play a hand in the terminal, printed as a hand history."""

from __future__ import annotations

import argparse
import datetime as dt

from drawpoker.bots import BOTS, make_bot
from drawpoker.deck import new_seed
from drawpoker.hand import Hand
from drawpoker.history.info import HandInfo
from drawpoker.history.pokerstars import write
from drawpoker.rules import Rules

NAMES = ("Ada", "Bruno", "Chiara", "Dario", "Elena", "Fabio", "Greta", "Hugo")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="bots play one hand in the terminal",
        description="Seat bots at a table, play one hand from a fresh seed and print it "
        "as a PokerStars-style hand history with every card (the deck seed is revealed "
        "at the end, so the deal can be checked with drawpoker verify).",
    )
    parser.add_argument("--players", type=int, default=4, choices=range(2, 9), metavar="2-8")
    parser.add_argument(
        "--structure", choices=["no-limit", "pot-limit", "fixed-limit"], default="no-limit"
    )
    parser.add_argument("--preset", choices=["online", "italian"], default="online")
    parser.add_argument("--bot", choices=sorted(BOTS), default="shark")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    seats = range(1, args.players + 1)
    if args.preset == "italian":
        rules = Rules.italian(max_seats=max(args.players, 2))
    else:
        rules = Rules.online(structure=args.structure, max_seats=max(args.players, 2))
    seed = new_seed()
    hand_id = str(int.from_bytes(seed[:5], "big"))
    hand = Hand(rules, dict.fromkeys(seats, 200), args.players, seed=seed, hand_id=hand_id)
    bots = {seat: make_bot(args.bot, seed=seed + bytes([seat])) for seat in seats}
    for seat, bot in bots.items():
        bot.sit(seat, rules)
    while (legal := hand.legal_actions()) is not None:
        seat = legal.seat
        hand.act(bots[seat].decide(hand.view(seat), legal, hand.events_for(seat)))
    names = {seat: NAMES[seat - 1] for seat in seats}
    info = HandInfo(names=names, table="Demo", time=dt.datetime.now(dt.UTC), time_zone="UTC")
    print(write(hand, info))
    print(f"deck seed {seed.hex()} (its SHA-256 was published before the deal)")
    return 0
