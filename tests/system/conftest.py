"""Tests that start processes: Daphne, Celery workers, the supervisor, redis-server, node,
or a fresh Python (tests/live.py starts the platform's). The players and the hygiene after
each test are the shared ones of tests/conftest.py."""
