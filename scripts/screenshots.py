"""Regenerate docs/screenshots/*.png and *.svg: run the browser tests and the
terminal client's tests with screenshots on.

    .venv/bin/python scripts/screenshots.py

- the lobby, a table in the middle of the draw and the replayer, played against
  bots on a desktop (1280x800) and a phone (390x844): ``tests/web/test_browser.py``;
- the Tournaments tab, a tournament lobby and a finished sit & go:
  ``tests/web/test_tournaments.py``;
- the table at every screen the client is tested on (desktops of 1280x720 and
  1366x768, phones of 390x844 and 360x740): your turn with the bet sizer, the draw,
  a showdown of four hands and an 8-max table: ``tests/web/test_table_layout.py``;
- the terminal client (``drawpoker play``, SVG from Textual): the lobby and a table
  at the draw with two cards marked: ``tests/tui/test_tui_play.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = [
    ("tests/web/test_browser.py", "newcomer"),
    ("tests/web/test_tournaments.py", "tournaments_tab or finishing_place"),
    ("tests/web/test_table_layout.py", "cash_table or draw_fits or legible or (told_apart and 8)"),
    ("tests/tui/test_tui_play.py", "register_sit_play"),
]


def main() -> int:
    env = {**os.environ, "DRAWPOKER_SCREENSHOTS": "1"}
    code = 0
    for path, select in TESTS:
        cmd = [sys.executable, "-m", "pytest", "-q", path, "-k", select]
        code = code or subprocess.run(cmd, cwd=ROOT, env=env, check=False).returncode
    shots = (ROOT / "docs" / "screenshots").glob("*.*")
    for shot in sorted(p for p in shots if p.suffix in (".png", ".svg")):
        print(shot.relative_to(ROOT))
    return code


if __name__ == "__main__":
    sys.exit(main())
