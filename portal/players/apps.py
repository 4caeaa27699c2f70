from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "portal.players"
    label = "players"
    verbose_name = "Players: registration, identity and exclusion"

    def ready(self) -> None:
        from portal.players import audit_labels

        # What the audit trail calls this app's actions and fields.
        audit_labels.register()
