"""``drawpoker replay FILE [--hand N] [--json]``: replay a PHH history through the engine."""

from __future__ import annotations

import argparse
import json
from typing import Any

from drawpoker.commands import add_history_arguments
from drawpoker.history.files import read_hands
from drawpoker.history.replay import decision_point, outcome, replay


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="replay a .phh/.phhs hand history through the rules engine",
        description="Replay each hand of a PHH file. A finished hand prints its final "
        "stacks, winnings, pots and rake; an unfinished one prints the decision point: "
        "who is to act and the legal actions with exact amounts. An illegal or malformed "
        "action stops with an error naming the hand, the action and the rule (exit 2).",
    )
    add_history_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    reports = []
    for number, data in read_hands(args.file, args.hand):
        hand = replay(data, source=args.file, number=number).hand
        report = outcome(hand) if hand.is_over else decision_point(hand)
        report["hand"] = number
        report["hand_id"] = hand.hand_id
        names = data.get("players") or []
        for row in report["seats"]:
            i = int(row["player"][1:]) - 1
            row["name"] = str(names[i]) if i < len(names) else ""
        reports.append(report)
    if args.json:
        print(json.dumps(reports if args.hand is None else reports[0], indent=2))
        return 0
    for report in reports:
        print("\n".join(_text(report)))
    return 0


def _who(row: dict[str, Any]) -> str:
    name = f" {row['name']}" if row.get("name") else ""
    return f"{row['player']} (seat {row['seat']}{name})"


def _text(report: dict[str, Any]) -> list[str]:
    title = f"hand {report['hand']}" + (f" ({report['hand_id']})" if report["hand_id"] else "")
    if report["over"]:
        lines = [f"{title}: finished"]
        for row in report["seats"]:
            lines.append(
                f"  {_who(row)}: {row['start']} -> {row['stack']} "
                f"(won {row['won']}, net {row['net']:+d})"
            )
        for k, pot in enumerate(report["pots"]):
            label = "main pot" if k == 0 else f"side pot {k}"
            shares = ", ".join(f"seat {s['seat']} {s['chips']}" for s in pot["shares"])
            lines.append(f"  {label} {pot['amount']}: {shares}")
        lines.append(f"  rake {report['rake']}")
        if report["carried_pot"]:
            lines.append(f"  carried to the next hand {report['carried_pot']}")
        return lines
    lines = [f"{title}: unfinished, {report['street']}; pot {report['pot']}, stub {report['stub']}"]
    for row in report["seats"]:
        state = " folded" if row["folded"] else (" all in" if row["all_in"] else "")
        lines.append(
            f"  {_who(row)}: stack {row['stack']}, this round {row['wager']}, "
            f"in the pot {row['committed']}{state}"
        )
    if len(report["pots"]) > 1:
        for k, pot in enumerate(report["pots"]):
            label = "main pot" if k == 0 else f"side pot {k}"
            seats = ", ".join(str(seat) for seat in pot["eligible"])
            lines.append(f"  {label} {pot['amount']} (seats {seats})")
    if "to_act" in report:
        to_act = report["to_act"]
        lines.append(
            f"  to act: {to_act['player']} (seat {to_act['seat']}): {report['legal_text']}"
        )
    return lines
