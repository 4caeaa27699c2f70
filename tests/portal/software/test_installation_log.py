"""The Software Installation/Removal Log (§ 811a.7(e)): each host's start of an identity of
the game software, recorded once per host and identity, with the removal of the identity it
replaces there; written by gunicorn's ready hook and Celery's worker_ready signal only."""

from __future__ import annotations

import datetime
import runpy
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.core.management import call_command

from portal.audit.chain import verify_stored
from portal.audit.labels import action_label
from portal.audit.models import AuditEvent
from portal.core.software import SoftwareIdentity, running_identity
from portal.software.installations import HOST_KIND, INSTALLED, REMOVED
from portal.software.services.installations import software_installed

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]
OLD = SoftwareIdentity(version="1.0.0", digest="a" * 64, files=())
NEW = SoftwareIdentity(version="1.1.0", digest="b" * 64, files=())
AT = datetime.datetime(2026, 3, 2, 15, 0, tzinfo=datetime.UTC)


def log(host: str | None = None) -> list[tuple[str, str, str]]:
    """The log, oldest first: (action, host, digest)."""
    events = AuditEvent.objects.filter(object_type=HOST_KIND).order_by("sequence")
    if host is not None:
        events = events.filter(object_id=host)
    return [(e.action, e.object_id, e.after["digest"]) for e in events]


@pytest.mark.clause("811a.7(e)", kind="proves")
def test_811a7_e_a_start_records_the_installation_once_per_host_and_identity():
    first = software_installed(host="web-1", deployed_by="Release pipeline", at=AT, identity=OLD)
    again = software_installed(host="web-1", deployed_by="Release pipeline", identity=OLD)

    assert [e.action for e in first] == [INSTALLED]
    assert again == []
    assert log() == [(INSTALLED, "web-1", OLD.digest)]
    event = first[0]
    assert event.after == {
        "host": "web-1",
        "digest": OLD.digest,
        "version": "1.0.0",
        "deployed_by": "Release pipeline",
        "at": AT.isoformat(),
    }
    assert event.actor is None and event.actor_username == "system"
    assert event.reason == "§ 811a.7(e): 1.0.0 (aaaaaaaaaaaa) started on host web-1"
    assert verify_stored().ok


@pytest.mark.clause("811a.7(e)", kind="proves")
def test_811a7_e_a_new_identity_on_the_same_host_records_its_install_and_the_removal_it_makes():
    software_installed(host="web-1", deployed_by="Dana", identity=OLD)
    software_installed(host="web-2", deployed_by="Dana", identity=OLD)

    events = software_installed(host="web-1", deployed_by="Lee", at=AT, identity=NEW)

    assert [(e.action, e.after["digest"]) for e in events] == [
        (REMOVED, OLD.digest),
        (INSTALLED, NEW.digest),
    ]
    removed = events[0]
    assert removed.after["version"] == "1.0.0"
    assert removed.after["replaced_by"] == NEW.digest
    assert removed.after["deployed_by"] == "Lee"
    assert removed.reason == (
        "§ 811a.7(e): 1.0.0 (aaaaaaaaaaaa) replaced on host web-1 by 1.1.0 (bbbbbbbbbbbb)"
    )
    # The other host still runs the old identity: nothing recorded there.
    assert log("web-2") == [(INSTALLED, "web-2", OLD.digest)]
    # Going back is a change too: the old identity is installed again, the new one removed.
    back = software_installed(host="web-1", deployed_by="Lee", identity=OLD)
    assert [(e.action, e.after["digest"]) for e in back] == [
        (REMOVED, NEW.digest),
        (INSTALLED, OLD.digest),
    ]
    assert verify_stored().ok


@pytest.mark.clause("811a.7(e)", kind="related")
def test_811a7_e_a_host_name_the_log_cannot_hold_is_refused():
    with pytest.raises(ValueError, match=r"§ 811a\.7\(e\)"):
        software_installed(host="", deployed_by="Dana", identity=OLD)
    with pytest.raises(ValueError, match=r"§ 811a\.7\(e\)"):
        software_installed(host="h" * 65, deployed_by="Dana", identity=OLD)
    assert log() == []


def test_811a7_e_the_trail_names_the_two_actions_in_words():
    assert action_label(INSTALLED) == "Software installed"
    assert action_label(REMOVED) == "Software removed"


# --- Where it is written: the servers' start, never an import or a migration ---------------


def _fake_server():
    said = []
    return SimpleNamespace(log=SimpleNamespace(info=lambda *args: said.append(args))), said


@pytest.mark.clause("811a.7(e)", kind="proves")
@pytest.mark.django_db(transaction=True)
def test_811a7_e_gunicorns_ready_hook_records_the_running_software_once(settings):
    settings.JINZI_HOST_NAME = "web-7"
    settings.JINZI_DEPLOYED_BY = "Release pipeline"
    hooks = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    server, said = _fake_server()

    hooks["when_ready"](server)
    hooks["when_ready"](server)  # the master started again, same software: nothing new

    assert log() == [(INSTALLED, "web-7", running_identity().digest)]
    event = AuditEvent.objects.get(action=INSTALLED)
    assert event.after["deployed_by"] == "Release pipeline"
    assert event.after["version"] == running_identity().version
    assert "started on host web-7" in said[0][1]
    assert said[1][1] == "already recorded on this host"


class FakeConsumer:
    """What Celery sends worker_ready from: the worker's consumer (here, only its name)."""

    hostname = "celery@worker-3"


@pytest.mark.clause("811a.7(e)", kind="proves")
@pytest.mark.django_db(transaction=True)
def test_811a7_e_a_celery_worker_becoming_ready_records_the_running_software(settings):
    from celery.signals import worker_ready

    import portal.celery  # noqa: F401 (connects the receiver, as the worker's start does)

    settings.JINZI_HOST_NAME = "worker-3"
    settings.JINZI_DEPLOYED_BY = "Dana"

    consumer = FakeConsumer()
    answers = worker_ready.send(sender=consumer) + worker_ready.send(sender=consumer)

    assert not [answer for _, answer in answers if isinstance(answer, Exception)], answers

    assert log() == [(INSTALLED, "worker-3", running_identity().digest)]


@pytest.mark.clause("811a.7(e)", kind="related")
@pytest.mark.django_db(transaction=True)
def test_811a7_e_importing_the_modules_and_migrating_records_nothing():
    import importlib

    import portal.celery
    import portal.software.startup

    importlib.reload(portal.software.startup)
    runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    call_command("migrate", verbosity=0, interactive=False)

    assert log() == []
