"""Signals of collusion and chip dumping, per pair of accounts, for the staff.

Read from the finished hands of a period (at most ``MAX_HANDS``, newest first):

- ``hands``: hands both were dealt into;
- ``a_faced_b`` / ``a_folded_to_b``: how often A acted after B's bet or raise in
  the same betting round, and how often A folded to it (and the same for B);
- ``net_a_to_b``: chips that went from A to B, net: in each hand every loser's
  loss is shared among the winners in proportion to what they won;
- ``shared_addresses``: client addresses (an IPv6 /64 counts as one) from which
  both have logged in.

What they catch: chips passed from one account to another (a large one-way
``net_a_to_b``, often with one folding to the other's bets far more than to
anyone else), soft play between friends (two players who rarely bet at each
other, visible as few ``faced`` for many hands together), and several
accounts of one person (shared addresses). What they cannot: collusion by
signalling cards, which leaves no trace in the betting of one pair; accounts
behind different networks; a dump spread thinly over many accounts or
disguised as ordinary losses. Pairs are ranked for a human to look at the
hands (``sample``), never acted on by themselves. The room's bots are left out.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, select

from drawpoker.server.store import account_addresses, accounts, hand_players, hands

MAX_HANDS = 20_000
SAMPLE = 5  # hand ids kept per pair, newest first
AGGRESSION = ("BetPlaced", "Raised")
ACTIONS = ("Folded", "Checked", "Called", "BetPlaced", "Raised")


@dataclass
class Pair:
    hands: int = 0
    faced: list[int] = field(default_factory=lambda: [0, 0])  # [A after B's bet, B after A's]
    folded: list[int] = field(default_factory=lambda: [0, 0])
    flow: float = 0.0  # chips from A to B, net
    sample: list[str] = field(default_factory=list)


def _flows(nets: dict[int, int]) -> dict[tuple[int, int], float]:
    """Chips from each loser to each winner of one hand."""
    won = sum(n for n in nets.values() if n > 0)
    if not won:
        return {}
    return {
        (loser, winner): -lost * gain / won
        for loser, lost in nets.items()
        if lost < 0
        for winner, gain in nets.items()
        if gain > 0
    }


def _pair(first: int, second: int) -> tuple[tuple[int, int], int]:
    """The pair's key (lower account id first) and ``first``'s side in it (0 or 1)."""
    return ((first, second), 0) if first < second else ((second, first), 1)


def _faced(history: list[Any]) -> list[tuple[int, int, bool]]:
    """(seat acting, seat whose bet it faced, folded?) for each action after a bet."""
    seen: list[tuple[int, int, bool]] = []
    aggressor: int | None = None
    for _visible, event in history:
        kind = event.get("type")
        if kind == "BettingRoundEnded":
            aggressor = None
        elif kind in ACTIONS:
            seat = int(event["seat"])
            if aggressor is not None and aggressor != seat:
                seen.append((seat, aggressor, kind == "Folded"))
            if kind in AGGRESSION:
                aggressor = seat
    return seen


def pairs(conn: Connection, days: float = 7.0, limit: int = 50) -> list[dict[str, Any]]:
    """The pairs most worth a look over the last ``days``: sharing an address
    first, then by the chips that went one way."""
    since = time.time() - days * 86400
    rows = conn.execute(
        select(hands.c.id, hands.c.players, hands.c.history)
        .where(hands.c.status == "finished", hands.c.ended_at >= since)
        .order_by(hands.c.ended_at.desc())
        .limit(MAX_HANDS)
    ).all()
    bots = set(conn.execute(select(accounts.c.id).where(accounts.c.kind == "bot")).scalars())
    ids = [row.id for row in rows]
    nets: dict[str, dict[int, int]] = defaultdict(dict)
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        for hand_id, account_id, net in conn.execute(
            select(hand_players.c.hand_id, hand_players.c.account_id, hand_players.c.net).where(
                hand_players.c.hand_id.in_(chunk)
            )
        ):
            nets[hand_id][int(account_id)] = int(net)
    found: dict[tuple[int, int], Pair] = defaultdict(Pair)
    for row in rows:
        seats = {int(seat): int(who[0]) for seat, who in json.loads(row.players).items()}
        people = sorted(set(seats.values()) - bots)
        for i, a in enumerate(people):
            for b in people[i + 1 :]:
                pair = found[(a, b)]
                pair.hands += 1
                if len(pair.sample) < SAMPLE:
                    pair.sample.append(row.id)
        for (loser, winner), chips in _flows(nets.get(row.id, {})).items():
            if loser in bots or winner in bots:
                continue
            key, side = _pair(loser, winner)
            found[key].flow += -chips if side else chips
        for seat, against, folded in _faced(json.loads(row.history or "[]")):
            actor, aggressor = seats.get(seat), seats.get(against)
            if actor is None or aggressor is None or {actor, aggressor} & bots:
                continue
            key, side = _pair(actor, aggressor)
            found[key].faced[side] += 1
            found[key].folded[side] += folded
    shared = _addresses(conn, {a for key in found for a in key})  # to intersect by pair
    ranked = sorted(
        found.items(),
        key=lambda item: (len(shared[item[0][0]] & shared[item[0][1]]), abs(item[1].flow)),
        reverse=True,
    )[: max(1, min(limit, 500))]
    wanted = sorted({a for key, _ in ranked for a in key})
    names = {
        int(i): str(n)
        for i, n in conn.execute(
            select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(wanted))
        )
    }
    return [
        {
            "a": names.get(a, str(a)),
            "b": names.get(b, str(b)),
            "hands": pair.hands,
            "a_faced_b": pair.faced[0],
            "a_folded_to_b": pair.folded[0],
            "b_faced_a": pair.faced[1],
            "b_folded_to_a": pair.folded[1],
            "net_a_to_b": round(pair.flow),
            "shared_addresses": len(shared[a] & shared[b]),
            "sample": pair.sample,
        }
        for (a, b), pair in ranked
    ]


def _addresses(conn: Connection, account_ids: set[int]) -> dict[int, set[str]]:
    """Each account's log-in addresses."""
    found: dict[int, set[str]] = defaultdict(set)
    wanted = sorted(account_ids)
    for start in range(0, len(wanted), 500):
        for account_id, address in conn.execute(
            select(account_addresses.c.account_id, account_addresses.c.address).where(
                account_addresses.c.account_id.in_(wanted[start : start + 500])
            )
        ):
            found[int(account_id)].add(str(address))
    return found
