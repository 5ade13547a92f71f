"""The layers are enforced: the import contracts in pyproject.toml (run by
``make lint``) hold for the tree, and break when an engine module imports the
server or when two modules of a package import each other."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT = Path(sys.executable).parent / "lint-imports"

pytestmark = pytest.mark.skipif(not LINT.exists(), reason="import-linter is not installed")


def _lint(tree: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    return subprocess.run(
        [str(LINT), "--no-cache", str(tree / "pyproject.toml")],
        cwd=tree, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def _copy(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    shutil.copytree(
        ROOT / "src" / "drawpoker",
        tree / "src" / "drawpoker",
        ignore=shutil.ignore_patterns("__pycache__", "*.so", "web"),
    )
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    return tree


def test_the_tree_keeps_every_contract(tmp_path: Path) -> None:
    result = _lint(_copy(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_an_engine_module_importing_the_server_breaks_the_layers(tmp_path: Path) -> None:
    tree = _copy(tmp_path)
    hand = tree / "src" / "drawpoker" / "hand.py"
    hand.write_text(hand.read_text() + "\nfrom drawpoker.server import app as _app  # noqa\n")
    result = _lint(tree)
    assert result.returncode != 0
    assert "The engine imports nothing above it" in result.stdout
    assert "drawpoker.hand -> drawpoker.server.app" in result.stdout


def test_a_cycle_between_two_modules_of_a_package_is_refused(tmp_path: Path) -> None:
    tree = _copy(tmp_path)
    ledger = tree / "src" / "drawpoker" / "server" / "ledger.py"
    ledger.write_text(
        ledger.read_text() + "\nfrom drawpoker.server import lobby as _lobby  # noqa\n"
    )
    lobby = tree / "src" / "drawpoker" / "server" / "lobby.py"
    lobby.write_text(
        lobby.read_text() + "\nfrom drawpoker.server import ledger as _ledger  # noqa\n"
    )
    result = _lint(tree)
    assert result.returncode != 0
    assert "No cycles are allowed in drawpoker.server" in result.stdout
