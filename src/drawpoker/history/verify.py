"""Provably fair deals: check a history against its deck commitments.

Before the deal a hand publishes the root of a Merkle tree over its deck in
dealing order (``_commitment``), and each reshuffle the root of its new stub
(``_deck_commitments``); see ``docs/fairness.md``. Two kinds of file verify:

- **a player's history** (what the room's downloads give): ``_openings`` opens
  every card that player saw, their own and the hands shown at the table.
  ``verify`` checks each opening against the root of its deck, that the opened
  cards are the ones the history names, and that each lies where the public
  course of the deal puts it (the first deal one card at a time from left of
  the button, each replacement from the top of the stub);
- **a player's JSON history** (``GET /api/hands/{hand}``): the same, with each
  card's place followed exactly through the public events (``verify_events``);
- **an archive** (the seed revealed, ``_seed``: offline play, a table that
  reveals its seeds): the root is re-derived from the seed, then the hand is
  replayed dealing from the seed, so that every card the history names, the
  first deal and every replacement, reshuffles included, is re-derived and
  compared; the first disagreement is reported with the action's index and text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from drawpoker.cards import DECK, parse_cards
from drawpoker.deck import commitment as deck_commitment
from drawpoker.deck import first_order
from drawpoker.errors import DrawPokerError
from drawpoker.events import CardsReceived, Reshuffled
from drawpoker.fairness import Opening, salt
from drawpoker.history.phh import HistoryError
from drawpoker.history.replay import replay


@dataclass(slots=True)
class Verdict:
    """What ``verify`` found for one hand: ``ok`` when nothing disagrees."""

    number: int
    problems: list[str] = field(default_factory=list)
    cards: int = 0  # cards re-derived from the seed
    reshuffles: int = 0
    opened: int = 0  # cards opened against the commitments (a player's history)

    @property
    def ok(self) -> bool:
        return not self.problems

    def describe(self) -> str:
        if not self.ok:
            return "\n".join(self.problems)
        extra = f", {self.reshuffles} reshuffle" + ("s" if self.reshuffles != 1 else "")
        if self.cards:
            return (
                f"hand {self.number}: fair: the seed matches the commitment and deals all "
                f"{self.cards} cards of the history{extra if self.reshuffles else ''}"
            )
        return (
            f"hand {self.number}: fair for what you saw: {self.opened} cards opened against "
            "the commitments published before they were dealt, each where the deal puts it"
        )


def verify(data: dict[str, Any], *, number: int = 1, source: str = "") -> Verdict:
    """A PHH hand (a player's, or an archive) or a player's JSON history."""
    if "events" in data and "actions" not in data:
        return verify_events(data, number=number, source=source)
    verdict = Verdict(number)
    where = f"{source}: hand {number}" if source else f"hand {number}"
    commitment = data.get("_commitment")
    seed_hex = data.get("_seed")
    openings = data.get("_openings")
    if not commitment:
        verdict.problems = [f"{where}: no deck commitment (_commitment): nothing to verify"]
        return verdict
    if not seed_hex and not openings:
        verdict.problems = [
            f"{where}: neither openings (_openings) nor the seed (_seed): "
            "the hand may be unfinished, or the file is not a player's history"
        ]
        return verdict
    if openings:
        _check_openings(data, verdict, where)
    if seed_hex and verdict.ok:
        _check_seed(data, str(seed_hex), verdict, where, source)
    return verdict


def _check_seed(
    data: dict[str, Any], seed_hex: str, verdict: Verdict, where: str, source: str
) -> None:
    commitment = data.get("_commitment")
    try:
        seed = bytes.fromhex(seed_hex)
        root = deck_commitment(seed)
    except (ValueError, DrawPokerError):
        verdict.problems = [f"{where}: _seed {seed_hex!r} is not a 32-byte hexadecimal seed"]
        return
    if root != commitment:
        verdict.problems.append(
            f"{where}: the seed does not match the commitment: the seed's deck has the "
            f"root {root}, the hand committed to {commitment}"
        )
        return
    if data.get("_openings"):
        # A player's history at a table that reveals seeds: the other hands are
        # ``??`` here, so check the seed against what the player saw.
        order = first_order(seed)
        for o in map(Opening.from_dict, data["_openings"]):
            if o.salt != salt(seed, o.deck, o.position).hex() or (
                o.deck == 0 and order[o.position] != o.card
            ):
                verdict.problems.append(
                    f"{where}: the seed does not deal seat {o.seat}'s {DECK[o.card]} at "
                    f"deck {o.deck} position {o.position}"
                )
            verdict.cards += 1
        return
    try:
        replayed = replay(data, source=source, number=verdict.number, use_seed=True)
    except HistoryError as error:
        verdict.problems.append(str(error))
        return
    events = replayed.hand.events
    verdict.cards = sum(len(e.cards) for e in events if isinstance(e, CardsReceived))
    roots = [e.commitment for e in events if isinstance(e, Reshuffled)]
    verdict.reshuffles = len(roots)
    published = data.get("_deck_commitments")
    if published is not None and list(published) != roots:
        verdict.problems.append(
            f"{where}: the reshuffles' commitments {published} are not those of the seed's "
            f"reshuffled decks {roots}"
        )
    named = 0
    for text in data.get("actions") or []:
        words = str(text).split("#", 1)[0].split()
        if len(words) == 4 and words[:2] == ["d", "dh"]:
            named += len(words[3]) // 2
    if named != verdict.cards:
        verdict.problems.append(
            f"{where}: the seed deals {verdict.cards} cards, the history names {named}"
        )


def _cards(text: str) -> list[int | None]:
    """Cards of an action, ``None`` for ``??``."""
    out: list[int | None] = []
    for i in range(0, len(text), 2):
        pair = text[i : i + 2]
        out.append(None if pair == "??" else int(parse_cards(pair)[0]))
    return out


def _check_openings(data: dict[str, Any], verdict: Verdict, where: str) -> None:
    """A player's history: every opening leads to its deck's root, the opened cards
    are those the history shows, each at a place the public deal gives its seat."""
    problems = verdict.problems
    roots = [str(data["_commitment"]), *map(str, data.get("_deck_commitments") or [])]
    seats = [int(s) for s in data.get("seats") or []]
    n = len(seats)
    seat_of = {f"p{i}": seat for i, seat in enumerate(seats, 1)}
    try:
        openings = [Opening.from_dict(o) for o in data["_openings"]]
    except (KeyError, TypeError, ValueError, DrawPokerError) as error:
        problems.append(f"{where}: an opening is malformed: {error}")
        return
    # Where the deal put each seat's cards: (deck, position) slots, and the exact
    # slot of every card the history names.
    rules = data.get("_rules") or {}
    reshuffled = any(str(a).startswith("# reshuffle") for a in data.get("actions") or [])
    slots: dict[int, set[tuple[int, int]]] = {seat: set() for seat in seats}
    exact: dict[tuple[int, int], tuple[int, int]] = {}
    named: set[tuple[int, int]] = set()  # (seat, card) the history shows
    deals = 0
    cursor = 5 * n + (1 if rules.get("burn_cards") else 0)
    for text in data.get("actions") or []:
        words = str(text).split()
        if words[:2] == ["d", "dh"] and len(words) == 4 and words[2] in seat_of:
            seat = seat_of[words[2]]
            cards = _cards(words[3])
            if deals < n:
                index = seats.index(seat)
                places: list[tuple[int, int] | None] = [
                    (0, index + j * n) for j in range(len(cards))
                ]
                deals += 1
            elif not reshuffled:
                places = [(0, cursor + j) for j in range(len(cards))]
                cursor += len(cards)
            else:
                places = [None] * len(cards)  # after a reshuffle: checked against the roots
            for card, place in zip(cards, places, strict=True):
                if place is not None:
                    slots[seat].add(place)
                if card is not None:
                    named.add((seat, card))
                    if place is not None:
                        exact[(seat, card)] = place
        elif len(words) == 3 and words[1] == "sm" and words[0] in seat_of:
            for card in _cards(words[2]):
                if card is not None:
                    named.add((seat_of[words[0]], card))
        elif words[:2] == ["#", "openers"] and len(words) >= 4 and words[2] in seat_of:
            for card in _cards(words[3]):
                if card is not None:
                    named.add((seat_of[words[2]], card))
    _match_openings(
        openings,
        roots,
        _Shown(named, exact, slots),
        lambda o: o.deck == 0 and (o.position < 5 * n or not reshuffled),
        f"{where}: ",
        problems,
    )
    verdict.opened = len(openings)
    verdict.reshuffles = len(roots) - 1


def verify_events(data: dict[str, Any], *, number: int = 1, source: str = "") -> Verdict:
    """A player's JSON history (``GET /api/hands/{hand}``: ``events``, ``openings``,
    ``commitment``): the openings checked against the commitments the events
    published, and each card's place followed through the public events exactly
    (the deal, burns, every delivery and reshuffle)."""
    verdict = Verdict(number)
    where = f"{source}: hand {number}" if source else f"hand {number}"
    problems = verdict.problems
    events = [e for e in data.get("events") or [] if isinstance(e, dict)]
    started = next((e for e in events if e.get("type") == "HandStarted"), None)
    commitment = str(data.get("commitment") or (started or {}).get("commitment") or "")
    if not commitment:
        problems.append(f"{where}: no deck commitment: nothing to verify")
        return verdict
    if started is not None and started.get("commitment") not in (None, commitment):
        problems.append(f"{where}: the commitment is not the one the hand published")
    try:
        openings = [Opening.from_dict(o) for o in data.get("openings") or []]
    except (KeyError, TypeError, ValueError, DrawPokerError) as error:
        problems.append(f"{where}: an opening is malformed: {error}")
        return verdict
    if not openings:
        problems.append(f"{where}: no openings: the hand may be unfinished")
        return verdict
    roots = [commitment]
    slots: dict[int, set[tuple[int, int]]] = {}  # seat -> its (deck, position)s
    exact: dict[tuple[int, int], tuple[int, int]] = {}  # (seat, card) seen -> place
    named: set[tuple[int, int]] = set()
    loose: set[int] = set()  # decks where a deferred delivery may have passed cards over
    deck = cursor = 0
    pending: list[tuple[int, int] | None] = []  # the places of the next CardsReceived
    dealt_seats: list[int] = []
    try:
        for e in events:
            kind = e.get("type")
            if kind == "CardsDealt":
                dealt_seats = [int(s) for s in e["seats"]]
                n, count = len(dealt_seats), int(e["count"])
                for i, seat in enumerate(dealt_seats):
                    slots.setdefault(seat, set()).update((deck, i + j * n) for j in range(count))
                cursor = n * count
            elif kind == "CardBurned":
                cursor += 1
            elif kind == "Reshuffled":
                published = data.get("deck_commitments") or []
                given = published[len(roots) - 1] if len(roots) - 1 < len(published) else ""
                roots.append(str(e.get("commitment") or given))
                deck, cursor = deck + 1, 0
            elif kind == "CardsDelivered":
                seat, count = int(e["seat"]), int(e["count"])
                if e.get("deferred") and deck > 0:
                    loose.add(deck)  # R23/R24: own discards may be passed over
                places = [(deck, cursor + j) for j in range(count)]
                cursor += count
                if deck in loose:
                    pending = [None] * count
                else:
                    pending = list(places)
                    slots.setdefault(seat, set()).update(places)
            elif kind == "CardsReceived":
                seat = int(e["seat"])
                cards = [int(parse_cards(c)[0]) for c in e["cards"]]
                if not pending:  # the first deal: one card at a time around the table
                    i, n = dealt_seats.index(seat), len(dealt_seats)
                    pending = [(0, i + j * n) for j in range(len(cards))]
                for card, place in zip(cards, pending, strict=False):
                    named.add((seat, card))
                    if place is not None:
                        exact[(seat, card)] = place
                pending = []
            elif kind in ("HandShown", "OpenersShown"):
                seat = int(e["seat"])
                named.update((seat, int(parse_cards(c)[0])) for c in e["cards"])
    except (KeyError, TypeError, ValueError, DrawPokerError) as error:
        problems.append(f"{where}: the events are malformed: {error}")
        return verdict
    _match_openings(
        openings,
        roots,
        _Shown(named, exact, slots),
        lambda o: o.deck not in loose,
        f"{where}: ",
        problems,
    )
    verdict.opened = len(openings)
    verdict.reshuffles = len(roots) - 1
    return verdict


@dataclass(slots=True)
class _Shown:
    """What a history shows a player: the (seat, card)s named, the place of each
    whose place the public deal fixes, and each seat's dealt places."""

    named: set[tuple[int, int]]
    exact: dict[tuple[int, int], tuple[int, int]]
    slots: dict[int, set[tuple[int, int]]]


def _match_openings(
    openings: list[Opening],
    roots: list[str],
    shown: _Shown,
    dealt_here: Callable[[Opening], bool],
    where: str,
    problems: list[str],
) -> None:
    """Each opening against its deck's root and against what the history shows;
    every card named must be opened. ``dealt_here``: whether an opening's place
    must be one of its seat's dealt places (where the public deal fixes them)."""
    opened: set[tuple[int, int]] = set()
    places_seen: set[tuple[int, int]] = set()
    for o in openings:
        text = f"seat {o.seat}'s {DECK[o.card]} at deck {o.deck} position {o.position}"
        if not 0 <= o.deck < len(roots):
            problems.append(f"{where}{text}: the hand published no deck {o.deck}")
            continue
        if not o.verifies(roots[o.deck]):
            problems.append(f"{where}{text} does not match the commitment {roots[o.deck]}")
            continue
        if (o.deck, o.position) in places_seen:
            problems.append(f"{where}{text} is opened twice")
        places_seen.add((o.deck, o.position))
        key = (o.seat, o.card)
        if key not in shown.named:
            problems.append(f"{where}{text} opens a card the history does not show")
        want = shown.exact.get(key)
        if want is not None and want != (o.deck, o.position):
            problems.append(
                f"{where}{text}: the deal puts that card at deck {want[0]} position {want[1]}"
            )
        elif (
            want is None
            and dealt_here(o)
            and (o.deck, o.position) not in shown.slots.get(o.seat, set())
        ):
            problems.append(f"{where}{text} was not dealt to seat {o.seat}")
        opened.add(key)
    for seat, card in sorted(shown.named - opened):
        problems.append(f"{where}seat {seat}'s {DECK[card]} is not opened")
