"""drawpoker: an online 5-Card Draw poker room."""

from drawpoker import _native  # noqa: F401 - first: picks compiled or source engine modules
from drawpoker.cards import Card, format_cards, parse_card, parse_cards
from drawpoker.errors import (
    DrawPokerError,
    IllegalAction,
    InvalidAction,
    InvalidCards,
    InvalidConfig,
    InvalidDeck,
)
from drawpoker.evaluator import Category, HandValue, evaluate, evaluate_many

__version__ = "0.1.0"

__all__ = [
    "Card",
    "Category",
    "DrawPokerError",
    "HandValue",
    "IllegalAction",
    "InvalidAction",
    "InvalidCards",
    "InvalidConfig",
    "InvalidDeck",
    "__version__",
    "evaluate",
    "evaluate_many",
    "format_cards",
    "parse_card",
    "parse_cards",
]
