"""What a client rebuilds from the wire: the table's rules from a snapshot, and
the hand as one seat sees it, kept up to date from the events that follow.

- ``rules_from_snapshot``: the table's rules from a snapshot (the server sends
  the one-line summary, ``No Limit 1/2, 6-max``, and for a tournament the level).
- ``HandMirror``: ``Hand.view(seat)`` kept up to date from the snapshot's ``hand``
  and the engine events that follow, so that a remote bot reads the same dict
  it would read at an in-process table, and a terminal client can draw it.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any

from drawpoker.cards import format_cards
from drawpoker.errors import DrawPokerError
from drawpoker.events import (
    BetPlaced,
    BettingRoundEnded,
    Called,
    CardsDealt,
    CardsDelivered,
    CardsReceived,
    Discarded,
    DiscardedCards,
    Event,
    Folded,
    HandEnded,
    HandShown,
    HandStarted,
    Posted,
    PostKind,
    PotAwarded,
    PotCarried,
    Raised,
    RakeTaken,
    StoodPat,
    Street,
    TimedOut,
    UncalledBetReturned,
)
from drawpoker.rules import Rules

# ------------------------------------------------------------------ rules

_SUMMARY = re.compile(
    r"^(?:(?P<name>Limit|Pot Limit|No Limit) (?P<small>\d+)/(?P<big>\d+)"
    r"|Italian, invito (?P<invito>\d+)), (?P<seats>\d+)-max$"
)
_STRUCTURES = {"Limit": "fixed-limit", "Pot Limit": "pot-limit", "No Limit": "no-limit"}


def rules_from_snapshot(state: Mapping[str, Any]) -> Rules:
    """The table's rules as far as the wire tells them.

    The snapshot's ``rules`` is a dict of ``Rules`` fields or the one-line summary
    (``No Limit 1/2, 6-max``, ``Limit 2/4, 6-max``: the bets, ``Italian, invito 10,
    6-max``); a tournament table's ``level`` gives the blinds in force. What the
    wire does not say (the draw limits, the openers check) keeps the preset's
    default. Unknown shapes give ``Rules.online()`` with the seats."""
    raw = state.get("rules")
    seats = int(state.get("max_seats") or 6)
    rules: Rules | None = None
    if isinstance(raw, Mapping):
        known = {f.name for f in dataclasses.fields(Rules) if f.init}
        try:
            rules = Rules(**{k: v for k, v in raw.items() if k in known})
        except (DrawPokerError, TypeError, ValueError):
            rules = None
    elif isinstance(raw, str) and (match := _SUMMARY.match(raw)):
        seats = int(match["seats"])
        try:
            if match["invito"]:
                rules = Rules.italian(invito=int(match["invito"]), max_seats=seats)
            elif match["name"] == "Limit":
                small_bet, big_bet = int(match["small"]), int(match["big"])
                rules = Rules.online(
                    structure="fixed-limit",
                    small_blind=max(small_bet // 2, 1),
                    big_blind=small_bet,
                    small_bet=small_bet,
                    big_bet=big_bet,
                    max_seats=seats,
                )
            else:
                rules = Rules.online(
                    structure=_STRUCTURES[match["name"]],
                    small_blind=int(match["small"]),
                    big_blind=int(match["big"]),
                    max_seats=seats,
                )
        except (DrawPokerError, ValueError):
            rules = None
    if rules is None:
        rules = Rules.online(max_seats=seats if 2 <= seats <= 8 else 6)
    tournament = state.get("tournament")
    if isinstance(tournament, Mapping) and isinstance(tournament.get("level"), Mapping):
        rules = with_level(rules, tournament["level"])
    return rules


def with_level(rules: Rules, level: Mapping[str, Any]) -> Rules:
    """The rules with a tournament level's blinds and ante (``LevelStarted``)."""
    if rules.is_italian:
        return rules
    try:
        small, big = int(level["small_blind"]), int(level["big_blind"])
        changes: dict[str, Any] = {
            "small_blind": small,
            "big_blind": big,
            "antes": int(level.get("ante") or 0),
        }
        if rules.is_fixed_limit:
            changes.update(small_bet=big, big_bet=2 * big)
        return rules.replace(**changes)
    except (KeyError, TypeError, ValueError, DrawPokerError):
        return rules


# ------------------------------------------------------------------ the view

_LIVE_POSTS = (PostKind.SMALL_BLIND, PostKind.BIG_BLIND)  # as the engine: antes are dead


class HandMirror:
    """``Hand.view(seat)`` for one seat, rebuilt from the wire.

    ``apply`` every engine event the seat receives, from a ``HandStarted`` or
    after starting from a snapshot's ``hand`` (``from_view``);
    ``view()`` is then the dict an in-process bot gets from ``hand.view(seat)``
    (``legal`` aside: the caller has it from the ``Legal`` entry)."""

    __slots__ = (
        "_by_seat", "_extra", "button", "hand_id", "highest", "max_seats", "seat", "seats",
        "street",
    )  # fmt: skip

    def __init__(self, seat: int, max_seats: int) -> None:
        self.seat = seat
        self.max_seats = max_seats
        self.hand_id = ""
        self.street = Street.OVER
        self.button = 0
        self.highest = 0
        self._extra = 0  # chips in the middle outside the players' commitments (carried pot)
        self.seats: list[dict[str, Any]] = []  # in position order, as Hand.view
        self._by_seat: dict[int, dict[str, Any]] = {}

    @classmethod
    def from_view(cls, view: Mapping[str, Any], seat: int, max_seats: int) -> HandMirror:
        """From a snapshot's ``hand`` (the engine's ``Hand.view`` for this viewer)."""
        mirror = cls(seat, max_seats)
        mirror.hand_id = str(view["hand_id"])
        mirror.street = Street(view["street"])
        mirror.button = int(view.get("button") or 0)
        mirror.highest = int(view.get("highest") or 0)
        mirror.seats = [
            {
                "seat": s["seat"],
                "stack": s["stack"],
                "wager": s["wager"],
                "committed": s.get("committed", s["wager"]),
                "folded": s["folded"],
                "all_in": s["all_in"],
                "card_count": s.get("card_count", 0),
                "cards": None if s.get("cards") is None else list(s["cards"]),
                "drew": s.get("drew"),
                "penalized": s.get("penalized", False),
            }
            for s in view["seats"]
        ]
        mirror._index()
        mirror._extra = int(view["pot"]) - sum(s["committed"] for s in mirror.seats)
        return mirror

    def _index(self) -> None:
        self._by_seat = {s["seat"]: s for s in self.seats}

    @property
    def active(self) -> bool:
        """A hand is in play (started and not ended)."""
        return bool(self.seats) and self.street is not Street.OVER

    @property
    def dealt_in(self) -> bool:
        return self.seat in self._by_seat

    @property
    def pot(self) -> int:
        return sum(int(s["committed"]) for s in self.seats) + self._extra

    def view(self) -> dict[str, Any]:
        return {
            "hand_id": self.hand_id,
            "street": str(self.street),
            "button": self.button,
            "to_act": None,
            "pot": self.pot,
            "highest": self.highest,
            "seats": [dict(s) for s in self.seats],
            "legal": None,
        }

    def stack(self, seat: int) -> int | None:
        entry = self._by_seat.get(seat)
        return None if entry is None else int(entry["stack"])

    def _start(self, event: HandStarted) -> None:
        self.hand_id = event.hand_id
        self.street = Street.PRE_DRAW
        self.button = event.button
        self.highest = 0
        self._extra = event.carried_pot
        n = self.max_seats
        order = sorted(event.stacks, key=lambda pair: (pair[0] - event.button - 1) % n)
        self.seats = [
            {
                "seat": seat,
                "stack": stack,
                "wager": 0,
                "committed": 0,
                "folded": False,
                "all_in": False,
                "card_count": 0,
                "cards": [] if seat == self.seat else None,
                "drew": None,
                "penalized": False,
            }
            for seat, stack in order
        ]
        self._index()

    def _put(self, p: dict[str, Any], amount: int, all_in: bool) -> None:
        p["stack"] -= amount
        p["wager"] += amount
        p["committed"] += amount
        p["all_in"] = all_in or p["stack"] == 0

    def apply(self, event: Event, big_blind: int = 0) -> None:
        """One engine event this seat received (``big_blind``: the blind in force, for
        a short big blind, which still sets the amount to call: R8)."""
        if isinstance(event, HandStarted):
            self._start(event)
            return
        p = self._by_seat.get(getattr(event, "seat", 0) or 0)
        if isinstance(event, Posted):
            if p is None:
                return
            p["stack"] -= event.amount
            p["committed"] += event.amount
            if event.kind in _LIVE_POSTS:
                p["wager"] += event.amount
                if event.kind is PostKind.BIG_BLIND:
                    self.highest = max(self.highest, big_blind)
                self.highest = max(self.highest, p["wager"])
            p["all_in"] = event.all_in or p["stack"] == 0
        elif isinstance(event, CardsDealt):
            for seat in event.seats:
                if seat in self._by_seat:
                    self._by_seat[seat]["card_count"] = event.count
        elif isinstance(event, CardsReceived):
            if p is not None and event.seat == self.seat:
                p["cards"] = [*(p["cards"] or []), *format_cards(event.cards).split()]
                p["card_count"] = len(p["cards"])
        elif isinstance(event, DiscardedCards):
            if p is not None and event.seat == self.seat:
                thrown = set(format_cards(event.cards).split())
                p["cards"] = [c for c in p["cards"] or [] if c not in thrown]
                p["card_count"] = len(p["cards"])
        elif isinstance(event, Folded):
            if p is not None:
                p["folded"] = True
                p["card_count"] = 0
                if event.seat == self.seat:
                    p["cards"] = []
        elif isinstance(event, Called):
            if p is not None:
                self._put(p, event.amount, event.all_in)
        elif isinstance(event, BetPlaced | Raised):
            if p is not None:
                to = event.amount if isinstance(event, BetPlaced) else event.to
                self._put(p, to - p["wager"], event.all_in)
                self.highest = to
        elif isinstance(event, UncalledBetReturned):
            if p is not None:
                p["committed"] -= event.amount
                p["wager"] -= event.amount
                p["stack"] += event.amount
                p["all_in"] = False
        elif isinstance(event, BettingRoundEnded):
            for s in self.seats:
                s["wager"] = 0
            self.highest = 0
            self.street = Street.DRAW if event.street is Street.PRE_DRAW else Street.SHOWDOWN
        elif isinstance(event, StoodPat):
            if p is not None:
                p["drew"] = 0
        elif isinstance(event, Discarded):
            if p is not None:
                p["drew"] = event.count
                if event.seat != self.seat:
                    p["card_count"] -= event.count
        elif isinstance(event, CardsDelivered):
            if p is not None and event.seat != self.seat:
                p["card_count"] += event.count
        elif isinstance(event, TimedOut):
            if p is not None and event.penalized:
                p["penalized"] = True
        elif isinstance(event, HandShown):
            if p is not None:
                p["cards"] = format_cards(event.cards).split()
        elif isinstance(event, RakeTaken | PotCarried | PotAwarded):
            for s in self.seats:  # the pots are settled: nothing is left in the middle
                s["committed"] = 0
            self._extra = 0
            if isinstance(event, PotAwarded):
                for seat, chips in event.shares:
                    if seat in self._by_seat:
                        self._by_seat[seat]["stack"] += chips
        elif isinstance(event, HandEnded):
            for seat, stack in event.stacks:
                if seat in self._by_seat:
                    self._by_seat[seat]["stack"] = stack
            self.street = Street.OVER
