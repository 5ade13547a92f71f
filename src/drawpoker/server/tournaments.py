"""Sit & go tournaments run by the server.

Each configured sit & go (``SitAndGoConfig``) has a ``SitAndGoRunner``: it holds
the room's synchronous ``Tournament`` of the current instance, takes
registrations through the ledger, and when the field is full drives the
tournament hand by hand in-process (bots through ``room.simulate.BotPolicy``,
human entrants by the auto-policy below), advancing the blind levels by the
wall clock. At the end it pays the prizes; with ``repeat`` a new instance opens.

Money (ledger accounts, see ``ledger.py``): registering moves ``buy_in + fee``
from ``player:<id>`` to ``pool:<instance>`` (the buy-in) and ``house:fees`` (the
fee) in one transaction; unregistering before the start reverses it; the end
moves the whole prize pool to the winners' balances in one transaction, so the
pool account ends at exactly 0. Tournament chips are not ledger chips: they
live only inside the ``Tournament``.

Human entrants are not (yet) played through the websocket: whenever one is to
act, the server acts for them as for a disconnected player (check if possible,
else fold; stand pat at the draw) -- their stack is blinded off, never removed.

On start-up, an instance left behind by a stopped or crashed server (a pool
account that is not 0) is cancelled: every registration and fee booked to it is
refunded exactly as it was paid.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import random
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, select

from drawpoker.actions import Action, LegalActions
from drawpoker.errors import IllegalAction, InvalidConfig
from drawpoker.events import EVERYONE, SERVER, Event
from drawpoker.hand import Hand
from drawpoker.room.errors import RoomError
from drawpoker.room.simulate import BotPolicy
from drawpoker.room.structure import Level, standard_levels
from drawpoker.room.tournament import Kind, Status, Tournament, TournamentConfig
from drawpoker.rules import Structure
from drawpoker.server import ledger, protocol
from drawpoker.server.actor import Conn, TableError
from drawpoker.server.auth import Account, ensure_bot
from drawpoker.server.store import Store, ledger_balances, ledger_entries, ledger_tx

log = logging.getLogger("drawpoker.server.tournaments")

FEES = "house:fees"
REGISTER = "sng-register"
UNREGISTER = "sng-unregister"
PRIZES = "sng-prizes"
REFUND = "sng-refund"
KEEP_FINISHED = 20  # finished instances kept in memory for the API
NOTICES = 100  # the latest tournament notices shown in the detail


def pool(instance: str) -> str:
    """The prize pool account of one tournament instance."""
    return f"pool:{instance}"


class TournamentRefused(RoomError, ValueError):
    """A registration or unregistration that cannot be done (HTTP 400/404/409)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True, slots=True, kw_only=True)
class SitAndGoConfig:
    id: str
    name: str
    structure: str = "no-limit"
    buy_in: int = 100
    fee: int = 10
    starting_stack: int = 1500
    max_entries: int = 6
    seats_per_table: int = 6
    level_minutes: float = 5.0
    levels: tuple[tuple[int, int, int, float], ...] = ()  # (sb, bb, ante, minutes); () = standard
    bots: int = 0  # bot entrants the server registers (at most max_entries)
    bot_kinds: tuple[str, ...] = ("tag", "calling-station", "random")
    bot_register_s: float = 5.0  # one bot registers every this many seconds
    bot_think_s: float = 0.0  # a pause before each bot action
    between_hands_s: float = 1.0
    action_time_s: float = 15.0  # a connected person's clock; then the auto-policy acts
    repeat: bool = True  # a new instance opens when one finishes

    def __post_init__(self) -> None:
        if not 0 <= self.bots <= self.max_entries:
            raise InvalidConfig(f"sit & go {self.id}: bots must be 0-{self.max_entries}")
        if not self.id or len(self.id) > 24:
            raise InvalidConfig("a sit & go id is 1-24 characters")
        self.tournament_config()  # fail now on a bad structure

    def tournament_config(self) -> TournamentConfig:
        levels = (
            tuple(Level(sb, bb, ante, minutes) for sb, bb, ante, minutes in self.levels)
            if self.levels
            else standard_levels(self.level_minutes)
        )
        return TournamentConfig(
            kind=Kind.SIT_AND_GO,
            structure=Structure(self.structure),
            buy_in=self.buy_in,
            fee=self.fee,
            starting_stack=self.starting_stack,
            levels=levels,
            seats_per_table=self.seats_per_table,
            max_entries=self.max_entries,
        )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SitAndGoConfig:
        args = dict(data)
        if "levels" in args:
            args["levels"] = tuple(tuple(level) for level in args["levels"])
        if "bot_kinds" in args:
            args["bot_kinds"] = tuple(args["bot_kinds"])
        return cls(**args)


def default_tournaments() -> list[SitAndGoConfig]:
    """The default room's sit & go: 6 players, bots register one by one so it runs."""
    return [
        SitAndGoConfig(
            id="sng-6",
            name="Sit & Go 6 No Limit 100+10",
            buy_in=100,
            fee=10,
            starting_stack=1500,
            max_entries=6,
            seats_per_table=6,
            level_minutes=3.0,
            bots=6,
            bot_register_s=20.0,
            bot_think_s=0.5,
            between_hands_s=2.0,
        )
    ]


def auto_action(legal: LegalActions) -> Action:
    """What the server does for an absent player: check, else fold; stand pat."""
    seat = legal.seat
    if legal.draw:
        return Action.stand_pat(seat)
    if legal.check:
        return Action.check(seat)
    if legal.fold:
        return Action.fold(seat)
    return Action.call(seat)


@dataclass(slots=True)
class Instance:
    """One run of a sit & go: its tournament and who the entrants are."""

    id: str
    tournament: Tournament
    accounts: dict[str, Account] = field(default_factory=dict)  # player key -> account
    created_at: float = field(default_factory=time.time)
    finished_at: float | None = None
    paid: dict[int, int] = field(default_factory=dict)  # account id -> prize credited
    cancelled: bool = False  # by a server failure: buy-ins and fees refunded
    notices_sent: int = 0  # the last tournament notice sent to websocket watchers


class SitAndGoRunner:
    """Registration, the running tournament and its payout for one sit & go."""

    def __init__(
        self, config: SitAndGoConfig, store: Store, *, on_change: Callable[[], None] | None = None
    ) -> None:
        self.config = config
        self.store = store
        self.on_change = on_change or (lambda: None)
        self.lock = asyncio.Lock()
        self.current = self._new_instance()
        self.finished: list[Instance] = []
        self._tasks: set[asyncio.Task[None]] = set()
        self._bot_task: asyncio.Task[None] | None = None
        self._stopping = False
        self.watchers: dict[Conn, int | None] = {}  # websocket -> account id
        self.pending: dict[int, tuple[str, int, asyncio.Future[Action]]] = {}

    # ------------------------------------------------------------ lifecycle

    def _new_instance(self) -> Instance:
        instance_id = f"{self.config.id}-{secrets.token_hex(3)}"
        t = Tournament(self.config.tournament_config(), name=instance_id)
        return Instance(instance_id, t)

    def start(self) -> None:
        if self.config.bots:
            self._bot_task = asyncio.create_task(self._bots(), name=f"sng-bots-{self.config.id}")

    async def stop(self) -> None:
        self._stopping = True
        tasks = [*self._tasks, *([self._bot_task] if self._bot_task else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def instance(self, instance_id: str) -> Instance | None:
        if instance_id in (self.config.id, self.current.id):
            return self.current
        return next((i for i in self.finished if i.id == instance_id), None)

    # ---------------------------------------------------------- registration

    async def register(self, account: Account) -> dict[str, Any]:
        async with self.lock:
            inst = self.current
            t = inst.tournament
            key = str(account.id)
            if t.status is not Status.REGISTERING:
                raise TournamentRefused(409, f"{inst.id} has started; registration is closed")
            if key in inst.accounts:
                raise TournamentRefused(409, "you are already registered")
            if len(t.entries) >= t.config.max_entries:
                raise TournamentRefused(409, f"{inst.id} is full")
            cfg = self.config

            def txn(c: Connection) -> int:
                return ledger.post(
                    c,
                    REGISTER,
                    [
                        (ledger.player(account.id), -(cfg.buy_in + cfg.fee)),
                        (pool(inst.id), cfg.buy_in),
                        (FEES, cfg.fee),
                    ],
                    ref=inst.id,
                    memo={"buy_in": cfg.buy_in, "fee": cfg.fee},
                    no_overdraft=(ledger.player(account.id),),
                )

            try:
                await self.store.run(txn)
            except ledger.InsufficientFunds as error:
                raise TournamentRefused(
                    400, f"not enough chips for {cfg.buy_in}+{cfg.fee}: {error}"
                ) from None
            inst.accounts[key] = account
            t.register(key, time.time())  # a sit & go starts itself when full
            if _status(t) is Status.RUNNING:
                task = asyncio.create_task(self._run(inst), name=f"sng-{inst.id}")
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
            self.on_change()
            return {"tournament": inst.id, "registered": len(t.entries), "status": str(t.status)}

    async def unregister(self, account: Account) -> dict[str, Any]:
        async with self.lock:
            inst = self.current
            t = inst.tournament
            key = str(account.id)
            if key not in inst.accounts:
                raise TournamentRefused(409, "you are not registered")
            if t.status is not Status.REGISTERING:
                raise TournamentRefused(409, f"{inst.id} has started; you cannot unregister")
            cfg = self.config

            def txn(c: Connection) -> int:
                return ledger.post(
                    c,
                    UNREGISTER,
                    [
                        (pool(inst.id), -cfg.buy_in),
                        (FEES, -cfg.fee),
                        (ledger.player(account.id), cfg.buy_in + cfg.fee),
                    ],
                    ref=inst.id,
                    no_overdraft=(pool(inst.id),),
                )

            await self.store.run(txn)
            t.unregister(key)
            del inst.accounts[key]
            self.on_change()
            return {
                "tournament": inst.id,
                "registered": len(t.entries),
                "refund": t.config.entry_cost,
            }

    async def _bots(self) -> None:
        """Bots register one at a time (leaving any seats beyond ``bots`` to people)."""
        cfg = self.config
        while not self._stopping:
            await asyncio.sleep(cfg.bot_register_s)
            inst = self.current
            t = inst.tournament
            mine = sum(1 for a in inst.accounts.values() if a.kind == "bot")
            if t.status is not Status.REGISTERING or mine >= cfg.bots:
                continue
            if len(t.entries) >= t.config.max_entries:
                continue
            taken = {a.name for a in inst.accounts.values()}
            n = next(k for k in range(1, cfg.max_entries + 2) if f"bot-{cfg.id}-{k}" not in taken)
            name = f"bot-{cfg.id}-{n}"
            cost = cfg.buy_in + cfg.fee

            def refill(c: Connection, name: str = name, cost: int = cost) -> Account:
                account = ensure_bot(c, name)
                have = ledger.balance(c, ledger.player(account.id))
                if have < cost:
                    ledger.transfer(
                        c, "bot-refill", ledger.BANK, ledger.player(account.id), cost - have
                    )
                return account

            try:
                account = await self.store.run(refill)
                await self.register(account)
            except TournamentRefused as error:
                log.info("bot %s not registered: %s", name, error)
            except Exception:
                log.exception("bot %s could not register", name)

    # ----------------------------------------------------------- the game

    async def _run(self, inst: Instance) -> None:
        try:
            await self._play(inst)
            await self._pay(inst)
        except asyncio.CancelledError:
            raise
        except Exception:
            # Cancelled by the room's rule for a server failure: every entry refunded.
            log.exception("sit & go %s failed; cancelled and refunded", inst.id)
            inst.cancelled = True
            await self.store.run(refund_instance, inst.id, "server error")
        inst.finished_at = time.time()
        async with self.lock:
            self.finished.insert(0, inst)
            del self.finished[KEEP_FINISHED:]
            if self.current is inst and self.config.repeat and not self._stopping:
                self.current = self._new_instance()
        self.on_change()

    def _is_bot(self, inst: Instance, key: str) -> bool:
        account = inst.accounts.get(key)
        return account is not None and account.kind == "bot"

    async def _play(self, inst: Instance) -> None:
        cfg = self.config
        t = inst.tournament
        seed = hashlib.sha256(inst.id.encode()).digest()
        rng = random.Random(seed)
        bots = BotPolicy(cfg.bot_kinds, seed=seed)
        while t.status is Status.RUNNING:
            now = time.time()
            t.tick(now)
            ready = t.ready_tables()
            if not ready:
                await asyncio.sleep(0.2)
                continue
            seated: dict[int, dict[int, str]] = {}
            for table_id in ready:
                seats = t.tables[table_id].seats
                seated[table_id] = {seat: t.entries[e].player for seat, e in seats.items()}
                events = t.start_hand(table_id, now, seed=secrets.token_bytes(32))
                self._send(inst, table_id, events, seated[table_id])
            self._send_notices(inst)
            for table_id in ready:
                table = t.tables.get(table_id)
                if table is None or table.hand is None:
                    continue
                hand: Hand = table.hand
                names = seated[table_id]
                while not hand.is_over:
                    legal = hand.legal_actions()
                    assert legal is not None
                    player = names[legal.seat]
                    if self._is_bot(inst, player):
                        if cfg.bot_think_s:
                            await asyncio.sleep(cfg.bot_think_s)
                        action = bots(hand, legal, rng, player)
                    else:
                        action = await self._person(inst, table_id, hand, legal, player)
                    self._send(inst, table_id, t.act(table_id, action, time.time()), names)
                    await asyncio.sleep(0)
                bots.observe(hand, names)
                self._send_notices(inst)
            self.on_change()
            await asyncio.sleep(cfg.between_hands_s)

    # ------------------------------------------------------- the websocket

    def _send(
        self, inst: Instance, table_id: int, events: list[Event], names: dict[int, str]
    ) -> None:
        """Each event to the watchers who may see it (a seat's cards to that seat's
        account only)."""
        if not self.watchers:
            return
        for event in events:
            if event.visible_to == SERVER:
                continue
            key = None if event.visible_to == EVERYONE else names.get(event.visible_to)
            if event.visible_to != EVERYONE and key is None:
                continue
            text = protocol.frame(
                {
                    "type": "event",
                    "table": inst.id,
                    "tournament_table": table_id,
                    "event": protocol.event_dict(event),
                }
            )
            for conn, account_id in list(self.watchers.items()):
                if key is None or str(account_id) == key:
                    conn.send(text)

    def _send_notices(self, inst: Instance) -> None:
        """New tournament notices (levels, moves, eliminations, the end) to every
        watcher, as ``{"type":"event","table":instance,"event":…}``."""
        t = inst.tournament
        fresh = t.notices_since(inst.notices_sent)
        if not fresh:
            return
        inst.notices_sent = fresh[-1].seq

        def name(key: str) -> str:
            account = inst.accounts.get(key)
            return account.name if account else key

        for notice in fresh:
            text = protocol.frame(
                {"type": "event", "table": inst.id, "event": _notice(notice, name)}
            )
            for conn in list(self.watchers):
                conn.send(text)

    def _tell(self, inst: Instance, account_id: int | None, table_id: int, **event: Any) -> None:
        text = protocol.frame(
            {"type": "event", "table": inst.id, "tournament_table": table_id, "event": event}
        )
        for conn, watcher in list(self.watchers.items()):
            if account_id is None or watcher == account_id:
                conn.send(text)

    async def _person(
        self, inst: Instance, table_id: int, hand: Hand, legal: LegalActions, player: str
    ) -> Action:
        """A person's action: from their websocket within the clock, else the
        auto-policy (at once when they are not connected)."""
        account = inst.accounts.get(player)
        if account is None or account.id not in self.watchers.values():
            return auto_action(legal)
        clock = self.config.action_time_s
        future: asyncio.Future[Action] = asyncio.get_running_loop().create_future()
        self.pending[account.id] = (hand.hand_id, legal.seat, future)
        self._tell(
            inst, None, table_id, type="Turn", seat=legal.seat, street=str(legal.street),
            clock_s=clock, hand_id=hand.hand_id,
        )  # fmt: skip
        self._tell(
            inst, account.id, table_id, type="Legal", hand_id=hand.hand_id, legal=legal.to_dict()
        )
        try:
            return await asyncio.wait_for(future, clock)
        except TimeoutError:
            return auto_action(legal)
        finally:
            self.pending.pop(account.id, None)

    def watch(self, conn: Conn) -> dict[str, Any]:
        self.watchers[conn] = conn.account.id if conn.account is not None else None
        return {"tournament": self.current.id}

    def unwatch(self, conn: Conn) -> None:
        self.watchers.pop(conn, None)

    def act(self, conn: Conn, hand_id: str, make: Callable[[int], Action]) -> dict[str, Any]:
        """A person's action for the hand they are to act in (checked by the engine)."""
        account = conn.account
        turn = self.pending.get(account.id) if account is not None else None
        if turn is None or turn[0] != hand_id or turn[2].done():
            raise TableError("stale_hand", f"it is not your turn in hand {hand_id!r}")
        _, seat, future = turn
        action = make(seat)
        hand = self._hand_of(hand_id)
        if hand is None:
            raise TableError("stale_hand", f"hand {hand_id!r} is not in play")
        try:
            hand.validate(action)
        except IllegalAction as error:
            raise TableError("illegal_action", str(error)) from None
        future.set_result(action)
        return {}

    def _hand_of(self, hand_id: str) -> Hand | None:
        for table in self.current.tournament.tables.values():
            if table.hand is not None and table.hand.hand_id == hand_id:
                return table.hand
        return None

    async def _pay(self, inst: Instance) -> None:
        t = inst.tournament
        prizes: dict[int, int] = {}
        for entry in t.entries.values():
            if entry.prize:
                account = inst.accounts[entry.player]
                prizes[account.id] = prizes.get(account.id, 0) + entry.prize
        if sum(prizes.values()) != t.prize_pool:
            raise ledger.LedgerError(
                f"{inst.id}: prizes {sum(prizes.values())} differ from the pool {t.prize_pool}"
            )
        account_pool = pool(inst.id)
        places = {
            inst.accounts[e.player].id: list(e.places) for e in t.entries.values() if e.places
        }

        def txn(c: Connection) -> None:
            held = ledger.balance(c, account_pool)
            if held != t.prize_pool:
                raise ledger.LedgerError(f"{account_pool} holds {held}, the pool is {t.prize_pool}")
            entries = [(account_pool, -held)]
            entries += [(ledger.player(a), prize) for a, prize in prizes.items()]
            ledger.post(
                c,
                PRIZES,
                entries,
                ref=inst.id,
                memo={"places": {str(a): p for a, p in places.items()}},
                no_overdraft=(account_pool,),
            )

        if t.prize_pool:
            await self.store.run(txn)
        inst.paid = prizes

    # ------------------------------------------------------------ the API

    def summary(self) -> dict[str, Any]:
        """The lobby row of the current instance."""
        cfg = self.config
        inst = self.current
        t = inst.tournament
        tc = t.config
        return {
            "id": cfg.id,
            "instance": inst.id,
            "name": cfg.name,
            "kind": str(tc.kind),
            "game": "draw",
            "structure": str(tc.structure),
            "buy_in": tc.buy_in,
            "fee": tc.fee,
            "starting_chips": tc.starting_stack,
            "level_minutes": tc.levels[0].minutes,
            "levels": [_level(lv, i) for i, lv in enumerate(tc.levels[:12])],
            "registered": len(t.entries),
            "max_entries": tc.max_entries,
            "starts": "when full",
            "prize_pool": t.prize_pool,
            "status": self._status(inst),
            "finished": [i.id for i in self.finished],
        }

    @staticmethod
    def _status(inst: Instance) -> str:
        """The tournament's status; "paying" between its last hand and the payout."""
        status = inst.tournament.status
        if inst.cancelled:
            return str(Status.CANCELLED)
        if status is Status.FINISHED and inst.finished_at is None:
            return "paying"
        return str(status)

    def detail(self, inst: Instance) -> dict[str, Any]:
        """Players, tables, chip counts, level, payouts and standings of one instance."""
        t = inst.tournament
        tc = t.config
        now = time.time()
        level_no = t.level_at(now)
        level = tc.levels[level_no]
        next_in = None
        if t.started_at is not None and t.status is Status.RUNNING:
            ends = t.started_at + sum(lv.minutes * 60 for lv in tc.levels[: level_no + 1])
            next_in = max(0.0, round(ends - now, 1))

        def name(key: str) -> str:
            account = inst.accounts.get(key)
            return account.name if account else key

        def stack_of(entry_id: int) -> int:
            e = t.entries[entry_id]
            table = t.tables.get(e.table) if e.table is not None else None
            hand = table.hand if table else None
            if (
                hand is not None
                and table is not None
                and table.plan is not None
                and e.seat in table.plan.dealt
            ):
                return hand.stack(e.seat)
            return e.stack

        players = [
            {
                "name": name(e.player),
                "account": inst.accounts[e.player].id if e.player in inst.accounts else None,
                "bot": self._is_bot(inst, e.player),
                "chips": stack_of(e.entry_id) if e.alive else 0,
                "table": e.table,
                "seat": e.seat,
                "places": list(e.places),
                "prize": e.prize,
            }
            for e in t.entries.values()
        ]
        tables = [
            {
                "id": table.table_id,
                "hands": table.hands_played,
                "in_hand": table.hand is not None,
                "seats": [
                    {"seat": seat, "name": name(t.entries[e].player), "chips": stack_of(e)}
                    for seat, e in sorted(table.seats.items())
                ],
            }
            for table in t.tables.values()
        ]
        standings = (
            [
                {
                    "place": e.places[0],
                    "places": list(e.places),
                    "name": name(e.player),
                    "account": inst.accounts[e.player].id if e.player in inst.accounts else None,
                    "prize": e.prize,
                }
                for e in t.standings()
                if e.places
            ]
            if t.status is Status.FINISHED or t.status is Status.RUNNING
            else []
        )
        return {
            **{k: v for k, v in self.summary().items() if k not in ("instance", "finished")},
            "id": inst.id,
            "sit_and_go": self.config.id,
            "registered": len(t.entries),
            "prize_pool": t.prize_pool,
            "status": self._status(inst),
            "started_at": t.started_at,
            "finished_at": inst.finished_at,
            "level": {**_level(level, level_no), "next_in_s": next_in},
            "payouts": list(t.prizes),
            "hands": t.hands_played,
            "players": players,
            "tables": tables,
            "standings": sorted(standings, key=lambda s: s["place"]),
            "paid": {str(a): p for a, p in inst.paid.items()},
            "notices": [_notice(n, name) for n in t.notices[-NOTICES:]],
        }


def _notice(event: Event, name: Callable[[str], str]) -> dict[str, Any]:
    """A tournament notice as JSON-ready data, the player named by account name."""
    payload = protocol.event_dict(event)
    player = payload.pop("player", None)
    if player is not None:
        payload["name"] = name(str(player))
    return payload


def _level(level: Level, index: int) -> dict[str, Any]:
    return {
        "level": index + 1,
        "small_blind": level.small_blind,
        "big_blind": level.big_blind,
        "ante": level.ante,
        "minutes": level.minutes,
    }


def refund_abandoned(conn: Connection) -> list[str]:
    """Cancel instances a previous server left with chips in their pool: reverse
    every registration (buy-in and fee) booked to them, in one transaction each."""
    rows = conn.execute(
        select(ledger_balances.c.account).where(
            ledger_balances.c.account.like("pool:%"), ledger_balances.c.amount != 0
        )
    ).all()
    cancelled = []
    for (account,) in rows:
        instance = account.split(":", 1)[1]
        refund_instance(conn, instance, "server restarted")
        cancelled.append(instance)
    return cancelled


def refund_instance(conn: Connection, instance: str, reason: str) -> None:
    """Cancel one instance: reverse, in one transaction, the net of its registrations
    and unregistrations (each player's buy-in and fee back; its pool to 0)."""
    moves = conn.execute(
        select(ledger_entries.c.account, ledger_entries.c.amount)
        .join(ledger_tx, ledger_tx.c.id == ledger_entries.c.tx_id)
        .where(ledger_tx.c.ref == instance, ledger_tx.c.kind.in_((REGISTER, UNREGISTER)))
    ).all()
    net: dict[str, int] = {}
    for acct, amount in moves:
        net[acct] = net.get(acct, 0) + int(amount)
    entries = [(acct, -amount) for acct, amount in net.items() if amount]
    if entries:
        ledger.post(conn, REFUND, entries, ref=instance, memo={"rule": reason})


def load_tournaments(path: Path | None) -> list[SitAndGoConfig]:
    """The sit & go list of a room file (its ``"tournaments"`` key, default none);
    without a room file, the default room's."""
    if path is None:
        return default_tournaments()
    try:
        data = json.loads(path.read_text())
        return [SitAndGoConfig.from_dict(t) for t in data.get("tournaments", [])]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise InvalidConfig(f"room file {path}: tournaments: {error}") from None


def _status(t: Tournament) -> Status:
    """The status read afresh (mypy narrows ``t.status`` across calls that change it)."""
    return t.status
