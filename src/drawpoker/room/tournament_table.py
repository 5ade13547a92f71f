"""One tournament table's side: the seats it was told, and the hand it plays.

A table actor owns a ``TournamentTable``; the tournament's actor owns the
``Tournament``. They exchange plain data only (``tournament_orders``):

    table = TournamentTable(3)
    table.reseat(t.table_seats(3).seats)        # "seat these players" (between hands)
    events = table.start_hand(order, seed=...)  # order: t.start_hand(3, now)
    table.act(action, now)                      # or table.timeout(seat, now)
    if table.finished is not None:              # the hand is over:
        t.hand_finished(table.take_finished(), now)   # tell the tournament

The table deals exactly the hand it was ordered to (the order's rules, stacks,
button, posts, hand id and event numbers); it decides nothing about who plays
where. The seats it shows are the last it was told (``reseat``, or the seating
an order carries); at the end of a hand its dealt players' stacks are those the
hand left them, until the tournament says otherwise. ``take_finished`` hands
over the end-of-hand message and lets the hand and its order go (a table keeps
no finished hand: with thousands of tables they would be most of the memory,
and objects kept for a round and then dropped scatter the heap).
"""

from __future__ import annotations

from collections.abc import Mapping

from drawpoker.actions import Action
from drawpoker.deck import new_seed
from drawpoker.errors import IllegalAction
from drawpoker.events import Event
from drawpoker.fairness import EntropyPool
from drawpoker.hand import Hand
from drawpoker.room.errors import HandInProgress, TournamentError
from drawpoker.room.tournament_orders import HandFinished, HandOrder, SeatedPlayer


class TournamentTable:
    """See the module docstring."""

    __slots__ = (
        "_entropy",
        "_finished",
        "_next_seq",
        "closed",
        "hand",
        "order",
        "seats",
        "table_id",
    )

    def __init__(self, table_id: int, seats: Mapping[int, SeatedPlayer] | None = None) -> None:
        self.table_id = table_id
        self.seats: dict[int, SeatedPlayer] = dict(seats or {})
        self.order: HandOrder | None = None  # of the hand in play (or over, not taken)
        self.hand: Hand | None = None  # the hand in play, or over and not yet taken
        self._next_seq = 1  # the table's next event number between hands
        self.closed = False  # broken, or the tournament is over: no more hands
        self._finished: HandFinished | None = None
        self._entropy = EntropyPool(new_seed())  # the players' contributions, next hand

    def contribute(self, seat: int, text: str) -> None:
        """A seated player's random text, mixed into the next hand's deck seed
        (``drawpoker.fairness``)."""
        if seat not in self.seats:
            raise TournamentError(f"table {self.table_id}: nobody sits at seat {seat}")
        self._entropy.contribute(seat, text)

    @property
    def next_commitment(self) -> str:
        """SHA-256 of the room's seed for the next hand, published before it."""
        return self._entropy.next_commitment

    @property
    def in_hand(self) -> bool:
        """A hand is being played (started and not over)."""
        return self.hand is not None and not self.hand.is_over

    @property
    def finished(self) -> HandFinished | None:
        """Once the hand is over: the message for the tournament (else None)."""
        return self._finished

    def take_finished(self) -> HandFinished:
        """The message for the tournament once the hand is over; the table then
        lets the hand and its order go (``hand`` and ``order`` are None until the
        next order)."""
        message = self._finished
        if message is None:
            raise HandInProgress(f"table {self.table_id}: no hand is over")
        self._finished = None
        self.hand = None
        self.order = None
        return message

    def stack(self, seat: int) -> int:
        """``seat``'s chips now (during a hand: behind, for a player dealt in)."""
        hand = self.hand
        order = self.order
        if hand is not None and not hand.is_over and order is not None and seat in order.dealt:
            return hand.stack(seat)
        return self.seats[seat].stack

    def reseat(self, seats: Mapping[int, SeatedPlayer], *, closed: bool = False) -> None:
        """The tournament's seating for this table (``TableSeats``), between hands;
        ``closed``: the table was broken (``seats`` is then empty)."""
        if self.in_hand:
            assert self.order is not None
            raise HandInProgress(
                f"table {self.table_id}: hand {self.order.hand_id} is being played; "
                "a new seating waits for its end"
            )
        if closed and seats:
            raise TournamentError(f"table {self.table_id}: a closed table seats nobody")
        self.seats = dict(seats)
        self.closed = closed
        self._entropy.forget()  # the seats' texts belonged to their players

    def start_hand(self, order: HandOrder, *, seed: bytes | None = None) -> list[Event]:
        """Deal the hand ``order`` says (the deck from ``seed``; default: the room's
        seed committed one hand ahead, from ``secrets``, mixed with the players'
        contributions). The order's seating replaces the table's."""
        if order.table_id != self.table_id:
            raise TournamentError(f"table {self.table_id} got the order for table {order.table_id}")
        if self.in_hand:
            assert self.order is not None
            hand_id = self.order.hand_id
            raise HandInProgress(f"table {self.table_id}: hand {hand_id} is being played")
        if self.closed:
            raise TournamentError(f"table {self.table_id} is closed")
        deal = None if seed is not None else self._entropy.draw(order.dealt, new_seed())
        hand = Hand(
            order.rules,
            order.stacks(),
            order.plan.button,
            seed=seed if deal is None else deal.seed,
            posts=list(order.plan.posts),
            hand_id=order.hand_id,
            first_seq=order.first_seq,
            deal=deal,
        )
        self.seats = dict(order.seats)
        self.order = order
        self.hand = hand
        self._finished = None
        events = list(hand.events)
        self._after(hand)
        return events

    def act(self, action: Action, now: float) -> list[Event]:
        """A player's action (the engine's ``IllegalAction`` if not legal now)."""
        hand = self.hand
        if hand is None or hand.is_over:
            raise HandInProgress(f"table {self.table_id}: no hand is being played")
        events = hand.act(action)
        if hand.is_over:
            self._after(hand)
        return events

    @property
    def next_seq(self) -> int:
        """The table's next event number."""
        hand = self.hand
        return self._next_seq if hand is None else hand.next_seq

    def timeout(self, seat: int, now: float) -> list[Event]:
        """The clock ran out for ``seat`` (R26, R47): check or fold; stand pat in the draw."""
        hand = self.hand
        if hand is None or hand.to_act != seat:
            raise IllegalAction(f"table {self.table_id}: seat {seat} is not to act")
        return self.act(Action.timeout(seat), now)

    def _after(self, hand: Hand) -> None:
        self._next_seq = hand.next_seq
        if not hand.is_over:
            return
        stacks = hand.result.stacks
        for seat, chips in stacks.items():
            entry_id, player, _ = self.seats[seat]
            self.seats[seat] = SeatedPlayer(entry_id, player, chips)
        self._finished = HandFinished(
            table_id=self.table_id,
            hand_id=hand.hand_id,
            stacks=dict(stacks),
            next_seq=hand.next_seq,
        )
