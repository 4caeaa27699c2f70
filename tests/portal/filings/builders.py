"""A rules submission ready to be filed: approved, with its layout and paytable, on the game
software this process runs, whose approval letter is in the document store."""

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

from tests.portal.factories import (
    approve_running_software,
    approved_layout,
    approved_paytable,
    approved_rules,
)

LETTER = b"%PDF-1.4\n% the Board's approval letter, as the tests record it\n%%EOF\n"


def store_letter(officer):
    """The running software's approval, its letter stored under the name it records."""
    approval = approve_running_software(officer)
    if not default_storage.exists(approval.document.name):
        default_storage.save(approval.document.name, ContentFile(LETTER))
    return approval


def filed_submission(manager, officer, holder):
    store_letter(officer)
    paytable = approved_paytable(manager, officer, holder)
    layout = approved_layout(manager, officer, holder)
    return approved_rules(manager, officer, holder, paytable, layout)
