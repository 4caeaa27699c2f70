"""The audit trail's words for the Software Installation/Removal Log (§ 811a.7(e)): its two
actions, the host they are about, and the fields of their entries."""

from __future__ import annotations

from portal.audit import labels
from portal.audit.labels import LoadedNames, PicturedObject
from portal.software.installations import HOST_KIND, INSTALLED, REMOVED

# After the compliance records in the trail's filter.
ORDER = 20


def _the_host(host: PicturedObject, names: LoadedNames) -> str:
    return f"Host {host.pk}"


def register() -> None:
    labels.register_actions(
        {INSTALLED: "Software installed", REMOVED: "Software removed"}, order=ORDER
    )
    labels.register_action_groups({"software": "Game software"})
    labels.register_object_kinds([HOST_KIND])
    labels.register_object_namer(HOST_KIND, _the_host)
    # The others ("host", "digest", "version", "at") read well in their own words.
    labels.register_fields({"deployed_by": "Deployed by", "replaced_by": "Replaced by (digest)"})
