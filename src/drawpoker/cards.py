"""Cards as small ints: ``rank * 4 + suit``, rank 0 (deuce) to 12 (ace), suit c d h s.

``Card`` is an ``int`` subclass, so the engine and evaluator index tables with it
directly; it prints as ``As``. Parsing accepts ``As``, ``ad``, ``Td``, ``10d``, with
or without spaces or commas between cards.
"""

from __future__ import annotations

from collections.abc import Iterable

from drawpoker.errors import InvalidCards

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
RANK_NAMES = (
    "Deuce",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
    "Ace",
)
RANK_PLURALS = tuple("Sixes" if name == "Six" else name + "s" for name in RANK_NAMES)


class Card(int):
    """One of the 52 cards; ``int(card)`` is ``rank * 4 + suit``."""

    __slots__ = ()

    def __new__(cls, value: int) -> Card:
        if not 0 <= value < 52:
            raise InvalidCards(f"card index {value} is outside 0-51")
        return _CARDS[value] if _CARDS else int.__new__(cls, value)

    @property
    def rank(self) -> int:
        return self >> 2

    @property
    def suit(self) -> int:
        return self & 3

    def __str__(self) -> str:
        return _NAMES[self]

    def __repr__(self) -> str:
        return f"Card('{_NAMES[self]}')"


_NAMES = tuple(r + s for r in RANK_CHARS for s in SUIT_CHARS)
_CARDS: tuple[Card, ...] = ()
_CARDS = tuple(Card(i) for i in range(52))
DECK: tuple[Card, ...] = _CARDS
"""All 52 cards in index order (2c 2d 2h 2s 3c ... As)."""

_RANK_OF = {ch: i for i, ch in enumerate(RANK_CHARS)} | {"t": 8, "j": 9, "q": 10, "k": 11, "a": 12}
_SUIT_OF = {ch: i for i, ch in enumerate(SUIT_CHARS)} | {"C": 0, "D": 1, "H": 2, "S": 3}


def parse_card(token: str) -> Card:
    """Parse one card: ``As``, ``ah``, ``Td``, ``10d``."""
    text = token.strip()
    rank_text, suit_text = text[:-1], text[-1:]
    rank = 8 if rank_text == "10" else _RANK_OF.get(rank_text, -1)
    suit = _SUIT_OF.get(suit_text, -1)
    if rank < 0 or suit < 0:
        raise InvalidCards(
            f"{token!r} is not a card (rank 2-9, T or 10, J, Q, K, A; suit c, d, h, s)"
        )
    return _CARDS[rank * 4 + suit]


def _tokens(text: str) -> list[str]:
    """Split ``"AsKd"``, ``"As Kd"``, ``"As,10d"`` into card tokens."""
    tokens: list[str] = []
    for chunk in text.replace(",", " ").split():
        i = 0
        while i < len(chunk):
            size = 3 if chunk.startswith("10", i) else 2
            tokens.append(chunk[i : i + size])
            i += size
    return tokens


def parse_cards(text: str | Iterable[str | int]) -> tuple[Card, ...]:
    """Parse several distinct cards from a string or an iterable of tokens or ints.

    A token that is not a card, or a card given twice, raises ``InvalidCards``
    naming the token.
    """
    items: Iterable[str | int] = _tokens(text) if isinstance(text, str) else text
    cards: list[Card] = []
    seen: set[int] = set()
    for item in items:
        if isinstance(item, int) and not isinstance(item, bool):
            card = Card(item)
        elif isinstance(item, str):
            card = parse_card(item)
        else:
            raise InvalidCards(f"{item!r} is not a card (a card is text like 'As' or 0-51)")
        if card in seen:
            raise InvalidCards(f"{str(item)!r} appears twice ({card} is already in the cards)")
        seen.add(card)
        cards.append(card)
    return tuple(cards)


def format_cards(cards: Iterable[int], sep: str = " ") -> str:
    """``[12*4+3, 11*4+1]`` -> ``"As Kd"``."""
    return sep.join(_NAMES[c] for c in cards)
