"""The shark: exact draw odds against modelled opponents, and the expected value
of each line.

- Its own final hand: before the draw, the exact strength histogram of each
  sensible discard (``drawpoker.odds.DrawTable``; the four-card draw only when
  it could matter), computed once per hand; after the draw, its strength.
- Each opponent's final hand: the model of ``drawpoker.bots.model`` for the
  share of hands that seat plays or raises (observed over the session) and the
  number of cards it drew, narrowed when it bets or raises after the draw as far
  as its shown hands say its bets mean strength, and blended with the hands it
  has shown for that draw count.
- Two chances against all live opponents, for each of its final strengths:
  ``now`` if it checks or calls (a player yet to act before the draw may still
  fold), ``called`` if it bets (each opponent folds at its observed rate for the
  situation, or continues with the top of its range; a fold counts as a win).
- Each line's expected chips: calling is worth ``realise * p * (pot + call) -
  call``; a bet or raise, tried at several sizes (the fixed size in limit), is
  worth what everyone folding wins plus the contested showdown, scaled by
  ``realise`` (equity before the draw is discounted for the betting still to
  come and for position). It takes the best, demanding a margin of the pot to
  bet or raise that grows with players behind and raises already made.
- Bluffs are lines like any other: they win when the opponents' fold rates make
  them pay. Heads-up it adds a few bets with its worst hands so that its bets are
  never pure value, and sometimes snows: stands pat on nothing after raising,
  against one opponent drawing two or more who folds often, and bets it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from drawpoker.actions import Action, LegalActions
from drawpoker.bots.base import (
    Bot,
    HandActions,
    SeatInfo,
    Situation,
    ask_for_openers,
    bet_to,
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
    Raised,
    StoodPat,
    Street,
)
from drawpoker.odds import DrawTable
from drawpoker.rules import OpenersCheck

_ONES = np.ones(MAX_STRENGTH + 1)
Choice = tuple[tuple[int, ...], Curve]  # (discard, distribution of my final strength)


def candidate_discards(cards: Sequence[int], max_discard: int) -> list[tuple[int, ...]]:
    """The discards worth counting: stand pat, every one-card draw, keep the pairs
    (or trips) alone and with the best kicker, keep the two or three highest cards."""
    counts: dict[int, int] = {}
    for c in cards:
        counts[c >> 2] = counts.get(c >> 2, 0) + 1
    order = sorted(cards, key=lambda c: (counts[c >> 2], c), reverse=True)
    found: list[tuple[int, ...]] = [()]
    found += [(c,) for c in cards]
    made = [c for c in order if counts[c >> 2] >= 2]
    if made:
        loose = [c for c in order if counts[c >> 2] == 1]
        found.append(tuple(loose))
        if len(loose) >= 2:
            found.append(tuple(loose[1:]))
    else:
        found.append(tuple(order[2:]))
        found.append(tuple(order[3:]))
    unique = list(dict.fromkeys(tuple(sorted(d)) for d in found))
    return [d for d in unique if len(d) <= max_discard]


class Shark(Bot):
    name = "shark"
    description = "exact draw odds, opponent modelling, balanced bluffs and snows"

    def __init__(self, *, seed: int | str | bytes = 0) -> None:
        super().__init__(seed=seed)
        samples()  # build the opponent model now (once per process), not mid-hand
        self.stats: dict[int, OpponentStats] = {}
        self._hand_key: tuple[str | int, ...] = ()
        self._table: DrawTable | None = None
        self._choices: list[Choice] = []
        self._four_done = False
        self._snowing = False
        self._acts = hand_actions(())
        self._continues: list[tuple[SeatInfo, float]] = []

    # ------------------------------------------------------------- memory

    def observe(self, events: Sequence[Event]) -> None:
        street = Street.PRE_DRAW
        dealt: list[int] = []
        bet_open = False
        played: set[int] = set()
        raised: set[int] = set()
        bet_after: set[int] = set()
        committed: set[int] = set()  # put chips in voluntarily this round
        drew: dict[int, int] = {}
        for event in events:
            if isinstance(event, HandStarted):
                dealt = [seat for seat, _ in event.stacks]
            elif isinstance(event, BettingRoundEnded):
                street = Street.POST_DRAW
                bet_open = False
                committed = set()
            elif isinstance(event, (BetPlaced, Raised)):
                if street is Street.PRE_DRAW:
                    played.add(event.seat)
                    raised.add(event.seat)
                else:
                    bet_after.add(event.seat)
                    if isinstance(event, BetPlaced):
                        self._stats(event.seat).post_chances += 1
                        self._stats(event.seat).post_bets += 1
                if isinstance(event, Raised) and bet_open:
                    self._faced(event.seat, False, event.seat in committed, street)
                committed.add(event.seat)
                bet_open = True
            elif isinstance(event, Called):
                if street is Street.PRE_DRAW:
                    played.add(event.seat)
                if bet_open:
                    self._faced(event.seat, False, event.seat in committed, street)
                committed.add(event.seat)
            elif isinstance(event, Checked):
                if street is Street.POST_DRAW and not bet_open:
                    self._stats(event.seat).post_chances += 1
            elif isinstance(event, Folded):
                if bet_open:
                    self._faced(event.seat, True, event.seat in committed, street)
            elif isinstance(event, StoodPat):
                drew[event.seat] = 0
            elif isinstance(event, Discarded):
                drew[event.seat] = event.count
            elif isinstance(event, HandShown) and event.seat in drew and event.seat != self.seat:
                stats = self._stats(event.seat)
                k = min(drew[event.seat], 4)
                strength = evaluate(event.cards).strength
                stats.shown.setdefault(k, []).append(strength)
                if event.seat in bet_after:
                    stats.bet_shown.append(float(beat_curve(1.0, k)[strength]))
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

    def _faced(self, seat: int, folded: bool, again: bool, street: Street) -> None:
        if seat == self.seat:
            return
        stats = self._stats(seat)
        i = int(street is not Street.PRE_DRAW)
        if again:
            stats.faced_again[i] += 1
            stats.folded_again[i] += folded
        else:
            stats.faced[i] += 1
            stats.folded[i] += folded

    # ------------------------------------------------------------- models

    def _curve(self, seat: int, acts: HandActions, street: Street) -> Curve:
        """Chance to beat this opponent with each of my final strengths."""
        stats = self._stats(seat)
        raises = acts.raises_pre.get(seat, 0)
        if raises:
            top = stats.pfr / (2.5 ** (raises - 1))
        elif seat in acts.called_pre or self.rules.is_italian:
            top = stats.vpip if seat in acts.called_pre else 1.0
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
            curve = top_of(curve, stats.bet_range**post)
        return curve

    def _beliefs(self, sit: Situation, acts: HandActions) -> tuple[Curve, Curve]:
        """Chance to beat everyone with each final strength: ``now`` if it checks or
        calls, ``called`` if it bets or raises (an opponent who folds is beaten).
        Also sets ``self._continues``: each opponent's chance to call a bet."""
        now = _ONES
        called = _ONES
        continues: list[tuple[SeatInfo, float]] = []
        pre = sit.street is Street.PRE_DRAW
        raised = bool(acts.raises_pre) if pre else bool(acts.raises_post)
        for opponent in sit.opponents:
            stats = self._stats(opponent.seat)
            if opponent.all_in:
                curve = self._curve(opponent.seat, acts, sit.street)
                now, called = now * curve, called * curve
                continue
            if pre and not acts.committed(opponent.seat, Street.PRE_DRAW):
                # Not in voluntarily yet: it may still fold what it holds.
                fresh = 1.0 - stats.folds(False, False)
                if opponent.wager >= sit.highest:
                    stay, stay_bet = 1.0, fresh  # may check; a bet makes it choose
                elif raised:
                    stay = fresh
                    stay_bet = fresh * 0.8
                else:
                    stay = stats.vpip
                    stay_bet = min(stay, fresh)
                stay, stay_bet = _round(stay), _round(stay_bet)
                now = now * ((1.0 - stay) + stay * beat_curve(stay, None))
                called = called * ((1.0 - stay_bet) + stay_bet * beat_curve(stay_bet, None))
            else:
                curve = self._curve(opponent.seat, acts, sit.street)
                fold = self._folds(opponent.seat, acts, sit.street)
                stay_bet = 1.0 - fold
                now = now * curve
                called = called * (fold + stay_bet * top_of(curve, stay_bet))
            continues.append((opponent, stay_bet))
        self._continues = continues
        return now, called

    def _prepare(self, sit: Situation, acts: HandActions) -> None:
        """Once per hand: the exact histograms of the sensible discards."""
        key: tuple[str | int, ...] = (*acts.hand_key, *sorted(sit.cards))
        if key == self._hand_key:
            return
        self._hand_key = key
        self._snowing = False
        self._four_done = False
        table = DrawTable(sit.cards)
        self._table = table
        self._choices = [
            (thrown, _normalised(table.histogram(thrown)))
            for thrown in candidate_discards(sit.cards, min(3, self.rules.max_discard))
        ]

    def _add_four_card_draw(self, cards: Sequence[int]) -> None:
        """Keep only the highest card: 178,365 draws, counted only when it may matter."""
        if self._four_done or self._table is None or self.rules.max_discard < 4:
            return
        self._four_done = True
        top = max(cards)
        thrown = tuple(c for c in cards if c != top)
        self._choices.append((thrown, _normalised(self._table.histogram(thrown))))

    def _best(self, against: Curve) -> tuple[Choice, float]:
        best = self._choices[0]
        best_p = -1.0
        for choice in self._choices:
            p = float(choice[1] @ against)
            if p > best_p + 1e-9:
                best, best_p = choice, p
        return best, best_p

    # ------------------------------------------------------------ decisions

    def decide(
        self, view: Mapping[str, Any], legal: LegalActions, events: Sequence[Event]
    ) -> Action:
        if legal.ask_openers:  # R48: a little more curious than the rules bots
            return ask_for_openers(legal, events, self.rules, self.rng, curiosity=0.2)
        sit = read(view, legal, self.rules)
        acts = self._acts = hand_actions(events)
        if sit.street is not Street.POST_DRAW:
            self._prepare(sit, acts)
        now, called = self._beliefs(sit, acts)
        if legal.draw:
            return self._draw(sit, acts, legal, now)
        if sit.street is Street.PRE_DRAW:
            return self._pre_draw(sit, acts, legal, now, called)
        return self._post_draw(sit, acts, legal, now, called)

    def _draw(self, sit: Situation, acts: HandActions, legal: LegalActions, now: Curve) -> Action:
        if evaluate(sit.cards).category == 1:
            self._add_four_card_draw(sit.cards)
        (thrown, _), p = self._best(now)
        opponents = sit.opponents
        if (
            len(opponents) == 1
            and p < 0.3
            and acts.raises_pre.get(sit.seat, 0) > 0
            and (acts.drew.get(opponents[0].seat) or 3) >= 2
            and self._folds(opponents[0].seat, acts, Street.POST_DRAW) > 0.3
            and not sit.me.all_in
            and not opponents[0].all_in
            and self.rng.random() < 0.25
        ):
            self._snowing = True  # stand pat on nothing and bet it
            return Action.stand_pat(legal.seat)
        return Action.draw(legal.seat, thrown[: legal.max_discard])

    def _fair(self, sit: Situation) -> float:
        return 1.0 / (len(sit.opponents) + 1)

    def _size(self, sit: Situation, legal: LegalActions, fraction: float) -> int:
        """Bet or raise to: the call plus ``fraction`` of the pot after calling; all in
        when what would be left is small against the pot."""
        if legal.min_to == legal.max_to:
            return legal.min_to
        call = legal.call
        to = sit.me.wager + call + int(fraction * (sit.pot + call))
        all_in = sit.me.wager + sit.me.stack
        if all_in - to < 0.6 * (sit.pot + 2 * call):
            to = all_in
        return to

    def _folds(self, seat: int, acts: HandActions, street: Street) -> float:
        return self._stats(seat).folds(acts.committed(seat, street), street is not Street.PRE_DRAW)

    def _fold_chance(self, sit: Situation) -> float:
        """Chance that everyone folds to a bet."""
        fold = 1.0
        for _, stay in self._continues:
            fold *= 1.0 - stay
        return fold if len(self._continues) == len(sit.opponents) else 0.0

    def _bet_ev(
        self, sit: Situation, legal: LegalActions, to: int, p_called: float, realize: float
    ) -> float:
        """Chips won by betting or raising to ``to``: everyone folds, or the callers
        put in their share and it wins the showdown ``p_called`` of the time (folds
        count as wins), scaled by ``realize`` for the betting still to come."""
        mine = to - sit.me.wager
        calls = sum(
            stay * max(min(to - opponent.wager, opponent.stack), 0)
            for opponent, stay in self._continues
        )
        everyone_folds = self._fold_chance(sit)
        if everyone_folds >= 1.0:
            return float(sit.pot)
        contested = (p_called - everyone_folds) / (1.0 - everyone_folds)
        called_pot = sit.pot + mine + calls / (1.0 - everyone_folds)
        return everyone_folds * sit.pot + (1.0 - everyone_folds) * (
            realize * contested * called_pot - mine
        )

    def _sizes(self, sit: Situation, legal: LegalActions) -> list[int]:
        if legal.min_to == legal.max_to:
            return [legal.min_to]
        low, high = legal.min_to, legal.max_to
        return sorted({max(low, min(high, self._size(sit, legal, f))) for f in (0.5, 0.75, 1.0)})

    def _choose(
        self,
        sit: Situation,
        legal: LegalActions,
        p: float,
        p_called: float,
        passive_ev: float,
        edge: float,
        realize: float = 1.0,
    ) -> Action:
        """Bet or raise at the best size if that beats the passive line by ``edge``
        of the pot; else check, call (``passive_ev`` > 0) or fold."""
        best_to, best_ev = 0, passive_ev + edge * sit.pot
        if legal.max_to:
            for to in self._sizes(sit, legal):
                ev = self._bet_ev(sit, legal, to, p_called, realize)
                if ev > best_ev:
                    best_to, best_ev = to, ev
        if best_to:
            return Action.bet(legal.seat, best_to)
        if legal.check:
            return Action.check(legal.seat)
        if passive_ev > 0:
            return Action.call(legal.seat)
        return check_or_fold(legal)

    def _pre_draw(
        self, sit: Situation, acts: HandActions, legal: LegalActions, now: Curve, called: Curve
    ) -> Action:
        (_, mine), p = self._best(now)
        rules = self.rules
        if (
            legal.bet_label == "open"
            and rules.openers_check is not OpenersCheck.SERVER
            and not has_openers(sit.cards, rules.openers_rank)
        ):
            legal = _no_bet(legal)  # a false opener forfeits the pot (R44, R48 if asked)
        fair = self._fair(sit)
        raises = sum(acts.raises_pre.values())
        price = legal.call / (sit.pot + legal.call) if legal.call else 0.0
        # Equity before the draw is not all realised: a betting round is still to
        # come, which the weaker hand and the player out of position tend to lose
        # (no limit pays a made draw more: implied odds).
        in_position = sit.last_to_act
        if rules.is_fixed_limit:
            realize = 0.95 if in_position else 0.85
        else:
            realize = 1.0 if in_position else 0.9
        if p * realize < price + 0.05 and p < fair * 1.2 and evaluate(sit.cards).category == 1:
            self._add_four_card_draw(sit.cards)  # might a four-card draw be worth a call?
            (_, mine), p = self._best(now)
        p_called = float(mine @ called)
        behind = sum(1 for s in sit.seats if not s.folded and s.position > sit.me.position)
        passive = realize * p * (sit.pot + legal.call) - legal.call
        edge = 0.02 + 0.03 * behind + 0.06 * raises  # raises already made mean strength
        return self._choose(sit, legal, p, p_called, passive, edge, realize)

    def _post_draw(
        self, sit: Situation, acts: HandActions, legal: LegalActions, now: Curve, called: Curve
    ) -> Action:
        strength = evaluate(sit.cards).strength
        p = float(now[strength])
        p_called = float(called[strength])
        carry = self.rules.is_italian and self.rules.checked_pot_stays
        if legal.check:  # nobody has bet
            passive = p * sit.pot * (0.5 if carry else 1.0)
            if self._snowing and legal.max_to:
                return bet_to(legal, self._size(sit, legal, 0.75))
            edge = 0.0 if sit.last_to_act else 0.03
            action = self._choose(sit, legal, p, p_called, passive, edge)
            if action.kind == "check" and legal.max_to and self._balance_bluff(sit, p):
                return bet_to(legal, self._size(sit, legal, 0.75))
            return action
        passive = p * (sit.pot + legal.call) - legal.call
        return self._choose(sit, legal, p, p_called, passive, 0.05)

    def _balance_bluff(self, sit: Situation, p: float) -> bool:
        """Heads-up, a few bets with the very worst hands, so that bets are never
        pure value, unless this opponent never folds."""
        if len(sit.opponents) != 1 or p > 0.15:
            return False
        return self._fold_chance(sit) > 0.25 and self.rng.random() < 0.08


def _round(share: float) -> float:
    """A share of hands in 0.03-1, rounded so the range curves cache well."""
    return round(min(max(share, 0.03), 1.0), 2)


def _normalised(histogram: np.ndarray[Any, np.dtype[np.int64]]) -> Curve:
    result: Curve = histogram / histogram.sum()
    return result


def _no_bet(legal: LegalActions) -> LegalActions:
    return LegalActions(
        seat=legal.seat,
        street=legal.street,
        fold=legal.fold,
        check=legal.check,
        call=legal.call,
        call_all_in=legal.call_all_in,
    )
