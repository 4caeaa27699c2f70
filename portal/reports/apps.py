from django.apps import AppConfig


class ReportsConfig(AppConfig):
    name = "portal.reports"
    label = "reports"
    verbose_name = "Reports"

    def ready(self) -> None:
        # Register the tasks in every process, so a run queued by its task's name runs
        # in-process too when there is no broker (a worker would load them anyway).
        from portal.reports import audit_labels, tasks  # noqa: F401

        # What the audit trail calls this app's actions and fields.
        audit_labels.register()
