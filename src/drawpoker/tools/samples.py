"""Random hands played to the end (or stopped midway), for tests, benchmarks and demos.

Randomness comes in as a ``random.Random`` the caller owns (the module never touches
the global one); deck seeds are drawn from it, so the same generator state gives the
same hands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from drawpoker.hand import Hand
from drawpoker.rules import Rules
from drawpoker.tools.simulate import random_action

if TYPE_CHECKING:
    import random


def random_hand(
    rules: Rules,
    rng: random.Random,
    *,
    players: int | None = None,
    stop_after: int | None = None,
    big_draws: bool | None = None,
    hand_id: str = "",
    carried_pot: int = 0,
    timeout_rate: float = 0.02,
) -> Hand:
    """Seat 2 to ``max_seats`` players on random seats with random stacks and play."""
    n = players or rng.randint(2, rules.max_seats)
    seats = sorted(rng.sample(range(1, rules.max_seats + 1), n))
    unit = rules.bet_sizes[1] if rules.is_fixed_limit else max(rules.big_blind, rules.invito)
    stacks = {s: rng.randint(unit * 2, unit * rng.choice((5, 20, 60, 150))) for s in seats}
    button = rng.choice(seats)
    seed = rng.getrandbits(256).to_bytes(32, "big")
    hand = Hand(rules, stacks, button, seed=seed, hand_id=hand_id, carried_pot=carried_pot)
    draws = rng.random() < 0.3 if big_draws is None else big_draws
    steps = 0
    while not hand.is_over and (stop_after is None or steps < stop_after):
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(random_action(legal, rng, timeout_rate=timeout_rate, big_draws=draws))
        steps += 1
    return hand
