from django.apps import AppConfig


class RegulationConfig(AppConfig):
    name = "portal.regulation"
    label = "regulation"
    verbose_name = "Regulation"

    def ready(self) -> None:
        # Pages and emails name a reading by its title (``portal.core.readings``).
        from portal.core.readings import register_titles
        from portal.regulation.register import register

        def title(reading: str) -> str | None:
            clause = register().get(reading)
            return clause.title if clause is not None else None

        register_titles(title)
