"""The button and blinds between hands (R5-R9): plan_blinds."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from drawpoker.events import PostKind
from drawpoker.room.blinds import NO_DEBT, BlindPlan, Debt, between, plan_blinds

SB, BB, DEAD = PostKind.SMALL_BLIND, PostKind.BIG_BLIND, PostKind.DEAD_SMALL_BLIND
NEW_POSTS = Debt(big_blind=True, post=True)
NEW_WAITS = Debt(big_blind=True)
MISSED_POSTS = Debt(big_blind=True, small_blind=True, post=True)


def plan(
    seats: dict[int, Debt] | list[int],
    prev: BlindPlan | None = None,
    absent: tuple[int, ...] = (),
    n: int = 6,
) -> BlindPlan:
    candidates = seats if isinstance(seats, dict) else dict.fromkeys(seats, NO_DEBT)
    result = plan_blinds(
        n,
        candidates,
        absent=absent,
        last_big_blind=prev.big_blind if prev else None,
        last_sb_position=prev.sb_position if prev else None,
        last_button=prev.button if prev else None,
        small_blind=1,
        big_blind=2,
    )
    assert result is not None
    return result


def test_between_is_strict_and_clockwise() -> None:
    assert between(2, 1, 3, 6)
    assert not between(1, 1, 3, 6)
    assert not between(3, 1, 3, 6)
    assert between(6, 5, 2, 6)
    assert between(1, 5, 2, 6)
    assert not between(3, 5, 2, 6)
    assert between(4, 2, 2, 6)  # a full turn: every other seat
    assert not between(2, 2, 2, 6)


def test_fewer_than_two_players_no_hand() -> None:
    assert plan_blinds(6, {3: NO_DEBT}, small_blind=1, big_blind=2) is None
    assert plan_blinds(6, {}, small_blind=1, big_blind=2) is None


def test_first_hand_button_then_blinds_clockwise() -> None:
    p = plan([2, 4, 5])
    assert (p.button, p.small_blind, p.big_blind) == (2, 4, 5)
    assert p.posts == ((4, SB, 1), (5, BB, 2))
    assert p.dealt == (2, 4, 5)
    assert p.fresh


def test_button_and_blinds_move_one_seat_each_hand() -> None:
    p = plan([1, 2, 3, 4])
    seen = []
    for _ in range(8):
        p = plan([1, 2, 3, 4], p)
        seen.append((p.button, p.small_blind, p.big_blind))
    assert seen[:4] == [(2, 3, 4), (3, 4, 1), (4, 1, 2), (1, 2, 3)]
    assert seen[4:] == seen[:4]


def test_heads_up_button_posts_small_blind() -> None:
    p = plan([2, 5])
    assert p.button == p.small_blind == 2
    assert p.big_blind == 5
    q = plan([2, 5], p)
    assert q.button == q.small_blind == 5
    assert q.big_blind == 2
    assert q.posts == ((5, SB, 1), (2, BB, 2))


def test_dead_button_when_the_small_blind_left() -> None:
    p = plan([1, 2, 3, 4])  # button 1, sb 2, bb 3
    q = plan([1, 3, 4], p)  # seat 2 (last small blind) left
    assert q.button == 2  # the empty seat keeps the button (R7)
    assert (q.small_blind, q.big_blind) == (3, 4)
    assert q.dealt == (1, 3, 4)


def test_dead_small_blind_when_the_big_blind_left() -> None:
    p = plan([1, 2, 3, 4])  # button 1, sb 2, bb 3
    q = plan([1, 2, 4], p)  # seat 3 (last big blind) left
    assert q.small_blind is None  # nobody posts the small blind
    assert q.big_blind == 4  # the big blind still moves on
    assert q.button == 2
    assert q.posts == ((4, BB, 2),)
    r = plan([1, 2, 4], q)
    assert (r.button, r.small_blind, r.big_blind) == (3, 4, 1)  # the button on empty seat 3


def _big_blind_twice(prev: BlindPlan, nxt: BlindPlan) -> bool:
    return prev.big_blind == nxt.big_blind


def test_three_to_two_players_nobody_posts_big_blind_twice() -> None:
    for leaver in (1, 2, 3):
        p = plan([1, 2, 3])  # button 1, sb 2, bb 3
        p = plan([1, 2, 3], p)  # button 2, sb 3, bb 1
        rest = [s for s in (1, 2, 3) if s != leaver]
        q = plan(rest, p)
        assert q.big_blind != p.big_blind, leaver
        assert q.button == q.small_blind  # heads-up (R6)
        assert set(q.dealt) == set(rest)
        r = plan(rest, q)
        assert r.big_blind != q.big_blind
        assert r.button == r.small_blind == q.big_blind


def test_two_to_three_players() -> None:
    p = plan([1, 4])
    p = plan([1, 4], p)  # button/sb 4, bb 1
    q = plan({1: NO_DEBT, 4: NO_DEBT, 5: NEW_POSTS}, p)
    assert q.big_blind == 4 or 5 in q.dealt
    assert q.big_blind != p.big_blind


def test_blinds_passing_an_absent_player_are_missed() -> None:
    p = plan([1, 2, 3, 4])  # bb 3
    q = plan([1, 2, 3], p, absent=(4,))  # seat 4 sits out: the big blind skips it
    assert q.big_blind == 1
    assert q.missed == ((4, True, True),)
    r = plan([1, 2, 4], p, absent=(3,))  # the last big blind sits out: misses the small
    assert r.missed == ((3, False, True),)
    assert r.small_blind is None
    assert r.big_blind == 4


def test_returning_player_posts_big_live_small_dead() -> None:
    p = plan([1, 2, 3, 4, 5])  # button 1, sb 2, bb 3
    q = plan({1: NO_DEBT, 2: NO_DEBT, 3: NO_DEBT, 4: NO_DEBT, 5: NO_DEBT, 6: MISSED_POSTS}, p)
    # bb 4, next bb 5: seat 6 is neither between the button and the big blind nor next
    assert q.big_blind == 4
    assert 6 in q.dealt
    assert (6, BB, 2) in q.posts
    assert (6, DEAD, 1) in q.posts
    assert q.posts[:2] == ((3, SB, 1), (4, BB, 2))  # the positional big blind first


def test_returning_player_in_the_blinds_just_takes_the_big_blind() -> None:
    p = plan([1, 2, 3, 4])  # bb 3
    q = plan({1: NO_DEBT, 2: NO_DEBT, 3: NO_DEBT, 4: MISSED_POSTS}, p)
    assert q.big_blind == 4
    assert q.posts == ((3, SB, 1), (4, BB, 2))  # no dead small blind: the big blind reached it


def test_waiting_player_is_dealt_in_only_at_the_big_blind() -> None:
    seats = {1: NO_DEBT, 2: NO_DEBT, 3: NO_DEBT, 5: NEW_WAITS}
    p = plan([1, 2, 3])  # button 1, sb 2, bb 3
    q = plan(seats, p)
    assert q.big_blind == 5
    assert q.posts == ((3, SB, 1), (5, BB, 2))
    p = plan([1, 2, 3], plan([1, 2, 3], p))  # button 3, sb 1, bb 2
    q = plan(seats, p)
    assert q.big_blind == 3
    assert 5 not in q.dealt
    r = plan(seats, q)
    assert r.big_blind == 5
    assert 5 in r.dealt


def test_new_player_between_button_and_big_blind_waits() -> None:
    p = plan([1, 3, 5, 7], n=8)  # button 1, sb 3, bb 5
    seats = dict.fromkeys([1, 3, 5, 7], NO_DEBT) | {4: NEW_POSTS, 2: NEW_POSTS}
    q = plan(seats, p, n=8)
    assert (q.button, q.small_blind, q.big_blind) == (3, 5, 7)
    assert 4 not in q.dealt  # between the button and the big blind: waits
    assert 2 in q.dealt  # elsewhere: posts and plays
    assert (2, BB, 2) in q.posts


def test_two_players_joining_at_once() -> None:
    p = plan([1, 2, 3])  # button 1, sb 2, bb 3
    seats = {1: NO_DEBT, 2: NO_DEBT, 3: NO_DEBT, 5: NEW_POSTS, 6: NEW_POSTS}
    q = plan(seats, p)  # bb 1 (wraps past 5 and 6? no: next after 3 is 5)
    assert q.big_blind == 5  # the big blind reaches the first newcomer
    assert 6 not in q.dealt  # seat 6 is next in the big blind: it waits one hand
    r = plan(seats | {5: NO_DEBT}, q)
    assert r.big_blind == 6
    assert r.posts[:2] == ((5, SB, 1), (6, BB, 2))


def test_two_posting_players_join_away_from_the_blinds() -> None:
    plan([1, 2, 3, 4, 5, 6], n=8)  # button 1, sb 2, bb 3
    seats = dict.fromkeys(range(1, 7), NO_DEBT) | {7: NEW_POSTS, 8: NEW_POSTS}
    q = plan_blinds(
        8, seats, last_big_blind=3, last_sb_position=2, last_button=1, small_blind=1, big_blind=2
    )
    assert q is not None
    assert q.big_blind == 4
    assert 7 in q.dealt
    assert 8 in q.dealt
    assert [s for s, kind, _ in q.posts if kind is BB] == [4, 7, 8]
    assert not [k for _, k, _ in q.posts if k is DEAD]  # new players owe no small blind


def test_only_debtors_besides_one_player_starts_fresh() -> None:
    p = plan([1, 2])
    q = plan({1: NO_DEBT, 4: NEW_WAITS}, plan([1, 2], p))
    assert set(q.dealt) == {1, 4}
    assert q.button == q.small_blind


@settings(max_examples=200, deadline=None)
@given(
    n=st.integers(2, 8),
    changes=st.lists(st.sets(st.integers(1, 8)), min_size=1, max_size=40),
)
def test_positions_stay_in_order_as_players_come_and_go(n: int, changes: list[set[int]]) -> None:
    prev: BlindPlan | None = None
    for wanted in changes:
        seats = sorted(s for s in wanted if s <= n)
        if len(seats) < 2:
            continue
        p = plan(seats, prev, n=n)
        assert set(p.dealt) == set(seats)  # nobody owes anything: everyone plays
        assert p.big_blind in seats
        assert p.button != p.big_blind
        if prev is not None:
            assert p.big_blind != prev.big_blind  # never the big blind twice in a row
        if len(seats) == 2:
            assert p.button == p.small_blind  # R6
        elif p.small_blind is not None:
            # clockwise: button, small blind, big blind, nobody dealt in between the blinds
            assert between(p.small_blind, p.button, p.big_blind, n) or p.button == p.small_blind
            assert not any(between(s, p.small_blind, p.big_blind, n) for s in seats)
        prev = p


@settings(deadline=None)
@given(n=st.integers(3, 8), data=st.data())
def test_big_blind_goes_round_every_player_once(n: int, data: st.DataObject) -> None:
    seats = sorted(data.draw(st.sets(st.integers(1, n), min_size=2)))
    p = plan(seats, n=n)
    bbs = []
    for _ in range(len(seats)):
        p = plan(seats, p, n=n)
        bbs.append(p.big_blind)
    assert sorted(bbs) == seats


def test_a_new_tables_big_blind_avoids_a_player_who_just_posted_it() -> None:
    # Tournaments: a table's first hand (no previous positions) with players moved in
    recent = Debt(recent_big_blind=True)
    seats = {1: NO_DEBT, 2: NO_DEBT, 3: recent, 4: NO_DEBT}
    p = plan(seats)  # button 1, sb 2 would put the big blind on seat 3: moved on
    assert (p.button, p.small_blind, p.big_blind) == (2, 3, 4)
    q = plan({1: recent, 2: recent}, n=6)  # heads-up, both just posted it: no help
    assert q.big_blind == 2
    assert q.button == q.small_blind == 1


def test_big_blind_goes_round_to_a_newcomer_in_the_last_big_blind_seat() -> None:
    # Tournaments, heads-up: seat 1 posted the big blind and went out; a player who
    # did not post it sat down there, next to one who just posted it elsewhere.
    recent = Debt(recent_big_blind=True)
    p = plan_blinds(
        2,
        {1: NO_DEBT, 2: recent},
        last_big_blind=1,
        last_sb_position=2,
        last_button=2,
        small_blind=1,
        big_blind=2,
    )
    assert p is not None
    assert (p.big_blind, p.button, p.small_blind) == (1, 2, 2)
