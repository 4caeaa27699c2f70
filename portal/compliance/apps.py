from django.apps import AppConfig


class ComplianceConfig(AppConfig):
    name = "portal.compliance"
    label = "compliance"
    verbose_name = "Compliance records"
