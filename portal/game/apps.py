from django.apps import AppConfig


class GameConfig(AppConfig):
    name = "portal.game"
    label = "game"
    verbose_name = "Jinzi Roulette game"

    def ready(self) -> None:
        from portal.game import audit_labels, sessions

        sessions.connect()
        # What the audit trail calls this app's actions and fields.
        audit_labels.register()
