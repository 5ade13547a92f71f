"""Which engine modules run compiled (mypyc) and which as Python source.

``scripts/build_native.py`` compiles the modules of ``COMPILED`` and records the
SHA-256 of each source in ``_native.json``. The compiled modules are used only
while every source still has that digest; otherwise (an edited source, no build,
or ``DRAWPOKER_PURE=1`` in the environment) the ``.py`` sources are imported.
Both behave the same: the compiled module is built from that very source.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec
    from types import ModuleType

COMPILED = ("hand", "deck", "pots", "legal", "actions")
MANIFEST = "_native.json"
_HERE = Path(__file__).resolve().parent


def source_digest(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


def sources_to_import(directory: Path = _HERE, pure: bool = False) -> set[str]:
    """The modules of COMPILED to import from their ``.py`` source: none while every
    source is the one compiled, else all of them (compiled together, the modules
    call each other's compiled code directly, so one edited source would leave two
    versions of its classes side by side)."""
    import json

    names = set(COMPILED)
    if pure:
        return names
    try:
        built = json.loads((directory / MANIFEST).read_text())
    except (OSError, ValueError):
        return names
    if all(built.get(n) == source_digest(directory / f"{n}.py") for n in names):
        return set()
    return names


class _SourceFinder:
    """Finds ``drawpoker.<name>`` of COMPILED as its ``.py`` file when the sources
    are to be imported; decided at the first engine import, so that a command
    that never imports the engine (``--help``, the terminal client's first
    screen) never hashes its sources."""

    def __init__(self) -> None:
        self.names: set[str] | None = None  # decided on first use

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if not fullname.startswith(f"{__package__}."):
            return None
        name = fullname.rpartition(".")[2]
        if name not in COMPILED:
            return None
        if self.names is None:
            self.names = sources_to_import(pure=bool(os.environ.get("DRAWPOKER_PURE")))
        if name not in self.names:
            return None  # the compiled module, found by the usual finders
        import importlib.util

        return importlib.util.spec_from_file_location(fullname, _HERE / f"{name}.py")


sys.meta_path.insert(0, _SourceFinder())  # before any engine module is imported


def compiled_modules() -> list[str]:
    """The modules of COMPILED that are imported compiled (imports them)."""
    import importlib

    names = []
    for name in COMPILED:
        module = importlib.import_module(f"{__package__}.{name}")
        if not (module.__file__ or "").endswith(".py"):
            names.append(name)
    return names
