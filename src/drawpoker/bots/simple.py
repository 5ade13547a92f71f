"""The weaker bots: random, calling station (loose-passive), tight-aggressive rules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from drawpoker.actions import Action, LegalActions
from drawpoker.bots.base import (
    Bot,
    ask_for_openers,
    bet_to,
    check_or_call,
    check_or_fold,
    hand_actions,
    read,
)
from drawpoker.bots.handlogic import has_openers, pair_rank, predraw_score, standard_discard
from drawpoker.evaluator import Category, evaluate
from drawpoker.events import Event, Street
from drawpoker.rules import OpenersCheck


def may_open(bot: Bot, legal: LegalActions, cards: Sequence[int]) -> bool:
    """Italian, before anyone opens: only with openers (R38). With
    ``openers_check="showdown"`` the engine would let anyone open, but a false
    opener can never win the pot (R44), so these bots never do."""
    rules = bot.rules
    if legal.bet_label != "open" or not rules.is_italian:
        return True
    # R48: a false opener pays a penalty if anyone asks; these bots open honestly.
    if rules.openers_check is OpenersCheck.SERVER:
        return True  # the engine offers the open only with openers
    return has_openers(cards, rules.openers_rank)


class RandomBot(Bot):
    """Picks uniformly among the kinds of legal action; random sizes and discards."""

    name = "random"
    description = "uniformly random legal actions"

    def decide(
        self, view: Mapping[str, Any], legal: LegalActions, events: Sequence[Event]
    ) -> Action:
        rng = self.rng
        seat = legal.seat
        if legal.ask_openers:  # R48
            return Action.ask_openers(seat) if rng.random() < 0.5 else Action.decline(seat)
        if legal.draw:
            k = rng.randint(0, legal.max_discard)
            return Action.draw(seat, tuple(rng.sample(list(legal.hand), k)))
        choices = ["passive"]
        if legal.fold and not legal.check:
            choices.append("fold")
        cards = read(view, legal, self.rules).cards
        if legal.max_to and may_open(self, legal, cards):
            choices.append("bet")
        choice = rng.choice(choices)
        if choice == "fold":
            return Action.fold(seat)
        if choice == "bet":
            # Sizes uniform in the legal range, but small ones more likely.
            span = legal.max_to - legal.min_to
            return Action.bet(seat, legal.min_to + int(span * rng.random() ** 3))
        return check_or_call(legal)


class CallingStation(Bot):
    """Loose-passive: checks or calls everything, never raises; opens the
    minimum with openers in the Italian game; draws by the book."""

    name = "calling-station"
    description = "calls everything, never raises"

    def decide(
        self, view: Mapping[str, Any], legal: LegalActions, events: Sequence[Event]
    ) -> Action:
        if legal.ask_openers:
            return Action.decline(legal.seat)  # R48: passive to the end
        if legal.draw:
            return Action.draw(legal.seat, standard_discard(legal.hand, legal.max_discard))
        if legal.bet_label == "open" and legal.max_to:
            cards = read(view, legal, self.rules).cards
            if may_open(self, legal, cards):
                return Action.bet(legal.seat, legal.min_to)
        return check_or_call(legal)


class TightAggressive(Bot):
    """Tight-aggressive by fixed rules: plays few hands and bets them hard.

    Before the draw: raise with Kings or better (Jacks late, any pair heads-up),
    re-raise with Aces-up or trips; call cheap draws; fold the rest. After:
    bet two pair or better (Aces against a three-card draw), call with a fair
    hand for the draw counts seen, raise with trips or better.
    """

    name = "tag"
    description = "tight-aggressive fixed rules"

    def decide(
        self, view: Mapping[str, Any], legal: LegalActions, events: Sequence[Event]
    ) -> Action:
        if legal.ask_openers:
            return ask_for_openers(legal, events, self.rules, self.rng)
        if legal.draw:
            return Action.draw(legal.seat, standard_discard(legal.hand, legal.max_discard))
        sit = read(view, legal, self.rules)
        acts = hand_actions(events)
        cards = sit.cards
        opponents = sit.opponents
        heads_up = len(opponents) == 1
        pot = sit.pot
        if sit.street is Street.PRE_DRAW:
            score = predraw_score(cards)
            raises = sum(acts.raises_pre.values())
            late = sit.me.position >= len(sit.seats) - 2
            if not may_open(self, legal, cards):
                return check_or_fold(legal)
            open_bar = 4.0 + (6 if heads_up else 9 if late else 11) / 13  # pair of 8s/Jacks/Kings
            if raises == 0 and score >= open_bar:
                return bet_to(legal, sit.highest + pot + legal.call)
            if raises >= 1 and score >= 8.0 + 12 / 13 - (1 if heads_up else 0):
                return bet_to(legal, sit.highest + pot + legal.call)
            call_bar = open_bar if raises else 4.0 + 5 / 13
            draw_hand = 4.3 <= score < 4.7 and legal.call * 4 <= pot
            if legal.check or score >= call_bar or draw_hand:
                return check_or_call(legal)
            return check_or_fold(legal)
        value = evaluate(cards)
        category = value.category
        fewest = min((o.drew for o in opponents if o.drew is not None), default=3)
        strong = category >= Category.TWO_PAIR or (
            category == Category.PAIR and pair_rank(cards) >= 12 and fewest >= 3
        )
        if category >= Category.THREE_OF_A_KIND and (fewest > 0 or category >= Category.FLUSH):
            return bet_to(legal, sit.highest + (2 * pot) // 3 + legal.call)
        if legal.check:
            if strong:
                return bet_to(legal, (2 * pot) // 3)
            return check_or_fold(legal)
        if strong or (
            category == Category.PAIR and pair_rank(cards) >= 9 and heads_up and fewest >= 2
        ):
            return check_or_call(legal)
        return check_or_fold(legal)
