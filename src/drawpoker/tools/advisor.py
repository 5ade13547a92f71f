"""The discard advisor: the best draw for a hand and the table of every choice.

For the web client's optional hint (practice and play-money games) and the API:

    advice = advise("Jc Jd 8d 4d 2d")
    advice.best.label()        # 'keep Jc Jd, draw 3'
    advice.to_dict()           # JSON-ready, exact fractions

Answers are exact (``drawpoker.odds``) and cached by hand, dead cards and the
maximum discard, so a repeated request costs a dictionary look-up; a new hand
takes about 35 ms on one core.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from drawpoker.cards import Card, format_cards
from drawpoker.odds import DrawOption, DrawTable, check_hand


@dataclass(frozen=True, slots=True)
class Advice:
    hand: tuple[Card, ...]
    dead: tuple[Card, ...]
    options: tuple[DrawOption, ...]  # best first

    @property
    def best(self) -> DrawOption:
        return self.options[0]

    def to_dict(self, top: int | None = None) -> dict[str, Any]:
        options = self.options if top is None else self.options[:top]
        return {
            "hand": format_cards(self.hand),
            "dead": format_cards(self.dead),
            "best": {
                "discard": [str(c) for c in self.best.discard],
                "keep": [str(c) for c in self.best.keep],
                "label": self.best.label(),
            },
            "options": [option.to_dict() for option in options],
        }


def advise(
    hand: Iterable[int | str] | str,
    dead: Iterable[int | str] | str = (),
    *,
    max_discard: int = 5,
) -> Advice:
    """The best discard and every choice, best first. Raises ``InvalidCards`` on bad input."""
    cards, dead_cards = check_hand(hand, dead)
    return _advise(tuple(sorted(cards)), tuple(sorted(dead_cards)), max_discard)


@lru_cache(maxsize=4096)
def _advise(hand: tuple[Card, ...], dead: tuple[Card, ...], max_discard: int) -> Advice:
    return Advice(hand, dead, DrawTable(hand, dead).options(max_discard))


__all__ = ["Advice", "advise"]
