"""The Software Installation/Removal Log (§ 811a.7(e)): written as each web server and
worker starts (``portal.software.startup``), never on import or by ``migrate``.

A start records ``software.install`` for the identity it runs when this host's latest
recorded identity is another (or none), and ``software.remove`` for the identity it replaces
there, if any: two events of the audit trail, in one transaction. Once per host and
identity: the trail's lock (``lock_chain``) is taken before this host's latest identity is
read, so a web server and a worker starting together on one host record it once, on
PostgreSQL (an advisory lock) and on SQLite (immediate transactions) alike."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone

from portal.audit.models import AuditEvent
from portal.audit.services import audit_record, lock_chain
from portal.core.software import SoftwareIdentity, running_identity
from portal.software.installations import HOST_KIND, INSTALLED, REMOVED, identity_name

INSTALLED_REASON = "§ 811a.7(e): {software} started on host {host}"
REMOVED_REASON = "§ 811a.7(e): {software} replaced on host {host} by {replacement}"
BAD_HOST = "§ 811a.7(e): a host's name in the log is 1 to 64 characters; got {host!r}"


def installed_on(host: str) -> dict | None:
    """What this host's latest installation recorded (its identity, who deployed it), or
    None if none was ever recorded there."""
    return (
        AuditEvent.objects.filter(object_type=HOST_KIND, object_id=host, action=INSTALLED)
        .order_by("-sequence")
        .values_list("after", flat=True)
        .first()
    )


def software_installed(
    *,
    host: str,
    deployed_by: str,
    at: datetime.datetime | None = None,
    identity: SoftwareIdentity | None = None,
) -> list[AuditEvent]:
    """Record that ``host`` started running ``identity`` (by default the one this process
    runs) at ``at`` (by default now), deployed by ``deployed_by``: the events written, none
    when this host's latest recorded identity is already this one."""
    if not 0 < len(host) <= 64:
        raise ValueError(BAD_HOST.format(host=host))
    identity = identity or running_identity()
    picture = {
        "host": host,
        "digest": identity.digest,
        "version": identity.version,
        "deployed_by": deployed_by,
        "at": (at or timezone.now()).isoformat(),
    }
    software = identity_name(identity.digest, identity.version)
    with transaction.atomic():
        lock_chain()  # before reading: whoever waited here reads what the other wrote
        previous = installed_on(host)
        if previous is not None and previous.get("digest") == identity.digest:
            return []
        events = []
        if previous is not None:
            replaced = identity_name(previous.get("digest", ""), previous.get("version"))
            removed = {
                **picture,
                "digest": previous.get("digest"),
                "version": previous.get("version"),
            }
            reason = REMOVED_REASON.format(software=replaced, host=host, replacement=software)
            events.append(
                _log_entry(REMOVED, host, {**removed, "replaced_by": identity.digest}, reason)
            )
        reason = INSTALLED_REASON.format(software=software, host=host)
        events.append(_log_entry(INSTALLED, host, picture, reason))
        return events


def _log_entry(action: str, host: str, after: dict, reason: str) -> AuditEvent:
    return audit_record(
        actor=None, action=action, object_type=HOST_KIND, object_id=host, after=after, reason=reason
    )
