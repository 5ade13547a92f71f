"""The shark: exact draw odds against modelled opponents.

Every decision is a chance of winning at the showdown, ``p``, weighed against
the price:

- its own final hand: before the draw, the exact strength histogram of each
  sensible discard (``drawpoker.odds.DrawTable``, cached per hand); after the
  draw, its strength;
- each opponent's final hand: the model of ``drawpoker.bots.model`` for the
  share of hands that seat plays or raises (observed over the session), the
  number of cards it drew, narrowed when it bets or raises after the draw and
  blended with the hands it has shown;
- ``p`` against all live opponents is the product over them.

Then it raises for value above a threshold that falls with the number of
opponents and with position, calls when ``p`` beats the pot odds (with some
implied odds before the draw), sizes bets by the pot, the stack and how often
the opponent calls, bluffs after the draw when the opponents fold often enough
to make it pay (and now and then anyway, to stay balanced), and sometimes
snows: stands pat on nothing heads-up and bets as if it were made.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

import numpy as np

from drawpoker.actions import Action, LegalActions
from drawpoker.bots.base import (
    Bot,
    HandActions,
    Situation,
    bet_to,
    check_or_call,
    check_or_fold,
    hand_actions,
    read,
)
from drawpoker.bots.handlogic import has_openers
from drawpoker.bots.model import Curve, OpponentStats, beat_curve, curve_of, samples, top_of
from drawpoker.evaluator import MAX_STRENGTH, evaluate
from drawpoker.events import (
    BetPlaced,
    BettingRoundEnded,
    Called,
    Checked,
    Discarded,
    Event,
    Folded,
    HandShown,
    HandStarted,
    Posted,
    PostKind,
    Raised,
    StoodPat,
    Street,
)
from drawpoker.odds import DrawTable
from drawpoker.rules import OpenersCheck

_ONES = np.ones(MAX_STRENGTH + 1)


class Shark(Bot):
    name = "shark"
    description = "exact draw odds, opponent modelling, balanced bluffs and snows"

    def __init__(self, *, seed: int | str | bytes = 0) -> None:
        super().__init__(seed=seed)
        samples()  # build the opponent model now (once per process), not mid-hand
        self.stats: dict[int, OpponentStats] = {}
        self._hand_key: tuple[str, int] = ("", -1)
        self._table: DrawTable | None = None
        self._choices: list[tuple[tuple[int, ...], np.ndarray[Any, np.dtype[np.float64]]]] = []
        self._snowing = False
        self._bluffed = False

    # ------------------------------------------------------------- memory

    def observe(self, events: Sequence[Event]) -> None:
        street = Street.PRE_DRAW
        dealt: list[int] = []
        bet_open = False
        played: set[int] = set()
        raised: set[int] = set()
        drew: dict[int, int] = {}
        for event in events:
            if isinstance(event, HandStarted):
                dealt = [seat for seat, _ in event.stacks]
            elif isinstance(event, Posted) and event.kind is PostKind.INVITO:
                pass
            elif isinstance(event, BettingRoundEnded):
                street = Street.POST_DRAW
                bet_open = False
            elif isinstance(event, (BetPlaced, Raised)):
                if street is Street.PRE_DRAW:
                    played.add(event.seat)
                    raised.add(event.seat)
                else:
                    stats = self._stats(event.seat)
                    if isinstance(event, BetPlaced):
                        stats.post_chances += 1
                        stats.post_bets += 1
                    else:
                        self._faced(event.seat, folded=False)
                bet_open = True
            elif isinstance(event, Called):
                if street is Street.PRE_DRAW:
                    played.add(event.seat)
                if bet_open:
                    self._faced(event.seat, folded=False)
            elif isinstance(event, Checked):
                if street is Street.POST_DRAW and not bet_open:
                    self._stats(event.seat).post_chances += 1
            elif isinstance(event, Folded):
                if bet_open:
                    self._faced(event.seat, folded=True)
            elif isinstance(event, StoodPat):
                drew[event.seat] = 0
            elif isinstance(event, Discarded):
                drew[event.seat] = event.count
            elif isinstance(event, HandShown) and event.seat in drew:
                stats = self._stats(event.seat)
                shown = stats.shown.setdefault(min(drew[event.seat], 4), [])
                shown.append(evaluate(event.cards).strength)
        for seat in dealt:
            if seat == self.seat:
                continue
            stats = self._stats(seat)
            stats.hands += 1
            stats.played += seat in played
            stats.raised += seat in raised

    def _stats(self, seat: int) -> OpponentStats:
        stats = self.stats.get(seat)
        if stats is None:
            stats = self.stats[seat] = OpponentStats()
        return stats

    def _faced(self, seat: int, folded: bool) -> None:
        if seat == self.seat:
            return
        stats = self._stats(seat)
        stats.faced += 1
        stats.folded += folded

    # ------------------------------------------------------------- models

    def _curve(self, seat: int, acts: HandActions, street: Street) -> Curve:
        """Chance to beat this opponent with each of my final strengths."""
        stats = self._stats(seat)
        raises = acts.raises_pre.get(seat, 0)
        if self.rules.is_italian:
            top = stats.vpip if seat in acts.called_pre or raises else 1.0
        elif raises:
            top = stats.pfr / (2.5 ** (raises - 1))
        elif seat in acts.called_pre:
            top = stats.vpip
        else:
            top = 1.0
        top = round(min(max(top, 0.03), 1.0), 2)
        drew = acts.drew.get(seat)
        curve = beat_curve(top, drew)
        if drew is not None:
            shown = stats.shown.get(min(drew, 4), [])
            if len(shown) >= 8:
                weight = len(shown) / (len(shown) + 40.0)
                curve = (1 - weight) * curve + weight * curve_of(shown)
        post = acts.raises_post.get(seat, 0)
        if street is Street.POST_DRAW and post:
            curve = top_of(curve, stats.bet_rate**post)
        return curve

    def _against(self, sit: Situation, acts: HandActions) -> Curve:
        total = _ONES
        for opponent in sit.opponents:
            total = total * self._curve(opponent.seat, acts, sit.street)
        return total

    def _prepare(self, sit: Situation, acts: HandActions) -> None:
        """Once per hand: the exact histograms of the sensible discards."""
        if acts.hand_key == self._hand_key:
            return
        self._hand_key = acts.hand_key
        self._snowing = False
        self._bluffed = False
        cards = sit.cards
        table = DrawTable(cards)
        max_discard = self.rules.max_discard
        choices = []
        for k in range(min(3, max_discard) + 1):
            for thrown in combinations(cards, k):
                histogram = table.histogram(thrown)
                choices.append((thrown, histogram / histogram.sum()))
        value = evaluate(cards)
        if value.category == 1 and max_discard >= 4:
            top = max(cards)
            thrown = tuple(c for c in cards if c != top)
            histogram = table.histogram(thrown)
            choices.append((thrown, histogram / histogram.sum()))
        self._table = table
        self._choices = choices

    def _best_draw(self, against: Curve) -> tuple[tuple[int, ...], float]:
        best: tuple[tuple[int, ...], float] = ((), -1.0)
        for thrown, distribution in self._choices:
            p = float(distribution @ against)
            if p > best[1] + 1e-9:
                best = (thrown, p)
        return best

    # ------------------------------------------------------------ decisions

    def decide(
        self, view: Mapping[str, Any], legal: LegalActions, events: Sequence[Event]
    ) -> Action:
        sit = read(view, legal, self.rules)
        acts = hand_actions(events)
        if sit.street is not Street.POST_DRAW:
            self._prepare(sit, acts)
        against = self._against(sit, acts)
        if legal.draw:
            return self._draw(sit, acts, legal, against)
        if sit.street is Street.PRE_DRAW:
            return self._pre_draw(sit, acts, legal, against)
        return self._post_draw(sit, acts, legal, against)

    def _draw(
        self, sit: Situation, acts: HandActions, legal: LegalActions, against: Curve
    ) -> Action:
        thrown, p = self._best_draw(against)
        opponents = sit.opponents
        if (
            len(opponents) == 1
            and p < 0.3
            and acts.raises_pre.get(sit.seat, 0) > 0
            and (acts.drew.get(opponents[0].seat) or 3) >= 2
            and self._stats(opponents[0].seat).fold_rate > 0.3
            and not sit.me.all_in
            and not opponents[0].all_in
            and self.rng.random() < 0.25
        ):
            self._snowing = True  # stand pat on nothing and bet it
            return Action.stand_pat(legal.seat)
        return Action.draw(legal.seat, thrown[: legal.max_discard])

    def _value_bar(self, sit: Situation) -> float:
        n = max(len(sit.opponents), 1)
        bar: float = 0.6 / n**0.35
        if sit.last_to_act:
            bar -= 0.03
        return bar

    def _size(self, sit: Situation, legal: LegalActions, fraction: float) -> int:
        """Bet or raise to: the call plus ``fraction`` of the pot after calling; all in
        when what would be left is small against the pot."""
        call = legal.call
        to = sit.me.wager + call + int(fraction * (sit.pot + call))
        all_in = sit.me.wager + sit.me.stack
        if all_in - to < 0.6 * (sit.pot + 2 * call):
            to = all_in
        return to

    def _calls_often(self, sit: Situation) -> bool:
        return all(self._stats(o.seat).fold_rate < 0.25 for o in sit.opponents)

    def _pre_draw(
        self, sit: Situation, acts: HandActions, legal: LegalActions, against: Curve
    ) -> Action:
        _, p = self._best_draw(against)
        rules = self.rules
        if (
            legal.bet_label == "open"
            and rules.openers_check is OpenersCheck.SHOWDOWN
            and not has_openers(sit.cards, rules.openers_rank)
        ):
            legal = _no_bet(legal)  # a false opener can never win the pot (R44)
        bar = self._value_bar(sit)
        raises = sum(acts.raises_pre.values())
        behind = sum(
            1 for s in sit.seats if not s.folded and s.position > sit.me.position
        )  # still to act after me this round (roughly)
        if raises == 0:
            bar += 0.015 * behind  # early position: stronger to open
            if behind <= 1 and not any(acts.called_pre - {sit.seat}):
                bar -= 0.08  # a steal from the button or the small blind
        else:
            bar += 0.05 * (raises - 1)
        if p >= bar and legal.max_to:
            fraction = 1.0 if not rules.is_fixed_limit else 0.0
            return bet_to(legal, self._size(sit, legal, fraction) if fraction else legal.min_to)
        if legal.check:
            return check_or_call(legal)
        price = legal.call / (sit.pot + legal.call)
        implied = 0.85 if not rules.is_fixed_limit else 0.92
        if p >= price * implied:
            return Action.call(legal.seat)
        return check_or_fold(legal)

    def _post_draw(
        self, sit: Situation, acts: HandActions, legal: LegalActions, against: Curve
    ) -> Action:
        strength = evaluate(sit.cards).strength
        p = float(against[strength])
        rules = self.rules
        bar = self._value_bar(sit) + 0.05
        calls_often = self._calls_often(sit)
        if self._snowing:
            p = max(p, 0.0)
        if legal.check:  # nobody has bet
            if p >= bar and legal.max_to:
                fraction = 0.9 if calls_often else 0.7
                if p > 0.9:
                    fraction = 1.0
                return bet_to(legal, self._size(sit, legal, fraction))
            if legal.max_to and self._bluff(sit, p):
                self._bluffed = True
                return bet_to(legal, self._size(sit, legal, 0.7))
            return Action.check(legal.seat)
        price = legal.call / (sit.pot + legal.call)
        if p >= max(bar + 0.15, 0.75) and legal.max_to:
            return bet_to(legal, self._size(sit, legal, 0.8))
        if p >= price:
            return Action.call(legal.seat)
        del rules
        return check_or_fold(legal)

    def _bluff(self, sit: Situation, p: float) -> bool:
        if p > 0.3:
            return False
        if self._snowing:
            return True
        fold = 1.0
        for opponent in sit.opponents:
            fold *= self._stats(opponent.seat).fold_rate
        breakeven = 0.7 / 1.7
        if fold > breakeven * 1.1:
            return self.rng.random() < 0.5
        if len(sit.opponents) == 1 and fold > 0.25:
            return self.rng.random() < 0.06  # balance: a few bluffs even when it does not pay
        return False


def _no_bet(legal: LegalActions) -> LegalActions:
    return LegalActions(
        seat=legal.seat,
        street=legal.street,
        fold=legal.fold,
        check=legal.check,
        call=legal.call,
        call_all_in=legal.call_all_in,
    )
