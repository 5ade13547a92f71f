"""PHH: engine -> PHH -> replay -> PHH gives the same text, for .phh and .phhs."""

from __future__ import annotations

import random
import tomllib

import pytest

from drawpoker.deck import Deck
from drawpoker.events import Reshuffled, TimedOut
from drawpoker.hand import Hand
from drawpoker.history import HandInfo, dumps, dumps_all, loads, loads_all, replay
from drawpoker.history.phh import deal_order, toml_str
from drawpoker.rules import Rules
from drawpoker.tools.samples import random_hand

RULES = {
    "no-limit": Rules.online(structure="no-limit", max_seats=8, rake_percent=5),
    "pot-limit": Rules.online(structure="pot-limit", max_seats=6, antes=1),
    "fixed-limit": Rules.online(structure="fixed-limit", max_seats=6, fl_cap_lifted_heads_up=False),
    "italian": Rules.italian(max_seats=6, invito_others="half", openers_check="showdown"),
}


def assert_discards_before_deals(actions: list[str]) -> None:
    """PokerKit wants every discard of a draw before its first replacement deal."""
    dealing_draw = False
    discarded = False
    for action in actions:
        words = action.split("#")[0].split()
        if not words:
            continue
        if words[1:2] == ["sd"]:
            assert not dealing_draw, actions
            discarded = True
        elif words[:2] == ["d", "dh"]:
            dealing_draw = discarded
        else:
            dealing_draw = discarded = False


@pytest.mark.parametrize("name", list(RULES))
def test_round_trip_single_hands(name: str) -> None:
    rng = random.Random(name)
    reshuffles = timeouts = 0
    for i in range(150):
        big = i % 3 == 0
        players = RULES[name].max_seats if big else None
        hand = random_hand(RULES[name], rng, hand_id=f"{name}-{i}", big_draws=big, players=players)
        text = dumps(hand)
        again = replay(loads(text))
        assert again.hand.is_over
        assert again.hand.result == hand.result
        assert dumps(again.hand) == text
        # Without the seed the deck is stacked from the cards the history names.
        stacked = replay(loads(text), use_seed=False)
        assert stacked.hand.result == hand.result
        reshuffles += any(isinstance(e, Reshuffled) for e in hand.events)
        timeouts += any(isinstance(e, TimedOut) for e in hand.events)
        assert_discards_before_deals(loads(text)["actions"])
    assert reshuffles > (0 if name == "italian" else 5)
    assert timeouts > 5


@pytest.mark.slow
def test_round_trip_phhs_thousand_hands() -> None:
    rng = random.Random(1000)
    names = list(RULES)
    hands = [
        random_hand(RULES[names[i % 4]], rng, hand_id=str(i), big_draws=i % 5 == 0)
        for i in range(1000)
    ]
    text = dumps_all(hands)
    datas = loads_all(text)
    assert len(datas) == 1000
    again = [replay(data, number=k).hand for k, data in enumerate(datas, 1)]
    assert [h.result for h in again] == [h.result for h in hands]
    assert dumps_all(again) == text


def test_unfinished_hands_round_trip() -> None:
    rng = random.Random(7)
    for _ in range(200):
        hand = random_hand(RULES["no-limit"], rng, stop_after=rng.randint(0, 14))
        text = dumps(hand)
        data = loads(text)
        assert ("_seed" in data) == hand.is_over  # the seed is revealed after the hand
        assert ("finishing_stacks" in data) == hand.is_over
        replayed = replay(data) if hand.is_over else replay(data, use_seed=False)
        again = replayed.hand
        assert dumps(again, replayed.info) == text
        assert again.to_act == hand.to_act
        assert again.pot_total == hand.pot_total
        assert [p.stack for p in again.players] == [p.stack for p in hand.players]


def test_metadata_and_awkward_names() -> None:
    import datetime as dt

    rules = Rules.online(structure="no-limit")
    hand = Hand(rules, {1: 100, 2: 100, 5: 80}, 2, seed=bytes(range(32)), hand_id="42")
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        from drawpoker.actions import Action

        hand.act(Action.stand_pat(legal.seat) if legal.draw else Action.fold(legal.seat))
    info = HandInfo(
        names={1: "O'Brien", 2: 'Zoë "the \\ wall"', 5: "tab\there"},
        table="Euanthe II",
        time=dt.datetime(2026, 11, 29, 9, 5, 7),
        time_zone="UTC",
        currency="EUR",
        currency_symbol="€",
    )
    text = dumps(hand, info)
    data = tomllib.loads(text)
    assert data["players"] == ["tab\there", "O'Brien", 'Zoë "the \\ wall"']
    assert data["seats"] == [5, 1, 2]
    assert data["time"] == dt.time(9, 5, 7)
    again = replay(data)
    assert again.info.names == {5: "tab\there", 1: "O'Brien", 2: 'Zoë "the \\ wall"'}
    assert dumps(again.hand, again.info) == text


def test_toml_strings() -> None:
    for text in ["plain", "it's", 'q"uote', "back\\slash", "new\nline", "é ü 😀"]:
        assert tomllib.loads(f"x = {toml_str(text)}")["x"] == text


def test_reference_example_replays() -> None:
    """The no-limit example of HAND_HISTORIES.md (a foreign file: no seed, no _rules)."""
    text = """
variant = 'N5CD'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [200, 200, 200]
actions = ['d dh p1 AsAd7c5h2s', 'd dh p2 KcKh9d8s3c', 'd dh p3 QsJsTs4d2h',
  'p3 cbr 6', 'p1 cc', 'p2 cc',
  'p1 sd 7c5h2s', 'p2 sd 9d8s3c', 'p3 sd 4d2h',
  'd dh p1 Ac9h3d', 'd dh p2 Kd6c4s', 'd dh p3 9s8c',
  'p1 cbr 10', 'p2 cc', 'p3 f', 'p1 sm AsAdAc9h3d', 'p2 sm']
players = ['Alice', 'Bob', 'Carol']
"""
    replayed = replay(loads(text))
    hand = replayed.hand
    assert [hand.result.stacks[s] for s in (1, 2, 3)] == [222, 184, 194]
    assert replayed.info.names == {1: "Alice", 2: "Bob", 3: "Carol"}
    assert hand.rules.big_blind == 2
    assert hand.rules.small_blind == 1


def test_deal_order_keeps_each_players_cards_in_order() -> None:
    rng = random.Random(3)
    for _ in range(300):
        cards = rng.sample(range(52), 30)
        dealt = set(cards[:10])
        dhs = [(k, tuple(cards[10 + 4 * k : 14 + 4 * k])) for k in range(5)]
        out = deal_order(dhs, dealt)
        for k, mine in dhs:
            assert tuple(c for j, part in out if j == k for c in part) == mine


def test_stacked_deck_replay_of_a_reshuffle() -> None:
    rules = Rules.online(structure="no-limit", max_seats=6)
    hand = Hand(rules, dict.fromkeys(range(1, 7), 50), 6, deck=Deck.stacked(""))
    from drawpoker.actions import Action

    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        if legal.draw:
            hand.act(Action.draw(legal.seat, legal.hand))
        else:
            hand.act(Action.check(legal.seat) if legal.check else Action.call(legal.seat))
    assert hand.reshuffles
    text = dumps(hand)
    assert "# reshuffle" in text
    assert dumps(replay(loads(text)).hand) == text


def test_explicit_posts_round_trip() -> None:
    """Posts the room chose (a returning player's dead small blind with the big blind,
    a dead button) travel in ``_posts`` and replay the same."""
    from drawpoker.actions import Action
    from drawpoker.events import PostKind
    from drawpoker.history import pokerstars

    rules = Rules.online(structure="no-limit", antes=1)
    posts = [(3, PostKind.SMALL_BLIND, 1), (4, PostKind.BIG_BLIND, 2)]
    posts += [(6, PostKind.BIG_BLIND, 2), (6, PostKind.DEAD_SMALL_BLIND, 1)]
    hand = Hand(rules, {1: 80, 3: 90, 4: 100, 6: 70}, 2, posts=posts, seed=bytes(32))
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(Action.stand_pat(legal.seat) if legal.draw else Action.call(legal.seat)
                 if legal.call else Action.check(legal.seat))  # fmt: skip
    text = dumps(hand)
    data = loads(text)
    assert data["_posts"] == [[3, "small blind", 1], [4, "big blind", 2], [6, "big blind", 2],
                              [6, "dead small blind", 1]]  # fmt: skip
    assert data["antes"] == [1, 1, 2, 1]  # seats 3, 4, 6, 1: antes and the dead blind
    again = replay(data)
    assert again.hand.result == hand.result
    assert dumps(again.hand) == text
    assert "posts small & big blinds 3" in pokerstars.write(hand)
