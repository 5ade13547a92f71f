"""PokerStars-style hand-history text, for one player or for the archive.

``write(hand, info, viewer=seat)`` is what that player may read: their own cards,
and other cards only as shown at the showdown. ``viewer=None`` is the archive:
every card, every discard. ``show_mucked=True`` also prints the cards of hands
mucked at the showdown in the summary, as PokerStars does in its own histories
(the room does not by default: a mucked hand stays private).

The grammar follows PokerStars' 5 Card Draw histories (``docs/hand-histories.md``)
where it matters to the trackers that import them: numeric hand and tournament
numbers (``hand_number``), the start time in UTC and in brackets in ET, a returning
player's dead small blind posted as PokerStars posts it. A few lines PokerStars
never needs are ours: the invito, a pot carried in or out (Italian preset), a
reshuffle, the openers and the requests to see them (R44, R48).
"""

from __future__ import annotations

import datetime as dt
import hashlib

from drawpoker.cards import format_cards
from drawpoker.events import (
    BetPlaced,
    Called,
    CardsDealt,
    CardsDelivered,
    CardsReceived,
    Checked,
    Discarded,
    DiscardedCards,
    Folded,
    HandShown,
    HandStarted,
    Mucked,
    OpenersDeclined,
    OpenersRequested,
    OpenersShown,
    PenaltyPaid,
    Posted,
    PostKind,
    PotAwarded,
    PotCarried,
    Raised,
    RakeTaken,
    Reshuffled,
    StoodPat,
    Street,
    TimedOut,
    UncalledBetReturned,
)
from drawpoker.hand import Hand
from drawpoker.history.info import HandInfo
from drawpoker.rules import Structure

LIMIT_NAMES = {
    Structure.FIXED_LIMIT: "Limit",
    Structure.POT_LIMIT: "Pot Limit",
    Structure.NO_LIMIT: "No Limit",
}
_POST_TEXT = {
    PostKind.SMALL_BLIND: "posts small blind",
    PostKind.BIG_BLIND: "posts big blind",
    # PokerStars writes a missed small blind posted on return as a small blind (it is
    # dead: posted after the big blind); with the big blind, "small & big blinds".
    PostKind.DEAD_SMALL_BLIND: "posts small blind",
    PostKind.ANTE: "posts the ante",
    PostKind.INVITO: "posts the invito",
}


def roman(n: int) -> str:
    out = ""
    for value, letters in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"),
                           (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"),
                           (4, "IV"), (1, "I")):  # fmt: skip
        while n >= value:
            out += letters
            n -= value
    return out


HAND_NUMBER_DIGITS = 18  # below 2**63: trackers keep hand numbers as 64-bit integers
TOURNAMENT_NUMBER_DIGITS = 10  # as long as PokerStars' own tournament numbers


def hand_number(room_id: str, digits: int = HAND_NUMBER_DIGITS) -> str:
    """The number a PokerStars header shows for a hand (or, with 10 ``digits``, a
    tournament) whose room id is ``room_id``.

    Trackers read only digits there (``Hand #153148513639:``). An id that is already
    a number (a PokerStars history read back) is kept; any other id (the room's
    ``table-42``) maps to the first ``digits`` decimal digits of the integer of the
    first 8 bytes of its SHA-256. Derived, not counted: the same hand gets the same
    number in every export and every process, offline conversions included, with
    nothing stored; with 18 digits two of a million hands share a number with a
    chance of about 1 in 2 million. The room's own id stays in the PHH (``hand``)."""
    if room_id.isdigit() and len(room_id) <= HAND_NUMBER_DIGITS:
        return room_id
    value = int.from_bytes(hashlib.sha256(room_id.encode()).digest()[:8], "big")
    return str(value % 10**digits)


def eastern(utc: dt.datetime) -> dt.datetime:
    """The US Eastern time (ET, PokerStars' reference clock) of a naive UTC time:
    EDT (UTC-4) from 2:00 on the second Sunday of March to 2:00 on the first Sunday
    of November, EST (UTC-5) otherwise (the rule since 2007). Computed, so that the
    engine reads no time-zone files."""

    def sunday_on_or_after(day: dt.datetime) -> dt.datetime:
        return day + dt.timedelta(days=(6 - day.weekday()) % 7)

    start = sunday_on_or_after(dt.datetime(utc.year, 3, 8)).replace(hour=7)  # 2:00 EST
    end = sunday_on_or_after(dt.datetime(utc.year, 11, 1)).replace(hour=6)  # 2:00 EDT
    return utc - dt.timedelta(hours=4 if start <= utc < end else 5)


def _clock(t: dt.datetime) -> str:
    return f"{t.year}/{t.month:02d}/{t.day:02d} {t.hour}:{t.minute:02d}:{t.second:02d}"


def _when(info: HandInfo) -> str:
    """The header's time as PokerStars prints it: ``2026/11/29 14:30:05 UTC
    [2026/11/29 9:30:05 ET]`` (trackers read the bracketed ET time). A time-zone
    aware ``time`` is converted; a naive one is UTC unless ``time_zone`` says
    otherwise (``ET``: printed once, as PokerStars prints it for ET players)."""
    if info.time_text:
        return info.time_text
    t = info.time
    if t is None:
        return ""
    zone = info.time_zone
    if t.tzinfo is not None:
        t = t.astimezone(dt.UTC).replace(tzinfo=None)
        zone = "UTC"
    if zone == "ET":
        return f"{_clock(t)} ET"
    if zone in ("", "UTC"):
        return f"{_clock(t)} UTC [{_clock(eastern(t))} ET]"
    return f"{_clock(t)} {zone}"


def header(hand: Hand, info: HandInfo) -> str:
    rules = hand.rules
    sym = info.currency_symbol
    if rules.is_italian:
        game = "5 Card Draw Italian Pot Limit"
        stakes = f"invito {sym}{rules.invito}"
    else:
        game = f"5 Card Draw {LIMIT_NAMES[rules.structure]}"
        low, high = (
            rules.bet_sizes if rules.is_fixed_limit else (rules.small_blind, rules.big_blind)
        )
        stakes = f"{sym}{low}/{sym}{high}"
    when = _when(info)
    tail = f" - {when}" if when else ""
    number = hand_number(hand.hand_id)
    if info.tournament is not None:
        t = info.tournament
        currency = f" {info.currency}" if info.currency else ""
        return (
            f"PokerStars Hand #{number}: Tournament #{tournament_number(t.id)}, "
            f"{t.buy_in}+{t.fee}{currency} {game} - Level {roman(t.level)} ({stakes}){tail}"
        )
    currency = f" {info.currency}" if info.currency else ""
    return f"PokerStars Hand #{number}:  {game} ({stakes}{currency}){tail}"


def tournament_number(room_id: str) -> str:
    """A tournament's number in the header: ``hand_number`` with 10 digits."""
    return hand_number(room_id, TOURNAMENT_NUMBER_DIGITS)


def table_line(hand: Hand, info: HandInfo) -> str:
    """``Table 'Ostia' 6-max Seat #1 is the button``; a tournament table is named by
    the tournament's number and the table, as PokerStars names them."""
    table = info.table or "drawpoker"
    if info.tournament is not None:
        table = f"{tournament_number(info.tournament.id)} {info.table or 1}"
    return f"Table '{table}' {hand.rules.max_seats}-max Seat #{hand.button} is the button"


class _Slots:
    """A player's five cards in the order a player sees them: new cards take the
    places of the discarded ones."""

    __slots__ = ("cards", "holes")

    def __init__(self, cards: tuple[int, ...]) -> None:
        self.cards: list[int | None] = list(cards)
        self.holes: list[int] = []

    def discard(self, cards: tuple[int, ...]) -> list[int]:
        thrown = set(cards)
        for i, card in enumerate(self.cards):
            if card in thrown:
                self.cards[i] = None
                self.holes.append(i)
        return [c for c in self.cards if c is not None]

    def receive(self, cards: tuple[int, ...]) -> None:
        for card in cards:
            self.cards[self.holes.pop(0)] = card

    def text(self) -> str:
        return format_cards(c for c in self.cards if c is not None)


def write(
    hand: Hand,
    info: HandInfo | None = None,
    *,
    viewer: int | None = None,
    show_mucked: bool = False,
) -> str:
    """The hand as PokerStars-style text; ``viewer``: a seat, or None for the archive."""
    info = info or HandInfo()
    sym = info.currency_symbol
    players = hand.players
    name = {p.seat: info.name(p.seat) for p in players}
    sees = (lambda seat: True) if viewer is None else (lambda seat: seat == viewer)
    events = hand.events
    started = events[0]
    assert isinstance(started, HandStarted)
    lines = [header(hand, info), table_line(hand, info)]
    for seat, stack in started.stacks:
        lines.append(f"Seat {seat}: {name[seat]} ({sym}{stack} in chips)")
    slots: dict[int, _Slots] = {}
    roles: dict[int, str] = {}
    folded: dict[int, Street] = {}
    shown: dict[int, tuple[str, str]] = {}  # seat -> (cards, description)
    mucked: set[int] = set()
    won: dict[int, int] = {}
    pots: list[PotAwarded] = []
    rake = 0
    carried = 0
    fine = 0  # R48: a false opener's penalty, carried but not this hand's pot
    bet: set[int] = set()  # seats that put chips in beyond antes and invitos
    street = Street.PRE_DRAW
    dealing_done = False
    posts = [e for e in events if type(e) is Posted]
    both = {
        e.seat
        for e in posts
        if e.kind is PostKind.BIG_BLIND
        and any(q.seat == e.seat and q.kind is PostKind.DEAD_SMALL_BLIND for q in posts)
    }
    for e in events:
        t = type(e)
        if t is Posted:
            assert isinstance(e, Posted)
            if e.kind is not PostKind.ANTE and e.kind is not PostKind.INVITO:
                bet.add(e.seat)
            allin = " and is all-in" if e.all_in else ""
            if e.kind is PostKind.SMALL_BLIND:
                roles[e.seat] = " (small blind)"
            elif e.kind is PostKind.BIG_BLIND and e.seat not in roles:
                roles[e.seat] = " (big blind)"
            if e.seat in both:
                if e.kind is PostKind.BIG_BLIND:
                    total = sum(q.amount for q in posts if q.seat == e.seat and q.kind in
                                (PostKind.BIG_BLIND, PostKind.DEAD_SMALL_BLIND))  # fmt: skip
                    lines.append(f"{name[e.seat]}: posts small & big blinds {sym}{total}{allin}")
                elif e.kind is PostKind.ANTE:
                    lines.append(f"{name[e.seat]}: posts the ante {sym}{e.amount}{allin}")
                continue
            lines.append(f"{name[e.seat]}: {_POST_TEXT[e.kind]} {sym}{e.amount}{allin}")
            continue
        if t is CardsReceived:
            assert isinstance(e, CardsReceived)
            if not dealing_done:
                slots[e.seat] = _Slots(e.cards)
                if sees(e.seat):
                    lines.append(f"Dealt to {name[e.seat]} [{format_cards(e.cards)}]")
                continue
            kept = slots[e.seat].text()
            slots[e.seat].receive(e.cards)
            if sees(e.seat):
                old = f"[{kept}] " if kept else ""  # all five thrown: the new cards alone
                lines.append(f"Dealt to {name[e.seat]} {old}[{format_cards(e.cards)}]")
            continue
        if t is CardsDealt:
            if started.carried_pot:
                lines.append(f"{sym}{started.carried_pot} carried over from the previous hand")
            lines.append("*** DEALING HANDS ***")
            continue
        if not dealing_done and t is not HandStarted:
            dealing_done = True
        if t is TimedOut:
            assert isinstance(e, TimedOut)
            lines.append(f"{name[e.seat]} has timed out")
            continue
        if t is Folded:
            assert isinstance(e, Folded)
            folded[e.seat] = street
            lines.append(f"{name[e.seat]}: folds")
        elif t is Checked:
            assert isinstance(e, Checked)
            lines.append(f"{name[e.seat]}: checks")
        elif t is Called:
            assert isinstance(e, Called)
            bet.add(e.seat)
            allin = " and is all-in" if e.all_in else ""
            lines.append(f"{name[e.seat]}: calls {sym}{e.amount}{allin}")
        elif t is BetPlaced:
            assert isinstance(e, BetPlaced)
            bet.add(e.seat)
            allin = " and is all-in" if e.all_in else ""
            lines.append(f"{name[e.seat]}: bets {sym}{e.amount}{allin}")
        elif t is Raised:
            assert isinstance(e, Raised)
            bet.add(e.seat)
            allin = " and is all-in" if e.all_in else ""
            lines.append(f"{name[e.seat]}: raises {sym}{e.increment} to {sym}{e.to}{allin}")
        elif t is UncalledBetReturned:
            assert isinstance(e, UncalledBetReturned)
            lines.append(f"Uncalled bet ({sym}{e.amount}) returned to {name[e.seat]}")
        elif t is StoodPat:
            assert isinstance(e, StoodPat)
            street = Street.DRAW
            lines.append(f"{name[e.seat]}: stands pat")
        elif t is Discarded:
            assert isinstance(e, Discarded)
            street = Street.DRAW
            if not sees(e.seat):
                plural = "s" if e.count > 1 else ""
                lines.append(f"{name[e.seat]}: discards {e.count} card{plural}")
        elif t is DiscardedCards:
            assert isinstance(e, DiscardedCards)
            slots[e.seat].discard(e.cards)
            if sees(e.seat):
                k = len(e.cards)
                plural = "s" if k > 1 else ""
                lines.append(f"{name[e.seat]}: discards {k} card{plural} [{format_cards(e.cards)}]")
        elif t is CardsDelivered:
            continue
        elif t is Reshuffled:
            assert isinstance(e, Reshuffled)
            lines.append(f"The stub and the discards are reshuffled ({e.size} cards)")
        elif t is OpenersShown:
            assert isinstance(e, OpenersShown)
            verdict = "" if e.valid else " (false openers)"
            lines.append(f"{name[e.seat]}: shows openers [{format_cards(e.cards)}]{verdict}")
        elif t is OpenersRequested:
            assert isinstance(e, OpenersRequested)
            lines.append(f"{name[e.seat]}: asks to see the openers")
        elif t is OpenersDeclined:
            assert isinstance(e, OpenersDeclined)
            lines.append(f"{name[e.seat]}: does not ask to see the openers")
        elif t is PenaltyPaid:
            assert isinstance(e, PenaltyPaid)
            fine += e.amount
            due = f" ({sym}{e.due} due)" if e.due != e.amount else ""
            lines.append(
                f"{name[e.seat]}: pays a penalty of {sym}{e.amount} for false openers{due}"
            )
        elif t is HandShown:
            assert isinstance(e, HandShown)
            if "*** SHOW DOWN ***" not in lines:
                lines.append("*** SHOW DOWN ***")
            cards = slots[e.seat].text()
            shown[e.seat] = (cards, e.description)
            lines.append(f"{name[e.seat]}: shows [{cards}] ({e.description})")
        elif t is Mucked:
            assert isinstance(e, Mucked)
            if "*** SHOW DOWN ***" not in lines:
                lines.append("*** SHOW DOWN ***")
            mucked.add(e.seat)
            lines.append(f"{name[e.seat]}: mucks hand")
        elif t is RakeTaken:
            assert isinstance(e, RakeTaken)
            rake = e.amount
        elif t is PotAwarded:
            assert isinstance(e, PotAwarded)
            pots.append(e)
            for seat, chips in e.shares:
                won[seat] = won.get(seat, 0) + chips
        elif t is PotCarried:
            assert isinstance(e, PotCarried)
            carried += e.amount
        if street is Street.DRAW and t in (Checked, BetPlaced, Folded, Called, Raised):
            street = Street.POST_DRAW
    _awards(lines, pots, name, sym, showdown=bool(shown))
    if carried:
        lines.append(f"{sym}{carried} stays on the table for the next hand")
    lines.append("*** SUMMARY ***")
    total = sum(p.amount for p in pots) + rake + carried - fine
    pot_text = f"Total pot {sym}{total}"
    if len(pots) > 1:
        pot_text += f" Main pot {sym}{pots[0].amount}."
        for p in pots[1:]:
            pot_text += f" Side pot-{p.index} {sym}{p.amount}."
    lines.append(f"{pot_text} | Rake {sym}{rake}")
    for seat, _ in started.stacks:
        tags = (" (button)" if seat == hand.button else "") + roles.get(seat, "")
        if seat in folded:
            where = "before" if folded[seat] is Street.PRE_DRAW else "after"
            quiet = " (didn't bet)" if seat not in bet and where == "before" else ""
            outcome = f" folded {where} the Draw{quiet}"
        elif seat in shown:
            cards, description = shown[seat]
            if won.get(seat):
                outcome = f" showed [{cards}] and won ({sym}{won[seat]}) with {description}"
            else:
                outcome = f" showed [{cards}] and lost with {description}"
        elif seat in mucked:
            visible = show_mucked or sees(seat)
            outcome = f" mucked [{slots[seat].text()}]" if visible else " mucked"
        elif won.get(seat):
            outcome = f" collected ({sym}{won[seat]})"
        else:
            outcome = ""
        lines.append(f"Seat {seat}: {name[seat]}{tags}{outcome}")
    return "\n".join(lines) + "\n"


def _awards(
    lines: list[str], pots: list[PotAwarded], name: dict[int, str], sym: str, showdown: bool
) -> None:
    for pot in reversed(pots):
        if len(pots) == 1:
            where = "pot"
        elif pot.index == 0:
            where = "main pot"
        else:
            where = f"side pot-{pot.index}"
        for seat, chips in pot.shares:
            lines.append(f"{name[seat]} collected {sym}{chips} from {where}")
    if pots and not showdown:
        for seat in dict.fromkeys(s for p in pots for s, _ in p.shares):
            lines.append(f"{name[seat]}: doesn't show hand")
