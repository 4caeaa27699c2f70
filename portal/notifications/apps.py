from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "portal.notifications"
    label = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        # Register the tasks in every process, so a task sent by its name (the game's
        # "limit reached") runs in-process too when there is no broker.
        from portal.notifications import audit_labels, tasks  # noqa: F401

        # What the audit trail calls this app's actions and fields.
        audit_labels.register()
