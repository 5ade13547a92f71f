"""Tournament payouts: how many places are paid and what each gets, in whole chips.

``payout_table(entries, prize_pool)`` returns the prize of each paid place, best
first; the prizes are non-increasing and sum exactly to the prize pool (the
units left by rounding go one each to the best places). ``share`` splits the
prizes of several places among players who tie for them (R: two players busted
in the same hand with the same starting stack).

Field sizes:

- 2-3 entries: winner takes all; 4-6: 2 paid (65/35); 7-10: 3 paid (50/30/20);
- 11 or more: ``paid_fraction`` of the field (default 15%, rounded up, at least
  3). Each paid place gets a floor of ``min_cash_buy_ins`` buy-ins' worth of the
  pool (when the pool allows); the rest follows a power law ``1 / place**1.1``,
  so first place gets about 18-40% of the pool depending on the field.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

SMALL_FIELDS: tuple[tuple[int, tuple[int, ...]], ...] = (
    (3, (100,)),
    (6, (65, 35)),
    (10, (50, 30, 20)),
)


def paid_places(entries: int, paid_fraction: Fraction = Fraction(15, 100)) -> int:
    """How many places are paid for a field of ``entries``."""
    if entries < 1:
        return 0
    for most, percents in SMALL_FIELDS:
        if entries <= most:
            return min(len(percents), entries)
    paid = -(-entries * paid_fraction.numerator // paid_fraction.denominator)
    return max(3, min(paid, entries))


def payout_table(
    entries: int,
    prize_pool: int,
    *,
    paid_fraction: Fraction = Fraction(15, 100),
    min_cash_buy_ins: Fraction = Fraction(3, 2),
) -> list[int]:
    """Prize per place (index 0 = first place); sums exactly to ``prize_pool``."""
    paid = paid_places(entries, paid_fraction)
    if paid == 0 or prize_pool <= 0:
        return [0] * paid
    weights: list[int]
    small = next((p for most, p in SMALL_FIELDS if entries <= most), None)
    if small is not None:
        weights = list(small[:paid])
    else:
        scale = 10**9
        curve = [round(scale / (place**1.1)) for place in range(1, paid + 1)]
        # A floor for every paid place (a share of the pool), the rest along the curve.
        floor_share = min(Fraction(1, 2), min_cash_buy_ins * paid / entries)
        total_curve = sum(curve)
        weights = [
            int(scale * paid * (floor_share / paid + (1 - floor_share) * Fraction(c, total_curve)))
            for c in curve
        ]
    total = sum(weights)
    prizes = [prize_pool * w // total for w in weights]
    left = prize_pool - sum(prizes)
    for i in range(left):  # the rounding units, one each from first place down
        prizes[i % paid] += 1
    return prizes


def share(prizes: Sequence[int], places: Sequence[int], players: int) -> list[int]:
    """Split the prizes of ``places`` (1-based) equally among ``players``; the units
    left over go one each to the first players (in the order the caller gives)."""
    pot = sum(prizes[p - 1] for p in places if p - 1 < len(prizes))
    each, odd = divmod(pot, players)
    return [each + (1 if k < odd else 0) for k in range(players)]
