from django.apps import AppConfig


class SoftwareConfig(AppConfig):
    """The game software under the Board's approval (§ 461a.4, reading:software-approval):
    its approvals, and the Software Installation/Removal Log (§ 811a.7(e))."""

    name = "portal.software"
    label = "software"
    verbose_name = "Game software"
