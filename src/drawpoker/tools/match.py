"""Duplicate matches between bots, reported in big blinds per 100 hands.

Luck is cancelled by duplication: with ``n`` bots there are ``n`` sessions
played side by side, one per rotation of the seats, and hand ``i`` of every
session is dealt from the same deck (seed ``SHA-256(S:i)``) with the same
button. So every bot plays every deck from every seat. Each session is a
table with fixed seats and its own bot instances, so session memory (what
the shark learns of the other seats) means what it would at a real table.

Stacks start every hand at ``stack_bb`` big blinds (a cash game where
everyone tops up). The Italian game carries a pot nobody won into the
session's next hand (R40, R43, R44).

The result of a bot is its average net per hand played, in big blinds (the
invito in the Italian game) per 100 hands. The 95% interval is
``1.96 * sd / sqrt(decks)`` over the per-deck results, each deck's result
being the bot's average over every seat it played that deck from: those are
independent draws, while hands of one deck are strongly correlated.
"""

from __future__ import annotations

import hashlib
import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from drawpoker.bots import Bot, make_bot
from drawpoker.errors import IllegalAction, InvalidConfig
from drawpoker.hand import Hand
from drawpoker.rules import Rules


def deck_seed(seed: str, index: int) -> bytes:
    """The 32-byte deck seed of deck ``index`` of a match seeded ``seed``."""
    return hashlib.sha256(f"drawpoker-match:{seed}:{index}".encode()).digest()


@dataclass(frozen=True, slots=True)
class BotResult:
    name: str
    seats: int  # copies of this bot at the table
    hands: int  # hands played by all its copies
    bb_per_100: float
    ci95: float  # half-width of the 95% interval, bb/100
    decisions: int
    mean_decision_ms: float
    max_decision_ms: float

    @property
    def low(self) -> float:
        return self.bb_per_100 - self.ci95

    @property
    def high(self) -> float:
        return self.bb_per_100 + self.ci95


@dataclass(frozen=True, slots=True)
class MatchResult:
    bots: tuple[str, ...]
    rules: Rules
    seed: str
    decks: int
    hands: int  # hands dealt in total (decks x sessions)
    unit: int  # the chips in one big blind (or invito)
    results: tuple[BotResult, ...]
    seconds: float

    def to_dict(self) -> dict[str, object]:
        return {
            "bots": list(self.bots),
            "rules": self.rules.summary(),
            "structure": str(self.rules.structure),
            "preset": str(self.rules.preset),
            "seed": self.seed,
            "decks": self.decks,
            "hands": self.hands,
            "seconds": round(self.seconds, 1),
            "results": [
                {
                    "bot": r.name,
                    "seats": r.seats,
                    "hands": r.hands,
                    "bb_per_100": round(r.bb_per_100, 2),
                    "ci95": round(r.ci95, 2),
                    "interval": [round(r.low, 2), round(r.high, 2)],
                    "mean_decision_ms": round(r.mean_decision_ms, 3),
                    "max_decision_ms": round(r.max_decision_ms, 3),
                }
                for r in self.results
            ],
        }


@dataclass(slots=True)
class _Session:
    bots: dict[int, Bot]  # seat -> bot
    names: dict[int, str]  # seat -> bot name
    carried: int = 0
    next_seq: int = 1


@dataclass(slots=True)
class _Timing:
    count: int = 0
    total: float = 0.0
    worst: float = 0.0
    by_name: dict[str, list[float]] = field(default_factory=dict)


def play_match(
    bot_names: Sequence[str],
    rules: Rules,
    hands: int,
    seed: str,
    *,
    stack_bb: int = 100,
    progress: Callable[[int], None] | None = None,
) -> MatchResult:
    """Play at least ``hands`` hands (rounded up to a whole number of decks per
    rotation) and report each bot. ``progress(hands_done)`` is called after each deck."""
    n = len(bot_names)
    if not 2 <= n <= 8:
        raise InvalidConfig(f"a match needs 2 to 8 bots, got {n}")
    if hands < 1:
        raise InvalidConfig(f"hands must be at least 1, got {hands}")
    if stack_bb < 1:
        raise InvalidConfig(f"stack must be at least 1 big blind, got {stack_bb}")
    rules = rules.replace(max_seats=max(n, 2))
    unit = rules.invito if rules.is_italian else rules.big_blind or rules.bet_sizes[0]
    stack = stack_bb * unit
    decks = math.ceil(hands / n)
    sessions = []
    for rotation in range(n):
        bots: dict[int, Bot] = {}
        names: dict[int, str] = {}
        for seat in range(1, n + 1):
            name = bot_names[(seat - 1 + rotation) % n]
            bot = make_bot(name, seed=f"{seed}:{rotation}:{seat}")
            bot.sit(seat, rules)
            bots[seat] = bot
            names[seat] = name
        sessions.append(_Session(bots, names))
    distinct = list(dict.fromkeys(bot_names))
    copies = {name: bot_names.count(name) for name in distinct}
    per_deck: dict[str, list[float]] = {name: [] for name in distinct}
    timing = {name: _Timing() for name in distinct}
    started = time.perf_counter()
    for index in range(decks):
        deck = deck_seed(seed, index)
        button = index % n + 1
        totals = dict.fromkeys(distinct, 0)
        for session in sessions:
            for seat, net in _play_hand(session, rules, deck, button, stack, index, timing):
                totals[session.names[seat]] += net
        for name in distinct:
            per_deck[name].append(totals[name] / (n * copies[name]))
        if progress is not None:
            progress((index + 1) * n)
    seconds = time.perf_counter() - started
    results = []
    for name in distinct:
        samples = per_deck[name]
        mean = statistics.fmean(samples)
        sd = statistics.stdev(samples) if len(samples) > 1 else 0.0
        t = timing[name]
        results.append(
            BotResult(
                name=name,
                seats=copies[name],
                hands=decks * n * copies[name],
                bb_per_100=100 * mean / unit,
                ci95=100 * 1.96 * sd / math.sqrt(len(samples)) / unit,
                decisions=t.count,
                mean_decision_ms=1000 * t.total / max(t.count, 1),
                max_decision_ms=1000 * t.worst,
            )
        )
    return MatchResult(
        bots=tuple(bot_names),
        rules=rules,
        seed=seed,
        decks=decks,
        hands=decks * n,
        unit=unit,
        results=tuple(results),
        seconds=seconds,
    )


def _play_hand(
    session: _Session,
    rules: Rules,
    deck: bytes,
    button: int,
    stack: int,
    index: int,
    timing: dict[str, _Timing],
) -> list[tuple[int, int]]:
    """Play one hand of a session; return (seat, net chips)."""
    seats = sorted(session.bots)
    hand = Hand(
        rules,
        dict.fromkeys(seats, stack),
        button,
        seed=deck,
        carried_pot=session.carried,
        hand_id=f"m{index}",
        first_seq=session.next_seq,
        commit=False,  # nothing is published: no deck commitments
    )
    clock = time.perf_counter
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        seat = legal.seat
        bot = session.bots[seat]
        start = clock()
        action = bot.decide(hand.view(seat), legal, hand.events_for(seat))
        spent = clock() - start
        t = timing[session.names[seat]]
        t.count += 1
        t.total += spent
        t.worst = max(t.worst, spent)
        try:
            hand.act(action)
        except IllegalAction as error:
            raise IllegalAction(
                f"bot {session.names[seat]!r} at seat {seat} chose an illegal action "
                f"{action} in hand {index}: {error}"
            ) from error
    for seat, bot in session.bots.items():
        bot.observe(hand.events_for(seat))
    result = hand.result
    session.carried = result.carried_pot
    session.next_seq = hand.next_seq
    return list(result.net.items())


__all__ = ["BotResult", "MatchResult", "deck_seed", "play_match"]
