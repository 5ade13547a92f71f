"""drawpoker: an online 5-Card Draw poker room.

The names below are loaded on first use (PEP 562): ``import drawpoker`` (and so
every ``drawpoker`` command, ``--help`` and the terminal client's first screen)
does not pay for the evaluator's tables and numpy until a hand is evaluated.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from drawpoker import _native  # noqa: F401 - first: picks compiled or source engine modules

if TYPE_CHECKING:
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

_LAZY = {
    "Card": "drawpoker.cards",
    "format_cards": "drawpoker.cards",
    "parse_card": "drawpoker.cards",
    "parse_cards": "drawpoker.cards",
    "DrawPokerError": "drawpoker.errors",
    "IllegalAction": "drawpoker.errors",
    "InvalidAction": "drawpoker.errors",
    "InvalidCards": "drawpoker.errors",
    "InvalidConfig": "drawpoker.errors",
    "InvalidDeck": "drawpoker.errors",
    "Category": "drawpoker.evaluator",
    "HandValue": "drawpoker.evaluator",
    "evaluate": "drawpoker.evaluator",
    "evaluate_many": "drawpoker.evaluator",
}

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


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'drawpoker' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
