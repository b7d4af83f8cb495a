"""Settings, all read from the environment with local defaults (see docs/operations.md)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from infra import filesystem_broker

BASE_DIR = Path(__file__).resolve().parent.parent
# Created when the processes start (config.apps), never here: an image may be read-only.
VAR_DIR = BASE_DIR / "var"

env = environ.Env()

DEBUG = env.bool("DEBUG", default=True)

SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. With DEBUG off the platform refuses to start without a "
            "secret key: export SECRET_KEY to a long random string (see platform/env.example)."
        )
    SECRET_KEY = "insecure-local-development-key-only-used-with-DEBUG-on-0123456789"

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
CSRF_FAILURE_VIEW = "pages.views.csrf_failure"

INSTALLED_APPS = [
    "config.apps.LocalFoldersConfig",
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "axes",
    "statici18n",
    "realtime",
    "accounts",
    "pages",
    "games",
    "ratings",
    "fairplay",
    "lobby",
    "tournaments",
    "user_socket",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "pages.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # NUL in a path, form, cookie or header: a 400 before anything reads it into a query.
    "pages.bad_characters.BadCharactersMiddleware",
    # Above everything that reads the database: a page while it is away is a 503, not a 500.
    "pages.database_away.DatabaseAwayMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "user_socket.context_processors.user_bar",
            ],
        },
    },
]

# --- Database: SQLite file under var/ by default, PostgreSQL through DATABASE_URL.
SQLITE_PATH = VAR_DIR / "db.sqlite3"
DATABASES = {"default": env.db_url("DATABASE_URL", default=f"sqlite:///{SQLITE_PATH}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            # IMMEDIATE takes the write lock at BEGIN, so two writers queue instead of
            # failing with "database is locked" half-way through a transaction.
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
    # A file (not :memory:) so that Daphne and Celery subprocesses started by tests share it;
    # one per test process, so that two test runs on one machine never share a database.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-db-{os.getpid()}.sqlite3")}
else:
    # A pool per process, since opening a connection forks a PostgreSQL backend; checked on
    # checkout, so connections a restart broke are replaced (docs/decisions/postgresql-pool.md).
    DATABASES["default"]["ENGINE"] = "infra.postgresql"
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps them; Django must not
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    # Server-side binding, and statements a connection has run five times prepared, so a
    # move's statements are not parsed and planned every time.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        server_side_binding=True,
        prepare_threshold=env.int("DB_PREPARE_THRESHOLD", default=5),
    )
    DATABASES["default"]["OPTIONS"]["pool"] = {
        "min_size": env.int("DB_POOL_MIN", default=0),
        "max_size": env.int("DB_POOL_MAX", default=24),
        # Waiting longer means the database is away: answer `unavailable` and let the
        # page retry, rather than hold the socket's request.
        "timeout": env.float("DB_POOL_TIMEOUT", default=2.0),
    }
    DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}_{os.getpid()}"}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer, Celery broker and cache when REDIS_URL is set.
REDIS_URL = env.str("REDIS_URL", default="")
CHANNELS_PREFIX = env.str("CHANNELS_PREFIX", default="asgi")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "realtime.channel_layer.SteadyRedisChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        # No read timeout, since redis-py's 5 s equals the layer's blocking
                        # wait for a message; keepalive finds dead peers instead.
                        "socket_timeout": None,
                        "socket_connect_timeout": 5,
                        "socket_keepalive": True,
                    }
                ],
                "prefix": CHANNELS_PREFIX,
                "capacity": 1500,
            },
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": CHANNELS_PREFIX,
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    # kombu's Redis transport, minus its crash when Redis restarts (kombu#582).
    CELERY_BROKER_TRANSPORT = "infra.redis_broker:Transport"
    CELERY_BROKER_TRANSPORT_OPTIONS: dict = {
        "visibility_timeout": 3600,
        # Notice a dead connection (a restarted Redis) within seconds, not at the next read.
        "health_check_interval": 10,
        "socket_keepalive": True,
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    BROKER_DIR = Path(env.str("BROKER_DIR", default=str(VAR_DIR / "broker")))
    CELERY_BROKER_URL = "filesystem://"
    # kombu's filesystem transport with atomic writes (kombu#1551); folders made on first use.
    CELERY_BROKER_TRANSPORT = "infra.filesystem_broker:Transport"
    CELERY_BROKER_TRANSPORT_OPTIONS = filesystem_broker.transport_options(BROKER_DIR)
# A worker's messages reach the sockets of an embedded web process through it (realtime.relay).
EMBEDDED_RELAY_URL = "" if REDIS_URL else env.str("EMBEDDED_RELAY_URL", default="")

CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_QUEUE", default="celery")
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "UTC"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Wait for the broker however long it is away (the default gives up after 100 tries and
# the worker exits); the supervisor or the container restart covers anything else.
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# The clock keeper (games.clock.keeper) runs inside every Celery worker: it settles each
# game at its deadline, beats every HEARTBEAT_SECONDS, and a stall in time-keeping longer
# than FAULT_THRESHOLD_SECONDS is a service fault (docs/architecture.md, "Service faults").
HEARTBEAT_SECONDS = env.float("HEARTBEAT_SECONDS", default=1.0)
FAULT_THRESHOLD_SECONDS = env.float("FAULT_THRESHOLD_SECONDS", default=20.0)
CLOCK_KEEPER = env.bool("CLOCK_KEEPER", default=True)
CLOCK_KEEPER_POLL_SECONDS = env.float("CLOCK_KEEPER_POLL_SECONDS", default=0.2)
# Threads of a clock keeper settling due games at once (PostgreSQL; SQLite takes one).
CLOCK_KEEPER_SETTLERS = env.int("CLOCK_KEEPER_SETTLERS", default=8)
# The computer player (games.computer.moves): it answers within 2 s of its turn starting,
# after a human-like pause of about COMPUTER_PAUSE_SECONDS, thinking at most
# COMPUTER_THINK_SECONDS; a seat silent for COMPUTER_NUDGE_SECONDS is asked again by the
# clock keeper. A replay's "what would the computer play?" thinks COMPUTER_SUGGEST_SECONDS.
COMPUTER_PAUSE_SECONDS = env.float("COMPUTER_PAUSE_SECONDS", default=0.8)
COMPUTER_THINK_SECONDS = env.float("COMPUTER_THINK_SECONDS", default=1.0)
COMPUTER_NUDGE_SECONDS = env.float("COMPUTER_NUDGE_SECONDS", default=5.0)
COMPUTER_SUGGEST_SECONDS = env.float("COMPUTER_SUGGEST_SECONDS", default=1.0)
COMPUTER_SUGGESTIONS_PER_MINUTE = env.int("COMPUTER_SUGGESTIONS_PER_MINUTE", default=20)
# Games against the computer one player may start in any 60 minutes: each costs the
# server real thinking, which other players' games share (0: no limit).
COMPUTER_GAMES_PER_HOUR = env.int("COMPUTER_GAMES_PER_HOUR", default=30)
# Game reviews (games.review, docs/review.md) run on their own queue, so that a flood of
# them never waits in front of a computer's move; a worker consumes it with --queues review.
REVIEW_QUEUE = env.str("REVIEW_QUEUE", default="review")
CELERY_TASK_ROUTES = {"games.review.*": {"queue": REVIEW_QUEUE}}
# Least win chance lost (0..1) for each grade: see docs/review.md for why these.
REVIEW_INACCURACY = env.float("REVIEW_INACCURACY", default=0.04)
REVIEW_MISTAKE = env.float("REVIEW_MISTAKE", default=0.08)
REVIEW_BLUNDER = env.float("REVIEW_BLUNDER", default=0.16)
# Deals sampled per decision, and decisions per part of a review (one task each).
REVIEW_SAMPLES = env.int("REVIEW_SAMPLES", default=40)
REVIEW_PART_SIZE = env.int("REVIEW_PART_SIZE", default=40)
# Reviews one player may ask for in a day (games that were not reviewed by themselves).
REVIEW_REQUESTS_PER_DAY = env.int("REVIEW_REQUESTS_PER_DAY", default=10)
CELERY_BEAT_SCHEDULE = {
    # Pairs "Play now" players whose accepted rating range has widened enough.
    "queue-pair": {"task": "lobby.tasks.queue_pair", "schedule": 1.0},
    "challenges-expire": {"task": "lobby.tasks.challenges_expire", "schedule": 30.0},
    # Arenas start and end on time, pair their free players, push changed standings.
    "arenas-tick": {"task": "tournaments.tasks.arenas_tick", "schedule": 1.0},
    "arenas-schedule": {"task": "tournaments.tasks.arenas_schedule", "schedule": 60.0},
    # Fair play's automatic flags for the moderators (fairplay.flags).
    "fairplay-flags": {
        "task": "fairplay.tasks.flags_scan",
        "schedule": env.float("FAIRPLAY_FLAGS_SCAN_SECONDS", default=600.0),
    },
}
# Arenas one player may create in any 24 hours (admins schedule theirs in the admin).
ARENAS_PER_PLAYER_PER_DAY = env.int("ARENAS_PER_PLAYER_PER_DAY", default=2)
# An arena pairs nobody in its last this many seconds: a game paired then could not end in time.
ARENA_LAST_PAIRING_SECONDS = env.float("ARENA_LAST_PAIRING_SECONDS", default=60.0)
# An arena game counts only when each player made at least this many decisions of their own
# in it (tournaments.arena.counts): a quicker resignation, flag or abort scores nothing,
# breaks no streak and, in a rated arena, moves no rating.
ARENA_MIN_DECISIONS = env.int("ARENA_MIN_DECISIONS", default=3)
# Two players meet at most this many games in a row in an arena, even alone in it.
ARENA_SAME_OPPONENT_MAX_RUN = env.int("ARENA_SAME_OPPONENT_MAX_RUN", default=3)
# An arena game's page goes on to the player's next pairing after this visible countdown.
ARENA_NEXT_GAME_SECONDS = env.float("ARENA_NEXT_GAME_SECONDS", default=3.0)

# --- Fair play (docs/fair-play.md). A player who leaves a game (never presses Start while
# the opponent did, lets a lost game run out on the clock while away, or sits out an arena
# game) waits this many minutes before their next game against a player: the first leave
# the first figure, the next the second, and so on, the last for any beyond. A run of
# LEAVER_CLEAN_GAMES_RESET clean games in a row forgets the leaves before it.
LEAVER_WAIT_MINUTES = env.list("LEAVER_WAIT_MINUTES", cast=int, default=[5, 15, 30, 60])
LEAVER_CLEAN_GAMES_RESET = env.int("LEAVER_CLEAN_GAMES_RESET", default=5)

# --- Reports and moderation (fairplay; docs/fair-play.md). Reports one player may send in
# any 24 hours (0: no limit).
FAIRPLAY_REPORTS_PER_DAY = env.int("FAIRPLAY_REPORTS_PER_DAY", default=10)
# A game is quick for a seat that made fewer than this many decisions of its own in it.
FAIRPLAY_QUICK_GAME_DECISIONS = env.int("FAIRPLAY_QUICK_GAME_DECISIONS", default=6)
# Boosting flag: this many quick rated losses to one opponent within this many hours.
FAIRPLAY_BOOSTING_GAMES = env.int("FAIRPLAY_BOOSTING_GAMES", default=5)
FAIRPLAY_BOOSTING_HOURS = env.float("FAIRPLAY_BOOSTING_HOURS", default=24.0)
# Early-resignation flag: over this many days, a player with at least MIN_GAMES rated games
# who resigned a quick game in at least MIN_SHARE of them, RATIO times the others' share.
FAIRPLAY_EARLY_RESIGN_DAYS = env.float("FAIRPLAY_EARLY_RESIGN_DAYS", default=30.0)
FAIRPLAY_EARLY_RESIGN_MIN_GAMES = env.int("FAIRPLAY_EARLY_RESIGN_MIN_GAMES", default=10)
FAIRPLAY_EARLY_RESIGN_MIN_SHARE = env.float("FAIRPLAY_EARLY_RESIGN_MIN_SHARE", default=0.3)
FAIRPLAY_EARLY_RESIGN_RATIO = env.float("FAIRPLAY_EARLY_RESIGN_RATIO", default=3.0)
# A refund gives back what a marked account won in its rated games of this many days.
FAIRPLAY_REFUND_DAYS = env.float("FAIRPLAY_REFUND_DAYS", default=30.0)

# --- WebSocket abuse limits: messages per window, per connection, per user (all of a
# user's sockets, in any process) and per game (its players' messages). Normal play stays
# far below them; a benchmark may raise them.
WS_RATE_LIMIT_WINDOW = env.float("WS_RATE_LIMIT_WINDOW", default=20.0)
WS_RATE_LIMIT_CONNECTION = env.int("WS_RATE_LIMIT_CONNECTION", default=100)
WS_RATE_LIMIT_USER = env.int("WS_RATE_LIMIT_USER", default=200)
WS_RATE_LIMIT_GAME = env.int("WS_RATE_LIMIT_GAME", default=400)
# Sockets one client address may open in any minute, counted before the session is read
# (realtime.handshake; 0: no limit): a player's pages open one or two each.
WS_CONNECTS_PER_ADDRESS_PER_MINUTE = env.int("WS_CONNECTS_PER_ADDRESS_PER_MINUTE", default=600)
# Messages a connection takes from the shared (user, game) counters at once (realtime.ratelimit).
WS_RATE_LIMIT_LEASE = env.int("WS_RATE_LIMIT_LEASE", default=5)

# --- Accounts
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
# Five failures for one username from one address lock that pair out for 15 minutes.
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = env.float("AXES_COOLOFF_HOURS", default=0.25)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
# The address axes counts is the one every address limit counts (realtime.addresses).
AXES_CLIENT_IP_CALLABLE = "realtime.addresses.axes_client_address"
# Accounts one client address may create in any hour (accounts.limits; 0: no limit).
SIGNUP_RATE_LIMIT_PER_HOUR = env.int("SIGNUP_RATE_LIMIT_PER_HOUR", default=5)

# Proxies whose X-Forwarded-For is believed: addresses or networks (e.g. 10.0.0.5 or
# 10.0.0.0/24). Empty: every limit counts the connection's own peer (docs/fair-play.md).
TRUSTED_PROXIES = env.list("TRUSTED_PROXIES", default=[])

# --- Languages: Spanish and English, Spanish first (the game's original language).
LANGUAGE_CODE = "en"
LANGUAGES = [("es", _("Spanish")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

# --- Static files through WhiteNoise, served by Daphne itself.
STATIC_URL = "/static/"
# A benchmark or test run beside others collects into a folder of its own (tests/live.py).
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(VAR_DIR / "static")))
STATICFILES_DIRS = [BASE_DIR / "static"] if (BASE_DIR / "static").is_dir() else []
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "infra.storage.MinifiedStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG
# The pages' JavaScript catalogues: `make messages` writes static/jsi18n/<language>/djangojs.js
# (committed, like the .mo files), so collectstatic hashes and compresses them as any script.
STATICI18N_ROOT = BASE_DIR / "static"
# Only the project's words (LOCALE_PATHS, always read): with no package named, Django adds
# every installed app's, the admin's calendar among them, which no page's script uses.
STATICI18N_PACKAGES = ("pages",)

# --- Security (check --deploy passes with DEBUG off and HTTPS settings on).
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=not DEBUG)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

# --- Logging: one JSON object a line on stdout.
LOG_LEVEL = env.str("LOG_LEVEL", default="INFO")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "infra.json_logging.JsonFormatter"}},
    "handlers": {
        "stdout": {"class": "logging.StreamHandler", "stream": sys.stdout, "formatter": "json"}
    },
    "root": {"handlers": ["stdout"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["stdout"], "level": LOG_LEVEL, "propagate": False},
        "daphne": {"handlers": ["stdout"], "level": "WARNING", "propagate": False},
    },
}
