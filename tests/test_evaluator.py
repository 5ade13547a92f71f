from collections import Counter
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from drawpoker.cards import parse_cards
from drawpoker.evaluator import (
    CATEGORY_OF_STRENGTH,
    MAX_STRENGTH,
    VALUES,
    Category,
    evaluate,
    evaluate_many,
)


@pytest.fixture(scope="module")
def all_hands() -> np.ndarray:
    return np.array(list(combinations(range(52), 5)), dtype=np.uint8)


@pytest.fixture(scope="module")
def all_strengths(all_hands: np.ndarray) -> np.ndarray:
    return evaluate_many(all_hands)


def test_exhaustive_counts(all_strengths: np.ndarray) -> None:
    assert len(all_strengths) == 2_598_960
    assert len(np.unique(all_strengths)) == 7462
    assert all_strengths.min() == 1
    assert all_strengths.max() == MAX_STRENGTH
    categories = Counter(CATEGORY_OF_STRENGTH[all_strengths].tolist())
    assert categories == {
        Category.STRAIGHT_FLUSH: 40,
        Category.FOUR_OF_A_KIND: 624,
        Category.FULL_HOUSE: 3744,
        Category.FLUSH: 5108,
        Category.STRAIGHT: 10200,
        Category.THREE_OF_A_KIND: 54912,
        Category.TWO_PAIR: 123552,
        Category.PAIR: 1098240,
        Category.HIGH_CARD: 1302540,
    }
    assert int((all_strengths == MAX_STRENGTH).sum()) == 4  # royal flushes


@pytest.mark.slow
def test_scalar_matches_batch_on_every_hand(
    all_hands: np.ndarray, all_strengths: np.ndarray
) -> None:
    scalar = np.fromiter(
        (evaluate(h).strength for h in all_hands.tolist()), dtype=np.int16, count=len(all_hands)
    )
    assert np.array_equal(scalar, all_strengths)


@pytest.mark.slow
def test_order_identical_to_treys(all_hands: np.ndarray, all_strengths: np.ndarray) -> None:
    from treys import Card as TreysCard
    from treys import Evaluator

    treys_cards = [TreysCard.new(str(c)) for c in parse_cards(range(52))]
    five = Evaluator()._five
    ranks = np.fromiter(
        (five([treys_cards[c] for c in h]) for h in all_hands.tolist()),
        dtype=np.int16,
        count=len(all_hands),
    )
    # treys: 1 is the royal flush, 7462 the worst high card.
    assert np.array_equal(all_strengths, 7463 - ranks)


hands = st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True)


@given(hands, st.permutations(range(5)), st.permutations(range(4)))
def test_order_and_suits_never_matter(cards: list[int], order: list[int], suits: list[int]) -> None:
    value = evaluate(cards)
    assert evaluate([cards[i] for i in order]) == value
    relabelled = [(c & ~3) | suits[c & 3] for c in cards]
    assert evaluate(relabelled) == value


@pytest.mark.parametrize(
    ("hand", "strength", "description"),
    [
        ("Ah Kh Qh Jh Th", 7462, "a Royal Flush"),
        ("9s 8s 7s 6s 5s", 7457, "a straight flush, Five to Nine"),
        ("5d 4d 3d 2d Ad", 7453, "a straight flush, Ace to Five"),
        ("8c 8d 8h 8s Kd", None, "four of a kind, Eights"),
        ("Tc Td Th 4s 4d", None, "a full house, Tens full of Fours"),
        ("Jd 9d 7d 4d 2d", None, "a flush, Jack high"),
        ("9c Td Jh Qs Kc", None, "a straight, Nine to King"),
        ("Ac 2d 3h 4s 5c", 5854, "a straight, Ace to Five"),
        ("Ac Ad Ah 4s 5c", None, "three of a kind, Aces"),
        ("Kc Kd 7h 7s 2c", None, "two pair, Kings and Sevens"),
        ("Qc Qd 7h 5s 2c", None, "a pair of Queens"),
        ("2c 2d 7h 5s 9c", None, "a pair of Deuces"),
        ("Kc 9d 7h 5s 3c", None, "high card King"),
        ("7c 5d 4h 3s 2c", 1, "high card Seven"),
    ],
)
def test_descriptions(hand: str, strength: int | None, description: str) -> None:
    value = evaluate(parse_cards(hand))
    assert value.description == description
    if strength is not None:
        assert value.strength == strength


def test_wrap_around_is_not_a_straight() -> None:
    assert evaluate(parse_cards("Qc Kd Ah 2s 3c")).category is Category.HIGH_CARD


def test_kickers_count_and_equal_hands_split() -> None:
    assert evaluate(parse_cards("Ac Ad 9h 5s 3c")) > evaluate(parse_cards("As Ah 9d 5c 2c"))
    assert evaluate(parse_cards("Ac Ad 9h 5s 3c")) == evaluate(parse_cards("As Ah 9d 5c 3d"))


def test_values_table() -> None:
    assert [v.strength for v in VALUES[1:]] == list(range(1, 7463))
    assert VALUES[7462].label == "royal flush"
    assert VALUES[7461].label == "straight flush"
    assert VALUES[1].label == "high card"


def test_batch_rejects_wrong_shape() -> None:
    with pytest.raises(ValueError, match=r"\(N, 5\)"):
        evaluate_many(np.zeros((3, 4), dtype=np.uint8))
