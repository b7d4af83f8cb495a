"""What `make run` (tools.local_run) adds to the environment of the processes it starts."""

from __future__ import annotations

import stat

from tools.local_run import local_environment


def test_serves_plain_http_with_debug_off_and_a_key_kept_for_the_checkout(tmp_path) -> None:
    env = local_environment({"PATH": "/bin"}, tmp_path)
    assert env["PATH"] == "/bin"
    assert env["DEBUG"] == "false"
    for name in ("SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE"):
        assert env[name] == "false"
    assert env["SECURE_HSTS_SECONDS"] == "0"
    key_file = tmp_path / "secret_key"
    assert len(env["SECRET_KEY"]) >= 50
    assert key_file.read_text().strip() == env["SECRET_KEY"]
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    # The next start signs with the same key, so players stay signed in across restarts.
    assert local_environment({}, tmp_path)["SECRET_KEY"] == env["SECRET_KEY"]


def test_what_the_environment_sets_wins(tmp_path) -> None:
    env = local_environment({"DEBUG": "true", "SECRET_KEY": "mine"}, tmp_path)
    assert env["DEBUG"] == "true" and env["SECRET_KEY"] == "mine"
    assert not (tmp_path / "secret_key").exists()


def test_an_empty_key_file_is_replaced(tmp_path) -> None:
    (tmp_path / "secret_key").write_text("\n")
    assert len(local_environment({}, tmp_path)["SECRET_KEY"]) >= 50
