"""Suite-wide fixtures and the PostgreSQL-only marker.

Tests marked ``postgres`` need row locks and real concurrent connections; on the
embedded SQLite default they are skipped with that reason printed (pytest -ra), and
.ci/run runs them in its PostgreSQL pass.
"""

from __future__ import annotations

import pytest
from django.conf import settings

ON_POSTGRES = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
POSTGRES_SKIP_REASON = "needs PostgreSQL (set DATABASE_URL); .ci/run runs it in its PostgreSQL pass"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if ON_POSTGRES:
        return
    skip = pytest.mark.skip(reason=POSTGRES_SKIP_REASON)
    for item in items:
        if "postgres" in item.keywords:
            item.add_marker(skip)
