"""Which engine modules run compiled (mypyc) and which as Python source.

``scripts/build_native.py`` compiles the modules of ``COMPILED`` and records the
SHA-256 of each source in ``_native.json``. The compiled modules are used only
while every source still has that digest; otherwise (an edited source, no build,
or ``DRAWPOKER_PURE=1`` in the environment) the ``.py`` sources are imported.
Both behave the same: the compiled module is built from that very source.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

COMPILED = ("hand", "deck", "pots", "legal", "actions")
MANIFEST = "_native.json"
_HERE = Path(__file__).resolve().parent


def source_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def sources_to_import(directory: Path = _HERE, pure: bool = False) -> set[str]:
    """The modules of COMPILED to import from their ``.py`` source: none while every
    source is the one compiled, else all of them (compiled together, the modules
    call each other's compiled code directly, so one edited source would leave two
    versions of its classes side by side)."""
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


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Finds ``drawpoker.<name>`` as its ``.py`` file for the names given."""

    def __init__(self, names: set[str]) -> None:
        self.names = {f"{__package__}.{name}" for name in names}

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names:
            return None
        source = _HERE / f"{fullname.rpartition('.')[2]}.py"
        return importlib.util.spec_from_file_location(fullname, source)


_SOURCES = sources_to_import(pure=bool(os.environ.get("DRAWPOKER_PURE")))
if _SOURCES:  # runs once, when the package imports this module before any engine module
    sys.meta_path.insert(0, _SourceFinder(_SOURCES))


def compiled_modules() -> list[str]:
    """The modules of COMPILED that are imported compiled (imports them)."""
    names = []
    for name in COMPILED:
        module = importlib.import_module(f"{__package__}.{name}")
        if not (module.__file__ or "").endswith(".py"):
            names.append(name)
    return names
