"""What every table actor does, whatever the table: the command queue, the
versioned event log and its watchers, turns with their clocks and time bank,
bots, pre-actions, and the players' actions checked by the engine.

A subclass says what the table is: the hand in play (``hand``), who sits where
(``seats``), how an action and a time-out are applied (``_apply``,
``_timeout``), what follows an event (``_settle``: record a finished hand, …),
when the next hand starts (``_schedule_next_hand``) and what a snapshot shows.
``actor.TableActor`` is a cash table; ``tournament_table.TournamentTableActor``
one table of a running tournament.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from sqlalchemy import Insert

from drawpoker.actions import Action
from drawpoker.cards import format_cards, parse_cards
from drawpoker.deck import commitment
from drawpoker.errors import DrawPokerError, IllegalAction, InvalidAction, InvalidCards
from drawpoker.events import (
    EVERYONE,
    SERVER,
    BetPlaced,
    BettingRoundEnded,
    Event,
    HandStarted,
    Raised,
    Street,
)
from drawpoker.hand import Hand
from drawpoker.rules import Rules
from drawpoker.server import protocol
from drawpoker.server.auth import Account
from drawpoker.server.housebot import HouseBot, Policy
from drawpoker.server.store import hands

log = logging.getLogger("drawpoker.server.actor")
LOG_SIZE = 4000


class TableError(DrawPokerError, ValueError):
    """A request the table refuses; ``code`` is machine-readable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Conn(Protocol):
    """What the actor needs from a connection."""

    account: Account | None

    def send(self, text: str) -> None: ...


@dataclass(slots=True)
class PreAct:
    kind: str  # check_fold, check, call_any, draw
    cards: tuple[int, ...]
    hand_id: str
    street: Street
    mark: int  # the table's wager mark when it was set


@dataclass(slots=True)
class SeatState:
    """What the server keeps about a seated player besides the room's seat."""

    seat: int
    account: Account
    bot: Policy | None = None
    connections: int = 0
    time_bank: float = 0.0
    pre: PreAct | None = None  # a betting pre-action (check/fold, check, call any)
    pre_draw: PreAct | None = None  # a draw held for the player's draw turn (R25)
    action_ids: deque[str] = field(default_factory=lambda: deque(maxlen=256))
    away_since: float | None = None  # disconnected since (monotonic)
    out_since: float | None = None  # sitting out since (monotonic)


Command = tuple[Callable[..., Awaitable[Any]], tuple[Any, ...], "asyncio.Future[Any] | None"]


def make_policy(kind: str, seat: int, rules: Rules) -> Policy:
    """A bot by name: ``house`` (the server's own) or one of ``drawpoker.bots``."""
    if kind == "house":
        return HouseBot()
    from drawpoker.bots import make_bot

    bot = make_bot(kind, seed=secrets.token_bytes(16))
    bot.sit(seat, rules)
    return bot


class BaseTableActor:
    """One table's actor: it alone touches the table, through its command queue."""

    id: str
    action_time_s: float
    between_hands_s: float
    bot_think_s: tuple[float, float]

    def __init__(self, table_id: str, *, on_change: Callable[[], None] | None = None) -> None:
        self.id = table_id
        self.on_change = on_change or (lambda: None)
        self.queue: asyncio.Queue[Command] = asyncio.Queue()
        self.hand_accounts: dict[int, int] = {}  # seat -> account id, this hand
        self.v = 0
        self.epoch = secrets.token_hex(4)
        self.log: deque[tuple[int, int | None, str]] = deque(maxlen=LOG_SIZE)
        self.watchers: dict[Conn, int | None] = {}  # connection -> account id (None: anonymous)
        self.turn_token = 0
        self.turn_deadline = 0.0
        self.wager_mark = 0
        self.next_hand_at: asyncio.TimerHandle | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.task: asyncio.Task[None] | None = None
        self.rng = random.Random()
        self.stopped = False
        self.hand_events: list[Event] = []  # the current (or last) hand's, for its record

    # ------------------------------------------------- what a table must say

    @property
    def hand(self) -> Hand | None:
        raise NotImplementedError

    @property
    def seats(self) -> dict[int, SeatState]:
        raise NotImplementedError

    def _apply(self, action: Action) -> list[Event]:
        raise NotImplementedError

    def _timeout(self, seat: int) -> list[Event]:
        raise NotImplementedError

    async def _settle(self, event: Event) -> None:
        """What follows from one published event (a finished hand is recorded, …)."""

    def _schedule_next_hand(self, delay: float) -> None:
        raise NotImplementedError

    def snapshot(self, account_id: int | None) -> dict[str, Any]:
        raise NotImplementedError

    async def _connected(self, s: SeatState) -> None:
        s.connections += 1
        s.away_since = None

    async def _disconnected(self, s: SeatState) -> None:
        """The player's last connection to the table closed."""

    def _plays_for_absent(self, s: SeatState) -> bool:
        """Does the server act at once for this (absent) player?"""
        return False

    # ------------------------------------------------------------ plumbing

    def start_loop(self) -> None:
        self.task = asyncio.create_task(self._loop(), name=f"table-{self.id}")

    async def stop(self) -> None:
        self.stopped = True
        if self.task:
            self.task.cancel()
        for handle in (self.timer, self.next_hand_at):
            if handle:
                handle.cancel()

    async def _loop(self) -> None:
        while True:
            fn, args, fut = await self.queue.get()
            try:
                result = await fn(*args)
            except (TableError, DrawPokerError, ValueError) as error:
                if fut is not None and not fut.done():
                    fut.set_exception(error)
                elif fut is None:
                    log.warning("table %s: %s", self.id, error)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # keep the table alive; report to the caller
                log.exception("table %s: internal error", self.id)
                if fut is not None and not fut.done():
                    fut.set_exception(error)
            else:
                if fut is not None and not fut.done():
                    fut.set_result(result)

    async def call(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> Any:
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.queue.put_nowait((fn, args, fut))
        return await fut

    def post(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> None:
        self.queue.put_nowait((fn, args, None))

    def _later(
        self, delay: float, fn: Callable[..., Awaitable[Any]], *args: Any
    ) -> asyncio.TimerHandle:
        loop = asyncio.get_running_loop()
        return loop.call_later(max(delay, 0.0), self.post, fn, *args)

    # ---------------------------------------------------------- the log

    def _publish(self, audience: int | None, payload: dict[str, Any]) -> None:
        """Append an entry for everyone (``audience`` None) or one account, and send it."""
        self.v += 1
        text = protocol.frame({"type": "event", "table": self.id, "v": self.v, "event": payload})
        self.log.append((self.v, audience, text))
        for conn, account_id in list(self.watchers.items()):
            if audience is None or audience == account_id:
                conn.send(text)

    def _table_event(self, kind: str, audience: int | None = None, **fields: Any) -> None:
        self._publish(audience, {"type": kind, **fields})

    def _events(self, events: list[Event]) -> None:
        """Publish the table's events (the engine's and the room's), each to whom may see it."""
        for event in events:
            if event.visible_to == SERVER:
                continue
            if event.visible_to == EVERYONE:
                audience = None
            else:
                audience = self.hand_accounts.get(event.visible_to, -1)
            if isinstance(event, BetPlaced | Raised | BettingRoundEnded):
                self.wager_mark += 1
            if isinstance(event, HandStarted):
                self.hand_events = []
            self.hand_events.append(event)
            payload = protocol.event_dict(event)
            player = payload.pop("player", None)
            if player is not None:  # room events name the player by account id
                payload["name"] = self._name_of(int(player))
            self._publish(audience, payload)

    def _name_of(self, account_id: int) -> str:
        for s in self.seats.values():
            if s.account.id == account_id:
                return s.account.name
        return str(account_id)

    def _hand_row(
        self, hand_id: str, players: dict[str, list[int]], seed: bytes, **extra: Any
    ) -> Insert:
        """The ``hands`` row of a hand being dealt: running, its seed secret until the
        end (``players``: seat -> [account id, start stack])."""
        return hands.insert().values(
            id=hand_id,
            table_id=self.id,
            status="running",
            started_at=time.time(),
            players=json.dumps(players),
            commitment=commitment(seed),
            seed=seed.hex(),
            pot=0,
            rake=0,
            **extra,
        )

    def _hand_view(self, me: SeatState | None, account_id: int | None) -> dict[str, Any] | None:
        """The hand in play as this viewer may see it (a snapshot's ``hand``)."""
        hand = self.hand
        if hand is None or hand.is_over:
            return None
        viewer = me.seat if me is not None else EVERYONE
        if viewer != EVERYONE and self.hand_accounts.get(viewer) != account_id:
            viewer = EVERYONE  # seated after the deal: not in this hand
        view = hand.view(viewer)
        view["commitment"] = commitment(hand.seed) if hand.seed else ""
        view["clock_s"] = max(0.0, round(self.turn_deadline - time.monotonic(), 1))
        return view

    async def watch(self, conn: Conn, since: int | None, epoch: str | None) -> dict[str, Any]:
        account_id = conn.account.id if conn.account else None
        first = conn not in self.watchers
        self.watchers[conn] = account_id
        s = self._seat_of(account_id)
        if s is not None and first:
            await self._connected(s)
        oldest = self.log[0][0] if self.log else self.v + 1
        if since is not None and epoch == self.epoch and since <= self.v and since + 1 >= oldest:
            missed = [text for v, aud, text in self.log if v > since and aud in (None, account_id)]
            for text in missed:
                conn.send(text)
            return {"replayed": len(missed), "v": self.v, "epoch": self.epoch}
        state = self.snapshot(account_id)
        conn.send(
            protocol.frame({"type": "snapshot", "table": self.id, "v": self.v, "state": state})
        )
        return {"snapshot": True, "v": self.v, "epoch": self.epoch}

    async def unwatch(self, conn: Conn) -> None:
        account_id = self.watchers.pop(conn, None)
        s = self._seat_of(account_id)
        if s is not None and s.bot is None:
            s.connections = max(0, s.connections - 1)
            if s.connections == 0:
                s.away_since = time.monotonic()
                await self._disconnected(s)

    def _seat_of(self, account_id: int | None) -> SeatState | None:
        if account_id is None:
            return None
        for s in self.seats.values():
            if s.account.id == account_id:
                return s
        return None

    def _need_account(self, conn: Conn) -> Account:
        if conn.account is None:
            raise TableError("not_logged_in", "log in or play as a guest first")
        return conn.account

    def _need_seat(self, conn: Conn) -> SeatState:
        s = self._seat_of(self._need_account(conn).id)
        if s is None:
            raise TableError("not_seated", "you have no seat at this table")
        return s

    def _in_hand(self, s: SeatState) -> bool:
        hand = self.hand
        return (
            hand is not None and not hand.is_over and self.hand_accounts.get(s.seat) == s.account.id
        )

    async def chat(self, conn: Conn, text: str) -> dict[str, Any]:
        account = self._need_account(conn)
        self._table_event("Chat", name=account.name, text=text)
        return {}

    # ------------------------------------------------------------ hands

    async def _publish_and_settle(self, events: list[Event]) -> None:
        """Publish the events, then what follows from them: record a finished hand
        (ledger and history), cash out who left, rebuy busted bots, and start the
        next turn or the next hand."""
        await self._publish_and_settle_once(events)
        await self._next_turn()

    async def _next_turn(self) -> None:
        """Carry out pre-actions, then start the clock for the player to act (or
        schedule the next hand)."""
        while True:
            hand = self.hand
            if hand is None or hand.is_over:
                if self.timer:
                    self.timer.cancel()
                self._schedule_next_hand(self.between_hands_s)
                return
            legal = hand.legal_actions()
            assert legal is not None
            s = self.seats[legal.seat]
            pre = self._pre_action_for(s, hand)
            if pre is None:
                break
            await self._publish_and_settle_once(self._apply(pre))
        self.turn_token += 1
        clock = float(hand.rules.draw_time_s) if legal.draw else self.action_time_s
        self.turn_deadline = time.monotonic() + clock
        if self.timer:
            self.timer.cancel()
        self.timer = self._later(clock, self._clock_ran_out, self.turn_token)
        self._table_event(
            "Turn", seat=legal.seat, street=str(legal.street), clock_s=clock, hand_id=hand.hand_id
        )
        self._table_event(
            "Legal", audience=s.account.id, hand_id=hand.hand_id, legal=legal.to_dict()
        )
        if s.bot is not None:
            lo, hi = self.bot_think_s
            self._later(self.rng.uniform(lo, hi), self._bot_turn, self.turn_token)
        elif self._plays_for_absent(s):
            self._later(0.0, self._absent_turn, self.turn_token)

    async def _publish_and_settle_once(self, events: list[Event]) -> None:
        """As ``_publish_and_settle`` without starting the next turn (the caller loops)."""
        self._events(events)
        for event in events:
            await self._settle(event)

    def _pre_action_for(self, s: SeatState, hand: Hand) -> Action | None:
        legal = hand.legal_actions()
        assert legal is not None
        pre = s.pre_draw if legal.draw else s.pre
        if pre is None:
            return None  # a held draw waits for the draw, betting pre-actions for betting
        chosen: Action | None = None
        if legal.draw:
            s.pre_draw = None
            if all(c in legal.hand for c in pre.cards):
                chosen = Action.draw(s.seat, pre.cards)
        else:
            s.pre = None
            same = pre.mark == self.wager_mark and pre.street == legal.street
            if pre.kind == "call_any" and pre.street == legal.street:
                chosen = Action.call(s.seat) if legal.call else Action.check(s.seat)
            elif same and pre.kind == "check" and legal.check:
                chosen = Action.check(s.seat)
            elif same and pre.kind == "check_fold":
                chosen = Action.check(s.seat) if legal.check else Action.fold(s.seat)
        if chosen is None:
            self._table_event(
                "PreActionCancelled", audience=s.account.id, pre=pre.kind, hand_id=hand.hand_id
            )
        return chosen

    async def _clock_ran_out(self, token: int) -> None:
        hand = self.hand
        if token != self.turn_token or hand is None or hand.is_over:
            return
        seat = hand.to_act
        assert seat is not None
        s = self.seats[seat]
        if hand.street is not Street.DRAW and s.time_bank >= 1.0:
            spend = s.time_bank
            s.time_bank = 0.0
            self.turn_token += 1
            self.turn_deadline = time.monotonic() + spend
            self.timer = self._later(spend, self._clock_ran_out, self.turn_token)
            self._table_event("TimeBank", seat=seat, seconds=round(spend, 1), hand_id=hand.hand_id)
            return
        if hand.street is Street.DRAW:
            s.pre_draw = None
        else:
            s.pre = None
        await self._publish_and_settle(self._timeout(seat))

    async def _absent_turn(self, token: int) -> None:
        """The server acts for an absent player at once (check, else fold; stand pat),
        unless they came back meanwhile: then they act, on the clock already running."""
        hand = self.hand
        if token != self.turn_token or hand is None or hand.is_over or hand.to_act is None:
            return
        s = self.seats.get(hand.to_act)
        if s is None or not self._plays_for_absent(s):
            return
        await self._publish_and_settle(self._timeout(hand.to_act))

    async def _bot_turn(self, token: int) -> None:
        hand = self.hand
        if token != self.turn_token or hand is None or hand.is_over:
            return
        legal = hand.legal_actions()
        assert legal is not None
        s = self.seats[legal.seat]
        if s.bot is None:
            return
        try:
            action = s.bot.decide(hand.view(legal.seat), legal, hand.events_for(legal.seat))
            hand.validate(action)
        except (DrawPokerError, ValueError, KeyError, IndexError):
            log.exception("table %s: bot at seat %s failed; it checks or folds", self.id, s.seat)
            action = Action.timeout(legal.seat)
        await self._publish_and_settle(self._apply(action))

    def _check_action(self, s: SeatState, hand_id: str, action_id: str) -> Hand:
        if action_id in s.action_ids:
            raise TableError("duplicate_action", f"action id {action_id!r} was already used")
        hand = self.hand
        if hand is None or hand.is_over or hand.hand_id != hand_id:
            current = hand.hand_id if hand is not None and not hand.is_over else "none"
            raise TableError(
                "stale_hand", f"hand {hand_id!r} is not in play (current hand: {current})"
            )
        if not self._in_hand(s):
            raise TableError("not_in_hand", "you are not dealt into this hand")
        return hand

    async def act(self, conn: Conn, msg: protocol.Act) -> dict[str, Any]:
        s = self._need_seat(conn)
        hand = self._check_action(s, msg.hand_id, msg.action_id)
        kind = msg.action
        if kind in ("bet", "raise"):
            if msg.amount is None:
                raise TableError("bad_amount", f"{kind} needs an amount: the total to {kind} to")
            action = Action.bet(s.seat, msg.amount)
        else:
            if msg.amount is not None:
                raise TableError("bad_amount", f"{kind} takes no amount")
            action = {"fold": Action.fold, "check": Action.check, "call": Action.call}[kind](s.seat)
        return await self._perform(s, hand, action, msg.action_id)

    async def draw(self, conn: Conn, msg: protocol.Draw) -> dict[str, Any]:
        s = self._need_seat(conn)
        hand = self._check_action(s, msg.hand_id, msg.action_id)
        action = Action.draw(s.seat, parse_discard(msg.discard))
        return await self._perform(s, hand, action, msg.action_id)

    async def _perform(
        self, s: SeatState, hand: Hand, action: Action, action_id: str
    ) -> dict[str, Any]:
        try:
            hand.validate(action)
        except IllegalAction as error:
            raise TableError("illegal_action", str(error)) from None
        s.action_ids.append(action_id)
        if action.kind == "draw":
            s.pre_draw = None
        else:
            s.pre = None  # a held draw stays for the draw
        await self._publish_and_settle(self._apply(action))
        return {"action_id": action_id}

    async def pre_action(self, conn: Conn, msg: protocol.PreAction) -> dict[str, Any]:
        s = self._need_seat(conn)
        hand = self.hand
        if hand is None or hand.is_over or hand.hand_id != msg.hand_id:
            raise TableError("stale_hand", f"hand {msg.hand_id!r} is not in play")
        if not self._in_hand(s):
            raise TableError("not_in_hand", "you are not dealt into this hand")
        if msg.pre == "clear":
            s.pre = s.pre_draw = None
            return {"pre": None}
        cards: tuple[int, ...] = ()
        player = hand.player(s.seat)
        if player.folded:
            raise TableError("not_in_hand", "you have folded")
        if msg.pre == "draw":
            if hand.street not in (Street.PRE_DRAW, Street.DRAW) or player.drew is not None:
                raise TableError("illegal_action", "the draw is over for you")
            cards = parse_discard(msg.discard)
            if len(cards) > hand.rules.max_discard:
                raise TableError(
                    "illegal_action", f"you may discard at most {hand.rules.max_discard} cards"
                )
            missing = [c for c in cards if c not in player.cards]
            if missing:
                raise TableError("illegal_action", f"you do not hold {format_cards(missing)}")
        elif hand.street not in (Street.PRE_DRAW, Street.POST_DRAW):
            raise TableError("illegal_action", "betting pre-actions are for the betting rounds")
        elif msg.discard:
            raise TableError("bad_field", f"{msg.pre} takes no cards")
        pre = PreAct(msg.pre, cards, hand.hand_id, hand.street, self.wager_mark)
        if msg.pre == "draw":
            s.pre_draw = pre
        else:
            s.pre = pre
        if hand.to_act == s.seat:
            await self._next_turn()
        return {"pre": msg.pre}

    # ------------------------------------------------------------ lobby


def seat_no(s: SeatState) -> int:
    return s.seat


def parse_discard(texts: list[str]) -> tuple[int, ...]:
    try:
        return tuple(parse_cards(texts))
    except (InvalidCards, InvalidAction) as error:
        raise TableError("bad_cards", str(error)) from None


def pre_dict(s: SeatState | None) -> dict[str, Any] | None:
    """The pre-action a snapshot shows: the held draw first, else the betting one."""
    pre = None if s is None else s.pre_draw or s.pre
    if pre is None:
        return None
    return {"pre": pre.kind, "discard": format_cards(pre.cards).split()}
