from django.apps import AppConfig


class SoftwareConfig(AppConfig):
    """The game software under the Board's approval (§ 461a.4, reading:software-approval):
    its approvals, and the Software Installation/Removal Log (§ 811a.7(e))."""

    name = "portal.software"
    label = "software"
    verbose_name = "Game software"

    def ready(self) -> None:
        from portal.core.pages import register_kind_label
        from portal.software import installation_labels

        # What the audit trail calls the installation log's actions, host and fields.
        installation_labels.register()
        register_kind_label("software_host", "Host")
