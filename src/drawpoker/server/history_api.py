"""Hand-history downloads and deal verification for the web client's replayer.

``/api/hands`` and ``/api/hands/{hand}`` (in ``app``) list a player's hands and
give the events they may see. This module adds, for a finished hand the player
was dealt into:

- ``GET /api/hands/{hand}/pokerstars``: PokerStars-style text as that player saw it;
- ``GET /api/hands/{hand}/phh``: the PHH document (the revealed seed included);
- ``GET /api/hands/{hand}/verify``: the seed checked against the commitment and
  the whole deal re-derived from the seed (``drawpoker.history.verify``);
- ``GET /api/hands/{hand}/seats``: who sat where (the replayer shows names).

The hand is rebuilt by replaying its stored events through the engine with the
stored seed, so the files say exactly what the table did.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from sqlalchemy import Connection, select
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from drawpoker.actions import Action
from drawpoker.errors import DrawPokerError
from drawpoker.events import PostKind
from drawpoker.hand import Hand
from drawpoker.history import phh, pokerstars
from drawpoker.history.info import HandInfo, Tournament
from drawpoker.history.verify import verify
from drawpoker.room.structure import Level, rules_for
from drawpoker.rules import Rules, Structure
from drawpoker.server.actor import TableConfig
from drawpoker.server.auth import Account
from drawpoker.server.store import accounts, hands, tables


class HandMissing(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _action(event: dict[str, Any]) -> Action | None:
    """The action a stored event records, or None for events the engine makes itself."""
    kind, seat = event["type"], event.get("seat", 0)
    if kind == "Folded":
        return Action.fold(seat)
    if kind == "Checked":
        return Action.check(seat)
    if kind == "Called":
        return Action.call(seat)
    if kind == "BetPlaced":
        return Action.bet(seat, event["amount"])
    if kind == "Raised":
        return Action.bet(seat, event["to"])
    if kind == "StoodPat":
        return Action.stand_pat(seat)
    if kind == "DiscardedCards":
        return Action.draw(seat, " ".join(event["cards"]))
    return None


_ROOM_POSTS = (PostKind.SMALL_BLIND, PostKind.BIG_BLIND, PostKind.DEAD_SMALL_BLIND)


def stored_rules(config_json: str | None, tournament_json: str | None) -> Rules:
    """The rules a stored hand was played by: its cash table's, or its tournament's
    at the hand's level."""
    if tournament_json:
        t = json.loads(tournament_json)
        level = Level(int(t["small_blind"]), int(t["big_blind"]), int(t["ante"]))
        return rules_for(Structure(t["structure"]), level, int(t["seats_per_table"]))
    if config_json is None:
        raise HandMissing(404, "the hand's table is gone")
    return TableConfig.from_dict(json.loads(config_json)).build_rules()


def rebuild(
    rules: Rules, players: dict[str, Any], events: list[dict[str, Any]], seed: bytes
) -> Hand:
    """Replay a stored hand through the engine from its seed and recorded actions."""
    started = next(e for e in events if e["type"] == "HandStarted")
    stacks = {int(seat): int(stack) for seat, (_, stack) in players.items()}
    # The blinds the room chose (dead button, a newcomer's or a returning player's
    # posts); antes and the invito follow from the rules.
    posts = [
        (int(e["seat"]), PostKind(e["kind"]), int(e["amount"]))
        for e in events
        if e["type"] == "Posted" and PostKind(e["kind"]) in _ROOM_POSTS
    ]
    hand = Hand(
        rules,
        stacks,
        int(started["button"]),
        seed=seed,
        posts=None if rules.is_italian else posts,
        carried_pot=int(started["carried_pot"]),
        hand_id=str(started["hand_id"]),
        first_seq=int(started["seq"]),
    )
    skip: int | None = None  # the action a time-out made: the engine makes it again
    for event in events:
        if event["type"] == "TimedOut":
            hand.act(Action.timeout(event["seat"]))
            skip = event["seat"]
            continue
        action = _action(event)
        if action is None:
            continue
        if skip == action.seat:
            skip = None
            continue
        hand.act(action)
    return hand


def _load(c: Connection, hand_id: str, account_id: int) -> tuple[Hand, HandInfo, int]:
    row = c.execute(
        select(
            hands.c.status,
            hands.c.players,
            hands.c.history,
            hands.c.seed,
            hands.c.commitment,
            hands.c.started_at,
            hands.c.table_id,
            hands.c.tournament,
            tables.c.config,
        )
        .join(tables, tables.c.id == hands.c.table_id, isouter=True)
        .where(hands.c.id == hand_id)
    ).first()
    if row is None:
        raise HandMissing(404, "no such hand")
    status, players_json, history_json, seed_hex, digest, started_at, table_id, about, config = row
    players = json.loads(players_json)
    seat_of = {int(a): int(s) for s, (a, _) in players.items()}
    if account_id not in seat_of:
        raise HandMissing(403, "you were not dealt into this hand")
    if status != "finished":
        raise HandMissing(409, f"the hand is {status}: nothing to download")
    ids = list(seat_of)
    rows = c.execute(select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(ids)))
    names = {int(i): str(n) for i, n in rows}
    events = [e for _, e in json.loads(history_json)]
    hand = rebuild(stored_rules(config, about), players, events, bytes.fromhex(seed_hex))
    tournament = None
    if about:
        t = json.loads(about)
        tournament = Tournament(
            id=str(t["id"]), buy_in=str(t["buy_in"]), fee=str(t["fee"]), level=int(t["level"])
        )
    info = HandInfo(
        names={seat: str(names.get(a, f"Player{seat}")) for a, seat in seat_of.items()},
        table=str(table_id),
        time=dt.datetime.fromtimestamp(float(started_at), dt.UTC),
        time_zone="UTC",
        commitment=str(digest),
        tournament=tournament,
    )
    return hand, info, seat_of[account_id]


async def _hand(request: Request) -> tuple[Hand, HandInfo, int]:
    from drawpoker.server.app import _require

    account: Account = await _require(request)
    hand_id = request.path_params["hand"]
    room = request.app.state.room
    result: tuple[Hand, HandInfo, int] = await room.store.run(_load, hand_id, account.id)
    return result


def _guard(fn: Any) -> Any:
    async def wrapped(request: Request) -> Response:
        from drawpoker.server.auth import AuthError

        try:
            response: Response = await fn(request)
        except AuthError as error:
            return JSONResponse({"error": str(error)}, status_code=401)
        except HandMissing as error:
            return JSONResponse({"error": str(error)}, status_code=error.status)
        except DrawPokerError as error:
            return JSONResponse({"error": f"the hand could not be rebuilt: {error}"}, 500)
        return response

    return wrapped


def _download(text: str, name: str) -> Response:
    return PlainTextResponse(
        text, headers={"content-disposition": f'attachment; filename="{name}"'}
    )


async def pokerstars_text(request: Request) -> Response:
    hand, info, seat = await _hand(request)
    text = pokerstars.write(hand, info, viewer=seat)
    return _download(text, f"{hand.hand_id}.txt")


async def phh_text(request: Request) -> Response:
    hand, info, _ = await _hand(request)
    return _download(phh.dumps(hand, info), f"{hand.hand_id}.phh")


async def verify_deal(request: Request) -> Response:
    hand, info, _ = await _hand(request)
    data = phh.loads(phh.dumps(hand, info))
    verdict = verify(data, source=hand.hand_id)
    return JSONResponse(
        {
            "hand": hand.hand_id,
            "ok": verdict.ok,
            "commitment": data.get("_commitment"),
            "seed": data.get("_seed"),
            "cards": verdict.cards,
            "reshuffles": verdict.reshuffles,
            "message": verdict.describe(),
        }
    )


def _seats(c: Connection, hand_id: str, account_id: int) -> dict[str, Any]:
    row = c.execute(select(hands.c.players, hands.c.table_id).where(hands.c.id == hand_id)).first()
    if row is None:
        raise HandMissing(404, "no such hand")
    players = json.loads(row[0])
    seat_of = {int(a): int(s) for s, (a, _) in players.items()}
    if account_id not in seat_of:
        raise HandMissing(403, "you were not dealt into this hand")
    rows = c.execute(select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(seat_of)))
    names = {str(seat_of[int(i)]): str(n) for i, n in rows}
    return {"hand": hand_id, "table": row[1], "you": seat_of[account_id], "names": names}


async def seats_of_hand(request: Request) -> Response:
    """Who sat where in a hand I played: ``{"you": 3, "names": {"1": "ann", …}}``."""
    from drawpoker.server.app import _require

    account: Account = await _require(request)
    room = request.app.state.room
    data = await room.store.run(_seats, request.path_params["hand"], account.id)
    return JSONResponse(data)


def routes() -> list[BaseRoute]:
    return [
        Route("/api/hands/{hand}/seats", _guard(seats_of_hand)),
        Route("/api/hands/{hand}/pokerstars", _guard(pokerstars_text)),
        Route("/api/hands/{hand}/phh", _guard(phh_text)),
        Route("/api/hands/{hand}/verify", _guard(verify_deal)),
    ]
