"""Suite-wide fixtures and the PostgreSQL-only marker.

Tests marked ``postgres`` need row locks and real concurrent connections; on the
embedded SQLite default they are skipped with that reason printed (pytest -ra), and
.ci/run runs them in its PostgreSQL pass.
"""

from __future__ import annotations

import tempfile

import pytest
from django.conf import settings
from hypothesis import settings as hypothesis_settings

# Real hashing costs ~0.2 s a user; the suite makes hundreds. Tests only need it to work.
settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Uploaded artwork and report files go to throwaway folders of this process, not the
# developer's var/: nor, when the suite runs in several processes, another process's.
settings.MEDIA_ROOT = tempfile.mkdtemp(prefix="jinzi-test-media-")
settings.JINZI_REPORTS_DIR = tempfile.mkdtemp(prefix="jinzi-test-reports-")

# Property tests prove behaviour, never speed: Hypothesis's per-example deadline (200 ms) fails
# an example that a loaded CI machine merely runs slowly. Speed is measured by `make bench`.
hypothesis_settings.register_profile("jinzi", deadline=None)
hypothesis_settings.load_profile("jinzi")

# The people, records, clients and browser the portal's and the system tests share: one
# module for both, so a session-wide fixture (the browser) is one fixture, not one a folder.
pytest_plugins = ["tests.portal.fixtures"]

ON_POSTGRES = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
POSTGRES_SKIP_REASON = "needs PostgreSQL (set DATABASE_URL); .ci/run runs it in its PostgreSQL pass"


# The fixtures through which a test reaches the database (directly or through a fixture
# built on them: ``holder_a`` needs ``db``).
DATABASE_FIXTURES = frozenset({"db", "transactional_db", "live_server", "django_db_setup"})


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--second-database",
        action="store_true",
        help=(
            "This run repeats the suite on a second database (CI's PostgreSQL pass): run "
            "only the tests whose result can depend on the database. Those that use none, "
            "and the browser tests, ran in the first pass; a test marked postgres or "
            "every_database always runs."
        ),
    )


def depends_on_database(item: pytest.Item) -> bool:
    """Whether ``item``'s result can differ from one database to another: it uses the
    database and drives no browser (the pages a browser drives are the same on every
    database: the browser tests run once), unless marked ``postgres`` or ``every_database``."""
    if item.get_closest_marker("postgres") or item.get_closest_marker("every_database"):
        return True
    fixtures = set(getattr(item, "fixturenames", ()))
    if "page" in fixtures:
        return False
    return item.get_closest_marker("django_db") is not None or bool(fixtures & DATABASE_FIXTURES)


@pytest.hookimpl(trylast=True)  # after tests/system marks its tests
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--second-database"):
        kept = [item for item in items if depends_on_database(item)]
        left_out = [item for item in items if not depends_on_database(item)]
        if left_out:
            config.hook.pytest_deselected(items=left_out)
            items[:] = kept
    if ON_POSTGRES:
        return
    skip = pytest.mark.skip(reason=POSTGRES_SKIP_REASON)
    for item in items:
        if "postgres" in item.keywords:
            item.add_marker(skip)


def _needs_transactional_db(request: pytest.FixtureRequest) -> bool:
    marker = request.node.get_closest_marker("django_db")
    if marker is not None and marker.kwargs.get("transaction"):
        return True
    return bool({"transactional_db", "live_server"} & set(request.fixturenames))


def _needs_db(request: pytest.FixtureRequest) -> bool:
    return request.node.get_closest_marker("django_db") is not None or "db" in request.fixturenames


@pytest.fixture(autouse=True)
def _append_only_audit_table(request: pytest.FixtureRequest):
    """Keep the append-only triggers (audit trail, game records) in place for every database test.

    A transactional test ends by emptying every table, which the triggers refuse; so
    for those tests they are lifted just before that clean-up and put back by the
    next test that touches the database.

    SQLite's JSON support is also asked here, before the test: Django asks the database
    once per connection, and a test's pinned query count must not depend on whether an
    earlier test in the same process happened to ask first.
    """
    from django.db import connection

    from portal.core import append_only

    if _needs_transactional_db(request):
        request.getfixturevalue("transactional_db")
        append_only.install_all(connection)
        assert connection.features.supports_json_field
        yield
        append_only.drop_all(connection)
    elif _needs_db(request):
        request.getfixturevalue("db")
        append_only.install_all(connection)
        assert connection.features.supports_json_field
        yield
    else:
        yield
