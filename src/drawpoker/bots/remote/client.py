"""``RemoteBot``: one of ``drawpoker.bots``' policies playing on a drawpoker server
over the websocket protocol, as a person does (docs/protocol.md).

    async with RemoteBot("http://127.0.0.1:8000", kind="shark") as bot:
        cash = await bot.play_cash("nl-2-6", hands=50)
        result = await bot.play_tournament("sng-6")

It logs in (a guest, or a name and password), opens one websocket with the
session token and answers every private ``Legal`` with ``act`` or ``draw`` (a
unique ``action_id``, the ``hand_id``). The policy gets what an in-process bot
gets: the hand view (``protocol.mirror.HandMirror``, rebuilt from the snapshot and the
events), the legal actions and this hand's engine events (``protocol.events.event_from_wire``).
Refused actions (``stale_hand``, ``duplicate_action``, ...) are counted, never
fatal; an ``illegal_action`` falls back to check or fold. A dropped socket is
reopened and every table resubscribed with ``since`` and ``epoch``. Messages go
out through a token bucket well under the server's 20 a second.

One bot costs one websocket, one HTTP client and two small tasks; the policy's
decision runs inline when its ``Legal`` arrives, so fifty bots share one process.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from drawpoker.actions import Action, ActionKind, LegalActions
from drawpoker.bots import make_bot
from drawpoker.bots.base import check_or_fold
from drawpoker.cards import format_cards
from drawpoker.errors import DrawPokerError
from drawpoker.events import (
    BetPlaced,
    Called,
    Checked,
    Discarded,
    Event,
    Folded,
    HandEnded,
    HandStarted,
    Raised,
    StoodPat,
    Street,
)
from drawpoker.protocol import client, encode_text, frames
from drawpoker.protocol.events import ENGINE_EVENTS, WireError, event_from_wire, legal_from_wire
from drawpoker.protocol.mirror import HandMirror, rules_from_snapshot, with_level
from drawpoker.rules import Rules

log = logging.getLogger("drawpoker.bots.remote")

RATE = 10.0  # messages a second, half the server's limit
BURST = 20.0  # the server allows bursts of 40
RECONNECT_FOR_S = 60.0  # give up after this long without a connection
_MY_ACTIONS = (Folded, Checked, Called, BetPlaced, Raised, StoodPat, Discarded)


class RemoteBotError(DrawPokerError):
    """The server refused or could not be reached; ``code`` is the protocol's code."""

    def __init__(self, message: str, code: str = "") -> None:
        super().__init__(message)
        self.code = code


@dataclass(slots=True)
class CashResult:
    """A session at a cash table: ``net`` is the change of the account's balance."""

    bot: str
    table: str
    seat: int
    hands: int
    buy_in: int
    cashed_out: int
    balance_before: int
    balance_after: int
    errors: dict[str, int] = field(default_factory=dict)

    @property
    def net(self) -> int:
        return self.balance_after - self.balance_before


@dataclass(slots=True)
class TournamentResult:
    """A tournament to the end for this bot: its finishing place(s) and prize
    (``cancelled``: too few entries or a failure, every entry refunded)."""

    bot: str
    tournament: str  # the instance
    places: tuple[int, ...]
    prize: int
    hands: int
    tables: list[str]
    balance_before: int
    balance_after: int
    errors: dict[str, int] = field(default_factory=dict)
    cancelled: bool = False

    @property
    def place(self) -> int:
        return min(self.places) if self.places else 0


@dataclass(slots=True)
class _Table:
    """One table this bot watches: the log position, its seat and the hand in play."""

    id: str
    rules: Rules = field(default_factory=Rules.online)
    v: int | None = None
    epoch: str | None = None
    seat: int | None = None
    occupied: set[int] = field(default_factory=set)
    mirror: HandMirror | None = None
    events: list[Event] = field(default_factory=list)  # this hand's, as this seat saw them
    dealt: bool = False
    pending: tuple[str, LegalActions, str] | None = None  # (hand_id, legal, key) to answer
    answered: set[str] = field(default_factory=set)
    in_flight: tuple[str, LegalActions] | None = None  # answered, my action not seen yet
    resyncing: bool = False
    hands: int = 0
    stack: int | None = None
    busted: bool = False
    left_with: int | None = None
    last_hand: float = field(default_factory=time.monotonic)  # when a hand last began or ended


@dataclass(slots=True)
class _Tournament:
    instance: str
    tables: list[str] = field(default_factory=list)
    places: tuple[int, ...] = ()
    prize: int = 0
    finished: bool = False
    cancelled: bool = False


@dataclass(slots=True)
class _Request:
    message: client.ClientMessage
    future: asyncio.Future[dict[str, Any]] | None
    table: str | None = None
    legal_key: str = ""
    resync: bool = False
    channel: str = ""  # a tournament channel's (re)subscription
    tries: int = 0


class RemoteBot:
    """A bot client of a drawpoker server. Use ``async with``; then ``play_cash`` or
    ``play_tournament``. ``name``/``password`` log in to an account, else a guest."""

    def __init__(
        self,
        server: str,
        *,
        kind: str = "tag",
        name: str | None = None,
        password: str | None = None,
        seed: int | str | bytes | None = None,
        rate: float = RATE,
        burst: float = BURST,
        progress: Callable[[str], None] | None = None,
    ) -> None:
        self.server = server.rstrip("/")
        if not self.server.startswith(("http://", "https://")):
            raise RemoteBotError(f"the server URL must start with http:// or https://: {server!r}")
        self.kind = kind
        self.bot = make_bot(kind, seed=seed if seed is not None else secrets.token_hex(8))
        self._login = (name, password) if name and password else None
        self.name = name or ""
        self.account_id = 0
        self.token = ""
        self._rate, self._burst = rate, burst
        self._tokens, self._stamp = burst, time.monotonic()
        self._progress = progress
        self._run = secrets.token_hex(3)
        self._counter = 0
        self._http: httpx.AsyncClient | None = None
        self._ws: ClientConnection | None = None
        self._online = asyncio.Event()
        self._changed = asyncio.Event()
        self._outbox: asyncio.Queue[_Request] = asyncio.Queue()
        self._requests: dict[str, _Request] = {}
        self._tables: dict[str, _Table] = {}
        self._channels: dict[str, _Tournament] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._closing = False
        self._failed: BaseException | None = None
        self.errors: Counter[str] = Counter()
        self.actions = 0
        self.hands = 0  # hands dealt in and played to the end, every table
        self.reconnects = 0

    # ------------------------------------------------------------ lifecycle

    async def __aenter__(self) -> RemoteBot:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def connect(self) -> None:
        """Log in over REST and open the websocket."""
        self._http = httpx.AsyncClient(base_url=self.server, timeout=15.0, trust_env=False)
        try:
            if self._login is None:
                body = await self._post("/api/guest")
            else:
                name, password = self._login
                body = await self._post("/api/login", {"name": name, "password": password})
            self.token = str(body["token"])
            self.name = str(body["name"])
            self.account_id = int(body["id"])
            await self._open()
        except BaseException:
            await self.close()
            raise
        self._tasks = [
            asyncio.create_task(self._reader(), name=f"bot-{self.name}-read"),
            asyncio.create_task(self._writer(), name=f"bot-{self.name}-write"),
        ]

    async def close(self) -> None:
        self._closing = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()
        if self._http is not None:
            await self._http.aclose()

    async def drop_connection(self) -> None:
        """Close the websocket as a network failure would (tests): the bot reconnects."""
        if self._ws is not None:
            await self._ws.close(code=4000, reason="dropped")

    @property
    def ws_url(self) -> str:
        base = "ws" + self.server.removeprefix("http")
        return f"{base}/ws?token={self.token}"

    async def _open(self) -> None:
        try:
            ws = await connect(self.ws_url, max_size=2**22, open_timeout=15)
            first = await asyncio.wait_for(ws.recv(), 15)
            welcome = json.loads(frames(str(first))[0])
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError, ConnectionClosed) as error:
            raise RemoteBotError(
                f"cannot open the websocket at {self.server}/ws: {error}"
            ) from None
        if welcome.get("type") != "welcome" or not welcome.get("account"):
            await ws.close()
            raise RemoteBotError(f"the server did not accept the session: {welcome!r}")
        self._ws = ws
        self._online.set()

    # ------------------------------------------------------------ REST

    def _http_client(self) -> httpx.AsyncClient:
        if self._http is None:
            raise RemoteBotError("not connected: use `async with RemoteBot(...)` or connect()")
        return self._http

    async def _call(self, method: str, path: str, body: Any = None) -> httpx.Response:
        headers = {"Cookie": f"dp_session={self.token}"} if self.token else {}
        client = self._http_client()
        try:
            try:
                return await client.request(method, path, json=body, headers=headers)
            except httpx.RemoteProtocolError:
                # A kept-alive connection the server closed as it was reused: once more
                # on a new one (a repeated registration is answered "already registered").
                return await client.request(method, path, json=body, headers=headers)
        except httpx.HTTPError as error:
            raise RemoteBotError(f"cannot reach the server at {self.server}: {error}") from None

    async def _post(self, path: str, body: Any = None) -> dict[str, Any]:
        response = await self._call("POST", path, body)
        return _json_or_error(response, f"POST {path}")

    async def _get(self, path: str) -> dict[str, Any]:
        response = await self._call("GET", path)
        return _json_or_error(response, f"GET {path}")

    async def balance(self) -> int:
        """The account's balance (``GET /api/me``)."""
        return int((await self._get("/api/me"))["balance"])

    # ------------------------------------------------------------ cash tables

    async def play_cash(
        self,
        table: str,
        *,
        hands: int | None = 10,
        buy_in: int | None = None,
        seat: int | None = None,
        stop: asyncio.Event | None = None,
        idle: float = 60.0,
    ) -> CashResult:
        """Sit at ``table`` (a free seat, or ``seat``), play ``hands`` hands (None: until
        ``stop`` is set), until busted or until no hand has been played for ``idle``
        seconds (nobody to play with), leave, and report the session. The buy-in is
        ``buy_in``, else the table's maximum or the whole balance if smaller."""
        response = await self._call("GET", f"/api/tables/{table}")
        if response.status_code == 404:
            raise RemoteBotError(f"there is no table {table!r} on {self.server}", "no_table")
        info = _json_or_error(response, f"GET /api/tables/{table}")
        before = await self.balance()
        low, high = int(info["min_buy_in"]), int(info["max_buy_in"])
        amount = buy_in if buy_in is not None else min(high, before)
        if before < max(amount, low):
            raise RemoteBotError(
                f"{self.name} has {before} chips; the buy-in at {table} is {low}-{high}",
                "insufficient_funds",
            )
        t = await self._watch(table)
        if t.seat is None:
            await self._sit(t, amount, seat)
        self._say(f"{self.name} sits at {table} seat {t.seat} with {amount}")
        start = t.hands
        seat_no = t.seat or 0

        t.last_hand = time.monotonic()

        def done() -> bool:
            enough = hands is not None and t.hands - start >= hands
            between_hands = t.mirror is None or not t.mirror.active
            if between_hands and time.monotonic() - t.last_hand > idle:
                self._say(f"{self.name}: no hand at {table} for {idle:.0f} s")
                return True
            return enough or t.busted or t.seat is None or (stop is not None and stop.is_set())

        await self._wait_for(done)
        with contextlib.suppress(RemoteBotError):  # finish the hand in play, then stand up
            await self._wait_for(lambda: not (t.dealt and t.mirror and t.mirror.active), 60)
        if t.seat is not None:
            try:
                await self._request(client.Leave(table=table))
            except RemoteBotError as error:
                if error.code != "not_seated":
                    raise
                t.seat = None
            await self._wait_for(lambda: t.seat is None, timeout=120)
        cashed = t.left_with if t.left_with is not None else 0
        self._say(f"{self.name} leaves {table} after {t.hands - start} hands with {cashed}")
        await self._unwatch(table)
        return CashResult(
            bot=self.name,
            table=table,
            seat=seat_no,
            hands=t.hands - start,
            buy_in=amount,
            cashed_out=cashed,
            balance_before=before,
            balance_after=await self.balance(),
            errors=dict(self.errors),
        )

    async def _sit(self, t: _Table, amount: int, seat: int | None) -> None:
        for _ in range(12):
            free = [s for s in range(1, t.rules.max_seats + 1) if s not in t.occupied]
            if seat is None and not free:
                raise RemoteBotError(f"table {t.id} is full", "table_full")
            choice = seat if seat is not None else self.bot.rng.choice(free)
            message = client.Sit(table=t.id, seat=choice, buy_in=amount)
            try:
                await self._request(message)
            except RemoteBotError as error:
                if error.code == "seat_taken" and seat is None:
                    t.occupied.add(choice)
                    continue
                if error.code == "already_seated":
                    await self._wait_for(lambda: t.seat is not None, timeout=10)
                    return
                raise
            await self._wait_for(lambda: t.seat is not None, timeout=10)
            return
        raise RemoteBotError(f"no free seat could be taken at {t.id}", "table_full")

    # ------------------------------------------------------------ tournaments

    async def play_tournament(self, tournament: str, *, register: bool = True) -> TournamentResult:
        """Register (unless ``register`` is false: already registered), follow the
        tournament to this bot's table(s), play until the private ``Finished``."""
        response = await self._call("GET", f"/api/tournaments/{tournament}")
        if response.status_code == 404:
            raise RemoteBotError(f"there is no tournament {tournament!r} on {self.server}")
        info = _json_or_error(response, f"GET /api/tournaments/{tournament}")
        before = await self.balance()
        instance = str(info.get("instance") or info.get("id") or tournament)
        if register:
            cost = int(info.get("buy_in", 0)) + int(info.get("fee", 0))
            if before < cost:
                raise RemoteBotError(
                    f"{self.name} has {before} chips, short of the buy-in and fee "
                    f"({cost}) of {tournament}",
                    "insufficient_funds",
                )
            response = await self._call("POST", f"/api/tournaments/{tournament}/register")
            if response.status_code == 400:
                message = _error_text(response)
                raise RemoteBotError(
                    f"{self.name} cannot register for {tournament} (balance {before}, "
                    f"buy-in and fee {cost}): {message}",
                    "insufficient_funds",
                )
            if response.status_code != 409 or "already registered" not in _error_text(response):
                instance = str(_json_or_error(response, "register").get("tournament", instance))
            self._say(f"{self.name} registers for {instance}")
        ts = _Tournament(instance)
        self._channels[instance] = ts
        start = self.hands
        detail = await self._request(client.Subscribe(table=instance))
        if detail.get("tournament") and detail["tournament"] != instance:
            self._channels[str(detail["tournament"])] = ts
            ts.instance = str(detail["tournament"])
        if detail.get("table"):
            self._follow(ts, str(detail["table"]))
        while not ts.finished:  # the private Finished; the REST detail as a safety net
            try:
                await self._wait_for(lambda: ts.finished, timeout=10.0)
            except RemoteBotError as error:
                if error.code != "timeout":
                    raise
                await self._check_over(ts)
        hands = self.hands - start
        for table_id in list(ts.tables):
            await self._unwatch(table_id)
        with contextlib.suppress(RemoteBotError):
            await self._request(client.Unsubscribe(table=ts.instance))
        for key in [k for k, v in self._channels.items() if v is ts]:
            del self._channels[key]
        place = "-".join(str(p) for p in ts.places) or "?"
        self._say(f"{self.name} finishes {ts.instance}: place {place}, prize {ts.prize}")
        return TournamentResult(
            bot=self.name,
            tournament=ts.instance,
            places=ts.places,
            prize=ts.prize,
            hands=hands,
            tables=list(ts.tables),
            balance_before=before,
            balance_after=await self.balance(),
            errors=dict(self.errors),
            cancelled=ts.cancelled,
        )

    async def _check_over(self, ts: _Tournament) -> None:
        """From ``GET /api/tournaments/{instance}``: over for this bot (a ``Finished``
        missed while the socket was down), or the run cancelled."""
        response = await self._call("GET", f"/api/tournaments/{ts.instance}")
        if response.status_code != 200:
            return
        detail = response.json()
        mine = [s for s in detail.get("standings") or () if s.get("account") == self.account_id]
        if mine:
            ts.places = tuple(int(p) for p in mine[0].get("places") or (mine[0]["place"],))
            ts.prize = int(mine[0].get("prize") or 0)
            ts.finished = True
        elif detail.get("status") == "cancelled":
            ts.cancelled = ts.finished = True

    def _follow(self, ts: _Tournament, table_id: str) -> None:
        """Watch the tournament table where this bot now sits (at most one at a time)."""
        if ts.tables and ts.tables[-1] == table_id:
            return
        for old in ts.tables:
            if old in self._tables and old != table_id:
                del self._tables[old]
                self._send(client.Unsubscribe(table=old))
        ts.tables.append(table_id)
        self._tables[table_id] = _Table(table_id)
        self._send(client.Subscribe(table=table_id))
        self._say(f"{self.name} plays at {table_id}")

    def _on_channel(self, ts: _Tournament, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "YourTable" or kind == "Moved":
            self._follow(ts, str(event["table"]))
        elif kind == "Finished":
            ts.places = tuple(int(p) for p in event.get("places") or ())
            ts.prize = int(event.get("prize") or 0)
            ts.finished = True
        elif kind == "TournamentCancelled":
            ts.cancelled = ts.finished = True

    # ------------------------------------------------------------ watching

    async def _watch(self, table: str) -> _Table:
        t = self._tables.get(table)
        if t is None:
            t = self._tables[table] = _Table(table)
        try:
            await self._request(client.Subscribe(table=table))
        except RemoteBotError:
            del self._tables[table]
            raise
        return t

    async def _unwatch(self, table: str) -> None:
        if self._tables.pop(table, None) is not None:
            with contextlib.suppress(RemoteBotError):
                await self._request(client.Unsubscribe(table=table))

    # ------------------------------------------------------------ messages

    def _next_id(self, prefix: str) -> str:
        self._counter += 1
        return f"{prefix}{self._run}-{self._counter}"

    def _numbered(self, message: client.ClientMessage) -> client.ClientMessage:
        return msgspec.structs.replace(message, id=self._next_id("m"))

    def _send(self, message: client.ClientMessage, **extra: Any) -> _Request:
        request = _Request(self._numbered(message), None, **extra)
        self._outbox.put_nowait(request)
        return request

    async def _request(
        self, message: client.ClientMessage, timeout: float = 30.0
    ) -> dict[str, Any]:
        """Send and wait for the ``ok`` (its ``detail``); an ``error`` raises."""
        for _ in range(4):
            future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            request = _Request(self._numbered(message), future)
            self._outbox.put_nowait(request)
            try:
                return await asyncio.wait_for(future, timeout)
            except RemoteBotError as error:
                if error.code != "connection_lost":
                    raise
                await self._online.wait()
            except TimeoutError:
                raise RemoteBotError(
                    f"no answer to {message.type} in {timeout:.0f} s", "timeout"
                ) from None
        raise RemoteBotError(f"{message.type}: the connection keeps dropping", "connection_lost")

    async def _writer(self) -> None:
        while True:
            request = await self._outbox.get()
            await self._bucket()
            await self._online.wait()
            ws = self._ws
            assert ws is not None
            ref = str(request.message.id)
            self._requests[ref] = request
            try:
                await ws.send(encode_text(request.message))
            except ConnectionClosed:
                self._requests.pop(ref, None)
                self._lost(request)

    def _lost(self, request: _Request) -> None:
        if request.future is not None and not request.future.done():
            request.future.set_exception(
                RemoteBotError("the connection dropped", "connection_lost")
            )

    async def _bucket(self) -> None:
        """Wait for a token: ``rate`` a second, bursts of ``burst``."""
        while True:
            now = time.monotonic()
            self._tokens = min(self._burst, self._tokens + (now - self._stamp) * self._rate)
            self._stamp = now
            if self._tokens >= 1.0:
                self._tokens -= 1.0
                return
            await asyncio.sleep((1.0 - self._tokens) / self._rate)

    async def _reader(self) -> None:
        try:
            while not self._closing:
                ws = self._ws
                assert ws is not None
                try:
                    async for text in ws:
                        for line in frames(str(text)):
                            self._dispatch(json.loads(line))
                except ConnectionClosed:
                    pass
                if self._closing:
                    return
                await self._reconnect()
        except asyncio.CancelledError:
            raise
        except BaseException as error:  # a bug or a dead server: wake whoever waits
            self._failed = error
            self._changed.set()
            if not isinstance(error, Exception):
                raise

    async def _reconnect(self) -> None:
        self._online.clear()
        self.reconnects += 1
        for ref, request in list(self._requests.items()):
            del self._requests[ref]
            self._lost(request)
            t = self._tables.get(request.table or "")
            if request.legal_key and t is not None:  # maybe never arrived: answer again
                t.answered.discard(request.legal_key)
                t.in_flight = None
        self._say(f"{self.name}: connection lost, reconnecting")
        deadline = time.monotonic() + RECONNECT_FOR_S
        delay = 0.2
        while True:
            try:
                await self._open()
                break
            except RemoteBotError:
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)
        for t in self._tables.values():
            t.resyncing = True
            message = client.Subscribe(table=t.id)
            if t.v is not None and t.epoch is not None:
                message = client.Subscribe(table=t.id, since=t.v, epoch=t.epoch)
            self._send(message, table=t.id, resync=True)
        for instance in {ts.instance for ts in self._channels.values()}:
            self._send(client.Subscribe(table=instance), channel=instance)

    # ------------------------------------------------------------ frames

    def _dispatch(self, frame: dict[str, Any]) -> None:
        try:
            self._dispatch_frame(frame)
        except (WireError, KeyError, TypeError, ValueError):  # a frame not as documented
            log.exception("%s: cannot read %r", self.name, frame)
            self.errors["bad_frame"] += 1
        self._changed.set()

    def _dispatch_frame(self, frame: dict[str, Any]) -> None:
        kind = frame.get("type")
        if kind == "event":
            table_id = frame.get("table", "")
            event = frame.get("event") or {}
            channel = self._channels.get(table_id)
            if channel is not None:
                self._on_channel(channel, event)
            else:
                t = self._tables.get(table_id)
                if t is not None:
                    t.v = max(t.v or 0, int(frame.get("v") or 0))
                    self._on_event(t, event)
                    if event.get("type") in ("Moved", "Finished"):
                        for ts in self._channels.values():
                            if table_id in ts.tables:
                                self._on_channel(ts, event)
        elif kind == "snapshot":
            t = self._tables.get(frame.get("table", ""))
            if t is not None:
                self._on_snapshot(t, frame)
        elif kind in ("ok", "error"):
            self._on_reply(frame)

    def _on_reply(self, frame: dict[str, Any]) -> None:
        request = self._requests.pop(str(frame.get("ref")), None)
        if request is None:
            return
        t = self._tables.get(request.table or "")
        if frame["type"] == "ok":
            if request.future is not None and not request.future.done():
                request.future.set_result(frame.get("detail") or {})
            if request.resync and t is not None:
                t.resyncing = False
                self._maybe_act(t)
            ts = self._channels.get(request.channel)
            table = (frame.get("detail") or {}).get("table")
            if ts is not None and table:  # moved while the socket was down
                self._follow(ts, str(table))
            return
        code, message = str(frame.get("code")), str(frame.get("message"))
        if code == "rate_limited" and request.tries < 5:  # resend a little later
            request.tries += 1
            request.message = self._numbered(request.message)
            loop = asyncio.get_running_loop()
            loop.call_later(0.5 * request.tries, self._outbox.put_nowait, request)
            return
        if request.future is not None and not request.future.done():  # the caller decides
            request.future.set_exception(RemoteBotError(f"{message} ({code})", code))
            return
        self.errors[code] += 1  # a refused action or resubscription
        if request.resync and t is not None:
            t.resyncing = False
            log.warning("%s: resubscribing to %s failed: %s", self.name, t.id, message)
        elif request.legal_key and t is not None:
            log.info(
                "%s at %s: %s refused: %s (%s)", self.name, t.id, request.message, message, code
            )
            t.in_flight = None
            if code == "illegal_action" and t.pending and t.pending[2] == request.legal_key:
                hand_id, legal, key = t.pending
                self._answer(t, hand_id, legal, key + "f", _safest(legal))

    def _on_snapshot(self, t: _Table, frame: dict[str, Any]) -> None:
        state = frame.get("state") or {}
        t.v = int(frame.get("v") or 0)
        t.epoch = state.get("epoch")
        t.rules = rules_from_snapshot(state)
        t.occupied = {int(s["seat"]) for s in state.get("seats") or ()}
        you = state.get("you")
        self._seated(t, int(you) if you else None)
        for s in state.get("seats") or ():
            if s.get("seat") == t.seat:
                t.stack = int(s.get("stack") or 0)
        hand = state.get("hand")
        t.pending = None
        t.events = []
        t.mirror = None
        t.dealt = False
        if hand and t.seat is not None:
            seats = {s["seat"] for s in hand.get("seats") or ()}
            t.dealt = t.seat in seats
            t.mirror = HandMirror.from_view(hand, t.seat, t.rules.max_seats)
            legal = hand.get("legal")
            if legal and legal.get("seat") == t.seat:
                key = f"{hand['hand_id']}@snap{t.v}"
                t.pending = (str(hand["hand_id"]), legal_from_wire(legal), key)
        self._maybe_act(t)

    def _seated(self, t: _Table, seat: int | None) -> None:
        if seat is not None and seat != t.seat:
            self.bot.sit(seat, t.rules)
        t.seat = seat

    def _on_event(self, t: _Table, data: dict[str, Any]) -> None:
        kind = data.get("type")
        if kind in ENGINE_EVENTS:
            try:
                event = event_from_wire(data)
            except WireError as error:
                log.warning("%s at %s: %s", self.name, t.id, error)
                self.errors["bad_event"] += 1
                return
            assert event is not None
            self._on_engine_event(t, event)
        elif kind == "Turn":
            t.pending = None
            if t.mirror is not None and data.get("street"):
                with contextlib.suppress(ValueError):
                    t.mirror.street = Street(data["street"])
        elif kind == "Legal":
            legal = legal_from_wire(data["legal"])
            if t.seat is not None and legal.seat == t.seat:
                t.pending = (str(data["hand_id"]), legal, f"{data['hand_id']}@{t.v}")
                self._maybe_act(t)
        elif kind == "PlayerSeated":
            t.occupied.add(int(data["seat"]))
            if data.get("name") == self.name:
                t.stack = int(data.get("stack") or 0)
                t.left_with = None
                self._seated(t, int(data["seat"]))
        elif kind == "PlayerLeft":
            t.occupied.discard(int(data["seat"]))
            if data.get("name") == self.name or data.get("seat") == t.seat:
                t.left_with = int(data.get("chips") or 0)
                t.seat = None
        elif kind == "SatOut":
            if data.get("seat") == t.seat and data.get("reason") == "busted":
                t.busted = True
        elif kind == "HandCancelled":  # a server restart: the chips went back, no hand
            if t.mirror is not None:
                t.mirror.street = Street.OVER
            t.pending, t.events, t.dealt = None, [], False
            t.last_hand = time.monotonic()
        elif kind == "LevelStarted":
            t.rules = with_level(t.rules, data)
            self.bot.rules = t.rules

    def _on_engine_event(self, t: _Table, event: Event) -> None:
        if isinstance(event, HandStarted | HandEnded):
            t.last_hand = time.monotonic()
        if isinstance(event, HandStarted):
            t.events = []
            t.pending = None
            t.in_flight = None
            t.dealt = t.seat is not None and any(seat == t.seat for seat, _ in event.stacks)
            t.mirror = HandMirror(t.seat, t.rules.max_seats) if t.seat is not None else None
        if isinstance(event, HandEnded) and t.mirror is not None and t.mirror.active:
            drift = [
                seat for seat, stack in event.stacks if t.mirror.stack(seat) not in (None, stack)
            ]
            if drift:  # the rebuilt view went wrong somewhere: say so (tests check)
                log.warning("%s at %s: view drift at seats %s", self.name, t.id, drift)
                self.errors["view_drift"] += 1
        t.events.append(event)
        if (
            t.pending is not None
            and getattr(event, "seat", None) == t.seat
            and isinstance(event, _MY_ACTIONS)
        ):
            t.pending = None  # answered (also when replayed after a reconnect)
            t.in_flight = None
        if t.mirror is not None:
            t.mirror.apply(event, t.rules.big_blind)
        if isinstance(event, HandEnded):
            t.pending = None
            if t.dealt and t.seat is not None:
                t.hands += 1
                self.hands += 1
                t.stack = dict(event.stacks).get(t.seat, t.stack)
                try:
                    self.bot.observe(t.events)
                except Exception:  # a policy's memory must never stop the client
                    log.exception("%s: observe failed", self.name)
            t.dealt = False

    # ------------------------------------------------------------ acting

    def _maybe_act(self, t: _Table) -> None:
        if t.pending is None or t.resyncing:
            return
        hand_id, legal, key = t.pending
        if key in t.answered:
            return
        if t.in_flight == (hand_id, legal):  # the same turn announced again: answered
            t.answered.add(key)
            return
        action = self._decide(t, legal)
        self._answer(t, hand_id, legal, key, action)

    def _decide(self, t: _Table, legal: LegalActions) -> Action:
        mirror = t.mirror
        if mirror is None or not mirror.dealt_in:
            self.errors["no_view"] += 1
            return _safest(legal)
        try:
            return self.bot.decide(mirror.view(), legal, t.events)
        except Exception:  # never stall a table on a policy error: the safest action
            log.exception("%s: %s failed to decide", self.name, self.kind)
            self.errors["decide"] += 1
            return _safest(legal)

    def _answer(
        self, t: _Table, hand_id: str, legal: LegalActions, key: str, action: Action
    ) -> None:
        t.answered.add(key)
        if len(t.answered) > 64:
            t.answered = {key}
        t.in_flight = (hand_id, legal)
        action_id = self._next_id("a")
        message: client.ClientMessage
        if action.kind is ActionKind.DRAW:
            discard = format_cards(action.cards).split()
            message = client.Draw(table=t.id, hand_id=hand_id, action_id=action_id, discard=discard)
        else:
            kind = _WIRE_ACTIONS[action.kind]
            if action.kind is ActionKind.BET:
                kind = "raise" if legal.call or legal.bet_label == "raise" else "bet"
            amount = action.amount if action.kind is ActionKind.BET else None
            message = client.Act(
                table=t.id, hand_id=hand_id, action_id=action_id, action=kind, amount=amount
            )
        self.actions += 1
        self._send(message, table=t.id, legal_key=key)

    # ------------------------------------------------------------ waiting

    async def _wait_for(self, done: Callable[[], bool], timeout: float | None = None) -> None:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            if self._failed is not None:
                raise RemoteBotError(f"{self.name}: the connection failed: {self._failed}")
            if done():
                return
            self._changed.clear()
            wait = 0.5
            if deadline is not None:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise RemoteBotError(f"{self.name}: timed out waiting", "timeout")
                wait = min(wait, remaining)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), wait)

    def _say(self, text: str) -> None:
        log.info(text)
        if self._progress is not None:
            self._progress(text)


_WIRE_ACTIONS: dict[ActionKind, client.ActionName] = {
    ActionKind.BET: "bet",
    ActionKind.FOLD: "fold",
    ActionKind.CHECK: "check",
    ActionKind.CALL: "call",
    ActionKind.ASK_OPENERS: "ask_openers",
    ActionKind.DECLINE: "decline",
}


def _safest(legal: LegalActions) -> Action:
    """Stand pat at the draw, decline to ask for the openers (R48), else check or fold."""
    if legal.ask_openers:
        return Action.decline(legal.seat)
    return Action.stand_pat(legal.seat) if legal.draw else check_or_fold(legal)


def _error_text(response: httpx.Response) -> str:
    try:
        return str(response.json().get("error", response.text))
    except ValueError:
        return response.text[:200]


def _json_or_error(response: httpx.Response, what: str) -> dict[str, Any]:
    if response.status_code >= 400:
        raise RemoteBotError(f"{what}: {response.status_code} {_error_text(response)}")
    try:
        data = response.json()
    except ValueError:
        raise RemoteBotError(f"{what}: the answer is not JSON: {response.text[:200]!r}") from None
    if not isinstance(data, dict):
        raise RemoteBotError(f"{what}: unexpected answer {data!r}")
    return data
