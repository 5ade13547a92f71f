"""Shared helpers for engine tests: hands from scripts, random legal play, invariants."""

from __future__ import annotations

from collections.abc import Iterable

from drawpoker.actions import Action, ActionKind, LegalActions
from drawpoker.deck import Deck
from drawpoker.events import Event
from drawpoker.hand import Hand
from drawpoker.rules import Rules
from drawpoker.tools.simulate import random_action

FL = Rules.online(structure="fixed-limit", small_blind=1, big_blind=2, max_seats=8)
NL = Rules.online(structure="no-limit", small_blind=1, big_blind=2, max_seats=8)
PL = Rules.online(structure="pot-limit", small_blind=1, big_blind=2, max_seats=8)


def six(rules: Rules = FL, stacks: int | dict[int, int] = 200, **kwargs: object) -> Hand:
    """Six players in seats 1-6, button on seat 1 (as in RULES.md's examples)."""
    chips = stacks if isinstance(stacks, dict) else dict.fromkeys(range(1, 7), stacks)
    kwargs.setdefault("seed", bytes(32))
    return Hand(rules, chips, 1, **kwargs)  # type: ignore[arg-type]


def play(hand: Hand, script: str) -> list[Event]:
    """Apply ``"4 r 4, 5 c, 6 f, 2 d AsKd, 3 p"``: seat, then f(old) x(check) c(all)
    r/b TO, d CARDS (discard), p (stand pat), t (timeout), ask or decline (R48)."""
    events: list[Event] = []
    for step in filter(None, (s.strip() for s in script.split(","))):
        seat_text, verb, *rest = step.split()
        events += hand.act(_action(int(seat_text), verb, " ".join(rest)))
    return events


def _action(seat: int, verb: str, arg: str) -> Action:
    if verb in ("r", "b"):
        return Action.bet(seat, int(arg))
    if verb == "d":
        return Action.draw(seat, arg)
    simple = {"f": "fold", "x": "check", "c": "call", "p": "draw", "t": "timeout",
              "ask": "ask-openers", "decline": "decline"}  # fmt: skip
    return Action(seat, ActionKind(simple[verb]))


def legal_of(hand: Hand) -> LegalActions:
    legal = hand.legal_actions()
    assert legal is not None, "the hand is over"
    return legal


def kinds(events: Iterable[Event]) -> list[str]:
    return [type(e).__name__ for e in events]


def stacked(rules: Rules, stacks: dict[int, int], button: int, cards: str, **kw: object) -> Hand:
    return Hand(rules, stacks, button, deck=Deck.stacked(cards), **kw)  # type: ignore[arg-type]


__all__ = [
    "FL",
    "NL",
    "PL",
    "dealt",
    "kinds",
    "legal_of",
    "play",
    "random_action",
    "six",
    "stacked",
]


def dealt(rules: Rules, hands: dict[int, str], button: int, draws: str = "") -> Hand:
    """A hand whose players hold ``hands`` (seat -> five cards) and whose draws
    receive ``draws`` in order; every stack is 500."""
    from drawpoker.cards import parse_cards

    n = rules.max_seats
    order = sorted(hands, key=lambda seat: (seat - button - 1) % n)
    parsed = {seat: parse_cards(cards) for seat, cards in hands.items()}
    script = [parsed[seat][k] for k in range(5) for seat in order]
    script += list(parse_cards(draws))
    return Hand(rules, dict.fromkeys(hands, 500), button, deck=Deck.stacked(script))
