"""Tournament scale: ``drawpoker simulate-tournament`` at 1,000, 10,000 and 100,000
players, and what a save costs.

Each run is the command itself in a child process (``--json --quiet``, the
built-in ``simple`` policy, 8-handed sit & go, 8-minute levels), seeds
``bench-0``, ``bench-1``, ... the same for every field size. The speed is hands
per second of the child's CPU time spent simulating (``cpu_seconds`` in its
JSON), so a shared, busy machine disturbs it less than wall-clock time would;
the runs take turns (1k, 10k, 100k, 1k, ...) so that a change of load hits
every field alike; the table gives the median over the runs and each field's
ratio to the smallest field's median. ``work/hand`` is the balancing work per finished hand:
the tables whose big-blind risk was worked out (``Seating.examined``; before
the index it was every table between hands, after every hand).

``--saves`` measures the two ways to save a tournament after a hand, at each
field size, once all the entries are seated and one hand has been played:
``tournament_serial.to_dict(t)`` as JSON (everything) and
``tournament_serial.take_save_changes(t)`` as JSON (what that hand changed), median of 5.

    .venv/bin/python benchmarks/tournament.py                    # 1k, 10k, 100k; 3 runs
    .venv/bin/python benchmarks/tournament.py --players 1000 10000 --runs 5
    .venv/bin/python benchmarks/tournament.py --saves --runs 0
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time

from drawpoker.room import tournament_serial
from drawpoker.room.tournament import Tournament
from drawpoker.room.tournament_table import TournamentTable
from drawpoker.tools.tournament_sim import simple_policy, sit_and_go_config


def one_run(players: int, seed: str) -> dict[str, float]:
    """``drawpoker simulate-tournament`` in a child process."""
    code = "import sys; from drawpoker.cli import main; sys.exit(main(sys.argv[1:]))"
    args = [sys.executable, "-c", code, "simulate-tournament", f"--players={players}"]
    args += [f"--seed={seed}", "--json", "--quiet"]
    out = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
    return {
        "hands": out["hands"],
        "cpu": out["cpu_seconds"],
        "wall": out["machine_seconds"],
        "work": out["balancing_work_per_hand"],
    }


def speed(sizes: list[int], runs: int) -> None:
    print(f"simulate-tournament, {runs} run(s) per field, medians (seeds bench-0..{runs - 1})")
    rows: dict[int, list[dict[str, float]]] = {players: [] for players in sizes}
    for r in range(runs):  # the fields take turns: a change of load hits them alike
        for players in sizes:
            rows[players].append(one_run(players, f"bench-{r}"))
    print(
        f"{'players':>8} {'hands':>8} {'CPU s':>8} {'wall s':>8} {'hands/s':>8} "
        f"{'ratio':>6} {'work/hand':>9}"
    )
    base = None
    for players in sizes:
        runs_of = rows[players]
        rate = statistics.median(row["hands"] / row["cpu"] for row in runs_of)
        base = base or rate
        print(
            f"{players:>8,} {statistics.median(r['hands'] for r in runs_of):>8,.0f} "
            f"{statistics.median(r['cpu'] for r in runs_of):>8.1f} "
            f"{statistics.median(r['wall'] for r in runs_of):>8.1f} {rate:>8,.0f} "
            f"{rate / base:>6.2f} {statistics.median(r['work'] for r in runs_of):>9.2f}",
            flush=True,
        )


def saves(sizes: list[int]) -> None:
    print("a save after one hand, median of 5: everything vs what changed")
    print(f"{'entries':>8} {'to_dict+dumps':>14} {'bytes':>11} {'changes+dumps':>14} {'bytes':>7}")
    for players in sizes:
        t = Tournament(sit_and_go_config(players), seed="saves")
        for i in range(players):
            t.register(f"b{i}", 0.0)
        tournament_serial.take_save_changes(t)  # the first: everything
        rng = random.Random(1)
        whole_times, change_times = [], []
        whole = changes = ""
        for _ in range(5):
            table_id = t.ready_tables()[0]
            table = TournamentTable(table_id, t.table_seats(table_id).seats)
            table.start_hand(t.start_hand(table_id, 0.0), seed=rng.randbytes(32))
            while (hand := table.hand) is not None and (legal := hand.legal_actions()):
                table.act(simple_policy(hand, legal, rng), 0.0)
            t.hand_finished(table.take_finished(), 0.0)
            start = time.process_time()
            changes = json.dumps(tournament_serial.take_save_changes(t))
            change_times.append(time.process_time() - start)
            start = time.process_time()
            whole = json.dumps(tournament_serial.to_dict(t))
            whole_times.append(time.process_time() - start)
        print(
            f"{players:>8,} {statistics.median(whole_times) * 1000:>11.1f} ms "
            f"{len(whole):>11,} {statistics.median(change_times) * 1000:>11.2f} ms "
            f"{len(changes):>7,}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[1000, 10_000, 100_000])
    parser.add_argument("--runs", type=int, default=3, help="runs per field size (0: none)")
    parser.add_argument("--saves", action="store_true", help="also measure saving")
    args = parser.parse_args()
    if args.runs:
        speed(args.players, args.runs)
    if args.saves:
        saves(args.players)


if __name__ == "__main__":
    main()
