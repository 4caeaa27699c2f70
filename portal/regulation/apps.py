from django.apps import AppConfig


class RegulationConfig(AppConfig):
    name = "portal.regulation"
    label = "regulation"
    verbose_name = "Regulation"
