"""Pots, side pots, splits with odd chips, and rake (R20, R34-R36). Pure integer code."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True, slots=True)
class Pot:
    amount: int
    eligible: tuple[int, ...]  # player indexes in clockwise order from left of the button


def build_pots(
    committed: Sequence[int], live: Sequence[bool], all_in: Sequence[bool], extra: int = 0
) -> list[Pot]:
    """One pot per all-in level (R34), main pot first.

    ``committed[i]`` is what player ``i`` put in that counts for levels: wagers
    (uncalled chips already returned) plus ante or invito, but not a dead small
    blind. ``live[i]`` is False for a folded player, whose chips still count but
    who is eligible for nothing; ``all_in[i]`` marks a player with no chips behind.
    ``extra`` (dead small blinds, a carried pot) joins the main pot.

    Levels are set only at the commitments of live players who are all in: a
    player who is not all in matched every wager and makes no level, whatever
    extra dead chips they posted, and is eligible for every pot. An all-in player
    is eligible for the pots up to their level. A pot nobody left may win (chips
    a folded player put in above every level) joins the pot before it.
    """
    n = len(committed)
    levels = sorted({committed[i] for i in range(n) if live[i] and all_in[i]})
    if not levels:
        # The usual end of a hand: nobody is all in, one pot for every live player.
        return [Pot(sum(committed) + extra, tuple([i for i in range(n) if live[i]]))]
    if levels[0] == 0 and not extra:
        levels.pop(0)  # all in on dead chips alone, and no dead chips: no pot to win
    top = max(committed)
    if not levels or levels[-1] < top:
        levels.append(top)
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum([min(c, level) - min(c, previous) for c in committed])
        eligible = tuple(
            [i for i in range(n) if live[i] and (not all_in[i] or committed[i] >= level)]
        )
        previous = level
        if pots and (not eligible or pots[-1].eligible == eligible):
            pots[-1] = Pot(pots[-1].amount + amount, pots[-1].eligible)
        elif amount or not pots:
            pots.append(Pot(amount, eligible))
    if extra:
        pots[0] = Pot(pots[0].amount + extra, pots[0].eligible)
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
