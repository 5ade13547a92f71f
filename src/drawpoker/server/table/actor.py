"""One table, cash or tournament: the actor that alone owns its state.

The actor is built from small parts:

- a ``Mailbox``: every command (a player's message, a timer, a bot's turn, a
  message from the tournament) is handled in order, one at a time;
- a ``TableLog``: the versioned log of what the table said, each entry for
  everyone or one account, with replay or a snapshot for a returning watcher,
  handed to the bus for every gateway with a viewer;
- a room-layer ``TableSession``: the hand in play, whose turn it is and until
  when, the time banks and pre-actions, driven by the time values given here;
- ``Turns``: the timers and bots that the session's turns call for;
- a desk, the part that differs: ``CashDesk`` (buy-ins, top-ups, cash-outs and
  each hand's chips in the ledger) or ``TournamentDesk`` (seats and hands ordered
  by the tournament's actor, results sent back to it).

Everything from outside comes as a message with the account it is for (never a
connection: the connections are the gateways'). Presence has one source: the
log's count of watchers. A seated player with no connection watching the table
anywhere is away; the desk decides what that means.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import random
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Protocol

import msgspec

from drawpoker.actions import Action
from drawpoker.cards import format_cards, parse_cards
from drawpoker.deck import commitment
from drawpoker.errors import DrawPokerError, IllegalAction, InvalidAction, InvalidCards
from drawpoker.evaluator import evaluate
from drawpoker.events import EVERYONE, SERVER, CardsReceived, Event, HandEnded, HandStarted
from drawpoker.hand import Hand
from drawpoker.legal import LegalActions
from drawpoker.protocol import client
from drawpoker.protocol.events import event_to_wire
from drawpoker.protocol.server import (
    ChatLine,
    HandView,
    Hint,
    LastHand,
    PreActionInfo,
    SeatInfo,
    TableState,
)
from drawpoker.room.session import (
    PreActionCancelled,
    SessionEntry,
    Step,
    TableSession,
    TimeBankStarted,
    TurnStarted,
)
from drawpoker.server import metrics
from drawpoker.server.auth import Account
from drawpoker.server.bus import Bus
from drawpoker.server.errors import TableError
from drawpoker.server.housebot import Policy
from drawpoker.server.log import TableLog
from drawpoker.server.mailbox import Mailbox
from drawpoker.tools.advisor import Advice, advise

log = logging.getLogger("drawpoker.server.table")
CHAT_PLAYER = (0.2, 5.0)  # a player's chat: 5 lines at once, then one every 5 s
CHAT_TABLE = (1.0, 20.0)  # a table's chat: 20 lines at once, then one a second
CHAT_KEPT = 100  # chat lines remembered
CHAT_SHOWN = 20  # ... and shown in a snapshot


@dataclass(slots=True)
class Player:
    """A seated player as the server knows them (the room layer has their chips)."""

    seat: int
    account: Account
    bot: Policy | None = None
    action_ids: deque[str] = field(default_factory=lambda: deque(maxlen=256))
    away_since: float | None = None  # no connection watching since (monotonic)


class Desk(Protocol):
    """What differs between a cash table and a tournament table (the desk holds its
    actor: it is part of it, not another actor)."""

    def name(self) -> str: ...

    def facts(self, account_id: int | None) -> dict[str, Any]:
        """The snapshot's fields that only the desk knows (``name``, ``rules``,
        ``max_seats``, ``min_buy_in``, ``max_buy_in``, ``button``, ``carried_pot``,
        ``tournament``, the waiting list...), for the viewer ``account_id``."""
        ...

    def seat_info(self, player: Player) -> SeatInfo: ...

    async def settle(self, events: list[Event]) -> None:
        """What follows from published events (records, cash-outs, results)."""
        ...

    async def away(self, player: Player) -> None:
        """``player``'s last connection to the table closed."""
        ...

    async def back(self, player: Player) -> None:
        """``player`` is watching the table again."""
        ...

    def hand_over(self) -> None:
        """No hand is in play now: deal the next one when the desk may."""
        ...

    def ops(self) -> dict[str, Any]:
        """The desk's own messages, by name (a cash table's seat commands, a
        tournament table's orders from its tournament)."""
        ...


class TableActor:
    """See the module docstring."""

    def __init__(
        self,
        table_id: str,
        session: TableSession,
        *,
        bus: Bus,
        bot_think_s: tuple[float, float] = (0.5, 1.5),
        hands_label: str | None = None,
    ) -> None:
        self.id = table_id
        self.session = session
        self.bus = bus
        self.mailbox = Mailbox(f"table-{table_id}")
        unit = f"t:{table_id}"

        def outlet(
            topic: str, v: int | None, audience: int | None, text: str, epoch: str | None
        ) -> None:
            bus.publish(unit, topic, v, audience, text, epoch)

        self.log = TableLog(table_id, outlet)
        self.players: dict[int, Player] = {}
        self.hand_accounts: dict[int, int] = {}  # seat -> account id, the hand in play
        self.hand_events: list[Event] = []  # the hand in play (or the last one), for its record
        self._stored: list[list[Any]] = []  # hand_events as stored: [visible_to, wire event]
        self.story: list[tuple[int | None, dict[str, Any]]] = []  # the hand in play, as sent
        self.last_story: tuple[str, list[tuple[int | None, dict[str, Any]]]] | None = None
        self.chat_lines: deque[tuple[str, str]] = deque(maxlen=CHAT_KEPT)
        self.chat_limits: dict[int | None, TokenBucket] = {}  # account (None: the table)
        self.practice = False  # hints for the player to act (a room file option)
        self.hints: dict[tuple[str, int], Hint] = {}  # (hand id, seat) -> the draw's advice
        self._advising: set[asyncio.Task[Advice]] = set()
        self.bot_think_s = bot_think_s
        self.rng = random.Random()
        self._timer: asyncio.TimerHandle | None = None  # the deadline of the turn in play
        self.desk: Desk  # set by the desk that builds the actor
        # its hands in the figures (``metrics.HANDS``), by table or tournament series
        self.hands_dealt = metrics.HANDS.labels(hands_label or table_id)

    # ------------------------------------------------------------ plumbing

    @property
    def hand(self) -> Hand | None:
        return self.session.hand

    async def call(self, fn: Any, *args: Any) -> Any:
        return await self.mailbox.call(fn, *args)

    def post(self, fn: Any, *args: Any) -> None:
        self.mailbox.post(fn, *args)

    def player_of(self, account_id: int | None) -> Player | None:
        if account_id is None:
            return None
        return next((p for p in self.players.values() if p.account.id == account_id), None)

    def name_of(self, key: str) -> str:
        """A room event's player (an account id as text) as their name."""
        player = self.player_of(int(key)) if key.isdigit() else None
        return player.account.name if player is not None else key

    # ------------------------------------------------------------ publishing

    async def run(self, step: Step) -> None:
        """Publish what happened, in order, then what follows from it (the desk
        records a finished hand, cashes out who left, ...)."""
        events = self.publish(step)
        if events:
            await self.desk.settle(events)
        hand = self.hand
        if hand is None or hand.is_over:
            self.mailbox.cancel(self._timer)
            self._timer = None
            self.desk.hand_over()

    def publish(self, step: Step) -> list[Event]:
        """Send each entry to whom may see it; schedule what the turns call for.
        Returns the numbered events among them."""
        events: list[Event] = []
        for entry in step:
            if isinstance(entry, Event):
                events.append(entry)
                self._publish_event(entry)
            else:
                self._publish_entry(entry)
        return events

    def _publish_event(self, event: Event) -> None:
        if event.visible_to == SERVER:
            return
        if isinstance(event, HandStarted):
            self.hand_events = []
            self._stored = []
            self.story = []
            self.hints = {}
            if self.practice:
                self._advise_later(event.hand_id)
        in_hand = bool(self.story) or isinstance(event, HandStarted)
        self.hand_events.append(event)
        audience = None
        if event.visible_to != EVERYONE:
            audience = self.hand_accounts.get(event.visible_to, -1)
        payload = event_to_wire(event)
        self._stored.append([event.visible_to, payload])
        if "player" in payload:  # room events name the player by account (stored as it was)
            payload = dict(payload)
            player = payload.pop("player")
            if player is not None:
                payload["name"] = self.name_of(str(player))
        self.log.publish(audience, payload)
        if isinstance(event, CardsReceived) and audience is not None:
            self._my_hand(event.seat, audience)
        if in_hand:
            self.story.append((audience, payload))
            if isinstance(event, HandEnded):
                self.hands_dealt.inc()
                self.last_story = (self.story[0][1]["hand_id"], self.story)
                self.story = []

    def _publish_entry(self, entry: SessionEntry) -> None:
        now = time.monotonic()
        if isinstance(entry, TurnStarted):
            self.log.publish(
                None,
                {
                    "type": "Turn",
                    "seat": entry.seat,
                    "street": str(entry.street),
                    "clock_s": round(entry.clock_s, 1),
                    "hand_id": entry.hand_id,
                    "time_bank": round(self.session.clock.banks.get(entry.seat, 0.0), 1),
                },
            )
            self._publish_legal(entry.hand_id, entry.legal)
            self._wake_at_deadline(now)
            player = self.players.get(entry.seat)
            if player is not None and player.bot is not None:
                turn = self.session.clock.turn
                assert turn is not None
                lo, hi = self.bot_think_s
                self.mailbox.later(self.rng.uniform(lo, hi), self._bot_turn, turn.number)
        elif isinstance(entry, TimeBankStarted):
            self.log.publish(
                None,
                {
                    "type": "TimeBank",
                    "seat": entry.seat,
                    "seconds": entry.seconds,
                    "hand_id": entry.hand_id,
                },
            )
            self._wake_at_deadline(now)
        elif isinstance(entry, PreActionCancelled):
            self.log.publish(
                self.hand_accounts.get(entry.seat, -1),
                {"type": "PreActionCancelled", "pre": entry.kind, "hand_id": entry.hand_id},
            )

    def _my_hand(self, seat: int, account_id: int) -> None:
        """Private: the seat's five cards described, once it holds five again."""
        hand = self.hand
        description = _described(hand, seat)
        if hand is not None and description is not None:
            payload = {"type": "MyHand", "hand_id": hand.hand_id, "description": description}
            self.log.publish(account_id, payload)

    # ------------------------------------------------------------ turns

    def _wake_at_deadline(self, now: float) -> None:
        """One timer at a time: the deadline of the turn in play."""
        self.mailbox.cancel(self._timer)
        turn = self.session.clock.turn
        self._timer = None
        if turn is not None:
            self._timer = self.mailbox.later(turn.deadline - now, self._expire, turn.number)

    async def _expire(self, number: int) -> None:
        turn = self.session.clock.turn
        if turn is None or turn.number != number:
            return  # the turn was taken meanwhile
        now = time.monotonic()
        if now < turn.deadline:  # a timer a little early: wait for the deadline
            self._timer = self.mailbox.later(turn.deadline - now, self._expire, number)
            return
        await self.run(self.session.expire(now))

    async def _bot_turn(self, number: int) -> None:
        turn = self.session.clock.turn
        hand = self.hand
        if turn is None or turn.number != number or hand is None:
            return
        player = self.players.get(turn.seat)
        legal = hand.legal_actions()
        if player is None or player.bot is None or legal is None:
            return
        try:
            action = player.bot.decide(hand.view(legal.seat), legal, hand.events_for(legal.seat))
            hand.validate(action)
        except (DrawPokerError, ValueError, KeyError, IndexError):
            log.exception(
                "table %s: the bot at seat %s failed; it checks or folds", self.id, turn.seat
            )
            action = Action.timeout(legal.seat)
        await self.run(self.session.act(action, time.monotonic()))

    # ------------------------------------------------------------ watching

    async def watch(
        self,
        gateway: str,
        conn: int,
        account: Account | None,
        since: int | None,
        epoch: str | None,
    ) -> dict[str, Any]:
        """Connection ``conn`` of ``gateway`` watches (a first time, or again to
        resync): the entries it missed (or a snapshot) as ``texts``, and the
        reply's ``detail``."""
        account_id = account.id if account else None
        texts, detail = self.log.since(account_id, since, epoch, self.snapshot)
        player = self.player_of(account_id)
        if self.log.attach(gateway, conn, account_id) and player is not None:
            player.away_since = None  # their first connection here: back
            await self.desk.back(player)
        return {"texts": texts, "detail": detail}

    async def unwatch(self, gateway: str, conn: int) -> dict[str, Any]:
        await self._away(self.log.detach(gateway, conn))
        return {}

    async def drop_gateway(self, gateway: str) -> dict[str, Any]:
        """A gateway is gone with its connections (its process died)."""
        for account_id in self.log.drop_gateway(gateway):
            await self._away(account_id)
        return {}

    async def _away(self, account_id: int | None) -> None:
        player = self.player_of(account_id)
        if player is not None and player.bot is None:
            player.away_since = time.monotonic()
            await self.desk.away(player)

    def is_away(self, player: Player) -> bool:
        return player.bot is None and not self.log.is_present(player.account.id)

    # ------------------------------------------------------------ playing

    def need_account(self, account: Account | None) -> Account:
        if account is None:
            raise TableError("not_logged_in", "log in or play as a guest first")
        return account

    def need_player(self, account: Account | None) -> Player:
        player = self.player_of(self.need_account(account).id)
        if player is None:
            raise TableError("not_seated", "you have no seat at this table")
        return player

    def in_hand(self, player: Player) -> bool:
        hand = self.hand
        return (
            hand is not None
            and not hand.is_over
            and self.hand_accounts.get(player.seat) == player.account.id
        )

    def _hand_for(self, player: Player, hand_id: str) -> Hand:
        hand = self.hand
        if hand is None or hand.is_over or hand.hand_id != hand_id:
            current = hand.hand_id if hand is not None and not hand.is_over else "none"
            raise TableError(
                "stale_hand", f"hand {hand_id!r} is not in play (current hand: {current})"
            )
        if not self.in_hand(player):
            raise TableError("not_in_hand", "you are not dealt into this hand")
        return hand

    async def act(self, account: Account | None, msg: client.Act) -> dict[str, Any]:
        player = self.need_player(account)
        kind = msg.action
        if kind in ("bet", "raise"):
            if msg.amount is None:
                raise TableError("bad_amount", f"{kind} needs an amount: the total to {kind} to")
            action = Action.bet(player.seat, msg.amount)
        else:
            if msg.amount is not None:
                raise TableError("bad_amount", f"{kind} takes no amount")
            action = _DECISIONS[kind](player.seat)
        return await self._perform(player, msg.hand_id, msg.action_id, action)

    async def draw(self, account: Account | None, msg: client.Draw) -> dict[str, Any]:
        player = self.need_player(account)
        action = Action.draw(player.seat, parse_discard(msg.discard))
        return await self._perform(player, msg.hand_id, msg.action_id, action)

    async def _perform(
        self, player: Player, hand_id: str, action_id: str, action: Action
    ) -> dict[str, Any]:
        if action_id in player.action_ids:
            raise TableError("duplicate_action", f"action id {action_id!r} was already used")
        self._hand_for(player, hand_id)
        try:
            step = self.session.act(action, time.monotonic())
        except IllegalAction as error:
            raise TableError("illegal_action", str(error)) from None
        player.action_ids.append(action_id)
        await self.run(step)
        return {"action_id": action_id}

    async def pre_action(self, account: Account | None, msg: client.PreAction) -> dict[str, Any]:
        player = self.need_player(account)
        self._hand_for(player, msg.hand_id)
        if msg.pre == "clear":
            self.session.clear_pre_actions(player.seat)
            return {"pre": None}
        if msg.pre != "draw" and msg.discard:
            raise TableError("bad_field", f"{msg.pre} takes no cards")
        cards = parse_discard(msg.discard)
        try:
            step = self.session.pre_action(player.seat, msg.pre, time.monotonic(), cards)
        except IllegalAction as error:
            raise TableError("illegal_action", str(error)) from None
        await self.run(step)
        return {"pre": msg.pre}

    async def chat(self, account: Account | None, msg: client.Chat) -> dict[str, Any]:
        """A chat line to everyone watching (a few a minute per player and per table;
        kept apart from the table's log, so chat never pushes hands out of replays)."""
        account = self.need_account(account)
        now = time.monotonic()
        mine = self.chat_limits.setdefault(account.id, TokenBucket(*CHAT_PLAYER))
        table = self.chat_limits.setdefault(None, TokenBucket(*CHAT_TABLE))
        if not mine.ready(now):
            raise TableError("chat_limited", "you are chatting too fast; wait a few seconds")
        if not table.ready(now):
            raise TableError("chat_limited", "the table is chatting too fast; wait a few seconds")
        mine.take(now)
        table.take(now)
        self.chat_lines.append((account.name, msg.text))
        payload = {"type": "Chat", "name": account.name, "text": msg.text}
        self.log.publish(None, payload, side=True)
        return {}

    async def unsay(self, name: str, text: str) -> int:
        """A moderator deletes what ``name`` said (every time they said it): gone
        from the lines the table keeps, its replays and every watcher's chat.
        Returns how many lines went."""
        kept = [line for line in self.chat_lines if line != (name, text)]
        gone = len(self.chat_lines) - len(kept)
        if gone:
            self.chat_lines = deque(kept, maxlen=CHAT_KEPT)
            self.log.unsay(name, text)
            self.log.publish(None, {"type": "ChatDeleted", "name": name, "text": text}, side=True)
        return gone

    async def said(self, name: str, text: str) -> bool:
        """Whether ``name`` said ``text`` among the chat lines the table keeps (a
        report of a chat line must be about one that was said)."""
        return (name, text) in self.chat_lines

    # ------------------------------------------------------------ practice hints

    def _advise_later(self, hand_id: str) -> None:
        """Work out each person's best draw in a thread as the hand starts (about
        35 ms a hand): it is ready by their draw, and no table waits for it."""
        hand = self.hand
        if hand is None:
            return
        for seat in self.hand_accounts:
            player = self.players.get(seat)
            if player is None or player.bot is not None:
                continue
            cards, most = hand.cards(seat), hand.rules.max_discard
            task = asyncio.create_task(asyncio.to_thread(advise, cards, max_discard=most))
            self._advising.add(task)  # the loop keeps only a weak reference to a task
            task.add_done_callback(functools.partial(self._hint_done, (hand_id, seat)))

    def _hint_done(self, key: tuple[str, int], done: asyncio.Task[Advice]) -> None:
        self._advising.discard(done)
        self.post(self._keep_hint, key, done)

    async def _keep_hint(self, key: tuple[str, int], done: asyncio.Task[Advice]) -> None:
        if done.cancelled() or done.exception() is not None:
            return
        hand = self.hand
        if hand is None or hand.hand_id != key[0]:
            return
        best = done.result().best
        self.hints[key] = Hint(
            discard=format_cards(best.discard).split() if best.discard else [],
            label=best.label(),
            improve=round(float(best.improves()), 4),
        )
        legal = hand.legal_actions()
        if legal is not None and legal.draw and legal.seat == key[1]:
            self._publish_legal(key[0], legal)  # its draw came first: again, with the hint

    def _publish_legal(self, hand_id: str, legal: LegalActions) -> None:
        """The private ``Legal`` of the player to act (with a hint on practice tables;
        repeated with it when the draw's hint is ready after the turn began)."""
        private: dict[str, Any] = {
            "type": "Legal",
            "hand_id": hand_id,
            "legal": legal.to_dict(),
            "my_hand": _described(self.hand, legal.seat),
        }
        if self.practice:
            private["hint"] = self._hint(hand_id, legal)
        self.log.publish(self.hand_accounts.get(legal.seat, -1), private)

    def _hint(self, hand_id: str, legal: LegalActions) -> dict[str, Any]:
        hint = self.hints.get((hand_id, legal.seat)) if legal.draw else None
        description = _described(self.hand, legal.seat)
        data: dict[str, Any] = msgspec.to_builtins(
            msgspec.structs.replace(hint or Hint(), description=description)
        )
        return data

    # ------------------------------------------------------------ hand records

    def hand_row(self, hand_id: str, players: dict[str, list[int]], seed: bytes) -> dict[str, Any]:
        """The ``hands`` row of a hand being dealt: running, its seed secret until the
        end (``players``: seat -> [account id, start stack])."""
        return {
            "id": hand_id,
            "table_id": self.id,
            "status": "running",
            "started_at": time.time(),
            "players": json.dumps(players),
            "commitment": commitment(seed),
            "seed": seed.hex(),
            "pot": 0,
            "rake": 0,
        }

    def history(self) -> str:
        """The hand's events as stored: ``[visible_to, event]`` pairs."""
        return msgspec.json.encode(self._stored).decode()

    def started(self, events: list[Event]) -> HandStarted:
        """Note who plays the hand just dealt (its ``HandStarted`` is in ``events``)."""
        started = next(e for e in events if isinstance(e, HandStarted))
        self.hand_accounts = {seat: self.players[seat].account.id for seat, _ in started.stacks}
        return started

    @staticmethod
    def ended(events: list[Event]) -> HandEnded | None:
        return next((e for e in events if isinstance(e, HandEnded)), None)

    # ------------------------------------------------------------ views

    def snapshot(self, account_id: int | None) -> TableState:
        """The table now, as ``account_id`` (None: a spectator) may see it."""
        player = self.player_of(account_id)
        pre = None if player is None else self.session.pre_action_of(player.seat)
        return TableState(
            table=self.id,
            epoch=self.log.epoch,
            you=None if player is None else player.seat,
            pre_action=None
            if pre is None
            else PreActionInfo(
                pre=pre.kind, discard=format_cards(pre.cards).split(), amount=pre.amount
            ),
            seats=[self.desk.seat_info(p) for _, p in sorted(self.players.items())],
            hand=self._hand_view(player, account_id, time.monotonic()),
            story=_visible(self.story, account_id),
            last_hand=None
            if self.last_story is None
            else LastHand(
                hand_id=self.last_story[0], story=_visible(self.last_story[1], account_id)
            ),
            chat=[ChatLine(name=n, text=t) for n, t in list(self.chat_lines)[-CHAT_SHOWN:]],
            practice=self.practice,
            **self.desk.facts(account_id),
        )

    def ops(self) -> dict[str, Any]:
        """Every message the table takes, by name (``Owner.dispatch``)."""
        return {
            "watch": self.watch,
            "unwatch": self.unwatch,
            "drop_gateway": self.drop_gateway,
            "snapshot": self.snapshot_of,
            "act": self.act,
            "draw": self.draw,
            "pre_action": self.pre_action,
            "chat": self.chat,
            "said": self.said,
            "unsay": self.unsay,
            **self.desk.ops(),
        }

    async def snapshot_of(self, account_id: int | None) -> TableState:
        """``snapshot`` as a command, for whoever asks from outside the actor."""
        return self.snapshot(account_id)

    def time_bank(self, player: Player) -> float:
        return round(self.session.clock.bank(player.seat, time.monotonic()), 1)

    def _hand_view(
        self, player: Player | None, account_id: int | None, now: float
    ) -> HandView | None:
        hand = self.hand
        if hand is None or hand.is_over:
            return None
        viewer = player.seat if player is not None else EVERYONE
        if viewer != EVERYONE and self.hand_accounts.get(viewer) != account_id:
            viewer = EVERYONE  # seated after the deal: not in this hand
        view = hand.view(viewer)
        view["commitment"] = commitment(hand.seed) if hand.seed else ""
        view["clock_s"] = round(self.session.clock.remaining(now), 1)
        turn = self.session.clock.turn
        view["bank_running"] = turn is not None and turn.bank
        if viewer != EVERYONE:
            view["my_hand"] = _described(hand, viewer)
        return msgspec.convert(view, HandView)


_DECISIONS = {
    "fold": Action.fold,
    "check": Action.check,
    "call": Action.call,
    "ask_openers": Action.ask_openers,
    "decline": Action.decline,
}


def _visible(
    story: list[tuple[int | None, dict[str, Any]]], account_id: int | None
) -> list[dict[str, Any]]:
    return [payload for audience, payload in story if audience is None or audience == account_id]


def _described(hand: Hand | None, seat: int) -> str | None:
    """``seat``'s five cards described ("two pair, Kings and Fives"), if it holds five."""
    if hand is None:
        return None
    try:
        cards = hand.cards(seat)
    except (DrawPokerError, KeyError):
        return None
    return evaluate(cards).description if len(cards) == 5 else None


class TokenBucket:
    """``rate`` a second, bursts of ``burst``."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst, self.tokens, self.stamp = rate, burst, burst, 0.0

    def ready(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        return self.tokens >= 1.0

    def take(self, now: float) -> None:
        self.tokens -= 1.0


def parse_discard(texts: list[str]) -> tuple[int, ...]:
    try:
        return tuple(parse_cards(texts))
    except (InvalidCards, InvalidAction) as error:
        raise TableError("bad_cards", str(error)) from None
