"""What the shark believes about an opponent's final hand.

A fixed sample of deals (seeded, built once per process) records for each
five-card hand its pre-draw score, how many cards the textbook draw takes and
the final strength after that draw. An opponent who plays the top ``f`` of
hands and drew ``k`` cards is then modelled by the final strengths of the
sampled hands in that slice; ``beat_curve`` turns that into the chance of
beating them with each strength 1..7,462.

``OpponentStats`` keeps what the shark observed of each seat over a session:
how many hands it plays and raises before the draw, how often it bets after
the draw and folds to a bet, and the hands it showed for each draw count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from drawpoker.bots.handlogic import predraw_score, standard_discard
from drawpoker.evaluator import MAX_STRENGTH, evaluate_many

SAMPLES = 40_000
_BINS = MAX_STRENGTH + 1
Curve = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Samples:
    quantile: npt.NDArray[np.float64]  # pre-draw score as a quantile 0..1 (1 = best)
    drew: npt.NDArray[np.int8]  # cards drawn by the textbook draw, 4 and 5 as 4
    final: npt.NDArray[np.int16]  # final strength


@lru_cache(maxsize=1)
def samples() -> Samples:
    rng = np.random.default_rng(20_260_801)
    decks = np.argsort(rng.random((SAMPLES, 52)), axis=1).astype(np.int8)
    scores = np.empty(SAMPLES)
    drew = np.empty(SAMPLES, dtype=np.int8)
    finals = np.empty((SAMPLES, 5), dtype=np.int8)
    for i in range(SAMPLES):
        deck = decks[i].tolist()
        hand = deck[:5]
        thrown = standard_discard(hand)
        scores[i] = predraw_score(hand)
        drew[i] = min(len(thrown), 4)
        kept = [c for c in hand if c not in thrown]
        finals[i] = kept + deck[5 : 5 + len(thrown)]
    order = np.argsort(scores, kind="stable")
    quantile = np.empty(SAMPLES)
    quantile[order] = (np.arange(SAMPLES) + 0.5) / SAMPLES
    return Samples(quantile, drew, evaluate_many(finals))


def curve_of(strengths: npt.NDArray[np.int16] | Sequence[int]) -> Curve:
    """``curve[s]``: chance that strength ``s`` beats one of these hands (ties half)."""
    histogram = np.bincount(np.asarray(strengths, dtype=np.int64), minlength=_BINS)[:_BINS]
    total = max(int(histogram.sum()), 1)
    below = np.cumsum(histogram) - histogram
    result: Curve = (below + histogram / 2) / total
    return result


@lru_cache(maxsize=2048)
def beat_curve(top: float, drew: int | None) -> Curve:
    """Chance to beat a player holding the top ``top`` of starting hands who drew ``drew``
    cards (None: not known yet), for each of my final strengths."""
    data = samples()
    chosen = data.quantile >= 1.0 - top
    if drew is not None:
        by_draw = chosen & (data.drew == min(drew, 4))
        if by_draw.sum() < 60:  # a draw this range rarely makes: use the draw alone
            by_draw = data.drew == min(drew, 4)
        chosen = by_draw
    curve = curve_of(data.final[chosen])
    curve.setflags(write=False)
    return curve


def top_of(curve: Curve, fraction: float) -> Curve:
    """The curve against only the best ``fraction`` of those hands (they bet or raised)."""
    fraction = min(max(fraction, 0.02), 1.0)
    result: Curve = np.clip((curve - (1.0 - fraction)) / fraction, 0.0, 1.0)
    return result


@dataclass(slots=True)
class OpponentStats:
    """One seat's observed tendencies over the session, with mild priors."""

    hands: int = 0
    played: int = 0  # put chips in voluntarily before the draw
    raised: int = 0
    post_chances: int = 0  # could bet after the draw (no bet yet)
    post_bets: int = 0
    # Answers to a bet or raise, [before the draw, after]: fresh (no chips put in
    # voluntarily this round yet) and again (after calling, betting or raising).
    faced: list[int] = field(default_factory=lambda: [0, 0])
    folded: list[int] = field(default_factory=lambda: [0, 0])
    faced_again: list[int] = field(default_factory=lambda: [0, 0])
    folded_again: list[int] = field(default_factory=lambda: [0, 0])
    shown: dict[int, list[int]] = field(default_factory=dict)  # draw count -> strengths
    # Hands shown after betting after the draw, as quantiles among the final hands
    # of a textbook drawer of as many cards:
    bet_shown: list[float] = field(default_factory=list)

    @property
    def vpip(self) -> float:
        return (self.played + 4.0) / (self.hands + 10.0)

    @property
    def pfr(self) -> float:
        return (self.raised + 1.5) / (self.hands + 10.0)

    @property
    def bet_rate(self) -> float:
        return (self.post_bets + 4.0) / (self.post_chances + 10.0)

    def folds(self, committed: bool, after_draw: bool) -> float:
        """How often it folds to a bet or raise in this situation (priors 40%, 10%)."""
        i = int(after_draw)
        if committed:
            return (self.folded_again[i] + 1.0) / (self.faced_again[i] + 10.0)
        return (self.folded[i] + 4.0) / (self.faced[i] + 10.0)

    @property
    def bet_range(self) -> float:
        """The share of its hands it bets with after the draw, as its shown bets say:
        a player betting the top ``f`` of its hands shows quantiles averaging
        ``1 - f / 2`` (prior: the top 40%)."""
        mean = (sum(self.bet_shown) + 0.8 * 6) / (len(self.bet_shown) + 6)
        return min(max(2.0 * (1.0 - mean), 0.05), 1.0)
