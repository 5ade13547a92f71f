"""What a player may see of a finished hand's deck: the openings of their cards.

A player saw their own cards (the deal and every replacement) and the hands
shown at the table (``HandShown``, and an opener's five cards, ``OpenersShown``).
``openings_for`` opens exactly those cards in the committed decks
(``drawpoker.fairness``), and nothing else: a folded or mucked hand is never
opened for anyone but its owner.
"""

from __future__ import annotations

from drawpoker.events import CardsReceived, HandShown, OpenersShown, Reshuffled
from drawpoker.fairness import Opening, open_cards
from drawpoker.hand import Hand


def seen_positions(hand: Hand, viewer: int) -> dict[int, list[tuple[int, int]]]:
    """For each deck of the hand (0, then one per reshuffle), the (seat, position)
    of every card ``viewer`` saw, in the order they were dealt."""
    orders = hand.deck.orders
    deck = 0
    first: dict[tuple[int, int], tuple[int, int]] = {}  # (seat, card) -> first (deck, pos)
    last: dict[tuple[int, int], tuple[int, int]] = {}  # (seat, card) -> latest (deck, pos)
    seen: dict[tuple[int, int], int] = {}  # (deck, position) -> seat, insertion-ordered
    for e in hand.events:
        kind = type(e)
        if kind is Reshuffled:
            deck += 1
        elif kind is CardsReceived:
            assert isinstance(e, CardsReceived)
            order = orders[deck]
            for card in e.cards:
                where = (deck, order.index(card))
                first.setdefault((e.seat, card), where)
                last[(e.seat, card)] = where
                if e.seat == viewer:
                    seen[where] = e.seat
        elif kind is HandShown or kind is OpenersShown:
            assert isinstance(e, (HandShown, OpenersShown))
            source = first if kind is OpenersShown else last
            for card in e.cards:
                found = source.get((e.seat, card))
                if found is not None:
                    seen.setdefault(found, e.seat)
    out: dict[int, list[tuple[int, int]]] = {}
    for (d, position), seat in seen.items():
        out.setdefault(d, []).append((seat, position))
    return out


def openings_for(hand: Hand, viewer: int) -> list[Opening]:
    """The openings of every card ``viewer`` saw, deck by deck in dealing order
    (none for a hand dealt from a stacked deck, which has no commitment)."""
    seed = hand.seed
    if seed is None:
        return []
    out: list[Opening] = []
    orders = hand.deck.orders
    for deck, wanted in sorted(seen_positions(hand, viewer).items()):
        out += open_cards(seed, deck, orders[deck], sorted(wanted, key=lambda w: w[1]))
    return out
