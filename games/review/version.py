"""The version a review is made with: the engine's, the computer's and the review's own code,
and the table. A review made with another version is made again (games.review.services)."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

_GAMES = Path(__file__).resolve().parent.parent
# What decides a review's numbers: the rules, the computer, the valuation and the table.
_FOLDERS = ("engine", "bots")
_REVIEW = ("table.py", "win_table.json", "evaluate.py", "grades.py", "plan.py")


@cache
def review_version() -> str:
    """12 hex digits of a SHA-256 over those files' names and contents, in a fixed order."""
    digest = hashlib.sha256()
    paths = [p for folder in _FOLDERS for p in sorted((_GAMES / folder).glob("*.py"))]
    paths += [_GAMES / "review" / name for name in _REVIEW]
    for path in paths:
        digest.update(str(path.relative_to(_GAMES)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]
