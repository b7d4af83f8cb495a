"""The pure layers, imported alone in a fresh interpreter, bring no Django with them:
games.engine (docs/engine-api.md), the computer players (games/bots) and the review's
valuation (games/review's pure modules)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.live import ROOT


@pytest.mark.parametrize("package", ["games.engine", "games.bots"])
def test_a_pure_layer_imports_no_django(package: str) -> None:
    code = (
        f"import sys, importlib, pkgutil, {package} as p\n"
        "for m in pkgutil.iter_modules(p.__path__):\n"
        f"    importlib.import_module(f'{package}.{{m.name}}')\n"
        "bad = [m for m in sys.modules if m == 'django' or m.startswith('django.')]\n"
        "print(bad); sys.exit(1 if bad else 0)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_reviews_valuation_imports_no_django() -> None:
    modules = ["table", "evaluate", "grades", "plan", "selfplay", "version"]
    code = (
        "import sys, importlib\n"
        f"for m in {modules!r}:\n"
        "    importlib.import_module(f'games.review.{m}')\n"
        "bad = [m for m in sys.modules if m == 'django' or m.startswith('django.')]\n"
        "print(bad); sys.exit(1 if bad else 0)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stdout + result.stderr
