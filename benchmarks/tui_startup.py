"""Time to the first screen of ``drawpoker play``, against Textual's own floor.

Each command runs ``--runs`` times as a fresh process, the commands interleaved so
that a busy machine slows them alike. A command reports the moment it is ready
(``time.time()`` against the spawn time the benchmark hands it in
``DRAWPOKER_STARTED_AT``); for the client that is when its log-in screen has been
drawn (``drawpoker play --first-screen``: see ``PokerApp.first_screen_only``), so
the exit and the interpreter's teardown are not counted. The peers, measured the
same way in the same run:

- ``python -c pass``: the bare interpreter;
- ``import textual.app``: Textual's import alone;
- ``Textual, bare app``: an app with one ``Static``, drawn once: the floor of any
  Textual client;
- ``Textual, log-in widgets``: the same widgets as the log-in screen (inputs,
  buttons, a footer with two keys), no drawpoker: what that screen costs in
  Textual before drawpoker adds anything.

The table gives each median, range, the ratio to the bare Textual app and the
milliseconds over it. ``--terminal`` draws into a pseudo-terminal (Textual's
Linux driver, as a person sees it) instead of the headless driver. Every command
reads its modules' bytecode from a cache of its own that the first (unmeasured)
round writes (``PYTHONPYCACHEPREFIX``), as an installed package's are compiled
once: with ``PYTHONDONTWRITEBYTECODE`` set, drawpoker's own modules would otherwise
be compiled from source at every start while Textual's come compiled.

    .venv/bin/python benchmarks/tui_startup.py [--runs 15] [--terminal]
"""

from __future__ import annotations

import argparse
import fcntl
import os
import re
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time

from rich.console import Console

from startup import ratio_table  # this folder's: run as a script

TARGET_MS = 150.0
_READY_RE = re.compile(rb"first screen ([0-9.]+) ms")

# Every peer ends by printing "first screen N ms" since DRAWPOKER_STARTED_AT, as the
# client does.
_STAMP = (
    "import os, time\n"
    "print('first screen %.1f ms' % "
    "(1000 * (time.time() - float(os.environ['DRAWPOKER_STARTED_AT']))), flush=True)\n"
)
_APP = """
import os, sys, time
from textual.app import App
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import {widgets}

class Peer(App[int]):
    ENABLE_COMMAND_PALETTE = False
    CSS = {css!r}
    BINDINGS = [Binding("ctrl+l", "language", "Language"), Binding("ctrl+q", "quit", "Quit")]

    def compose(self):
{compose}

    def on_mount(self):
        self.call_after_refresh(self.painted)

    def painted(self):
        self.painted_at = time.time()
        self.exit(0)

app = Peer()
app.run(headless=not sys.stdout.isatty())
started = float(os.environ["DRAWPOKER_STARTED_AT"])
print("first screen %.1f ms" % (1000 * (app.painted_at - started)), flush=True)
"""
_BARE = _APP.format(widgets="Static", css="", compose='        yield Static("drawpoker")')
_LOGIN = _APP.format(
    widgets="Button, Footer, Input, Static",
    # the rules of PokerApp.CSS that the log-in screen uses
    css="""
    Button { height: 1; min-width: 6; border: none; margin: 0 1 0 0; padding: 0 1; }
    Input { height: 1; border: none; padding: 0 1; }
    #login-box { width: 60; height: auto; padding: 1 2; }
    #login-box Input { margin-bottom: 1; background: $boost; }
    #login-buttons { height: 1; margin-top: 1; }
    """,
    compose="""        with Vertical(id="login-box"):
            yield Static("[b]Log in[/b]")
            yield Static("intro")
            yield Static("")
            yield Input(placeholder="name")
            yield Input(placeholder="password", password=True)
            with Horizontal(id="login-buttons"):
                yield Button("Log in", variant="primary")
                yield Button("Register")
                yield Button("Guest", variant="success")
            yield Static("")
        yield Footer()""",
)


def _commands() -> dict[str, list[str]]:
    py = sys.executable
    return {
        "python -c pass": [py, "-c", _STAMP],
        "import textual.app": [py, "-c", "import textual.app\n" + _STAMP],
        "Textual, bare app": [py, "-c", _BARE],
        "Textual, log-in widgets": [py, "-c", _LOGIN],
        "drawpoker play (first screen)": [py, "-m", "drawpoker.cli", "play", "--first-screen"],
    }


def _run_in_terminal(cmd: list[str], env: dict[str, str]) -> bytes:
    """Run ``cmd`` on a fresh 100x30 pseudo-terminal and return what it wrote."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    chunks: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # the child has gone and the terminal is closed
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        done = subprocess.run(cmd, env=env, stdin=slave, stdout=slave, stderr=slave, timeout=60)
    finally:
        os.close(slave)
    reader.join(10)
    os.close(master)
    output = b"".join(chunks)
    if done.returncode != 0:
        raise SystemExit(f"{cmd[-1]} failed: {output[-2000:]!r}")
    return output


def _once(cmd: list[str], terminal: bool, pycache: str) -> float:
    """Milliseconds from the spawn to the moment the command says it is ready."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = pycache
    env["DRAWPOKER_STARTED_AT"] = repr(time.time())
    if terminal:
        output = _run_in_terminal(cmd, env)
    else:
        done = subprocess.run(cmd, capture_output=True, env=env, stdin=subprocess.DEVNULL)
        if done.returncode != 0:
            raise SystemExit(f"{cmd[-1]} failed: {done.stderr[-2000:]!r}")
        output = done.stdout
    found = _READY_RE.search(output)
    if found is None:
        raise SystemExit(f"{cmd[-1]} did not say when it was ready: {output[-500:]!r}")
    return float(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--terminal", action="store_true", help="draw into a pseudo-terminal")
    args = parser.parse_args()
    commands = _commands()
    times: dict[str, list[float]] = {name: [] for name in commands}
    with tempfile.TemporaryDirectory(prefix="drawpoker-pycache-") as pycache:
        for cmd in commands.values():  # warm the caches (bytecode, page cache)
            _once(cmd, args.terminal, pycache)
        for _ in range(args.runs):
            for name, cmd in commands.items():
                times[name].append(_once(cmd, args.terminal, pycache))
    driver = "a pseudo-terminal" if args.terminal else "headless"
    title = (
        f"Time to the first screen ({driver}), median of {args.runs} runs "
        f"(target: under {TARGET_MS:.0f} ms)"
    )
    table = ratio_table(title, times, "Textual, bare app")
    Console(width=100).print(table)


if __name__ == "__main__":
    main()
