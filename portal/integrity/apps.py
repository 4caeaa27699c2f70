from django.apps import AppConfig


class IntegrityConfig(AppConfig):
    name = "portal.integrity"
    label = "integrity"
    verbose_name = "Records verification (§ 811a.7)"
