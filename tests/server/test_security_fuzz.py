"""A hypothesis-driven fuzz of the websocket: at least 10,000 messages a run
from a dozen clients (seated players, onlookers, spectators) at two tables with
no bots, built from the protocol package's message classes and then mutated:
wrong types, unknown and missing fields, huge and deeply nested values, odd
unicode, other tables, stale hand ids, other players' actions.

What must hold:

- every message gets exactly one answer (``ok`` or ``error``), never
  ``internal``; a message the protocol cannot accept gets a protocol error;
- refusals change nothing: at quiet moments a burst of messages that must be
  refused is sent, each must get an ``error``, and the tables' public state, the
  balances and what a spectator sees are the same after them as before;
- the server lives, logs no traceback, and afterwards its books balance
  (``ledger.check_books``, entries summing to zero) and every chip the players
  were given is in a balance, a stack, a carried pot or the rake.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from drawpoker.protocol import client as proto
from drawpoker.server import ledger
from drawpoker.server.store import Store, database_url, ledger_entries

from .helpers import Client, Server, table

pytestmark = pytest.mark.slow

TABLES = ("fz1", "fz2")
PLAYERS_PER_TABLE = 4
EXAMPLES = 290
PER_EXAMPLE = 36  # messages, 3 per client: 10,440 a run
PROBE_EVERY = 29  # every 29th example checks refusals exactly (10 a run)
RATE = 15.0  # messages a second per client, under the server's 20
CARDS = [r + s for r in "23456789TJQKA" for s in "cdhs"]
PROTOCOL_CODES = {"bad_json", "bad_message", "unknown_type", "bad_field", "too_large", "too_deep"}
WELCOME = 10_000


@dataclass
class Player:
    """A client and what it knows of its table."""

    client: Client
    name: str
    kind: str  # player, onlooker, spectator
    table: str | None = None
    seat: int | None = None
    sent: int = 0
    last_send: float = 0.0
    answers: list[tuple[str, dict[str, Any]]] = field(default_factory=list)


@dataclass
class Room:
    server: Server
    loop: asyncio.AbstractEventLoop
    players: list[Player]
    spectator: Client
    tokens: list[str]
    total: int = 0
    probes: int = 0
    codes: dict[str, int] = field(default_factory=dict)
    broken: list[int] = field(default_factory=lambda: [0, 0])  # broken messages: other, protocol


# ------------------------------------------------------------ what a client knows


def latest(frames: list[dict[str, Any]], table_id: str, kind: str) -> dict[str, Any] | None:
    for f in reversed(frames):
        if f["type"] == "event" and f["table"] == table_id and f["event"]["type"] == kind:
            event: dict[str, Any] = f["event"]
            return event
    return None


def hand_ids(frames: list[dict[str, Any]], table_id: str, last: int = 3) -> list[str]:
    """The ids of the ``last`` hands started at the table, oldest first."""
    found: list[str] = []
    for f in reversed(frames):
        if f["type"] == "event" and f["table"] == table_id and f["event"]["type"] == "HandStarted":
            found.append(f["event"]["hand_id"])
            if len(found) == last:
                break
    return found[::-1]


# ------------------------------------------------------------------ strategies
#
# Hypothesis draws a *plan* per message: a fixed set of values, always all of
# them, whatever the game looks like; ``build`` and ``mutate`` then read the plan
# against what the client has seen (its turn, its cards, the hand in play). The
# draws never depend on the server's state, which hypothesis requires.

idents = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-", min_size=1, max_size=10)
ODD_TEXT = [
    "\ud800",
    "\udfff",
    "\u202e\u2066",
    "\x00\x01",
    "💣" * 30,
    "ﷺ" * 20,
    "a\u0301" * 50,
    "\U0010ffff",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "%s%n",
    "\\u0000",
]
odd_text = st.one_of(st.text(min_size=1, max_size=40), st.sampled_from(ODD_TEXT))
junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    odd_text,
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
)
KINDS = [
    *("ping", "hello", "lobby", "subscribe", "unsubscribe", "sit", "top_up", "sit_out"),
    *("sit_in", "leave", "act", "act", "act", "draw", "draw", "pre_action", "chat"),
]
OTHER_TABLES = [*TABLES, "nowhere", "", "x" * 40, "sng-6", "fz1-t1"]
PRES = ["check_fold", "check", "call", "call_any", "fold_any", "draw", "clear"]
BAD_CARDS = ["Zz", "", "1s", "AsAs"]
REQUIRED = {
    str(cls.__struct_config__.tag): {f.name for f in msgspec.structs.fields(cls) if f.required}
    for cls in proto.CLIENT_MESSAGES
}
MUTATIONS = ["drop", "unknown", "retype", "type", "deep", "huge", "shape", "raw", "raw"]
WRONG_VALUES = [2.5, [1], {"a": 1}, True, 10**20, [2.5, 3]]
WRONG_TYPES = ["ACT", "Act", "teleport", "", 7, None, ["act"], "act "]
SHAPES = [["body"], "act", 42, None, [], True]
UNKNOWN_FIELDS = ["seat_x", "admin", "__proto__", "Type", "amount2"]
RAW = ['{"type": "act", "table": ', "", "null", "{", "}", '{"type":"ping"}}', "\x00",
       '{"type":"ping","id":"a","id":"b","x":NaN}', "[" * 5000, '{"a":' * 700]  # fmt: skip

# Hypothesis draws three values per message: random bytes, an id and a text.
# Every other choice is read from the bytes (cheap to draw, and evenly spread);
# the id and the text are where hypothesis's search for odd values pays.
JUNK: list[Any] = [None, True, False, 0, -1, 2**63, -(2**70), 1.5, -0.0, 1e308, "", "0",
                   "💣", "\u202e", [], [1, "a"], {}, {"a": {"b": None}}]  # fmt: skip
EPOCHS = [None, "", "00000000", "x" * 16, "x" * 17, "\u0000"]
CHOICES: list[tuple[str, list[Any]]] = [
    ("kind", KINDS),
    ("play", [0, 1, 2]),  # when it is my turn: 1 or 2 plays a legal move
    ("table", list(range(6))),  # 0-2: my table, else ``other``
    ("other", OTHER_TABLES),
    ("hand", [0, 1, 2]),  # the hand in play, an older one, or any id
    ("action", list(range(5))),
    ("seat", list(range(10))),
    ("flag", [False, True]),
    ("protocol", [1, 1, 0, 2, 99]),
    ("pre", PRES),
    ("leave", list(range(31))),  # 0: really leave my table (rarely)
    ("mutate", [0, 1, 2]),  # 0: break the message
    ("how", MUTATIONS),
    ("pick", list(range(1000))),
    ("wrong", WRONG_VALUES),
    ("wrong_type", WRONG_TYPES),
    ("shape", SHAPES),
    ("unknown", UNKNOWN_FIELDS),
    ("raw", RAW),
    ("as_bytes", list(range(6))),
    ("junk", JUNK),
    ("epoch", EPOCHS),
    ("same_id", [False, False, False, True]),  # reuse an action id: a duplicate
    ("amount_kind", ["none", "small", "small", "huge"]),
    ("amount_value", list(range(1001))),
    ("buy_in_kind", ["fair", "fair", "fair", "odd"]),
    ("buy_in_value", list(range(361))),
    ("since", [None, 0, 1, 5, 50, 500, 5000]),
    ("suffix", [b"", b"", b"\xff", b"\xc3", b"\x00\x80", b"\xed\xa0\x80"]),
]


def expand(drawn: dict[str, Any]) -> dict[str, Any]:
    """The plan: the id and the text as drawn, and each other choice read from the bytes."""
    bits = int.from_bytes(drawn["bits"], "big")
    plan: dict[str, Any] = {"ident": drawn["ident"], "text": drawn["text"]}
    for name, options in CHOICES:
        bits, index = divmod(bits, len(options))
        plan[name] = options[index]
    plan["cards"] = [(bits >> (6 * i)) % 56 for i in range(bits % 7)]
    plan["action_id"] = "dup" if plan["same_id"] else f"{drawn['ident']}{plan['pick']}"
    value = plan["amount_value"]
    plan["amount"] = {"none": None, "small": value, "huge": 10**12 - 500 + value}[
        plan["amount_kind"]
    ]
    odd = [-5, 0, 1, 39, 401, 10**13][plan["buy_in_value"] % 6]
    plan["buy_in"] = 40 + plan["buy_in_value"] if plan["buy_in_kind"] == "fair" else odd
    plan["depth"] = 9 + plan["pick"] * 2  # 9 to 2,007 levels
    plan["size"] = 4097 + plan["pick"] * 56  # 4,097 to 60,041 bytes
    return plan


plans = st.fixed_dictionaries(
    {"bits": st.binary(min_size=48, max_size=48), "ident": idents, "text": odd_text}
).map(expand)


def my_turn(who: Player, frames: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The ``Legal`` I must answer now, if it is my turn in the hand in play."""
    if who.table is None or who.seat is None:
        return None
    turn = latest(frames, who.table, "Turn")
    legal = latest(frames, who.table, "Legal")
    hands = hand_ids(frames, who.table)
    if not (turn and legal and hands) or turn["seat"] != who.seat:
        return None
    if not turn["hand_id"] == legal["hand_id"] == hands[-1]:
        return None
    return legal


def _pick(items: list[Any], plan: dict[str, Any], salt: int = 0) -> Any:
    return items[(plan["pick"] + salt) % len(items)]


def play(plan: dict[str, Any], who: Player, legal: dict[str, Any]) -> dict[str, Any]:
    """A legal move (what keeps the hands going at tables with 10-minute clocks)."""
    info = legal["legal"]
    base = {"table": who.table, "hand_id": legal["hand_id"], "action_id": plan["action_id"]}
    message: msgspec.Struct
    if info.get("draw"):
        held = list(info.get("hand") or [])
        most = int(info.get("max_discard") or 0)
        discard = sorted({held[i % len(held)] for i in plan["cards"]})[:most] if held else []
        message = proto.Draw(discard=discard, **base)
    else:
        first = "check" if info.get("check") else "call"
        action = [first, first, "fold"][plan["action"] % 3]
        message = proto.Act(action=action, **base)
    return msgspec.to_builtins(message)  # type: ignore[no-any-return]


def build(plan: dict[str, Any], who: Player, frames: list[dict[str, Any]]) -> dict[str, Any]:
    """A message built from the protocol's classes, with values taken from what this
    client has seen or not."""
    own = who.table
    turn = my_turn(who, frames)
    if turn is not None and plan["play"] > 0:
        return play(plan, who, turn)
    target = own if own is not None and plan["table"] < 3 else plan["other"]
    hands = hand_ids(frames, own) if own else []
    hand_id = [hands[-1] if hands else "none-1", _pick(hands or ["none-2"], plan), plan["ident"]][
        plan["hand"]
    ]
    legal = latest(frames, own, "Legal") if own else None
    info = legal["legal"] if legal and legal["hand_id"] == hand_id else {}
    kind = plan["kind"]
    message: msgspec.Struct
    if kind == "ping":
        message = proto.Ping()
    elif kind == "hello":
        message = proto.Hello(protocol=plan["protocol"])
    elif kind == "lobby":
        message = proto.LobbySubscribe(game=_pick([None, "draw", "italian"], plan))
    elif kind == "subscribe":
        message = proto.Subscribe(table=target, since=plan["since"], epoch=plan["epoch"])
    elif kind == "unsubscribe":  # a player keeps watching its own table (it would miss its turns)
        away = plan["other"] if plan["other"] != own else "nowhere"
        message = proto.Unsubscribe(table=away if who.seat else target)
    elif kind == "sit":
        message = proto.Sit(
            table=target, seat=plan["seat"], buy_in=plan["buy_in"], post=plan["flag"]
        )
    elif kind == "top_up":
        message = proto.TopUp(table=target, amount=plan["amount"] or 0)
    elif kind == "sit_out":
        message = proto.SitOut(table=target)
    elif kind == "sit_in":
        message = proto.SitIn(table=target, post=plan["flag"])
    elif kind == "leave":
        message = proto.Leave(table=target if plan["leave"] == 0 else "nowhere")
    elif kind == "act":
        options = [a for a in ("fold", "check", "call") if info.get(a)]
        options += ["bet", "raise"] if info.get("max_to") else []
        action = (options or ["fold", "check", "call", "bet", "raise"])[
            plan["action"] % 5 % len(options or "12345")
        ]
        amount = plan["amount"]
        if amount is not None and info.get("max_to") and plan["flag"]:
            amount = min(max(amount, int(info["min_to"])), int(info["max_to"]))
        message = proto.Act(
            table=target, hand_id=hand_id, action_id=plan["action_id"], action=action, amount=amount
        )
    elif kind == "draw":
        pool = list(info.get("hand") or []) + CARDS + BAD_CARDS
        discard = [pool[i % len(pool)] for i in plan["cards"]]
        message = proto.Draw(
            table=target, hand_id=hand_id, action_id=plan["action_id"], discard=discard
        )
    elif kind == "pre_action":
        discard = [CARDS[i % len(CARDS)] for i in plan["cards"]][:5]
        message = proto.PreAction(table=target, hand_id=hand_id, pre=plan["pre"], discard=discard)
    else:
        message = proto.Chat(table=target, text=plan["text"])
    return msgspec.to_builtins(message)  # type: ignore[no-any-return]


def deep(depth: int) -> str:
    return "[" * depth + "]" * depth


def mutate(plan: dict[str, Any], message: dict[str, Any]) -> str | bytes:
    """The message broken in one of many ways (each one the protocol refuses)."""
    how = plan["how"]
    body = dict(message)
    keys = sorted(k for k in body if k not in ("type", "id"))
    if how == "drop":
        required = sorted(REQUIRED.get(str(body.get("type")), set()) & set(body))
        if not required:
            return json.dumps({**body, "type": plan["ident"] + "!"})
        body.pop(_pick(required, plan))
    elif how == "unknown":
        body[plan["unknown"]] = plan["junk"]
    elif how == "retype":
        if not keys:
            body["unexpected"] = plan["junk"]
        else:
            key = _pick(keys, plan)
            body[key] = plan["wrong"]
            if key == "post" and body[key] is True:
                body[key] = "yes"
    elif how == "type":
        body["type"] = plan["wrong_type"]
    elif how == "deep":
        text = json.dumps({**body, _pick(keys or ["extra"], plan): "__DEEP__"})
        return text.replace('"__DEEP__"', deep(plan["depth"]))
    elif how == "huge":
        return json.dumps({**body, "text": "x" * plan["size"]})
    elif how == "shape":
        return json.dumps([body] if plan["shape"] == ["body"] else plan["shape"])
    else:
        raw: str = plan["raw"]
        if plan["flag"]:
            return raw.encode("utf-8", "surrogatepass") + plan["suffix"]
        return raw
    encoded = json.dumps(body)
    return encoded.encode() if plan["as_bytes"] == 0 else encoded


# ------------------------------------------------------------------ the room


def _public(server: Server, table_id: str) -> dict[str, Any]:
    state: dict[str, Any] = server.table(table_id)["state"]
    if state.get("hand"):
        state["hand"].pop("clock_s", None)
    return state


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    tmp = tmp_path_factory.mktemp("fuzz")
    tables = [
        table(t, seats=6, action_time=600.0, draw_time=600, disconnect_grace_s=600.0)
        for t in TABLES
    ]
    server = Server(tmp, None, tables).start()
    loop = asyncio.new_event_loop()
    guests = [server.guest() for _ in range(PLAYERS_PER_TABLE * len(TABLES) + 2)]

    async def connect() -> tuple[list[Player], Client]:
        players = []
        for i, g in enumerate(guests):
            c = await Client(server, g["token"], g["name"]).connect()
            if i < PLAYERS_PER_TABLE * len(TABLES):
                t, seat = TABLES[i % len(TABLES)], i // len(TABLES) + 1
                reply = await c.request({"type": "sit", "table": t, "seat": seat, "buy_in": 200})
                assert reply["type"] == "ok", reply
                players.append(Player(c, g["name"], "player", t, seat))
            else:
                await c.request({"type": "subscribe", "table": TABLES[0]})
                players.append(Player(c, g["name"], "onlooker", TABLES[0]))
        for i in range(2):
            c = await Client(server, None, f"spectator{i}").connect()
            players.append(Player(c, f"spectator{i}", "spectator", TABLES[i]))
        spectator = await Client(server, None, "referee").connect()
        for t in TABLES:
            await spectator.request({"type": "subscribe", "table": t})
        return players, spectator

    clients: list[Client] = []
    try:
        players, spectator = loop.run_until_complete(connect())
        clients = [p.client for p in players] + [spectator]
        yield Room(server, loop, players, spectator, [g["token"] for g in guests])
    finally:

        async def close() -> None:
            await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)

        loop.run_until_complete(close())
        for task in asyncio.all_tasks(loop):
            task.cancel()
        loop.run_until_complete(asyncio.sleep(0))
        loop.close()
        server.stop()


async def _send(
    room: Room, who: Player, raw: str | bytes, protocol_invalid: bool
) -> dict[str, Any]:
    """Send one message and wait for its answer: each client sends one at a time,
    so the next ``ok`` or ``error`` it gets is the answer."""
    wait = who.last_send + 1.0 / RATE - time.monotonic()
    if wait > 0:
        await asyncio.sleep(wait)
    who.last_send = time.monotonic()
    mark = len(who.client.frames)
    await who.client.ws.send(raw)
    try:
        answer = await who.client.wait(
            lambda f: f["type"] in ("ok", "error", "pong"), timeout=15, start=mark
        )
    except TimeoutError:
        pytest.fail(f"{who.name} ({who.kind}) got no answer to {raw!r}")
    who.sent += 1
    room.total += 1
    code = answer.get("code", "ok")
    room.codes[code] = room.codes.get(code, 0) + 1
    assert code != "internal", (raw, answer)
    if answer.get("ref") is not None:
        assert answer["ref"].startswith(who.name), (raw, answer)
    if protocol_invalid:
        assert answer["type"] == "error", (raw, answer)
        room.broken[code in PROTOCOL_CODES] += 1
    return answer


def test_fuzzing_the_websocket(room: Room) -> None:
    """The fuzz (the module's description), then the checks after it."""

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        phases=[Phase.generate],  # a live server: no shrinking, no replay
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data())
    def batch(data: st.DataObject) -> None:
        # The same draws in every example, made first: the clients then run at once.
        work = [data.draw(plans) for _ in range(PER_EXAMPLE)]
        senders = [data.draw(st.integers(0, len(room.players) - 1)) for _ in work]  # for probes
        room.probes += 1
        if room.probes % PROBE_EVERY == 0:
            probe = list(zip(senders, work, strict=True))
            room.loop.run_until_complete(_refusals_change_nothing(room, probe))
            return

        async def client_batch(who: Player, mine: list[dict[str, Any]]) -> None:
            for plan in mine:
                message = build(plan, who, who.client.frames)
                message["id"] = f"{who.name}-{who.sent}"
                if plan["mutate"] == 0:
                    await _send(room, who, mutate(plan, message), protocol_invalid=True)
                else:
                    await _send(room, who, json.dumps(message), protocol_invalid=False)

        async def everyone() -> None:
            n = len(room.players)
            await asyncio.gather(*(client_batch(p, work[i::n]) for i, p in enumerate(room.players)))

        room.loop.run_until_complete(everyone())

    batch()
    _after_the_fuzz(room)


async def _quiet(room: Room, seconds: float = 0.5, limit: float = 8.0) -> None:
    """Wait until the referee has seen nothing new for ``seconds``."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        count = len(room.spectator.frames)
        await asyncio.sleep(seconds)
        if len(room.spectator.frames) == count:
            return


def _seated(state: dict[str, Any]) -> dict[str, int]:
    return {s["name"]: s["seat"] for s in state["seats"]}


def _refusable(
    who: Player, room: Room, plan: dict[str, Any], states: dict[str, dict[str, Any]]
) -> str | bytes:
    """A message that must be refused whatever the state of the game."""
    table_id = who.table or TABLES[0]
    seated = _seated(states[table_id])
    turn = latest(room.spectator.frames, table_id, "Turn")
    hand = turn["hand_id"] if turn else "none-1"
    choices: list[dict[str, Any]] = [
        {"type": "act", "table": table_id, "hand_id": "gone-1", "action_id": "s", "action": "call"},
        {"type": "draw", "table": table_id, "hand_id": "gone-2", "action_id": "s", "discard": []},
        {"type": "sit", "table": "nowhere", "seat": 1, "buy_in": 100},
        {"type": "hello", "protocol": 99},
        {"type": "top_up", "table": "nowhere", "amount": 10},
    ]
    if who.name in seated:
        if turn and turn["seat"] != seated[who.name]:  # another player's turn
            choices.append(
                {"type": "act", "table": table_id, "hand_id": hand, "action_id": "o",
                 "action": "fold"}
            )  # fmt: skip
        taken = next(iter(set(seated.values()) - {seated[who.name]}), None)
        if taken is not None:
            choices.append({"type": "sit", "table": table_id, "seat": taken, "buy_in": 100})
    elif who.kind != "spectator":
        choices += [{"type": k, "table": table_id} for k in ("leave", "sit_out", "sit_in")]
        choices.append({"type": "top_up", "table": table_id, "amount": 10})
        for seat in list(seated.values())[:1]:  # taken
            choices.append({"type": "sit", "table": table_id, "seat": seat, "buy_in": 100})
    else:
        choices += [
            {"type": "sit", "table": table_id, "seat": 6, "buy_in": 100},
            {"type": "act", "table": table_id, "hand_id": hand, "action_id": "x", "action": "fold"},
        ]
    message = dict(_pick(choices, plan))
    message["id"] = f"{who.name}-probe-{who.sent}"
    if plan["flag"]:
        return mutate(plan, message)
    return json.dumps(message)


async def _refusals_change_nothing(room: Room, probe: list[tuple[int, dict[str, Any]]]) -> None:
    """At a quiet moment: messages that must be refused are, and nothing moves."""
    await _quiet(room)
    server = room.server
    before = {t: _public(server, t) for t in TABLES}
    balances = [server.me(token)["balance"] for token in room.tokens]
    seen = len(room.spectator.frames)
    for index, plan in probe:
        who = room.players[index]
        raw = _refusable(who, room, plan, before)
        answer = await _send(room, who, raw, protocol_invalid=False)
        assert answer["type"] == "error", (raw, answer)
    await asyncio.sleep(0.2)
    changes = [f for f in room.spectator.frames[seen:] if f["type"] == "event"]
    assert changes == [], changes
    assert {t: _public(server, t) for t in TABLES} == before
    assert [server.me(token)["balance"] for token in room.tokens] == balances


def _after_the_fuzz(room: Room) -> None:
    """The server lives, logs no traceback, and its books balance."""
    server = room.server
    assert room.total >= 10_000, room.total
    assert room.probes >= EXAMPLES
    assert httpx.get(server.url + "/health", timeout=5).status_code == 200
    for who in room.players:
        assert who.sent > 0
    # Every kind of refusal came up, and real play happened.
    for code in ("bad_json", "bad_field", "unknown_type", "too_deep", "stale_hand", "no_table"):
        assert room.codes.get(code, 0) > 0, room.codes
    assert room.codes.get("ok", 0) > 1000, room.codes
    assert room.broken[1] > 0.9 * sum(room.broken), room.broken  # mostly refused by the codec
    assert sum(len(hand_ids(room.spectator.frames, t, 10**9)) for t in TABLES) > 3
    server.stop()  # hands in play are cancelled, their chips back to the stacks
    log = server.log.read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
    store = Store(database_url(None, Path(server.tmp) / "data"))
    try:
        store.call(ledger.check_books)
        assert (
            store.call(lambda c: c.execute(select(func.sum(ledger_entries.c.amount))).scalar_one())
            == 0
        )

        def holdings(c: Any) -> dict[str, int]:
            rows = c.execute(
                select(ledger_entries.c.account, func.sum(ledger_entries.c.amount)).group_by(
                    ledger_entries.c.account
                )
            ).all()
            return {account: int(amount) for account, amount in rows}

        money = store.call(holdings)
        assert all(v >= 0 for k, v in money.items() if k != ledger.BANK), money
        # Guests only: every chip given out is in a balance, a stack, a carry or the rake.
        given_out = -money[ledger.BANK]
        assert given_out == WELCOME * len(room.tokens)
        assert sum(v for k, v in money.items() if k != ledger.BANK) == given_out
    finally:
        store.close()
