"""Random legal play, many hands in a row: the engine's stress run (``drawpoker simulate``).

Pure: randomness comes from the ``random.Random`` instance given (seeded by the
caller), deck seeds are derived from it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from drawpoker.actions import Action, ActionKind, LegalActions
from drawpoker.hand import Hand
from drawpoker.rules import Rules


def random_action(
    legal: LegalActions, rng: random.Random, *, timeout_rate: float = 0.0, big_draws: bool = False
) -> Action:
    """A random legal action: check or call three times as often as a fold (when facing
    a bet) or a bet, whose size leans to the minimum and the maximum; in the draw a
    random number of random cards (``big_draws``: three to five, for reshuffles)."""
    seat = legal.seat
    if timeout_rate and rng.random() < timeout_rate:
        return Action.timeout(seat)
    if legal.draw:
        return Action.draw(seat, random_discard(rng, legal.hand, legal.max_discard, big_draws))
    kind, amount = random_bet(rng, legal.fold and not legal.check, legal.min_to, legal.max_to)
    if kind is _BET_KIND:
        return Action.bet(seat, amount)
    if kind is _FOLD_KIND:
        return Action.fold(seat)
    return Action.check(seat) if legal.check else Action.call(seat)


def random_bet(rng: random.Random, may_fold: bool, low: int, high: int) -> tuple[ActionKind, int]:
    """The betting half of the policy, on plain numbers (the benchmark plays it on
    PokerKit too): ``may_fold`` when facing a bet; a bet or raise to ``low``-``high``
    if ``high``. Returns ``FOLD``, ``CALL`` (check or call) or ``BET`` and its amount."""
    kinds: tuple[ActionKind, ...] = _FOLD_OR_PASS if may_fold else _PASS
    amount = 0
    if high:
        amount = rng.choice((low, low, high, rng.randint(low, high)))
        kinds = kinds + _BET
    return rng.choice(kinds), amount


def random_discard(
    rng: random.Random, hand: Sequence[int], max_discard: int, big_draws: bool = False
) -> tuple[int, ...]:
    """The draw half of the policy: a random number of random cards of ``hand``."""
    count = min(rng.choice(BIG_DRAWS if big_draws else DRAWS), max_discard)
    return tuple(rng.sample(hand, count))


_PASS = (ActionKind.CALL,) * 3  # check or call
_FOLD_OR_PASS = (ActionKind.FOLD, *_PASS)
_BET = (ActionKind.BET,)
_BET_KIND, _FOLD_KIND = ActionKind.BET, ActionKind.FOLD  # globals read faster than enum members
DRAWS = (0, 0, 1, 2, 3, 3, 4, 5)
BIG_DRAWS = (3, 4, 5, 5, 5)


@dataclass
class Summary:
    hands: int = 0
    actions: int = 0
    showdowns: int = 0
    reshuffles: int = 0
    carried_pots: int = 0
    rake: int = 0
    uncontested: int = 0
    timeouts: int = 0
    stacks: dict[int, int] = field(default_factory=dict)


def simulate(
    rules: Rules,
    players: int,
    hands: int,
    rng: random.Random,
    *,
    stack: int = 200,
    check_invariants: bool = True,
    timeout_rate: float = 0.02,
    progress: Callable[[int], None] | None = None,
) -> Summary:
    """Play ``hands`` hands at one table; a busted player rebuys to ``stack``."""
    stacks = dict.fromkeys(range(1, players + 1), stack)
    button = players
    carried = 0
    summary = Summary()
    for number in range(hands):
        button = button % players + 1
        hand = Hand(
            rules, stacks, button, seed=rng.randbytes(32), carried_pot=carried, hand_id=str(number)
        )
        if check_invariants:
            hand.check_invariants()
        while (legal := hand.legal_actions()) is not None:
            action = random_action(legal, rng, timeout_rate=timeout_rate)
            summary.timeouts += action.kind == "timeout"
            hand.act(action)
            summary.actions += 1
            if check_invariants:
                hand.check_invariants()
        result = hand.result
        summary.hands += 1
        summary.showdowns += result.showdown
        summary.uncontested += not result.showdown and not result.carried_pot
        summary.reshuffles += hand.reshuffles
        summary.carried_pots += result.carried_pot > 0
        summary.rake += result.rake
        carried = result.carried_pot
        stacks = {seat: chips or stack for seat, chips in result.stacks.items()}
        if progress is not None:
            progress(number + 1)
    summary.stacks = stacks
    return summary
