from django.apps import AppConfig


class ComplianceConfig(AppConfig):
    name = "portal.compliance"
    label = "compliance"
    verbose_name = "Compliance records"

    def ready(self) -> None:
        from portal.compliance import audit_labels
        from portal.compliance.models import (
            Layout,
            Offering,
            Paytable,
            RulesSubmission,
            TermsAndConditions,
        )
        from portal.core.pages import register_kind_label, register_object_kind
        from portal.software.models import SoftwareApproval

        # What the audit trail calls this app's actions and the fields of its records.
        audit_labels.register()
        # How audit events' pages and lists name these records, and link to them.
        for model, title_field, page in (
            (Layout, "title", "compliance:layout-detail"),
            (Paytable, "name", "compliance:paytable-detail"),
            (RulesSubmission, "title", "compliance:rules-detail"),
            (TermsAndConditions, "title", "compliance:terms-detail"),
            (Offering, "name", "compliance:offering-detail"),
            (SoftwareApproval, "software_version", "compliance:software-detail"),
        ):
            register_object_kind(model.kind, model=model, title_field=title_field, detail_url=page)
        # "Terms and conditions", not "Terms".
        register_kind_label(TermsAndConditions.kind, "Terms and conditions")
        register_kind_label(SoftwareApproval.kind, "Software approval")
