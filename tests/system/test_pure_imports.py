"""The pure layers, imported alone in a fresh interpreter, bring no Django with them:
games.engine (docs/engine-api.md) and the computer players (games/bots)."""

from __future__ import annotations

import subprocess
import sys

from tests.live import ROOT


def test_import_does_not_import_django() -> None:
    code = (
        "import sys, importlib, pkgutil, games.engine as e\n"
        "for m in pkgutil.iter_modules(e.__path__):\n"
        "    importlib.import_module(f'games.engine.{m.name}')\n"
        "bad = [m for m in sys.modules if m == 'django' or m.startswith('django.')]\n"
        "print(bad); sys.exit(1 if bad else 0)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_bots_import_no_django() -> None:
    code = (
        "import sys, importlib, pkgutil, games.bots as b\n"
        "for m in pkgutil.iter_modules(b.__path__):\n"
        "    importlib.import_module(f'games.bots.{m.name}')\n"
        "bad = [m for m in sys.modules if m == 'django' or m.startswith('django.')]\n"
        "print(bad); sys.exit(1 if bad else 0)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stdout + result.stderr
