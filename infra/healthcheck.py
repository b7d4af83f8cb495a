"""The container's health check: asks this container's Daphne for `/health/`.

    python -m infra.healthcheck [port]

Exits 0 when the platform answers 200 (database, channel layer and clock keeper all there:
pages/health.py), 1 otherwise. The request names one of ALLOWED_HOSTS and says it came
over HTTPS through the proxy (X-Forwarded-Proto, which the settings trust), so that it is
neither refused for its Host header nor redirected to HTTPS.
"""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request

TIMEOUT_SECONDS = 4.0


def health_host(allowed_hosts: str) -> str:
    """A host name the settings accept: the first of ALLOWED_HOSTS, a leading dot (any
    subdomain) made a name, a wildcard made the loopback."""
    first = next((h.strip() for h in allowed_hosts.split(",") if h.strip()), "127.0.0.1")
    if first == "*":
        return "127.0.0.1"
    return "health" + first if first.startswith(".") else first


def healthy(port: int, host: str) -> bool:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/health/",
        headers={"Host": host, "X-Forwarded-Proto": "https"},
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
            return int(response.status) == 200
    except (urllib.error.URLError, OSError):  # a 503 is an HTTPError, a URLError too
        return False


def main(argv: list[str]) -> int:
    port = int(argv[1]) if len(argv) > 1 else int(os.environ.get("WEB_PORT", "8000"))
    return 0 if healthy(port, health_host(os.environ.get("ALLOWED_HOSTS", ""))) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
