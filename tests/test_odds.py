"""Exact draw odds: the classic figures, and agreement with brute-force enumeration."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drawpoker.cards import DECK, parse_cards
from drawpoker.cli import main
from drawpoker.errors import InvalidCards
from drawpoker.evaluator import Category, evaluate
from drawpoker.odds import (
    ALL_HANDS,
    HANDS_PER_STRENGTH,
    PERCENTILE,
    DrawTable,
    draw_odds,
    option_odds,
)
from drawpoker.tools.advisor import advise

C = Category


def brute_force(hand: tuple[int, ...], discard: tuple[int, ...], dead: tuple[int, ...] = ()):
    """Plain Python: evaluate every draw of len(discard) unseen cards."""
    keep = [c for c in hand if c not in discard]
    unseen = [c for c in range(52) if c not in hand and c not in dead]
    categories: Counter[int] = Counter()
    strengths: Counter[int] = Counter()
    for drawn in combinations(unseen, len(discard)):
        value = evaluate([*keep, *drawn])
        categories[value.category] += 1
        strengths[value.strength] += 1
    return categories, strengths


def test_one_pair_drawing_three() -> None:
    option = option_odds("Jc Jd 8d 4d 2d", "8d 4d 2d")
    assert option.draws == comb(47, 3) == 16215
    assert option.improves() == Fraction(1552, 5405)
    assert option.probability(C.TWO_PAIR) == Fraction(864, 5405)
    assert option.probability(C.THREE_OF_A_KIND) == Fraction(618, 5405)
    assert option.probability(C.FULL_HOUSE) == Fraction(11, 1081)
    assert option.probability(C.FOUR_OF_A_KIND) == Fraction(3, 1081)
    assert option.probability(C.PAIR) == 1 - Fraction(1552, 5405)
    assert sum(option.counts) == option.draws


def test_two_pair_drawing_one_fills_4_in_47() -> None:
    option = option_odds("Kc Kd 7h 7s 2c", "2c")
    assert option.probability(C.FULL_HOUSE) == Fraction(4, 47)
    assert option.probability(C.TWO_PAIR) == Fraction(43, 47)


def test_four_flush_and_open_ended_straight() -> None:
    flush = option_odds("Ah 9h 6h 3h Kc", "Kc")
    assert flush.probability(C.FLUSH) == Fraction(9, 47)
    straight = option_odds("5c 6d 7h 8s Kc", "Kc")
    assert straight.probability(C.STRAIGHT) == Fraction(8, 47)
    gutshot = option_odds("5c 6d 8h 9s Kc", "Kc")
    assert gutshot.probability(C.STRAIGHT) == Fraction(4, 47)
    both = option_odds("5h 6h 7h 8h Kc", "Kc")  # open-ended straight flush draw
    assert both.probability(C.STRAIGHT_FLUSH) == Fraction(2, 47)
    assert both.at_least(C.STRAIGHT) == Fraction(15, 47)


def test_trips_drawing_two() -> None:
    option = option_odds("9c 9d 9h Kc 4d", "Kc 4d")
    assert option.probability(C.FOUR_OF_A_KIND) == Fraction(2, 47)
    assert option.probability(C.FULL_HOUSE) == Fraction(66, 1081)  # pairs among 46 others
    assert option.improves() == Fraction(2, 47) + Fraction(66, 1081)


def test_dead_cards_change_the_odds() -> None:
    live = option_odds("Ah 9h 6h 3h Kc", "Kc")
    dead = option_odds("Ah 9h 6h 3h Kc", "Kc", dead="2h 4h Qs")
    assert dead.draws == 44
    assert dead.probability(C.FLUSH) == Fraction(7, 44)
    assert live.probability(C.FLUSH) > dead.probability(C.FLUSH)


def test_all_32_choices_best_first() -> None:
    options = draw_odds("Jc Jd 8d 4d 2d")
    assert len(options) == 32
    assert len({o.discard for o in options}) == 32
    evs = [o.ev for o in options]
    assert evs == sorted(evs, reverse=True)
    assert options[0].keep == parse_cards("Jc Jd")
    for option in options:
        assert option.draws == comb(47, option.k)
        assert sum(option.counts) == option.draws
    pat = next(o for o in options if o.k == 0)
    assert pat.counts[C.PAIR - 1] == 1


def test_pat_hands_stand_pat() -> None:
    royal = draw_odds("Ac Kc Qc Jc Tc")
    assert royal[0].k == 0
    assert royal[0].improves() == 0
    assert royal[0].probability(C.STRAIGHT_FLUSH) == 1
    assert draw_odds("6c 6d 6h Ks Kd")[0].k == 0


def test_utility_is_rank_aware() -> None:
    assert HANDS_PER_STRENGTH.sum() == ALL_HANDS
    assert np.all(np.diff(PERCENTILE[1:]) > 0)
    aces = option_odds("Ac Ad 8h 4d 2s", "8h 4d 2s")
    deuces = option_odds("2c 2d 8h 4d As", "8h 4d As")
    assert aces.counts == deuces.counts  # same categories...
    assert aces.ev > deuces.ev  # ...but aces are worth more


@settings(max_examples=12, deadline=None)
@given(
    st.lists(st.integers(0, 51), min_size=8, max_size=8, unique=True),
    st.integers(0, 3),
    st.data(),
)
def test_agrees_with_brute_force(cards: list[int], n_dead: int, data: st.DataObject) -> None:
    hand, dead = tuple(cards[:5]), tuple(cards[5 : 5 + n_dead])
    k = data.draw(st.integers(0, 3))
    discard = tuple(data.draw(st.permutations(hand))[:k])
    table = DrawTable(hand, dead)
    categories, strengths = brute_force(hand, discard, dead)
    option = table.option(discard)
    assert option.counts == tuple(categories[c] for c in Category)
    histogram = table.histogram(discard)
    assert {s: int(n) for s, n in enumerate(histogram) if n} == dict(strengths)
    expected_ev = sum(PERCENTILE[s] * n for s, n in strengths.items()) / sum(strengths.values())
    assert option.ev == pytest.approx(expected_ev, rel=1e-12)


@pytest.mark.slow
def test_four_and_five_card_draws_agree_with_brute_force() -> None:
    hand = parse_cards("Ac Kd 7h 4s 2c")
    dead = parse_cards("Qd Qh 9c 8c 3s 3d")  # 41 unseen keeps the brute force short
    table = DrawTable(hand, dead)
    for discard in (hand[1:], hand):
        categories, _ = brute_force(hand, discard, dead)
        assert table.option(discard).counts == tuple(categories[c] for c in Category)


def test_bad_input() -> None:
    with pytest.raises(InvalidCards, match="5 cards"):
        draw_odds("Jc Jd 8d")
    with pytest.raises(InvalidCards, match="both in the hand and dead"):
        draw_odds("Jc Jd 8d 4d 2d", dead="Jd")
    with pytest.raises(InvalidCards, match="not in the hand"):
        option_odds("Jc Jd 8d 4d 2d", "As")
    assert len(draw_odds(DECK[:5], dead=DECK[5:47])) == 32  # exactly 5 unseen


def test_cli_table_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "Jc Jd 8d 4d 2d", "--top", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].startswith("keep Jc Jd, draw 3")
    assert len(lines) == 5
    assert main(["odds", "Jc Jd 8d 4d 2d", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["options"]) == 32
    best = data["options"][0]
    assert best["discard"] == ["2d", "4d", "8d"]
    assert best["categories"]["full house"]["fraction"] == "11/1081"
    assert main(["odds", "Jc Jd 8d 4d 2d", "--dead", "Jc"]) == 2
    assert "both in the hand and dead" in capsys.readouterr().err


def test_advisor() -> None:
    advice = advise("Jc Jd 8d 4d 2d")
    assert sorted(advice.best.keep) == sorted(parse_cards("Jc Jd"))
    assert [(o.discard, o.counts) for o in advice.options] == [
        (o.discard, o.counts) for o in draw_odds("Jc Jd 8d 4d 2d")
    ]
    assert advise("2d 4d 8d Jd Jc") is advice  # cached, whatever the card order
    data = advice.to_dict(top=2)
    assert data["best"]["label"] == "keep Jc Jd, draw 3"
    assert len(data["options"]) == 2
    assert json.loads(json.dumps(data)) == data
    assert option_odds("Jc Jd 8d 4d 2d", "8d 4d 2d").at_least(C.FULL_HOUSE) == Fraction(14, 1081)
    limited = advise("7c 5d 4h 3s 2c", max_discard=3)
    assert len(limited.options) == 26
    assert max(o.k for o in limited.options) == 3
    with pytest.raises(InvalidCards):
        advise("Jc Jd 8d 4d 2d", dead="2d")
