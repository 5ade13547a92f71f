"""Start-up time of the command line: ``drawpoker --help`` and the first screen of
``drawpoker play``, against ``python -c pass`` run the same way.

Each command runs ``--runs`` times as a fresh process, the commands interleaved so
that a busy machine slows them alike; the table gives each median wall time (from
the spawn to the exit; for ``play``, to the moment the log-in screen has been
drawn, which the client reports with ``--first-screen``), the range, and the
ratio to the bare interpreter's median. ``import drawpoker.evaluator`` and
``import textual.app`` are shown for scale: the evaluator's tables (and numpy)
are what ``--help`` used to pay for; Textual's own import is most of the
client's first screen.

    .venv/bin/python benchmarks/startup.py [--runs 15]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

BIN = Path(sys.executable).parent
TARGET_MS = 150.0


def _commands() -> dict[str, list[str]]:
    py = sys.executable
    return {
        "python -c pass": [py, "-c", "pass"],
        "drawpoker --help": [py, "-m", "drawpoker.cli", "--help"],
        "drawpoker play (first screen)": [py, "-m", "drawpoker.cli", "play", "--first-screen"],
        "import drawpoker.evaluator": [py, "-c", "import drawpoker.evaluator"],
        "import textual.app": [py, "-c", "import textual.app"],
    }


def _once(cmd: list[str]) -> float:
    """Milliseconds from the spawn to the exit, or to the first screen if reported."""
    env = {**os.environ, "DRAWPOKER_STARTED_AT": repr(time.time())}
    started = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL)
    wall = 1000 * (time.perf_counter() - started)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {done.stderr[-2000:]}")
    for line in done.stdout.splitlines():
        if line.startswith("first screen "):
            return float(line.split()[2])
    return wall


def ratio_table(title: str, times: dict[str, list[float]], base: str) -> Table:
    """Each command's median and range (ms), and its median against ``base``'s: the
    ratio and how far over it."""
    floor = statistics.median(times[base])
    table = Table(title=title)
    for column in ("command", "median ms", "range ms", f"× {base}", "over it"):
        table.add_column(column, justify="left" if column == "command" else "right")
    for name, values in times.items():
        median = statistics.median(values)
        table.add_row(
            name,
            f"{median:.0f}",
            f"{min(values):.0f}–{max(values):.0f}",
            f"{median / floor:.2f}",
            f"{median - floor:+.0f} ms",
        )
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    commands = _commands()
    for cmd in commands.values():  # warm the caches (bytecode, page cache)
        _once(cmd)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(args.runs):
        for name, cmd in commands.items():
            times[name].append(_once(cmd))
    title = f"Start-up, median of {args.runs} runs (target: under {TARGET_MS:.0f} ms)"
    Console().print(ratio_table(title, times, "python -c pass"))


if __name__ == "__main__":
    main()
