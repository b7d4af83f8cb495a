# Two commands on a fresh machine: `make run` and `make test`. Only Python 3.11+, make and git needed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-from-lock
# The JavaScript linter only (the page's JavaScript has no build step): npm ci from the lock.
NODE_STAMP := node_modules/.installed-from-lock
export PATH := $(abspath $(BIN)):$(PATH)

.PHONY: run test test-fast test-soak lint format bench bench-bots messages clean-var

$(STAMP): requirements.lock
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes -r requirements.lock
	@touch $(STAMP)

$(NODE_STAMP): package-lock.json
	npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	@touch $(NODE_STAMP)

# DEBUG off, a secret key kept in var/, plain HTTP on the loopback (tools/local_run.py).
run: $(STAMP)
	$(BIN)/python -m tools.local_run

# pytest ends with 5 when it ran no test (a PYTEST_ARGS that selects none): not a failure.
PYTEST := $(BIN)/python -m pytest -p no:cacheprovider
NONE_IS_FINE := || [ $$? -eq 5 ]
# pytest-xdist: one worker more than there are cores, for the tests of tests/system and
# tests/e2e wait on processes and browsers more than they compute; each module of those on
# one worker, the longest handed out first (tests/conftest.py).
WORKERS ?= $(shell $(PYTHON) -c "import os; print((os.cpu_count() or 1) + 1)")
PARALLEL = -n $(WORKERS) --dist loadgroup --no-loadscope-reorder

# Everything but the soak tests: SQLite and in-memory layers on a fresh machine, PostgreSQL
# and Redis when DATABASE_URL and REDIS_URL say where (.ci/run sets both).
test: $(STAMP)
	$(PYTEST) $(PARALLEL) -m "not soak" $(PYTEST_ARGS) $(NONE_IS_FINE)

# What starts no process and drives no browser (all but tests/system and tests/e2e).
test-fast: $(STAMP)
	$(PYTEST) $(PARALLEL) -m "not soak" --ignore=tests/system --ignore=tests/e2e $(PYTEST_ARGS) $(NONE_IS_FINE)

# The tests that wait by design (an idle socket kept a minute, a two-minute burst of tasks,
# outages of a set length), one at a time; .ci/run runs them after `make test`.
test-soak: $(STAMP)
	$(PYTEST) -m soak $(PYTEST_ARGS) $(NONE_IS_FINE)

lint: $(STAMP) $(NODE_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache
	node_modules/.bin/eslint games/static lobby/static pages/static realtime/static tournaments/static user_socket/static static/js

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: $(STAMP)
	$(BIN)/python bench/engine.py

# Regenerates the translation catalogues (needs GNU gettext); the compiled .mo files and the
# pages' JavaScript catalogues made from them (static/jsi18n/) are committed.
messages: $(STAMP)
	$(BIN)/python manage.py makemessages --locale es --locale en --ignore '.venv/*' --ignore 'var/*'
	$(BIN)/python manage.py makemessages --domain djangojs --locale es --locale en --ignore '.venv/*' --ignore 'var/*' --ignore 'static/jsi18n/*'
	$(BIN)/python manage.py compilemessages --ignore '.venv/*'
	$(BIN)/python manage.py compilejsi18n

# The computer players' ladder (issue 13): about 20 minutes on one core.
bench-bots: $(STAMP)
	$(BIN)/python bench/bots.py
