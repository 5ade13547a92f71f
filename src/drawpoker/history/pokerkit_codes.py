"""5-Card Draw for PokerKit: games and a ``HandHistory`` that knows N5CD, P5CD and F5CD.

PokerKit (a test and benchmark dependency, not needed at run time) has no 5-Card
Draw high. Its single-draw games only need a high hand type and, for fixed
limit, a small and a big bet; ``DrawHandHistory`` registers the codes so that
``DrawHandHistory.loads(text)`` reads the PHH drawpoker writes. Rake follows R36
(a percentage of everything paid out, rounded down, capped by players dealt in,
none without a draw, shared among the pots in proportion with the leftover on
the main pot); the fixed-limit cap follows R15 (one bet plus ``fl_max_raises``
raises, the big blind being the bet before the draw).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, cast

from pokerkit import (
    Automation,
    BettingStructure,
    Draw,
    HandHistory,
    Mode,
    Opening,
    Poker,
    StandardHighHand,
    State,
    Street,
)
from pokerkit import Deck as PkDeck
from pokerkit.hands import Hand as PkHand
from pokerkit.notation import parse_action
from pokerkit.state import Folding, StandingPatOrDiscarding

from drawpoker.pots import build_pots, rake_for, rake_pots


class FiveCardDraw(Draw):
    """One draw between two betting rounds, five cards, high hands."""

    deck: ClassVar[PkDeck] = PkDeck.STANDARD
    hand_types: ClassVar[tuple[type[PkHand], ...]] = (StandardHighHand,)
    hole_dealing_count: ClassVar[int] = 5
    max_completion_betting_or_raising_count: ClassVar[int | None] = None

    def __init__(
        self,
        automations: tuple[Automation, ...],
        ante_trimming_status: bool,
        raw_antes: Any,
        raw_blinds_or_straddles: Any,
        bets: tuple[int, int],
        caps: tuple[int | None, int | None],
        *,
        mode: Mode = Mode.CASH_GAME,
        divmod: Callable[[int, int], tuple[int, int]] = divmod,
        rake: Callable[[int, State], tuple[int, int]],
    ) -> None:
        super().__init__(
            automations,
            (
                Street(False, (False,) * 5, 0, False, Opening.POSITION, bets[0], caps[0]),
                Street(True, (), 0, True, Opening.POSITION, bets[1], caps[1]),
            ),
            ante_trimming_status,
            raw_antes,
            raw_blinds_or_straddles,
            0,
            mode=mode,
            divmod=divmod,
            rake=rake,
        )


class NoLimitFiveCardDraw(FiveCardDraw):
    betting_structure: ClassVar[BettingStructure] = BettingStructure.NO_LIMIT


class PotLimitFiveCardDraw(FiveCardDraw):
    betting_structure: ClassVar[BettingStructure] = BettingStructure.POT_LIMIT


class FixedLimitFiveCardDraw(FiveCardDraw):
    betting_structure: ClassVar[BettingStructure] = BettingStructure.FIXED_LIMIT


def _reached_draw(state: State) -> bool:
    return any(isinstance(op, StandingPatOrDiscarding) for op in state.operations)


@dataclass
class DrawHandHistory(HandHistory):
    """``pokerkit.HandHistory`` with the 5-Card Draw codes N5CD, P5CD and F5CD."""

    game_types: ClassVar[dict[str, type[Poker]]] = {
        **HandHistory.game_types,
        "N5CD": NoLimitFiveCardDraw,
        "P5CD": PotLimitFiveCardDraw,
        "F5CD": FixedLimitFiveCardDraw,
    }
    variants: ClassVar[dict[type[Poker], str]] = {v: k for k, v in game_types.items()}
    required_field_names: ClassVar[dict[str, tuple[str, ...]]] = {
        **HandHistory.required_field_names,
        "N5CD": HandHistory.required_field_names["NT"],
        "P5CD": HandHistory.required_field_names["NT"],
        "F5CD": HandHistory.required_field_names["FT"],
    }

    def _option(self, name: str, default: Any) -> Any:
        rules = self.user_defined_fields.get("_rules") or {}
        return rules.get(name, default)

    def _rake(self, amount: int, state: State) -> tuple[int, int]:
        """R36 as PokerKit asks for it, pot by pot: this pot's share of the hand's rake."""
        percent = Fraction(str(self._option("rake_percent", 0)))
        if not percent or not _reached_draw(state):
            return 0, amount
        cap = None
        for fewest, value in self._option("rake_caps", [[2, 1], [3, 2], [5, 3]]):
            if state.player_count >= fewest:
                cap = value
        # The engine's pots: everything put in, the uncalled excess returned (R20).
        put_in = [-payoff for payoff in state.payoffs]
        ranked = sorted(put_in, reverse=True)
        top = put_in.index(ranked[0])
        put_in[top] -= ranked[0] - ranked[1]
        folded = {op.player_index for op in state.operations if isinstance(op, Folding)}
        all_in = [put_in[i] == state.starting_stacks[i] for i in range(state.player_count)]
        ours = build_pots(put_in, [i not in folded for i in range(state.player_count)], all_in)
        total = sum(pot.amount for pot in ours)
        rake = rake_for(total, percent, cap)
        shares = rake_pots(ours, rake)
        # PokerKit's pots are runs of the engine's pots; the last one takes the rest.
        theirs = _pokerkit_pots(state)
        if amount not in theirs:
            return 0, amount
        # PokerKit asks pot by pot, main pot first, from ``State.pots``, whose list of
        # the pots formed so far tells which pot this is (two pots may be the same size).
        formed = sys._getframe(1).f_locals.get("pots")
        j = len(formed) if isinstance(formed, list) else theirs.index(amount)
        if j >= len(theirs) or theirs[j] != amount:
            j = theirs.index(amount)
        low = sum(theirs[:j])
        high = low + amount if j < len(theirs) - 1 else total
        share = 0
        start = 0
        for pot, cut in zip(ours, shares, strict=True):
            if low <= start < high:
                share += cut
            start += pot.amount
        return share, amount - share

    def create_game(self) -> Poker:
        automations = tuple(a for a in self.automations if a is not Automation.CARD_BURNING)
        if self.variant not in ("N5CD", "P5CD", "F5CD"):
            return super().create_game()
        raises = int(self._option("fl_max_raises", 3))
        lifted = bool(self._option("fl_cap_lifted_heads_up", True))
        game_type = cast(type[FiveCardDraw], self.game_types[self.variant])
        if self.variant == "F5CD":
            assert self.small_bet is not None
            assert self.big_bet is not None
            bets = (self.small_bet, self.big_bet)
            heads_up = len(self.starting_stacks) == 2 and lifted
            caps: tuple[int | None, int | None] = (None, None) if heads_up else (raises, raises + 1)
        else:
            assert self.min_bet is not None
            bets = (self.min_bet, self.min_bet)
            caps = (None, None)
        return game_type(
            automations,
            self.ante_trimming_status,
            self.antes,
            self.blinds_or_straddles or 0,
            bets,
            caps,
            mode=Mode.CASH_GAME,
            divmod=self.divmod,
            rake=self._rake,
        )


def _pokerkit_pots(state: State) -> list[int]:
    """The pots' sizes as ``State.pots`` forms them (main pot first), without raking."""
    n = state.player_count
    contributions = [-state.payoffs[i] - state.bets[i] for i in range(n)]
    pending = [-state.payoffs[i] for i in range(n)]
    amount = 0
    if not state.ante_trimming_status:
        for i in range(n):
            ante = state.get_effective_ante(i)
            amount += ante
            contributions[i] -= ante
            pending[i] -= ante
    previous = 0
    pots: list[tuple[int, tuple[int, ...]]] = []
    for level in sorted(set(contributions)):
        amount += sum(level - previous for c in contributions if c >= level)
        indices = tuple(i for i in range(n) if pending[i] >= level and state.statuses[i])
        while pots and pots[-1][1] == indices:
            amount += pots.pop()[0]
        if amount:
            pots.append((amount, indices))
        amount = 0
        previous = level
    return [a for a, _ in pots]


def _automate(state: State) -> bool:
    """One step PokerKit's loader does by itself; False when none applies."""
    if state.can_post_ante():
        state.post_ante()
    elif state.can_collect_bets():
        state.collect_bets()
    elif state.can_post_blind_or_straddle():
        state.post_blind_or_straddle()
    elif state.can_burn_card():
        state.burn_card("??")
    elif state.status and state.can_show_or_muck_hole_cards(()):
        state.show_or_muck_hole_cards(())
    elif state.can_kill_hand():
        state.kill_hand()
    elif state.can_push_chips():
        state.push_chips()
    elif state.can_pull_chips():
        state.pull_chips()
    else:
        return False
    return True


def play(history: HandHistory) -> State:
    """Replay ``history`` like ``HandHistory.__iter__`` but raise the action's own error
    (PokerKit's loader reports only 'Unable to repair the hand history')."""
    state = history.create_state()
    for i, action in enumerate(history.actions, 1):
        while True:
            try:
                parse_action(state, action, history.parse_value)
                break
            except ValueError as error:
                if not _automate(state):
                    raise ValueError(f"action {i} {action!r}: {error}") from None
    while _automate(state):
        pass
    return state
