"""Run a whole tournament with bots at simulated time (no clock, no I/O).

The simulator drives a ``Tournament`` and one ``TournamentTable`` per table
with exactly the messages a server's actors exchange (``tournament_orders``):
the tournament gives a table a ``HandOrder``, the table plays it and answers
``HandFinished``, and after every hand the tables whose seating changed get
their new ``TableSeats`` (a table in a hand gets it when the hand is over).
No code touches the other side's state.

It plays in rounds: every table that may deal gets an order at the same
simulated time, the hands are played out one table after another (their ends
processed in that order, so balancing only takes players from tables whose
hand is over), and the round lasts as long as its longest hand
(``hand_seconds`` plus ``action_seconds`` per action). Hand-for-hand play on
the bubble falls out of the tournament's own rules.

The bots are a policy ``(hand, legal, rng, player) -> Action``: ``simple_policy``
is a small, fast built-in one (tight-aggressive by hand category);
``BotPolicy(["shark", "tag"])`` plays the players with ``drawpoker.bots``.

Invariants are checked as it runs (``SimulationError`` if one breaks): chips
constant, table sizes within one of each other after balancing, every table's
own seating the tournament's after each round. It counts the players posting
the big blind in two hands in a row (``big_blind_twice``) and, of those, the
ones nothing could prevent (``big_blind_twice_forced``): everyone dealt into
that hand had posted the big blind in their last hand, and fewer players than
tables dealing had not (so some table had none of them).
"""

from __future__ import annotations

import gc
import hashlib
import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

from drawpoker.actions import Action, LegalActions
from drawpoker.errors import DrawPokerError
from drawpoker.evaluator import evaluate
from drawpoker.hand import Hand
from drawpoker.room.structure import standard_levels
from drawpoker.room.tournament import Kind, Status, Tournament, TournamentConfig
from drawpoker.room.tournament_orders import HandSummary
from drawpoker.room.tournament_table import TournamentTable
from drawpoker.rules import Structure

Progress = Callable[[Tournament, float], None]


class Policy(Protocol):
    """Chooses the action of ``player`` (an entry's player name) in ``hand``."""

    def __call__(
        self, hand: Hand, legal: LegalActions, rng: random.Random, player: str = "", /
    ) -> Action: ...


class SimulationError(DrawPokerError, AssertionError):
    """An invariant broke during a simulation."""


def simple_policy(
    hand: Hand, legal: LegalActions, rng: random.Random, player: str = "", /
) -> Action:
    """Bet strong hands, call with pairs when the price is right, draw to what is held."""
    seat = legal.seat
    cards = hand.cards(seat)
    value = evaluate(cards)
    category = value.category  # 1 high card ... 9 straight flush
    if legal.draw:
        if category >= 5:  # straight or better: pat
            return Action.stand_pat(seat)
        ranks = [c >> 2 for c in cards]
        keep = [c for c in cards if ranks.count(c >> 2) >= 2]
        if not keep:
            keep = sorted(cards, reverse=True)[:1]
        return Action.draw(seat, tuple(c for c in cards if c not in keep))
    stack = hand.stack(seat)
    pot = hand.pot_total
    strong = category >= 3 or (category == 2 and max(cards) >> 2 >= 9 and rng.random() < 0.3)
    if legal.max_to and (strong or rng.random() < 0.04):
        if category >= 5 or (category >= 4 and rng.random() < 0.3) or rng.random() < 0.03:
            return Action.bet(seat, legal.max_to)
        target = max(legal.min_to, min(legal.max_to, legal.min_to + pot // 2))
        return Action.bet(seat, target)
    if legal.check:
        return Action.check(seat)
    price = legal.call
    if price * 3 > stack:  # a big call: only with trips or better, some two pairs
        if category >= 4 or (category == 3 and rng.random() < 0.3):
            return Action.call(seat)
        return Action.fold(seat)
    if category >= 3 or (category == 2 and (price * 3 <= pot or price * 8 <= stack)):
        return Action.call(seat)
    if price * 10 <= pot or rng.random() < 0.05:
        return Action.call(seat)
    return Action.fold(seat)


class BotPolicy:
    """Players played by ``drawpoker.bots`` (``make_bot``), one bot per player, the
    kinds dealt round the players in turn. Slower than ``simple_policy``: each
    decision builds the seat's view and event list, as a bot at a real table gets."""

    def __init__(self, kinds: Sequence[str], *, seed: str | bytes = b"") -> None:
        from drawpoker.bots import make_bot

        self._make = make_bot
        self.kinds = list(kinds)
        for kind in self.kinds:
            make_bot(kind)  # unknown names fail now (``UnknownBot``)
        self.seed = seed.hex() if isinstance(seed, bytes) else seed
        self._bots: dict[str, Any] = {}
        self._where: dict[str, tuple[int, int]] = {}

    def __call__(
        self, hand: Hand, legal: LegalActions, rng: random.Random, player: str = "", /
    ) -> Action:
        bot = self._bots.get(player)
        if bot is None:
            kind = self.kinds[len(self._bots) % len(self.kinds)]
            bot = self._bots[player] = self._make(kind, seed=f"{self.seed}/{player}")
        if self._where.get(player) != (id(hand.rules), legal.seat):
            bot.sit(legal.seat, hand.rules)
            self._where[player] = (id(hand.rules), legal.seat)
        action: Action = bot.decide(hand.view(legal.seat), legal, hand.events_for(legal.seat))
        return action

    def observe(self, hand: Hand, players: dict[int, str]) -> None:
        """At the end of a hand, each bot dealt in sees what its seat may see."""
        for p in hand.players:
            bot = self._bots.get(players.get(p.seat, ""))
            if bot is not None:
                bot.observe(hand.events_for(p.seat))


@dataclass(slots=True)
class SimulationResult:
    players: int
    structure: str
    tournament: Tournament
    hands: int = 0
    actions: int = 0  # players' decisions
    rounds: int = 0
    moves: int = 0
    simulated_seconds: float = 0.0
    machine_seconds: float = 0.0  # wall-clock time
    cpu_seconds: float = 0.0  # this process's CPU time
    max_table_spread: int = 0  # largest size difference seen after balancing
    big_blind_twice: int = 0  # players who posted the big blind in two hands in a row
    big_blind_twice_forced: int = 0  # of those, the ones no seating could have avoided
    events: int = 0
    seatings: int = 0  # seating messages sent to tables
    checks: dict[str, int] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        t = self.tournament
        return {
            "players": self.players,
            "structure": self.structure,
            "hands": self.hands,
            "actions": self.actions,
            "rounds": self.rounds,
            "table_moves": self.moves,
            "hand_for_hand_rounds": t.hand_for_hand_rounds,
            "simulated_hours": round(self.simulated_seconds / 3600, 2),
            "machine_seconds": round(self.machine_seconds, 2),
            "cpu_seconds": round(self.cpu_seconds, 2),
            "hands_per_second": round(self.hands / max(self.cpu_seconds, 1e-9)),
            "balancing_work_per_hand": round(t.seating.examined / max(self.hands, 1), 3),
            "prize_pool": t.prize_pool,
            "fees": t.fees,
            "paid": len(t.prizes),
        }


def sit_and_go_config(
    players: int, structure: Structure | str = Structure.NO_LIMIT, **overrides: Any
) -> TournamentConfig:
    """A sit & go for ``players`` (8-handed tables), standard 8-minute levels."""
    kw: dict[str, Any] = {
        "kind": Kind.SIT_AND_GO,
        "structure": Structure(structure),
        "max_entries": players,
        "levels": standard_levels(8.0),
        "seats_per_table": min(8, max(2, players)),
    }
    kw.update(overrides)
    return TournamentConfig(**kw)


@contextmanager
def collector_paused(every: int) -> Iterator[Callable[[int], None]]:
    """Pause CPython's cyclic garbage collector; yield ``tick(hands)``, which runs a
    full collection every ``every`` hands.

    A tournament run makes no reference cycles (everything it drops is freed at
    once), but the collector still walks the live objects -- every table's last
    hand, every entry -- and how often, and how far, grows with them: with it
    running, a 10,000-player tournament spent over a third of its time
    collecting nothing, and played 30% fewer hands a second than a 1,000-player
    one. The occasional full collection bounds what cycles a bot policy might
    make."""
    enabled = gc.isenabled()
    gc.disable()
    last = [0]

    def tick(hands: int) -> None:
        if hands - last[0] >= every:
            last[0] = hands
            gc.collect()

    try:
        yield tick
    finally:
        if enabled:
            gc.enable()


def simulate(
    config: TournamentConfig,
    players: int,
    *,
    seed: str | bytes = b"",
    policy: Policy = simple_policy,
    hand_seconds: float = 20.0,
    action_seconds: float = 4.0,
    progress: Progress | None = None,
    check: bool = True,
    max_rounds: int = 1_000_000,
    reentry_chance: float = 0.0,
) -> SimulationResult:
    """Register ``players`` bots, run the tournament to its end and check invariants.

    With late registration and re-entries configured, a busted bot re-enters with
    ``reentry_chance`` after each round while registration is open. The cyclic
    garbage collector is paused meanwhile (``collector_paused``)."""
    with collector_paused(max(50_000, 4 * players)) as collect:
        return _simulate(
            config,
            players,
            seed=seed,
            policy=policy,
            hand_seconds=hand_seconds,
            action_seconds=action_seconds,
            progress=progress,
            check=check,
            max_rounds=max_rounds,
            reentry_chance=reentry_chance,
            collect=collect,
        )


def _simulate(
    config: TournamentConfig,
    players: int,
    *,
    seed: str | bytes,
    policy: Policy,
    hand_seconds: float,
    action_seconds: float,
    progress: Progress | None,
    check: bool,
    max_rounds: int,
    reentry_chance: float,
    collect: Callable[[int], None],
) -> SimulationResult:
    seed_bytes = seed.encode() if isinstance(seed, str) else seed
    started = time.perf_counter()
    started_cpu = time.process_time()
    rng = random.Random(hashlib.sha256(b"sim:" + seed_bytes).digest())
    t = Tournament(config, seed=seed_bytes, name="sim")
    now = 0.0
    for i in range(players):
        t.register(f"bot{i + 1}", now)
    if t.status is Status.REGISTERING:
        now = max(now, config.start_at)
        t.tick(now)
    if t.status is not Status.RUNNING:
        raise SimulationError(f"the tournament did not start ({t.status})")
    result = SimulationResult(players, str(config.structure), t)
    tables: dict[int, TournamentTable] = {}
    ordered: set[int] = set()  # given an order, hand not finished yet
    held: set[int] = set()  # told a new seating during a hand: given it at the end

    peak = 0

    def send_seatings() -> None:
        nonlocal tables, peak
        for table_id in sorted(t.take_seating_changes()):
            seats = t.table_seats(table_id)
            result.seatings += 1
            if seats.closed:
                tables.pop(table_id).reseat({}, closed=True)
                held.discard(table_id)
                if len(tables) * 4 < peak:  # a dict never shrinks: copy it
                    tables = dict(tables)
                    peak = len(tables)
                continue
            table = tables.get(table_id)
            if table is None:
                table = tables[table_id] = TournamentTable(table_id)
                peak = max(peak, len(tables))
            if table_id in ordered:
                held.add(table_id)
            else:
                table.reseat(seats.seats)

    def finish(table: TournamentTable, at: float) -> HandSummary:
        summary = t.hand_finished(table.take_finished(), at)
        ordered.discard(table.table_id)
        if table.table_id in held and table.table_id in t.tables:
            held.discard(table.table_id)
            table.reseat(t.table_seats(table.table_id).seats)
        send_seatings()
        return summary

    last_bb: dict[int, bool] = {}  # entry -> posted the big blind in their last hand
    deck_rng = random.Random(rng.getrandbits(64))
    while t.status is Status.RUNNING:
        send_seatings()
        result.rounds += 1
        if result.rounds > max_rounds:
            raise SimulationError(f"no winner after {max_rounds} rounds")
        ready = t.ready_tables()
        if not ready:  # only late registration can be holding the tournament: let time pass
            now += 60.0
            t.tick(now)
            continue
        rng.shuffle(ready)
        # Fewer players who did not post the big blind last hand than tables dealing:
        # some table has none, and one of its players posts it twice (forced).
        fresh = sum(
            1
            for table_id in ready
            for e in t.tables[table_id].seats.values()
            if not t.entries[e].posted_big_blind
        )
        # Every table gets its order now; each deals when its turn to be played comes
        # (the same simulated time: only one hand's objects are alive at once).
        orders = []
        for table_id in ready:
            order = t.start_hand(table_id, now)
            if check and table_id not in held and tables[table_id].seats != order.seats:
                raise SimulationError(f"table {table_id} was not told its seating")
            held.discard(table_id)  # the order carries the seating
            ordered.add(table_id)
            orders.append((order, deck_rng.randbytes(32)))
        longest = 0.0
        for order, deck_seed in orders:
            table = tables[order.table_id]
            table.start_hand(order, seed=deck_seed)
            hand = table.hand
            assert hand is not None
            actions = 0
            names = {seat: s.player for seat, s in order.seats.items()}
            while not hand.is_over:
                legal = hand.legal_actions()
                assert legal is not None
                actions += 1
                action = policy(hand, legal, rng, names[legal.seat])
                table.act(action, now + action_seconds * actions)
            longest = max(longest, hand_seconds + action_seconds * actions)
            observe = getattr(policy, "observe", None)
            if observe is not None:
                observe(hand, names)
            summary = finish(table, now + action_seconds * actions)
            result.hands += 1
            result.actions += actions
            result.events += len(hand.events)
            collect(result.hands)
            if check:
                all_posted = all(last_bb.get(entry) for entry in summary.dealt)
                for entry in summary.dealt:
                    posted = entry == summary.big_blind
                    if posted and last_bb.get(entry):
                        result.big_blind_twice += 1
                        if all_posted and fresh < len(ready):
                            result.big_blind_twice_forced += 1
                    last_bb[entry] = posted
        now += longest
        t.tick(now)
        if reentry_chance and t.registration_open:
            _reenter(t, now, rng, reentry_chance)
        if check:
            send_seatings()
            _check_round(t, tables, len(t.entries) * config.starting_stack, result)
        if progress is not None:
            progress(t, now)
    send_seatings()
    result.moves = len(t.moves)
    result.simulated_seconds = now
    result.machine_seconds = time.perf_counter() - started
    result.cpu_seconds = time.process_time() - started_cpu
    return result


def _reenter(t: Tournament, now: float, rng: random.Random, chance: float) -> None:
    by_player: dict[str, list[Any]] = {}
    for entry in t.entries.values():
        by_player.setdefault(entry.player, []).append(entry)
    for player, entries in by_player.items():
        if any(e.alive for e in entries) or len(entries) > t.config.reentries:
            continue
        if len(t.entries) < t.config.max_entries and rng.random() < chance:
            t.register(player, now)


def _check_round(
    t: Tournament, tables: dict[int, TournamentTable], total_chips: int, result: SimulationResult
) -> None:
    chips = t.chips_in_play()
    if chips != total_chips:
        raise SimulationError(f"chips in play {chips}, expected {total_chips}")
    sizes = [len(table.seats) for table in t.tables.values()]
    if sizes and t.status is Status.RUNNING:
        spread = max(sizes) - min(sizes)
        result.max_table_spread = max(result.max_table_spread, spread)
        if spread > 1:
            raise SimulationError(f"table sizes {sorted(sizes)} differ by {spread}")
    if t.status is not Status.RUNNING:
        return  # every table closed
    if tables.keys() != t.tables.keys():
        raise SimulationError(f"tables {sorted(tables)}, the tournament has {sorted(t.tables)}")
    entries = t.entries
    for table_id, table in tables.items():
        seats = t.tables[table_id].seats
        if table.seats != {
            s: (e, entries[e].player, entries[e].stack) for s, e in seats.items()
        }:  # SeatedPlayer tuples compare as plain tuples
            raise SimulationError(f"table {table_id} does not seat whom the tournament seats")
