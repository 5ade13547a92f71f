"""Whole tournaments with bots at simulated time, and the CLI that runs them."""

from __future__ import annotations

import gc
import json
import time
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drawpoker.cli import main
from drawpoker.room.events import FinalTable, HandForHand, LevelStarted, PlayerEliminated
from drawpoker.room.structure import standard_levels
from drawpoker.room.tournament import Kind, Status, Tournament, TournamentConfig
from drawpoker.rules import Structure
from drawpoker.tools.tournament_sim import BotPolicy, SimulationResult, simulate, sit_and_go_config


def check_finished(result: SimulationResult, fee: int = 10, buy_in: int = 100) -> None:
    t = result.tournament
    n = len(t.entries)
    assert t.status is Status.FINISHED
    winners = [e for e in t.entries.values() if e.places == (1,)]
    assert len(winners) == 1  # exactly one winner
    assert winners[0].stack == n * t.config.starting_stack  # with every chip
    groups = Counter(e.places for e in t.entries.values())
    for places, count in groups.items():
        assert len(places) == count  # a tie shares exactly as many places as players
    flat = sorted(p for places in groups for p in places)
    assert flat == list(range(1, n + 1))  # places 1..N, each given once
    assert sum(e.prize for e in t.entries.values()) == t.prize_pool == n * buy_in
    assert t.fees == n * fee
    assert result.max_table_spread <= 1
    # Nobody posts the big blind twice in a row unless nothing could prevent it:
    # everyone dealt in had posted it in their last hand, and fewer players than
    # tables had not (see test_the_last_two_big_blinds_cannot_avoid_it).
    assert result.big_blind_twice == result.big_blind_twice_forced
    assert all(e.prize >= 0 for e in t.entries.values())
    paid = [e for e in t.entries.values() if e.prize]
    assert len(paid) <= len(t.prizes) + max(groups.values())


@pytest.mark.parametrize("players", [2, 9, 45, 180])
def test_tournament_simulation(players: int) -> None:
    result = simulate(sit_and_go_config(players), players, seed=f"test-{players}")
    check_finished(result)
    if players >= 45:
        assert result.moves > 0
        assert result.tournament.hand_for_hand_rounds > 0


@pytest.mark.parametrize("structure", ["fixed-limit", "pot-limit"])
def test_tournament_simulation_other_structures(structure: str) -> None:
    result = simulate(sit_and_go_config(45, structure), 45, seed=f"s-{structure}")
    check_finished(result)


def test_simulation_is_reproducible() -> None:
    a = simulate(sit_and_go_config(20), 20, seed="same")
    b = simulate(sit_and_go_config(20), 20, seed="same")
    assert a.tournament.results() == b.tournament.results()
    assert (a.hands, a.moves) == (b.hands, b.moves)


def test_scheduled_with_late_registration_and_reentry() -> None:
    config = TournamentConfig(
        kind=Kind.SCHEDULED,
        max_entries=500,
        min_entries=10,
        start_at=600.0,
        levels=standard_levels(6.0),
        late_registration_levels=3,
        reentries=2,
        fee=7,
    )
    reentered: list[str] = []

    def reenter(t: Tournament, now: float) -> None:
        if not t.registration_open:
            return
        for e in list(t.entries.values()):
            mine = [x for x in t.entries.values() if x.player == e.player]
            if not e.alive and not any(x.alive for x in mine) and len(mine) <= 2:
                t.register(e.player, now)
                reentered.append(e.player)

    result = simulate(config, 30, seed="late", progress=reenter)
    t = result.tournament
    assert reentered
    n = len(t.entries)
    assert n == 30 + len(reentered)
    check_finished(result, fee=7)
    assert Counter(e.player for e in t.entries.values()).most_common(1)[0][1] <= 3


def test_thousand_player_tournament_under_a_minute() -> None:
    started = time.process_time()
    result = simulate(sit_and_go_config(1000), 1000, seed="thousand")
    elapsed = time.process_time() - started
    check_finished(result)
    assert len(result.tournament.prizes) == 150
    assert elapsed < 60, f"{elapsed:.1f} s of machine time"


def test_cli_simulate_tournament(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate-tournament", "--players", "12", "--seed", "S", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "12 players (12 entries, sit & go), no-limit, seed S:" in out
    assert "table moves" in out
    assert "payouts by place: 1: " in out
    assert "Standings" in out


def test_cli_simulate_tournament_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate-tournament", "--players", "9", "--structure", "fixed-limit"]
    assert main([*args, "--seed", "J", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["players"] == 9
    assert data["seed"] == "J"
    assert data["hands"] > 0
    assert data["actions"] > data["hands"]
    assert data["hands_per_second"] > 0
    assert 0 < data["balancing_work_per_hand"] < 10
    results = data["results"]
    assert results["status"] == "finished"
    assert sum(row["prize"] for row in results["standings"]) == results["prize_pool"] == 900
    assert results["fees"] == 90
    assert results["standings"][0]["places"] == [1]


def test_simulation_with_registry_bots() -> None:
    policy = BotPolicy(["tag", "calling-station", "random"], seed="bots")
    result = simulate(sit_and_go_config(12), 12, seed="bots", policy=policy)
    check_finished(result)
    assert len(policy._bots) == 12  # one bot per player


def test_cli_rejects_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate-tournament", "--players", "1"]) == 2
    assert "--players must be 2 or more" in capsys.readouterr().err
    assert main(["simulate-tournament", "--players", "4", "--bots", "nobody", "--quiet"]) == 2
    assert "unknown bot 'nobody'" in capsys.readouterr().err


@settings(max_examples=15, deadline=None)
@given(
    players=st.integers(2, 70),
    seats=st.integers(2, 8),  # 2: heads-up tables
    structure=st.sampled_from(list(Structure)),
    antes=st.sampled_from([None, 1, 4]),
    seed=st.text(max_size=8),
)
def test_random_tournaments_end_properly(
    players: int, seats: int, structure: Structure, antes: int | None, seed: str
) -> None:
    config = sit_and_go_config(
        players,
        structure,
        seats_per_table=min(seats, players),
        levels=standard_levels(5.0, antes_from=antes),
    )
    # The big blind twice in a row only when forced (check_finished), whatever the
    # seats: with 2 whenever two heads-up tables that both lost a player meet; with
    # 3 or more when the players left come from more tables than sit down (31
    # players, 3 seats, fixed limit, seed "": the last two players were both big
    # blinds, see test_the_last_two_big_blinds_cannot_avoid_it).
    check_finished(simulate(config, players, seed=seed))


def test_big_blind_twice_only_when_forced() -> None:
    # The tournament hypothesis found with 3-seat tables: the last two players both
    # came from heads-up tables where they had just posted the big blind.
    config = sit_and_go_config(
        31, Structure.FIXED_LIMIT, seats_per_table=3, levels=standard_levels(5.0)
    )
    result = simulate(config, 31, seed="")
    check_finished(result)
    assert result.big_blind_twice == result.big_blind_twice_forced


def test_tournament_notices_tell_the_story() -> None:
    result = simulate(sit_and_go_config(45), 45, seed="s3")  # one with hand-for-hand rounds
    t = result.tournament
    notices = t.notices
    assert [n.seq for n in notices] == list(range(1, len(notices) + 1))
    kinds = [type(n).__name__ for n in notices]
    assert kinds[0] == "TournamentStarted"
    assert kinds[-1] == "TournamentFinished"
    assert kinds.count("RegistrationClosed") == 1
    assert kinds.count("PlayerEliminated") == 44
    assert kinds.count("PlayerMoved") == len(t.moves) == result.moves
    assert kinds.count("TableBroken") == 5  # 6 tables down to the final table
    assert kinds.count("FinalTable") == 1
    last_break = max(i for i, kind in enumerate(kinds) if kind == "TableBroken")
    assert kinds.index("FinalTable") > last_break
    final = next(n for n in notices if isinstance(n, FinalTable))
    assert 1 < final.players <= 8
    levels = [n.level for n in notices if isinstance(n, LevelStarted)]
    assert levels == list(range(1, len(levels) + 1))
    hfh = [n.on for n in notices if isinstance(n, HandForHand)]
    assert t.hand_for_hand_rounds > 0
    assert hfh == [True, False]  # on at the bubble, off in the money
    assert t.notices_since(len(notices) - 1) == [notices[-1]]
    out = {n.entry: n for n in notices if isinstance(n, PlayerEliminated)}
    assert sum(n.prize for n in out.values()) + notices[-1].prize == t.prize_pool  # type: ignore[attr-defined]


def test_cli_scheduled_with_reentries(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate-tournament", "--players", "30", "--scheduled", "--late-levels", "3"]
    assert main([*args, "--reentries", "1", "--seed", "R", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    results = data["results"]
    entries = results["entries"]
    assert 30 < entries <= 60  # some bots re-entered, at most once each
    assert results["prize_pool"] == entries * 100
    assert results["fees"] == entries * 10
    assert sum(row["prize"] for row in results["standings"]) == results["prize_pool"]
    places = sorted(p for row in results["standings"] for p in row["places"])
    assert len(set(places)) == entries
    assert main(["simulate-tournament", "--players", "9", "--reentries", "1"]) == 2
    assert "need --scheduled" in capsys.readouterr().err


def test_a_simulation_makes_no_reference_cycles() -> None:
    """What lets ``simulate`` pause the cyclic garbage collector: everything a run
    drops is freed by reference counting, whatever the field."""
    assert gc.isenabled()
    gc.collect()
    found = []
    for players in (20, 200):
        simulate(sit_and_go_config(players), players, seed="cycles")
        assert gc.isenabled()  # given back as it was
        found.append(gc.collect())
    assert found == [0, 0]  # nothing left for the collector
    gc.disable()
    try:
        simulate(sit_and_go_config(9), 9, seed="cycles")
        assert not gc.isenabled()
    finally:
        gc.enable()
