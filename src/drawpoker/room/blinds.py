"""Who is dealt in and who posts what: the button and blinds between hands (R5-R9).

One pure function, ``plan_blinds``, shared by cash tables and tournament tables.
It follows the *moving big blind* form of the dead-button rule (R7):

- the big blind moves to the next player able to play, clockwise from the seat
  that posted it last hand;
- the small blind is posted from the seat that had the big blind last hand, if
  that player is still able to play; otherwise there is no small blind (dead);
- the button goes to the seat that had the small-blind position last hand,
  even if that seat is now empty (dead button).

Heads-up (R6) the button posts the small blind and the other player the big
blind; because the big blind always moves on, nobody posts it twice in a row
when a table goes from 3 to 2 players.

Cash tables (R9): a player who owes blinds (new, or missed them while sitting
out) is dealt in when the big blind reaches them (posting only that blind), or
earlier if they choose to post: the big blind (live) and, when they missed it,
the small blind (dead). A player who owes blinds and sits between the button
and the big blind must wait (they would otherwise skip the blinds for an
orbit), and so does one whose seat gets the big blind next hand anyway. The
blinds passing a seat whose player sits out mark that player as
owing them.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass

from drawpoker.events import PostKind


@dataclass(frozen=True, slots=True)
class Debt:
    """What a player able to play owes before being dealt in, and their choice."""

    big_blind: bool = False  # owes a big blind (new player, or missed it)
    small_blind: bool = False  # owes a dead small blind (missed it)
    post: bool = False  # posts now rather than wait for the big blind
    # Tournaments: posted the big blind in their last hand, at another table; the big
    # blind passes them this once (nobody is moved into the big blind twice in a row).
    recent_big_blind: bool = False

    @property
    def owes(self) -> bool:
        return self.big_blind or self.small_blind


NO_DEBT = Debt()


@dataclass(frozen=True, slots=True)
class BlindPlan:
    """The next hand's positions and forced bets."""

    button: int  # may be an empty seat (R7)
    small_blind: int | None  # the seat posting the live small blind; None: dead
    big_blind: int
    dealt: tuple[int, ...]  # seats dealt in, in seat order
    posts: tuple[tuple[int, PostKind, int], ...]  # for ``Hand(posts=...)``
    sb_position: int  # the small-blind position's seat: next hand's button
    missed: tuple[tuple[int, bool, bool], ...]  # (seat, big, small) newly missed
    fresh: bool  # positions chosen afresh (first hand, or after a pause)


def seats_after(seat: int, n_seats: int) -> Iterator[int]:
    """The other seats clockwise after ``seat`` (seats are 1..n_seats)."""
    for k in range(1, n_seats):
        yield (seat - 1 + k) % n_seats + 1


def next_in(seat: int, pool: Collection[int], n_seats: int) -> int | None:
    """The first seat of ``pool`` clockwise after ``seat``."""
    for s in seats_after(seat, n_seats):
        if s in pool:
            return s
    return None


def between(seat: int, start: int, end: int, n_seats: int) -> bool:
    """Is ``seat`` strictly between ``start`` and ``end`` going clockwise?"""
    return 0 < (seat - start) % n_seats < (end - start) % n_seats or (
        start == end and seat != start
    )


def plan_blinds(
    n_seats: int,
    candidates: Mapping[int, Debt],
    *,
    absent: Collection[int] = (),
    last_big_blind: int | None = None,
    last_sb_position: int | None = None,
    last_button: int | None = None,
    small_blind: int,
    big_blind: int,
) -> BlindPlan | None:
    """Plan the next hand; ``None`` when fewer than 2 players are able to play.

    ``candidates``: the seats able to play (seated, chips, not sitting out) and
    what each owes. ``absent``: occupied seats whose player sits out (they miss
    the blinds that pass them). ``last_*``: the previous plan's ``big_blind``,
    ``sb_position`` and ``button`` (None: no previous hand).
    """
    if len(candidates) < 2:
        return None
    if last_big_blind is None or last_sb_position is None:
        return _fresh(n_seats, candidates, last_button, small_blind, big_blind)
    order = [s for s in seats_after(last_big_blind, n_seats) if s in candidates]
    # Tournaments: the big blind passes over players who posted it in their last hand
    # (at another table), round to a newcomer in last hand's big blind seat if need be.
    if last_big_blind in candidates:
        order.append(last_big_blind)
    bb = next((s for s in order if not candidates[s].recent_big_blind), order[0])
    sb: int | None = last_big_blind
    if last_big_blind not in candidates or candidates[last_big_blind].owes or sb == bb:
        sb = None  # gone, sitting out, or a newcomer in that seat: no small blind
    end = sb if sb is not None else bb
    button = last_sb_position
    if button == bb or not between(button, bb, end, n_seats):
        button = (end - 2) % n_seats + 1  # the seat before the small blind (or big blind)
        if button == bb:
            button = end
    dealt = {bb} if sb is None else {bb, sb}
    next_bb = next_in(bb, candidates, n_seats)  # waits one hand rather than post twice
    for seat, debt in candidates.items():
        if seat in dealt:
            continue
        if not debt.owes or (
            debt.post and seat != next_bb and not between(seat, button, bb, n_seats)
        ):
            dealt.add(seat)
    if len(dealt) < 2:
        return _fresh(n_seats, candidates, last_button, small_blind, big_blind)
    missed: list[tuple[int, bool, bool]] = []
    for seat in absent:
        if between(seat, last_big_blind, bb, n_seats):
            missed.append((seat, True, True))
        elif seat == last_big_blind:
            missed.append((seat, False, True))
    missed.sort()
    sb_position = last_big_blind
    posts: list[tuple[int, PostKind, int]] = []
    if len(dealt) == 2:  # heads-up: the button posts the small blind (R6)
        other = next(s for s in dealt if s != bb)
        button = sb_position = other
        sb = other
    if sb is not None and small_blind:
        posts.append((sb, PostKind.SMALL_BLIND, small_blind))
    posts.append((bb, PostKind.BIG_BLIND, big_blind))
    if len(dealt) > 2:
        for seat in _clockwise_from(bb, dealt, n_seats):
            debt = candidates[seat]
            if seat in (bb, sb) or not debt.owes:
                continue
            if debt.big_blind:
                posts.append((seat, PostKind.BIG_BLIND, big_blind))
            if debt.small_blind and small_blind:
                posts.append((seat, PostKind.DEAD_SMALL_BLIND, small_blind))
    return BlindPlan(
        button=button,
        small_blind=sb,
        big_blind=bb,
        dealt=tuple(sorted(dealt)),
        posts=tuple(posts),
        sb_position=sb_position,
        missed=tuple(missed),
        fresh=False,
    )


def _clockwise_from(seat: int, pool: Collection[int], n_seats: int) -> list[int]:
    return [s for s in seats_after(seat, n_seats) if s in pool]


def _fresh(
    n_seats: int,
    candidates: Mapping[int, Debt],
    last_button: int | None,
    small_blind: int,
    big_blind: int,
) -> BlindPlan:
    """A new start: everyone able to play is dealt in and owes nothing."""
    seats = sorted(candidates)
    if last_button is None:
        button = seats[0]
    else:
        found = next_in(last_button, candidates, n_seats)
        button = seats[0] if found is None else found
    # Tournaments: the big blind goes to a player who did not post it in their last
    # hand, if there is one (the button moves on until it does).
    buttons = [button, *_clockwise_from(button, candidates, n_seats)]
    fine = (
        b for b in buttons if not candidates[_blinds_after(b, seats, n_seats)[1]].recent_big_blind
    )
    button = next(fine, button)
    sb, bb = _blinds_after(button, seats, n_seats)
    posts: list[tuple[int, PostKind, int]] = []
    if small_blind:
        posts.append((sb, PostKind.SMALL_BLIND, small_blind))
    posts.append((bb, PostKind.BIG_BLIND, big_blind))
    return BlindPlan(
        button=button,
        small_blind=sb,
        big_blind=bb,
        dealt=tuple(seats),
        posts=tuple(posts),
        sb_position=sb,
        missed=(),
        fresh=True,
    )


def _blinds_after(button: int, seats: list[int], n_seats: int) -> tuple[int, int]:
    """The small and big blind seats for ``button`` (heads-up the button is the small)."""
    if len(seats) == 2:
        return button, next(s for s in seats if s != button)
    after = _clockwise_from(button, seats, n_seats)
    return after[0], after[1]
