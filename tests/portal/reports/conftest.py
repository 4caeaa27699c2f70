import pytest

from tests.portal.reports.workers import Workers


@pytest.fixture
def worker_processes(tmp_path, settings):
    """Real Celery worker processes (``workers.Workers``): ``start`` one; every one started
    is stopped at the end. Reports are written under this test's own folder."""
    settings.JINZI_REPORTS_DIR = tmp_path / "reports"
    started = Workers(tmp_path)
    yield started
    started.stop_all()
