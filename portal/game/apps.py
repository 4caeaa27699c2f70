from django.apps import AppConfig


class GameConfig(AppConfig):
    name = "portal.game"
    label = "game"
    verbose_name = "Jinzi Roulette game"

    def ready(self) -> None:
        from portal.game import sessions

        sessions.connect()
