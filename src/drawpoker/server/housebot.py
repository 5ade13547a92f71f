"""The server's own simple bot policy, used to fill seats until ``drawpoker.bots``
provides better ones. Same shape as the bots package: ``decide(view, legal,
events) -> Action``."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any, Protocol

from drawpoker.actions import Action, LegalActions
from drawpoker.bots.base import ask_for_openers
from drawpoker.cards import parse_cards
from drawpoker.evaluator import evaluate
from drawpoker.events import Event
from drawpoker.rules import Rules


class Policy(Protocol):
    def decide(self, view: dict[str, Any], legal: LegalActions, events: Sequence[Event]) -> Action:
        """The action to take now."""
        ...


class HouseBot:
    """Keeps pairs and better, draws to them; bets strong hands, calls medium ones."""

    def __init__(self, rules: Rules | None = None, rng: random.Random | None = None) -> None:
        self.rules = rules or Rules.italian()  # the table's (the openers, R48)
        self.rng = rng or random.Random()

    def decide(self, view: dict[str, Any], legal: LegalActions, events: Sequence[Event]) -> Action:
        seat = legal.seat
        if legal.ask_openers:  # R48: only when the opener's play looks suspicious
            return ask_for_openers(legal, events, self.rules, self.rng, curiosity=0.0)
        if legal.draw:
            cards = legal.hand
            counts = Counter(c >> 2 for c in cards)
            if evaluate(cards).category >= 4:  # straight or better: stand pat
                return Action.stand_pat(seat)
            keep = {c for c in cards if counts[c >> 2] >= 2}
            if not keep:
                keep = {max(cards, key=lambda c: c >> 2)}
            return Action.draw(seat, tuple(c for c in cards if c not in keep)[: legal.max_discard])
        hand = [s for s in view["seats"] if s["seat"] == seat]
        strength = 0
        if hand and hand[0]["cards"]:
            strength = evaluate(parse_cards(hand[0]["cards"])).category
        roll = self.rng.random()
        facing = legal.call > 0
        if legal.max_to and (
            (not facing and (strength >= 3 or roll < 0.1))
            or (facing and strength >= 4 and roll < 0.3)
        ):
            # Pot-sized (capped by the legal range): raising wars end quickly.
            return Action.bet(seat, min(legal.max_to, max(legal.min_to, 2 * view["pot"])))
        if legal.check:
            return Action.check(seat)
        if legal.call and (strength >= 2 or legal.call <= view["pot"] // 4 or roll < 0.5):
            return Action.call(seat)
        return Action.fold(seat) if legal.fold else Action.check(seat)
