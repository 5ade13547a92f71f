"""drawpoker._native: the compiled engine is used only while built from its current sources."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from drawpoker import _native
from drawpoker._native import COMPILED, MANIFEST, compiled_modules, source_digest, sources_to_import


def write_sources(directory: Path) -> None:
    for name in COMPILED:
        (directory / f"{name}.py").write_text(f"NAME = {name!r}\n")


def test_sources_are_imported_without_a_build_record(tmp_path: Path) -> None:
    write_sources(tmp_path)
    assert sources_to_import(tmp_path) == set(COMPILED)
    (tmp_path / MANIFEST).write_text("not json")
    assert sources_to_import(tmp_path) == set(COMPILED)


def test_one_edited_source_sends_every_module_to_its_source(tmp_path: Path) -> None:
    write_sources(tmp_path)
    record = {name: source_digest(tmp_path / f"{name}.py") for name in COMPILED}
    (tmp_path / MANIFEST).write_text(json.dumps(record))
    assert sources_to_import(tmp_path) == set()
    assert sources_to_import(tmp_path, pure=True) == set(COMPILED)
    (tmp_path / "legal.py").write_text("NAME = 'legal, edited'\n")
    assert sources_to_import(tmp_path) == set(COMPILED)


def test_pure_runs_every_engine_module_from_source() -> None:
    code = "from drawpoker._native import compiled_modules; print(compiled_modules())"
    env = dict(os.environ, DRAWPOKER_PURE="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_the_build_is_used_when_it_matches_its_sources() -> None:
    """``make`` builds the engine; in CI the suite must run on that build."""
    if os.environ.get("DRAWPOKER_PURE"):
        assert compiled_modules() == []
        return
    fresh = not sources_to_import()
    built = all(any(Path(_native.__file__).parent.glob(f"{n}.*.so")) for n in COMPILED)
    if not (fresh and built):
        if os.environ.get("CI"):
            pytest.fail("the engine is not compiled: run scripts/build_native.py")
        pytest.skip("no up-to-date build of the engine: running its Python source")
    assert compiled_modules() == list(COMPILED)
