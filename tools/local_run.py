"""`make run`: migrate, collect the static files, and start the platform's Procfile.

    .venv/bin/python -m tools.local_run

It serves the site as players see it, on plain HTTP on this machine: `DEBUG` off, so a
bad address or a server error gets the site's own page in the reader's language, never
Django's debug page (a traceback lists a view's local variables, which may hold a game's
hidden tiles). `DEBUG` off needs a secret key: one is made once for this checkout and kept
in var/secret_key, so sessions survive a restart. Cookies are not marked Secure and
nothing redirects to HTTPS, since nothing here serves HTTPS. Whatever the environment
already sets wins: `DEBUG=true make run` is the developer's mode.

Settings are not imported here: they are read from the environment this module builds,
by each process it starts.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VAR_DIR = ROOT / "var"
PROCFILE = ROOT / "platform" / "Procfile"

LOCAL_DEFAULTS = {
    "DEBUG": "false",
    "SECURE_SSL_REDIRECT": "false",
    "SESSION_COOKIE_SECURE": "false",
    "CSRF_COOKIE_SECURE": "false",
    "SECURE_HSTS_SECONDS": "0",
}


def local_secret_key(path: Path) -> str:
    """This checkout's secret key: read from `path`, made there (owner-only) the first time."""
    if path.exists():
        key = path.read_text().strip()
        if key:
            return key
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as file:
        file.write(key + "\n")
    return key


def local_environment(environ: Mapping[str, str], var_dir: Path = VAR_DIR) -> dict[str, str]:
    """`environ` with what serving on http://127.0.0.1 needs, where it does not say otherwise."""
    env = dict(environ)
    for name, value in LOCAL_DEFAULTS.items():
        env.setdefault(name, value)
    if not env.get("SECRET_KEY"):
        env["SECRET_KEY"] = local_secret_key(var_dir / "secret_key")
    return env


def main() -> None:
    env = local_environment(os.environ)
    python = sys.executable
    manage = str(ROOT / "manage.py")
    subprocess.run([python, manage, "migrate", "--noinput"], env=env, check=True)
    collect = [python, manage, "collectstatic", "--noinput", "--verbosity", "0"]
    subprocess.run(collect, env=env, check=True)
    port = env.get("WEB_PORT", "8000")
    print(f"\n  Spectacular Bid is starting on http://127.0.0.1:{port}  (Ctrl-C stops it)\n")
    sys.stdout.flush()
    os.chdir(ROOT)
    os.execve(python, [python, "-m", "tools.supervisor", str(PROCFILE)], env)


if __name__ == "__main__":
    main()
