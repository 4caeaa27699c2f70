from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "portal.audit"
    label = "audit"
    verbose_name = "Audit trail (§ 811a.7)"

    def ready(self) -> None:
        # What the trail calls its own export and the fields every record has; each app
        # above registers its own words from its ready().
        from portal.audit import audit_labels

        audit_labels.register()
