"""docs/protocol.md is current: its reference section is what the protocol package
writes, and every message, frame and entry the package knows is in it."""

from __future__ import annotations

from pathlib import Path

from drawpoker.protocol.client import CLIENT_MESSAGES
from drawpoker.protocol.reference import BEGIN, END, markdown
from drawpoker.protocol.server import SERVER_ENTRIES, SERVER_FRAMES

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def test_the_reference_in_the_docs_is_current() -> None:
    text = DOC.read_text("utf-8")
    section = text[text.index(BEGIN) : text.index(END) + len(END)]
    assert section == markdown(), "run: .venv/bin/python scripts/protocol_reference.py"


def test_every_message_is_documented() -> None:
    reference = markdown()
    for cls in (*CLIENT_MESSAGES, *SERVER_FRAMES, *SERVER_ENTRIES):
        assert f"| `{cls.__struct_config__.tag}` |" in reference
