"""Settings for Tapete.

Everything comes from the environment; with nothing set the site runs on
embedded defaults (SQLite, the in-memory channel layer, a file-system Celery
broker), so one command starts it on a fresh machine. With DATABASE_URL and
REDIS_URL set it uses PostgreSQL, channels-redis and Redis (docs/architecture.md).
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
RUN_DIR = Path(os.environ.get("TAPETE_RUN_DIR", BASE_DIR / ".run"))


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_bool("DEBUG", True)
DEV_SECRET_KEY = "dev-only-insecure-key-change-me-in-production-0123456789"
SECRET_KEY = os.environ.get("SECRET_KEY", DEV_SECRET_KEY if DEBUG else "")


def weak_secret_key(key: str) -> bool:
    """Django's own test (security.W009) plus our development key: short, repetitive or known."""
    return len(key) < 50 or len(set(key)) < 5 or key.startswith("django-insecure") or key == DEV_SECRET_KEY


if not DEBUG and weak_secret_key(SECRET_KEY):
    raise ImproperlyConfigured(
        "With DEBUG off, SECRET_KEY must be a random value of at least 50 characters "
        "(python -c 'import secrets; print(secrets.token_urlsafe(50))'); bin/run keeps one in .run/."
    )
ALLOWED_HOSTS = [
    h.strip() for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",")
]
# The port bin/run serves (PORT): its local origins are the trusted ones, never another port's.
SITE_PORT = os.environ.get("PORT", "8000").strip() or "8000"
CSRF_TRUSTED_ORIGINS = [
    o.strip()
    for o in os.environ.get(
        "CSRF_TRUSTED_ORIGINS", f"http://127.0.0.1:{SITE_PORT},http://localhost:{SITE_PORT}"
    ).split(",")
    if o.strip()
]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "accounts",
    "cardgames",
    "economy",
    "league",
    "frontend",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.security.SecurityHeadersMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "accounts.context_processors.guest",
            ],
        },
    },
]
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

# --- database ----------------------------------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL", "")
# The connection budget (docs/deploy.md): every process borrows from a pool of at most this many
# PostgreSQL connections — a daphne's HTTP request threads, its table sockets' database threads
# (TABLE_DB_PARALLEL) and its in-process work alike; a Celery pool process holds one per task.
# A thread that finds the pool empty waits up to DATABASE_POOL_TIMEOUT seconds. No persistent
# connections: under ASGI each request has a thread of its own, and Django's docs say to turn
# CONN_MAX_AGE off there and pool instead (issue 26 item 1). 0 turns the pool off.
DATABASE_POOL_SIZE = int(os.environ.get("DATABASE_POOL_SIZE", "8"))
DATABASE_POOL_TIMEOUT = float(os.environ.get("DATABASE_POOL_TIMEOUT", "30"))
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0, conn_health_checks=True)}
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and DATABASE_POOL_SIZE > 0:
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            # none kept open while idle: many processes share the server's max_connections
            "min_size": 0,
            "max_size": DATABASE_POOL_SIZE,
            "timeout": DATABASE_POOL_TIMEOUT,
        }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            "OPTIONS": {
                "timeout": 30,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL;",
            },
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

# --- channels and celery -----------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
CHANNEL_REDIS_SOCKET_TIMEOUT = 15.0


def channel_prefix(redis_url: str) -> str:
    """The channel layer's prefix: Redis pub/sub channels ignore the database number, so the
    prefix carries it — two sites (or test stacks) on one Redis server, each on its own
    database, never hear each other's table groups."""
    database = urlsplit(redis_url).path.strip("/") or "0"
    return f"tapete.{database}."


if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # Redis pub/sub: a group message is published once and reaches each daphne once,
            # which hands it to its own sockets (docs/decisions.md, docs/performance.md)
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                # a read or write on a half-dead connection gives up instead of hanging
                "hosts": [{"address": REDIS_URL, "socket_timeout": CHANNEL_REDIS_SOCKET_TIMEOUT}],
                "prefix": channel_prefix(REDIS_URL),
            },
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {}
else:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer",
            # the process's table sockets share one channel (cardgames/tables/fanout.py): its
            # queue holds every table's messages, beyond the default 100 in a burst
            "CONFIG": {"capacity": 1000},
        }
    }
    # A broker that needs no server: kombu's file-system transport, shared by
    # daphne, the worker and beat through a folder.
    _broker_dir = RUN_DIR / "broker"
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir),
        "data_folder_out": str(_broker_dir),
        "processed_folder": str(_broker_dir / "processed"),
        # kombu's exchange table; its default is ./control (an untracked folder in the checkout)
        "control_folder": str(_broker_dir / "control"),
        "store_processed": False,
    }
CELERY_TASK_IGNORE_RESULT = True
# Who wakes live tables (timeouts, bots, settlement; cardgames/tables/runner.py): Celery beat and
# countdown tasks with Redis; inside daphne on the embedded defaults, whose in-memory channel layer
# a worker process cannot reach; "manual" in tests that drive time themselves.
TABLE_RUNNER = os.environ.get("TABLE_RUNNER", "celery" if REDIS_URL else "inprocess")
TABLE_RUNNER_INTERVAL = float(os.environ.get("TABLE_RUNNER_INTERVAL", "0.25"))
# Seconds a bot "thinks" before its move, so people can follow the table (cardgames/tables/flow.py).
TABLE_BOT_THINK_SECONDS = float(os.environ.get("TABLE_BOT_THINK_SECONDS", "1.0"))
# Seconds a searching (hard) bot may spend on one decision; it always answers by then (docs/bots.md).
BOT_HARD_BUDGET_SECONDS = float(os.environ.get("BOT_HARD_BUDGET_SECONDS", "0.15"))
# The table sockets of one daphne process share one database thread unless this is on: on
# PostgreSQL several threads (each its own connection) let one table's database wait overlap
# another's, and the Table row locked FOR UPDATE keeps each table's moves in order. SQLite has
# one writer at a time, so the embedded defaults keep the single thread.
TABLE_DB_PARALLEL = DATABASE_URL.startswith("postgres") and os.environ.get("TABLE_DB_PARALLEL", "1") == "1"
CELERY_TIMEZONE = "Europe/Madrid"
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_BEAT_SCHEDULE_FILENAME = str(RUN_DIR / "celerybeat-schedule")
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)

# --- auth --------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "frontend:home"
LOGOUT_REDIRECT_URL = "frontend:home"
# Every authenticate() goes through the log-in throttle, the admin's included (accounts/backends.py).
AUTHENTICATION_BACKENDS = ["accounts.backends.ThrottledModelBackend"]
# Log-in throttling (accounts/throttling.py): free failures per (username, address) and per address,
# then waits doubling from the base up to the cap; counts forgotten a day after their last failure.
LOGIN_FREE_FAILURES = int(os.environ.get("LOGIN_FREE_FAILURES", "5"))
LOGIN_IP_FREE_FAILURES = int(os.environ.get("LOGIN_IP_FREE_FAILURES", "30"))
LOGIN_DELAY_BASE_SECONDS = float(os.environ.get("LOGIN_DELAY_BASE_SECONDS", "1"))
LOGIN_DELAY_MAX_SECONDS = float(os.environ.get("LOGIN_DELAY_MAX_SECONDS", str(15 * 60)))
LOGIN_FAILURE_MEMORY_SECONDS = int(os.environ.get("LOGIN_FAILURE_MEMORY_SECONDS", str(24 * 3600)))
# Sign-ups per address and window (accounts/throttling.py).
SIGNUP_MAX_PER_ADDRESS = int(os.environ.get("SIGNUP_MAX_PER_ADDRESS", "5"))
SIGNUP_WINDOW_SECONDS = int(os.environ.get("SIGNUP_WINDOW_SECONDS", "3600"))
# Issue 26's bounds. Wrong room codes per address: free misses, then the log-in delays
# (cardgames/tables/access.py).
ROOM_CODE_FREE_MISSES = int(os.environ.get("ROOM_CODE_FREE_MISSES", "20"))
# Guest identities started per address and window (accounts/guests.py).
GUESTS_MAX_PER_ADDRESS = int(os.environ.get("GUESTS_MAX_PER_ADDRESS", "30"))
GUESTS_WINDOW_SECONDS = int(os.environ.get("GUESTS_WINDOW_SECONDS", "3600"))
# Live rooms (waiting or in play) per host and per address (cardgames/tables/quotas.py).
TABLES_MAX_LIVE_ROOMS = int(os.environ.get("TABLES_MAX_LIVE_ROOMS", "10"))
TABLES_MAX_LIVE_ROOMS_PER_ADDRESS = int(os.environ.get("TABLES_MAX_LIVE_ROOMS_PER_ADDRESS", "30"))
# Open websockets per session and per address, across processes; a dead process's count lapses
# within a lease (accounts/socket_quota.py).
SOCKETS_MAX_PER_SESSION = int(os.environ.get("SOCKETS_MAX_PER_SESSION", "30"))
SOCKETS_MAX_PER_ADDRESS = int(os.environ.get("SOCKETS_MAX_PER_ADDRESS", "100"))
SOCKET_LEASE_SECONDS = float(os.environ.get("SOCKET_LEASE_SECONDS", "30"))

# The daily housekeeping (cardgames/housekeeping.py) drops closed rooms no account sat at once
# idle this many days; unset: a session's life (SESSION_COOKIE_AGE, two weeks).
GUEST_TABLE_RETENTION_DAYS = (
    int(os.environ["GUEST_TABLE_RETENTION_DAYS"]) if os.environ.get("GUEST_TABLE_RETENTION_DAYS") else None
)

# --- i18n --------------------------------------------------------------------
LANGUAGE_CODE = "es"
LANGUAGES = [("es", _("Español")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "Europe/Madrid"
USE_TZ = True
# The league's week and the daily bonus are counted in this zone.
LEAGUE_TIME_ZONE = os.environ.get("LEAGUE_TIME_ZONE", "Europe/Madrid")
# The weekly close waits this long after Monday 00:00 for the last games' settlement.
LEAGUE_CLOSE_DELAY_SECONDS = int(os.environ.get("LEAGUE_CLOSE_DELAY_SECONDS", "600"))

# --- static ------------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = RUN_DIR / "static"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True

# --- DRF ---------------------------------------------------------------------
REST_FRAMEWORK = {
    # CSRF on every unsafe request, anonymous ones included (log-in CSRF is a real attack)
    "DEFAULT_AUTHENTICATION_CLASSES": ["accounts.authentication.CsrfSessionAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "config.schema.TapeteAutoSchema",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 20,
    "EXCEPTION_HANDLER": "config.api.exception_handler",
    # JSON bounded before parsing (issue 13 item 10); forms stay for clients that post them.
    "DEFAULT_PARSER_CLASSES": [
        "config.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # JSON only: an API error is JSON for a browser too (the docs live at /api/docs/).
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "config.parsers.JSONOnlyNegotiation",
}
API_MAX_BODY_BYTES = 64 * 1024
# Any request body (config/bodylimit.py): refused with a 413 before it is read; nginx's
# client_max_body_size says the same (deploy/nginx/tapete.conf).
REQUEST_MAX_BODY_BYTES = int(os.environ.get("REQUEST_MAX_BODY_BYTES", str(1024 * 1024)))
API_MAX_JSON_DEPTH = 16
SPECTACULAR_SETTINGS = {
    "TITLE": "Tapete API",
    "DESCRIPTION": "Accounts, games, wallets and leagues of Tapete.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI served from our own static files: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # `check --deploy` is about deployment (security, issue 13); the schema's lint is not part of it.
    "ENABLE_DJANGO_DEPLOY_CHECK": False,
    "ENUM_NAME_OVERRIDES": {"BotLevelEnum": "cardgames.bots.LEVELS"},
}

# Shared by every process when Redis is there (log-in throttling counts across daphne processes).
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- security (issue 13; Django's deployment checklist, OWASP ASVS L2) ------------------------
# HTTPS: redirect, HSTS and Secure cookies; on by default with DEBUG off. bin/run serves plain
# HTTP on 127.0.0.1 and sets HTTPS=false. Behind a TLS proxy set SECURE_PROXY_SSL_HEADER to the
# header it sets (e.g. X-Forwarded-Proto) so Django knows the request was HTTPS, and list the
# proxy in TRUSTED_PROXIES: only its forwarded headers reach Django (docs/deploy.md).
HTTPS = env_bool("HTTPS", not DEBUG)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", HTTPS)
_proxy_header = os.environ.get("SECURE_PROXY_SSL_HEADER", "").strip()
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_" + _proxy_header.upper().replace("-", "_"), "https") if _proxy_header else None
)
# Reverse proxies whose X-Forwarded-For / X-Forwarded-Proto are believed (config/proxy.py):
# addresses or networks, comma-separated (nginx on the same host: 127.0.0.1). From any other
# peer those headers are dropped, and the peer's own address is the client's.
TRUSTED_PROXIES = [p.strip() for p in os.environ.get("TRUSTED_PROXIES", "").split(",") if p.strip()]
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(365 * 24 * 3600) if HTTPS else "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", HTTPS)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", HTTPS)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = LANGUAGE_COOKIE_SECURE = HTTPS
# Scripts read the CSRF token from /api/auth/csrf, never from the cookie.
SESSION_COOKIE_HTTPONLY = CSRF_COOKIE_HTTPONLY = LANGUAGE_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = CSRF_COOKIE_SAMESITE = LANGUAGE_COOKIE_SAMESITE = "Lax"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Sent on every response by config.security.SecurityHeadersMiddleware: no inline script or style,
# nothing from other sites; sockets go to the page's own origin ('self' covers ws/wss there).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)
# Offline practice (PF-62) runs Python compiled to WebAssembly (Pyodide) in a worker: its page and
# its worker may compile WebAssembly ('wasm-unsafe-eval'; JavaScript's eval stays forbidden).
CONTENT_SECURITY_POLICY_WASM = CONTENT_SECURITY_POLICY.replace(
    "script-src 'self';", "script-src 'self' 'wasm-unsafe-eval';"
)
#: the addresses that get that policy: the practice pages and the practice scripts
CONTENT_SECURITY_POLICY_WASM_PATHS = ("/practicar/", f"/{STATIC_URL}frontend/practice/")
PERMISSIONS_POLICY = (
    "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), "
    "payment=(), usb=(), interest-cohort=()"
)
# Websocket origins (config/origins.py): the page's own origin always; these too (scheme://host:port).
SITE_ORIGINS = [
    o.strip().rstrip("/")
    for o in os.environ.get("SITE_ORIGINS", ",".join(CSRF_TRUSTED_ORIGINS)).split(",")
    if o.strip()
]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
