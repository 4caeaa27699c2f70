from django.apps import AppConfig


class DemoConfig(AppConfig):
    """Demo data for ``make run``, the test suite and the benches (``seed_demo``, with its
    fixed demo password, and the history generators). It uses every app, so no app may use
    it; it is installed only where JINZI_DEMO=1, so production never has it."""

    name = "portal.demo"
    label = "demo"
    verbose_name = "Demo data"
