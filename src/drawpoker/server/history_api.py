"""Hand-history downloads and deal verification for the web client's replayer.

``GET /api/hands`` lists a player's hands and ``GET /api/hands/{hand}`` gives
the events of one they played, as they saw them, with the openings of the
cards they saw (``drawpoker.fairness``). For a finished hand the player was
dealt into:

- ``GET /api/hands/{hand}/pokerstars``: PokerStars-style text as that player saw it;
- ``GET /api/hands/{hand}/phh``: the PHH document as that player saw it, with
  the openings of their cards (and the seed only at a table that reveals it);
- ``GET /api/hands/{hand}/verify``: those openings checked against the
  commitments published before the deal (``drawpoker.history.verify``);
- ``GET /api/hands/{hand}/seats``: who sat where (the replayer shows names).

Every route answers 404 to an account that was not dealt into the hand, as if
it did not exist: nobody learns a hand they did not play, nor that it exists.
The hand is rebuilt by replaying its stored events through the engine with the
stored seed (which never leaves the server unless the table reveals seeds), so
the files say exactly what the table did, redacted to what the player saw.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from sqlalchemy import Connection, select
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from drawpoker.actions import Action
from drawpoker.errors import DrawPokerError
from drawpoker.events import HandStarted, PostKind, Reshuffled
from drawpoker.hand import Hand
from drawpoker.history import phh, pokerstars
from drawpoker.history.info import HandInfo, Tournament
from drawpoker.history.openings import openings_for
from drawpoker.history.verify import verify, verify_events
from drawpoker.protocol.events import event_to_wire
from drawpoker.protocol.stakes import stakes_of
from drawpoker.room.structure import Level, rules_for
from drawpoker.rules import Rules, Structure
from drawpoker.server.auth import Account, AuthError
from drawpoker.server.rest import authed, error, json_response, require, room_of
from drawpoker.server.store import accounts, hand_players, hands, tables
from drawpoker.server.tableconfig import TableConfig


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
    if kind == "OpenersRequested":
        return Action.ask_openers(seat)
    if kind == "OpenersDeclined":
        return Action.decline(seat)
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
    rules: Rules,
    players: dict[str, Any],
    events: list[dict[str, Any]],
    seed: bytes,
    *,
    reveal_seed: bool = False,
) -> Hand:
    """Replay a stored hand through the engine from its seed and recorded actions
    (``reveal_seed``: the table's setting, so that the seed goes where it went)."""
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
        reveal_seed=reveal_seed,
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


_NOT_YOURS = "no such hand"  # the same answer whether it exists or not


def reveals_seed(
    config_json: str | None, tournament_json: str | None, history: list[list[Any]]
) -> bool:
    """Whether the hand's seed was revealed at the table, so its files may carry it:
    its table reveals seeds now (a cash table's ``reveal_seed``; tournament tables
    never do) and did then (the stored history holds a public ``DeckRevealed``).
    A table that turns the setting on later reveals nothing of its earlier hands;
    one that turns it off stops revealing at once."""
    if tournament_json or config_json is None:
        return False
    try:
        now = bool(json.loads(config_json).get("reveal_seed", False))
    except (ValueError, AttributeError):
        return False
    return now and any(aud == -1 and e.get("type") == "DeckRevealed" for aud, e in history)


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
        raise HandMissing(404, _NOT_YOURS)
    status, players_json, history_json, seed_hex, digest, started_at, table_id, about, config = row
    players = json.loads(players_json)
    seat_of = {int(a): int(s) for s, (a, _) in players.items()}
    if account_id not in seat_of:
        raise HandMissing(404, _NOT_YOURS)
    if status != "finished":
        raise HandMissing(409, f"the hand is {status}: nothing to download")
    ids = list(seat_of)
    rows = c.execute(select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(ids)))
    names = {int(i): str(n) for i, n in rows}
    history = json.loads(history_json)
    events = [e for _, e in history]
    hand = rebuild(
        stored_rules(config, about),
        players,
        events,
        bytes.fromhex(seed_hex),
        reveal_seed=reveals_seed(config, about, history),
    )
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
    account: Account = await require(request)
    hand_id = request.path_params["hand"]
    result: tuple[Hand, HandInfo, int] = await room_of(request).store.run(
        _load, hand_id, account.id
    )
    return result


def _guard(fn: Any) -> Any:
    async def wrapped(request: Request) -> Response:
        try:
            response: Response = await fn(request)
        except AuthError as problem:
            return error(401, str(problem))
        except HandMissing as problem:
            return error(problem.status, str(problem))
        except DrawPokerError as problem:
            return error(500, f"the hand could not be rebuilt: {problem}")
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


def _player_phh(hand: Hand, info: HandInfo, seat: int) -> str:
    """The PHH document as ``seat`` saw the hand: the seed only where revealed."""
    return phh.dumps(hand, info, viewer=seat)


async def phh_text(request: Request) -> Response:
    hand, info, seat = await _hand(request)
    return _download(_player_phh(hand, info, seat), f"{hand.hand_id}.phh")


async def verify_deal(request: Request) -> Response:
    """The openings of the cards I saw checked against the published commitments
    (and, at a table that reveals seeds, the whole deal re-derived from the seed)."""
    hand, info, seat = await _hand(request)
    data = phh.loads(_player_phh(hand, info, seat))
    verdict = verify(data, source=hand.hand_id)
    # The JSON history too: there every card's place is followed through the
    # reshuffles, which a PHH document's order of deals cannot say.
    exact = verify_events(
        {
            "events": [event_to_wire(e) for e in hand.events if e.visible(seat)],
            "commitment": data.get("_commitment"),
            "openings": data.get("_openings", []),
        },
        source=hand.hand_id,
    )
    if verdict.ok and data.get("_openings") and not exact.ok:
        verdict.problems = exact.problems
    return json_response(
        {
            "hand": hand.hand_id,
            "ok": verdict.ok,
            "commitment": data.get("_commitment"),
            "deck_commitments": data.get("_deck_commitments", []),
            "seed": data.get("_seed"),
            "opened": verdict.opened,
            "cards": verdict.cards,
            "reshuffles": verdict.reshuffles,
            "message": verdict.describe(),
        }
    )


def _seats(c: Connection, hand_id: str, account_id: int) -> dict[str, Any]:
    row = c.execute(select(hands.c.players, hands.c.table_id).where(hands.c.id == hand_id)).first()
    if row is None:
        raise HandMissing(404, _NOT_YOURS)
    players = json.loads(row[0])
    seat_of = {int(a): int(s) for s, (a, _) in players.items()}
    if account_id not in seat_of:
        raise HandMissing(404, _NOT_YOURS)
    rows = c.execute(select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(seat_of)))
    names = {str(seat_of[int(i)]): str(n) for i, n in rows}
    return {"hand": hand_id, "table": row[1], "you": seat_of[account_id], "names": names}


async def seats_of_hand(request: Request) -> Response:
    """Who sat where in a hand I played: ``{"you": 3, "names": {"1": "ann", …}}``."""
    account: Account = await require(request)
    data = await room_of(request).store.run(_seats, request.path_params["hand"], account.id)
    return json_response(data)


def table_facts(rules: Rules, seats: int | None = None) -> dict[str, Any]:
    """What names a table: the game, the limit, blinds, bets (fixed limit), the invito."""
    return {**stakes_of(rules), "max_seats": seats or rules.max_seats}


def my_view(history: list[list[Any]], seat: int) -> dict[str, Any]:
    """What a player saw of their own cards in a stored hand: the five held at its end
    (replacements where the discards were), the hand shown at the showdown, a fold."""
    cards: list[str | None] = []
    shown: str | None = None
    folded = False
    for visible_to, event in history:
        kind = event.get("type")
        if event.get("seat") != seat or visible_to not in (seat, -1):
            continue
        if kind == "CardsReceived":
            for card in event.get("cards", []):
                hole = cards.index(None) if None in cards else -1
                if hole >= 0:
                    cards[hole] = card
                else:
                    cards.append(card)
        elif kind == "DiscardedCards":
            thrown = set(event.get("cards", []))
            cards = [None if c in thrown else c for c in cards]
        elif kind == "HandShown":
            shown = str(event.get("description", "")) or None
            cards = list(event.get("cards", cards))
        elif kind == "Folded":
            folded = True
    return {"cards": [c for c in cards if c], "shown": shown, "folded": folded}


def _listing(
    c: Connection, account_id: int, limit: int, before: float | None
) -> list[dict[str, Any]]:
    query = (
        select(
            hands.c.id,
            hands.c.table_id,
            hands.c.status,
            hands.c.started_at,
            hands.c.ended_at,
            hands.c.pot,
            hand_players.c.net,
            hands.c.tournament,
            hands.c.players,
            hands.c.history,
            tables.c.config,
        )
        .join(hand_players, hand_players.c.hand_id == hands.c.id)
        .join(tables, tables.c.id == hands.c.table_id, isouter=True)
        .where(hand_players.c.account_id == account_id)
        .order_by(hands.c.started_at.desc())
        .limit(limit)
    )
    if before is not None:
        query = query.where(hands.c.started_at < before)
    out: list[dict[str, Any]] = []
    configs: dict[str, tuple[str, dict[str, Any]] | None] = {}
    for found in c.execute(query):
        hand_id, table_id, status, at, ended, pot, net, about, players, history, config = found
        row: dict[str, Any] = {
            "id": hand_id,
            "table": table_id,
            "status": status,
            "started_at": at,
            "ended_at": ended,
            "pot": int(pot),
            "net": int(net),
            "tournament": None,
            "tournament_name": None,
            "table_no": None,
            "table_name": table_id,
            "facts": None,
        }
        if about:
            t = json.loads(about)
            level = Level(int(t["small_blind"]), int(t["big_blind"]), int(t["ante"]))
            rules = rules_for(Structure(t["structure"]), level, int(t["seats_per_table"]))
            row.update(
                tournament=t["id"],
                tournament_name=t.get("name") or t["id"],
                table_no=t.get("table_no"),
                facts=table_facts(rules),
            )
            row["table_name"] = row["tournament_name"]
        elif config is not None:
            if table_id not in configs:
                try:
                    cfg = TableConfig.from_dict(json.loads(config))
                    configs[table_id] = (cfg.name, table_facts(cfg.build_rules()))
                except (DrawPokerError, ValueError, TypeError, KeyError):
                    configs[table_id] = None
            known = configs[table_id]
            if known is not None:
                row["table_name"], row["facts"] = known
        seat = next((int(s) for s, (a, _) in json.loads(players).items() if a == account_id), None)
        mine: dict[str, Any] = {"cards": [], "shown": None, "folded": False}
        if history and seat is not None:
            mine = my_view(json.loads(history), seat)
        row.update(mine)
        out.append(row)
    return out


async def my_hands(request: Request, account: Account) -> Response:
    """My hands, newest first (``limit``, 1-200, default 50; ``before``: older than this
    start time): where (the table's name and facts, the tournament), when, my cards
    at the end of the hand as I saw them, what I showed or that I folded, the pot
    and my result."""
    try:
        limit = min(max(int(request.query_params.get("limit", "50")), 1), 200)
        raw = request.query_params.get("before")
        before = float(raw) if raw else None
    except ValueError:
        return error(400, "limit is a whole number and before a time in seconds")
    rows = await room_of(request).store.run(_listing, account.id, limit, before)
    return json_response({"hands": rows})


async def hand_detail(request: Request, account: Account) -> Response:
    """A hand I played, as I saw it: the public events and mine (never another
    player's cards unless shown, nor the seed unless the table reveals seeds), the
    commitment, and once it is over the openings of the cards I saw. 404 for a
    hand I was not dealt into, as for one that does not exist."""
    hand_id = request.path_params["hand"]

    def read(c: Connection) -> Any:
        return c.execute(
            select(
                hands.c.status,
                hands.c.players,
                hands.c.history,
                hands.c.commitment,
                hands.c.tournament,
                tables.c.config,
            )
            .join(tables, tables.c.id == hands.c.table_id, isouter=True)
            .where(hands.c.id == hand_id)
        ).first()

    store = room_of(request).store
    row = await store.run(read)
    if row is None:
        return error(404, _NOT_YOURS)
    status, players_json, history_json, digest, about, config = row
    players = json.loads(players_json)
    my_seat = next((int(s) for s, (a, _) in players.items() if a == account.id), None)
    if my_seat is None:
        return error(404, _NOT_YOURS)
    if status != "finished":
        return json_response({"id": hand_id, "status": status, "commitment": digest, "events": []})
    history = json.loads(history_json)
    reveal = reveals_seed(config, about, history)
    events = [
        e
        for aud, e in history
        if aud in (-1, my_seat) and (reveal or e.get("type") != "DeckRevealed")
    ]
    try:
        hand, _, seat = await store.run(_load, hand_id, account.id)
    except (HandMissing, DrawPokerError):
        openings: list[dict[str, Any]] = []
        commitment = digest
        roots: list[str] = []
    else:
        openings = [o.to_dict() for o in openings_for(hand, seat)]
        started = hand.events[0]
        commitment = started.commitment if isinstance(started, HandStarted) else digest
        roots = [e.commitment for e in hand.events if isinstance(e, Reshuffled)]
    return json_response(
        {
            "id": hand_id,
            "status": status,
            "you": my_seat,
            "commitment": commitment,
            "deck_commitments": roots,
            "openings": openings,
            "events": events,
        }
    )


def routes() -> list[BaseRoute]:
    return [
        Route("/api/hands", authed(my_hands)),
        Route("/api/hands/{hand}", authed(hand_detail)),
        Route("/api/hands/{hand}/seats", _guard(seats_of_hand)),
        Route("/api/hands/{hand}/pokerstars", _guard(pokerstars_text)),
        Route("/api/hands/{hand}/phh", _guard(phh_text)),
        Route("/api/hands/{hand}/verify", _guard(verify_deal)),
    ]
