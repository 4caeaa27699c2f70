"""The audit trail's words for what the reports app writes: each report run requested, run
again and downloaded, and how the trail names a run ("Report run 5 (audit report)")."""

from __future__ import annotations

from portal.audit import labels
from portal.audit.labels import LoadedNames, PicturedObject, words

# After players' money, before the trail's own exports.
ORDER = 50


def _run(run: PicturedObject, names: LoadedNames) -> str | None:
    kind = run.picture.get("kind")
    return f"Report run {run.pk} ({words(kind).lower()} report)" if isinstance(kind, str) else None


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
    labels.register_object_namer("report_run", _run)
