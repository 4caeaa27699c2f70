from django.apps import AppConfig


class DemoConfig(AppConfig):
    """Demo data for ``make run``. It uses every app, so no app may use it."""

    name = "portal.demo"
    label = "demo"
    verbose_name = "Demo data"
