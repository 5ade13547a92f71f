"""Rewrite the reference section of docs/protocol.md from the protocol package.

.venv/bin/python scripts/protocol_reference.py
"""

from __future__ import annotations

from pathlib import Path

from drawpoker.protocol.reference import replace

DOC = Path(__file__).resolve().parents[1] / "docs" / "protocol.md"


def main() -> int:
    DOC.write_text(replace(DOC.read_text("utf-8")), "utf-8")
    print(DOC)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
