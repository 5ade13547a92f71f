"""A cash table: seats, buy-ins, sit-outs, blinds and many hands in a row.

``CashTable`` is synchronous and does no I/O. A server feeds it commands
(``sit``, ``top_up``, ``leave``, ``sit_out``, ``sit_in``, ``disconnect``,
``reconnect``, ``start_hand``, ``act``, ``timeout``), each given the time
``now`` where time matters, and broadcasts the events they return. Whose turn
it is and until when is the session's (``room.session``): the table applies a
time-out when told. The table never reads the clock and never draws randomness
itself unless no seed is given (then ``secrets``, via ``deck.new_seed``).

Money: a buy-in or top-up brings chips the caller has already taken from the
player's balance; ``PlayerLeft.chips`` is what goes back. Seat changes asked
for during a hand are applied, and reported, when the hand ends.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from drawpoker.actions import Action, ActionKind
from drawpoker.deck import new_seed
from drawpoker.errors import IllegalAction, InvalidConfig
from drawpoker.events import EVERYONE, Event, Posted, PostKind
from drawpoker.fairness import EntropyPool
from drawpoker.hand import Hand
from drawpoker.room.blinds import BlindPlan, Debt, next_in, plan_blinds
from drawpoker.room.errors import (
    BuyInOutOfRange,
    HandInProgress,
    NotEnoughPlayers,
    NotSeated,
    RoomError,
    SeatTaken,
)
from drawpoker.room.events import (
    BlindsMissed,
    ConnectionChanged,
    HandCancelled,
    PlayerLeft,
    PlayerSeated,
    SatIn,
    SatOut,
    ToppedUp,
)
from drawpoker.room.serial import rules_from_dict, rules_to_dict
from drawpoker.rules import Rules


class DisconnectPolicy(StrEnum):
    """How the table plays for a disconnected player (R26, R47)."""

    CLOCK = "clock"  # the action clock runs, then the timeout: check/fold, stand pat
    IMMEDIATE = "immediate"  # the timeout is applied as soon as the turn comes


@dataclass(frozen=True, slots=True, kw_only=True)
class TableConfig:
    rules: Rules
    min_buy_in: int  # e.g. 20 big blinds
    max_buy_in: int  # e.g. 100 big blinds
    disconnect_policy: DisconnectPolicy = DisconnectPolicy.CLOCK
    sit_out_after_timeouts: int = 2  # consecutive timeouts that sit a player out
    # Reveal each hand's deck seed to everyone when it ends. Off: the seed rebuilds
    # every card dealt, folded and mucked hands included, so with it on anyone
    # watching learns every hand; fairness is proven per card without it
    # (docs/fairness.md).
    reveal_seed: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "disconnect_policy", DisconnectPolicy(self.disconnect_policy))
        if type(self.min_buy_in) is not int or type(self.max_buy_in) is not int:
            raise InvalidConfig("min_buy_in and max_buy_in must be whole numbers of chips")
        if not 1 <= self.min_buy_in <= self.max_buy_in:
            raise InvalidConfig(
                f"buy-in range {self.min_buy_in}-{self.max_buy_in}: need 1 <= min <= max"
            )
        if self.sit_out_after_timeouts < 1:
            raise InvalidConfig("sit_out_after_timeouts must be at least 1")

    @classmethod
    def in_big_blinds(cls, rules: Rules, low: int = 20, high: int = 100, **kw: Any) -> TableConfig:
        """Buy-ins from ``low`` to ``high`` big blinds (invitos on Italian tables)."""
        unit = rules.invito if rules.is_italian else (rules.big_blind or rules.bet_sizes[0])
        return cls(rules=rules, min_buy_in=low * unit, max_buy_in=high * unit, **kw)


@dataclass(slots=True)
class Seat:
    """A player at the table. ``stack`` excludes chips in a hand being played."""

    player: str
    stack: int
    sitting_out: bool = False
    owe_big_blind: bool = True  # new players post a big blind or wait for it (R9)
    owe_small_blind: bool = False
    post: bool = False  # posts to come in rather than wait for the big blind
    timeouts: int = 0  # in a row
    connected: bool = True
    pending_top_up: int = 0
    pending_leave: bool = False
    pending_sit_out: str = ""  # the reason, applied when the hand ends

    @property
    def debt(self) -> Debt:
        return Debt(self.owe_big_blind, self.owe_small_blind, self.post)


@dataclass(frozen=True, slots=True)
class HandRecord:
    """What one hand did at the table (plain data)."""

    hand_id: str
    number: int
    button: int
    small_blind: int | None
    big_blind: int | None
    dealt: tuple[tuple[int, str], ...]  # (seat, player)
    posts: tuple[tuple[int, str, int], ...]  # (seat, kind, chips) as posted
    start_stacks: dict[int, int]
    net: dict[int, int]
    rake: int
    carried_in: int
    carried_out: int
    reached_draw: bool
    showdown: bool
    started_at: float
    ended_at: float


@dataclass(slots=True)
class _Running:
    hand: Hand
    plan: BlindPlan
    started_at: float
    number: int
    start_stacks: dict[int, int] = field(default_factory=dict)
    carried_in: int = 0
    debts_before: dict[int, tuple[bool, bool, bool]] = field(default_factory=dict)


class CashTable:
    """One cash table; see the module docstring and ``docs/room.md``."""

    def __init__(self, table_id: str, config: TableConfig, *, first_seq: int = 1) -> None:
        self.table_id = table_id
        self.config = config
        self.rules = config.rules
        self.seats: dict[int, Seat] = {}
        self.button: int | None = None
        self.last_big_blind: int | None = None
        self.last_sb_position: int | None = None
        self.carried_pot = 0  # Italian: chips waiting for the next hand (R40, R43)
        self.rake_total = 0
        self.hands_played = 0
        self.next_seq = first_seq
        self.last_record: HandRecord | None = None
        self._last_plan: BlindPlan | None = None
        self._posted: list[tuple[int, PostKind, int]] = []
        self._running: _Running | None = None
        self._buffer: list[tuple[type[Event], dict[str, Any]]] = []
        self._positions_before: tuple[int | None, int | None, int | None] = (None, None, None)
        self._entropy = EntropyPool(new_seed())  # the players' contributions, next hand
        self.last_seed = b""  # the deck seed of the last hand dealt (the server stores it)

    def contribute(self, seat: int, text: str) -> None:
        """A seated player's random text, mixed into the next hand's deck seed
        (``drawpoker.fairness``; ``ValueError`` if it is empty or too long)."""
        self._seat(seat)
        self._entropy.contribute(seat, text)

    def reconfigure(self, config: TableConfig) -> None:
        """New stakes, seats or buy-ins, between hands (``check_config``)."""
        if self.in_hand:
            raise HandInProgress("a table's config changes between hands")
        self.check_config(config)
        self.config, self.rules = config, config.rules

    def check_config(self, config: TableConfig) -> None:
        """Whether ``config`` may replace the table's: the seats taken must exist
        under the new rules, and the game (draw or Italian) stays what it is."""
        if config.rules.is_italian != self.rules.is_italian:
            raise RoomError("a table's game (draw or Italian) does not change: open a new table")
        beyond = sorted(seat for seat in self.seats if seat > config.rules.max_seats)
        if beyond:
            raise RoomError(
                f"seat {beyond[-1]} is taken: the table keeps at least {beyond[-1]} seats"
            )

    @property
    def next_commitment(self) -> str:
        """SHA-256 of the room's seed for the next hand, published before it."""
        return self._entropy.next_commitment

    # ---------------------------------------------------------------- queries

    @property
    def hand(self) -> Hand | None:
        """The hand being played, if any."""
        return None if self._running is None else self._running.hand

    @property
    def plan(self) -> BlindPlan | None:
        """Positions and forced bets of the hand being played (or the last one)."""
        return self._last_plan

    @property
    def posted(self) -> list[tuple[int, PostKind, int]]:
        """Forced bets of the hand being played (or the last one): (seat, kind, chips)."""
        return list(self._posted)

    @property
    def in_hand(self) -> bool:
        return self._running is not None

    @property
    def to_act(self) -> int | None:
        return None if self._running is None else self._running.hand.to_act

    def seat_of(self, player: str) -> int | None:
        return next((s for s, seat in self.seats.items() if seat.player == player), None)

    def dealt_in(self) -> tuple[int, ...]:
        """Seats dealt into the hand being played."""
        return () if self._running is None else self._running.plan.dealt

    def stack(self, seat: int) -> int:
        """The seat's chips behind right now (in a hand: what is not yet wagered)."""
        s = self._seat(seat)
        if self._running is not None and seat in self._running.plan.dealt:
            return self._running.hand.stack(seat)
        return s.stack

    def chips(self) -> int:
        """Every chip at the table: stacks, pending top-ups, pots, the carried pot."""
        total = sum(s.stack + s.pending_top_up for s in self.seats.values())
        if self._running is not None:
            hand = self._running.hand
            for seat in self._running.plan.dealt:
                total += hand.stack(seat) - self.seats[seat].stack
            total += hand.pot_total if not hand.is_over else 0
        return total + self.carried_pot

    def snapshot(self, viewer: int = EVERYONE) -> dict[str, Any]:
        """What ``viewer`` (a seat, ``EVERYONE`` or ``SERVER``) may know now, as plain
        data: the seats, the positions and, during a hand, the hand's own view."""
        dealt = self.dealt_in()
        return {
            "table_id": self.table_id,
            "rules": self.rules.summary(),
            "min_buy_in": self.config.min_buy_in,
            "max_buy_in": self.config.max_buy_in,
            "button": self.button,
            "seats": [
                {
                    "seat": seat,
                    "player": s.player,
                    "stack": self.stack(seat),
                    "sitting_out": s.sitting_out,
                    "connected": s.connected,
                    "in_hand": seat in dealt,
                    "owes_big_blind": s.owe_big_blind,
                    "owes_small_blind": s.owe_small_blind,
                }
                for seat, s in sorted(self.seats.items())
            ],
            "carried_pot": self.carried_pot,
            "hands_played": self.hands_played,
            "hand": None if self.hand is None else self.hand.view(viewer),
            "next_seq": self.next_seq,
        }

    def can_start(self) -> bool:
        """Are 2 or more players able to play, and no hand running?"""
        return self._running is None and self._plan() is not None

    # --------------------------------------------------------- seat commands

    def sit(self, player: str, seat: int, buy_in: int, *, post: bool = False) -> list[Event]:
        """Take a free seat with a buy-in (chips already taken from the balance)."""
        self._check_seat_number(seat)
        if seat in self.seats:
            raise SeatTaken(f"seat {seat} is taken by {self.seats[seat].player}")
        if self.seat_of(player) is not None:
            raise SeatTaken(f"{player} already sits at seat {self.seat_of(player)}")
        self._check_buy_in(buy_in, self.config.min_buy_in, f"{player}'s buy-in")
        self.seats[seat] = Seat(player, buy_in, post=post)
        return self._emit(PlayerSeated, seat=seat, player=player, stack=buy_in, post=post)

    def top_up(self, seat: int, amount: int) -> list[Event]:
        """Add chips up to the table maximum; during a hand it applies when the hand ends.

        A player with no chips left must bring at least the minimum buy-in."""
        s = self._seat(seat)
        if type(amount) is not int or amount < 1:
            raise BuyInOutOfRange(f"seat {seat}: a top-up is a positive number of chips")
        if s.stack + s.pending_top_up + amount > self.config.max_buy_in:
            room = self.config.max_buy_in - s.stack - s.pending_top_up
            raise BuyInOutOfRange(
                f"seat {seat}: may add at most {max(room, 0)} chips "
                f"(table maximum {self.config.max_buy_in}), not {amount}"
            )
        if s.stack + s.pending_top_up == 0 and amount < self.config.min_buy_in:
            raise BuyInOutOfRange(
                f"seat {seat}: a rebuy is at least the minimum buy-in {self.config.min_buy_in}"
            )
        if self._in_current_hand(seat):
            s.pending_top_up += amount
            return []
        s.stack += amount
        return self._emit(ToppedUp, seat=seat, amount=amount, stack=s.stack)

    def leave(self, seat: int, now: float | None = None) -> list[Event]:
        """Stand up; the chips go back (``PlayerLeft.chips``). During a hand the player
        leaves when it ends (if dealt in, they check or fold at their turn)."""
        s = self._seat(seat)
        if self._running is not None:
            s.pending_leave = True
            return self._auto_act(now) if self._in_current_hand(seat) else []
        chips = s.stack + s.pending_top_up
        del self.seats[seat]
        return self._emit(PlayerLeft, seat=seat, player=s.player, chips=chips)

    def sit_out(self, seat: int) -> list[Event]:
        s = self._seat(seat)
        if s.sitting_out:
            return []
        if self._in_current_hand(seat):
            s.pending_sit_out = "request"
            return []
        s.sitting_out = True
        return self._emit(SatOut, seat=seat, reason="request")

    def sit_in(self, seat: int, *, post: bool = False) -> list[Event]:
        """Come back. A player who missed blinds posts them (``post=True``: big blind
        live, small blind dead) or waits for the big blind (R9)."""
        s = self._seat(seat)
        if s.sitting_out and s.stack + s.pending_top_up == 0:
            raise BuyInOutOfRange(f"seat {seat} has no chips: top up first")
        s.pending_sit_out = ""
        s.post = post
        s.timeouts = 0
        if not s.sitting_out:
            return []
        s.sitting_out = False
        return self._emit(SatIn, seat=seat, post=post)

    def disconnect(self, seat: int, now: float) -> list[Event]:
        s = self._seat(seat)
        if not s.connected:
            return []
        s.connected = False
        events = self._emit(ConnectionChanged, seat=seat, connected=False)
        return events + self._auto_act(now)  # policy "clock": the running clock goes on

    def reconnect(self, seat: int, now: float) -> list[Event]:
        s = self._seat(seat)
        if s.connected:
            return []
        s.connected = True
        return self._emit(ConnectionChanged, seat=seat, connected=True)

    # ----------------------------------------------------------------- hands

    def start_hand(self, now: float, *, seed: bytes | None = None) -> list[Event]:
        """Deal the next hand (R2: 2 or more players able to play)."""
        if self._running is not None:
            raise HandInProgress(f"table {self.table_id}: a hand is being played")
        plan = self._plan()
        if plan is None:
            raise NotEnoughPlayers(
                f"table {self.table_id}: a hand needs 2 or more players able to play (R2)"
            )
        number = self.hands_played + 1
        stacks = {seat: self.seats[seat].stack for seat in plan.dealt}
        # The hand is built first (if the engine refuses it, nothing has changed);
        # the BlindsMissed events come before its first event.
        # The deck seed: the one given (tests, replays), else the room's seed
        # committed one hand ahead, mixed with the players' contributions.
        deal = None if seed is not None else self._entropy.draw(plan.dealt, new_seed())
        hand = Hand(
            self.rules,
            stacks,
            plan.button,
            seed=seed if deal is None else deal.seed,
            posts=list(plan.posts) if self._blinds else None if self.rules.is_italian else [],
            carried_pot=self.carried_pot,
            hand_id=f"{self.table_id}-{number}",
            first_seq=self.next_seq + len(plan.missed),
            reveal_seed=self.config.reveal_seed,
            deal=deal,
        )
        self.last_seed = hand.seed or b""
        events: list[Event] = []
        debts_before = {
            seat: (s.owe_big_blind, s.owe_small_blind, s.post) for seat, s in self.seats.items()
        }
        for seat, big, small in plan.missed:
            s = self.seats[seat]
            s.owe_big_blind |= big
            s.owe_small_blind |= small
            events += self._emit(BlindsMissed, seat=seat, big_blind=big, small_blind=small)
        for seat in plan.dealt:
            s = self.seats[seat]
            s.owe_big_blind = s.owe_small_blind = s.post = False
        self._positions_before = (self.button, self.last_big_blind, self.last_sb_position)
        self.button = plan.button
        self.last_big_blind = plan.big_blind if self._blinds else None
        self.last_sb_position = plan.sb_position if self._blinds else None
        self.hands_played = number
        self._running = _Running(hand, plan, now, number, stacks, self.carried_pot, debts_before)
        self._last_plan = plan
        self.carried_pot = 0
        events += hand.events
        self.next_seq = hand.next_seq
        self._posted = [(e.seat, e.kind, e.amount) for e in hand.events if isinstance(e, Posted)]
        if hand.is_over:  # everyone all in on the forced bets
            return events + self._finish(now)
        return events + self._auto_act(now)

    def act(self, action: Action, now: float) -> list[Event]:
        """A player's action (``IllegalAction`` if not legal now; nothing changes)."""
        hand = self._hand()
        if action.kind is ActionKind.TIMEOUT:
            return self.timeout(action.seat, now)
        hand.validate(action)
        self.seats[action.seat].timeouts = 0
        return self._apply(action, now)

    def timeout(self, seat: int, now: float) -> list[Event]:
        """The clock ran out for ``seat`` (R26, R47): check or fold; stand pat in the draw."""
        hand = self._hand()
        if hand.to_act != seat:
            raise IllegalAction(f"seat {seat} is not to act (seat {hand.to_act} is)")
        s = self.seats[seat]
        s.timeouts += 1
        if s.timeouts >= self.config.sit_out_after_timeouts and not s.pending_sit_out:
            s.pending_sit_out = "timeouts"
        return self._apply(Action.timeout(seat), now)

    # --------------------------------------------------------------- internals

    def _apply(self, action: Action, now: float) -> list[Event]:
        running = self._running
        assert running is not None
        events = running.hand.act(action)
        self.next_seq = running.hand.next_seq
        if running.hand.is_over:
            return events + self._finish(now)
        return events + self._auto_act(now)

    def _auto_act(self, now: float | None = None) -> list[Event]:
        """Play for players who left during the hand, or are disconnected with the
        ``immediate`` policy: their turn times out at once."""
        events: list[Event] = []
        while self._running is not None:
            seat = self._running.hand.to_act
            if seat is None:
                break
            s = self.seats[seat]
            immediate = not s.connected and (
                self.config.disconnect_policy is DisconnectPolicy.IMMEDIATE
            )
            if not (s.pending_leave or immediate):
                break
            at = now if now is not None else self._running.started_at
            events += self._apply(Action.timeout(seat), at)
        return events

    def _finish(self, now: float) -> list[Event]:
        running = self._running
        assert running is not None
        hand = running.hand
        result = hand.result
        for seat, stack in result.stacks.items():
            self.seats[seat].stack = stack
        self.carried_pot = result.carried_pot
        self.rake_total += result.rake
        self.last_record = HandRecord(
            hand_id=hand.hand_id,
            number=running.number,
            button=running.plan.button,
            small_blind=running.plan.small_blind if self._blinds else None,
            big_blind=running.plan.big_blind if self._blinds else None,
            dealt=tuple((seat, self.seats[seat].player) for seat in running.plan.dealt),
            posts=tuple((seat, str(kind), amount) for seat, kind, amount in self.posted),
            start_stacks=dict(running.start_stacks),
            net={seat: result.stacks[seat] - running.start_stacks[seat] for seat in result.stacks},
            rake=result.rake,
            carried_in=running.carried_in,  # an Italian pot (dead blinds are in posts)
            carried_out=result.carried_pot,
            reached_draw=result.reached_draw,
            showdown=result.showdown,
            started_at=running.started_at,
            ended_at=now,
        )
        self._running = None
        events = self._flush()
        return events + self._between_hands()

    def _between_hands(self) -> list[Event]:
        """Apply what was asked during the hand: top-ups, leaves, sit-outs; sit out
        the busted."""
        events: list[Event] = []
        for seat in sorted(self.seats):
            s = self.seats[seat]
            if s.pending_top_up:
                amount, s.pending_top_up = s.pending_top_up, 0
                s.stack += amount
                events += self._emit(ToppedUp, seat=seat, amount=amount, stack=s.stack)
            if s.pending_leave:
                del self.seats[seat]
                events += self._emit(PlayerLeft, seat=seat, player=s.player, chips=s.stack)
                continue
            reason = s.pending_sit_out
            s.pending_sit_out = ""
            if not reason and s.stack == 0 and not s.sitting_out:
                reason = "busted"
            if reason and not s.sitting_out:
                s.sitting_out = True
                events += self._emit(SatOut, seat=seat, reason=reason)
        return events

    def _plan(self) -> BlindPlan | None:
        candidates = {
            seat: s.debt
            for seat, s in self.seats.items()
            if s.stack > 0 and not s.sitting_out and not s.pending_leave
        }
        if not self._blinds:
            return self._plan_rotating(candidates)
        absent = [seat for seat in self.seats if seat not in candidates]
        rules = self.rules
        small, big = rules.small_blind, rules.big_blind
        return plan_blinds(
            rules.max_seats,
            candidates,
            absent=absent,
            last_big_blind=self.last_big_blind,
            last_sb_position=self.last_sb_position,
            last_button=self.button,
            small_blind=small,
            big_blind=big,
        )

    @property
    def _blinds(self) -> bool:
        """Blinds, or only antes / invitos (the engine posts those)?"""
        return not self.rules.is_italian and self.rules.big_blind > 0

    def _plan_rotating(self, candidates: dict[int, Debt]) -> BlindPlan | None:
        """No blinds (R37, or antes only): everyone able to play is dealt in and the
        deal passes clockwise."""
        if len(candidates) < 2:
            return None
        if self.button is None:
            button = min(candidates)
        else:
            button = next_in(self.button, candidates, self.rules.max_seats) or min(candidates)
        return BlindPlan(
            button=button,
            small_blind=None,
            big_blind=button,
            dealt=tuple(sorted(candidates)),
            posts=(),
            sb_position=button,
            missed=(),
            fresh=False,
        )

    def _hand(self) -> Hand:
        if self._running is None:
            raise HandInProgress(f"table {self.table_id}: no hand is being played")
        return self._running.hand

    def _in_current_hand(self, seat: int) -> bool:
        return self._running is not None and seat in self._running.plan.dealt

    def _seat(self, seat: int) -> Seat:
        try:
            return self.seats[seat]
        except KeyError:
            raise NotSeated(f"table {self.table_id}: nobody sits at seat {seat}") from None

    def _check_seat_number(self, seat: int) -> None:
        if type(seat) is not int or not 1 <= seat <= self.rules.max_seats:
            raise NotSeated(f"seat {seat!r} is not a seat 1-{self.rules.max_seats}")

    def _check_buy_in(self, amount: int, low: int, what: str) -> None:
        high = self.config.max_buy_in
        if type(amount) is not int or not low <= amount <= high:
            raise BuyInOutOfRange(f"{what} of {amount!r} is outside {low}-{high}")

    def _emit(self, kind: type[Event], /, **fields: Any) -> list[Event]:
        """Number a room event now, or hold it until the hand ends."""
        if self._running is not None:
            self._buffer.append((kind, fields))
            return []
        event = kind(seq=self.next_seq, **fields)
        self.next_seq += 1
        return [event]

    def _flush(self) -> list[Event]:
        buffered, self._buffer = self._buffer, []
        out: list[Event] = []
        for kind, fields in buffered:
            out += self._emit(kind, **fields)
        return out

    # ------------------------------------------------------------ persistence

    def to_dict(self) -> dict[str, Any]:
        """The table as plain data (JSON-ready). During a hand the stacks are those
        of the hand's start: restoring cancels the hand and returns its chips."""
        running = self._running
        seats = {}
        for seat, s in self.seats.items():
            debt = (s.owe_big_blind, s.owe_small_blind, s.post)
            if running is not None:  # as before the hand, which a restore cancels
                debt = running.debts_before.get(seat, debt)
            seats[str(seat)] = {
                "player": s.player,
                "stack": s.stack,
                "sitting_out": s.sitting_out,
                "owe_big_blind": debt[0],
                "owe_small_blind": debt[1],
                "post": debt[2],
                "timeouts": s.timeouts,
                "connected": s.connected,
                "pending_top_up": s.pending_top_up,
                "pending_leave": s.pending_leave,
                "pending_sit_out": s.pending_sit_out,
            }
        return {
            "version": 1,
            "table_id": self.table_id,
            "config": {
                "rules": rules_to_dict(self.rules),
                "min_buy_in": self.config.min_buy_in,
                "max_buy_in": self.config.max_buy_in,
                "disconnect_policy": str(self.config.disconnect_policy),
                "sit_out_after_timeouts": self.config.sit_out_after_timeouts,
                "reveal_seed": self.config.reveal_seed,
            },
            "seats": seats,
            "button": self.button,
            "last_big_blind": self.last_big_blind,
            "last_sb_position": self.last_sb_position,
            "carried_pot": self.carried_pot + (running.carried_in if running else 0),
            "rake_total": self.rake_total,
            "hands_played": self.hands_played,
            "next_seq": self.next_seq,
            "unfinished_hand": None
            if running is None
            else {
                "hand_id": running.hand.hand_id,
                "button": self._positions_before[0],
                "last_big_blind": self._positions_before[1],
                "last_sb_position": self._positions_before[2],
            },
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> tuple[CashTable, list[Event]]:
        """Rebuild a table from ``to_dict``; an unfinished hand is cancelled (its chips
        go back to their seats, ``HandCancelled``). Returns the table and its events."""
        cfg = data["config"]
        config = TableConfig(
            rules=rules_from_dict(cfg["rules"]),
            min_buy_in=cfg["min_buy_in"],
            max_buy_in=cfg["max_buy_in"],
            disconnect_policy=DisconnectPolicy(cfg["disconnect_policy"]),
            sit_out_after_timeouts=cfg["sit_out_after_timeouts"],
            reveal_seed=bool(cfg.get("reveal_seed", False)),
        )
        table = cls(data["table_id"], config, first_seq=data["next_seq"])
        for key, s in data["seats"].items():
            table.seats[int(key)] = Seat(**s)
        table.button = data["button"]
        table.last_big_blind = data["last_big_blind"]
        table.last_sb_position = data["last_sb_position"]
        table.carried_pot = data["carried_pot"]
        table.rake_total = data["rake_total"]
        table.hands_played = data["hands_played"]
        events: list[Event] = []
        unfinished = data.get("unfinished_hand")
        if unfinished:
            table.button = unfinished["button"]
            table.last_big_blind = unfinished["last_big_blind"]
            table.last_sb_position = unfinished["last_sb_position"]
            events += table._emit(
                HandCancelled,
                hand_id=unfinished["hand_id"],
                stacks=tuple(sorted((seat, s.stack) for seat, s in table.seats.items())),
                carried_pot=table.carried_pot,
            )
            events += table._between_hands()
        return table, events
