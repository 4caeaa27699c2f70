from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "portal.accounts"
    label = "accounts"
    verbose_name = "People and certificate holders"

    def ready(self) -> None:
        from portal.accounts import signals

        signals.connect()
