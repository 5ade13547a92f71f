"""Random legal play, many hands in a row: the engine's stress run (``drawpoker simulate``).

Pure: randomness comes from the ``random.Random`` instance given (seeded by the
caller), deck seeds are derived from it.
"""

from __future__ import annotations

import itertools
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
    random number of random cards (``big_draws``: three to five, for reshuffles); at
    the end of a hand with openers on request (R48), a request one time in three."""
    seat = legal.seat
    if timeout_rate and rng.random() < timeout_rate:
        return Action.timeout(seat)
    if legal.draw:
        return Action.draw(seat, random_discard(rng, legal.hand, legal.max_discard, big_draws))
    if legal.ask_openers:  # R48: ask to see the openers one time in three
        return Action.ask_openers(seat) if rng.random() < 1 / 3 else Action.decline(seat)
    kind, amount = random_bet(rng, legal.fold and not legal.check, legal.min_to, legal.max_to)
    if kind is _BET_KIND:
        return Action.bet(seat, amount)
    if kind is _FOLD_KIND:
        return Action.fold(seat)
    return Action.check(seat) if legal.check else Action.call(seat)


def random_bet(rng: random.Random, may_fold: bool, low: int, high: int) -> tuple[ActionKind, int]:
    """The betting half of the policy, on plain numbers (the benchmark plays it on
    PokerKit too): ``may_fold`` when facing a bet; a bet or raise to ``low``-``high``
    if ``high``. Returns ``FOLD``, ``CALL`` (check or call) or ``BET`` and its amount.

    Check or call weighs 3, fold (facing a bet) and bet 1 each; a bet goes to the
    minimum, the minimum, the maximum or a uniform amount in between, one in four
    each. Drawn with ``rng.random()`` alone: the policy is a small part of a run."""
    kinds = (
        (_FOLD_PASS_BET if may_fold else _PASS_BET)
        if high
        else (_FOLD_OR_PASS if may_fold else _PASS)
    )
    kind = kinds[int(rng.random() * len(kinds))]
    if kind is not _BET_KIND:
        return kind, 0
    pick = rng.random() * 4.0
    if pick < 2.0:
        return kind, low
    if pick < 3.0:
        return kind, high
    return kind, low + int(rng.random() * (high - low + 1))


def random_discard(
    rng: random.Random, hand: Sequence[int], max_discard: int, big_draws: bool = False
) -> tuple[int, ...]:
    """The draw half of the policy: a random number of random cards of ``hand``
    (every set of that many cards equally likely)."""
    counts = BIG_DRAWS if big_draws else DRAWS
    count = min(counts[int(rng.random() * len(counts))], max_discard, len(hand))
    if len(hand) != 5:
        return tuple(rng.sample(list(hand), count))
    subsets = _SUBSETS[count]
    return tuple([hand[i] for i in subsets[int(rng.random() * len(subsets))]])


_PASS = (ActionKind.CALL,) * 3  # check or call
_FOLD_OR_PASS = (ActionKind.FOLD, *_PASS)
_PASS_BET = (*_PASS, ActionKind.BET)
_FOLD_PASS_BET = (*_FOLD_OR_PASS, ActionKind.BET)
_BET_KIND, _FOLD_KIND = ActionKind.BET, ActionKind.FOLD  # globals read faster than enum members
DRAWS = (0, 0, 1, 2, 3, 3, 4, 5)
BIG_DRAWS = (3, 4, 5, 5, 5)
# The index sets of k of five cards, for k = 0..5.
_SUBSETS = [tuple(itertools.combinations(range(5), k)) for k in range(6)]


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
            rules,
            stacks,
            button,
            seed=rng.randbytes(32),
            carried_pot=carried,
            hand_id=str(number),
            commit=False,  # nothing is published: no deck commitments
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
