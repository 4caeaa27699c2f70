"""The one settings module. Every value comes from the environment (see .env.example).

Defaults give a working local install: the embedded SQLite database under var/,
Celery tasks run in-process, DEBUG off unless asked for.
"""

from __future__ import annotations

import base64
import socket
from datetime import timedelta
from pathlib import Path

from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

from portal.core import queues
from portal.env import (
    env_bool,
    env_choice,
    env_database,
    env_int,
    env_int_list,
    env_list,
    env_str,
    env_token,
)

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("JINZI_VAR_DIR", str(BASE_DIR / "var")))
# Reading the settings creates no folder. Each folder under VAR_DIR is made by what writes
# to it, when it first does: the SQLite file's folder as the database is opened
# (portal.env), the static root as the web process starts (portal.core.staticfiles) or by
# collectstatic, the broker's folders as the Celery app is configured (portal.celery),
# uploads and report files by their storage.

DEBUG = env_bool("DJANGO_DEBUG", False)
SECRET_KEY = env_str("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG=0: the portal does not start on a "
            "built-in key (sessions, password resets and CSRF tokens would be forgeable)"
        )
    # Development only (`make run` sets DJANGO_DEBUG=1): a fixed key, zero configuration.
    SECRET_KEY = "dev-only-insecure-key-jinzi-roulette-do-not-use-in-production"

# The player file sealed at rest (§ 812a.2(d)): Fernet keys, the first sealing, every one
# opening (a rotation puts the new key first: docs/accounts.md); and the key of the digests
# that find a person by name and date of birth. Like the secret key, required in production.
PLAYER_FILE_KEYS = env_list("JINZI_PLAYER_FILE_KEYS", [])
PLAYER_INDEX_KEY = env_str("JINZI_PLAYER_INDEX_KEY", "")
if not PLAYER_FILE_KEYS or not PLAYER_INDEX_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "JINZI_PLAYER_FILE_KEYS and JINZI_PLAYER_INDEX_KEY must be set when DJANGO_DEBUG=0: "
            "the player file is never sealed under a built-in key"
        )
    # Development only: fixed keys, zero configuration (the demo's files are made up).
    PLAYER_FILE_KEYS = PLAYER_FILE_KEYS or ["ZGV2LW9ubHktcGxheWVyLWZpbGUta2V5LWppbnppLTE="]
    PLAYER_INDEX_KEY = PLAYER_INDEX_KEY or "dev-only-player-index-key-jinzi-roulette"
for _key in PLAYER_FILE_KEYS:
    try:
        _fernet_key = base64.urlsafe_b64decode(_key.encode())
    except ValueError:
        _fernet_key = b""
    if len(_fernet_key) != 32:
        raise ImproperlyConfigured(
            "JINZI_PLAYER_FILE_KEYS holds comma-separated Fernet keys: 32 bytes each, in "
            "URL-safe base64 (make one with: python -c 'import base64, os; "
            "print(base64.urlsafe_b64encode(os.urandom(32)).decode())')"
        )
if len(PLAYER_INDEX_KEY) < 32:
    raise ImproperlyConfigured("JINZI_PLAYER_INDEX_KEY must be at least 32 characters long")

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", False)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", False)
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("DJANGO_BEHIND_TLS_PROXY", False) else None
)
# HSTS: once a browser has seen it over TLS, it uses HTTPS only for this long. Sent only on
# HTTPS answers; on by default (a year) when the portal knows it is behind TLS, never on a
# portal served over plain HTTP (`make run`).
_BEHIND_TLS = SECURE_SSL_REDIRECT or SECURE_PROXY_SSL_HEADER is not None
SECURE_HSTS_SECONDS = env_int(
    "DJANGO_HSTS_SECONDS", 365 * 24 * 3600 if _BEHIND_TLS else 0, minimum=0
)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", False)
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True

INSTALLED_APPS = [
    "portal.accounts.adminsite.PortalAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "django_celery_beat",
    "axes",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "csp",
    "portal.core",
    "portal.accounts",
    "portal.audit",
    "portal.software",
    "portal.compliance",
    "portal.game",
    "portal.reports",
    "portal.regulation.apps.RegulationConfig",
    "portal.integrity",
    "portal.notifications",
    "portal.players",
    "portal.filings",
]
# JINZI_DEMO=1 (a flag: 1/0, true/false, yes/no, on/off) installs the demo app: `seed_demo`
# (demo users who share one published password) and the generators of bench histories,
# which write records no service would. `make run`, `make test`, `make bench` and CI set it;
# unset, it is off: production never has the app, its commands or its password.
JINZI_DEMO = env_bool("JINZI_DEMO", False)
if JINZI_DEMO:
    INSTALLED_APPS.append("portal.demo")

MIDDLEWARE = [
    # First, to time the whole answer (django-prometheus; docs/operations.md, Metrics).
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "portal.core.staticfiles.StaticFilesMiddleware",  # WhiteNoise
    "portal.core.middleware.RequestIdMiddleware",
    "portal.core.middleware.RequestSizeLimitMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",
    "portal.core.middleware.PrivateAnswersMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A session idle too long ends before anything else (§ 812a.3(a)(6)).
    "portal.game.sessions.middleware.SessionIdleMiddleware",
    "portal.accounts.middleware.AccountGuardMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    # A page address opened with a method it does not take: a page with a link back.
    "portal.core.middleware.MethodNotAllowedPageMiddleware",
    # Requests and latency by route (the view's name, known once the URL resolved); before
    # axes, so it counts the answer axes gives.
    "portal.metrics.middleware.RequestMetricsMiddleware",
    # Last, as django-axes asks: it turns a locked-out sign-in into its answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "portal.urls"
WSGI_APPLICATION = "portal.wsgi.application"
ASGI_APPLICATION = "portal.asgi.application"

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
                "portal.accounts.context_processors.portal",
                # The header's unread count (lazy: no query unless a page shows it).
                "portal.notifications.context_processors.notifications",
            ],
        },
    },
]

DATABASES = {
    "default": env_database(
        "DATABASE_URL",
        str(VAR_DIR / "jinzi.sqlite3"),
        prepare_threshold=env_int("JINZI_DB_PREPARE_THRESHOLD", 2, minimum=0, maximum=1000),
    )
}
# A streaming replica of the primary (PostgreSQL only): report runs, the auditors' lists and
# PAR sheets read from it, everything else from the primary (portal.core.replica). A run
# waits at most JINZI_REPLICA_WAIT seconds for the replica to replay what it reads, then
# reads the primary and says so. The replica is never migrated: it replays the primary.
if env_str("DATABASE_REPLICA_URL", ""):
    if DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        raise ImproperlyConfigured(
            "DATABASE_REPLICA_URL needs DATABASE_URL: a replica streams from a PostgreSQL primary"
        )
    DATABASES["replica"] = env_database(
        "DATABASE_REPLICA_URL",
        "",
        prepare_threshold=env_int("JINZI_DB_PREPARE_THRESHOLD", 2, minimum=0, maximum=1000),
    )
    # Under test the replica is the primary's mirror: no test database is made on it (it
    # replays the primary's), and it is read only by the tests that ask for it.
    DATABASES["replica"]["TEST"] = {"MIRROR": "default"}
JINZI_READ_REPLICA = env_bool("JINZI_READ_REPLICA", "replica" in DATABASES)
JINZI_REPLICA_WAIT = env_int("JINZI_REPLICA_WAIT", 30, minimum=0, maximum=3600)
DATABASE_ROUTERS = ["portal.core.replica.ReplicaRouter"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Sign-in is Django's own: its model backend and its database sessions. django-axes stands
# in front of it and refuses a username after too many failures from one address.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("JINZI_SIGN_IN_FAILURE_LIMIT", 5, minimum=1, maximum=100)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("JINZI_SIGN_IN_LOCKOUT_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_CLIENT_IP_CALLABLE = "portal.accounts.account_events.client_ip"
# The proxies whose X-Forwarded-For is believed (behind the TLS proxy only): a client that
# reaches the portal another way cannot choose the address it is locked out and logged by.
JINZI_TRUSTED_PROXIES = frozenset(env_list("JINZI_TRUSTED_PROXIES", ["127.0.0.1", "::1"]))
# The audit trail records every sign-in, failure and lock-out; axes keeps only its counters.
AXES_DISABLE_ACCESS_LOG = True
AXES_ENABLE_ACCESS_FAILURE_LOG = False
AXES_VERBOSE = False
# A second factor (TOTP, with recovery codes) for compliance officers and superusers: on
# unless DEBUG (the `make run` profile), and either way by JINZI_REQUIRE_2FA.
JINZI_REQUIRE_2FA = env_bool("JINZI_REQUIRE_2FA", not DEBUG)
OTP_TOTP_ISSUER = "Jinzi Roulette back office"
JINZI_RECOVERY_CODES = 10
# A complaint not yet answered reminds its handlers this many days after it was made
# (Pennsylvania days; reading:complaint-number).
JINZI_COMPLAINT_REMINDER_DAYS = env_int_list("JINZI_COMPLAINT_REMINDER_DAYS", [7, 14, 28])
SESSION_ENGINE = "django.contrib.sessions.backends.db"
# A player's session ends after 15 minutes without activity (§ 812a.3(a)(6)); staff's after
# this many minutes, their own.
JINZI_STAFF_IDLE = timedelta(
    minutes=env_int("JINZI_STAFF_IDLE_MINUTES", 60, minimum=5, maximum=24 * 60)
)
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-us"
# Pages show Pennsylvania time; instants are stored in UTC (reading:pennsylvania-dates).
TIME_ZONE = "America/New_York"
USE_I18N = True
USE_TZ = True
# Date and time formats that name the zone ("2026-01-15 12:30:00 EST"), as the admin shows them.
FORMAT_MODULE_PATH = ["portal.core.formats"]

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
MEDIA_URL = "media/"
MEDIA_ROOT = Path(env_str("JINZI_MEDIA_ROOT", str(VAR_DIR / "media")))
# Report outputs: never under a public URL; served only through a view that checks the role.
# At scale, a folder every worker and web host shares.
JINZI_REPORTS_DIR = Path(env_str("JINZI_REPORTS_DIR", str(VAR_DIR / "reports")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# Requests bigger than this are refused before a view sees them; upload fields
# carry their own, smaller caps.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("JINZI_MAX_REQUEST_BYTES", 12 * 1024 * 1024, minimum=1024)
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
# The largest approval document (a PDF) a compliance officer may upload with a software
# approval (§ 461a.4); within the request limit above.
JINZI_MAX_DOCUMENT_BYTES = env_int(
    "JINZI_MAX_DOCUMENT_BYTES", 10 * 1024 * 1024, minimum=1024, maximum=DATA_UPLOAD_MAX_MEMORY_SIZE
)
JINZI_MAX_ARTWORK_BYTES = env_int(
    "JINZI_MAX_ARTWORK_BYTES", 5 * 1024 * 1024, minimum=1024, maximum=DATA_UPLOAD_MAX_MEMORY_SIZE
)

REST_FRAMEWORK = {
    # The session of the signed-in browser or a bearer API token. No HTTP Basic: a password
    # is typed only on the login page, behind its lockout and second factor. The first class
    # decides the answer to a request with neither: 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "portal.accounts.api.authentication.BearerTokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # drf-spectacular's, plus each operation's documented error answers.
    "DEFAULT_SCHEMA_CLASS": "portal.api.schema.ApiAutoSchema",
    "EXCEPTION_HANDLER": "portal.api.errors.api_exception_handler",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": env_int("JINZI_API_PAGE_SIZE", 50, minimum=1, maximum=1000),
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    # Escape non-ASCII in responses: an error that echoes a malformed key (a lone
    # surrogate) must still encode.
    "UNICODE_JSON": False,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Jinzi Roulette back office API",
    "DESCRIPTION": "Compliance records, offerings and the embedded game (58 Pa. Code § 617b.8).",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI assets come from the sidecar package: the docs work offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Two "kind" fields with different choices: name each enum after what it lists.
    "ENUM_NAME_OVERRIDES": {"ReportKindEnum": "portal.reports.models.ReportKind"},
}

# Email (notifications, docs/notifications.md). With EMAIL_HOST set, mail goes out by SMTP;
# without it, each email is written to the log instead (the console backend: `make run`).
EMAIL_HOST = env_str("EMAIL_HOST", "")
EMAIL_PORT = env_int("EMAIL_PORT", 587, minimum=1, maximum=65535)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured(
        "EMAIL_USE_TLS and EMAIL_USE_SSL are both on: choose one (STARTTLS on 587, or TLS "
        "from the start on 465)"
    )
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 30, minimum=1, maximum=600)
EMAIL_BACKEND = (
    "django.core.mail.backends."
    + env_choice("JINZI_EMAIL_BACKEND", "smtp" if EMAIL_HOST else "console", ("smtp", "console"))
    + ".EmailBackend"
)
if EMAIL_BACKEND.endswith(".smtp.EmailBackend") and not EMAIL_HOST:
    raise ImproperlyConfigured("JINZI_EMAIL_BACKEND=smtp needs EMAIL_HOST, the mail server")
DEFAULT_FROM_EMAIL = env_str(
    "DEFAULT_FROM_EMAIL", "Jinzi Roulette back office <no-reply@localhost>"
)
if "@" not in DEFAULT_FROM_EMAIL or "\n" in DEFAULT_FROM_EMAIL:
    raise ImproperlyConfigured(
        f"DEFAULT_FROM_EMAIL must be an email address; got {DEFAULT_FROM_EMAIL!r}"
    )
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# The portal's address as people reach it: the links in emails start with it.
JINZI_SITE_URL = env_str("JINZI_SITE_URL", "http://127.0.0.1:8000").rstrip("/")
if not JINZI_SITE_URL.startswith(("http://", "https://")) or " " in JINZI_SITE_URL:
    raise ImproperlyConfigured(
        f"JINZI_SITE_URL must be the portal's address, such as https://backoffice.example.com; "
        f"got {JINZI_SITE_URL!r}"
    )
# The hour (Pennsylvania time) of the morning job: dated reminders and daily digests.
JINZI_NOTIFICATIONS_HOUR = env_int("JINZI_NOTIFICATIONS_HOUR", 7, minimum=0, maximum=23)

# The Software Installation/Removal Log (§ 811a.7(e)): each web server and worker, as it
# starts, logs the game software it runs under this host's name (the machine's own unless
# set) and who deployed it (a name or a pipeline, set by the deployment; blank: not known).
JINZI_HOST_NAME = env_str("JINZI_HOST_NAME", socket.gethostname())
if not 0 < len(JINZI_HOST_NAME) <= 64 or any(c.isspace() for c in JINZI_HOST_NAME):
    raise ImproperlyConfigured(
        f"JINZI_HOST_NAME must be 1 to 64 characters with no spaces; got {JINZI_HOST_NAME!r}"
    )
JINZI_DEPLOYED_BY = env_str("JINZI_DEPLOYED_BY", "")
if len(JINZI_DEPLOYED_BY) > 150 or "\n" in JINZI_DEPLOYED_BY:
    raise ImproperlyConfigured(
        f"JINZI_DEPLOYED_BY must be one line of at most 150 characters; got {JINZI_DEPLOYED_BY!r}"
    )

# Celery. `make run` starts a real worker and beat on kombu's filesystem transport
# (CELERY_BROKER_URL=filesystem://: messages are files under var/broker, no server); at
# scale, redis://. With no broker configured at all, tasks run in-process (eagerly): the
# test suite's mode, and what a bare `manage.py` command gets.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "")
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND", "")
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", not CELERY_BROKER_URL)
# With a result backend, an audit report over several gaming days is read in up to this many
# parts (consecutive days) by whichever report workers are free, then joined; 1 reads it in
# one piece. Several parts per worker (a month: 16 parts of about 2 days), so a worker that
# finishes early takes the next part instead of waiting on one slow part (docs/reports.md).
JINZI_AUDIT_SPLITS = env_int("JINZI_AUDIT_SPLITS", 16, minimum=1, maximum=64)
if CELERY_BROKER_URL.startswith("filesystem://"):
    _BROKER_DIR = VAR_DIR / "broker"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_BROKER_DIR),
        "data_folder_out": str(_BROKER_DIR),
        "processed_folder": str(_BROKER_DIR / "processed"),
        "store_processed": False,
        # Which queues each exchange feeds; without it kombu keeps them in ./control,
        # wherever the worker happened to start.
        "control_folder": str(_BROKER_DIR / "control"),
    }
# An unacknowledged message (its worker died mid-run) goes back to the queue after this
# long: longer than any run (the audit report's hard limit is 4 h 5 min), or a run still
# working would be handed to a second worker.
JINZI_BROKER_VISIBILITY_DEFAULT = 5 * 60 * 60
if CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": env_int(
            "JINZI_BROKER_VISIBILITY_TIMEOUT", JINZI_BROKER_VISIBILITY_DEFAULT, minimum=1
        )
    }
# Beat keeps its schedules in the database, editable in the admin (django-celery-beat);
# the entries below are installed there on start, crontabs in America/New_York.
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_TASK_EAGER_PROPAGATES = True
# Schedules are read in Pennsylvania time: "midnight" is local midnight
# (reading:pennsylvania-dates).
CELERY_TIMEZONE = "America/New_York"
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Queues per kind of work (portal/core/queues.py): each task is routed by its name; a worker
# takes the queues JINZI_WORKER_QUEUES names (comma separated; all by default), so report
# workers and notification workers can be run apart and a slow report never delays a notice.
JINZI_WORKER_QUEUES = queues.worker_queues(env_list("JINZI_WORKER_QUEUES", list(queues.QUEUES)))
CELERY_TASK_QUEUES = tuple(queues.queue(name) for name in JINZI_WORKER_QUEUES)
CELERY_TASK_ROUTES = queues.task_routes()
CELERY_TASK_DEFAULT_QUEUE = queues.SCHEDULE
CELERY_BEAT_SCHEDULE = {
    "expire-due-records": {
        "task": "compliance.expire_due_records",
        # Approvals lapse at Pennsylvania midnight; the job is idempotent, and liveness
        # never waits for it.
        "schedule": crontab(minute=0, hour=0),
    },
    # After the midnight job, so it reports the day as the job left it (reading:pennsylvania-dates).
    "expiry-report-daily": {
        "task": "reports.expiry_daily",
        "schedule": crontab(minute=5, hour=0),
    },
    # Each holder's previous gaming day, once it has ended: hourly, since a holder's day
    # may start at any hour; a report already made is not made again.
    "audit-report-daily": {
        "task": "reports.audit_daily",
        "schedule": crontab(minute=15),
    },
    # § 811a.9(d)(1)'s Player Account Summary, per holder, the same way.
    "account-summary-daily": {
        "task": "reports.account_summary_daily",
        "schedule": crontab(minute=20),
    },
    "audit-report-monthly": {
        "task": "reports.audit_monthly",
        "schedule": crontab(minute=45),
    },
    "resend-stuck-report-runs": {
        "task": "reports.resend_stuck",
        "schedule": crontab(minute="*/5"),
    },
    # Notifications (docs/notifications.md): what happened since the last minute into the
    # inboxes and the outbox, then the emails due; every morning, the dated reminders and the
    # daily digests. Both are idempotent and catch up on what a missed run left.
    "notifications-deliver": {
        "task": "notifications.deliver",
        "schedule": crontab(),
    },
    "notifications-daily": {
        "task": "notifications.daily",
        "schedule": crontab(minute=0, hour=JINZI_NOTIFICATIONS_HOUR),
    },
}

# Metrics (docs/operations.md, "Metrics"): /metrics answers Prometheus only with this
# bearer token; unset, the address is off (404). Each gunicorn worker's metrics go to files
# in PROMETHEUS_MULTIPROC_DIR (read by prometheus_client itself, not here).
JINZI_METRICS_TOKEN = env_token("JINZI_METRICS_TOKEN")

# One Content-Security-Policy for every page: scripts and styles only from this site's
# static files, nothing inline, nothing from elsewhere. Downloads of artwork and charts set
# their own, stricter policies.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
    }
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    # django-axes logs every attempt at INFO; the audit trail already records each one.
    "loggers": {"axes": {"level": "WARNING"}},
    "root": {
        "handlers": ["console"],
        "level": env_choice(
            "JINZI_LOG_LEVEL", "INFO", ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
        ),
    },
}
