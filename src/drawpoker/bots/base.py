"""The bot interface and what every bot reads from the table.

A bot sees exactly what a human at its seat sees: ``hand.view(seat)``, the
events ``hand.events_for(seat)`` and ``legal_actions()``. It never sees another
player's hidden cards.

    bot = make_bot("shark", seed="table-7/seat-3")
    bot.sit(seat, rules)                                # once, when seated
    action = bot.decide(view, legal, events)            # each time it must act
    bot.observe(events)                                 # at the end of every hand

Randomness comes from a ``random.Random`` seeded per bot, so a match replays
exactly from its seed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from drawpoker.actions import Action, LegalActions
from drawpoker.cards import DECK
from drawpoker.evaluator import evaluate
from drawpoker.events import (
    BetPlaced,
    BettingRoundEnded,
    Called,
    Discarded,
    Event,
    HandShown,
    HandStarted,
    Raised,
    StoodPat,
    Street,
)
from drawpoker.rules import Rules

_CARD_OF_NAME = {str(card): int(card) for card in DECK}


class Bot:
    """Base class: subclasses implement ``decide``; ``observe`` is optional."""

    name: ClassVar[str] = "bot"
    description: ClassVar[str] = ""

    def __init__(self, *, seed: int | str | bytes = 0) -> None:
        self.rng = random.Random(seed)
        self.seat = 0
        self.rules = Rules.online()

    def sit(self, seat: int, rules: Rules) -> None:
        """Called once when the bot takes a seat at a table with these rules."""
        self.seat = seat
        self.rules = rules

    def decide(
        self, view: Mapping[str, Any], legal: LegalActions, events: Sequence[Event]
    ) -> Action:
        """The action to take now; ``legal.seat`` is this bot's seat."""
        raise NotImplementedError

    def observe(self, events: Sequence[Event]) -> None:
        """Every event of a finished hand this seat may see (session memory)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seat={self.seat})"


# ------------------------------------------------------------------ reading


@dataclass(slots=True)
class SeatInfo:
    seat: int
    position: int  # 0 = first left of the button ... last = the button
    stack: int
    wager: int
    folded: bool
    all_in: bool
    drew: int | None


@dataclass(slots=True)
class Situation:
    """A bot's reading of the table when it must act."""

    seat: int
    street: Street
    cards: tuple[int, ...]
    pot: int
    highest: int
    me: SeatInfo
    seats: list[SeatInfo]
    unit: int  # the big blind, or the invito; the bb of bb/100

    @property
    def opponents(self) -> list[SeatInfo]:
        """Opponents still in the hand."""
        return [s for s in self.seats if not s.folded and s.seat != self.seat]

    @property
    def last_to_act(self) -> bool:
        """Acts after every live opponent (the button side) in the post-draw order."""
        live = [s.position for s in self.seats if not s.folded]
        return self.me.position == max(live)


def read(view: Mapping[str, Any], legal: LegalActions, rules: Rules) -> Situation:
    seats = []
    me: SeatInfo | None = None
    cards: tuple[int, ...] = ()
    for position, entry in enumerate(view["seats"]):
        info = SeatInfo(
            seat=entry["seat"],
            position=position,
            stack=entry["stack"],
            wager=entry["wager"],
            folded=entry["folded"],
            all_in=entry["all_in"],
            drew=entry["drew"],
        )
        seats.append(info)
        if info.seat == legal.seat:
            me = info
            cards = tuple(_CARD_OF_NAME[name] for name in entry["cards"] or ())
    if me is None:
        raise ValueError(f"seat {legal.seat} is not in the view")
    if legal.draw:
        cards = tuple(legal.hand)
    unit = rules.invito if rules.is_italian else (rules.big_blind or rules.bet_sizes[0])
    return Situation(
        seat=legal.seat,
        street=legal.street,
        cards=cards,
        pot=view["pot"],
        highest=view["highest"],
        me=me,
        seats=seats,
        unit=max(unit, 1),
    )


@dataclass(slots=True)
class HandActions:
    """Who did what this hand, from the events (bets and raises per street)."""

    raises_pre: dict[int, int]
    raises_post: dict[int, int]
    called_pre: set[int]
    drew: dict[int, int]
    hand_key: tuple[str, int]
    called_post: set[int]

    def committed(self, seat: int, street: Street) -> bool:
        """Has ``seat`` called, bet or raised in this betting round?"""
        if street is Street.PRE_DRAW:
            return seat in self.called_pre or seat in self.raises_pre
        return seat in self.called_post or seat in self.raises_post


def hand_actions(events: Sequence[Event]) -> HandActions:
    raises_pre: dict[int, int] = {}
    raises_post: dict[int, int] = {}
    called_pre: set[int] = set()
    called_post: set[int] = set()
    drew: dict[int, int] = {}
    street = Street.PRE_DRAW
    key = ("", 0)
    for event in events:
        if isinstance(event, HandStarted):
            key = (event.hand_id, event.seq)
            street = Street.PRE_DRAW
        elif isinstance(event, (BetPlaced, Raised)):
            target = raises_pre if street is Street.PRE_DRAW else raises_post
            target[event.seat] = target.get(event.seat, 0) + 1
        elif isinstance(event, Called):
            (called_pre if street is Street.PRE_DRAW else called_post).add(event.seat)
        elif isinstance(event, BettingRoundEnded):
            street = Street.POST_DRAW
        elif isinstance(event, StoodPat):
            drew[event.seat] = 0
        elif isinstance(event, Discarded):
            drew[event.seat] = event.count
    return HandActions(raises_pre, raises_post, called_pre, drew, key, called_post)


# ------------------------------------------------------------------ actions


def check_or_fold(legal: LegalActions) -> Action:
    return Action.check(legal.seat) if legal.check else Action.fold(legal.seat)


def check_or_call(legal: LegalActions) -> Action:
    return Action.check(legal.seat) if legal.check else Action.call(legal.seat)


def bet_to(legal: LegalActions, amount: int) -> Action:
    """Bet or raise to ``amount`` clipped to the legal range; call or check if none."""
    if not legal.max_to:
        return check_or_call(legal)
    return Action.bet(legal.seat, max(legal.min_to, min(legal.max_to, amount)))


# ------------------------------------------------------ openers on request


def ask_for_openers(
    legal: LegalActions,
    events: Sequence[Event],
    rules: Rules,
    rng: random.Random,
    *,
    curiosity: float = 0.1,
) -> Action:
    """R48: ask to see the openers, or decline, as a careful player does.

    Asking costs nothing but the table's patience, and a false opener forfeits the
    pot (to the best other hand) and pays the penalty into the next pot. So ask
    when the opener's play says they may have opened without openers — they drew
    four or five cards, or showed a hand with no pair of ``openers`` or better after
    drawing one or two (a broken pair is rare; a four-card draw opened is not) — or
    when this seat lost the showdown to the opener, whose forfeit could give it the
    pot; otherwise ask once in a while (``curiosity``) so that nobody may count on
    never being asked."""
    opener = legal.opener
    drew: int | None = None
    shown: tuple[int, ...] = ()
    at_showdown: set[int] = set()
    for event in events:
        if isinstance(event, StoodPat) and event.seat == opener:
            drew = 0
        elif isinstance(event, Discarded) and event.seat == opener:
            drew = event.count
        elif isinstance(event, HandShown):
            at_showdown.add(event.seat)
            if event.seat == opener:
                shown = event.cards
    if drew is not None and drew >= 4:
        return Action.ask_openers(legal.seat)
    if shown and drew in (1, 2):
        value = evaluate(shown)
        pairs = [c >> 2 for c in shown]
        best_pair = max((r for r in set(pairs) if pairs.count(r) >= 2), default=-1)
        if value.category <= 2 and best_pair < rules.openers_rank:
            return Action.ask_openers(legal.seat)
    if legal.seat in at_showdown and opener in at_showdown:
        return Action.ask_openers(legal.seat)  # the opener's forfeit may pay this seat
    if rng.random() < curiosity:
        return Action.ask_openers(legal.seat)
    return Action.decline(legal.seat)
