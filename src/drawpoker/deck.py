"""Deterministic, unbiased shuffles from a 256-bit seed.

The deck order is a pure function of the seed, documented so that anyone holding
the seed can re-derive every card dealt (``docs/fairness.md``):

1. The keystream is ``SHA-256(seed || counter)`` for counter = 0, 1, 2, ...
   (counter as 8 bytes, big-endian), the 32-byte blocks concatenated.
2. A number below ``n`` is drawn by taking the next 4 bytes of the keystream as
   a big-endian ``x`` and rejecting it while ``x >= 2**32 - 2**32 % n``; the
   result is ``x % n``. Rejection removes the modulo bias.
3. A list is shuffled by Fisher–Yates from the top: for ``i`` from
   ``len - 1`` down to 1, swap item ``i`` with item ``below(i + 1)``.
4. The first shuffle is of the 52 cards in index order (2c 2d 2h 2s 3c ... As);
   the top of the deck is the end of the list. Each reshuffle in the same hand
   shuffles the cards to be reshuffled, sorted by index, continuing the same
   keystream.

Production seeds come from ``secrets.token_bytes(32)``; nothing here uses the
global ``random`` module.
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from collections.abc import Collection, Iterable

from drawpoker import fairness
from drawpoker.cards import DECK, Card, format_cards, parse_card, parse_cards
from drawpoker.errors import InvalidDeck

SEED_BYTES = 32
_UINT32 = 1 << 32


def new_seed() -> bytes:
    """A fresh 256-bit seed from the operating system's CSPRNG."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """The commitment published before the deal: the root of the Merkle tree over
    the first deck in dealing order (``drawpoker.fairness``), hex."""
    return fairness.root(seed, 0, first_order(seed))


def first_order(seed: bytes) -> tuple[int, ...]:
    """The first deck of ``seed`` in dealing order (the first card dealt first)."""
    cards = list(range(52))
    Keystream(seed).shuffle(cards)
    return tuple(reversed(cards))


def check_seed(seed: bytes) -> bytes:
    if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
        raise InvalidDeck(f"a deck seed is {SEED_BYTES} bytes, not {seed!r}")
    return seed


class Keystream:
    """Uniform integers from ``SHA-256(seed || counter)`` blocks, read as big-endian
    32-bit words in order."""

    __slots__ = ("_counter", "_pos", "_seed", "_words")

    def __init__(self, seed: bytes) -> None:
        self._seed = check_seed(seed)
        self._counter = 0
        self._words: tuple[int, ...] = ()
        self._pos = 0

    def _refill(self, need: int = 1) -> None:
        """Keep the unread words and append whole blocks (8 words each) until at
        least ``need`` words are unread; a block's words never straddle a refill."""
        seed, counter = self._seed, self._counter
        left = self._words[self._pos :]
        blocks = max(1, -(-(need - len(left)) // 8))
        prefix = hashlib.sha256(seed)
        digests = []
        for i in range(counter, counter + blocks):
            block = prefix.copy()
            block.update(i.to_bytes(8, "big"))
            digests.append(block.digest())
        data = b"".join(digests)
        self._counter = counter + blocks
        self._words = left + _words_struct(blocks).unpack(data)
        self._pos = 0

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, ``1 <= n <= 2**32``."""
        limit = _UINT32 - _UINT32 % n
        while True:
            if self._pos == len(self._words):
                self._refill()
            x = self._words[self._pos]
            self._pos += 1
            if x < limit:
                return x % n

    def shuffle(self, items: list[int]) -> None:
        """Fisher–Yates in place, from the top of the list down.

        Fast path: the ``len - 1`` next words are read at once; a word is
        rejected only if ``x >= 2**32 - 2**32 % n`` (``2**32 % n < n <= len``),
        so when every word is below ``2**32 - len`` none is, and the draws are
        simply ``x % n``. Otherwise (about once in 10**7 decks) one draw at a time."""
        size = len(items)
        if size < 2:
            return
        draws = size - 1
        if len(self._words) - self._pos < draws:
            self._refill(draws)
        words, pos = self._words, self._pos
        if max(words[pos : pos + draws]) < _UINT32 - size:
            self._pos = pos + draws
            for i in range(draws, 0, -1):  # plain int arithmetic: compiled, a tight C loop
                j = words[pos] % (i + 1)
                pos += 1
                items[i], items[j] = items[j], items[i]
            return
        for i in range(draws, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


_STRUCTS: dict[int, struct.Struct] = {}


def _words_struct(blocks: int) -> struct.Struct:
    """Big-endian 32-bit words of ``blocks`` SHA-256 blocks."""
    unpacker = _STRUCTS.get(blocks)
    if unpacker is None:
        unpacker = _STRUCTS[blocks] = struct.Struct(f">{8 * blocks}I")
    return unpacker


class Deck:
    """The cards not yet dealt (the stub), dealt from the top.

    Built from a seed (``Deck.from_seed``) or from a script of the cards to deal
    (``Deck.stacked``, for tests and for replaying a history): the scripted cards
    come first, in order, and stay first after a reshuffle; dealing a scripted
    card that is not in the stub raises ``InvalidDeck``.
    """

    __slots__ = ("_cards", "_script", "_stream", "orders")

    def __init__(self, cards: list[int], stream: Keystream | None, script: list[int]) -> None:
        self._cards = cards  # top of the deck is the end of the list
        self._stream = stream
        self._script = script  # scripted cards still to deal, next first
        # Each deck of the hand (the first, then one per reshuffle) in dealing order,
        # the first card dealt first: what the commitments are made over.
        self.orders: list[tuple[int, ...]] = [tuple(reversed(cards))]

    @classmethod
    def from_seed(cls, seed: bytes) -> Deck:
        stream = Keystream(seed)
        cards = list(range(52))
        stream.shuffle(cards)
        return cls(cards, stream, [])

    @classmethod
    def stacked(cls, order: str | Iterable[int | str]) -> Deck:
        """A deck that deals ``order`` first (then the other cards, lowest index first).

        A card may appear twice in a script (dealt, discarded, reshuffled and
        dealt again), so the script is not checked for duplicates here."""
        script = [
            int(c) for c in (parse_cards(order) if isinstance(order, str) else _cards_of(order))
        ]
        deck = cls(list(range(51, -1, -1)), None, script)
        deck._arrange()
        deck.orders = [tuple(reversed(deck._cards))]
        return deck

    def _arrange(self) -> None:
        """Put the pending scripted cards that are in the stub on top, in script order."""
        present = set(self._cards)
        top: list[int] = []
        for card in self._script:
            if card in present:
                present.discard(card)
                top.append(card)
        rest = sorted(present, reverse=True)
        self._cards = rest + top[::-1]

    def __len__(self) -> int:
        return len(self._cards)

    def deal(self, n: int, skip: Collection[int] = ()) -> list[int]:
        """Take ``n`` cards from the top, in dealing order.

        Cards in ``skip`` (the served player's own discards) are passed over and
        stay in the stub, in their places."""
        cards = self._cards
        available = len(cards) - sum(1 for c in cards if c in skip) if skip else len(cards)
        if n > available:
            raise InvalidDeck(f"cannot deal {n} cards from a stub of {available}")
        if n <= 0:
            return []
        if skip:
            dealt: list[int] = []
            i = len(cards) - 1
            while len(dealt) < n:
                if cards[i] not in skip:
                    dealt.append(cards.pop(i))
                i -= 1
        else:
            dealt = cards[-n:]
            del cards[-n:]
            dealt.reverse()
        script = self._script
        if script:
            for card in dealt:
                if script and card != script[0]:
                    raise InvalidDeck(
                        f"the script deals {DECK[script[0]]} next, which is not in the stub"
                    )
                if script:
                    script.pop(0)
        return dealt

    def reshuffle(self, extra: Iterable[int]) -> None:
        """Shuffle the stub together with ``extra`` cards into a new stub."""
        cards = sorted([*self._cards, *extra])
        if self._stream is not None:
            self._stream.shuffle(cards)
            self._cards = cards
        else:
            self._cards = cards
            self._arrange()
        self.orders.append(tuple(reversed(self._cards)))

    def stub(self) -> list[int]:
        """The stub's card indexes, a new list, top of the deck last (server-only)."""
        return self._cards[:]

    def peek_all(self) -> tuple[Card, ...]:
        """The stub in dealing order (server-only information)."""
        return tuple(DECK[c] for c in reversed(self._cards))

    def __repr__(self) -> str:
        return f"Deck({len(self._cards)} cards: {format_cards(reversed(self._cards))})"


def _cards_of(order: Iterable[int | str]) -> list[int]:
    return [int(c) if isinstance(c, int) else int(parse_card(c)) for c in order]
