import pytest
from hypothesis import given
from hypothesis import strategies as st

from drawpoker.actions import Action
from drawpoker.cards import DECK, Card, format_cards, parse_card, parse_cards
from drawpoker.errors import InvalidCards


def test_card_is_a_small_int() -> None:
    assert int(parse_card("2c")) == 0
    assert int(parse_card("As")) == 51
    assert parse_card("Kd").rank == 11
    assert parse_card("Kd").suit == 1


@pytest.mark.parametrize(
    ("token", "text"),
    [("As", "As"), ("ah", "Ah"), ("Td", "Td"), ("10d", "Td"), ("tD", "Td"), ("2C", "2c")],
)
def test_parse_card_spellings(token: str, text: str) -> None:
    assert str(parse_card(token)) == text


@pytest.mark.parametrize("text", ["AsKd", "As Kd", "As,Kd", " as  kd ", "AsKD"])
def test_parse_cards_with_or_without_spaces(text: str) -> None:
    assert format_cards(parse_cards(text)) == "As Kd"


def test_ten_as_two_digits_inside_a_run() -> None:
    assert format_cards(parse_cards("10dAs10h")) == "Td As Th"


@pytest.mark.parametrize("bad", ["1x", "Ax", "Zs", "A", "11s"])
def test_bad_token_is_named(bad: str) -> None:
    with pytest.raises(InvalidCards, match=repr(bad)):
        parse_card(bad)


def test_duplicate_names_the_token() -> None:
    with pytest.raises(InvalidCards, match="'As' appears twice"):
        parse_cards("As Kd As")
    with pytest.raises(InvalidCards, match="appears twice"):
        parse_cards("AsKdas")


def test_bad_index() -> None:
    with pytest.raises(InvalidCards, match="outside 0-51"):
        Card(52)


def test_invalid_cards_is_a_value_error() -> None:
    assert issubclass(InvalidCards, ValueError)


@given(st.integers(0, 51))
def test_round_trip(index: int) -> None:
    card = DECK[index]
    assert parse_card(str(card)) == card
    assert Card(index) is card
    assert repr(card) == f"Card('{card}')"


@pytest.mark.parametrize("bad", [True, 1.0, None, b"As"])
def test_a_token_that_is_neither_text_nor_an_index_is_refused(bad: object) -> None:
    with pytest.raises(InvalidCards, match="is not a card"):
        parse_cards([bad])  # type: ignore[list-item]


@pytest.mark.parametrize("cards", [(True,), (1.0,), (-1,), (52,), (3, 3), (None,)])
def test_a_draw_of_bad_card_indexes_is_refused(cards: tuple[object, ...]) -> None:
    with pytest.raises(InvalidCards):
        Action.draw(1, cards)  # type: ignore[arg-type]
    assert Action.draw(1, (0, 51)).cards == (DECK[0], DECK[51])
    assert type(Action.draw(1, (0,)).cards[0]) is Card
