import hashlib
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drawpoker.cards import format_cards, parse_cards
from drawpoker.deck import Deck, Keystream, commitment, new_seed
from drawpoker.errors import InvalidDeck

SEED = bytes(range(32))


def test_same_seed_same_order_and_reshuffles() -> None:
    a, b = Deck.from_seed(SEED), Deck.from_seed(SEED)
    assert a.deal(30) == b.deal(30)
    a.reshuffle([0, 1, 2])
    b.reshuffle([2, 1, 0])
    assert a.deal(len(a)) == b.deal(len(b))


def test_different_seeds_differ() -> None:
    assert Deck.from_seed(SEED).deal(52) != Deck.from_seed(bytes(32)).deal(52)


def test_documented_algorithm_rederived_independently() -> None:
    """Re-derive the first shuffle from the documented recipe, not from the module."""
    stream = b"".join(hashlib.sha256(SEED + i.to_bytes(8, "big")).digest() for i in range(64))
    pos = 0

    def below(n: int) -> int:
        nonlocal pos
        limit = 2**32 - 2**32 % n
        while True:
            x = int.from_bytes(stream[pos : pos + 4], "big")
            pos += 4
            if x < limit:
                return x % n

    cards = list(range(52))
    for i in range(51, 0, -1):
        j = below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    assert Deck.from_seed(SEED).deal(52) == cards[::-1]


def test_deal_is_a_permutation() -> None:
    deck = Deck.from_seed(new_seed())
    dealt = deck.deal(52)
    assert sorted(dealt) == list(range(52))
    assert len(deck) == 0
    with pytest.raises(InvalidDeck, match="cannot deal 1 cards from a stub of 0"):
        deck.deal(1)


def test_reshuffle_keeps_exactly_the_given_cards() -> None:
    deck = Deck.from_seed(SEED)
    dealt = deck.deal(50)
    deck.reshuffle(dealt[:10])
    assert sorted(deck.deal(len(deck))) == sorted([*dealt[:10], *set(range(52)) - set(dealt)])


def test_stacked_deck_deals_in_order() -> None:
    deck = Deck.stacked("As Kd 2c")
    assert format_cards(deck.deal(2)) == "As Kd"
    assert format_cards(deck.deal(1)) == "2c"
    assert len(deck) == 49
    assert deck.peek_all()[0] == parse_cards("2d")[0]


def test_bad_seed() -> None:
    with pytest.raises(InvalidDeck, match="32 bytes"):
        Deck.from_seed(b"short")


def test_commitment_is_the_merkle_root_of_the_first_deck() -> None:
    """The commitment is no longer SHA-256 of the seed (which, once revealed,
    rebuilds every folded hand) but the root over the deck (docs/fairness.md;
    re-derived from the page in tests/test_fairness.py)."""
    assert commitment(SEED) != hashlib.sha256(SEED).hexdigest()
    assert len(commitment(SEED)) == 64
    deck = Deck.from_seed(SEED)
    assert deck.orders == [tuple(Deck.from_seed(SEED).deal(52))]


@given(st.integers(1, 60), st.binary(min_size=32, max_size=32))
def test_below_in_range(n: int, seed: bytes) -> None:
    stream = Keystream(seed)
    assert all(0 <= stream.below(n) < n for _ in range(20))


def test_unbiased_first_card() -> None:
    """Chi-square of the top card over 52,000 seeds (p ~ 0.001 cut-off, 51 d.f. ~ 87.97)."""
    counts = Counter(
        Deck.from_seed(hashlib.sha256(i.to_bytes(4, "big")).digest()).deal(1)[0]
        for i in range(52_000)
    )
    chi2 = sum((counts[c] - 1000) ** 2 / 1000 for c in range(52))
    assert chi2 < 87.97


def test_stacked_deck_keeps_its_script_across_a_reshuffle() -> None:
    deck = Deck.stacked("As Kd 2c Qh")
    assert format_cards(deck.deal(1)) == "As"
    deck.reshuffle(parse_cards("As"))
    assert format_cards(deck.deal(3)) == "Kd 2c Qh"
    assert len(deck) == 49


def test_script_replays_a_reshuffled_card() -> None:
    deck = Deck.stacked(["As", "Kd", "As"])
    assert format_cards(deck.deal(2)) == "As Kd"
    deck.reshuffle(parse_cards("As"))
    assert format_cards(deck.deal(1)) == "As"


def test_script_refuses_a_card_not_in_the_stub() -> None:
    deck = Deck.stacked(["As", "As"])
    deck.deal(1)
    with pytest.raises(InvalidDeck, match="deals As next, which is not in the stub"):
        deck.deal(1)


def test_shuffle_with_rejected_words_follows_the_recipe() -> None:
    """The shuffle's fast path reads ``len - 1`` words at once; words at the very
    top of the range are rejected, one draw at a time, as the recipe says."""
    words = [2**32 - 1, 7, 2**32 - 3, 2**32 - 10, *range(1_000, 1_100)]
    stream = Keystream(SEED)
    stream._words, stream._pos = tuple(words), 0
    items = list(range(12))
    stream.shuffle(items)
    pending = iter(words)

    def below(n: int) -> int:
        limit = 2**32 - 2**32 % n
        while (x := next(pending)) >= limit:
            pass
        return x % n

    expected = list(range(12))
    for i in range(11, 0, -1):
        j = below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert items == expected
    assert stream.below(1_000_000) == next(pending) % 1_000_000  # the stream continues


def test_reshuffle_continues_the_documented_keystream() -> None:
    """A reshuffle sorts its cards and shuffles them with the words after the first deck's."""
    stream = b"".join(hashlib.sha256(SEED + i.to_bytes(8, "big")).digest() for i in range(64))
    pos = 0

    def below(n: int) -> int:
        nonlocal pos
        limit = 2**32 - 2**32 % n
        while True:
            x = int.from_bytes(stream[pos : pos + 4], "big")
            pos += 4
            if x < limit:
                return x % n

    def shuffle(cards: list[int]) -> list[int]:
        for i in range(len(cards) - 1, 0, -1):
            j = below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return cards

    first = shuffle(list(range(52)))[::-1]  # dealing order
    deck = Deck.from_seed(SEED)
    assert deck.deal(45) == first[:45]
    thrown = first[:20]
    deck.reshuffle(thrown)
    expected = shuffle(sorted([*first[45:], *thrown]))[::-1]
    assert deck.deal(len(deck)) == expected
