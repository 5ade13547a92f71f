"""Fair deals that keep folded and mucked hands private (``docs/fairness.md``).

Before the deal a hand publishes the root of a Merkle tree over its deck in
dealing order (``HandStarted.commitment``); every reshuffle publishes the root
of the new stub (``Reshuffled.commitment``) before a card is dealt from it.
Each leaf is salted, so opening one card (its salt and the hashes on its way to
the root) says nothing about any other card. After the hand each player gets
the openings of the cards they saw: their own, and the hands shown at the
table. The seed itself stays secret unless the table reveals it
(``reveal_seed``), because the seed rebuilds every card, folded hands included.

Definitions (all hashes SHA-256; ``deck`` is 0 for the first deck and ``k``
after the ``k``-th reshuffle; ``position`` 0 is the first card dealt from it;
both are one byte, a card is its index 0-51 as one byte):

- ``salt(seed, deck, position) = H("drawpoker/salt" || seed || deck || position)``
- ``leaf = H(0x00 || deck || position || card || salt)``
- ``node = H(0x01 || left || right)``; the leaves are padded with
  ``H(0x02)`` to a power of two; the root of a single leaf is the leaf.

Players may add entropy: the deck seed of a hand is the room's seed when nobody
contributed, else ``H("drawpoker/deck-seed" || server_seed || seat || H(text) ...)``
over the contributing seats in seat order (``mix``). The room commits to the
server seed of the next hand (``HandStarted.next_commitment``) before anyone
can contribute to it.

Pure: no clock, no global randomness; fresh seeds come in as arguments.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from drawpoker.cards import DECK, parse_card

_SALT_TAG = b"drawpoker/salt"
_SEED_TAG = b"drawpoker/deck-seed"
_EMPTY = hashlib.sha256(b"\x02").digest()
ENTROPY_MAX = 64  # characters of a player's contribution


def salt(seed: bytes, deck: int, position: int) -> bytes:
    return hashlib.sha256(_SALT_TAG + seed + bytes((deck, position))).digest()


def leaf(deck: int, position: int, card: int, salt_: bytes) -> bytes:
    return hashlib.sha256(bytes((0, deck, position, card)) + salt_).digest()


def _node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _levels(leaves: Sequence[bytes]) -> list[list[bytes]]:
    """The tree, leaves first (padded to a power of two), the root last."""
    size = 1
    while size < len(leaves):
        size *= 2
    level = [*leaves, *([_EMPTY] * (size - len(leaves)))]
    levels = [level]
    while len(level) > 1:
        level = [_node(level[i], level[i + 1]) for i in range(0, len(level), 2)]
        levels.append(level)
    return levels


def deck_leaves(seed: bytes, deck: int, order: Sequence[int]) -> list[bytes]:
    """The leaves of ``order`` (cards in dealing order, the first dealt first)."""
    return [leaf(deck, i, card, salt(seed, deck, i)) for i, card in enumerate(order)]


def root(seed: bytes, deck: int, order: Sequence[int]) -> str:
    """The commitment to a deck in dealing order, hex."""
    return _root_cached(seed, deck, tuple(order))


@lru_cache(maxsize=512)
def _root_cached(seed: bytes, deck: int, order: tuple[int, ...]) -> str:
    """The root as ``_levels`` makes it, faster (a room computes one per deck dealt):
    the hashes inlined, and a level of odd length paired with the padding's node
    of that height instead of hashing whole subtrees of padding."""
    if not order:
        return _EMPTY.hex()
    sha = hashlib.sha256
    tag = _SALT_TAG + seed
    level = [
        sha(bytes((0, deck, i, card)) + sha(tag + bytes((deck, i))).digest()).digest()
        for i, card in enumerate(order)
    ]
    height = 0
    while len(level) > 1:
        if len(level) & 1:
            level.append(_PADS[height])
        level = [sha(b"\x01" + level[i] + level[i + 1]).digest() for i in range(0, len(level), 2)]
        height += 1
    return level[0].hex()


def _pads(height: int) -> list[bytes]:
    pads = [_EMPTY]
    for _ in range(height):
        pads.append(_node(pads[-1], pads[-1]))
    return pads


_PADS = _pads(8)  # the node over 2**k padding leaves (decks hold at most 52 cards)


@dataclass(frozen=True, slots=True)
class Opening:
    """One card opened: where it lay (``deck``, ``position``), what it was, its salt
    and the sibling hashes from its leaf up to the root (hex). ``seat``: whose card
    it was (the viewer's own, or a hand shown at the table)."""

    seat: int
    deck: int
    position: int
    card: int
    salt: str
    path: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "deck": self.deck,
            "position": self.position,
            "card": str(DECK[self.card]),
            "salt": self.salt,
            "path": list(self.path),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Opening:
        card = data["card"]
        return cls(
            seat=int(data["seat"]),
            deck=int(data["deck"]),
            position=int(data["position"]),
            card=int(parse_card(card)) if isinstance(card, str) else int(card),
            salt=str(data["salt"]),
            path=tuple(str(h) for h in data["path"]),
        )

    def root(self) -> str:
        """The root this opening leads to (compare with the published commitment)."""
        h = leaf(self.deck, self.position, self.card, bytes.fromhex(self.salt))
        index = self.position
        for sibling in self.path:
            other = bytes.fromhex(sibling)
            h = _node(other, h) if index & 1 else _node(h, other)
            index >>= 1
        if index:
            return ""  # the position lies outside a tree of this height
        return h.hex()

    def verifies(self, commitment: str) -> bool:
        try:
            return self.root() == commitment
        except ValueError:  # a salt or a hash that is not hexadecimal
            return False


def open_cards(
    seed: bytes, deck: int, order: Sequence[int], wanted: Iterable[tuple[int, int]]
) -> list[Opening]:
    """Openings of the cards at ``wanted`` positions ((seat, position) pairs) of a deck."""
    levels = _levels(deck_leaves(seed, deck, order))
    out = []
    for seat, position in wanted:
        path = []
        index = position
        for level in levels[:-1]:
            path.append(level[index ^ 1].hex())
            index >>= 1
        out.append(
            Opening(
                seat, deck, position, order[position], salt(seed, deck, position).hex(), tuple(path)
            )
        )
    return out


# ------------------------------------------------------------------ entropy


def contribution_digest(text: str) -> str:
    """What a hand publishes of a player's contribution: its SHA-256, hex."""
    return hashlib.sha256(text.encode()).hexdigest()


def mix(server_seed: bytes, entropy: Iterable[tuple[int, str]]) -> bytes:
    """The deck seed from the room's seed and the players' contributions
    ((seat, SHA-256 hex of the text) pairs): the room's seed alone without any."""
    pairs = sorted(entropy)
    if not pairs:
        return server_seed
    data = _SEED_TAG + server_seed
    for seat, digest in pairs:
        data += bytes((seat,)) + bytes.fromhex(digest)
    return hashlib.sha256(data).digest()


def server_commitment(server_seed: bytes) -> str:
    return hashlib.sha256(server_seed).hexdigest()


@dataclass(frozen=True, slots=True)
class Deal:
    """How a hand's deck seed was made: the room's seed (secret), its commitment,
    the contributions mixed in and the commitment to the next hand's room seed."""

    server_seed: bytes
    entropy: tuple[tuple[int, str], ...]
    next_commitment: str

    @property
    def seed(self) -> bytes:
        return mix(self.server_seed, self.entropy)

    @property
    def commitment(self) -> str:
        return server_commitment(self.server_seed)


class EntropyPool:
    """The players' contributions to a table's next hand, and the room's seed for
    it, drawn (and committed to) one hand ahead."""

    __slots__ = ("_next", "_texts")

    def __init__(self, first_seed: bytes) -> None:
        self._next = first_seed
        self._texts: dict[int, str] = {}

    @property
    def next_commitment(self) -> str:
        """SHA-256 of the room's seed for the next hand (published before it)."""
        return server_commitment(self._next)

    def contribute(self, seat: int, text: str) -> None:
        """``seat``'s random text for the next hand (the latest one counts)."""
        if not 1 <= len(text) <= ENTROPY_MAX:
            raise ValueError(f"a contribution is 1 to {ENTROPY_MAX} characters")
        self._texts[seat] = text

    def forget(self) -> None:
        """Drop the contributions (the players at the seats changed)."""
        self._texts = {}

    def draw(self, seats: Iterable[int], fresh_seed: bytes) -> Deal:
        """The deal of a hand for ``seats``: the committed room seed mixed with their
        contributions; ``fresh_seed`` becomes the next hand's room seed."""
        dealt = set(seats)
        entropy = tuple(
            sorted((s, contribution_digest(t)) for s, t in self._texts.items() if s in dealt)
        )
        deal = Deal(self._next, entropy, server_commitment(fresh_seed))
        self._next = fresh_seed
        self._texts = {}
        return deal
