"""Compile the engine's hot modules with mypyc, next to their sources.

    .venv/bin/python scripts/build_native.py        # make does this

Writes ``src/drawpoker/<module>.cpython-*.so`` for each module of
``drawpoker._native.COMPILED`` and ``src/drawpoker/_native.json``, the SHA-256 of
each source compiled. ``drawpoker._native`` imports the compiled modules only
while every source is unchanged, so after an edit the engine runs as Python until
the next build.
A failed build leaves the pure-Python engine in place, which behaves the same.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "drawpoker"
sys.path.insert(0, str(ROOT / "src"))

from drawpoker._native import COMPILED, MANIFEST, source_digest, sources_to_import  # noqa: E402


def up_to_date() -> bool:
    """Every module built from its current source."""
    built = [next(PACKAGE.glob(f"{name}.*.so"), None) for name in COMPILED]
    return not sources_to_import(PACKAGE) and all(built)


def main() -> int:
    if up_to_date():
        print(f"compiled with mypyc, up to date: {', '.join(COMPILED)}")
        return 0
    from mypyc.build import mypycify
    from setuptools import setup

    sources = [str(PACKAGE / f"{name}.py") for name in COMPILED]
    manifest = PACKAGE / MANIFEST
    manifest.unlink(missing_ok=True)  # the old build is not trusted while this one runs
    digests = {name: source_digest(PACKAGE / f"{name}.py") for name in COMPILED}
    work = ROOT / "build" / "native"  # setuptools must not read the project's pyproject.toml
    work.mkdir(parents=True, exist_ok=True)
    os.chdir(work)
    extensions = mypycify(sources, opt_level="3", group_name="drawpoker_native")
    setup(
        name="drawpoker-native",
        ext_modules=extensions,
        package_dir={"": str(ROOT / "src")},
        script_args=["--quiet", "build_ext", "--inplace"],
    )
    manifest.write_text(json.dumps(digests, indent=2, sort_keys=True) + "\n")
    print(f"compiled with mypyc: {', '.join(COMPILED)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
