"""Pots, side pots, splits with odd chips, and rake (R20, R34-R36). Pure integer code."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True, slots=True)
class Pot:
    amount: int
    eligible: tuple[int, ...]  # player indexes in clockwise order from left of the button


def build_pots(committed: Sequence[int], live: Sequence[bool], extra: int = 0) -> list[Pot]:
    """One pot per all-in level (R34), main pot first.

    ``committed[i]`` is everything player ``i`` put in (uncalled chips already
    returned); ``live[i]`` is False for a folded player, whose chips still count
    but who is eligible for nothing. ``extra`` (a carried pot) joins the main pot.
    Levels come from the live players' commitments; pots with the same eligible
    players are merged.
    """
    top = max(committed, default=0)
    live_levels = {c for c, alive in zip(committed, live, strict=True) if alive}
    if len(live_levels) == 1 and top > 0 and top in live_levels:
        # The usual end of a hand: every live player put in the most anyone did.
        eligible = tuple([i for i, alive in enumerate(live) if alive])
        return [Pot(sum(committed) + extra, eligible)]
    levels = sorted({c for c in live_levels if c > 0})
    if not levels or levels[-1] < top:
        levels.append(top)
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in committed)
        eligible = tuple(
            i
            for i, (c, alive) in enumerate(zip(committed, live, strict=True))
            if alive and c >= level
        )
        previous = level
        if pots and (not eligible or pots[-1].eligible == eligible):
            pots[-1] = Pot(pots[-1].amount + amount, pots[-1].eligible)
        elif amount or not pots:
            pots.append(Pot(amount, eligible))
    if extra:
        if pots:
            pots[0] = Pot(pots[0].amount + extra, pots[0].eligible)
        else:
            pots.append(Pot(extra, tuple(i for i, alive in enumerate(live) if alive)))
    return pots


def split(amount: int, winners: Sequence[int]) -> list[tuple[int, int]]:
    """Share ``amount`` among ``winners`` (in clockwise order from left of the
    button); the leftover units go one each from the first (R35)."""
    share, odd = divmod(amount, len(winners))
    return [(w, share + (1 if k < odd else 0)) for k, w in enumerate(winners)]


def rake_for(total: int, percent: Fraction, cap: int | None) -> int:
    """R36: ``percent`` of the pot rounded down to the chip unit, capped."""
    rake = int(total * percent / 100)
    return rake if cap is None else min(rake, cap)


def rake_pots(pots: Sequence[Pot], rake: int) -> list[int]:
    """Each pot's share of ``rake``: in proportion to its size, leftovers from the main pot."""
    total = sum(p.amount for p in pots)
    if not rake or not total:
        return [0] * len(pots)
    shares = [rake * p.amount // total for p in pots]
    shares[0] += rake - sum(shares)
    return shares
