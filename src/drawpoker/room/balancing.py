"""Table balancing for multi-table tournaments: which player moves, to which seat.

- When tables differ by 2 or more players, the player who would be next in the
  big blind at the largest table moves to the smallest table, into the seat that
  keeps the blinds fair: the empty seat that gets the big blind next (so they
  neither skip the big blind they were due nor pay it twice).
- A table is broken when the other tables can seat all of its players; its
  players go one by one to the table with the fewest players. A player who has
  just posted the big blind goes first, to a table (the smallest such) where
  somebody else is due to post it next, and not into the seat that gets it next.
- Only a table between hands gives players; a table in a hand may receive them
  (they are dealt in from its next hand).
- Nobody posts the big blind in two hands in a row unless it cannot be helped:
  a table whose players *all* posted it in their last hand (they came from
  different tables) would have to give it to one of them again. The mover is
  chosen so that no table is left like that, and such a table, if busts made
  it, swaps one of its players with a player of a table between hands who did
  not post it (``BlindRisk``). It cannot be helped only when fewer players than
  tables did not post the big blind last hand: e.g. the last two players, each
  the big blind of a heads-up table whose other player went out in the same
  round.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from enum import IntEnum

from drawpoker.room.blinds import next_in, seats_after


class BlindRisk(IntEnum):
    """How a table's next big blind looks, for a player just posting it elsewhere."""

    CLEAN = 0  # the next player in turn (R7) did not post it last hand
    UNSURE = 1  # only players in the hand being played did not: if they all bust...
    PASSED = 2  # the next player did: the big blind passes them to the one after
    TWICE = 3  # every player posted it last hand: one of them posts it again


def blind_risk(
    n_seats: int,
    occupied: Collection[int],
    last_big_blind: int | None,
    recent: Collection[int],
    sure: Collection[int] | None = None,
) -> BlindRisk:
    """The risk at a table with ``occupied`` seats whose players in ``recent``
    posted the big blind in their last hand. ``sure``: the seats certain to be
    there at the next hand (default: all; a table in a hand may lose the players
    dealt in)."""
    fresh = [s for s in occupied if s not in recent]
    if not fresh:
        return BlindRisk.TWICE
    if sure is not None and not any(s in sure for s in fresh):
        return BlindRisk.UNSURE
    if last_big_blind is not None and next_in(last_big_blind, occupied, n_seats) in recent:
        return BlindRisk.PASSED
    return BlindRisk.CLEAN


def next_big_blind(n_seats: int, occupied: Collection[int], last_big_blind: int | None) -> int:
    """The occupied seat that posts the big blind in the table's next hand."""
    if last_big_blind is None:
        return min(occupied)
    found = next_in(last_big_blind, occupied, n_seats)
    return found if found is not None else min(occupied)


def fair_seat(
    n_seats: int,
    occupied: Collection[int],
    last_big_blind: int | None,
    *,
    just_posted_big_blind: bool = False,
) -> int:
    """The empty seat for a player joining a table (see the module docstring)."""
    empty = [s for s in range(1, n_seats + 1) if s not in occupied]
    if not empty:
        raise ValueError("the table is full")
    if last_big_blind is None:
        return empty[0]
    order = [s for s in seats_after(last_big_blind, n_seats) if s not in occupied]
    if last_big_blind not in occupied:
        order.append(last_big_blind)  # an empty seat that just had the big blind: last
    if just_posted_big_blind:  # not straight into the big blind again, if avoidable
        for seat in order:
            if next_in(last_big_blind, [*occupied, seat], n_seats) != seat:
                return seat
    return order[0]


def smallest(sizes: Mapping[int, int]) -> int:
    """The table with the fewest players (ties: the lowest id)."""
    return min(sizes, key=lambda t: (sizes[t], t))


def largest(sizes: Mapping[int, int], among: Collection[int]) -> int | None:
    """Of ``among``, the table with the most players (ties: the lowest id)."""
    pool = [t for t in among if t in sizes]
    return min(pool, key=lambda t: (-sizes[t], t)) if pool else None


def table_to_break(sizes: Mapping[int, int], capacity: int) -> int | None:
    """The table to break when the others can seat its players: the smallest (ties:
    the highest id, so that table 1 becomes the final table)."""
    if len(sizes) < 2:
        return None
    victim = min(sizes, key=lambda t: (sizes[t], -t))
    others_room = sum(capacity - n for t, n in sizes.items() if t != victim)
    return victim if others_room >= sizes[victim] else None
