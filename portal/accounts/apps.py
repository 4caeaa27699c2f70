from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "portal.accounts"
    label = "accounts"
    verbose_name = "People and certificate holders"

    def ready(self) -> None:
        from portal.accounts import audit_labels, signals

        signals.connect()
        # What the audit trail calls this app's actions and fields.
        audit_labels.register()
