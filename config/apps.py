"""Local folders (the SQLite database's and STATIC_ROOT) created when a process starts.

Not at settings import: a read-only image that uses PostgreSQL and collected its static
files at build time must be able to import the settings without writing anything.
"""

from __future__ import annotations

from contextlib import suppress
from pathlib import Path

from django.apps import AppConfig
from django.conf import settings


class LocalFoldersConfig(AppConfig):
    name = "config"
    label = "local_folders"

    def ready(self) -> None:
        folders = [Path(settings.STATIC_ROOT)]  # WhiteNoise warns at start when it is missing
        database = settings.DATABASES["default"]
        if database["ENGINE"].endswith("sqlite3"):
            # SQLite creates the file, not the folder it goes in.
            folders += [Path(database["NAME"]).parent, Path(database["TEST"]["NAME"]).parent]
        for folder in folders:
            # Read-only: nothing will write there either, or that write fails loudly itself.
            with suppress(OSError):
                folder.mkdir(parents=True, exist_ok=True)
