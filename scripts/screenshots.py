"""Regenerate docs/screenshots/*.png: run the browser tests with screenshots on.

    .venv/bin/python scripts/screenshots.py

The lobby and a table in the middle of the draw, on a desktop (1280×800) and on a
phone (390×844), are taken by ``tests/web/test_browser.py`` while it plays; the
Tournaments tab, a tournament lobby and a finished sit & go by
``tests/web/test_tournaments.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    env = {**os.environ, "DRAWPOKER_SCREENSHOTS": "1"}
    cmd = [sys.executable, "-m", "pytest", "-q", "tests/web/test_browser.py"]
    cmd += ["tests/web/test_tournaments.py", "-k", "newcomer or tournaments_tab or finishing_place"]
    result = subprocess.run(cmd, cwd=ROOT, env=env, check=False)
    for path in sorted((ROOT / "docs" / "screenshots").glob("*.png")):
        print(path.relative_to(ROOT))
    return result.returncode


if __name__ == "__main__":
    sys.exit(main())
