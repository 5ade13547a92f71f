"""Bots: the registry, the textbook draw, legality everywhere, openers, session memory."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drawpoker.actions import Action, LegalActions
from drawpoker.bots import BOTS, Bot, Shark, UnknownBot, make_bot
from drawpoker.bots.handlogic import has_openers, predraw_score, standard_discard
from drawpoker.bots.shark import candidate_discards
from drawpoker.cards import parse_cards
from drawpoker.errors import DrawPokerError
from drawpoker.events import EVERYONE, BetPlaced, Event, OpenersShown
from drawpoker.hand import Hand
from drawpoker.odds import draw_odds
from drawpoker.rules import Rules
from drawpoker.tools.match import deck_seed, play_match

RULES = {
    "fixed-limit": Rules.online(structure="fixed-limit", small_blind=1, big_blind=2),
    "pot-limit": Rules.online(structure="pot-limit", small_blind=1, big_blind=2),
    "no-limit": Rules.online(structure="no-limit", small_blind=1, big_blind=2),
    "italian": Rules.italian(),
    "italian-showdown": Rules.italian(openers_check="showdown"),
    "italian-one-less": Rules.italian(invito_others="one_less", openers="QQ"),
    "italian-on-request": Rules.italian(openers_check="on_request", false_opener_penalty=50),
}


def test_registry() -> None:
    assert list(BOTS) == ["random", "calling-station", "tag", "shark"]
    for name in BOTS:
        bot = make_bot(name, seed=1)
        assert isinstance(bot, Bot)
        assert bot.name == name
    with pytest.raises(UnknownBot, match="one of random, calling-station"):
        make_bot("fish")
    assert issubclass(UnknownBot, DrawPokerError)


@pytest.mark.parametrize(
    ("hand", "discard"),
    [
        ("Ac Kd Qh Jc Ts", ""),  # straight: pat
        ("2h 7h 9h Jh Kh", ""),  # flush: pat
        ("9c 9d 9h Kc 4d", "Kc 4d"),  # trips draw two
        ("Kc Kd 7h 7s 2c", "2c"),  # two pair draw one
        ("Jc Jd 8h 4d 2s", "8h 4d 2s"),  # pair draw three
        ("Ah 9h 6h 3h Kc", "Kc"),  # four-flush
        ("5c 6d 7h 8s Kc", "Kc"),  # open-ended
        ("Ac 7d 5h 3s 2c", "7d 5h 3s 2c"),  # keep the ace
        ("Ac Qd 7h 4s 2c", "7h 4s 2c"),  # keep two high cards
    ],
)
def test_standard_discard(hand: str, discard: str) -> None:
    cards = parse_cards(hand)
    assert sorted(standard_discard(cards)) == sorted(parse_cards(discard))
    assert len(standard_discard(cards, max_discard=3)) <= 3


def test_predraw_order_and_openers() -> None:
    order = ["Ac Kd Qh Jc Ts", "9c 9d 9h Kc 4d", "Kc Kd 7h 7s 2c", "Ac Ad 8h 4d 2s",
             "Jc Jd 8h 4d 2s", "2c 2d 8h 4d As", "Ac 7d 5h 3s 2c"]  # fmt: skip
    scores = [predraw_score(parse_cards(h)) for h in order]
    assert scores == sorted(scores, reverse=True)
    assert has_openers(parse_cards("Jc Jd 8h 4d 2s"), 9)
    assert not has_openers(parse_cards("Tc Td 8h 4d 2s"), 9)
    assert has_openers(parse_cards("3c 3d 8h 8d 2s"), 9)
    assert not has_openers(parse_cards("Jc Jd 8h 4d 2s"), 10)  # Queens to open


@settings(max_examples=18, deadline=None)
@given(
    rules_name=st.sampled_from(sorted(RULES)),
    lineup=st.lists(st.sampled_from(sorted(BOTS)), min_size=2, max_size=6),
    stack_bb=st.sampled_from([1, 3, 10, 100]),
    seed=st.integers(0, 10**6),
)
def test_bots_never_act_illegally(
    rules_name: str, lineup: list[str], stack_bb: int, seed: int
) -> None:
    """``play_match`` raises IllegalAction if any bot chooses an illegal action."""
    result = play_match(lineup, RULES[rules_name], len(lineup) * 3, str(seed), stack_bb=stack_bb)
    assert result.hands == len(lineup) * 3


@pytest.mark.parametrize("rules_name", sorted(RULES))
@pytest.mark.parametrize("stack_bb", [4, 100])
def test_every_bot_plays_every_structure_and_preset(rules_name: str, stack_bb: int) -> None:
    lineup = ["shark", "tag", "calling-station", "random"]
    result = play_match(lineup, RULES[rules_name], 16, "sweep", stack_bb=stack_bb)
    assert sorted(r.name for r in result.results) == sorted(lineup)
    assert all(r.decisions > 0 for r in result.results)


class Spy(Bot):
    """Checks that a wrapped bot is only shown what its seat may see."""

    def __init__(self, inner: Bot) -> None:
        super().__init__()
        self.inner = inner
        self.opens: list[tuple[int, ...]] = []

    def sit(self, seat: int, rules: Rules) -> None:
        super().sit(seat, rules)
        self.inner.sit(seat, rules)

    def decide(
        self, view: Mapping[str, Any], legal: LegalActions, events: Sequence[Event]
    ) -> Action:
        for entry in view["seats"]:
            if entry["seat"] != self.seat:
                assert entry["cards"] is None or view["street"] in ("showdown", "over")
        assert all(e.visible_to in (EVERYONE, self.seat) for e in events)
        action = self.inner.decide(view, legal, events)
        if legal.bet_label == "open" and action.kind == "bet":
            mine = next(e for e in view["seats"] if e["seat"] == self.seat)
            self.opens.append(parse_cards(" ".join(mine["cards"])))
        return action

    def observe(self, events: Sequence[Event]) -> None:
        self.inner.observe(events)


def play(rules: Rules, bots: dict[int, Bot], hands: int, seed: str) -> list[Event]:
    for seat, bot in bots.items():
        bot.sit(seat, rules)
    events: list[Event] = []
    carried = 0
    for i in range(hands):
        hand = Hand(
            rules,
            dict.fromkeys(bots, 100 * max(rules.big_blind, rules.invito)),
            i % len(bots) + 1,
            seed=deck_seed(seed, i),
            carried_pot=carried,
        )
        while not hand.is_over:
            legal = hand.legal_actions()
            assert legal is not None
            bot = bots[legal.seat]
            hand.act(bot.decide(hand.view(legal.seat), legal, hand.events_for(legal.seat)))
        for seat, bot in bots.items():
            bot.observe(hand.events_for(seat))
        carried = hand.result.carried_pot
        events += hand.events
    return events


@pytest.mark.parametrize("name", sorted(BOTS))
def test_italian_showdown_mode_never_opens_without_openers(name: str) -> None:
    rules = RULES["italian-showdown"]
    spies = {1: Spy(make_bot(name, seed=1)), 2: Spy(make_bot("calling-station")),
             3: Spy(make_bot(name, seed=3))}  # fmt: skip
    events = play(rules, dict(spies), 60, "openers")
    opened = [e for e in events if isinstance(e, BetPlaced) and e.opened]
    assert opened  # the test saw openings
    for spy in spies.values():
        for cards in spy.opens:
            assert has_openers(cards, rules.openers_rank)
    assert all(e.valid for e in events if isinstance(e, OpenersShown))


def test_shark_learns_tendencies() -> None:
    rules = RULES["fixed-limit"]
    shark = Shark(seed=5)
    play(rules, {1: shark, 2: make_bot("calling-station"), 3: make_bot("tag")}, 150, "memory")
    station, tag = shark.stats[2], shark.stats[3]
    assert station.hands == tag.hands == 150
    assert station.vpip > 0.8 > tag.vpip
    assert station.pfr < tag.pfr
    assert station.folds(False, True) < 0.2 < tag.folds(False, True)
    assert station.folds(False, False) < 0.2 < tag.folds(False, False)
    assert sum(len(v) for v in station.shown.values()) > 10


def test_shark_is_deterministic_per_seed() -> None:
    a = play_match(["shark", "tag"], RULES["no-limit"], 60, "same")
    b = play_match(["shark", "tag"], RULES["no-limit"], 60, "same")
    assert a.results[0].bb_per_100 == b.results[0].bb_per_100


@pytest.mark.slow
def test_shark_beats_random_and_calling_station() -> None:
    vs_random = play_match(["shark", "random"], RULES["no-limit"], 400, "unit-random")
    assert vs_random.results[0].low > 0
    vs_station = play_match(["shark", "calling-station"], RULES["fixed-limit"], 600, "unit-cs")
    assert vs_station.results[0].low > 0
    table = play_match(
        ["shark", "calling-station", "random", "tag"], RULES["fixed-limit"], 400, "t4"
    )
    by_name = {r.name: r for r in table.results}
    assert by_name["shark"].bb_per_100 > max(
        r.bb_per_100 for name, r in by_name.items() if name != "shark"
    )


@pytest.mark.parametrize(
    "hand",
    ["Jc Jd 8h 4d 2s", "9c 9d 9h Kc 4d", "Kc Kd 7h 7s 2c", "Ah 9h 6h 3h Kc", "Ac Qd 7h 4s 2c"],
)
def test_shark_candidates_include_the_exact_best_draw(hand: str) -> None:
    """The shark counts only sensible discards; the best of all 32 by the odds
    module (percentile utility) is always among them for ordinary hands."""
    cards = parse_cards(hand)
    candidates = {tuple(sorted(d)) for d in candidate_discards(cards, 5)}
    assert () in candidates
    best = draw_odds(cards, max_discard=3)[0]
    assert tuple(sorted(best.discard)) in candidates
    assert all(len(d) <= 2 for d in candidate_discards(cards, 2))


def _request_hand(opener_cards: str, draws: str, script: list[Action]) -> Hand:
    """Italian on request, seat 1 opens with ``opener_cards``; seat 2 calls."""
    from drawpoker.deck import Deck

    rules = Rules.italian(invito=10, max_seats=3, openers_check="on_request",
                          checked_pot_stays=False)  # fmt: skip
    hands = [opener_cards, "2c 3c 8h 6h Jh", "4s 5s 7c 9s Ks"]  # seats 1, 2, 3 (button 3)
    cards = [parse_cards(h) for h in hands]
    deck = Deck.stacked(
        [cards[p][k] for k in range(5) for p in range(3)] + list(parse_cards(draws))
    )
    hand = Hand(rules, {1: 500, 2: 500, 3: 500}, 3, deck=deck)
    hand.apply(script)
    return hand


@pytest.mark.parametrize("name", sorted(BOTS))
def test_every_bot_answers_the_request_to_see_the_openers(name: str) -> None:
    """R48: at the end of the hand every bot asks or declines, never anything else."""
    hand = _request_hand(
        "Ts Td 8c 9h Kd", "2d 3d 4d",
        [Action.bet(1, 10), Action.call(2), Action.fold(3), Action.draw(1, "8c 9h Kd"),
         Action.stand_pat(2), Action.check(1), Action.check(2)],
    )  # fmt: skip
    for _ in range(2):
        legal = hand.legal_actions()
        assert legal is not None
        assert legal.ask_openers
        bot = make_bot(name, seed=3)
        bot.sit(legal.seat, hand.rules)
        action = bot.decide(hand.view(legal.seat), legal, hand.events_for(legal.seat))
        assert action.kind in ("ask-openers", "decline")
        hand.act(action)
        if hand.is_over:
            break
    hand.check_invariants()


def test_careful_bots_ask_when_the_opener_drew_four() -> None:
    hand = _request_hand(
        "Ts 2d 8c 9h Kd", "Jd Jc 4d 5d",
        [Action.bet(1, 10), Action.call(2), Action.fold(3), Action.draw(1, "2d 8c 9h Kd"),
         Action.stand_pat(2), Action.check(1), Action.check(2)],
    )  # fmt: skip
    legal = hand.legal_actions()
    assert legal is not None
    for name in ("tag", "shark"):
        bot = make_bot(name, seed=1)
        bot.sit(legal.seat, hand.rules)
        action = bot.decide(hand.view(legal.seat), legal, hand.events_for(legal.seat))
        assert action == Action.ask_openers(legal.seat), name
    hand.act(Action.ask_openers(legal.seat))
    assert hand.result.carried_pot > 0  # no openers: the penalty stays for the next hand
