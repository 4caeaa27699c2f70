"""The audit trail's words for what the reports app writes: each report run requested, run
again and downloaded."""

from __future__ import annotations

from portal.audit import labels

# After players' money, before the trail's own exports.
ORDER = 50


def register() -> None:
    labels.register_actions(
        {
            "report.request": "Report requested",
            "report.retry": "Report run again",
            "report.download": "Report downloaded",
        },
        order=ORDER,
    )
    labels.register_action_groups({"report": "Report"})
    labels.register_object_kinds(["report_run"])
    labels.register_fields({"definition_version": "Report definition version"})
