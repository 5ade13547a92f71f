"""The per-card commitment (docs/fairness.md): re-derived from the page, openings
verify and a tampered card, salt, path or position does not, and an opening says
nothing about the other cards."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drawpoker.cards import parse_card
from drawpoker.deck import Deck, commitment
from drawpoker.fairness import EntropyPool, Opening, contribution_digest, mix, open_cards, root

SEED = bytes(range(32))


def sha(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def documented_root(seed: bytes, deck: int, order: list[int]) -> str:
    """The root as docs/fairness.md defines it, without the module."""
    leaves = []
    for position, card in enumerate(order):
        salt = sha(b"drawpoker/salt" + seed + bytes([deck, position]))
        leaves.append(sha(bytes([0, deck, position, card]) + salt))
    size = 1
    while size < len(leaves):
        size *= 2
    level = leaves + [sha(b"\x02")] * (size - len(leaves))
    while len(level) > 1:
        level = [sha(b"\x01" + level[i] + level[i + 1]) for i in range(0, len(level), 2)]
    return level[0].hex()


def test_the_commitment_is_the_documented_root_of_the_dealing_order() -> None:
    order = Deck.from_seed(SEED).deal(52)
    assert commitment(SEED) == documented_root(SEED, 0, order)


def test_a_reshuffled_stub_is_committed_the_same_way() -> None:
    deck = Deck.from_seed(SEED)
    dealt = deck.deal(45)
    deck.reshuffle(dealt[:12])
    order = list(deck.orders[1])
    assert order == deck.deal(len(deck))
    assert root(SEED, 1, order) == documented_root(SEED, 1, order)


def test_openings_verify_and_tampering_fails() -> None:
    order = Deck.from_seed(SEED).deal(52)
    published = commitment(SEED)
    opened = open_cards(SEED, 0, order, [(1, 0), (1, 7), (2, 51)])
    assert [o.card for o in opened] == [order[0], order[7], order[51]]
    assert all(o.verifies(published) for o in opened)
    first = opened[0]
    other = next(c for c in range(52) if c != first.card)
    tampered = [
        Opening(first.seat, first.deck, first.position, other, first.salt, first.path),
        Opening(first.seat, first.deck, 1, first.card, first.salt, first.path),
        Opening(first.seat, 1, first.position, first.card, first.salt, first.path),
        Opening(first.seat, first.deck, first.position, first.card, "00" * 32, first.path),
        Opening(first.seat, first.deck, first.position, first.card, first.salt, first.path[:-1]),
        Opening(first.seat, first.deck, first.position, first.card, first.salt, ("zz",)),
        Opening(first.seat, first.deck, 64 + first.position, first.card, first.salt, first.path),
    ]
    for bad in tampered:
        assert not bad.verifies(published), bad
    # And it round-trips through the text form the histories carry.
    text = first.to_dict()
    assert text["card"] == str(parse_card(text["card"]))
    assert Opening.from_dict(text) == first


@settings(max_examples=60, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.integers(0, 51), st.integers(0, 51))
def test_any_opening_verifies_and_any_other_card_does_not(
    seed: bytes, position: int, swap: int
) -> None:
    order = Deck.from_seed(seed).deal(52)
    (opening,) = open_cards(seed, 0, order, [(3, position)])
    assert opening.verifies(commitment(seed))
    if order[swap] != opening.card:
        forged = Opening(3, 0, position, order[swap], opening.salt, opening.path)
        assert not forged.verifies(commitment(seed))


@settings(max_examples=40, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.integers(0, 51))
def test_an_opening_reveals_nothing_of_the_other_cards(seed: bytes, position: int) -> None:
    """Two decks that agree on the opened card, and differ everywhere else, give the
    same kind of opening: the siblings are salted hashes that no card can be
    guessed from (a guess at any other card, with any salt but the secret one,
    does not reproduce a sibling)."""
    order = Deck.from_seed(seed).deal(52)
    (opening,) = open_cards(seed, 0, order, [(1, position)])
    sibling = bytes.fromhex(opening.path[0])
    neighbour = position ^ 1
    guesses = {sha(bytes([0, 0, neighbour, card]) + bytes(32)) for card in range(52)}
    guesses |= {sha(bytes([0, 0, neighbour, card])) for card in range(52)}
    assert sibling not in guesses
    assert seed.hex() not in repr(opening.to_dict())


def test_players_entropy_is_mixed_into_the_seed_and_the_room_seed_is_committed_first() -> None:
    first, second = bytes(range(32)), bytes(range(1, 33))
    pool = EntropyPool(first)
    committed = pool.next_commitment
    assert committed == hashlib.sha256(first).hexdigest()
    pool.contribute(3, "my own random words")
    pool.contribute(9, "not dealt in")
    deal = pool.draw([1, 3], second)
    assert deal.commitment == committed
    assert deal.entropy == ((3, contribution_digest("my own random words")),)
    digest = hashlib.sha256(b"my own random words").digest()
    assert deal.seed == sha(b"drawpoker/deck-seed" + first + bytes([3]) + digest)
    assert deal.next_commitment == hashlib.sha256(second).hexdigest()
    assert pool.next_commitment == deal.next_commitment
    # Without contributions the room's seed is the deck seed; the texts were used up.
    assert pool.draw([1, 3], first).seed == second
    assert mix(first, []) == first
    with pytest.raises(ValueError, match="1 to 64"):
        pool.contribute(1, "x" * 65)


def test_a_simulation_may_skip_the_commitments() -> None:
    from drawpoker.events import HandStarted
    from drawpoker.hand import Hand
    from drawpoker.rules import Rules

    rules = Rules.online(structure="no-limit")
    committed = Hand(rules, {1: 100, 2: 100}, 1, seed=SEED)
    skipped = Hand(rules, {1: 100, 2: 100}, 1, seed=SEED, commit=False)
    first, second = committed.events[0], skipped.events[0]
    assert isinstance(first, HandStarted)
    assert isinstance(second, HandStarted)
    assert first.commitment == commitment(SEED)
    assert second.commitment == ""
    assert committed.cards(1) == skipped.cards(1)  # the same deal


@settings(max_examples=80, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.integers(1, 52), st.integers(0, 9))
def test_any_stub_is_committed_as_the_page_says(seed: bytes, size: int, deck: int) -> None:
    """Reshuffled stubs come in every size: the root (computed without hashing
    whole subtrees of padding) is the documented one, and every card opens."""
    order = Deck.from_seed(seed).deal(52)[:size]
    published = root(seed, deck, order)
    assert published == documented_root(seed, deck, order)
    for opening in open_cards(seed, deck, order, [(1, p) for p in range(size)]):
        assert opening.verifies(published)
