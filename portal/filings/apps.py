from django.apps import AppConfig


class FilingsConfig(AppConfig):
    name = "portal.filings"
    label = "filings"
    verbose_name = "Filing packages (§ 601a.2, § 601a.10(a))"

    def ready(self) -> None:
        # The filing package is a report run of its own kind: registered with the reports
        # app here, so that app names no higher one; and the trail's words for its build.
        from portal.filings import audit_labels, report

        report.register()
        audit_labels.register()
