"""The Software Installation/Removal Log (§ 811a.7(e)) under a web server and a worker
starting together on one host: each change is recorded once (PostgreSQL: two connections)."""

from __future__ import annotations

import pytest

from portal.audit.chain import verify_stored
from portal.audit.models import AuditEvent
from portal.core.software import SoftwareIdentity
from portal.software.installations import HOST_KIND, INSTALLED, REMOVED
from portal.software.services.installations import software_installed
from tests.portal.concurrency import run_together

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

OLD = SoftwareIdentity(version="1.0.0", digest="a" * 64, files=())
NEW = SoftwareIdentity(version="1.1.0", digest="b" * 64, files=())


def _start(identity: SoftwareIdentity):
    return lambda: software_installed(host="web-1", deployed_by="Dana", identity=identity)


def _log() -> list[tuple[str, str]]:
    events = AuditEvent.objects.filter(object_type=HOST_KIND).order_by("sequence")
    return [(e.action, e.after["digest"]) for e in events]


@pytest.mark.clause("811a.7(e)", kind="proves")
def test_811a7_e_two_processes_starting_together_on_a_new_host_record_one_installation():
    outcomes = run_together(_start(OLD), _start(OLD), _start(OLD))

    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    assert sorted(len(o) for o in outcomes) == [0, 0, 1]
    assert _log() == [(INSTALLED, OLD.digest)]
    assert verify_stored().ok


@pytest.mark.clause("811a.7(e)", kind="proves")
def test_811a7_e_two_processes_starting_a_new_identity_together_record_one_install_and_removal():
    software_installed(host="web-1", deployed_by="Dana", identity=OLD)

    outcomes = run_together(_start(NEW), _start(NEW))

    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    assert sorted(len(o) for o in outcomes) == [0, 2]
    assert _log() == [(INSTALLED, OLD.digest), (REMOVED, OLD.digest), (INSTALLED, NEW.digest)]
    assert verify_stored().ok
