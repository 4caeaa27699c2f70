import pytest

from tests.portal.filings.builders import filed_submission


@pytest.fixture
def submission(manager_a, officer, holder_a):
    return filed_submission(manager_a, officer, holder_a)
