"""5-Card Draw high built on PokerKit's ``Poker`` base, for differential tests.

PokerKit has no 5-Card Draw high; this class declares one: five hole cards,
a betting round, a draw (PokerKit burns a card first, and returns every
discard to its deck), a second betting round, standard high hands. ``burn=False`` draws without the
burn card (drawpoker's default rules burn none).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

from pokerkit import (
    Automation,
    BettingStructure,
    Deck,
    Mode,
    Opening,
    Poker,
    StandardHighHand,
    State,
    Street,
)

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
)

STRUCTURES = {
    "no-limit": BettingStructure.NO_LIMIT,
    "pot-limit": BettingStructure.POT_LIMIT,
    "fixed-limit": BettingStructure.FIXED_LIMIT,
}


class FiveCardDraw(Poker):
    deck = Deck.STANDARD
    hand_types = (StandardHighHand,)
    betting_structure = BettingStructure.NO_LIMIT

    def __init__(
        self,
        structure: str,
        blinds: Sequence[int],
        first_bet: int,
        second_bet: int,
        fl_max_raises: int = 3,
        *,
        burn: bool = True,
    ) -> None:
        fixed = structure == "fixed-limit"
        # PokerKit counts bets and raises per street; before the draw the big
        # blind is our bet, so the first street allows fl_max_raises more.
        streets = (
            Street(
                False, (False,) * 5, 0, False, Opening.POSITION, first_bet,
                fl_max_raises if fixed else None,
            ),
            Street(
                burn, (), 0, True, Opening.POSITION, second_bet,
                fl_max_raises + 1 if fixed else None,
            ),
        )  # fmt: skip
        self.betting_structure = STRUCTURES[structure]  # type: ignore[misc]
        super().__init__(AUTOMATIONS, streets, False, 0, tuple(blinds), 0, mode=Mode.CASH_GAME)

    def start(self, stacks: Sequence[int]) -> State:
        return self(tuple(stacks), len(stacks))


def quietly(function: object, *args: object) -> object:
    """Call a PokerKit operation, ignoring its warning about dealing a card it
    believes is not in its deck (it burns a card and returns discards)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return function(*args)  # type: ignore[operator]
